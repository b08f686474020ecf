import type { User } from "../../../lib/api-client";
import { formatDate } from "../../../lib/format";

/** The account's plan state, in words, from the user record. */
export function planSummary(user: User): { badge: string; color: string; text: string } {
  if (user.isInTrial) {
    const days = user.trialRemainingDays;
    return {
      badge: "Trial",
      color: "blue",
      text: `Your free trial ends in ${days} day${days === 1 ? "" : "s"} (on ${formatDate(user.trialEndsAt)}).`,
    };
  }
  if (user.subscriptionStatus === "active") {
    return {
      badge: "Active",
      color: "green",
      text: `Your ${user.planId} plan is active until ${formatDate(user.subscriptionEndsAt)}.`,
    };
  }
  if (user.subscriptionStatus === "expired") {
    return {
      badge: "Expired",
      color: "red",
      text: "Your subscription has ended. Renew to keep your campaigns running.",
    };
  }
  return {
    badge: "Free",
    color: "gray",
    text: "You're on the free plan. Upgrade to create campaigns.",
  };
}
