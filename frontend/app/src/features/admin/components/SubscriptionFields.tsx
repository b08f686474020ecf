import { Select, TextInput } from "@mantine/core";
import { dateAfter, type SubscriptionChoice } from "../api/change-plan";
import { formatPrice, perInterval } from "../api/display";
import {
  SETTABLE_STATUSES,
  STATUS_EFFECTS,
  hasEndDate,
  statusLabel,
  type SettableStatus,
} from "../api/status";
import type { AdminPlan } from "../api/types";

/** Plan options: active plans, and an inactive one only when it is the current choice. */
export function planOptions(plans: AdminPlan[], current: string) {
  return plans
    .filter((p) => p.active || p.id === current)
    .map((p) => ({
      value: p.id,
      label: `${p.displayName} — ${formatPrice(p.price, p.currency)}${perInterval(p.interval)}${p.active ? "" : " (inactive)"}`,
    }));
}

/** Plan, status and (for an active status only) the end date. */
export function SubscriptionFields({
  value,
  onChange,
  plans,
  errors,
}: {
  value: SubscriptionChoice;
  onChange: (next: SubscriptionChoice) => void;
  plans: AdminPlan[];
  errors: Record<string, string>;
}) {
  return (
    <>
      <Select
        label="Plan"
        data={planOptions(plans, value.planId)}
        value={value.planId || null}
        onChange={(v) => onChange({ ...value, planId: v ?? "" })}
        allowDeselect={false}
        error={errors.planId}
        comboboxProps={{ withinPortal: true }}
      />
      <Select
        label="Subscription Status"
        data={SETTABLE_STATUSES.map((s) => ({ value: s, label: statusLabel(s) }))}
        value={value.subscriptionStatus}
        description={STATUS_EFFECTS[value.subscriptionStatus]}
        inputWrapperOrder={["label", "input", "description", "error"]}
        onChange={(v) => {
          const status = (v ?? "free") as SettableStatus;
          const endDate =
            status === "active" && value.endDate === "" ? dateAfter(new Date(), 30) : value.endDate;
          onChange({ ...value, subscriptionStatus: status, endDate });
        }}
        allowDeselect={false}
        error={errors.subscriptionStatus}
        comboboxProps={{ withinPortal: true }}
      />
      {hasEndDate(value.subscriptionStatus) && (
        <TextInput
          type="date"
          label="Subscription End Date"
          description={
            value.subscriptionStatus === "cancelled"
              ? "Leave empty to end with the current period"
              : undefined
          }
          value={value.endDate}
          min={dateAfter(new Date(), 1)}
          onChange={(e) => onChange({ ...value, endDate: e.currentTarget.value })}
          error={errors.subscriptionEndsAt}
          required={value.subscriptionStatus === "active"}
        />
      )}
    </>
  );
}
