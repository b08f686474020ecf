import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Pagination,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
} from "@mantine/core";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { messageOf } from "../../../lib/api-client";
import { type MetaEventStatus, useMetaOutbox, useRequeueMetaEvents } from "../api/admin";
import { paginationControlLabel, scrollRegion } from "../../../components/a11y";

const timeFormat = new Intl.DateTimeFormat("en-IN", { dateStyle: "medium", timeStyle: "short" });

const STATUS: Record<MetaEventStatus, { label: string; color: string }> = {
  pending: { label: "Waiting", color: "yellow" },
  sent: { label: "Sent", color: "green" },
  failed: { label: "Failed", color: "red" },
  not_forwarded: { label: "Not forwarded", color: "gray" },
  skipped: { label: "Never sent", color: "gray" },
};

/** What re-queueing did, in words. */
function requeueMessage(requeued: number, tooOld: number): string {
  const put =
    requeued === 0
      ? "No failed event to re-queue; sending resumes."
      : `${requeued.toLocaleString("en-IN")} failed ${requeued === 1 ? "event" : "events"} re-queued.`;
  return tooOld > 0
    ? `${put} ${tooOld.toLocaleString("en-IN")} older than 7 days stay failed (Meta refuses them).`
    : put;
}

/** The filter's choices: every event, or those in one state. */
const SHOW = [
  { value: "", label: "All events" },
  ...Object.entries(STATUS).map(([value, s]) => ({ value, label: s.label })),
];

/** The Meta Conversions API outbox: what was sent to Meta, what waits, what
 * failed and why, whether sending is paused because Meta rejected the access
 * token or refused the pixel, every event page by page or those in one state; staff re-queue
 * failed events from here. */
export function MetaOutboxPanel() {
  const [status, setStatus] = useState<MetaEventStatus | undefined>(undefined);
  const [page, setPage] = useState(1);
  const { data, isPending, error } = useMetaOutbox({ status, page });
  const requeue = useRequeueMetaEvents();
  const queryClient = useQueryClient();
  const [done, setDone] = useState<string | null>(null);
  if (isPending) return <Skeleton h={160} radius="md" />;
  if (error || !data) {
    return (
      <Alert color="red" title="Meta events could not be loaded">
        {messageOf(error, "Please try again.")}
      </Alert>
    );
  }
  const o = data.data;
  const counts: [string, number][] = [
    ["Sent", o.sent],
    ["Waiting", o.pending],
    ["Failed", o.failed],
    ["Not forwarded", o.notForwarded],
    ["Never sent", o.skipped],
  ];
  const onRequeue = async () => {
    setDone(null);
    try {
      const out = await requeue.mutateAsync({});
      setDone(requeueMessage(out.data.requeued, out.data.tooOld));
      await queryClient.invalidateQueries({ queryKey: ["get", "/api/admin/meta/events"] });
    } catch {
      // The mutation's error is shown below.
    }
  };
  return (
    <Card withBorder radius="md" p="md" data-testid="meta-outbox">
      <Group justify="space-between" mb="xs" gap="xs">
        <Title order={5}>Meta Conversions API</Title>
        <Group gap="xs">
          {o.testEvents && (
            <Badge color="blue" variant="light">
              Test events
            </Badge>
          )}
          <Badge
            color={o.paused ? "red" : o.forwarding ? "green" : "gray"}
            variant="light"
            data-testid="meta-outbox-state"
          >
            {o.paused ? "Paused" : o.forwarding ? "Forwarding" : "Not configured"}
          </Badge>
        </Group>
      </Group>
      {o.paused && (
        <Alert
          color="red"
          title={o.paused.cause === "pixel" ? "Meta refused the pixel" : "Meta token rejected"}
          mb="sm"
          data-testid="meta-outbox-paused"
        >
          <Text fz="sm">
            Sending has been paused since {timeFormat.format(new Date(o.paused.since))}. Nothing is
            lost: the {o.pending.toLocaleString("en-IN")} waiting{" "}
            {o.pending === 1 ? "event goes" : "events go"}{" "}
            {o.paused.cause === "pixel"
              ? "once CA_META_PIXEL_ID names a pixel this access token may send to (sending resumes by itself after a restart with a changed pixel id or token)"
              : "once CA_META_ACCESS_TOKEN holds a valid token (sending resumes by itself after a restart with a new token)"}{" "}
            or you retry below.
          </Text>
          <Text fz="xs" c="dimmed" mt={4} style={{ overflowWrap: "anywhere" }}>
            {o.paused.reason}
          </Text>
        </Alert>
      )}
      {!o.forwarding && (
        <Text fz="sm" c="dimmed" mb="sm">
          Sign-ups and purchases are stored here and sent to Meta once CA_META_PIXEL_ID and
          CA_META_ACCESS_TOKEN are set.
        </Text>
      )}
      <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }} mb="sm">
        {counts.map(([label, n]) => (
          <Stack gap={0} key={label}>
            <Text fz="xs" c="dimmed" tt="uppercase" fw={700}>
              {label}
            </Text>
            <Text fw={600}>{n.toLocaleString("en-IN")}</Text>
          </Stack>
        ))}
      </SimpleGrid>
      {o.forwarding && (o.failed > 0 || o.paused) && (
        <Group gap="sm" mb="sm" align="center">
          <Button
            size="xs"
            variant="light"
            onClick={() => void onRequeue()}
            loading={requeue.isPending}
          >
            {o.failed > 0 ? "Re-queue failed events" : "Retry now"}
          </Button>
          {done && (
            <Text fz="sm" role="status">
              {done}
            </Text>
          )}
          {requeue.error && (
            <Text fz="sm" c="red" role="alert">
              {messageOf(requeue.error, "The events could not be re-queued.")}
            </Text>
          )}
        </Group>
      )}
      <Select
        label="Show"
        data={SHOW}
        value={status ?? ""}
        onChange={(v) => {
          setStatus(v ? (v as MetaEventStatus) : undefined);
          setPage(1);
        }}
        allowDeselect={false}
        mb="sm"
        style={{ maxWidth: 240 }}
        data-testid="meta-outbox-filter"
      />
      {o.events.length === 0 ? (
        <Text fz="sm" c="dimmed">
          {status ? "No events in this state." : "No events yet."}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={620} scrollAreaProps={scrollRegion("Meta events")}>
          <Table verticalSpacing="xs" fz="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Event</Table.Th>
                <Table.Th>Id</Table.Th>
                <Table.Th>When</Table.Th>
                <Table.Th style={{ minWidth: 130 }}>Status</Table.Th>
                <Table.Th>Reason</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {o.events.map((e) => {
                const s = STATUS[e.status as MetaEventStatus] ?? {
                  label: e.status,
                  color: "gray",
                };
                return (
                  <Table.Tr key={e.eventId}>
                    <Table.Td>
                      {e.eventName}
                      {e.testEvent && (
                        <Text span fz="xs" c="dimmed">
                          {" "}
                          (test)
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td style={{ overflowWrap: "anywhere" }}>{e.eventId}</Table.Td>
                    <Table.Td>{timeFormat.format(new Date(e.eventTime))}</Table.Td>
                    <Table.Td>
                      <Badge color={s.color} variant="light">
                        {s.label}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      <Text fz="xs" c="dimmed" style={{ overflowWrap: "anywhere" }} lineClamp={3}>
                        {e.status === "sent" ? "" : (e.lastError ?? "")}
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {o.pagination.pages > 1 && (
        <Group justify="space-between" mt="sm" gap="sm">
          <Text fz="sm" c="dimmed">
            {o.pagination.total.toLocaleString("en-IN")}{" "}
            {o.pagination.total === 1 ? "event" : "events"}
          </Text>
          <Pagination
            getControlProps={paginationControlLabel}
            total={o.pagination.pages}
            value={page}
            onChange={setPage}
            size="sm"
          />
        </Group>
      )}
    </Card>
  );
}
