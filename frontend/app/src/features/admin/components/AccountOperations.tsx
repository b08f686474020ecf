import { Alert, Button, Card, Radio, Stack, Text, Textarea, Title } from "@mantine/core";
import { useState } from "react";
import { messageOf } from "../../../lib/api-client";
import {
  useAddNote,
  useRefreshAdmin,
  useSendPasswordReset,
  useSignOutEverywhere,
  useSuspendUser,
  useUnsuspendUser,
  useUserNotes,
} from "../api/admin";
import type { AdminUser } from "../api/types";
import { useAdminNotice } from "./AdminNotice";
import { ConfirmModal } from "./ConfirmModal";

/** What staff do to one account from its page, each after a confirmation. */
export type AccountOperation = "suspend" | "unsuspend" | "reset" | "signOut";

const NOTE_MAX = 2000;

function label(user: AdminUser): string {
  return user.name || user.email;
}

/** Suspends an account, asking whether the owner's widget keeps working meanwhile. */
function SuspendModal({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const suspend = useSuspendUser();
  const refresh = useRefreshAdmin();
  const notify = useAdminNotice();
  const [widget, setWidget] = useState<"keep" | "pause">("keep");
  return (
    <ConfirmModal
      opened
      title="Suspend User"
      message={
        <Stack gap="sm">
          <Text fz="sm">
            {label(user)} will be signed out everywhere and cannot sign in until you unsuspend the
            account. Nothing is deleted.
          </Text>
          <Radio.Group
            label="Their widget on their website"
            value={widget}
            onChange={(v) => setWidget(v === "pause" ? "pause" : "keep")}
          >
            <Stack gap={6} mt={6}>
              <Radio value="keep" label="Keeps working for visitors" />
              <Radio value="pause" label="Pauses until the account is unsuspended" />
            </Stack>
          </Radio.Group>
        </Stack>
      }
      confirmLabel="Suspend"
      loading={suspend.isPending}
      error={suspend.isError ? messageOf(suspend.error, "Failed to suspend the user") : null}
      onClose={onClose}
      onConfirm={() =>
        suspend.mutate(
          { params: { path: { id: user.id } }, body: { pauseWidget: widget === "pause" } },
          {
            onSuccess: () => {
              void refresh();
              notify(
                `${label(user)} is suspended${widget === "pause" ? " and their widget is paused" : ""}.`,
              );
              onClose();
            },
          },
        )
      }
    />
  );
}

function UnsuspendModal({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const unsuspend = useUnsuspendUser();
  const refresh = useRefreshAdmin();
  const notify = useAdminNotice();
  return (
    <ConfirmModal
      opened
      title="Unsuspend User"
      color="teal"
      message={`${label(user)} will be able to sign in again${user.widgetPaused ? " and their widget will show again" : ""}.`}
      confirmLabel="Unsuspend"
      loading={unsuspend.isPending}
      error={unsuspend.isError ? messageOf(unsuspend.error, "Failed to unsuspend the user") : null}
      onClose={onClose}
      onConfirm={() =>
        unsuspend.mutate(
          { params: { path: { id: user.id } } },
          {
            onSuccess: () => {
              void refresh();
              notify(`${label(user)} is no longer suspended.`);
              onClose();
            },
          },
        )
      }
    />
  );
}

function ResetModal({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const send = useSendPasswordReset();
  const refresh = useRefreshAdmin();
  const notify = useAdminNotice();
  return (
    <ConfirmModal
      opened
      title="Send Password Reset Email"
      color="indigo"
      message={`${user.email} will get a link to choose a new password. It works once, for an hour; their current password keeps working until then.`}
      confirmLabel="Send email"
      loading={send.isPending}
      error={send.isError ? messageOf(send.error, "Failed to send the email") : null}
      onClose={onClose}
      onConfirm={() =>
        send.mutate(
          { params: { path: { id: user.id } } },
          {
            onSuccess: () => {
              void refresh();
              notify(`A password reset email is on its way to ${user.email}.`);
              onClose();
            },
          },
        )
      }
    />
  );
}

function SignOutModal({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const signOut = useSignOutEverywhere();
  const refresh = useRefreshAdmin();
  const notify = useAdminNotice();
  return (
    <ConfirmModal
      opened
      title="Sign Out Everywhere"
      color="orange"
      message={`Every session of ${label(user)} ends now, on every device; they can sign in again with their password.`}
      confirmLabel="Sign out everywhere"
      loading={signOut.isPending}
      error={signOut.isError ? messageOf(signOut.error, "Failed to sign the user out") : null}
      onClose={onClose}
      onConfirm={() =>
        signOut.mutate(
          { params: { path: { id: user.id } } },
          {
            onSuccess: () => {
              void refresh();
              notify(`${label(user)} is signed out everywhere.`);
              onClose();
            },
          },
        )
      }
    />
  );
}

/** The confirmation of the operation chosen on the user page. */
export function AccountOperationModal({
  operation,
  user,
  onClose,
}: {
  operation: AccountOperation | null;
  user: AdminUser;
  onClose: () => void;
}) {
  if (operation === "suspend") return <SuspendModal user={user} onClose={onClose} />;
  if (operation === "unsuspend") return <UnsuspendModal user={user} onClose={onClose} />;
  if (operation === "reset") return <ResetModal user={user} onClose={onClose} />;
  if (operation === "signOut") return <SignOutModal user={user} onClose={onClose} />;
  return null;
}

const dateTime = new Intl.DateTimeFormat("en-IN", { dateStyle: "medium", timeStyle: "short" });

/** Staff-only notes on the account, newest first, and a form to add one. */
export function NotesPanel({ userId, canAdd }: { userId: string; canAdd: boolean }) {
  const notes = useUserNotes(userId);
  const add = useAddNote();
  const refresh = useRefreshAdmin();
  const notify = useAdminNotice();
  const [body, setBody] = useState("");
  const [error, setError] = useState<string | null>(null);
  const list = notes.data?.data ?? [];

  async function submit() {
    const text = body.trim();
    if (!text) {
      setError("Write a note first");
      return;
    }
    setError(null);
    try {
      await add.mutateAsync({ params: { path: { id: userId } }, body: { body: text } });
      setBody("");
      await refresh();
      notify("Note added.");
    } catch (e) {
      setError(messageOf(e, "Failed to add the note"));
    }
  }

  return (
    <Card withBorder radius="md" p="md">
      <Title order={5} mb={4}>
        Internal Notes
      </Title>
      <Text fz="xs" c="dimmed" mb="md">
        Only staff see these notes; adding one is on the audit log.
      </Text>
      {canAdd && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <Stack gap="xs" mb="md">
            <Textarea
              label="New note"
              autosize
              minRows={2}
              maxRows={8}
              maxLength={NOTE_MAX}
              value={body}
              error={error}
              description={`${body.length.toLocaleString("en-IN")} / 2,000 characters`}
              onChange={(e) => setBody(e.currentTarget.value)}
            />
            <div>
              <Button type="submit" loading={add.isPending}>
                Add note
              </Button>
            </div>
          </Stack>
        </form>
      )}
      {notes.isError && (
        <Alert color="red" variant="light" role="alert">
          {messageOf(notes.error, "Failed to fetch the notes")}
        </Alert>
      )}
      {notes.data && list.length === 0 ? (
        <Text c="dimmed" fz="sm">
          No notes yet.
        </Text>
      ) : (
        <Stack gap="sm">
          {list.map((n) => (
            <div key={n.id} data-testid="admin-note">
              <Text fz="sm" style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>
                {n.body}
              </Text>
              <Text fz="xs" c="dimmed">
                {n.authorName || n.authorEmail} · {dateTime.format(new Date(n.createdAt))}
              </Text>
            </div>
          ))}
        </Stack>
      )}
    </Card>
  );
}
