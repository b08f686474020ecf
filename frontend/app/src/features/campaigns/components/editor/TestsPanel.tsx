import {
  Accordion,
  Alert,
  Badge,
  Button,
  Group,
  Skeleton,
  Stack,
  Text,
  Title,
} from "@mantine/core";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { messageOf } from "../../../../lib/api-client";
import { stateWords } from "../../api/ab-tests";
import { useAbTests, type AbTest } from "../../api/ab-test-queries";
import type { Campaign } from "../../api/campaigns";
import type { CampaignEditor } from "../../hooks/useCampaignEditor";
import { TestCreator } from "../tests/TestCreator";
import { TestResults } from "../tests/TestResults";

/**
 * Tests: the campaign's A/B tests, newest first (running, paused and closed ones, each with its
 * results), and a new test written from the campaign as saved. A campaign runs one test at a time.
 */
export function TestsPanel({ campaignId, editor }: { campaignId: string; editor: CampaignEditor }) {
  const tests = useAbTests(campaignId);
  const shown = editor.tab === "tests";
  // The results are read again each time the tab is opened: traffic arrives all the time.
  useEffect(() => {
    if (shown) void tests.refetch();
    // Only when the tab opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [shown]);
  const queryClient = useQueryClient();
  const [creating, setCreating] = useState(false);
  // The open test whose variants are being edited into its next version.
  const [editing, setEditing] = useState<AbTest | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const list = tests.data?.data ?? [];
  const live = list.find((t) => t.status !== "closed");
  const opened = open ?? list[0]?.id ?? null;

  /** After a promotion the editor starts again from the campaign as the server now has it. */
  const reload = () => {
    const fresh = queryClient.getQueryData<{ campaign: Campaign }>([
      "get",
      "/api/campaigns/{id}",
      { params: { path: { id: campaignId } } },
    ]);
    if (fresh) editor.replace(fresh.campaign);
  };

  if (creating || editing)
    return (
      <TestCreator
        key={editing?.id ?? "new"}
        campaignId={campaignId}
        base={editor.saved.settings}
        dirty={editor.dirty}
        from={editing ?? undefined}
        onCancel={() => {
          setCreating(false);
          setEditing(null);
        }}
        onCreated={(id) => {
          setCreating(false);
          setEditing(null);
          setOpen(id);
        }}
      />
    );

  return (
    <Stack>
      <Group justify="space-between" align="flex-start">
        <div>
          <Title order={3}>A/B tests</Title>
          <Text fz="sm" c="dimmed">
            Compare the popup as it is with up to 3 variants; a winner is called after at least 7
            days and enough visitors.
          </Text>
        </div>
        <Button disabled={!!live || tests.isLoading} onClick={() => setCreating(true)}>
          Create test
        </Button>
      </Group>
      {live && (
        <Text fz="sm" c="dimmed">
          A campaign runs one test at a time: promote a variant of &ldquo;{live.name}&rdquo; to
          close it before starting another.
        </Text>
      )}
      {tests.isLoading && <Skeleton h={120} />}
      {tests.isError && (
        <Alert color="red" title="Failed to load tests">
          {messageOf(tests.error, "Failed to load tests")}{" "}
          <Button size="compact-sm" variant="subtle" onClick={() => void tests.refetch()}>
            Try Again
          </Button>
        </Alert>
      )}
      {tests.isSuccess && list.length === 0 && (
        <Text c="dimmed">No tests yet. Create one from the current design.</Text>
      )}
      {list.length > 0 && (
        <Accordion variant="separated" value={opened} onChange={setOpen}>
          {list.map((t) => {
            const words = stateWords(t.state, t.status, t.days);
            return (
              <Accordion.Item key={t.id} value={t.id} data-testid="ab-test">
                <Accordion.Control>
                  <Group gap="sm" wrap="wrap">
                    <Text fw={600}>{t.name}</Text>
                    <Text fz="sm" c="dimmed">
                      Version {t.version}
                    </Text>
                    <Badge variant="light" color={words.color} data-testid="test-state">
                      {words.label}
                    </Badge>
                  </Group>
                </Accordion.Control>
                <Accordion.Panel>
                  <TestResults
                    test={t}
                    base={editor.saved.settings}
                    dirty={editor.dirty}
                    versionOf={(id) => list.find((x) => x.id === id)?.version}
                    onPromoted={reload}
                    onEditVariants={() => setEditing(t)}
                  />
                </Accordion.Panel>
              </Accordion.Item>
            );
          })}
        </Accordion>
      )}
    </Stack>
  );
}
