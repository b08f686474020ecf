import { client, messageOf } from "./api-client";

/** Starts buying `planId` and sends the browser to the payment page the server names. */
export async function startCheckout(planId: string): Promise<void> {
  const { data, error } = await client.POST("/api/billing/checkout", { body: { planId } });
  if (!data) throw new Error(messageOf(error, "Failed to create checkout session"));
  window.location.assign(data.data.checkoutUrl);
}
