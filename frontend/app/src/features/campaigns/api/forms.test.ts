import { describe, expect, it } from "vitest";
import { addFromTemplate, duplicate, makeDefault, newField, parseKeywords, remove } from "./forms";

describe("conversion forms editor rules", () => {
  it("makes the first added form the default and keeps one default", () => {
    let forms = addFromTemplate([], "coupon");
    forms = addFromTemplate(forms, "demo");
    expect(forms.map((f) => f.isDefault)).toEqual([true, false]);
    expect(forms[0]?.triggerKeywords).toEqual([
      "discount",
      "coupon",
      "offer",
      "save",
      "deal",
      "price",
    ]);
    expect(forms[1]?.fields.map((f) => [f.name, f.required])).toEqual([
      ["email", true],
      ["name", true],
      ["company", true],
      ["phone", false],
    ]);
    const second = forms[1]?.id ?? "";
    forms = makeDefault(forms, second, true);
    expect(forms.map((f) => f.isDefault)).toEqual([false, true]);
  });

  it("duplicates with (Copy), not as default, and deletes", () => {
    let forms = addFromTemplate([], "giveaway");
    const id = forms[0]?.id ?? "";
    forms = duplicate(forms, id);
    expect(forms[1]?.name).toBe("Giveaway entry (Copy)");
    expect(forms[1]?.isDefault).toBe(false);
    expect(forms[1]?.id).not.toBe(id);
    expect(remove(forms, id).map((f) => f.name)).toEqual(["Giveaway entry (Copy)"]);
  });

  it("names new fields uniquely", () => {
    const forms = addFromTemplate([], "coupon");
    const fields = forms[0]?.fields ?? [];
    const added = newField(fields);
    expect(added.name).toBe("field_3");
    expect(newField([...fields, added]).name).toBe("field_4");
  });

  it("reads keywords from comma text", () => {
    expect(parseKeywords(" sale, , coupon ,deal")).toEqual(["sale", "coupon", "deal"]);
  });
});
