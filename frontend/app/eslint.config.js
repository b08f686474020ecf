import js from "@eslint/js";
import globals from "globals";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

const features = [
  "admin",
  "auth",
  "billing",
  "campaigns",
  "conversations",
  "customers",
  "dashboard",
  "landing",
  "legal",
  "payments",
  "settings",
  "shell",
];

export default tseslint.config(
  { ignores: ["dist", "src/api/schema.d.ts", "test-results", "playwright-report"] },
  {
    files: ["**/*.{ts,tsx}"],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    languageOptions: {
      ecmaVersion: 2022,
      globals: { ...globals.browser, ...globals.node },
    },
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
    },
  },
  // Features never import each other; shared code lives in src/components and src/lib.
  ...features.map((feature) => ({
    files: [`src/features/${feature}/**/*.{ts,tsx}`],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: features
            .filter((other) => other !== feature)
            .map((other) => ({
              group: [`**/features/${other}/**`, `**/features/${other}`],
              message:
                "Features do not import each other; move shared code to src/components or src/lib.",
            })),
        },
      ],
    },
  })),
);
