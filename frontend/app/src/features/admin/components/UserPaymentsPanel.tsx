import {
  Alert,
  Badge,
  Button,
  Card,
  Checkbox,
  Group,
  Stack,
  Table,
  Text,
  Tooltip,
  VisuallyHidden,
} from "@mantine/core";
import { IconReceiptRefund } from "@tabler/icons-react";
import { useState } from "react";
import { scrollRegion } from "../../../components/a11y";
import { messageOf } from "../../../lib/api-client";
import { formatInrExact } from "../../../lib/format";
import {
  checkoutModeBadge,
  paymentReason,
  paymentStatusColor,
  paymentStatusLabel,
} from "../../../lib/payment-status";
import { useRefreshAdmin, useRefundPayment } from "../api/admin";
import {
  canRefund,
  refundConfirmation,
  refundConsequence,
  refundOutcome,
  refundProgress,
  type UserPayment,
} from "../api/payments";
import { ConfirmModal } from "./ConfirmModal";

const dateTime = new Intl.DateTimeFormat("en-IN", { dateStyle: "medium", timeStyle: "short" });

function when(iso: string | null | undefined): string {
  if (!iso) return "—";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? "—" : dateTime.format(d);
}

/** Status, with what staff must know beside it: a late success, a refund, PayU's reason. */
function StatusCell({ p }: { p: UserPayment }) {
  const reason = paymentReason(p.status, p.reason);
  const refund = refundOutcome(p);
  const progress = refundProgress(p);
  return (
    <Stack gap={4} align="flex-start">
      <Group gap={4}>
        <Badge variant="light" color={paymentStatusColor(p.status)}>
          {paymentStatusLabel(p.status)}
        </Badge>
        {p.lateSuccessAt ? (
          <Tooltip label="PayU reported it paid after it had failed or expired; the money was taken and the plan applied.">
            <Badge variant="filled" color="orange" tabIndex={0}>
              Late success
            </Badge>
          </Tooltip>
        ) : null}
        {progress?.kind === "waiting" ? (
          <Badge variant="light" color="yellow">
            Refund pending
          </Badge>
        ) : null}
      </Group>
      {progress?.kind === "waiting" ? (
        <Text fz="xs" c="dimmed">
          Refund asked on {when(progress.since)}. PayU is making it; the payment shows as refunded
          once the money has gone back.
        </Text>
      ) : null}
      {progress?.kind === "failed" ? (
        <Text fz="xs" c="red.8" style={{ overflowWrap: "anywhere" }}>
          {progress.reason.replace(/\.$/, "")}. No money went back; you can refund it again.
        </Text>
      ) : null}
      {p.lateSuccessAt ? (
        <Text fz="xs" c="dimmed">
          Paid late, on {when(p.lateSuccessAt)}
        </Text>
      ) : null}
      {reason ? (
        <Text fz="xs" c="dimmed" style={{ overflowWrap: "anywhere" }}>
          {reason}
        </Text>
      ) : null}
      {refund ? (
        <Text fz="xs" c="dimmed">
          Refunded {when(p.refundedAt)}. {refund}
        </Text>
      ) : null}
    </Stack>
  );
}

/**
 * An owner's payments for staff: status with PayU's reason, where each was made (only Live moved
 * real money), late successes, and a refund of any successful payment after confirming whether
 * the owner keeps the period it paid for.
 */
export function UserPaymentsPanel({ payments }: { payments: UserPayment[] }) {
  const refund = useRefundPayment();
  const refresh = useRefreshAdmin();
  const [target, setTarget] = useState<UserPayment | null>(null);
  const [keepAccess, setKeepAccess] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  function open(p: UserPayment) {
    setTarget(p);
    setKeepAccess(false);
    setError(null);
    setDone(null);
  }

  async function confirm() {
    if (!target) return;
    setError(null);
    try {
      const answer = await refund.mutateAsync({
        params: { path: { txnid: target.txnid } },
        body: { keepAccess },
      });
      setDone(refundConfirmation(answer.data, formatInrExact(target.amount)));
      setTarget(null);
      await refresh();
    } catch (err) {
      setError(messageOf(err, "Failed to refund the payment"));
    }
  }

  return (
    <Card withBorder radius="md" p="md">
      {done ? (
        <Alert
          color="teal"
          role="status"
          mb="sm"
          withCloseButton
          closeButtonLabel="Dismiss"
          onClose={() => setDone(null)}
        >
          {done}
        </Alert>
      ) : null}
      <Table.ScrollContainer
        minWidth={860}
        scrollAreaProps={scrollRegion("Payments")}
        visibleFrom="md"
      >
        <Table verticalSpacing="xs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Date</Table.Th>
              <Table.Th>Description</Table.Th>
              <Table.Th>Transaction</Table.Th>
              <Table.Th>Mode</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th ta="right">Amount</Table.Th>
              <Table.Th>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {payments.map((p) => {
              const mode = checkoutModeBadge(p.mode);
              return (
                <Table.Tr key={p._id} data-testid={`payment-${p.txnid}`}>
                  <Table.Td>{when(p.paidAt ?? p.createdAt)}</Table.Td>
                  <Table.Td>
                    <Text fz="sm">{p.productinfo}</Text>
                    <Text fz="xs" c="dimmed">
                      Plan {p.planId}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text fz="xs" ff="monospace">
                      {p.txnid}
                    </Text>
                    {p.mihpayid && (
                      <Text fz="xs" c="dimmed" ff="monospace">
                        PayU {p.mihpayid}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Stack gap={4} align="flex-start">
                      <Badge variant="outline" color={mode.color} size="sm">
                        {mode.label}
                      </Badge>
                      {p.paymentMode ? <Text fz="xs">{p.paymentMode}</Text> : null}
                    </Stack>
                  </Table.Td>
                  <Table.Td maw={280}>
                    <StatusCell p={p} />
                  </Table.Td>
                  <Table.Td ta="right" fw={600}>
                    {formatInrExact(p.amount)}
                  </Table.Td>
                  <Table.Td>
                    {canRefund(p) ? (
                      <Button
                        size="compact-sm"
                        variant="light"
                        color="red"
                        leftSection={<IconReceiptRefund size={14} />}
                        onClick={() => open(p)}
                        aria-label={`Refund ${p.txnid}`}
                      >
                        Refund
                      </Button>
                    ) : null}
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Stack gap={0} hiddenFrom="md" component="ul" p={0} m={0} style={{ listStyle: "none" }}>
        {payments.map((p, i) => {
          const mode = checkoutModeBadge(p.mode);
          return (
            <Stack
              key={p._id}
              component="li"
              gap={6}
              py="sm"
              data-testid={`payment-card-${p.txnid}`}
              style={i > 0 ? { borderTop: "1px solid var(--mantine-color-gray-3)" } : undefined}
            >
              <Group justify="space-between" wrap="nowrap" align="flex-start" gap="sm">
                <div style={{ minWidth: 0 }}>
                  <Text fz="sm" fw={600}>
                    {p.productinfo}
                  </Text>
                  <Text fz="xs" c="dimmed">
                    {when(p.paidAt ?? p.createdAt)}
                    {p.paymentMode ? ` · ${p.paymentMode}` : ""}
                  </Text>
                </div>
                <Text fz="sm" fw={700} style={{ flexShrink: 0 }}>
                  {formatInrExact(p.amount)}
                </Text>
              </Group>
              <Group gap={6} align="flex-start" wrap="nowrap">
                <Badge variant="outline" color={mode.color} size="sm" style={{ flexShrink: 0 }}>
                  {mode.label}
                </Badge>
                <StatusCell p={p} />
              </Group>
              <Group justify="space-between" wrap="nowrap" gap="sm">
                <Text fz="xs" ff="monospace" c="dimmed" style={{ overflowWrap: "anywhere" }}>
                  {p.txnid}
                  {p.mihpayid ? ` · PayU ${p.mihpayid}` : ""}
                </Text>
                {canRefund(p) ? (
                  <Button
                    size="compact-sm"
                    variant="light"
                    color="red"
                    leftSection={<IconReceiptRefund size={14} />}
                    onClick={() => open(p)}
                    aria-label={`Refund ${p.txnid}`}
                    style={{ flexShrink: 0 }}
                  >
                    Refund
                  </Button>
                ) : null}
              </Group>
            </Stack>
          );
        })}
      </Stack>
      <ConfirmModal
        opened={target !== null}
        title="Refund this payment?"
        message={
          target ? (
            <Stack gap="sm">
              <Text fz="sm">
                {formatInrExact(target.amount)} for {target.productinfo} ({target.txnid}) goes back
                to the owner
                {target.mode === "live" || target.mode === "test"
                  ? " through PayU."
                  : "; it was not paid through PayU, so it is refunded here at once."}
              </Text>
              <Checkbox
                label="Keep access"
                description="Let the owner keep the period this payment paid for."
                checked={keepAccess}
                onChange={(e) => setKeepAccess(e.currentTarget.checked)}
              />
              <Text fz="sm" c="dimmed">
                {refundConsequence(keepAccess)}
              </Text>
            </Stack>
          ) : null
        }
        confirmLabel="Refund"
        loading={refund.isPending}
        error={error}
        onConfirm={() => void confirm()}
        onClose={() => setTarget(null)}
      />
    </Card>
  );
}
