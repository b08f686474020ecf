import { SimpleGrid, Stack } from "@mantine/core";
import { useUsage } from "../../../lib/usage";
import { useSubscription } from "../api/billing";
import { useSignInHere } from "../api/sign-in-here";
import { needsSignIn, usageError } from "../api/usage-error";
import { PlanGrid } from "../components/PlanGrid";
import { QuickActions } from "../components/QuickActions";
import { RecentTransactions } from "../components/RecentTransactions";
import { SubscriptionCard } from "../components/SubscriptionCard";
import { UsageCard } from "../components/UsageCard";

/** The billing page: current plan, quick actions, usage, plans to buy and recent payments. */
export function BillingPage() {
  const signIn = useSignInHere();
  const subscription = useSubscription();
  const usage = useUsage();
  const sub = subscription.data?.data;

  return (
    <Stack gap="lg">
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <SubscriptionCard
          subscription={sub}
          loading={subscription.isLoading}
          error={subscription.error}
        />
        <QuickActions subscription={sub} />
      </SimpleGrid>
      <UsageCard
        loading={usage.isLoading}
        usage={usage.data?.data}
        error={usage.error ? usageError(usage.error) : null}
        signIn={needsSignIn(usage.error) ? signIn : null}
      />
      <PlanGrid />
      <RecentTransactions />
    </Stack>
  );
}
