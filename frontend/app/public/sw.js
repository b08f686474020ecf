// ConvertAssist's service worker: shows the notifications the server sends
// (new leads, successful payments) and opens the page a notification names
// when it is clicked. It caches nothing.
"use strict";

self.addEventListener("install", () => {
  self.skipWaiting();
});

self.addEventListener("activate", (event) => {
  event.waitUntil(self.clients.claim());
});

/** Only pages of this dashboard may be opened from a notification. */
function sameOriginPath(url) {
  try {
    const target = new URL(url || "/dashboard", self.location.origin);
    return target.origin === self.location.origin
      ? target.href
      : self.location.origin + "/dashboard";
  } catch {
    return self.location.origin + "/dashboard";
  }
}

self.addEventListener("push", (event) => {
  let message = {};
  try {
    message = event.data ? event.data.json() : {};
  } catch {
    message = { body: event.data ? event.data.text() : "" };
  }
  const title = message.title || "ConvertAssist";
  event.waitUntil(
    self.registration.showNotification(title, {
      body: message.body || "",
      icon: "/favicon.svg",
      badge: "/favicon.svg",
      data: { url: sameOriginPath(message.url) },
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = sameOriginPath(event.notification.data && event.notification.data.url);
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
      for (const client of windows) {
        if (new URL(client.url).origin === self.location.origin && "focus" in client) {
          await client.focus();
          if ("navigate" in client) {
            await client.navigate(url);
          }
          return;
        }
      }
      await self.clients.openWindow(url);
    })(),
  );
});
