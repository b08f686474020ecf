/**
 * Conversions per 100 impressions, rounded to 2 decimals; 0 when there are no impressions.
 *
 * The server already sends this figure for each campaign (`analytics.conversionRate`), rounded
 * the same way; use this only for figures it does not send, such as the rate across all campaigns.
 */
export function conversionRate(conversions: number, impressions: number): number {
  const rate = impressions > 0 ? (conversions / impressions) * 100 : 0;
  return Math.round(rate * 100) / 100;
}
