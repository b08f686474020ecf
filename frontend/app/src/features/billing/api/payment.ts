import type { components } from "../../../api/schema";
import { client, messageOf, type User } from "../../../lib/api-client";
import { planCyclePrice, productInfo, purchaseCycle, type Cycle } from "./pricing";

type Plan = components["schemas"]["PlanOut"];

/** The phone sent to the payment page when the account has none. */
export const DEFAULT_PHONE = "9999999999";

/**
 * The payment initialization payload: the cycle's amount and description, the buyer, and the
 * user-defined fields the gateway hands back (user id, plan id, "subscription", the cycle).
 * The server recomputes the amount from the plan; it is sent as the payment page shows it.
 */
export function paymentPayload(plan: Plan, toggle: Cycle, user: User) {
  // A yearly plan is bought by the year, whatever the toggle says.
  const cycle = purchaseCycle(plan, toggle);
  return {
    amount: planCyclePrice(plan, cycle),
    productinfo: productInfo(plan.displayName, cycle),
    firstname: user.name,
    email: user.email,
    phone: user.phone.trim() || DEFAULT_PHONE,
    subscriptionId: plan.id,
    udf1: user.id,
    udf2: plan.id,
    udf3: "subscription",
    udf4: cycle,
  };
}

/** Posts a hidden form to the payment page, one hidden field per parameter; the browser leaves. */
export function submitPaymentForm(
  action: string,
  params: Record<string, string>,
  doc: Document = document,
) {
  const form = doc.createElement("form");
  form.method = "POST";
  form.action = action;
  form.style.display = "none";
  for (const [name, value] of Object.entries(params)) {
    const input = doc.createElement("input");
    input.type = "hidden";
    input.name = name;
    input.value = value;
    form.appendChild(input);
  }
  doc.body.appendChild(form);
  form.submit();
}

export const PAYMENT_ERROR_FALLBACK = "Failed to initialize payment";

/**
 * The payload that pays again for the plan the owner is on (`renew`), for the same cycle: the
 * server prices it from the plan and starts the new period where the current one ends.
 */
export function renewalPayload(planId: string, cycle: Cycle, user: User) {
  return {
    firstname: user.name,
    email: user.email,
    phone: user.phone.trim() || DEFAULT_PHONE,
    subscriptionId: planId,
    udf1: user.id,
    udf2: planId,
    udf3: "subscription",
    udf4: cycle,
    renew: true,
  };
}

/** Starts renewing the current plan; the browser goes to the payment page. */
export async function startRenewal(planId: string, cycle: Cycle, user: User): Promise<void> {
  const { data, error } = await client.POST("/api/payment/initialize", {
    body: renewalPayload(planId, cycle, user),
  });
  if (!data?.success) throw new Error(messageOf(error ?? data, PAYMENT_ERROR_FALLBACK));
  submitPaymentForm(data.data.action, data.data.params);
}

/** Starts buying `plan` for `cycle`: the server prepares the payment, then the browser goes to pay. */
export async function startPayment(plan: Plan, cycle: Cycle, user: User): Promise<void> {
  const { data, error } = await client.POST("/api/payment/initialize", {
    body: paymentPayload(plan, cycle, user),
  });
  if (!data?.success) throw new Error(messageOf(error ?? data, PAYMENT_ERROR_FALLBACK));
  submitPaymentForm(data.data.action, data.data.params);
}
