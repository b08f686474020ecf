import {
  Alert,
  Button,
  Card,
  Center,
  Grid,
  Group,
  Pagination,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import {
  IconAlertTriangle,
  IconCrown,
  IconHistory,
  IconCurrencyRupee,
  IconHourglass,
  IconMessages,
  IconPackage,
  IconSearch,
  IconShieldCheck,
  IconSpeakerphone,
  IconUserPlus,
  IconUsers,
  IconUsersGroup,
  IconUserShield,
  IconUserStar,
} from "@tabler/icons-react";
import { useState } from "react";
import { Link } from "react-router";
import { messageOf } from "../../../lib/api-client";
import { useAuth } from "../../../lib/auth";
import { formatInr } from "../../../lib/format";
import { useAdminUsers, useDashboardStats } from "../api/admin";
import { count } from "../api/display";
import { PAGE_SIZE, pageAfterDelete, pageRange } from "../api/pagination";
import { capitalise, ROLES, STATUS_FILTERS, statusLabel } from "../api/status";
import { usePermissions } from "../api/permissions";
import type { AdminUser, DashboardStats } from "../api/types";
import { StatCard } from "../../../components/StatCard";
import { ON_PAID_PLAN } from "../api/business";
import { CreateAdminModal, CreateUserModal } from "../components/UserModals";
import { UserActionModal, UserTable, type UserAction } from "../components/UserTable";
import { paginationControlLabel } from "../../../components/a11y";

function StatCards({ stats }: { stats: DashboardStats }) {
  return (
    <SimpleGrid cols={{ base: 2, lg: 3 }} spacing="sm">
      <StatCard
        iconVisibleFrom="xs"
        gap="xs"
        label="Total Users"
        value={count(stats.totalUsers)}
        icon={IconUsers}
      />
      <StatCard
        iconVisibleFrom="xs"
        gap="xs"
        label="New Users (30 days)"
        value={count(stats.newUsersLast30Days)}
        icon={IconUserPlus}
        color="teal"
      />
      <StatCard
        iconVisibleFrom="xs"
        gap="xs"
        label="Admins"
        value={count(stats.totalAdmins)}
        icon={IconUserShield}
        color="grape"
      />
      <StatCard
        iconVisibleFrom="xs"
        gap="xs"
        label="Total Campaigns"
        value={count(stats.totalCampaigns)}
        icon={IconSpeakerphone}
        color="orange"
      />
      <StatCard
        iconVisibleFrom="xs"
        gap="xs"
        label={ON_PAID_PLAN.label}
        value={count(stats.activeSubscriptions)}
        icon={IconShieldCheck}
        color="green"
        caption={ON_PAID_PLAN.note}
      />
      <StatCard
        iconVisibleFrom="xs"
        gap="xs"
        label="Trial Users"
        value={count(stats.trialUsers)}
        icon={IconHourglass}
        color="blue"
      />
      <StatCard
        iconVisibleFrom="xs"
        gap="xs"
        label="Total Conversations"
        value={count(stats.totalConversations)}
        icon={IconMessages}
        color="cyan"
      />
      <StatCard
        iconVisibleFrom="xs"
        gap="xs"
        label="Total Customers"
        value={count(stats.totalCustomers)}
        icon={IconUserStar}
        color="pink"
      />
      <StatCard
        iconVisibleFrom="xs"
        gap="xs"
        label="Revenue This Month"
        value={formatInr(stats.revenueThisMonth)}
        icon={IconCurrencyRupee}
        color="green"
      />
    </SimpleGrid>
  );
}

export function AdminDashboardPage() {
  const { user: me } = useAuth();
  const allowed = usePermissions();
  const [search, setSearch] = useState("");
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const [role, setRole] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [page, setPage] = useState(1);
  const [creating, setCreating] = useState<"user" | "admin" | null>(null);
  const [action, setAction] = useState<{ kind: UserAction; user: AdminUser } | null>(null);

  const stats = useDashboardStats();
  const users = useAdminUsers({ page, search: debounced, role, subscriptionStatus: status });

  const failed = (stats.isError && !stats.data) || (users.isError && !users.data);
  if (failed) {
    const error = stats.error ?? users.error;
    return (
      <Center mih="50vh">
        <Stack align="center" gap="sm" maw={420}>
          <IconAlertTriangle size={40} color="var(--mantine-color-red-6)" />
          <Title order={3}>Error Loading Admin Dashboard</Title>
          <Text c="dimmed" ta="center">
            {messageOf(
              error,
              stats.isError ? "Failed to fetch dashboard statistics" : "Failed to fetch users",
            )}
          </Text>
          <Button
            onClick={() => {
              void stats.refetch();
              void users.refetch();
            }}
          >
            Try Again
          </Button>
        </Stack>
      </Center>
    );
  }

  const list = users.data?.data;
  const pagination = list?.pagination;

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
        <div>
          <Title order={2}>Admin Dashboard</Title>
          <Text c="dimmed" fz="sm">
            Users, plans and figures of the whole platform.
          </Text>
        </div>
        <Group gap="xs" wrap="wrap">
          {allowed.can("editUsers") && (
            <Button leftSection={<IconUserPlus size={16} />} onClick={() => setCreating("user")}>
              Create User
            </Button>
          )}
          {allowed.can("createAdmins") && (
            <Button
              variant="light"
              leftSection={<IconUserShield size={16} />}
              onClick={() => setCreating("admin")}
            >
              Create Admin
            </Button>
          )}
          <Button
            variant="default"
            component={Link}
            to="/admin/users"
            leftSection={<IconUsersGroup size={16} />}
          >
            Manage Users
          </Button>
          <Button
            variant="default"
            component={Link}
            to="/admin/plans"
            leftSection={<IconPackage size={16} />}
          >
            Manage Plans
          </Button>
          {allowed.can("viewBusiness") && (
            <Button
              variant="default"
              component={Link}
              to="/admin/superadmin"
              leftSection={<IconCrown size={16} />}
            >
              SuperAdmin Dashboard
            </Button>
          )}
          {allowed.can("viewAudit") && (
            <Button
              variant="default"
              component={Link}
              to="/admin/audit"
              leftSection={<IconHistory size={16} />}
            >
              Audit Log
            </Button>
          )}
        </Group>
      </Group>

      {stats.data ? (
        <StatCards stats={stats.data.data} />
      ) : (
        <SimpleGrid cols={{ base: 2, lg: 3 }} spacing="sm" aria-busy="true">
          {Array.from({ length: 9 }, (_, i) => (
            <Skeleton key={i} h={88} radius="md" />
          ))}
        </SimpleGrid>
      )}

      <Card withBorder radius="md" p="md">
        <Stack gap="md">
          <Title order={4}>Users</Title>
          <Grid gutter="xs">
            <Grid.Col span={{ base: 12, lg: 6 }}>
              <TextInput
                aria-label="Search users"
                placeholder="Search by name or email..."
                leftSection={<IconSearch size={16} />}
                value={search}
                onChange={(e) => {
                  setSearch(e.currentTarget.value);
                  setPage(1);
                }}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 6, lg: 3 }}>
              <Select
                aria-label="Role filter"
                placeholder="All Roles"
                data={ROLES.map((r) => ({ value: r, label: capitalise(r) }))}
                value={role}
                onChange={(v) => {
                  setRole(v);
                  setPage(1);
                }}
                clearable
              />
            </Grid.Col>
            <Grid.Col span={{ base: 6, lg: 3 }}>
              <Select
                aria-label="Subscription filter"
                placeholder="All Statuses"
                data={STATUS_FILTERS.map((s) => ({ value: s, label: statusLabel(s) }))}
                value={status}
                onChange={(v) => {
                  setStatus(v);
                  setPage(1);
                }}
                clearable
              />
            </Grid.Col>
          </Grid>
          {users.isError && list && (
            <Alert color="red" variant="light">
              {messageOf(users.error, "Failed to fetch users")}
            </Alert>
          )}
          <UserTable
            users={list?.users ?? []}
            loading={!list}
            meId={me?.id ?? ""}
            allowed={allowed}
            onAction={(kind, user) => setAction({ kind, user })}
          />
          {pagination && (
            <Group justify="space-between" wrap="wrap" gap="xs">
              <Text fz="sm" c="dimmed">
                {pageRange(
                  pagination.currentPage,
                  pagination.limit || PAGE_SIZE,
                  pagination.totalUsers,
                )}
              </Text>
              {pagination.totalPages > 1 && (
                <Pagination
                  getControlProps={paginationControlLabel}
                  total={pagination.totalPages}
                  value={page}
                  onChange={setPage}
                  size="sm"
                  siblings={0}
                  aria-label="Pages"
                />
              )}
            </Group>
          )}
        </Stack>
      </Card>

      <CreateUserModal opened={creating === "user"} onClose={() => setCreating(null)} />
      <CreateAdminModal opened={creating === "admin"} onClose={() => setCreating(null)} />
      <UserActionModal
        action={action}
        onClose={() => setAction(null)}
        onDeleted={() => setPage(pageAfterDelete(page, list?.users.length ?? 0))}
      />
    </Stack>
  );
}
