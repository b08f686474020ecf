import { Alert, Stack } from "@mantine/core";
import { useSearchParams } from "react-router";
import { useUsage } from "../../../lib/usage";
import { usePaymentHistory } from "../api/billing";
import { paidRecently } from "../api/history";
import { useSignInHere } from "../api/sign-in-here";
import { needsSignIn, usageError } from "../api/usage-error";
import { BillingDetailsCard } from "../components/BillingDetailsCard";
import { PlanGrid } from "../components/PlanGrid";
import { UsageCard } from "../components/UsageCard";

/**
 * The billing view under settings: usage, the plans, and the billing details invoices are made
 * out to; the return target after a payment.
 */
export function BillingSettingsPage() {
  const [params] = useSearchParams();
  const signIn = useSignInHere();
  const usage = useUsage();
  const returned = params.get("success") === "true";
  // The thanks shows only for a payment the server has as successful within the hour.
  const history = usePaymentHistory({ enabled: returned });
  const paid = returned && paidRecently(history.data?.data ?? [], new Date());

  return (
    <Stack gap="lg">
      {paid ? (
        <Alert color="teal" title="Payment successful" role="status">
          Your plan is active. Thank you!
        </Alert>
      ) : null}
      <UsageCard
        loading={usage.isLoading}
        usage={usage.data?.data}
        error={usage.error ? usageError(usage.error) : null}
        signIn={needsSignIn(usage.error) ? signIn : null}
      />
      <PlanGrid />
      <BillingDetailsCard />
    </Stack>
  );
}
