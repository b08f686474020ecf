import type { components } from "../../../api/schema";
import { client, messageOf } from "../../../lib/api-client";

/** A set-up: the secret (text, link, QR code) and the ten recovery codes, shown once. */
export type TwoFactorSetup = components["schemas"]["TwoFactorSetupOut"];

/** Starts setting up two-factor sign-in (a new secret and new recovery codes). */
export async function startTwoFactorSetup(): Promise<TwoFactorSetup> {
  const { data, error } = await client.POST("/api/auth/2fa/setup");
  if (!data) throw new Error(messageOf(error, "Could not start the set-up"));
  return data;
}

/** Turns it on with a code from the app; resolves with the new session token. */
export async function enableTwoFactor(code: string): Promise<string> {
  const { data, error } = await client.POST("/api/auth/2fa/enable", { body: { code } });
  if (!data) throw new Error(messageOf(error, "That code did not work"));
  return data.token;
}

/** Turns it off with a code from the app or a recovery code. */
export async function disableTwoFactor(code: string): Promise<void> {
  const { data, error } = await client.POST("/api/auth/2fa/disable", { body: { code } });
  if (!data) throw new Error(messageOf(error, "That code did not work"));
}

/** The QR code as an image address (the server draws it as SVG). */
export function qrImageSource(svg: string): string {
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

/** The secret in groups of four, easier to type into an app. */
export function groupedSecret(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, "$1 ");
}
