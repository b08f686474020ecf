import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import { useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent, type ReactNode } from "react";
import { messageOf } from "../../../lib/api-client";
import { formatInr } from "../../../lib/format";
import { useSaveAdSpend } from "../api/admin";
import {
  payingSubscriptionsText,
  CHURN_TARGET_PERCENT,
  churnOnTarget,
  monthLabel,
  parseAdSpend,
  percentText,
} from "../api/business";
import { count } from "../api/display";
import type { SuperAdminStats } from "../api/types";
import { BarChart } from "./BarChart";
import { scrollRegion } from "../../../components/a11y";

/** A figure, or an em dash with the reason the server could not compute it. */
export function Figure({
  label,
  value,
  note,
  extra,
}: {
  label: string;
  value: string;
  note?: string;
  extra?: ReactNode;
}) {
  return (
    <Card withBorder radius="md" p="md" data-testid={`figure-${label}`}>
      <Text fz="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Group gap="xs" align="baseline" wrap="wrap">
        <Text fz={22} fw={800}>
          {value}
        </Text>
        {extra}
      </Group>
      {note && (
        <Text fz="xs" c="dimmed">
          {note}
        </Text>
      )}
    </Card>
  );
}

export function RevenueChart({ stats }: { stats: SuperAdminStats }) {
  return (
    <BarChart
      label="Revenue by month"
      color="teal"
      bars={stats.revenueByMonth.map((m) => ({
        key: m.month,
        short: monthLabel(m.month, true),
        long: monthLabel(m.month),
        value: m.revenue,
        text: `${formatInr(m.revenue)} from ${m.payments} payment${m.payments === 1 ? "" : "s"}`,
      }))}
    />
  );
}

export function SignupChart({ stats }: { stats: SuperAdminStats }) {
  return (
    <BarChart
      label="Signups by month"
      bars={stats.signupsByMonth.map((m) => ({
        key: m.month,
        short: monthLabel(m.month, true),
        long: monthLabel(m.month),
        value: m.users,
        text: `${count(m.users)} signup${m.users === 1 ? "" : "s"}`,
      }))}
    />
  );
}

export function ChurnFigure({ stats }: { stats: SuperAdminStats }) {
  const rate = stats.churnRate ?? null;
  return (
    <Figure
      label="Churn Rate (30 days)"
      value={percentText(rate)}
      note={
        rate === null
          ? "No subscriptions were active 30 days ago to measure against."
          : `Target: below ${CHURN_TARGET_PERCENT}%`
      }
      extra={
        rate !== null && (
          <Badge color={churnOnTarget(rate) ? "green" : "red"} variant="light">
            {churnOnTarget(rate) ? "On target" : "Above target"}
          </Badge>
        )
      }
    />
  );
}

function AdSpendForm({ current }: { current: number | null }) {
  const [text, setText] = useState(current === null ? "" : String(current));
  const [problem, setProblem] = useState<string | null>(null);
  const save = useSaveAdSpend();
  const queryClient = useQueryClient();

  async function submit(e: FormEvent) {
    e.preventDefault();
    const value = parseAdSpend(text);
    if (value === null) {
      setProblem("Enter the amount in rupees, 0 or more");
      return;
    }
    setProblem(null);
    try {
      const res = await save.mutateAsync({ body: { adSpendLast30Days: value } });
      queryClient.setQueryData(["get", "/api/admin/superadmin", {}], res);
      await queryClient.invalidateQueries({ queryKey: ["get", "/api/admin/superadmin"] });
    } catch (err) {
      setProblem(messageOf(err, "Failed to save the ad spend"));
    }
  }

  return (
    <form noValidate onSubmit={(e) => void submit(e)}>
      <Group align="flex-end" gap="xs" wrap="wrap">
        <TextInput
          label="Ad spend, last 30 days (₹)"
          inputMode="decimal"
          placeholder="e.g. 25000"
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          error={problem}
          style={{ flex: "1 1 200px", maxWidth: 260 }}
        />
        <Button type="submit" variant="light" loading={save.isPending}>
          Save Ad Spend
        </Button>
      </Group>
    </form>
  );
}

/** Revenue, churn, lifetime value, trials and acquisition cost, all as the server computed them. */
export function BusinessFigures({
  stats,
  canEnterAdSpend,
}: {
  stats: SuperAdminStats;
  canEnterAdSpend: boolean;
}) {
  const cac = stats.acquisitionCost ?? null;
  const adSpend = stats.adSpendLast30Days ?? null;
  const lifetimeValue = stats.lifetimeValue ?? null;
  let cacNote: string;
  if (adSpend === null) {
    cacNote = "Enter the last 30 days' ad spend to see it.";
  } else if (cac === null) {
    cacNote = `Ad spend ${formatInr(adSpend)}; no owner paid for the first time in the last 30 days.`;
  } else {
    cacNote = `Per owner who paid for the first time, from ${formatInr(adSpend)} of ad spend.`;
  }
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="sm">
        <Figure
          label="Monthly Recurring Revenue"
          value={formatInr(stats.mrr)}
          note={payingSubscriptionsText(stats.activeSubscriptions)}
        />
        <Figure label="ARPU" value={formatInr(stats.arpu)} note="Average revenue per paying user" />
        <ChurnFigure stats={stats} />
        <Figure
          label="Customer Lifetime Value"
          value={lifetimeValue === null ? "—" : formatInr(lifetimeValue)}
          note={
            lifetimeValue === null
              ? "Needs a churn rate above 0 to estimate how long customers stay."
              : "ARPU divided by the monthly churn rate"
          }
        />
        <Figure
          label="Acquisition Cost"
          value={cac === null ? "—" : formatInr(cac)}
          note={cacNote}
        />
        <Figure
          label="Trial Conversion"
          value={percentText(stats.trialConversionRate)}
          note={`${count(stats.trialsCompleted)} ended trials · ${count(stats.trialsActive)} running`}
        />
        <Figure label="Cancelled (30 days)" value={count(stats.cancelledLast30Days)} />
        <Figure label="Expired (30 days)" value={count(stats.expiredLast30Days)} />
      </SimpleGrid>
      {canEnterAdSpend && (
        <Card withBorder radius="md" p="md">
          <Title order={5} mb="xs">
            Marketing Spend
          </Title>
          <Text fz="sm" c="dimmed" mb="sm">
            The acquisition cost is this spend divided by the owners who paid for the first time in
            the same 30 days.
          </Text>
          <AdSpendForm key={adSpend ?? "none"} current={adSpend} />
        </Card>
      )}
      <Card withBorder radius="md" p="md">
        <Title order={5} mb="sm">
          Revenue by Month
        </Title>
        <Table.ScrollContainer minWidth={320} scrollAreaProps={scrollRegion("Revenue by month")}>
          <Table verticalSpacing={4}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Month</Table.Th>
                <Table.Th ta="right">Payments</Table.Th>
                <Table.Th ta="right">Revenue</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {[...stats.revenueByMonth].reverse().map((m) => (
                <Table.Tr key={m.month}>
                  <Table.Td>{monthLabel(m.month)}</Table.Td>
                  <Table.Td ta="right">{count(m.payments)}</Table.Td>
                  <Table.Td ta="right">{formatInr(m.revenue)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Card>
    </Stack>
  );
}

/** Shown in place of the business figures to an admin without superuser rights. */
export function SuperuserOnly() {
  return (
    <Alert color="blue" variant="light" title="Superusers only">
      Revenue, churn and growth figures are shown to superusers.
    </Alert>
  );
}
