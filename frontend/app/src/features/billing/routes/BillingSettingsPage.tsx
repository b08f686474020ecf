import { Alert, Stack } from "@mantine/core";
import { useSearchParams } from "react-router";
import { useUsage } from "../../../lib/usage";
import { currentPlanOf } from "../api/subscription";
import { usageError } from "../api/usage-error";
import { BillingDetailsCard } from "../components/BillingDetailsCard";
import { PlanGrid } from "../components/PlanGrid";
import { UsageCard } from "../components/UsageCard";

/**
 * The billing view under settings: usage, the plans, and the billing details invoices are made
 * out to; the return target after a payment.
 */
export function BillingSettingsPage() {
  const [params] = useSearchParams();
  const usage = useUsage();

  return (
    <Stack gap="lg">
      {params.get("success") === "true" ? (
        <Alert color="teal" title="Payment successful" role="status">
          Your plan is active. Thank you!
        </Alert>
      ) : null}
      <UsageCard
        loading={usage.isLoading}
        usage={usage.data?.data}
        error={usage.error ? usageError(usage.error) : null}
      />
      <PlanGrid currentPlanId={currentPlanOf(usage.data?.data.plan)} />
      <BillingDetailsCard />
    </Stack>
  );
}
