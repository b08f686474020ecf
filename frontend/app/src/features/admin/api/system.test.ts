import { describe, expect, it } from "vitest";
import { emailRequeueMessage, formatBytes, formatUptime, usageLevel, usagePercent } from "./system";
import { churnOnTarget, monthLabel, parseAdSpend, percentText } from "./business";
import { trialErrors } from "./trial";

describe("system figures", () => {
  it("says what sending failed emails again did", () => {
    expect(emailRequeueMessage(1, 0)).toBe(
      "1 email put back in the queue: the mail server gets it within a few seconds.",
    );
    expect(emailRequeueMessage(0, 2)).toBe(
      "No failed email could be sent again. 2 emails stay failed (older than 7 days, or their link expired).",
    );
    expect(emailRequeueMessage(1200, 0)).toMatch(/^1,200 emails put back/);
  });
  it("labels usage of 80% or more as High", () => {
    expect(usageLevel(79.9)).toBe("Normal");
    expect(usageLevel(80)).toBe("High");
    expect(usageLevel(100)).toBe("High");
  });
  it("computes shares without dividing by zero", () => {
    expect(usagePercent(8, 10)).toBe(80);
    expect(usagePercent(1, 3)).toBe(33.3);
    expect(usagePercent(5, 0)).toBe(0);
  });
  it("reads bytes and uptime", () => {
    expect(formatBytes(512)).toBe("512 B");
    expect(formatBytes(1536 * 1024 * 1024)).toBe("1.5 GB");
    expect(formatUptime(59)).toBe("0m");
    expect(formatUptime(3 * 3600 + 5 * 60)).toBe("3h 5m");
    expect(formatUptime(2 * 86400 + 4 * 3600)).toBe("2d 4h");
  });
});

describe("business figures", () => {
  it("keeps churn below 5%", () => {
    expect(churnOnTarget(4.9)).toBe(true);
    expect(churnOnTarget(5)).toBe(false);
  });
  it("shows a dash for a figure the server could not compute", () => {
    expect(percentText(null)).toBe("—");
    expect(percentText(2.345)).toBe("2.3%");
  });
  it("names months", () => {
    expect(monthLabel("2026-03")).toBe("Mar 2026");
    expect(monthLabel("2026-03", true)).toBe("Mar");
  });
  it("takes an ad spend of 0 or more rupees", () => {
    expect(parseAdSpend("25,000")).toBe(25000);
    expect(parseAdSpend("0")).toBe(0);
    expect(parseAdSpend("99.5")).toBe(99.5);
    expect(parseAdSpend("-5")).toBeNull();
    expect(parseAdSpend("")).toBeNull();
    expect(parseAdSpend("abc")).toBeNull();
  });
});

describe("trial settings", () => {
  const ok = {
    trialDurationDays: 3,
    trialCampaignLimit: 1,
    trialVisitorLimit: 1000,
    autoStartTrial: true,
    trialFeatures: [],
  };
  it("accept the defaults", () => {
    expect(trialErrors(ok)).toEqual({});
  });
  it("bound duration 1–30, campaigns 1–5, visitors ≥ 100 in steps of 100", () => {
    expect(Object.keys(trialErrors({ ...ok, trialDurationDays: 31 }))).toEqual([
      "trialDurationDays",
    ]);
    expect(Object.keys(trialErrors({ ...ok, trialDurationDays: 0 }))).toEqual([
      "trialDurationDays",
    ]);
    expect(Object.keys(trialErrors({ ...ok, trialCampaignLimit: 6 }))).toEqual([
      "trialCampaignLimit",
    ]);
    expect(Object.keys(trialErrors({ ...ok, trialVisitorLimit: 150 }))).toEqual([
      "trialVisitorLimit",
    ]);
    expect(Object.keys(trialErrors({ ...ok, trialVisitorLimit: 0 }))).toEqual([
      "trialVisitorLimit",
    ]);
  });
});
