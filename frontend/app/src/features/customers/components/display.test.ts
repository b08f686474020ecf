import { describe, expect, it } from "vitest";
import { changeCaption, formatSessionTime } from "./display";

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
