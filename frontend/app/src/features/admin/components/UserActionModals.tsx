import { Text } from "@mantine/core";
import { messageOf } from "../../../lib/api-client";
import { beginImpersonation } from "../../../lib/storage";
import { useDeleteUser, useLoginAsUser, useRefreshAdmin } from "../api/admin";
import type { AdminUser } from "../api/types";
import { ConfirmModal } from "./ConfirmModal";
import { useAdminNotice } from "./AdminNotice";

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
  const notify = useAdminNotice();
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
              notify(`${user.name || user.email} was deleted.`);
              onClose();
              onDeleted?.();
            },
          },
        )
      }
    />
  );
}

/**
 * Signs in as the user after asking; the staff session is kept aside for Return to admin, and
 * the browser reloads at the user's dashboard.
 */
export function LoginAsUserModal({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const login = useLoginAsUser();
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
            Your current session will be logged out while you view their account, and what you do is
            recorded. Return to admin on the banner brings it back without signing in.
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
              beginImpersonation(res.data.token);
              window.location.assign("/dashboard");
            },
          },
        )
      }
    />
  );
}
