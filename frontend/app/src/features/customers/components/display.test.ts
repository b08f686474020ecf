import { describe, expect, it } from "vitest";
import {
  changeCaption,
  conversationsOf,
  formatLastActive,
  formatSessionTime,
  telHref,
} from "./display";

describe("session time", () => {
  it("reads as seconds, minutes, or hours and minutes", () => {
    expect(formatSessionTime(0)).toBe("0s");
    expect(formatSessionTime(59)).toBe("59s");
    expect(formatSessionTime(60)).toBe("1m");
    expect(formatSessionTime(3599)).toBe("59m");
    expect(formatSessionTime(3600)).toBe("1h 0m");
    expect(formatSessionTime(5430)).toBe("1h 30m");
  });
});

describe("change captions", () => {
  it("compare with the period before", () => {
    expect(changeCaption(12, 10)).toBe("+20.0% from last period");
    expect(changeCaption(5, 10)).toBe("-50.0% from last period");
    expect(changeCaption(3, 3)).toBe("No change from last period");
    expect(changeCaption(4, 0)).toBe("+4 from last period");
    expect(changeCaption(33.33, 30, true)).toBe("+3.3 pts from last period");
    expect(changeCaption(25, 25, true)).toBe("No change from last period");
  });
});

describe("formatLastActive", () => {
  // 14:30 local time on 26 November 2026.
  const now = new Date(2026, 10, 26, 14, 30);
  it("gives the time of day for today and yesterday, the date before that", () => {
    expect(formatLastActive(new Date(2026, 10, 26, 14, 5).toISOString(), now)).toBe("Today, 14:05");
    expect(formatLastActive(new Date(2026, 10, 26, 0, 0).toISOString(), now)).toBe("Today, 00:00");
    expect(formatLastActive(new Date(2026, 10, 25, 9, 12).toISOString(), now)).toBe(
      "Yesterday, 09:12",
    );
    expect(formatLastActive(new Date(2026, 10, 24, 23, 59).toISOString(), now)).toBe("24 Nov 2026");
    // Yesterday across a month's end.
    expect(
      formatLastActive(new Date(2026, 10, 30, 22, 1).toISOString(), new Date(2026, 11, 1, 8)),
    ).toBe("Yesterday, 22:01");
    expect(formatLastActive(null, now)).toBe("");
    expect(formatLastActive("not a date", now)).toBe("");
  });
});

describe("contact links", () => {
  it("dial only the digits and the leading plus", () => {
    expect(telHref("+91 98290 12345")).toBe("tel:+919829012345");
    expect(telHref("(022) 2345-6789")).toBe("tel:02223456789");
  });

  it("open the customer's conversations by their email", () => {
    expect(conversationsOf("meera+shop@kesar.in")).toBe(
      "/conversations?search=meera%2Bshop%40kesar.in",
    );
  });
});
