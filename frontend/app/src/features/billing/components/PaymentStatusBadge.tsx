import { Badge } from "@mantine/core";
import { statusLabel } from "../api/history";

const COLORS: Record<string, string> = { success: "green", failure: "red", pending: "yellow" };

export function PaymentStatusBadge({ status }: { status: string }) {
  return (
    <Badge color={COLORS[status] ?? "gray"} variant="light">
      {statusLabel(status)}
    </Badge>
  );
}
