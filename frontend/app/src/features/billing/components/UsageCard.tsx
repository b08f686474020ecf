import { Alert, Card, Group, Progress, Skeleton, Stack, Text, Title } from "@mantine/core";
import type { components } from "../../../api/schema";
import { formatDate } from "../../../lib/format";

type Usage = components["schemas"]["Usage"];

/** Share of a limit used, capped at 100 % so an over-limit bar stays full, not overflowing. */
export function usagePercent(current: number, limit: number): number {
  if (limit <= 0) return current > 0 ? 100 : 0;
  return Math.min(100, Math.round((current / limit) * 100));
}

function Meter({
  label,
  current,
  limit,
  hint,
}: {
  label: string;
  current: number;
  limit: number;
  hint?: string;
}) {
  const pct = usagePercent(current, limit);
  return (
    <Stack gap={4}>
      <Group justify="space-between">
        <Text fz="sm" fw={600}>
          {label}
        </Text>
        <Text fz="sm" c="dimmed">
          {current.toLocaleString("en-IN")} /{" "}
          {limit < 0 ? "Unlimited" : limit.toLocaleString("en-IN")}
        </Text>
      </Group>
      <Progress
        value={pct}
        color={pct >= 100 ? "red" : pct >= 80 ? "orange" : "indigo"}
        aria-label={label}
      />
      {hint ? (
        <Text fz="xs" c="dimmed">
          {hint}
        </Text>
      ) : null}
    </Stack>
  );
}

export function UsageCard({
  usage,
  error,
  loading,
}: {
  usage?: Usage;
  error?: string | null;
  loading: boolean;
}) {
  return (
    <Card withBorder radius="md" p="lg">
      <Title order={3} fz="h4" mb="md">
        Usage
      </Title>
      {loading ? (
        <Stack>
          <Skeleton h={40} />
          <Skeleton h={40} />
        </Stack>
      ) : error ? (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      ) : usage ? (
        <Stack>
          <Meter
            label="Campaigns"
            current={usage.campaigns.current}
            limit={usage.campaigns.limit}
          />
          <Meter
            label="Visitors this month"
            current={usage.visitors.current}
            limit={usage.visitors.limit}
            hint={`Resets on ${formatDate(usage.visitors.resetDate)}`}
          />
        </Stack>
      ) : null}
    </Card>
  );
}
