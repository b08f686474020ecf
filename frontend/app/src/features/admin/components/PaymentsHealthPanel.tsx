import { Badge, Card, Group, Skeleton, Stack, Text, Title } from "@mantine/core";
import { useSystemHealth } from "../api/admin";
import { reconciliationCounts, reconciliationState, stuckBadge } from "../api/payments-health";

const timeFormat = new Intl.DateTimeFormat("en-IN", { dateStyle: "medium", timeStyle: "medium" });

/**
 * Payments that may need a look: how many are still pending 15 minutes after they were made,
 * and the last reconciliation run with PayU (when, what it checked, settled and expired, and
 * what went wrong, in red). Reads the same health call as the panel above it.
 */
export function PaymentsHealthPanel() {
  const health = useSystemHealth();
  // The health panel above says when the call fails; this one only waits for it.
  if (!health.data) return health.isLoading ? <Skeleton h={150} radius="md" /> : null;
  const { pendingOver15Minutes, lastReconciliation: run } = health.data.data.payments;
  const stuck = stuckBadge(pendingOver15Minutes);
  const state = reconciliationState(run);
  return (
    <Card withBorder radius="md" p="md" data-testid="payments-health">
      <Group justify="space-between" mb="xs" gap="xs">
        <Title order={5}>Payments</Title>
        <Badge color={stuck.color} variant="light">
          {stuck.label}
        </Badge>
      </Group>
      <Stack gap="sm">
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Text fz="sm" c="dimmed">
            Pending over 15 minutes
          </Text>
          <Text fz="sm" fw={600} data-testid="payments-stuck">
            {pendingOver15Minutes.toLocaleString("en-IN")}
          </Text>
        </Group>
        <div>
          <Group justify="space-between" gap="xs" wrap="wrap">
            <Text fz="sm" c="dimmed">
              Last reconciliation with PayU
            </Text>
            <Badge color={state.color} variant="light" size="sm">
              {state.label}
            </Badge>
          </Group>
          {run.ranAt ? (
            <Stack gap={2} mt={4}>
              <Text fz="sm" fw={500}>
                {timeFormat.format(new Date(run.ranAt))}
              </Text>
              <Text fz="sm" data-testid="reconciliation-counts">
                {reconciliationCounts(run)}
              </Text>
            </Stack>
          ) : (
            <Text fz="sm" mt={4}>
              The reconciliation runs every half minute once the server is up.
            </Text>
          )}
          {run.error ? (
            <Text fz="sm" c="red.8" mt={4} style={{ overflowWrap: "anywhere" }}>
              {run.error}
            </Text>
          ) : null}
        </div>
      </Stack>
    </Card>
  );
}
