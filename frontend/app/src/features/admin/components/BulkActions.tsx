import { Button, Group, Paper, Text } from "@mantine/core";
import { IconKey, IconReplace, IconX } from "@tabler/icons-react";
import { useState } from "react";
import { messageOf } from "../../../lib/api-client";
import { fieldErrors } from "../../../lib/errors";
import {
  useAdminPlans,
  useBulkChangePlan,
  useBulkSendPasswordReset,
  useRefreshAdmin,
} from "../api/admin";
import {
  subscriptionChoiceError,
  subscriptionFields,
  type SubscriptionChoice,
} from "../api/change-plan";
import type { BulkOutcome } from "../api/types";
import { ConfirmModal } from "./ConfirmModal";
import { SubscriptionFields } from "./SubscriptionFields";
import { FailureAlert, FormModal } from "./UserModals";

const users = (n: number) => (n === 1 ? "1 user" : `${n} users`);

/** Change Plan for every chosen account: the same fields as one account's Change Plan. */
function BulkChangePlanModal({
  ids,
  onClose,
  onDone,
}: {
  ids: string[];
  onClose: () => void;
  onDone: (outcome: BulkOutcome) => void;
}) {
  const [choice, setChoice] = useState<SubscriptionChoice>({
    planId: "",
    subscriptionStatus: "free",
    endDate: "",
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const plans = useAdminPlans();
  const change = useBulkChangePlan();
  const refresh = useRefreshAdmin();

  async function submit() {
    const problem = subscriptionChoiceError(choice, new Date());
    if (problem) {
      setErrors({ [choice.planId ? "subscriptionEndsAt" : "planId"]: problem });
      return;
    }
    setErrors({});
    try {
      const res = await change.mutateAsync({
        body: { userIds: ids, ...subscriptionFields(choice) },
      });
      await refresh();
      onDone(res.data);
    } catch (e) {
      setErrors(fieldErrors(e));
    }
  }

  return (
    <FormModal
      opened
      onClose={onClose}
      title={`Change Plan of ${users(ids.length)}`}
      submitLabel="Change Plan"
      loading={change.isPending}
      onSubmit={() => void submit()}
    >
      <Text fz="sm">
        Each selected user gets this plan and status; accounts your role may not change are skipped
        and named.
      </Text>
      {change.isError && (
        <FailureAlert title="Failed to change the plans. Please try again." error={change.error} />
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

/** The selection's bar above the table: how many are chosen and what can be done to them. */
export function BulkActions({
  ids,
  onClear,
  onOutcome,
}: {
  ids: string[];
  onClear: () => void;
  /** What the action did, in words (the accounts skipped named). */
  onOutcome: (message: string) => void;
}) {
  const [open, setOpen] = useState<"plan" | "reset" | null>(null);
  const reset = useBulkSendPasswordReset();
  const refresh = useRefreshAdmin();
  if (ids.length === 0) return null;

  const done = (outcome: BulkOutcome) => {
    setOpen(null);
    onClear();
    onOutcome(outcome.message);
  };

  return (
    <Paper withBorder radius="md" p="xs" data-testid="bulk-actions">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Text fz="sm" fw={600} role="status">
          {users(ids.length)} selected
        </Text>
        <Group gap="xs" wrap="wrap">
          <Button size="xs" leftSection={<IconReplace size={14} />} onClick={() => setOpen("plan")}>
            Change plan
          </Button>
          <Button
            size="xs"
            variant="light"
            leftSection={<IconKey size={14} />}
            onClick={() => setOpen("reset")}
          >
            Send password reset
          </Button>
          <Button size="xs" variant="default" leftSection={<IconX size={14} />} onClick={onClear}>
            Clear selection
          </Button>
        </Group>
      </Group>
      {open === "plan" && (
        <BulkChangePlanModal ids={ids} onClose={() => setOpen(null)} onDone={done} />
      )}
      <ConfirmModal
        opened={open === "reset"}
        title="Send Password Reset"
        message={`Email ${users(ids.length)} the usual password reset link? Each link works once, for an hour. Accounts your role may not touch are skipped.`}
        confirmLabel="Send reset emails"
        color="blue"
        loading={reset.isPending}
        error={reset.isError ? messageOf(reset.error, "Failed to send the reset emails") : null}
        onClose={() => {
          reset.reset();
          setOpen(null);
        }}
        onConfirm={() =>
          reset.mutate(
            { body: { userIds: ids } },
            {
              onSuccess: (res) => {
                void refresh();
                done(res.data);
              },
            },
          )
        }
      />
    </Paper>
  );
}
