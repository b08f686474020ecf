/** A customer's conversion status, in pipeline order. */
export const STATUSES = ["lead", "prospect", "customer", "churned"] as const;
export type Status = (typeof STATUSES)[number];
