import {
  Alert,
  Anchor,
  Button,
  Card,
  Group,
  Progress,
  Skeleton,
  Stack,
  Text,
  Title,
} from "@mantine/core";
import type { components } from "../../../api/schema";
import { formatDate } from "../../../lib/format";
import { usageMeter } from "../../../lib/usage";
import { PLANS_ANCHOR } from "./PlanGrid";

type Usage = components["schemas"]["Usage"];

/** What a full or over-full meter says, next to the way to more. */
const FULL_HINT = { full: "Plan limit reached.", over: "Over your plan's limit." } as const;

function Meter({
  label,
  what,
  current,
  limit,
  hint,
}: {
  label: string;
  /** The counted thing in the plural, for the hint: "campaigns", "visitors". */
  what: string;
  current: number;
  limit: number;
  hint?: string;
}) {
  const meter = usageMeter(current, limit);
  const used = `${current.toLocaleString("en-IN")} / ${
    limit < 0 ? "Unlimited" : limit.toLocaleString("en-IN")
  }`;
  return (
    <Stack gap={4} data-testid={`usage-${what}`} data-level={meter.level}>
      <Group justify="space-between">
        <Text fz="sm" fw={600}>
          {label}
        </Text>
        <Text fz="sm" c="dimmed">
          {used}
        </Text>
      </Group>
      {/* Drawn at least a sliver wide once anything is used; the value read out is the real one. */}
      <Progress.Root
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(meter.percent)}
        aria-valuetext={used}
      >
        <Progress.Section value={meter.width} color={meter.color} withAria={false} />
      </Progress.Root>
      {meter.level === "full" || meter.level === "over" ? (
        <Group gap="xs" wrap="wrap">
          <Text fz="xs">{FULL_HINT[meter.level]}</Text>
          <Button
            size="compact-xs"
            variant="subtle"
            onClick={() =>
              document.getElementById(PLANS_ANCHOR)?.scrollIntoView({ behavior: "smooth" })
            }
          >
            Upgrade for More
          </Button>
        </Group>
      ) : null}
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
  signIn,
  loading,
}: {
  usage?: Usage;
  error?: string | null;
  /** The sign-in link shown with the error when the session is over; it comes back here. */
  signIn?: string | null;
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
          <Stack gap={6} align="flex-start">
            <Text fz="sm">{error}</Text>
            {signIn ? (
              // A full page load: the sign-in page is its own page, and it comes back here.
              <Anchor href={signIn} fz="sm" fw={600}>
                Sign in again
              </Anchor>
            ) : null}
          </Stack>
        </Alert>
      ) : usage ? (
        <Stack>
          <Meter
            label="Campaigns"
            what="campaigns"
            current={usage.campaigns.current}
            limit={usage.campaigns.limit}
          />
          <Meter
            label="Visitors this month"
            what="visitors"
            current={usage.visitors.current}
            limit={usage.visitors.limit}
            hint={`Resets on ${formatDate(usage.visitors.resetDate)}`}
          />
        </Stack>
      ) : null}
    </Card>
  );
}
