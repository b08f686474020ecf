import { Alert, Button, Group, Modal, Select, Stack, Text, TextInput } from "@mantine/core";
import { useState, type FormEvent, type ReactNode } from "react";
import { messageOf } from "../../../lib/api-client";
import { useAuth } from "../../../lib/auth";
import {
  useAdminPlans,
  useChangePlan,
  useCreateAdmin,
  useCreateUser,
  useRefreshAdmin,
  useUpdateUser,
} from "../api/admin";
import {
  subscriptionChoiceError,
  subscriptionFields,
  type SubscriptionChoice,
} from "../api/change-plan";
import { fieldErrors } from "../../../lib/errors";
import { SETTABLE_STATUSES, capitalise, hasEndDate, type SettableStatus } from "../api/status";
import type { AdminUser } from "../api/types";
import { AccountFields, accountErrors, EMPTY_ACCOUNT } from "./AccountFields";
import { SubscriptionFields } from "./SubscriptionFields";
import { READABLE_TEXT } from "../../../components/a11y";
import { grantableRoles, usePermissions } from "../api/permissions";
import { useAdminNotice } from "./AdminNotice";

/** The alert of a failed save: the screen's sentence, then the server's reason when it gave one. */
export function FailureAlert({ title, error }: { title: string; error: unknown }) {
  const detail = messageOf(error, "");
  return (
    <Alert color="red" variant="light" role="alert" title={title}>
      {detail}
    </Alert>
  );
}

export function FormModal({
  opened,
  onClose,
  title,
  submitLabel,
  loading,
  onSubmit,
  children,
}: {
  opened: boolean;
  onClose: () => void;
  title: string;
  submitLabel: string;
  loading: boolean;
  onSubmit: () => void;
  children: ReactNode;
}) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={title}
      centered
      size="md"
      styles={{ content: READABLE_TEXT }}
    >
      <form
        noValidate
        onSubmit={(e: FormEvent) => {
          e.preventDefault();
          onSubmit();
        }}
      >
        <Stack gap="sm">
          {children}
          <Group justify="flex-end" gap="xs" mt="xs">
            <Button variant="default" onClick={onClose} disabled={loading}>
              Cancel
            </Button>
            <Button type="submit" loading={loading}>
              {submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

const FREE_CHOICE: SubscriptionChoice = { planId: "free", subscriptionStatus: "free", endDate: "" };

export function CreateUserModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const [account, setAccount] = useState(EMPTY_ACCOUNT);
  const [choice, setChoice] = useState(FREE_CHOICE);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const plans = useAdminPlans();
  const create = useCreateUser();
  const refresh = useRefreshAdmin();
  const notify = useAdminNotice();

  function close() {
    setAccount(EMPTY_ACCOUNT);
    setChoice(FREE_CHOICE);
    setErrors({});
    create.reset();
    onClose();
  }

  async function submit() {
    const found = accountErrors(account);
    const subscriptionError = subscriptionChoiceError(choice, new Date());
    if (subscriptionError)
      found[choice.planId ? "subscriptionEndsAt" : "planId"] = subscriptionError;
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    try {
      await create.mutateAsync({
        body: {
          name: account.name.trim(),
          email: account.email.trim(),
          password: account.password,
          phone: account.phone.trim() || undefined,
          ...subscriptionFields(choice),
        },
      });
      await refresh();
      notify(`User ${account.email.trim()} was created.`);
      close();
    } catch (e) {
      setErrors(fieldErrors(e));
    }
  }

  return (
    <FormModal
      opened={opened}
      onClose={close}
      title="Create User"
      submitLabel="Create User"
      loading={create.isPending}
      onSubmit={() => void submit()}
    >
      {create.isError && (
        <FailureAlert title="Failed to create user. Please try again." error={create.error} />
      )}
      <AccountFields value={account} onChange={setAccount} errors={errors} password="required" />
      <SubscriptionFields
        value={choice}
        onChange={setChoice}
        plans={plans.data?.data ?? []}
        errors={errors}
      />
    </FormModal>
  );
}

export function CreateAdminModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const allowed = usePermissions();
  const [account, setAccount] = useState(EMPTY_ACCOUNT);
  const [role, setRole] = useState<"admin" | "superuser">("admin");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const create = useCreateAdmin();
  const refresh = useRefreshAdmin();
  const notify = useAdminNotice();

  function close() {
    setAccount(EMPTY_ACCOUNT);
    setRole("admin");
    setErrors({});
    create.reset();
    onClose();
  }

  async function submit() {
    const found = accountErrors(account);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    try {
      await create.mutateAsync({
        body: {
          name: account.name.trim(),
          email: account.email.trim(),
          password: account.password,
          phone: account.phone.trim() || undefined,
          role,
        },
      });
      await refresh();
      notify(`${capitalise(role)} ${account.email.trim()} was created.`);
      close();
    } catch (e) {
      setErrors(fieldErrors(e));
    }
  }

  return (
    <FormModal
      opened={opened}
      onClose={close}
      title="Create Admin"
      submitLabel="Create Admin"
      loading={create.isPending}
      onSubmit={() => void submit()}
    >
      {create.isError && <FailureAlert title="Failed to create admin user" error={create.error} />}
      <AccountFields value={account} onChange={setAccount} errors={errors} password="required" />
      {allowed.can("grantSuperuser") ? (
        <Select
          label="Role"
          data={[
            { value: "admin", label: "Admin" },
            { value: "superuser", label: "Superuser" },
          ]}
          value={role}
          onChange={(v) => setRole(v === "superuser" ? "superuser" : "admin")}
          allowDeselect={false}
          comboboxProps={{ withinPortal: true }}
        />
      ) : (
        <Text fz="xs" c="dimmed">
          The new account gets the admin role. Only a superuser can create superusers.
        </Text>
      )}
    </FormModal>
  );
}

function initialChoice(user: AdminUser): SubscriptionChoice {
  const status: SettableStatus = (SETTABLE_STATUSES as readonly string[]).includes(
    user.subscriptionStatus,
  )
    ? (user.subscriptionStatus as SettableStatus)
    : "free";
  const end = hasEndDate(status) && user.subscriptionEndsAt ? user.subscriptionEndsAt : null;
  return {
    planId: user.planId,
    subscriptionStatus: status,
    endDate: end ? toDateField(end) : "",
  };
}

function toDateField(iso: string): string {
  const d = new Date(iso);
  const mm = String(d.getMonth() + 1).padStart(2, "0");
  const dd = String(d.getDate()).padStart(2, "0");
  return `${d.getFullYear()}-${mm}-${dd}`;
}

/** Sets a user's plan and status by hand; mount it with `key={user.id}` to start from theirs. */
export function ChangePlanModal({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const [choice, setChoice] = useState(() => initialChoice(user));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const plans = useAdminPlans();
  const change = useChangePlan();
  const refresh = useRefreshAdmin();
  const notify = useAdminNotice();

  async function submit() {
    const problem = subscriptionChoiceError(choice, new Date());
    if (problem) {
      setErrors({ [choice.planId ? "subscriptionEndsAt" : "planId"]: problem });
      return;
    }
    setErrors({});
    try {
      await change.mutateAsync({
        params: { path: { id: user.id } },
        body: subscriptionFields(choice),
      });
      await refresh();
      notify(`The plan of ${user.name || user.email} was changed.`);
      onClose();
    } catch (e) {
      setErrors(fieldErrors(e));
    }
  }

  return (
    <FormModal
      opened
      onClose={onClose}
      title="Change Plan"
      submitLabel="Change Plan"
      loading={change.isPending}
      onSubmit={() => void submit()}
    >
      <Text fz="sm">
        {user.name}{" "}
        <Text span c="dimmed">
          ({user.email})
        </Text>
      </Text>
      {change.isError && (
        <FailureAlert title="Failed to change user plan. Please try again." error={change.error} />
      )}
      <SubscriptionFields
        value={choice}
        onChange={setChoice}
        plans={plans.data?.data ?? []}
        errors={errors}
      />
    </FormModal>
  );
}

/** Name, email, phone and role of a user; mount it with `key={user.id}`. */
export function EditUserModal({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const { user: me } = useAuth();
  const allowed = usePermissions();
  const notify = useAdminNotice();
  const [form, setForm] = useState({
    name: user.name,
    email: user.email,
    phone: user.phone,
    role: user.role,
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const update = useUpdateUser();
  const refresh = useRefreshAdmin();
  const roles = grantableRoles(allowed);

  async function submit() {
    const found: Record<string, string> = {};
    if (form.name.trim() === "") found.name = "Name is required";
    if (form.email.trim() === "") found.email = "Email is required";
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    try {
      await update.mutateAsync({
        params: { path: { id: user.id } },
        body: {
          name: form.name.trim(),
          email: form.email.trim(),
          phone: form.phone.trim(),
          role: form.role,
        },
      });
      await refresh();
      notify(`Changes to ${form.name.trim()} were saved.`);
      onClose();
    } catch (e) {
      setErrors(fieldErrors(e));
    }
  }

  return (
    <FormModal
      opened
      onClose={onClose}
      title="Edit User"
      submitLabel="Save Changes"
      loading={update.isPending}
      onSubmit={() => void submit()}
    >
      {update.isError && <FailureAlert title="Failed to update user" error={update.error} />}
      <TextInput
        label="Full Name"
        required
        value={form.name}
        onChange={(e) => setForm({ ...form, name: e.currentTarget.value })}
        error={errors.name}
      />
      <TextInput
        label="Email"
        type="email"
        required
        value={form.email}
        onChange={(e) => setForm({ ...form, email: e.currentTarget.value })}
        error={errors.email}
      />
      <TextInput
        label="Phone"
        value={form.phone}
        onChange={(e) => setForm({ ...form, phone: e.currentTarget.value })}
        error={errors.phone}
      />
      <Select
        label="Role"
        data={(roles.includes(form.role) ? roles : [...roles, form.role]).map((r) => ({
          value: r,
          label: capitalise(r),
        }))}
        value={form.role}
        onChange={(v) => setForm({ ...form, role: v ?? form.role })}
        allowDeselect={false}
        disabled={user.id === me?.id || (user.role !== "user" && !allowed.can("manageStaff"))}
        error={errors.role}
        comboboxProps={{ withinPortal: true }}
      />
    </FormModal>
  );
}
