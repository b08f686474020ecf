/** Reading the server's refusals: `{message, code, errors?: {field: [msg]}}`. */

export function errorCode(error: unknown): string | null {
  if (error && typeof error === "object" && "code" in error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === "string") return code;
  }
  return null;
}

/** The first message per field of a 400 answer. */
export function fieldErrors(error: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!error || typeof error !== "object" || !("errors" in error)) return out;
  const errors = (error as { errors?: unknown }).errors;
  if (!errors || typeof errors !== "object") return out;
  for (const [field, messages] of Object.entries(errors)) {
    if (Array.isArray(messages) && typeof messages[0] === "string") out[field] = messages[0];
  }
  return out;
}

/** Whether the call never got an answer (the browser threw instead of the server refusing). */
export function isNetworkError(error: unknown): boolean {
  return error instanceof TypeError;
}

/** Whether the server answered that the thing asked for does not exist (`not_found`, `user_not_found`, …). */
export function isNotFound(error: unknown): boolean {
  const code = errorCode(error);
  return code === "not_found" || Boolean(code?.endsWith("_not_found"));
}
