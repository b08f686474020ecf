import {
  Anchor,
  Button,
  Card,
  Center,
  Group,
  Progress,
  SimpleGrid,
  Skeleton,
  Stack,
  Tabs,
  Text,
  Title,
} from "@mantine/core";
import {
  IconAlertTriangle,
  IconArrowLeft,
  IconCurrencyRupee,
  IconShieldCheck,
  IconUserPlus,
  IconUsers,
} from "@tabler/icons-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { messageOf } from "../../../lib/api-client";
import { usePermissions } from "../api/permissions";
import { formatInr } from "../../../lib/format";
import { useDashboardStats, useSuperAdminStats } from "../api/admin";
import { ON_PAID_PLAN, payingSubscriptionsText, percentText } from "../api/business";
import { count } from "../api/display";
import { errorCode } from "../../../lib/errors";
import { capitalise } from "../api/status";
import type { SuperAdminStats } from "../api/types";
import {
  BusinessFigures,
  ChurnFigure,
  Figure,
  RevenueChart,
  SignupChart,
  SuperuserOnly,
} from "../components/BusinessFigures";
import { TAB_LIST_STYLE, TAB_PX } from "../components/compact";
import { StatCard } from "../../../components/StatCard";
import { MetaOutboxPanel } from "../components/MetaOutboxPanel";
import { PaymentsHealthPanel } from "../components/PaymentsHealthPanel";
import { StaffTwoFactorCard } from "../components/StaffTwoFactorCard";
import { SystemHealthPanel } from "../components/SystemHealthPanel";
import { TrialSettingsCard } from "../components/TrialSettingsForm";

const STATUS_COLORS: Record<string, string> = {
  free: "gray",
  trial: "blue",
  active: "green",
  expired: "red",
};
const ROLE_COLORS: Record<string, string> = { user: "gray", admin: "indigo", superuser: "grape" };

function Shares({
  title,
  parts,
  colors,
}: {
  title: string;
  parts: Record<string, number>;
  colors: Record<string, string>;
}) {
  const total = Object.values(parts).reduce((a, b) => a + b, 0);
  return (
    <Card withBorder radius="md" p="md">
      <Title order={5} mb="sm">
        {title}
      </Title>
      <Stack gap="sm">
        {Object.entries(parts).map(([key, n]) => (
          <div key={key} data-testid={`share-${key}`}>
            <Group justify="space-between" mb={4}>
              <Text fz="sm">{capitalise(key)}</Text>
              <Text fz="sm" fw={600}>
                {count(n)}
              </Text>
            </Group>
            <Progress
              value={total === 0 ? 0 : (n / total) * 100}
              color={colors[key] ?? "gray"}
              aria-label={`${capitalise(key)} share`}
            />
          </div>
        ))}
      </Stack>
    </Card>
  );
}

function OverviewTab({ stats }: { stats: SuperAdminStats }) {
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm">
        <Figure
          label="MRR"
          value={formatInr(stats.mrr)}
          note={payingSubscriptionsText(stats.activeSubscriptions)}
        />
        <Figure label="ARPU" value={formatInr(stats.arpu)} />
        <ChurnFigure stats={stats} />
        <Figure
          label="Trial Conversion"
          value={percentText(stats.trialConversionRate)}
          note={`${count(stats.trialsCompleted)} ended trials · ${count(stats.trialsActive)} running`}
        />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Card withBorder radius="md" p="md">
          <Title order={5} mb="sm">
            Revenue, last 12 months
          </Title>
          <RevenueChart stats={stats} />
        </Card>
        <Card withBorder radius="md" p="md">
          <Title order={5} mb="sm">
            Signups, last 12 months
          </Title>
          <SignupChart stats={stats} />
        </Card>
      </SimpleGrid>
    </Stack>
  );
}

function UsersTab({ stats }: { stats: SuperAdminStats }) {
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="sm">
        <Figure label="New Users (30 days)" value={count(stats.newUsersLast30Days)} />
        <Figure label="Active Trials" value={count(stats.trialsActive)} />
        <Figure label="Ended Trials" value={count(stats.trialsCompleted)} />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Shares title="Users by Role" parts={{ ...stats.usersByRole }} colors={ROLE_COLORS} />
        <Shares
          title="Users by Subscription"
          parts={{ ...stats.usersByStatus }}
          colors={STATUS_COLORS}
        />
      </SimpleGrid>
      <Card withBorder radius="md" p="md">
        <Title order={5} mb="sm">
          Signups by Month
        </Title>
        <SignupChart stats={stats} />
      </Card>
    </Stack>
  );
}

function LoadError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  return (
    <Center mih="50vh">
      <Stack align="center" gap="sm" maw={420}>
        <IconAlertTriangle size={40} color="var(--mantine-color-red-6)" />
        <Title order={3}>Error Loading SuperAdmin Dashboard</Title>
        <Text c="dimmed" ta="center">
          {messageOf(error, "Failed to fetch dashboard statistics")}
        </Text>
        <Button onClick={onRetry}>Try Again</Button>
      </Stack>
    </Center>
  );
}

export function SuperAdminDashboardPage() {
  const allowed = usePermissions();
  const stats = useDashboardStats();
  const business = useSuperAdminStats();
  const refused = errorCode(business.error) === "superuser_required";

  if ((stats.isError && !stats.data) || (business.isError && !business.data && !refused)) {
    return (
      <LoadError
        error={stats.error ?? business.error}
        onRetry={() => {
          void stats.refetch();
          void business.refetch();
        }}
      />
    );
  }

  const s = stats.data?.data;
  const b = business.data?.data;
  const pending = <Skeleton h={260} radius="md" />;
  const withBusiness = (render: (b: SuperAdminStats) => ReactNode) =>
    refused ? <SuperuserOnly /> : b ? render(b) : pending;

  return (
    <Stack gap="lg">
      <div>
        <Anchor component={Link} to="/admin" fz="sm">
          <Group gap={4} component="span">
            <IconArrowLeft size={14} /> Admin Dashboard
          </Group>
        </Anchor>
        <Title order={2}>SuperAdmin Dashboard</Title>
      </div>
      {s ? (
        <SimpleGrid cols={{ base: 2, lg: 4 }} spacing="sm">
          <StatCard
            iconVisibleFrom="xs"
            gap="xs"
            label="Total Users"
            value={count(s.totalUsers)}
            icon={IconUsers}
          />
          <StatCard
            iconVisibleFrom="xs"
            gap="xs"
            label={ON_PAID_PLAN.label}
            value={count(s.activeSubscriptions)}
            icon={IconShieldCheck}
            color="green"
            caption={ON_PAID_PLAN.note}
          />
          <StatCard
            iconVisibleFrom="xs"
            gap="xs"
            label="Revenue This Month"
            value={formatInr(s.revenueThisMonth)}
            icon={IconCurrencyRupee}
            color="teal"
          />
          <StatCard
            iconVisibleFrom="xs"
            gap="xs"
            label="New Users (30 days)"
            value={count(s.newUsersLast30Days)}
            icon={IconUserPlus}
            color="orange"
          />
        </SimpleGrid>
      ) : (
        <SimpleGrid cols={{ base: 2, lg: 4 }} spacing="sm">
          {[1, 2, 3, 4].map((i) => (
            <Skeleton key={i} h={88} radius="md" />
          ))}
        </SimpleGrid>
      )}
      <Tabs defaultValue="overview" keepMounted={false}>
        <Tabs.List mb="md" style={TAB_LIST_STYLE}>
          <Tabs.Tab value="overview" px={TAB_PX}>
            Overview
          </Tabs.Tab>
          <Tabs.Tab value="business" px={TAB_PX}>
            Business
          </Tabs.Tab>
          <Tabs.Tab value="system" px={TAB_PX}>
            System
          </Tabs.Tab>
          <Tabs.Tab value="users" px={TAB_PX}>
            Users
          </Tabs.Tab>
          <Tabs.Tab value="trial" px={TAB_PX}>
            Trial
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="overview">
          {withBusiness((x) => (
            <OverviewTab stats={x} />
          ))}
        </Tabs.Panel>
        <Tabs.Panel value="business">
          {withBusiness((x) => (
            <BusinessFigures stats={x} canEnterAdSpend={allowed.can("editSettings")} />
          ))}
        </Tabs.Panel>
        <Tabs.Panel value="system">
          <Stack>
            <SystemHealthPanel />
            <PaymentsHealthPanel />
            <MetaOutboxPanel />
            <StaffTwoFactorCard canSave={allowed.can("editSettings")} />
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="users">
          {withBusiness((x) => (
            <UsersTab stats={x} />
          ))}
        </Tabs.Panel>
        <Tabs.Panel value="trial">
          <TrialSettingsCard canSave={allowed.can("editSettings")} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
