import { Alert, Badge, Card, Group, Skeleton, Stack, Text, Title } from "@mantine/core";
import { messageOf } from "../../../lib/api-client";
import { cycleText, statusColor, statusText, subscriptionLines } from "../api/subscription";
import type { SubscriptionView } from "../api/subscription";

/** The current plan: its name, a status badge, and the trial or billing dates. */
export function SubscriptionCard({
  subscription,
  loading,
  error,
}: {
  subscription?: SubscriptionView;
  loading: boolean;
  error: unknown;
}) {
  return (
    <Card withBorder radius="md" p="lg" h="100%">
      <Title order={2} fz="h4" mb="md">
        Current Subscription
      </Title>
      {loading ? (
        <Stack gap="xs">
          <Skeleton h={28} w="60%" />
          <Skeleton h={18} w="80%" />
        </Stack>
      ) : subscription ? (
        <Stack gap={6}>
          <Group gap="sm" wrap="wrap">
            <Text fz={22} fw={800}>
              {subscription.planName}
            </Text>
            <Badge size="lg" variant="light" color={statusColor(subscription.status)}>
              {statusText(subscription.status)}
            </Badge>
            {subscription.cancelAtPeriodEnd ? (
              <Badge size="lg" variant="light" color="orange">
                Cancelled
              </Badge>
            ) : null}
          </Group>
          {cycleText(subscription.cycle) ? (
            <Text fz="sm" c="dimmed">
              {cycleText(subscription.cycle)}
            </Text>
          ) : null}
          {subscriptionLines(subscription).map((line) => (
            <Text key={line} fz="sm">
              {line}
            </Text>
          ))}
        </Stack>
      ) : (
        <Alert color="red" role="alert">
          {messageOf(error, "Failed to fetch subscription")}
        </Alert>
      )}
    </Card>
  );
}
