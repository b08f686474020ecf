import { afterEach, describe, expect, it, vi } from "vitest";
import { sendBeacon } from "../src/loader";

const URL_ = "https://ca.example.com/api/widget/events";
const BODY = {
  campaignId: "c1",
  visitorId: "v_1",
  type: "engagement",
  seconds: 12,
  newSession: true,
};
const JSON_ =
  '{"campaignId":"c1","visitorId":"v_1","type":"engagement","seconds":12,"newSession":true}';

afterEach(() => {
  vi.unstubAllGlobals();
  Reflect.deleteProperty(navigator, "sendBeacon");
});

function stubFetch() {
  const fetch = vi.fn<(url: string, init: RequestInit) => Promise<Response>>(() =>
    Promise.resolve(new Response(null)),
  );
  vi.stubGlobal("fetch", fetch);
  return fetch;
}

describe("the engaged-time beacon", () => {
  it("goes by navigator.sendBeacon as a text/plain Blob", async () => {
    const fetch = stubFetch();
    const calls: [string, Blob][] = [];
    Object.defineProperty(navigator, "sendBeacon", {
      configurable: true,
      value: (url: string, data: Blob) => calls.push([url, data]) > 0,
    });
    sendBeacon(URL_, BODY);
    expect(calls).toHaveLength(1);
    expect(calls[0]![0]).toBe(URL_);
    expect(calls[0]![1].type).toBe("text/plain;charset=utf-8");
    expect(await calls[0]![1].text()).toBe(JSON_);
    expect(fetch).not.toHaveBeenCalled();
  });

  it("falls back to a keepalive fetch when sendBeacon refuses", () => {
    const fetch = stubFetch();
    Object.defineProperty(navigator, "sendBeacon", { configurable: true, value: () => false });
    sendBeacon(URL_, BODY);
    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe(URL_);
    expect(init).toMatchObject({ method: "POST", keepalive: true, body: JSON_ });
  });

  it("falls back to a keepalive fetch where there is no sendBeacon", () => {
    const fetch = stubFetch();
    Object.defineProperty(navigator, "sendBeacon", { configurable: true, value: undefined });
    sendBeacon(URL_, BODY);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(fetch.mock.calls[0]![1]).toMatchObject({ keepalive: true, body: JSON_ });
  });
});
