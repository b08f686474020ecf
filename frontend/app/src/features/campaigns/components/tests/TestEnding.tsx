import { NumberInput, SimpleGrid, Switch } from "@mantine/core";
import { MAX_DAYS } from "../../api/ab-tests";

/**
 * How a test ends, as the owner chooses it: the maximum duration in days (after it, a test
 * without a winner is inconclusive) and whether the winner is promoted by itself. Used when a
 * test is written and on an open test's results.
 */
export function TestEnding({
  maxDays,
  autoPromote,
  error,
  onMaxDays,
  onAutoPromote,
}: {
  /** NaN while the field is empty or not a number. */
  maxDays: number;
  autoPromote: boolean;
  error?: string | null;
  onMaxDays: (days: number) => void;
  onAutoPromote: (on: boolean) => void;
}) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
      <NumberInput
        label="Maximum duration (days)"
        description={`Without a winner after this many days (${MAX_DAYS.min} to ${MAX_DAYS.max}) the test is inconclusive. You get an email either way.`}
        min={MAX_DAYS.min}
        max={MAX_DAYS.max}
        allowDecimal={false}
        clampBehavior="none"
        value={Number.isNaN(maxDays) ? "" : maxDays}
        error={error ?? undefined}
        onChange={(v) => onMaxDays(typeof v === "number" ? v : Number.NaN)}
        maw={320}
      />
      <Switch
        mt={{ base: 0, sm: "lg" }}
        label="Promote the winner automatically"
        description="When a variant wins, the campaign takes its settings and the test closes by itself. If the control wins or the test is inconclusive, the test closes and the campaign stays as it is."
        checked={autoPromote}
        onChange={(e) => onAutoPromote(e.currentTarget.checked)}
      />
    </SimpleGrid>
  );
}
