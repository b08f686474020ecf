import { Alert, Badge, Button, Card, Group, Skeleton, Stack, Text, Title } from "@mantine/core";
import { IconCalendarRepeat, IconRefresh } from "@tabler/icons-react";
import { useState, type ReactNode } from "react";
import { messageOf } from "../../../lib/api-client";
import { useAuth } from "../../../lib/auth";
import { PAYMENT_ERROR_FALLBACK, startRenewal } from "../api/payment";
import type { Cycle } from "../api/pricing";
import {
  annualSwitchText,
  canSwitchToAnnual,
  cycleText,
  renewalCycle,
  renewalText,
  statusColor,
  statusText,
  subscriptionLines,
  subscriptionPrice,
} from "../api/subscription";
import type { Subscription } from "../api/subscription";

/**
 * Pays for the active plan again before the period ends, for `cycle`; the new period starts where
 * the current one ends. "Renew now" pays for the same cycle, "Switch to annual billing" for a year.
 */
function PayAhead({
  subscription,
  cycle,
  text,
  label,
  icon,
}: {
  subscription: Subscription;
  cycle: Cycle;
  text: string;
  label: string;
  icon: ReactNode;
}) {
  const { user } = useAuth();
  const [paying, setPaying] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!user) return null;

  async function pay() {
    if (!user) return;
    setPaying(true);
    setError(null);
    try {
      await startRenewal(subscription.planId, cycle, user);
    } catch (err) {
      setError(messageOf(err, PAYMENT_ERROR_FALLBACK));
      setPaying(false);
    }
  }

  return (
    <Stack gap={6} mt="sm" align="flex-start">
      <Text fz="xs" c="dimmed">
        {text}
      </Text>
      <Button variant="light" leftSection={icon} loading={paying} onClick={() => void pay()}>
        {label}
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

/** "Renew now" for an active paid plan and, for a monthly one, "Switch to annual billing". */
function PayAheadActions({ subscription }: { subscription: Subscription }) {
  const renewal = renewalCycle(subscription);
  return (
    <>
      {renewal ? (
        <PayAhead
          subscription={subscription}
          cycle={renewal}
          text={renewalText(subscription, renewal)}
          label="Renew now"
          icon={<IconRefresh size={16} />}
        />
      ) : null}
      {canSwitchToAnnual(subscription) ? (
        <PayAhead
          subscription={subscription}
          cycle="annual"
          text={annualSwitchText(subscription)}
          label="Switch to annual billing"
          icon={<IconCalendarRepeat size={16} />}
        />
      ) : null}
    </>
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
          <PayAheadActions subscription={subscription} />
        </Stack>
      ) : (
        <Alert color="red" role="alert">
          {messageOf(error, "Failed to fetch subscription")}
        </Alert>
      )}
    </Card>
  );
}
