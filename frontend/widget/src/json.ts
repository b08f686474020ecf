/**
 * JSON text of the widget's request bodies (strings, numbers, booleans, null, plain objects and
 * arrays of them), written without the page's `JSON.stringify` or any `toJSON` a host page or an
 * old library (Prototype.js: `Array.prototype.toJSON`) put on the built-in prototypes.
 */
export function toJson(v: unknown): string {
  if (typeof v === "string")
    return (
      '"' +
      v.replace(
        // eslint-disable-next-line no-control-regex
        /[\u0000-\u001f"\\\u2028\u2029]/g,
        (c) => "\\u" + (c.charCodeAt(0) + 0x10000).toString(16).slice(1),
      ) +
      '"'
    );
  if (typeof v === "number") return isFinite(v) ? String(v) : "null";
  if (typeof v === "boolean") return v ? "true" : "false";
  if (v === null || typeof v !== "object") return "null";
  let out = "";
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i += 1) out += (i ? "," : "") + toJson(v[i]);
    return "[" + out + "]";
  }
  const keys = Object.keys(v);
  for (let i = 0; i < keys.length; i += 1) {
    const k = keys[i] as string;
    const x = (v as Record<string, unknown>)[k];
    if (x === undefined || typeof x === "function") continue;
    out += (out ? "," : "") + toJson(k) + ":" + toJson(x);
  }
  return "{" + out + "}";
}
