import {
  ActionIcon,
  Anchor,
  Checkbox,
  Group,
  Menu,
  Paper,
  Select,
  Skeleton,
  Stack,
  Table,
  Text,
  UnstyledButton,
} from "@mantine/core";
import {
  IconArrowDown,
  IconArrowUp,
  IconArrowsSort,
  IconDots,
  IconEye,
  IconLogin2,
  IconPencil,
  IconReplace,
  IconTrash,
} from "@tabler/icons-react";
import { Link } from "react-router";
import { formatDate, formatInr } from "../../../lib/format";
import { count } from "../api/display";
import type { AdminUser } from "../api/types";
import { rowControls, type Allowed } from "../api/permissions";
import {
  ariaSort,
  SORT_COLUMNS,
  type SortColumn,
  type SortOrder,
  type UserListState,
} from "../api/user-list";
import { RoleBadge, StatusBadge, SuspendedBadge } from "./Badges";
import { useCompactLists } from "./compact";
import { DeleteUserModal, LoginAsUserModal } from "./UserActionModals";
import { ChangePlanModal, EditUserModal } from "./UserModals";

export type UserAction = "changePlan" | "edit" | "loginAs" | "delete";

/**
 * The actions a row offers the signed-in role, from the server's permission table: Login as
 * User only to a superuser and only on owners' rows; Edit, Change Plan and Delete on another
 * staff account only to a superuser; no Delete on one's own row.
 */
function UserActionsMenu({
  user: u,
  meId,
  allowed,
  onAction,
}: {
  user: AdminUser;
  meId: string;
  allowed: Allowed;
  onAction: (action: UserAction, user: AdminUser) => void;
}) {
  const controls = rowControls(allowed, meId, u);
  return (
    <Menu position="bottom-end" withinPortal withInitialFocusPlaceholder={false}>
      <Menu.Target>
        <ActionIcon variant="subtle" aria-label={`Actions for ${u.email}`}>
          <IconDots size={18} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item component={Link} to={`/admin/users/${u.id}`} leftSection={<IconEye size={16} />}>
          View Details
        </Menu.Item>
        {controls.edit && (
          <Menu.Item leftSection={<IconPencil size={16} />} onClick={() => onAction("edit", u)}>
            Edit User
          </Menu.Item>
        )}
        {controls.changePlan && (
          <Menu.Item
            leftSection={<IconReplace size={16} />}
            onClick={() => onAction("changePlan", u)}
          >
            Change Plan
          </Menu.Item>
        )}
        {controls.loginAs && (
          <Menu.Item leftSection={<IconLogin2 size={16} />} onClick={() => onAction("loginAs", u)}>
            Login as User
          </Menu.Item>
        )}
        {controls.delete && (
          <Menu.Item
            c="red.9"
            leftSection={<IconTrash size={16} />}
            onClick={() => onAction("delete", u)}
          >
            Delete
          </Menu.Item>
        )}
      </Menu.Dropdown>
    </Menu>
  );
}

function NameAndEmail({ user: u }: { user: AdminUser }) {
  return (
    <div style={{ minWidth: 0 }}>
      <Anchor
        component={Link}
        to={`/admin/users/${u.id}`}
        fz="sm"
        fw={600}
        style={{ overflowWrap: "anywhere" }}
      >
        {u.name || u.email}
      </Anchor>
      <Text fz="xs" c="dimmed" style={{ overflowWrap: "anywhere" }}>
        {u.email}
      </Text>
    </div>
  );
}

/** The table's order and a header click. */
export interface Sorting {
  state: UserListState;
  onSort: (column: SortColumn, order?: SortOrder) => void;
}

/** The rows chosen for a bulk action. */
export interface Selection {
  selected: ReadonlySet<string>;
  onToggle: (id: string) => void;
  onToggleAll: () => void;
}

interface UserListProps {
  users: AdminUser[];
  loading: boolean;
  meId: string;
  /** What the signed-in role may do. */
  allowed: Allowed;
  onAction: (action: UserAction, user: AdminUser) => void;
  sorting?: Sorting;
  selection?: Selection;
}

const SORT_LABELS: Record<SortColumn, string> = {
  name: "Name",
  email: "Email",
  role: "Role",
  plan: "Plan",
  status: "Status",
  createdAt: "Joined",
  lastLoginAt: "Last login",
};

/** Whether the signed-in role may act on the row's account (bulk actions included). */
function selectable(allowed: Allowed, meId: string, u: AdminUser): boolean {
  return rowControls(allowed, meId, u).changePlan;
}

function RowCheckbox({
  user: u,
  selection,
  enabled,
}: {
  user: AdminUser;
  selection: Selection;
  enabled: boolean;
}) {
  return (
    <Checkbox
      aria-label={
        enabled ? `Select ${u.email}` : `${u.email} cannot be selected: your role may not change it`
      }
      checked={enabled && selection.selected.has(u.id)}
      disabled={!enabled}
      onChange={() => selection.onToggle(u.id)}
    />
  );
}

/** "Select all on this page": checked when every row the role may act on is chosen. */
function SelectAll({
  users,
  selection,
  enabled,
  label,
}: {
  users: AdminUser[];
  selection: Selection;
  enabled: (u: AdminUser) => boolean;
  label?: string;
}) {
  const ids = users.filter(enabled).map((u) => u.id);
  const chosen = ids.filter((id) => selection.selected.has(id)).length;
  return (
    <Checkbox
      aria-label="Select all users on this page"
      label={label}
      checked={ids.length > 0 && chosen === ids.length}
      indeterminate={chosen > 0 && chosen < ids.length}
      disabled={ids.length === 0}
      onChange={selection.onToggleAll}
    />
  );
}

/** A header that sorts the list by its column; says its order to assistive technology. */
function SortHeader({
  column,
  sorting,
  align,
}: {
  column: SortColumn;
  sorting: Sorting | undefined;
  align?: "right";
}) {
  const label = SORT_LABELS[column];
  if (!sorting) return <Table.Th ta={align}>{label}</Table.Th>;
  const sort = ariaSort(sorting.state, column);
  const Icon =
    sort === "ascending" ? IconArrowUp : sort === "descending" ? IconArrowDown : IconArrowsSort;
  return (
    <Table.Th ta={align} aria-sort={sort}>
      <UnstyledButton
        onClick={() => sorting.onSort(column)}
        fw={700}
        fz="sm"
        data-testid={`sort-${column}`}
        aria-label={`Sort by ${label.toLowerCase()}`}
      >
        <Group gap={4} wrap="nowrap" component="span">
          {label}
          <Icon size={14} aria-hidden />
        </Group>
      </UnstyledButton>
    </Table.Th>
  );
}

/** On narrow screens, the order as a choice instead of headers. */
function CompactSort({ sorting }: { sorting: Sorting }) {
  const { sort, order } = sorting.state;
  return (
    <Group gap="xs" wrap="nowrap" align="flex-end">
      <Select
        label="Sort by"
        size="xs"
        data={SORT_COLUMNS.map((c) => ({ value: c, label: SORT_LABELS[c] }))}
        value={sort}
        onChange={(v) => v && sorting.onSort(v as SortColumn)}
        allowDeselect={false}
        style={{ flex: 1 }}
        comboboxProps={{ withinPortal: true }}
      />
      <Select
        label="Order"
        size="xs"
        data={[
          { value: "asc", label: "Ascending" },
          { value: "desc", label: "Descending" },
        ]}
        value={order}
        onChange={(v) => v && sorting.onSort(sort, v as SortOrder)}
        allowDeselect={false}
        style={{ flex: 1 }}
        comboboxProps={{ withinPortal: true }}
      />
    </Group>
  );
}

/** On narrow screens: one stacked row per user. */
function UserRowsCompact({
  users,
  loading,
  meId,
  allowed,
  onAction,
  sorting,
  selection,
}: UserListProps) {
  const canSelect = (u: AdminUser) => selectable(allowed, meId, u);
  let rows;
  if (loading) {
    rows = (
      <Stack gap="xs">
        {Array.from({ length: 5 }, (_, i) => (
          <Skeleton key={i} h={72} radius="md" />
        ))}
      </Stack>
    );
  } else if (users.length === 0) {
    rows = (
      <Text ta="center" c="dimmed" py="lg">
        No users match these filters.
      </Text>
    );
  } else {
    rows = (
      <Stack gap="xs">
        {users.map((u) => (
          <Paper key={u.id} withBorder radius="md" p="sm" data-testid={`user-row-${u.email}`}>
            <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
              <Group gap="xs" align="flex-start" wrap="nowrap" style={{ minWidth: 0 }}>
                {selection && <RowCheckbox user={u} selection={selection} enabled={canSelect(u)} />}
                <NameAndEmail user={u} />
              </Group>
              <UserActionsMenu user={u} meId={meId} allowed={allowed} onAction={onAction} />
            </Group>
            <Group gap={6} mt={6}>
              <RoleBadge role={u.role} />
              <StatusBadge
                subscriptionStatus={u.subscriptionStatus}
                cancelAtPeriodEnd={u.cancelAtPeriodEnd}
              />
              <SuspendedBadge suspendedAt={u.suspendedAt} />
            </Group>
            <Text fz="xs" c="dimmed" mt={6}>
              Plan {u.planId} · {count(u.campaignCount)} campaign
              {u.campaignCount === 1 ? "" : "s"} · paid {formatInr(u.totalRevenue)} in{" "}
              {u.totalPayments} payment
              {u.totalPayments === 1 ? "" : "s"} · joined {formatDate(u.createdAt)} · last login{" "}
              {u.lastLoginAt ? formatDate(u.lastLoginAt) : "never"}
            </Text>
          </Paper>
        ))}
      </Stack>
    );
  }
  return (
    <Stack gap="xs">
      {sorting && <CompactSort sorting={sorting} />}
      {selection && !loading && users.length > 0 && (
        <SelectAll
          users={users}
          selection={selection}
          enabled={canSelect}
          label="Select all on this page"
        />
      )}
      {rows}
    </Stack>
  );
}

/** The admin dashboard's users: a table, or stacked rows on narrow screens. */
export function UserTable(props: UserListProps) {
  const compact = useCompactLists();
  if (compact) return <UserRowsCompact {...props} />;
  const { users, loading, meId, allowed, onAction, sorting, selection } = props;
  const canSelect = (u: AdminUser) => selectable(allowed, meId, u);
  const columns = selection ? 10 : 9;
  return (
    <Table.ScrollContainer minWidth={960}>
      <Table verticalSpacing="sm" highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            {selection && (
              <Table.Th w={40}>
                <SelectAll users={users} selection={selection} enabled={canSelect} />
              </Table.Th>
            )}
            <SortHeader column="name" sorting={sorting} />
            <SortHeader column="role" sorting={sorting} />
            <SortHeader column="plan" sorting={sorting} />
            <SortHeader column="status" sorting={sorting} />
            <Table.Th ta="right">Campaigns</Table.Th>
            <Table.Th ta="right">Payments</Table.Th>
            <SortHeader column="createdAt" sorting={sorting} />
            <SortHeader column="lastLoginAt" sorting={sorting} />
            <Table.Th ta="right">Actions</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {loading &&
            Array.from({ length: 5 }, (_, i) => (
              <Table.Tr key={i}>
                <Table.Td colSpan={columns}>
                  <Skeleton h={28} />
                </Table.Td>
              </Table.Tr>
            ))}
          {!loading && users.length === 0 && (
            <Table.Tr>
              <Table.Td colSpan={columns}>
                <Text ta="center" c="dimmed" py="lg">
                  No users match these filters.
                </Text>
              </Table.Td>
            </Table.Tr>
          )}
          {!loading &&
            users.map((u) => (
              <Table.Tr key={u.id} data-testid={`user-row-${u.email}`}>
                {selection && (
                  <Table.Td>
                    <RowCheckbox user={u} selection={selection} enabled={canSelect(u)} />
                  </Table.Td>
                )}
                <Table.Td>
                  <NameAndEmail user={u} />
                </Table.Td>
                <Table.Td>
                  <RoleBadge role={u.role} />
                </Table.Td>
                <Table.Td>
                  <Text fz="sm">{u.planId}</Text>
                </Table.Td>
                <Table.Td>
                  <Group gap={4} wrap="wrap">
                    <StatusBadge
                      subscriptionStatus={u.subscriptionStatus}
                      cancelAtPeriodEnd={u.cancelAtPeriodEnd}
                    />
                    <SuspendedBadge suspendedAt={u.suspendedAt} />
                  </Group>
                </Table.Td>
                <Table.Td ta="right">{count(u.campaignCount)}</Table.Td>
                <Table.Td ta="right">
                  <Text fz="sm">{formatInr(u.totalRevenue)}</Text>
                  <Text fz="xs" c="dimmed">
                    {u.totalPayments} payment{u.totalPayments === 1 ? "" : "s"}
                  </Text>
                </Table.Td>
                <Table.Td style={{ whiteSpace: "nowrap" }}>{formatDate(u.createdAt)}</Table.Td>
                <Table.Td style={{ whiteSpace: "nowrap" }}>
                  {u.lastLoginAt ? formatDate(u.lastLoginAt) : "Never"}
                </Table.Td>
                <Table.Td>
                  <Group justify="flex-end">
                    <UserActionsMenu user={u} meId={meId} allowed={allowed} onAction={onAction} />
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** The modal of the action picked on a row (or on the detail page). */
export function UserActionModal({
  action,
  onClose,
  onDeleted,
}: {
  action: { kind: UserAction; user: AdminUser } | null;
  onClose: () => void;
  onDeleted?: () => void;
}) {
  if (!action) return null;
  const { kind, user } = action;
  if (kind === "changePlan") return <ChangePlanModal key={user.id} user={user} onClose={onClose} />;
  if (kind === "edit") return <EditUserModal key={user.id} user={user} onClose={onClose} />;
  if (kind === "loginAs") return <LoginAsUserModal key={user.id} user={user} onClose={onClose} />;
  return <DeleteUserModal key={user.id} user={user} onClose={onClose} onDeleted={onDeleted} />;
}
