import { client, messageOf, type User } from "../../../lib/api-client";

export interface AccountChanges {
  name?: string;
  phone?: string;
  emailNotifications?: boolean;
  pushNotifications?: boolean;
}

/** Saves profile fields; resolves with the saved user. */
export async function saveAccount(changes: AccountChanges): Promise<User> {
  const { data, error } = await client.PUT("/api/auth/me", { body: changes });
  if (!data) throw new Error(messageOf(error, "Failed to save your changes"));
  return data.user;
}

/** Changes the password; resolves with the new session token. */
export async function changePassword(
  currentPassword: string,
  newPassword: string,
): Promise<string> {
  const { data, error } = await client.POST("/api/auth/change-password", {
    body: { currentPassword, newPassword },
  });
  if (!data) throw new Error(messageOf(error, "Failed to change your password"));
  return data.token;
}

/** Signs every device out, this one included. */
export async function logoutEverywhere(): Promise<void> {
  const { data, error } = await client.POST("/api/auth/logout-all");
  if (!data) throw new Error(messageOf(error, "Failed to sign out of all devices"));
}
