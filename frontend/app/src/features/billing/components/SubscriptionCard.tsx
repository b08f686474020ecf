import { Alert, Badge, Button, Card, Group, Skeleton, Stack, Text, Title } from "@mantine/core";
import { IconRefresh } from "@tabler/icons-react";
import { useState } from "react";
import { messageOf } from "../../../lib/api-client";
import { useAuth } from "../../../lib/auth";
import { PAYMENT_ERROR_FALLBACK, startRenewal } from "../api/payment";
import {
  cycleText,
  renewalCycle,
  renewalText,
  statusColor,
  statusText,
  subscriptionLines,
  subscriptionPrice,
} from "../api/subscription";
import type { Subscription } from "../api/subscription";

/** Pays again for the active plan and cycle before the period ends ("Renew now"). */
function RenewNow({ subscription }: { subscription: Subscription }) {
  const { user } = useAuth();
  const [renewing, setRenewing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const cycle = renewalCycle(subscription);
  if (!cycle || !user) return null;

  async function renew() {
    if (!user || !cycle) return;
    setRenewing(true);
    setError(null);
    try {
      await startRenewal(subscription.planId, cycle, user);
    } catch (err) {
      setError(messageOf(err, PAYMENT_ERROR_FALLBACK));
      setRenewing(false);
    }
  }

  return (
    <Stack gap={6} mt="sm" align="flex-start">
      <Text fz="xs" c="dimmed">
        {renewalText(subscription, cycle)}
      </Text>
      <Button
        variant="light"
        leftSection={<IconRefresh size={16} />}
        loading={renewing}
        onClick={() => void renew()}
      >
        Renew now
      </Button>
      {error ? (
        <Alert
          color="red"
          role="alert"
          withCloseButton
          onClose={() => setError(null)}
          closeButtonLabel="Dismiss"
          w="100%"
        >
          {`Payment Error: ${error}`}
        </Alert>
      ) : null}
    </Stack>
  );
}

/** The current plan: its name, a status badge, the trial or billing dates, and renewal. */
export function SubscriptionCard({
  subscription,
  loading,
  error,
}: {
  subscription?: Subscription;
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
          {subscriptionPrice(subscription) ? (
            <Text fz="md" fw={600} data-testid="subscription-price">
              {subscriptionPrice(subscription)}
            </Text>
          ) : null}
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
          <RenewNow subscription={subscription} />
        </Stack>
      ) : (
        <Alert color="red" role="alert">
          {messageOf(error, "Failed to fetch subscription")}
        </Alert>
      )}
    </Card>
  );
}
