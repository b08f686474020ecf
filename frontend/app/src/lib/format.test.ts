import { describe, expect, it } from "vitest";
import { countOf, formatInr, formatInrExact } from "./format";
import { titleForPath } from "./titles";

describe("formatInr", () => {
  it("uses Indian grouping and no decimals", () => {
    expect(formatInr(999)).toBe("₹999");
    expect(formatInr(5000)).toBe("₹5,000");
    expect(formatInr(100000)).toBe("₹1,00,000");
    expect(formatInr(1499.5)).toBe("₹1,500");
  });
});

describe("formatInrExact", () => {
  it("shows paise only when there are some", () => {
    expect(formatInrExact(9990)).toBe("₹9,990");
    expect(formatInrExact(999.5)).toBe("₹999.50");
    expect(formatInrExact(100000.05)).toBe("₹1,00,000.05");
    expect(formatInrExact(0)).toBe("₹0");
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
    ["/billing/invoice/CA123", "Billing & Subscription"],
    ["/settings/billing", "Billing & Subscription"],
    ["/settings", "Settings"],
    ["/admin", "Admin Dashboard"],
    ["/admin/", "Admin Dashboard"],
    ["/admin/users", "Users"],
    ["/admin/users/u1", "User Details"],
    ["/admin/superadmin", "SuperAdmin Dashboard"],
    ["/admin/plans", "Plan Management"],
    ["/admin/audit", "Audit Log"],
    ["/admin/plans/create", "Create Plan"],
    ["/admin/plans/basic/edit", "Edit Plan"],
    ["/something-else", "Dashboard"],
  ])("%s → %s", (path, title) => {
    expect(titleForPath(path)).toBe(title);
  });
});

describe("countOf", () => {
  it("says one impression, not one impressions", () => {
    expect(countOf(1, "impression")).toBe("1 impression");
    expect(countOf(0, "impression")).toBe("0 impressions");
    expect(countOf(120000, "impression")).toBe("1,20,000 impressions");
  });
});
