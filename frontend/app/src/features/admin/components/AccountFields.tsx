import { PasswordInput, TextInput } from "@mantine/core";
import { PASSWORD_MIN, PASSWORD_TOO_SHORT } from "../api/display";

/** A new account's name, email, password and phone, as typed. */
export interface AccountValues {
  name: string;
  email: string;
  password: string;
  phone: string;
}

export const EMPTY_ACCOUNT: AccountValues = { name: "", email: "", password: "", phone: "" };

/** Client checks of the account part: name, email and a password of 6 or more. */
export function accountErrors(a: AccountValues): Record<string, string> {
  const errors: Record<string, string> = {};
  if (a.name.trim() === "") errors.name = "Name is required";
  if (a.email.trim() === "") errors.email = "Email is required";
  else if (!/^\S+@\S+\.\S+$/.test(a.email.trim())) errors.email = "Enter a valid email";
  if (a.password === "") errors.password = "Password is required";
  else if (a.password.length < PASSWORD_MIN) errors.password = PASSWORD_TOO_SHORT;
  return errors;
}

/**
 * The fields of a new account, required ones first. With `password="optional"` (Add User) the
 * password comes last and may be left empty, and the user is emailed a link to set their own.
 */
export function AccountFields({
  value,
  onChange,
  errors,
  password,
}: {
  value: AccountValues;
  onChange: (next: AccountValues) => void;
  errors: Record<string, string>;
  password: "required" | "optional";
}) {
  const required = password === "required";
  const passwordField = (
    <PasswordInput
      label="Password"
      description={
        required ? undefined : "Leave empty to email the user a link to set their own password."
      }
      required={required}
      value={value.password}
      onChange={(e) => onChange({ ...value, password: e.currentTarget.value })}
      error={errors.password}
      autoComplete="new-password"
    />
  );
  return (
    <>
      <TextInput
        label="Full Name"
        required
        value={value.name}
        onChange={(e) => onChange({ ...value, name: e.currentTarget.value })}
        error={errors.name}
        data-autofocus
      />
      <TextInput
        label="Email"
        type="email"
        required
        value={value.email}
        onChange={(e) => onChange({ ...value, email: e.currentTarget.value })}
        error={errors.email}
      />
      {required && passwordField}
      <TextInput
        label="Phone"
        placeholder="+91 9876543210"
        value={value.phone}
        onChange={(e) => onChange({ ...value, phone: e.currentTarget.value })}
        error={errors.phone}
      />
      {!required && passwordField}
    </>
  );
}
