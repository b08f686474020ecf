import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  List,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
} from "@mantine/core";
import { IconCheck } from "@tabler/icons-react";
import { useState } from "react";
import { useSearchParams } from "react-router";
import { messageOf } from "../../../lib/api-client";
import { useAuth } from "../../../lib/auth";
import { startCheckout } from "../../../lib/checkout";
import { formatDate, formatInr } from "../../../lib/format";
import { useUsage } from "../../../lib/usage";
import { usePlans } from "../api/billing";
import { planAction } from "../api/plan-action";
import { usageError } from "../api/usage-error";
import { UsageCard } from "../components/UsageCard";

export function BillingSettingsPage() {
  const [params] = useSearchParams();
  const { user } = useAuth();
  const plans = usePlans();
  const usage = useUsage();
  const [checkoutError, setCheckoutError] = useState<string | null>(null);
  const [buying, setBuying] = useState<string | null>(null);
  const plansError = plans.isError
    ? messageOf(plans.error as unknown, "Failed to fetch plans")
    : null;
  const status = usage.data?.data.plan.status;
  const currentPlanId = usage.data?.data.plan.planId ?? "free";

  async function buy(planId: string) {
    setBuying(planId);
    setCheckoutError(null);
    try {
      await startCheckout(planId);
    } catch (err) {
      setCheckoutError(messageOf(err, "Failed to create checkout session"));
      setBuying(null);
    }
  }

  return (
    <Stack maw={1100} gap="lg">
      {params.get("success") === "true" ? (
        <Alert color="teal" title="Payment successful" role="status">
          Your plan is active. Thank you!
        </Alert>
      ) : null}
      <Card withBorder radius="md" p="lg">
        <Group justify="space-between">
          <div>
            <Title order={3} fz="h4">
              Current subscription
            </Title>
            <Text c="dimmed" fz="sm">
              {user?.isInTrial
                ? `Trial: ${user.trialRemainingDays} day${user.trialRemainingDays === 1 ? "" : "s"} left, ends ${formatDate(user.trialEndsAt)}`
                : user?.subscriptionStatus === "active"
                  ? `Next billing date: ${formatDate(user.subscriptionEndsAt)}`
                  : "You're on the free plan."}
            </Text>
          </div>
          <Badge
            size="lg"
            variant="light"
            color={status === "active" ? "green" : status === "trial" ? "blue" : "gray"}
          >
            {status ?? user?.subscriptionStatus}
          </Badge>
        </Group>
      </Card>
      <UsageCard
        loading={usage.isLoading}
        usage={usage.data?.data}
        error={usage.error ? usageError(usage.error) : null}
      />
      <Title order={3} fz="h4">
        Plans
      </Title>
      {checkoutError ? (
        <Alert color="red" role="alert">
          {checkoutError}
        </Alert>
      ) : null}
      {plans.isLoading ? (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
          {[1, 2, 3, 4].map((i) => (
            <Skeleton key={i} h={260} />
          ))}
        </SimpleGrid>
      ) : plansError ? (
        <Alert color="red" role="alert">
          {plansError}
        </Alert>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
          {(plans.data?.data ?? []).map((plan) => {
            const action = planAction(plan, currentPlanId);
            return (
              <Card key={plan.id} withBorder radius="md" p="lg">
                <Stack gap="sm" h="100%" justify="space-between">
                  <Stack gap="xs">
                    <Group justify="space-between">
                      <Text fw={700}>{plan.displayName}</Text>
                      {plan.popular ? <Badge>Popular</Badge> : null}
                    </Group>
                    <Text fz={action.contact ? 22 : 26} fw={800}>
                      {action.contact ? "Custom Pricing" : formatInr(plan.price)}
                      {!action.contact && plan.price > 0 ? (
                        <Text span fz="sm" c="dimmed" fw={400}>
                          {" "}
                          / month
                        </Text>
                      ) : null}
                    </Text>
                    <List
                      spacing={4}
                      size="sm"
                      icon={<IconCheck size={14} color="var(--mantine-color-teal-6)" />}
                    >
                      {plan.features.map((f) => (
                        <List.Item key={f}>{f}</List.Item>
                      ))}
                    </List>
                  </Stack>
                  {action.contact ? (
                    <Button
                      component="a"
                      href="mailto:sales@convertassist.in?subject=Enterprise%20plan%20enquiry"
                      variant="light"
                    >
                      Contact Sales
                    </Button>
                  ) : (
                    <Button
                      disabled={action.disabled}
                      loading={buying === plan.id}
                      onClick={() => void buy(plan.id)}
                    >
                      {action.label}
                    </Button>
                  )}
                </Stack>
              </Card>
            );
          })}
        </SimpleGrid>
      )}
    </Stack>
  );
}
