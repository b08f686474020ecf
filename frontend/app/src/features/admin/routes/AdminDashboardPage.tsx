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
  IconDownload,
  IconFilterOff,
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
import { useCallback, useEffect, useMemo, useState } from "react";
import { Link, useSearchParams } from "react-router";
import { messageOf } from "../../../lib/api-client";
import { useAuth } from "../../../lib/auth";
import { formatInr } from "../../../lib/format";
import { fetchUsersCsv, useAdminPlans, useAdminUsers, useDashboardStats } from "../api/admin";
import { localIsoDate } from "../../billing/api/history-csv";
import {
  DEFAULT_LIST,
  isFiltered,
  listFromParams,
  paramsFromList,
  toggleAll,
  toggleSort,
  type UserListState,
} from "../api/user-list";
import { BulkActions } from "../components/BulkActions";
import { useAdminNotice } from "../components/AdminNotice";
import { count } from "../api/display";
import { PAGE_SIZE, pageAfterDelete, pageRange } from "../api/pagination";
import { capitalise, ROLES, STATUS_FILTERS, statusLabel } from "../api/status";
import { rowControls, usePermissions } from "../api/permissions";
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

/** Downloads `blob` as a file named `name`. */
function download(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function AdminDashboardPage() {
  const { user: me } = useAuth();
  const allowed = usePermissions();
  const notify = useAdminNotice();
  // Search, filters, order and page live in the address bar: a reload or a shared link keeps them.
  const [params, setParams] = useSearchParams();
  const list = useMemo(() => listFromParams(params), [params]);
  const listKey = paramsFromList(list).toString();
  const setList = useCallback(
    (next: UserListState, replace = false) => setParams(paramsFromList(next), { replace }),
    [setParams],
  );
  const [search, setSearch] = useState(list.search);
  const [debounced] = useDebouncedValue(search.trim(), 300);
  useEffect(() => {
    if (debounced !== list.search) setList({ ...list, search: debounced, page: 1 }, true);
    // Only a new search term moves the list; the URL changing otherwise must not.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [debounced]);
  // A new page, filter or order starts a new selection: nothing chosen is out of sight.
  const [chosen, setChosen] = useState<{ key: string; ids: Set<string> }>({
    key: listKey,
    ids: new Set(),
  });
  const selected = chosen.key === listKey ? chosen.ids : new Set<string>();
  const setSelected = (update: (prev: Set<string>) => Set<string>) =>
    setChosen((prev) => ({
      key: listKey,
      ids: update(prev.key === listKey ? prev.ids : new Set()),
    }));
  const [exporting, setExporting] = useState(false);
  const [creating, setCreating] = useState<"user" | "admin" | null>(null);
  const [action, setAction] = useState<{ kind: UserAction; user: AdminUser } | null>(null);

  const stats = useDashboardStats();
  const users = useAdminUsers(list);
  const plans = useAdminPlans();

  const exportCsv = async () => {
    setExporting(true);
    try {
      download(await fetchUsersCsv(list), `users-${localIsoDate(new Date())}.csv`);
      notify("The users matching these filters were exported.");
    } catch (e) {
      notify(messageOf(e, "The users could not be exported"));
    } finally {
      setExporting(false);
    }
  };

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

  const page = users.data?.data;
  const pagination = page?.pagination;
  const rows = page?.users ?? [];

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
                onChange={(e) => setSearch(e.currentTarget.value)}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 6, lg: 3 }}>
              <Select
                aria-label="Role filter"
                placeholder="All Roles"
                data={ROLES.map((r) => ({ value: r, label: capitalise(r) }))}
                value={list.role}
                onChange={(v) => setList({ ...list, role: v, page: 1 })}
                clearable
              />
            </Grid.Col>
            <Grid.Col span={{ base: 6, lg: 3 }}>
              <Select
                aria-label="Subscription filter"
                placeholder="All Statuses"
                data={STATUS_FILTERS.map((s) => ({ value: s, label: statusLabel(s) }))}
                value={list.status}
                onChange={(v) => setList({ ...list, status: v, page: 1 })}
                clearable
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, lg: 4 }}>
              <Select
                aria-label="Plan filter"
                placeholder="All Plans"
                data={(plans.data?.data ?? []).map((p) => ({ value: p.id, label: p.displayName }))}
                value={list.plan}
                onChange={(v) => setList({ ...list, plan: v, page: 1 })}
                clearable
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, xs: 6, lg: 4 }}>
              <TextInput
                type="date"
                aria-label="Joined from"
                leftSection={<Text fz="xs">From</Text>}
                leftSectionWidth={48}
                value={list.from}
                max={list.to || undefined}
                onChange={(e) => setList({ ...list, from: e.currentTarget.value, page: 1 })}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, xs: 6, lg: 4 }}>
              <TextInput
                type="date"
                aria-label="Joined to"
                leftSection={<Text fz="xs">To</Text>}
                leftSectionWidth={36}
                value={list.to}
                min={list.from || undefined}
                onChange={(e) => setList({ ...list, to: e.currentTarget.value, page: 1 })}
              />
            </Grid.Col>
          </Grid>
          <Group justify="space-between" wrap="wrap" gap="xs">
            <Text fz="xs" c="dimmed">
              Sign-up dates: from and to are included.
            </Text>
            <Group gap="xs" wrap="wrap">
              {isFiltered(list) && (
                <Button
                  variant="subtle"
                  size="xs"
                  leftSection={<IconFilterOff size={14} />}
                  onClick={() => {
                    setSearch("");
                    setList({ ...DEFAULT_LIST, sort: list.sort, order: list.order });
                  }}
                >
                  Clear filters
                </Button>
              )}
              <Button
                variant="default"
                size="xs"
                leftSection={<IconDownload size={14} />}
                loading={exporting}
                onClick={() => void exportCsv()}
              >
                Export CSV
              </Button>
            </Group>
          </Group>
          <BulkActions
            ids={[...selected]}
            onClear={() => setSelected(() => new Set())}
            onOutcome={notify}
          />
          {users.isError && page && (
            <Alert color="red" variant="light">
              {messageOf(users.error, "Failed to fetch users")}
            </Alert>
          )}
          <UserTable
            users={rows}
            loading={!page}
            meId={me?.id ?? ""}
            allowed={allowed}
            onAction={(kind, user) => setAction({ kind, user })}
            sorting={{
              state: list,
              onSort: (column, order) =>
                setList(
                  order ? { ...list, sort: column, order, page: 1 } : toggleSort(list, column),
                ),
            }}
            selection={{
              selected,
              onToggle: (id) =>
                setSelected((prev) => {
                  const next = new Set(prev);
                  if (next.has(id)) next.delete(id);
                  else next.add(id);
                  return next;
                }),
              onToggleAll: () =>
                setSelected((prev) =>
                  toggleAll(
                    prev,
                    rows
                      .filter((u) => rowControls(allowed, me?.id ?? "", u).changePlan)
                      .map((u) => u.id),
                  ),
                ),
            }}
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
                  value={list.page}
                  onChange={(p) => setList({ ...list, page: p })}
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
        onDeleted={() => setList({ ...list, page: pageAfterDelete(list.page, rows.length) })}
      />
    </Stack>
  );
}
