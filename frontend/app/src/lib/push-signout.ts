/**
 * Signing out stops this browser's push notifications for the account that signs out, so the next
 * person who signs in here is not shown the previous owner's leads. Best effort, in the
 * background: signing out never waits for it, and it goes straight to the server with the
 * leaving session's token (not through the API client, whose token is already gone).
 */
export async function forgetThisBrowsersPush(token: string | null): Promise<boolean> {
  if (!token || typeof navigator === "undefined" || !("serviceWorker" in navigator)) return false;
  const reg = await navigator.serviceWorker.getRegistration("/");
  const sub = reg ? await reg.pushManager.getSubscription() : null;
  if (!sub) return false;
  await fetch(`/api/push/subscriptions?endpoint=${encodeURIComponent(sub.endpoint)}`, {
    method: "DELETE",
    headers: { Authorization: `Bearer ${token}` },
  });
  await sub.unsubscribe();
  return true;
}
