import { afterEach, describe, expect, it } from "vitest";
import { fetchMock, json } from "../test/fetch-mock";
import { fbcFromClick, keepMetaClickCookies, metaCookiesFor, readCookie } from "./meta-cookies";

function clearCookies() {
  for (const name of ["_fbp", "_fbc"]) document.cookie = `${name}=; Max-Age=0; Path=/`;
}

describe("metaCookiesFor", () => {
  const now = 1764150000123;
  it("makes an _fbp when the browser has none, and keeps one it has", () => {
    expect(metaCookiesFor("https://app.example.in/", "", now, () => 0.5)).toEqual({
      _fbp: "fb.1.1764150000123.5500000000",
    });
    expect(metaCookiesFor("https://app.example.in/", "_fbp=fb.1.1.2", now)).toEqual({});
  });

  it("turns an ad click's fbclid into _fbc in Meta's format, once per click", () => {
    const href = "https://app.example.in/register?fbclid=IwAR2xyz_Ab-1";
    expect(metaCookiesFor(href, "_fbp=fb.1.1.2", now)._fbc).toBe(
      "fb.1.1764150000123.IwAR2xyz_Ab-1",
    );
    expect(fbcFromClick("abc", 5)).toBe("fb.1.5.abc");
    // The same click again keeps the first cookie (and its time).
    expect(metaCookiesFor(href, "_fbp=fb.1.1.2; _fbc=fb.1.99.IwAR2xyz_Ab-1", now)).toEqual({});
    // A new click replaces it; a malformed one is ignored.
    expect(metaCookiesFor(href, "_fbp=x; _fbc=fb.1.99.old", now)._fbc).toBe(
      "fb.1.1764150000123.IwAR2xyz_Ab-1",
    );
    expect(metaCookiesFor("https://a.in/?fbclid=<script>", "_fbp=x", now)).toEqual({});
  });
});

describe("keepMetaClickCookies", () => {
  afterEach(clearCookies);

  it("sets nothing while no Meta pixel is configured", async () => {
    fetchMock.mockResolvedValueOnce(json(200, { pixelId: null }));
    window.history.replaceState(null, "", "/register?fbclid=IwAR1");
    await keepMetaClickCookies();
    expect(fetchMock.mock.calls[0]?.[0].url).toMatch(/\/api\/meta\/config$/);
    expect(readCookie("_fbp", document.cookie)).toBeNull();
    expect(readCookie("_fbc", document.cookie)).toBeNull();
  });

  it("sets _fbp and _fbc when a pixel is configured", async () => {
    fetchMock.mockResolvedValueOnce(json(200, { pixelId: "1234567890123456" }));
    window.history.replaceState(null, "", "/register?fbclid=IwAR1");
    await keepMetaClickCookies();
    expect(readCookie("_fbp", document.cookie)).toMatch(/^fb\.1\.\d{13}\.\d{10}$/);
    expect(readCookie("_fbc", document.cookie)).toMatch(/^fb\.1\.\d{13}\.IwAR1$/);
  });
});
