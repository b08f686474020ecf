import {
  ActionIcon,
  Anchor,
  Group,
  Menu,
  Paper,
  Skeleton,
  Stack,
  Table,
  Text,
} from "@mantine/core";
import {
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

interface UserListProps {
  users: AdminUser[];
  loading: boolean;
  meId: string;
  /** What the signed-in role may do. */
  allowed: Allowed;
  onAction: (action: UserAction, user: AdminUser) => void;
}

/** On narrow screens: one stacked row per user. */
function UserRowsCompact({ users, loading, meId, allowed, onAction }: UserListProps) {
  if (loading) {
    return (
      <Stack gap="xs">
        {Array.from({ length: 5 }, (_, i) => (
          <Skeleton key={i} h={72} radius="md" />
        ))}
      </Stack>
    );
  }
  if (users.length === 0) {
    return (
      <Text ta="center" c="dimmed" py="lg">
        No users match these filters.
      </Text>
    );
  }
  return (
    <Stack gap="xs">
      {users.map((u) => (
        <Paper key={u.id} withBorder radius="md" p="sm" data-testid={`user-row-${u.email}`}>
          <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
            <NameAndEmail user={u} />
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
            {u.totalPayments === 1 ? "" : "s"} · joined {formatDate(u.createdAt)}
          </Text>
        </Paper>
      ))}
    </Stack>
  );
}

/** The admin dashboard's users: a table, or stacked rows on narrow screens. */
export function UserTable(props: UserListProps) {
  const compact = useCompactLists();
  if (compact) return <UserRowsCompact {...props} />;
  const { users, loading, meId, allowed, onAction } = props;
  const columns = 8;
  return (
    <Table.ScrollContainer minWidth={820}>
      <Table verticalSpacing="sm" highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>User</Table.Th>
            <Table.Th>Role</Table.Th>
            <Table.Th>Plan</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th ta="right">Campaigns</Table.Th>
            <Table.Th ta="right">Payments</Table.Th>
            <Table.Th>Joined</Table.Th>
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
