import { Badge, Text } from "@mantine/core";
import { paymentReason, paymentStatusColor, paymentStatusLabel } from "../../../lib/payment-status";

export function PaymentStatusBadge({ status }: { status: string }) {
  return (
    <Badge color={paymentStatusColor(status)} variant="light" style={{ minWidth: "max-content" }}>
      {paymentStatusLabel(status)}
    </Badge>
  );
}

/** Why a payment did not go through, in PayU's or the server's words; nothing otherwise. */
export function PaymentReason({ status, reason }: { status: string; reason?: string | null }) {
  const text = paymentReason(status, reason);
  if (!text) return null;
  return (
    <Text fz="xs" c="dimmed" style={{ overflowWrap: "anywhere" }}>
      {text}
    </Text>
  );
}
