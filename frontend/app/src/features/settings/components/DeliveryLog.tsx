import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Pagination,
  Select,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from "@mantine/core";
import { IconRefresh } from "@tabler/icons-react";
import { useState } from "react";
import { paginationControlLabel, scrollRegion } from "../../../components/a11y";
import { messageOf } from "../../../lib/api-client";
import {
  deliveryBadge,
  endpointName,
  formatDuration,
  formatWhen,
  responseCode,
  retryIn,
  type Delivery,
  type Endpoint,
} from "../api/integrations";
import { useDeliveries, useRefreshWebhooks, useResend } from "../api/webhooks";

function StatusBadge({ status }: { status: string }) {
  const badge = deliveryBadge(status);
  return (
    <Badge color={badge.color} variant="light" style={{ flexShrink: 0, minWidth: "max-content" }}>
      {badge.label}
    </Badge>
  );
}

function Excerpt({ text }: { text: string | null | undefined }) {
  if (!text)
    return (
      <Text fz="xs" c="dimmed">
        —
      </Text>
    );
  return (
    <Text
      fz="xs"
      ff="monospace"
      lineClamp={2}
      title={text}
      style={{ overflowWrap: "anywhere", wordBreak: "break-word" }}
    >
      {text}
    </Text>
  );
}

/**
 * The last 30 days of delivery attempts, newest first: event, status code, duration, attempt,
 * next retry, the answer's first lines and how it ended, with an endpoint filter, pages and
 * "Resend" (the same event again, with the same `webhook-id`).
 */
export function DeliveryLog({
  endpoints,
  onResent,
}: {
  endpoints: Endpoint[];
  onResent: (message: string) => void;
}) {
  const [page, setPage] = useState(1);
  const [endpointId, setEndpointId] = useState<string | null>(null);
  const log = useDeliveries(page, endpointId);
  const resend = useResend();
  const refresh = useRefreshWebhooks();
  const [resendError, setResendError] = useState<string | null>(null);
  const now = new Date();
  const names = new Map(endpoints.map((e) => [e.id, endpointName(e)]));
  const rows = log.data?.data ?? [];
  const pages = log.data?.pagination.pages ?? 0;

  async function again(d: Delivery) {
    setResendError(null);
    try {
      await resend.mutateAsync({ params: { path: { id: d.id } } });
      await refresh();
      onResent(`${d.eventType} ${d.eventId} is being sent again; its new attempt appears below.`);
    } catch (err) {
      setResendError(messageOf(err, "Failed to resend the event. Please try again."));
    }
  }

  const resendButton = (d: Delivery) => (
    <Button
      size="compact-sm"
      variant="light"
      leftSection={<IconRefresh size={14} />}
      onClick={() => void again(d)}
      loading={resend.isPending && resend.variables?.params.path.id === d.id}
      aria-label={`Resend ${d.eventType} ${d.eventId}`}
      style={{ flexShrink: 0 }}
    >
      Resend
    </Button>
  );

  const retry = (d: Delivery) => retryIn(d.nextAttemptAt, now) ?? "—";

  let body;
  if (log.isLoading) {
    body = (
      <Stack p="md" gap="xs">
        {[1, 2, 3].map((i) => (
          <Skeleton key={i} h={32} />
        ))}
      </Stack>
    );
  } else if (log.isError) {
    body = (
      <Alert color="red" role="alert" m="md">
        {messageOf(log.error, "Failed to load the delivery log. Please try again.")}
      </Alert>
    );
  } else if (rows.length === 0) {
    body = (
      <Stack align="center" gap={4} p="xl">
        <Text fw={600}>No deliveries yet</Text>
        <Text c="dimmed" fz="sm" ta="center">
          Every attempt to send an event in the last 30 days appears here. Try &quot;Send test
          event&quot; on an endpoint.
        </Text>
      </Stack>
    );
  } else {
    body = (
      <>
        {/* The table's nine columns need about 1,050 px: beside the sidebar, only a desktop of
            1408 px or more has them; narrower screens list the attempts. */}
        <Table.ScrollContainer minWidth={980} visibleFrom="xl" {...scrollRegion("Delivery log")}>
          <Table
            verticalSpacing="sm"
            horizontalSpacing="sm"
            striped
            style={{ whiteSpace: "nowrap" }}
          >
            <Table.Thead>
              <Table.Tr>
                <Table.Th>When</Table.Th>
                <Table.Th>Event</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Code</Table.Th>
                <Table.Th>Duration</Table.Th>
                <Table.Th>Attempt</Table.Th>
                <Table.Th>Next retry</Table.Th>
                <Table.Th>Response</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((d) => (
                <Table.Tr key={d.id} data-testid="delivery-row">
                  <Table.Td fz="sm" style={{ whiteSpace: "nowrap" }}>
                    {formatWhen(d.createdAt)}
                  </Table.Td>
                  <Table.Td miw={150} style={{ whiteSpace: "normal" }}>
                    <Text fz="sm" ff="monospace">
                      {d.eventType}
                    </Text>
                    <Text fz="xs" c="dimmed" style={{ overflowWrap: "anywhere" }}>
                      {names.get(d.endpointId) ?? "Deleted endpoint"}
                    </Text>
                    <Text fz="xs" c="dimmed" ff="monospace" style={{ overflowWrap: "anywhere" }}>
                      {d.eventId}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <StatusBadge status={d.status} />
                  </Table.Td>
                  <Table.Td fz="sm">{responseCode(d.responseStatus)}</Table.Td>
                  <Table.Td fz="sm" style={{ whiteSpace: "nowrap" }}>
                    {formatDuration(d.durationMs)}
                  </Table.Td>
                  <Table.Td fz="sm">{d.attempt}</Table.Td>
                  <Table.Td fz="sm" style={{ whiteSpace: "nowrap" }}>
                    {retry(d)}
                  </Table.Td>
                  <Table.Td miw={140} maw={200} style={{ whiteSpace: "normal" }}>
                    <Excerpt text={d.responseExcerpt} />
                  </Table.Td>
                  <Table.Td>{resendButton(d)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        <Stack gap={0} hiddenFrom="xl" component="ul" p={0} m={0} style={{ listStyle: "none" }}>
          {rows.map((d, i) => (
            <Stack
              key={d.id}
              component="li"
              gap={6}
              p="md"
              data-testid="delivery-row"
              style={i > 0 ? { borderTop: "1px solid var(--mantine-color-gray-3)" } : undefined}
            >
              <Group justify="space-between" wrap="nowrap" align="flex-start" gap="sm">
                <div style={{ minWidth: 0 }}>
                  <Text fz="sm" fw={600} ff="monospace" style={{ overflowWrap: "anywhere" }}>
                    {d.eventType}
                  </Text>
                  <Text fz="xs" c="dimmed" style={{ overflowWrap: "anywhere" }}>
                    {names.get(d.endpointId) ?? "Deleted endpoint"} · {formatWhen(d.createdAt)}
                  </Text>
                </div>
                <StatusBadge status={d.status} />
              </Group>
              <Text fz="xs">
                Code {responseCode(d.responseStatus)} · {formatDuration(d.durationMs)} · attempt{" "}
                {d.attempt}
                {d.nextAttemptAt ? ` · next retry ${retry(d)}` : ""}
              </Text>
              <Excerpt text={d.responseExcerpt} />
              <Group justify="space-between" wrap="nowrap" gap="sm">
                <Text fz="xs" ff="monospace" c="dimmed" style={{ overflowWrap: "anywhere" }}>
                  {d.eventId}
                </Text>
                {resendButton(d)}
              </Group>
            </Stack>
          ))}
        </Stack>
      </>
    );
  }

  return (
    <Card withBorder radius="md" p={0}>
      <Stack gap="sm" p="md" pb={0}>
        <Group justify="space-between" align="flex-end" gap="sm">
          <div>
            <Title order={2} fz="h4">
              Delivery log
            </Title>
            <Text fz="sm" c="dimmed">
              Every attempt of the last 30 days; failed deliveries are retried after 5 s, 5 min, 30
              min, 2 h, 5 h, 10 h and 10 h, and a resent one on the same schedule again.
            </Text>
          </div>
          <Select
            label="Endpoint"
            data={[
              { value: "", label: "All endpoints" },
              ...endpoints.map((e) => ({ value: e.id, label: endpointName(e) })),
            ]}
            value={endpointId ?? ""}
            onChange={(v) => {
              setEndpointId(v ? v : null);
              setPage(1);
            }}
            allowDeselect={false}
            style={{ flex: "1 1 220px", maxWidth: 360 }}
          />
        </Group>
        {resendError ? (
          <Alert color="red" role="alert">
            {resendError}
          </Alert>
        ) : null}
      </Stack>
      <div style={{ marginTop: "var(--mantine-spacing-sm)" }}>{body}</div>
      {pages > 1 ? (
        <Group justify="space-between" p="md" gap="sm">
          <Text fz="sm" c="dimmed">
            {(log.data?.pagination.total ?? 0).toLocaleString("en-IN")} attempts
          </Text>
          <Pagination
            getControlProps={paginationControlLabel}
            total={pages}
            value={page}
            onChange={setPage}
            size="sm"
          />
        </Group>
      ) : null}
    </Card>
  );
}
