import { Badge } from "@mantine/core";
import { roleColor, statusBadge } from "../api/status";

/** Badges keep their whole word inside narrow table cells. */
const WHOLE = { minWidth: "max-content" };

export function StatusBadge({
  subscriptionStatus,
  cancelAtPeriodEnd,
}: {
  subscriptionStatus: string;
  cancelAtPeriodEnd?: boolean;
}) {
  const { label, color } = statusBadge({ subscriptionStatus, cancelAtPeriodEnd });
  return (
    <Badge variant="light" color={color} style={WHOLE}>
      {label}
    </Badge>
  );
}

export function RoleBadge({ role }: { role: string }) {
  return (
    <Badge variant="outline" color={roleColor(role)} style={WHOLE}>
      {role}
    </Badge>
  );
}

/** Shown beside an account staff suspended (it cannot sign in until restored). */
export function SuspendedBadge({ suspendedAt }: { suspendedAt?: string | null }) {
  if (!suspendedAt) return null;
  return (
    <Badge variant="filled" color="red.8" style={WHOLE} data-testid="suspended-badge">
      Suspended
    </Badge>
  );
}
