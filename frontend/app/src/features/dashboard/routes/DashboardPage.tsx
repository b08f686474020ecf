import { Badge, Card, Group, Stack, Text, Title } from "@mantine/core";
import { useAuth } from "../../../lib/auth";
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

export function DashboardPage() {
  const { user } = useAuth();
  if (!user) return null;
  const plan = planSummary(user);
  return (
    <Stack gap="lg" maw={960}>
      <Card withBorder radius="md" p="xl">
        <Group justify="space-between" align="flex-start" wrap="wrap" gap="md">
          <Stack gap={6}>
            <Title order={2}>Welcome back, {user.name.split(" ")[0]}</Title>
            <Group gap="xs">
              <Badge color={plan.color} variant="light">
                {plan.badge}
              </Badge>
              <Text c="dimmed" fz="sm">
                {plan.text}
              </Text>
            </Group>
          </Stack>
        </Group>
      </Card>
    </Stack>
  );
}
