import { Anchor, Card, Divider, Group, Skeleton, Stack, Text, Title } from "@mantine/core";
import { Fragment } from "react";
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
        <Stack gap="xs" component="ul" role="list" p={0} m={0} style={{ listStyle: "none" }}>
          {recent.map((p, i) => (
            <Fragment key={p.txnid}>
              {i > 0 ? <Divider component="li" role="presentation" /> : null}
              <Group component="li" justify="space-between" wrap="nowrap" gap="sm">
                <div style={{ minWidth: 0 }}>
                  <Text fz="sm" fw={600} truncate>
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
            </Fragment>
          ))}
        </Stack>
      )}
    </Card>
  );
}
