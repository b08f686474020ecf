import type { components } from "../../../api/schema";
import { newId } from "../../../lib/ids";

export type ConversionForm = components["schemas"]["ConversionForm"];
export type FormField = components["schemas"]["FormField"];

const field = (
  name: string,
  label: string,
  type: FormField["type"],
  required: boolean,
  placeholder = "",
): FormField => ({
  name,
  label,
  type,
  required,
  placeholder,
});

const email = (required = true) => field("email", "Email", "email", required, "you@example.com");
const name = (required: boolean) => field("name", "Name", "text", required, "Your name");
const company = (required: boolean) =>
  field("company", "Company", "text", required, "Company name");
const phone = (required: boolean) => field("phone", "Phone", "phone", required, "+91 98765 43210");

/** The four conversion-form templates an owner can start a form from. */
export const TEMPLATES: Record<
  string,
  { label: string; make: () => Omit<ConversionForm, "id" | "isDefault"> }
> = {
  coupon: {
    label: "Coupon",
    make: () => ({
      name: "Discount coupon",
      type: "coupon",
      title: "Get 10% off your order",
      subtitle: "Enter your email and we'll send your coupon code",
      buttonText: "Send my coupon",
      successMessage: "Your coupon is on its way!",
      followUpMessage: "Check your inbox for the code.",
      fields: [email(), name(false)],
      triggerKeywords: ["discount", "coupon", "offer", "save", "deal", "price"],
      active: true,
    }),
  },
  lead_magnet: {
    label: "Lead magnet",
    make: () => ({
      name: "Free guide",
      type: "lead_magnet",
      title: "Get our free buying guide",
      subtitle: "Tell us where to send it",
      buttonText: "Send the guide",
      successMessage: "Thanks! The guide is on its way.",
      followUpMessage: "",
      fields: [email(), name(true), company(false)],
      triggerKeywords: [],
      active: true,
    }),
  },
  giveaway: {
    label: "Giveaway",
    make: () => ({
      name: "Giveaway entry",
      type: "giveaway",
      title: "Win this month's giveaway",
      subtitle: "Enter in seconds",
      buttonText: "Enter now",
      successMessage: "You're in! Good luck.",
      followUpMessage: "",
      fields: [email(), name(true), phone(false)],
      triggerKeywords: [],
      active: true,
    }),
  },
  demo: {
    label: "Demo",
    make: () => ({
      name: "Book a demo",
      type: "demo",
      title: "See it in action",
      subtitle: "Book a free 15-minute demo",
      buttonText: "Book my demo",
      successMessage: "Thanks! We'll be in touch to schedule it.",
      followUpMessage: "",
      fields: [email(), name(true), company(true), phone(false)],
      triggerKeywords: ["demo"],
      active: true,
    }),
  },
};

/** Adds a form from a template; the first form added becomes the default one. */
export function addFromTemplate(forms: ConversionForm[], template: string): ConversionForm[] {
  const t = TEMPLATES[template];
  if (!t) return forms;
  return [...forms, { ...t.make(), id: newId(), isDefault: forms.length === 0 }];
}

/** A copy named "(Copy)", never the default, right after the original. */
export function duplicate(forms: ConversionForm[], id: string): ConversionForm[] {
  const i = forms.findIndex((f) => f.id === id);
  const original = forms[i];
  if (!original) return forms;
  const copy = { ...original, id: newId(), name: `${original.name} (Copy)`, isDefault: false };
  return [...forms.slice(0, i + 1), copy, ...forms.slice(i + 1)];
}

/** Only one default: switching one on switches the others off. */
export function makeDefault(forms: ConversionForm[], id: string, on: boolean): ConversionForm[] {
  return forms.map((f) =>
    f.id === id ? { ...f, isDefault: on } : on ? { ...f, isDefault: false } : f,
  );
}

export function remove(forms: ConversionForm[], id: string): ConversionForm[] {
  return forms.filter((f) => f.id !== id);
}

/** Keywords as the editor shows them: one comma-separated line. */
export function keywordsText(form: ConversionForm): string {
  // The server always answers a list; a comma-separated string is what it also accepts.
  const keywords = form.triggerKeywords ?? [];
  return typeof keywords === "string" ? keywords : keywords.join(", ");
}

export function parseKeywords(text: string): string[] {
  return text
    .split(",")
    .map((k) => k.trim())
    .filter((k) => k !== "");
}

/** A new text field with a name no other field of the form uses (the server requires unique names). */
export function newField(fields: FormField[]): FormField {
  let n = fields.length + 1;
  while (fields.some((f) => f.name === `field_${n}`)) n += 1;
  return { name: `field_${n}`, label: "New field", type: "text", required: false, placeholder: "" };
}
