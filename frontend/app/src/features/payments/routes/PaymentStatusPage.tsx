import { Anchor, Button, Loader, Stack, Text, ThemeIcon, Title } from "@mantine/core";
import { IconAlertTriangle, IconCircleCheck, IconCircleX } from "@tabler/icons-react";
import { useEffect, useState } from "react";
import { Link, useSearchParams } from "react-router";
import { formatInr } from "../../../lib/format";
import { fetchPaymentStatus } from "../api/payments";
import { initialStatus, pollPaymentStatus, type StatusState } from "../api/status-machine";
import { Detail, ResultHeading, ResultLayout } from "../components/ResultLayout";

/** Follows a payment the gateway left undecided until the server knows its outcome. */
export function PaymentStatusPage() {
  const [params] = useSearchParams();
  const txnid = params.get("txnid");
  const error = params.get("error");
  // Another transaction in the query starts over.
  return <PaymentStatus key={`${txnid ?? ""}|${error ?? ""}`} txnid={txnid} error={error} />;
}

function PaymentStatus({ txnid, error }: { txnid: string | null; error: string | null }) {
  const [state, setState] = useState<StatusState>(() => initialStatus(txnid, error));

  useEffect(() => {
    if (!txnid || initialStatus(txnid, error).kind !== "checking") return;
    return pollPaymentStatus({ txnid, fetchStatus: fetchPaymentStatus, onChange: setState });
  }, [txnid, error]);

  return (
    <ResultLayout>
      <Stack gap="lg">
        {state.kind === "checking" ? (
          <Stack align="center" ta="center" gap="sm" role="status">
            <ThemeIcon size={64} radius="xl" variant="light">
              <Loader size={30} />
            </ThemeIcon>
            <Title order={1} fz="h2">
              Verifying Payment
            </Title>
            <Text c="dimmed">Please wait while we confirm your payment...</Text>
          </Stack>
        ) : state.kind === "success" ? (
          <ResultHeading
            icon={<IconCircleCheck size={36} />}
            color="teal"
            title="Payment Successful"
          >
            <Text c="dimmed">Your payment has been confirmed and your plan is active.</Text>
          </ResultHeading>
        ) : state.kind === "failed" ? (
          <ResultHeading icon={<IconCircleX size={36} />} color="red" title="Payment Failed">
            <Text role="alert">{state.message}</Text>
          </ResultHeading>
        ) : (
          <ResultHeading
            icon={<IconAlertTriangle size={36} />}
            color="orange"
            title="Verification Error"
          >
            <Text role="alert">{state.message}</Text>
            {state.signIn ? (
              <Anchor component={Link} to="/login" fz="sm">
                Sign in
              </Anchor>
            ) : null}
          </ResultHeading>
        )}
        {txnid ? (
          <Stack gap={8}>
            <Detail label="Transaction ID" value={txnid} />
            {state.kind === "success" && state.amount !== undefined ? (
              <Detail label="Amount" value={formatInr(state.amount)} />
            ) : null}
            {state.kind === "success" && state.mihpayid ? (
              <Detail label="Payment ID" value={state.mihpayid} />
            ) : null}
          </Stack>
        ) : null}
        {state.kind === "checking" ? null : (
          // Both lead to the billing page: a failed payment is tried again from there.
          <Button component={Link} to="/billing">
            {state.kind === "failed" ? "Try Again" : "Go to Billing"}
          </Button>
        )}
      </Stack>
    </ResultLayout>
  );
}
