import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist", "src/api/schema.d.ts"] },
  {
    files: ["**/*.{ts,js,mjs}"],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    languageOptions: {
      ecmaVersion: 2022,
      globals: { ...globals.browser, ...globals.node },
    },
    rules: {
      // Visitor and owner text never becomes markup.
      "no-restricted-properties": [
        "error",
        { property: "innerHTML", message: "Use textContent: widget text is never HTML." },
        { property: "outerHTML", message: "Use textContent: widget text is never HTML." },
        { property: "insertAdjacentHTML", message: "Use DOM nodes and textContent." },
      ],
    },
  },
);
