import { client, messageOf, type User } from "../../../lib/api-client";

export const NETWORK_ERROR = "Network error. Please try again.";

/** Asks for a reset link; resolves with the server's confirmation text. */
export async function requestPasswordReset(email: string): Promise<string> {
  let result;
  try {
    result = await client.POST("/api/auth/forgot-password", { body: { email } });
  } catch {
    throw new Error(NETWORK_ERROR);
  }
  if (!result.data) throw new Error(messageOf(result.error, "Failed to send reset email"));
  return result.data.message;
}

/**
 * Sets the new password; the server signs the user in, unless two-factor sign-in is on (then the
 * answer has no session: sign in with the new password and a code).
 */
export async function resetPassword(
  token: string,
  password: string,
): Promise<{ token: string; user: User } | { signInWithCode: string }> {
  let result;
  try {
    result = await client.POST("/api/auth/reset-password", { body: { token, password } });
  } catch {
    throw new Error(NETWORK_ERROR);
  }
  if (!result.data) throw new Error(messageOf(result.error, "Failed to reset password"));
  const { token: session, user, message } = result.data;
  if (!session || !user) return { signInWithCode: message };
  return { token: session, user };
}

/**
 * The reset form's client checks, first failure wins: the link must carry a token, both fields
 * be filled, match, and be at least 6 characters. Null when the form may be sent.
 */
export function resetFormError(token: string, password: string, confirm: string): string | null {
  if (!token) return "Invalid reset token";
  if (!password || !confirm) return "Both password fields are required";
  if (password !== confirm) return "Passwords do not match";
  if (password.length < 6) return "Password must be at least 6 characters long";
  return null;
}
