/** Whether a failed call was refused for a missing or invalid session (a 401). */
export function needsSignIn(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  return code === "missing_token" || code === "invalid_token";
}

/**
 * The message shown when the usage figures fail to load: a missing or invalid session asks the
 * owner to log in again; any other failure invites a retry.
 */
export function usageError(error: unknown): string {
  return needsSignIn(error)
    ? "Please log in again to view billing information."
    : "Failed to load usage data. Please try again.";
}
