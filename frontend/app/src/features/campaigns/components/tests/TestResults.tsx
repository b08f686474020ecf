import {
  Alert,
  Badge,
  Box,
  Button,
  Group,
  Modal,
  SegmentedControl,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
} from "@mantine/core";
import { Suspense, lazy, useState } from "react";
import { messageOf } from "../../../../lib/api-client";
import { formatDate, formatInrExact } from "../../../../lib/format";
import { METRICS, applyOverrides, maxDaysError, stateWords } from "../../api/ab-tests";
import {
  useChangeAbTest,
  usePauseAbTest,
  usePauseAbVariant,
  usePromoteAbTest,
  type AbTest,
  type AbVariant,
} from "../../api/ab-test-queries";
import type { CampaignSettings } from "../../api/campaigns";
import { PopupPreview } from "../PopupPreview";
import { TestEnding } from "./TestEnding";

const CumulativeChart = lazy(() => import("./CumulativeChart"));

const count = (n: number) => n.toLocaleString("en-IN");
const pct = (n: number) => `${n.toLocaleString("en-IN", { maximumFractionDigits: 2 })} %`;

/**
 * One test's results: where it stands in plain words, the call and its reason, a table per
 * variant, the cumulative chart, a preview of any variant (it counts nothing), and the owner's
 * Pause/Resume of the test or of one variant (a paused variant's visitors see the campaign as it
 * is and count for no arm), and Promote (after a confirmation, the campaign takes the variant's
 * design). How the test ends (its maximum duration, auto-promote) is shown, and changed while the
 * test is open.
 */
export function TestResults({
  test,
  base,
  dirty,
  versionOf,
  onPromoted,
  onEditVariants,
}: {
  test: AbTest;
  /** The campaign's saved settings, which each variant's overrides are laid over. */
  base: CampaignSettings;
  /** The editor has unsaved changes (promoting replaces them). */
  dirty: boolean;
  /** The version number of another test of the campaign (the one that replaced this one). */
  versionOf: (testId: string) => number | undefined;
  onPromoted: () => void;
  /** Opens the designer on this open test's variants; saving starts its next version. */
  onEditVariants: () => void;
}) {
  const pause = usePauseAbTest();
  const pauseVariant = usePauseAbVariant();
  const promote = usePromoteAbTest();
  const [confirming, setConfirming] = useState<AbVariant | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [shown, setShown] = useState(test.variants[0]?.id ?? "");
  const closed = test.status === "closed";
  const words = stateWords(test.state, test.status, test.days);
  const nameOf = (id: string | null | undefined) =>
    test.variants.find((v) => v.id === id)?.name ?? "";
  const metric = METRICS.find((m) => m.value === test.metric)?.label ?? test.metric;
  const path = { id: test.campaignId, testId: test.id };
  const previewed = test.variants.find((v) => v.id === shown) ?? test.variants[0];

  async function togglePause() {
    setError(null);
    try {
      await pause.mutateAsync({ params: { path } });
    } catch (err) {
      setError(messageOf(err, "Failed to change the test"));
    }
  }

  async function toggleVariant(variant: AbVariant) {
    setError(null);
    try {
      await pauseVariant.mutateAsync({ params: { path: { ...path, variantId: variant.id } } });
    } catch (err) {
      setError(messageOf(err, "Failed to change the variant"));
    }
  }

  async function confirmPromote(variant: AbVariant) {
    setError(null);
    try {
      await promote.mutateAsync({ params: { path }, body: { variantId: variant.id } });
      setConfirming(null);
      onPromoted();
    } catch (err) {
      setConfirming(null);
      setError(messageOf(err, "Failed to promote the variant"));
    }
  }

  return (
    <Stack gap="md" data-testid="test-results">
      {/* The test's state is the badge on its row in the list, above. */}
      <Text fz="sm" c="dimmed">
        Metric: {metric} · started {formatDate(test.startedAt)}
        {test.closedAt ? ` · closed ${formatDate(test.closedAt)}` : ""} · {test.days}{" "}
        {test.days === 1 ? "day" : "days"} · maximum {test.maxDays} days · promote the winner
        automatically: {test.autoPromote ? "on" : "off"}
      </Text>
      <Text fz="sm">{words.text}</Text>
      {test.replacedBy && (
        <Alert color="gray" title="Replaced by a new version" data-testid="test-replaced">
          Its variants were edited on {formatDate(test.closedAt ?? test.startedAt)}: version{" "}
          {versionOf(test.replacedBy) ?? test.version + 1} took its place and counts from zero. The
          results below are this version&apos;s own.
        </Alert>
      )}
      {test.decision && (
        <Alert
          color={test.decision.winner ? "green" : "orange"}
          title={
            test.decision.winner
              ? `Decision: ${nameOf(test.decision.winner)}`
              : "Decision: no winner"
          }
          data-testid="test-decision"
        >
          {test.decision.reason} ({formatDate(test.decision.at)})
          {test.notifiedAt && (
            <Text fz="xs" c="dimmed" mt={4} data-testid="test-notified">
              You were told by email on {formatDate(test.notifiedAt)}.
            </Text>
          )}
        </Alert>
      )}
      {error && (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}

      {/* On a narrow screen the table scrolls sideways: a keyboard can reach and scroll it too. */}
      <Table.ScrollContainer
        minWidth={900}
        type="native"
        tabIndex={0}
        role="region"
        aria-label="Results per variant"
      >
        <Table striped withTableBorder verticalSpacing="xs" data-testid="test-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Variant</Table.Th>
              <Table.Th ta="right">Split</Table.Th>
              <Table.Th ta="right">Visitors</Table.Th>
              <Table.Th ta="right">Impressions</Table.Th>
              <Table.Th ta="right">Leads</Table.Th>
              <Table.Th ta="right">Conversion rate (95 % interval)</Table.Th>
              <Table.Th ta="right">Revenue</Table.Th>
              <Table.Th ta="right">Revenue per visitor</Table.Th>
              <Table.Th ta="right">Probability to be best</Table.Th>
              {!closed && <Table.Th>Action</Table.Th>}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {test.variants.map((v, i) => (
              <Table.Tr key={v.id}>
                <Table.Th scope="row" fw={500} miw={180}>
                  <Group gap={6}>
                    <span>{v.name}</span>
                    {i === 0 && (
                      <Badge size="xs" variant="outline" color="gray" style={{ flexShrink: 0 }}>
                        Control
                      </Badge>
                    )}
                    {v.paused && (
                      <Badge size="xs" variant="light" color="gray" style={{ flexShrink: 0 }}>
                        Paused
                      </Badge>
                    )}
                    {test.decision?.winner === v.id && (
                      <Badge size="xs" color="green" style={{ flexShrink: 0 }}>
                        {closed ? "Promoted" : "Winner"}
                      </Badge>
                    )}
                  </Group>
                </Table.Th>
                <Table.Td ta="right">{v.weight} %</Table.Td>
                <Table.Td ta="right">{count(v.visitors)}</Table.Td>
                <Table.Td ta="right">{count(v.impressions)}</Table.Td>
                <Table.Td ta="right">{count(v.leads)}</Table.Td>
                <Table.Td ta="right">
                  {pct(v.conversionRate)}{" "}
                  <Text span fz="xs" c="dimmed">
                    ({pct(v.conversionRateInterval[0] ?? 0)} –{" "}
                    {pct(v.conversionRateInterval[1] ?? 0)})
                  </Text>
                </Table.Td>
                <Table.Td ta="right">{formatInrExact(v.revenue)}</Table.Td>
                <Table.Td ta="right">{formatInrExact(v.revenuePerVisitor)}</Table.Td>
                <Table.Td ta="right">{pct(Math.round(v.probabilityToBeBest * 1000) / 10)}</Table.Td>
                {!closed && (
                  <Table.Td>
                    <Group gap={6} wrap="nowrap">
                      <Button
                        size="compact-sm"
                        variant={test.decision?.winner === v.id ? "filled" : "default"}
                        aria-label={`Promote ${v.name}`}
                        onClick={() => setConfirming(v)}
                      >
                        Promote
                      </Button>
                      {i > 0 && (
                        <Button
                          size="compact-sm"
                          variant="subtle"
                          aria-label={`${v.paused ? "Resume" : "Pause"} ${v.name}`}
                          loading={
                            pauseVariant.isPending &&
                            pauseVariant.variables?.params.path.variantId === v.id
                          }
                          onClick={() => void toggleVariant(v)}
                        >
                          {v.paused ? "Resume" : "Pause"}
                        </Button>
                      )}
                    </Group>
                  </Table.Td>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Text fz="xs" c="dimmed">
        Probability to be best describes the data so far; the decision above is what to act on.
      </Text>

      <Suspense fallback={<Skeleton h={260} />}>
        <CumulativeChart test={test} />
      </Suspense>

      {!closed && (
        <Group>
          <Button variant="default" loading={pause.isPending} onClick={() => void togglePause()}>
            {test.status === "paused" ? "Resume test" : "Pause test"}
          </Button>
          <Button variant="default" onClick={onEditVariants}>
            Edit variants
          </Button>
        </Group>
      )}
      {!closed && (
        <Text fz="xs" c="dimmed">
          Editing the variants starts version {test.version + 1}: this version closes and keeps its
          results.
        </Text>
      )}

      {!closed && <EndingEditor test={test} />}

      {previewed && !closed && (
        <Stack gap="xs">
          <Title order={4}>Preview a variant</Title>
          <Text fz="sm" c="dimmed">
            The popup as each variant shows it. Previewing counts nothing.
          </Text>
          <SegmentedControl
            aria-label="Variant to preview"
            data={test.variants.map((v) => ({ value: v.id, label: v.name }))}
            value={previewed.id}
            onChange={setShown}
            style={{ alignSelf: "flex-start", maxWidth: "100%" }}
          />
          <Box maw={420}>
            <PopupPreview settings={applyOverrides(base, previewed.overrides)} />
          </Box>
        </Stack>
      )}

      <Modal
        opened={confirming !== null}
        onClose={() => setConfirming(null)}
        title={`Promote ${confirming?.name ?? ""}?`}
        centered
      >
        <Stack>
          <Text fz="sm">
            The campaign takes this variant&apos;s design and the test closes; its results stay
            readable here.
          </Text>
          {dirty && (
            <Text fz="sm" c="orange.9">
              Your unsaved changes in the editor will be replaced by the campaign as promoted.
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(null)}>
              Cancel
            </Button>
            <Button
              loading={promote.isPending}
              onClick={() => confirming && void confirmPromote(confirming)}
            >
              Promote
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

/** An open test's maximum duration and auto-promote, saved through the server (its message on a refusal). */
function EndingEditor({ test }: { test: AbTest }) {
  const change = useChangeAbTest();
  const [maxDays, setMaxDays] = useState(test.maxDays);
  const [autoPromote, setAutoPromote] = useState(test.autoPromote);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const local = maxDaysError(maxDays);
  const changed = maxDays !== test.maxDays || autoPromote !== test.autoPromote;

  async function save() {
    setError(null);
    setSaved(false);
    if (local) return;
    try {
      await change.mutateAsync({
        params: { path: { id: test.campaignId, testId: test.id } },
        body: { maxDays, autoPromote },
      });
      setSaved(true);
    } catch (err) {
      setError(messageOf(err, "Failed to change the test"));
    }
  }

  return (
    <Stack gap="xs" data-testid="test-ending">
      <Title order={4}>How the test ends</Title>
      <TestEnding
        maxDays={maxDays}
        autoPromote={autoPromote}
        error={local}
        onMaxDays={(d) => {
          setMaxDays(d);
          setSaved(false);
        }}
        onAutoPromote={(on) => {
          setAutoPromote(on);
          setSaved(false);
        }}
      />
      {error && (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
      <Group gap="sm">
        <Button
          variant="default"
          disabled={!changed || !!local}
          loading={change.isPending}
          onClick={() => void save()}
        >
          Save how the test ends
        </Button>
        {saved && !changed && (
          <Text fz="sm" role="status">
            Saved
          </Text>
        )}
      </Group>
    </Stack>
  );
}
