import { Text } from "@mantine/core";
import { messageOf } from "../../../lib/api-client";
import { useAuth } from "../../../lib/auth";
import { useDeleteUser, useLoginAsUser, useRefreshAdmin } from "../api/admin";
import type { AdminUser } from "../api/types";
import { ConfirmModal } from "./ConfirmModal";

export const DELETE_USER_QUESTION =
  "Are you sure you want to delete this user? This action cannot be undone.";

/** Deletes a user (with their campaigns, conversations, customers and payments) after asking. */
export function DeleteUserModal({
  user,
  onClose,
  onDeleted,
}: {
  user: AdminUser;
  onClose: () => void;
  onDeleted?: () => void;
}) {
  const remove = useDeleteUser();
  const refresh = useRefreshAdmin();
  return (
    <ConfirmModal
      opened
      title="Delete User"
      message={
        <>
          <Text fz="sm" mb="xs">
            {DELETE_USER_QUESTION}
          </Text>
          <Text fz="sm" c="dimmed">
            {user.name} ({user.email}) and their campaigns, conversations, customers and payments
            will be removed.
          </Text>
        </>
      }
      confirmLabel="Delete"
      loading={remove.isPending}
      error={remove.isError ? messageOf(remove.error, "Failed to delete user") : null}
      onClose={() => {
        remove.reset();
        onClose();
      }}
      onConfirm={() =>
        remove.mutate(
          { params: { path: { id: user.id } } },
          {
            onSuccess: () => {
              void refresh();
              onClose();
              onDeleted?.();
            },
          },
        )
      }
    />
  );
}

/** Signs in as the user after warning that this session ends; reloads at their dashboard. */
export function LoginAsUserModal({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const login = useLoginAsUser();
  const { setSession } = useAuth();
  return (
    <ConfirmModal
      opened
      title="Login as User"
      color="indigo"
      message={
        <>
          <Text fz="sm" mb="xs">
            You will be logged in as {user.name} ({user.email}).
          </Text>
          <Text fz="sm" c="dimmed">
            Your current session will be logged out. Sign in again with your own account to come
            back to the admin area.
          </Text>
        </>
      }
      confirmLabel="Login as User"
      loading={login.isPending}
      error={
        login.isError ? messageOf(login.error, "Failed to login as user. Please try again.") : null
      }
      onClose={() => {
        login.reset();
        onClose();
      }}
      onConfirm={() =>
        login.mutate(
          { body: { userId: user.id } },
          {
            onSuccess: (res) => {
              setSession(res.data.token);
              window.location.assign("/dashboard");
            },
          },
        )
      }
    />
  );
}
