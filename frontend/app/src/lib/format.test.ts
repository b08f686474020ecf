import { describe, expect, it } from "vitest";
import { formatInr } from "./format";
import { titleForPath } from "./titles";

describe("formatInr", () => {
  it("uses Indian grouping and no decimals", () => {
    expect(formatInr(999)).toBe("₹999");
    expect(formatInr(5000)).toBe("₹5,000");
    expect(formatInr(100000)).toBe("₹1,00,000");
    expect(formatInr(1499.5)).toBe("₹1,500");
  });
});

describe("titleForPath", () => {
  it.each([
    ["/", "Dashboard"],
    ["/dashboard", "Dashboard"],
    ["/campaigns/abc/edit", "Campaigns"],
    ["/conversations/123", "Conversations"],
    ["/customers", "Customers"],
    ["/billing", "Billing & Subscription"],
    ["/billing/history", "Payment History"],
    ["/settings", "Settings"],
    ["/admin/users", "Admin Dashboard"],
    ["/something-else", "Dashboard"],
  ])("%s → %s", (path, title) => {
    expect(titleForPath(path)).toBe(title);
  });
});
