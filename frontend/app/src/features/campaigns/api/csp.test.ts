import { describe, expect, it } from "vitest";
import { cspDirectives, widgetOrigin } from "./csp";

const TAG =
  '<script src="https://ca.example.com/widget/ca-widget.js" data-campaign-id="c1" data-api-url="https://ca.example.com" async defer></script>';

describe("widget origin", () => {
  it("is the origin of the embed tag's API URL", () => {
    expect(widgetOrigin(TAG)).toBe("https://ca.example.com");
    expect(
      widgetOrigin(
        '<script src="http://127.0.0.1:18100/widget/ca-widget.js" data-api-url="http://127.0.0.1:18100/" async></script>',
      ),
    ).toBe("http://127.0.0.1:18100");
  });

  it("drops a path the public URL may carry: CSP sources here are origins", () => {
    expect(widgetOrigin(TAG.replaceAll("https://ca.example.com", "https://x.in/ca"))).toBe(
      "https://x.in",
    );
  });

  it("falls back to the script's src, and is null for anything else", () => {
    expect(widgetOrigin('<script src="https://ca.example.com/widget/ca-widget.js"></script>')).toBe(
      "https://ca.example.com",
    );
    expect(widgetOrigin("<script></script>")).toBeNull();
    expect(widgetOrigin('<script data-api-url="javascript:alert(1)"></script>')).toBeNull();
  });
});

describe("CSP directives", () => {
  it("are script-src and connect-src with the server's origin, and no 'unsafe-inline'", () => {
    const lines = cspDirectives("https://ca.example.com").map((d) => d.directive);
    expect(lines).toEqual([
      "script-src 'self' https://ca.example.com",
      "connect-src 'self' https://ca.example.com",
    ]);
    expect(lines.join(" ")).not.toContain("unsafe-inline");
  });
});
