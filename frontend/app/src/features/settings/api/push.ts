import { client, messageOf } from "../../../lib/api-client";

/** Where this browser stands with push notifications. */
export type PushState =
  /** No service worker or Push API here (an old browser, a private window in some, http). */
  | "unsupported"
  /** The person blocked notifications for this site in the browser. */
  | "denied"
  | "off"
  | "on";

/** The service worker the server serves at the dashboard's root. */
export const SERVICE_WORKER_URL = "/sw.js";

export function pushSupported(): boolean {
  return (
    typeof window !== "undefined" &&
    "serviceWorker" in navigator &&
    "PushManager" in window &&
    "Notification" in window
  );
}

/** The base64url key as the bytes `applicationServerKey` takes. */
export function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, "+").replace(/_/g, "/");
  const padded = base64 + "=".repeat((4 - (base64.length % 4)) % 4);
  const text = atob(padded);
  const bytes = new Uint8Array(new ArrayBuffer(text.length));
  for (let i = 0; i < text.length; i += 1) bytes[i] = text.charCodeAt(i);
  return bytes;
}

async function registration(): Promise<ServiceWorkerRegistration> {
  await navigator.serviceWorker.register(SERVICE_WORKER_URL, { scope: "/" });
  return navigator.serviceWorker.ready;
}

/** This browser's subscription, if it has one the server also knows for this account. */
async function storedSubscription(): Promise<PushSubscription | null> {
  const reg = await navigator.serviceWorker.getRegistration("/");
  const sub = reg ? await reg.pushManager.getSubscription() : null;
  if (!sub) return null;
  const { data, error } = await client.GET("/api/push/subscriptions");
  if (error || !data) throw error ?? new Error("no answer");
  return data.data.some((s) => s.endpoint === sub.endpoint) ? sub : null;
}

/** Reads where this browser stands. */
export async function readPushState(): Promise<PushState> {
  if (!pushSupported()) return "unsupported";
  if (Notification.permission === "denied") return "denied";
  return (await storedSubscription()) ? "on" : "off";
}

/**
 * Asks for permission, subscribes this browser with the server's key and stores the
 * subscription. Answers the new state ("denied" when the person said no).
 */
export async function turnPushOn(): Promise<PushState> {
  if (!pushSupported()) return "unsupported";
  const permission = await Notification.requestPermission();
  if (permission !== "granted") return permission === "denied" ? "denied" : "off";
  const reg = await registration();
  const key = await client.GET("/api/push/vapid-public-key");
  if (key.error || !key.data) throw key.error ?? new Error("no key");
  const serverKey = keyBytes(key.data.publicKey);
  let sub = await reg.pushManager.getSubscription();
  // A subscription made with another server key cannot be used: start again.
  const made = sub?.options.applicationServerKey;
  if (sub && made && !sameBytes(new Uint8Array(made), serverKey)) {
    await sub.unsubscribe();
    sub = null;
  }
  sub ??= await reg.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey: serverKey,
  });
  const json = sub.toJSON();
  const saved = await client.POST("/api/push/subscriptions", {
    body: { endpoint: json.endpoint, keys: { p256dh: json.keys?.p256dh, auth: json.keys?.auth } },
  });
  if (saved.error) throw saved.error;
  return "on";
}

/** Removes this browser's subscription from the server and from the browser. */
export async function turnPushOff(): Promise<PushState> {
  const reg = await navigator.serviceWorker.getRegistration("/");
  const sub = reg ? await reg.pushManager.getSubscription() : null;
  if (sub) {
    const removed = await client.DELETE("/api/push/subscriptions", {
      params: { query: { endpoint: sub.endpoint } },
    });
    // Not stored for this account any more is what was wanted.
    if (removed.error && removed.response.status !== 404) throw removed.error;
    await sub.unsubscribe();
  }
  return Notification.permission === "denied" ? "denied" : "off";
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

export function pushError(err: unknown): string {
  return messageOf(err, "Push notifications could not be changed. Please try again.");
}
