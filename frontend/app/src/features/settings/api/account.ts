import { $api } from "../../../lib/api-client";

/** Saves profile fields (name, phone, notification choices); answers `{user}`. */
export function useSaveAccount() {
  return $api.useMutation("put", "/api/auth/me");
}

/** Changes the password; answers the new session token (older ones are revoked). */
export function useChangePassword() {
  return $api.useMutation("post", "/api/auth/change-password");
}

/** Signs every device out, this one included. */
export function useLogoutEverywhere() {
  return $api.useMutation("post", "/api/auth/logout-all");
}
