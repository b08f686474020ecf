import { describe, expect, it } from "vitest";
import { textDirection } from "../src/popup";

describe("the popup's direction", () => {
  it("follows the first strong character of the owner's title", () => {
    expect(textDirection("Wait! Before you go...")).toBe("ltr");
    expect(textDirection("...Wait! Before you go")).toBe("ltr");
    expect(textDirection("!انتظر قبل أن تغادر")).toBe("rtl");
    expect(textDirection("«רגע, לפני שאתה הולך»")).toBe("rtl");
    expect(textDirection("रुकिए! जाने से पहले")).toBe("ltr");
    expect(textDirection("50% تخفيض! Sale")).toBe("rtl");
    expect(textDirection("")).toBe("ltr");
  });
});
