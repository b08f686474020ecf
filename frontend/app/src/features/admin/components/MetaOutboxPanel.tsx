import {
  Alert,
  Badge,
  Card,
  Group,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
} from "@mantine/core";
import { messageOf } from "../../../lib/api-client";
import { useMetaOutbox } from "../api/admin";
import { scrollRegion } from "../../../components/a11y";

const timeFormat = new Intl.DateTimeFormat("en-IN", { dateStyle: "medium", timeStyle: "short" });

const STATUS: Record<string, { label: string; color: string }> = {
  pending: { label: "Waiting", color: "yellow" },
  sent: { label: "Sent", color: "green" },
  failed: { label: "Failed", color: "red" },
  not_forwarded: { label: "Not forwarded", color: "gray" },
};

/** The Meta Conversions API outbox: what was sent to Meta, what waits, what failed. */
export function MetaOutboxPanel() {
  const { data, isPending, error } = useMetaOutbox();
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
  ];
  return (
    <Card withBorder radius="md" p="md" data-testid="meta-outbox">
      <Group justify="space-between" mb="xs" gap="xs">
        <Title order={5}>Meta Conversions API</Title>
        <Badge color={o.forwarding ? "green" : "gray"} variant="light">
          {o.forwarding ? "Forwarding" : "Not configured"}
        </Badge>
      </Group>
      {!o.forwarding && (
        <Text fz="sm" c="dimmed" mb="sm">
          Sign-ups and purchases are stored here and sent to Meta once CA_META_PIXEL_ID and
          CA_META_ACCESS_TOKEN are set.
        </Text>
      )}
      <SimpleGrid cols={{ base: 2, sm: 4 }} mb="sm">
        {counts.map(([label, n]) => (
          <Stack gap={0} key={label}>
            <Text fz="xs" c="dimmed" tt="uppercase" fw={700}>
              {label}
            </Text>
            <Text fw={600}>{n.toLocaleString("en-IN")}</Text>
          </Stack>
        ))}
      </SimpleGrid>
      {o.events.length === 0 ? (
        <Text fz="sm" c="dimmed">
          No events yet.
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={520} scrollAreaProps={scrollRegion("Meta events")}>
          <Table verticalSpacing="xs" fz="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Event</Table.Th>
                <Table.Th>Id</Table.Th>
                <Table.Th>When</Table.Th>
                <Table.Th>Status</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {o.events.map((e) => {
                const s = STATUS[e.status] ?? { label: e.status, color: "gray" };
                return (
                  <Table.Tr key={e.eventId}>
                    <Table.Td>{e.eventName}</Table.Td>
                    <Table.Td style={{ overflowWrap: "anywhere" }}>{e.eventId}</Table.Td>
                    <Table.Td>{timeFormat.format(new Date(e.eventTime))}</Table.Td>
                    <Table.Td>
                      <Badge color={s.color} variant="light" title={e.lastError ?? undefined}>
                        {s.label}
                      </Badge>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Card>
  );
}
