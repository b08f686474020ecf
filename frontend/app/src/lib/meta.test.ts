import { describe, expect, it } from "vitest";
import { splitName } from "./meta";

describe("splitName", () => {
  it("splits on spaces: the first word, then the rest", () => {
    expect(splitName("  Asha  Devi Verma ")).toEqual({ firstName: "Asha", lastName: "Devi Verma" });
    expect(splitName("Meera")).toEqual({ firstName: "Meera", lastName: "" });
    expect(splitName("")).toEqual({ firstName: "", lastName: "" });
  });
});
