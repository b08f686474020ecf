/** The product's support address: invite requests and payment problems go here. */
export const SUPPORT_EMAIL = "support@convertassist.in";

/** A draft e-mail to support with `subject` and, when given, `body`. */
export function supportMailto(subject: string, body?: string): string {
  const query = [`subject=${encodeURIComponent(subject)}`];
  if (body) query.push(`body=${encodeURIComponent(body)}`);
  return `mailto:${SUPPORT_EMAIL}?${query.join("&")}`;
}
