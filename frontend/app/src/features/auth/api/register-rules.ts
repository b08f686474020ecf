export interface RegisterForm {
  name: string;
  email: string;
  countryCode: string;
  phone: string;
  password: string;
  confirmPassword: string;
}

/**
 * The register form's client checks, first failure wins: every field filled, the passwords
 * matching, and at least 6 characters. Null when the form may be sent.
 */
export function registerFormError(form: RegisterForm): string | null {
  const fields = [
    form.name,
    form.email,
    form.countryCode,
    form.phone,
    form.password,
    form.confirmPassword,
  ];
  if (fields.some((v) => v.trim() === "")) return "All fields are required";
  if (form.password !== form.confirmPassword) return "Passwords do not match";
  if (form.password.length < 6) return "Password must be at least 6 characters long";
  return null;
}

/** The phone as the server receives it: country code, a space, the number. */
export function fullPhone(form: Pick<RegisterForm, "countryCode" | "phone">): string {
  return `${form.countryCode} ${form.phone.trim()}`;
}
