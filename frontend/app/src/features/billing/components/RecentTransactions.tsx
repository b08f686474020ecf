import { Anchor, Card, Group, Skeleton, Stack, Text, Title } from "@mantine/core";
import { Link } from "react-router";
import { formatDate, formatInrExact } from "../../../lib/format";
import { usePaymentHistory } from "../api/billing";
import { mostRecent } from "../api/history";
import { PaymentStatusBadge } from "./PaymentStatusBadge";

/** The five newest payments; a failed load is only logged and reads as no payments. */
export function RecentTransactions() {
  const history = usePaymentHistory();
  if (history.isError) console.error("payment history failed", history.error);
  const recent = mostRecent(history.data?.data ?? []);

  return (
    <Card withBorder radius="md" p="lg" data-testid="recent-transactions">
      <Group justify="space-between" mb="md">
        <Title order={2} fz="h4">
          Recent Transactions
        </Title>
        <Anchor component={Link} to="/billing/history" fz="sm">
          View all
        </Anchor>
      </Group>
      {history.isLoading ? (
        <Stack gap="xs">
          {[1, 2, 3].map((i) => (
            <Skeleton key={i} h={36} />
          ))}
        </Stack>
      ) : recent.length === 0 ? (
        <Text c="dimmed" fz="sm">
          No transactions yet.
        </Text>
      ) : (
        // Only payments are items of the list: the lines between them are borders, not elements.
        <Stack gap={0} component="ul" role="list" p={0} m={0} style={{ listStyle: "none" }}>
          {recent.map((p, i) => (
            <Group
              key={p.txnid}
              component="li"
              justify="space-between"
              wrap="nowrap"
              gap="sm"
              py="xs"
              style={i > 0 ? { borderTop: "1px solid var(--mantine-color-gray-3)" } : undefined}
            >
              <div style={{ minWidth: 0 }}>
                {/* Wraps on a phone rather than losing the end of the plan's name. */}
                <Text fz="sm" fw={600} style={{ overflowWrap: "anywhere" }}>
                  {p.productinfo}
                </Text>
                <Text fz="xs" c="dimmed">
                  {formatDate(p.createdAt)}
                </Text>
              </div>
              <Group gap="sm" wrap="nowrap" style={{ flexShrink: 0 }}>
                <Text fz="sm" fw={600}>
                  {formatInrExact(p.amount)}
                </Text>
                <PaymentStatusBadge status={p.status} />
              </Group>
            </Group>
          ))}
        </Stack>
      )}
    </Card>
  );
}
