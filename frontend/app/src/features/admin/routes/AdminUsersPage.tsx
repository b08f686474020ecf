import {
  ActionIcon,
  Alert,
  Anchor,
  Button,
  Card,
  Group,
  Modal,
  Pagination,
  Paper,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { IconArrowLeft, IconSearch, IconTrash, IconUserPlus } from "@tabler/icons-react";
import { useState, type FormEvent } from "react";
import { Link } from "react-router";
import { messageOf } from "../../../lib/api-client";
import { useAuth } from "../../../lib/auth";
import { formatDate } from "../../../lib/format";
import {
  useAddSimpleUser,
  useDeleteSimpleUser,
  useRefreshAdmin,
  useSimpleUsers,
} from "../api/admin";
import { PASSWORD_MIN, PASSWORD_TOO_SHORT } from "../api/display";
import { fieldErrors } from "../../../lib/errors";
import { PAGE_SIZE, pageAfterDelete, pageRange } from "../api/pagination";
import type { AdminUser } from "../api/types";
import { AccountFields, EMPTY_ACCOUNT } from "../components/AccountFields";
import { RoleBadge, StatusBadge } from "../components/Badges";
import { useCompactLists } from "../components/compact";
import { ConfirmModal } from "../components/ConfirmModal";
import { DELETE_USER_QUESTION } from "../components/UserActionModals";
import { paginationControlLabel, READABLE_TEXT } from "../../../components/a11y";
import { rowControls, usePermissions } from "../api/permissions";
import { useAdminNotice } from "../components/AdminNotice";

function AddUserDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const [form, setForm] = useState(EMPTY_ACCOUNT);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const add = useAddSimpleUser();
  const refresh = useRefreshAdmin();
  const notify = useAdminNotice();

  function close() {
    setForm(EMPTY_ACCOUNT);
    setErrors({});
    add.reset();
    onClose();
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    const found: Record<string, string> = {};
    if (form.name.trim() === "") found.name = "Name is required";
    if (form.email.trim() === "") found.email = "Email is required";
    if (form.password !== "" && form.password.length < PASSWORD_MIN) {
      found.password = PASSWORD_TOO_SHORT;
    }
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    try {
      await add.mutateAsync({
        body: {
          name: form.name.trim(),
          email: form.email.trim(),
          password: form.password || undefined,
          phone: form.phone.trim() || undefined,
        },
      });
      await refresh();
      notify(`User ${form.email.trim()} was added.`);
      close();
    } catch (err) {
      setErrors(fieldErrors(err));
    }
  }

  return (
    <Modal
      opened={opened}
      onClose={close}
      title="Add User"
      centered
      styles={{ content: READABLE_TEXT }}
    >
      <form noValidate onSubmit={(e) => void submit(e)}>
        <Stack gap="sm">
          {add.isError && (
            <Alert color="red" variant="light" role="alert">
              {messageOf(add.error, "Failed to create user")}
            </Alert>
          )}
          <AccountFields value={form} onChange={setForm} errors={errors} password="optional" />
          <Group justify="flex-end" gap="xs" mt="xs">
            <Button variant="default" onClick={close} disabled={add.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={add.isPending}>
              Add User
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** On narrow screens: one stacked row per user, with the same states as the table. */
function CompactRows({
  state,
  rows,
  canDelete,
  onDelete,
  onRetry,
}: {
  state: "loading" | "failed" | "empty" | "rows";
  rows: AdminUser[];
  /** Whether the signed-in role may delete this account (never one's own). */
  canDelete: (u: AdminUser) => boolean;
  onDelete: (u: AdminUser) => void;
  onRetry: () => void;
}) {
  if (state === "loading") {
    return (
      <Stack gap="xs">
        {Array.from({ length: 5 }, (_, i) => (
          <Skeleton key={i} h={64} radius="md" />
        ))}
      </Stack>
    );
  }
  if (state === "failed") {
    return (
      <Stack align="center" py="lg" gap="sm">
        <Text c="red">Failed to load users</Text>
        <Button variant="light" onClick={onRetry}>
          Try Again
        </Button>
      </Stack>
    );
  }
  if (state === "empty") {
    return (
      <Text ta="center" c="dimmed" py="lg">
        No users found.
      </Text>
    );
  }
  return (
    <Stack gap="xs">
      {rows.map((u) => (
        <Paper key={u.id} withBorder radius="md" p="sm" data-testid={`simple-row-${u.email}`}>
          <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
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
              <Text fz="xs" c="dimmed">
                {u.phone || "—"} · joined {formatDate(u.createdAt)}
              </Text>
            </div>
            {canDelete(u) && (
              <ActionIcon
                color="red"
                variant="subtle"
                aria-label={`Delete ${u.email}`}
                onClick={() => onDelete(u)}
              >
                <IconTrash size={18} />
              </ActionIcon>
            )}
          </Group>
          <Group gap={6} mt={6}>
            <RoleBadge role={u.role} />
            <StatusBadge
              subscriptionStatus={u.subscriptionStatus}
              cancelAtPeriodEnd={u.cancelAtPeriodEnd}
            />
          </Group>
        </Paper>
      ))}
    </Stack>
  );
}

export function AdminUsersPage() {
  const { user: me } = useAuth();
  const allowed = usePermissions();
  const notify = useAdminNotice();
  const canDelete = (u: AdminUser) => rowControls(allowed, me?.id ?? "", u).delete;
  const [search, setSearch] = useState("");
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const [page, setPage] = useState(1);
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<AdminUser | null>(null);
  const users = useSimpleUsers(page, debounced);
  const remove = useDeleteSimpleUser();
  const refresh = useRefreshAdmin();

  const compact = useCompactLists();
  const rows = users.data?.users ?? [];
  const pagination = users.data?.pagination;

  let body;
  if (users.isLoading) {
    body = Array.from({ length: 5 }, (_, i) => (
      <Table.Tr key={i}>
        <Table.Td colSpan={6}>
          <Skeleton h={28} />
        </Table.Td>
      </Table.Tr>
    ));
  } else if (users.isError && !users.data) {
    body = (
      <Table.Tr>
        <Table.Td colSpan={6}>
          <Stack align="center" py="lg" gap="sm">
            <Text c="red">Failed to load users</Text>
            <Button variant="light" onClick={() => void users.refetch()}>
              Try Again
            </Button>
          </Stack>
        </Table.Td>
      </Table.Tr>
    );
  } else if (rows.length === 0) {
    body = (
      <Table.Tr>
        <Table.Td colSpan={6}>
          <Text ta="center" c="dimmed" py="lg">
            No users found.
          </Text>
        </Table.Td>
      </Table.Tr>
    );
  } else {
    body = rows.map((u) => (
      <Table.Tr key={u.id} data-testid={`simple-row-${u.email}`}>
        <Table.Td>
          <Anchor component={Link} to={`/admin/users/${u.id}`} fz="sm" fw={600}>
            {u.name || u.email}
          </Anchor>
          <Text fz="xs" c="dimmed">
            {u.email}
          </Text>
        </Table.Td>
        <Table.Td>{u.phone || "—"}</Table.Td>
        <Table.Td>
          <RoleBadge role={u.role} />
        </Table.Td>
        <Table.Td>
          <StatusBadge
            subscriptionStatus={u.subscriptionStatus}
            cancelAtPeriodEnd={u.cancelAtPeriodEnd}
          />
        </Table.Td>
        <Table.Td>{formatDate(u.createdAt)}</Table.Td>
        <Table.Td ta="right">
          {canDelete(u) && (
            <ActionIcon
              color="red"
              variant="subtle"
              aria-label={`Delete ${u.email}`}
              onClick={() => setDeleting(u)}
            >
              <IconTrash size={18} />
            </ActionIcon>
          )}
        </Table.Td>
      </Table.Tr>
    ));
  }

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
        <div>
          <Anchor component={Link} to="/admin" fz="sm">
            <Group gap={4} component="span">
              <IconArrowLeft size={14} /> Admin Dashboard
            </Group>
          </Anchor>
          <Title order={2}>Users</Title>
        </div>
        {allowed.can("editUsers") && (
          <Button leftSection={<IconUserPlus size={16} />} onClick={() => setAdding(true)}>
            Add User
          </Button>
        )}
      </Group>
      <Card withBorder radius="md" p="md">
        <Stack gap="md">
          <TextInput
            aria-label="Search users"
            placeholder="Search by name or email..."
            leftSection={<IconSearch size={16} />}
            value={search}
            onChange={(e) => {
              setSearch(e.currentTarget.value);
              setPage(1);
            }}
            maw={360}
          />
          {users.isError && users.data && (
            <Alert color="red" variant="light">
              Failed to load users
            </Alert>
          )}
          {compact ? (
            <CompactRows
              state={
                users.isLoading
                  ? "loading"
                  : users.isError && !users.data
                    ? "failed"
                    : rows.length === 0
                      ? "empty"
                      : "rows"
              }
              rows={rows}
              canDelete={canDelete}
              onDelete={setDeleting}
              onRetry={() => void users.refetch()}
            />
          ) : (
            <Table.ScrollContainer minWidth={720}>
              <Table verticalSpacing="sm" highlightOnHover>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>User</Table.Th>
                    <Table.Th>Phone</Table.Th>
                    <Table.Th>Role</Table.Th>
                    <Table.Th>Status</Table.Th>
                    <Table.Th>Joined</Table.Th>
                    <Table.Th ta="right">Delete</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>{body}</Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
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
                />
              )}
            </Group>
          )}
        </Stack>
      </Card>
      <AddUserDialog opened={adding} onClose={() => setAdding(false)} />
      <ConfirmModal
        opened={deleting !== null}
        title="Delete User"
        message={
          <>
            <Text fz="sm" mb="xs">
              {DELETE_USER_QUESTION}
            </Text>
            {deleting && (
              <Text fz="sm" c="dimmed">
                {deleting.name} ({deleting.email})
              </Text>
            )}
          </>
        }
        confirmLabel="Delete"
        loading={remove.isPending}
        error={remove.isError ? messageOf(remove.error, "Failed to delete user") : null}
        onClose={() => {
          remove.reset();
          setDeleting(null);
        }}
        onConfirm={() => {
          if (!deleting) return;
          remove.mutate(
            { params: { path: { id: deleting.id } } },
            {
              onSuccess: () => {
                notify(`${deleting.name || deleting.email} was deleted.`);
                setDeleting(null);
                setPage(pageAfterDelete(page, rows.length));
                void refresh();
              },
            },
          );
        }}
      />
    </Stack>
  );
}
