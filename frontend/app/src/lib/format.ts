const inr = new Intl.NumberFormat("en-IN", {
  style: "currency",
  currency: "INR",
  maximumFractionDigits: 0,
  minimumFractionDigits: 0,
});

/** Rupees in en-IN format without decimals, e.g. ₹1,00,000. */
export function formatInr(rupees: number): string {
  return inr.format(rupees);
}

/**
 * An amount in its own currency (an ISO 4217 code), en-IN style without decimals: ₹1,00,000,
 * $49, €10. A code the browser cannot format stays as typed after the number.
 */
export function formatMoney(amount: number, currency: string): string {
  const code = currency.trim().toUpperCase();
  if (code === "INR" || code === "") return formatInr(amount);
  try {
    return new Intl.NumberFormat("en-IN", {
      style: "currency",
      currency: code,
      maximumFractionDigits: 0,
      minimumFractionDigits: 0,
    }).format(amount);
  } catch {
    return `${amount.toLocaleString("en-IN")} ${currency}`;
  }
}

const dateFormat = new Intl.DateTimeFormat("en-IN", {
  day: "numeric",
  month: "short",
  year: "numeric",
});

/** A date such as 25 Nov 2026. */
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return "";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? "" : dateFormat.format(d);
}

const inrPaise = new Intl.NumberFormat("en-IN", {
  style: "currency",
  currency: "INR",
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/**
 * An amount paid, where a paisa matters (invoices): whole rupees as formatInr does, and two
 * decimals only when there are paise, e.g. ₹9,990 and ₹999.50.
 */
export function formatInrExact(rupees: number): string {
  const paise = Math.round(rupees * 100);
  return paise % 100 === 0 ? inr.format(paise / 100) : inrPaise.format(paise / 100);
}

/** "1 impression", "2 impressions", "1,200 impressions" (Indian grouping). */
export function countOf(n: number, singular: string, plural = `${singular}s`): string {
  return `${n.toLocaleString("en-IN")} ${n === 1 ? singular : plural}`;
}
