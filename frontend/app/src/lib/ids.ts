/**
 * A random RFC 4122 version 4 id. `crypto.randomUUID` exists only in secure contexts (https or
 * localhost), and a self-hosted dashboard is often served over plain http on a LAN name; there
 * the id is built from `crypto.getRandomValues`, which every context has.
 */
export function newId(): string {
  const c = globalThis.crypto;
  if (typeof c.randomUUID === "function") return c.randomUUID();
  const b = c.getRandomValues(new Uint8Array(16));
  b[6] = ((b[6] ?? 0) & 0x0f) | 0x40;
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
