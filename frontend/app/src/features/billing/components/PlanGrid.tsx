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
  Switch,
  Text,
  Title,
} from "@mantine/core";
import { IconCheck } from "@tabler/icons-react";
import { useState } from "react";
import type { components } from "../../../api/schema";
import { messageOf } from "../../../lib/api-client";
import { useAuth } from "../../../lib/auth";
import { formatMoney } from "../../../lib/format";
import { usePlans, useSubscription } from "../api/billing";
import { PAYMENT_ERROR_FALLBACK, startPayment } from "../api/payment";
import { inviteRequestMailto, needsInvite, planAction, salesNote } from "../api/plan-action";
import { plansError } from "../api/plans-error";
import { currentPlanOf } from "../api/subscription";
import {
  annualSaving,
  fullYearPrice,
  hasAnnualOffer,
  planPriceText,
  type Cycle,
} from "../api/pricing";

type Plan = components["schemas"]["PlanOut"];

/** The sales address behind every enterprise plan's Contact Sales button. */
export const SALES_MAILTO = "mailto:sales@convertassist.in?subject=Enterprise%20plan%20enquiry";

/** Where the Upgrade buttons scroll to. */
export const PLANS_ANCHOR = "plans";

/** A buy button whose label wraps onto more lines instead of being cut ("Choose Rev2 Test Plan E…"). */
const WRAPPING_BUTTON = {
  root: { height: "auto", minHeight: 36, paddingBlock: 6 },
  inner: { height: "auto" },
  label: { whiteSpace: "normal", textAlign: "center", lineHeight: 1.3, overflow: "visible" },
} as const;

/** The sales address for a plan sold through sales: enterprise plans, or one priced outside INR. */
export function salesMailto(plan: Plan): string {
  if (plan.contactSales || plan.checkoutAvailable) return SALES_MAILTO;
  const subject = encodeURIComponent(`${plan.displayName} plan enquiry`);
  return `mailto:sales@convertassist.in?subject=${subject}`;
}

function PlanPrice({ plan, cycle, custom }: { plan: Plan; cycle: Cycle; custom: boolean }) {
  if (custom) {
    return (
      <Text fz={24} fw={800}>
        Custom Pricing
      </Text>
    );
  }
  const [amount, period] = planPriceText(plan, cycle).split(" / ");
  return (
    <Stack gap={2}>
      <Text fz={28} fw={800} lh={1.2} data-testid={`price-${plan.id}`}>
        {amount}
        <Text span fz="sm" c="dimmed" fw={400}>
          {` / ${period}`}
        </Text>
      </Text>
      {hasAnnualOffer(plan) ? (
        <Group gap={8} fz="sm">
          <Text span td="line-through" c="dimmed" inherit>
            {formatMoney(fullYearPrice(plan.price), plan.currency)}
            {cycle === "monthly" ? " / year" : null}
          </Text>
          <Text span c="teal" fw={600} inherit>
            Save {formatMoney(annualSaving(plan.price), plan.currency)}
          </Text>
        </Group>
      ) : null}
    </Stack>
  );
}

/** Shown when the owner's subscription could not be read: the cards cannot tell the current plan. */
export const SUBSCRIPTION_ERROR =
  "We couldn't load your current plan, so buying is paused to avoid paying twice.";

/**
 * The plan cards with the monthly/annual toggle. A card's button buys that plan for the chosen
 * cycle: the server prepares the payment and the browser goes to the payment page. The current
 * plan comes from the subscription call (the source of the current plan); until it answers, or
 * when it fails, no plan can be bought.
 */
export function PlanGrid() {
  const plans = usePlans();
  const subscription = useSubscription();
  const sub = subscription.data?.data;
  const currentPlanId = sub ? currentPlanOf(sub) : undefined;
  const invitedPlans = sub?.invitedPlans;
  // Without the subscription the cards cannot tell which plan the owner has.
  const buyingPaused = !sub;
  const { user } = useAuth();
  const [annual, setAnnual] = useState(false);
  const [buying, setBuying] = useState<string | null>(null);
  const [paymentError, setPaymentError] = useState<string | null>(null);
  const cycle: Cycle = annual ? "annual" : "monthly";

  async function buy(plan: Plan) {
    if (!user) return;
    setBuying(plan.id);
    setPaymentError(null);
    try {
      await startPayment(plan, cycle, user);
    } catch (err) {
      setPaymentError(messageOf(err, PAYMENT_ERROR_FALLBACK));
      setBuying(null);
    }
  }

  return (
    <Stack gap="md" id={PLANS_ANCHOR} style={{ scrollMarginTop: 80 }}>
      <Group justify="space-between" align="center" gap="sm">
        <Title order={2} fz="h4">
          Plans
        </Title>
        <Group gap="xs" wrap="nowrap">
          <Text fz="sm" fw={annual ? 400 : 600}>
            Monthly
          </Text>
          <Switch
            checked={annual}
            onChange={(e) => setAnnual(e.currentTarget.checked)}
            label="Annual"
            styles={{ label: { fontWeight: annual ? 600 : 400 } }}
          />
          <Badge color="teal" variant="light">
            Save 2 months!
          </Badge>
        </Group>
      </Group>
      {paymentError ? (
        <Alert
          color="red"
          role="alert"
          withCloseButton
          onClose={() => setPaymentError(null)}
          closeButtonLabel="Dismiss"
        >
          {`Payment Error: ${paymentError}`}
        </Alert>
      ) : null}
      {subscription.isError ? (
        <Alert color="red" role="alert" title="Current plan unavailable">
          <Stack gap="xs" align="flex-start">
            <Text fz="sm">
              {`${SUBSCRIPTION_ERROR} ${messageOf(subscription.error, "")}`.trim()}
            </Text>
            <Button
              size="compact-sm"
              variant="light"
              color="red"
              loading={subscription.isFetching}
              onClick={() => void subscription.refetch()}
            >
              Try Again
            </Button>
          </Stack>
        </Alert>
      ) : null}
      {plans.isLoading ? (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
          {[1, 2, 3, 4].map((i) => (
            <Skeleton key={i} h={300} radius="md" />
          ))}
        </SimpleGrid>
      ) : plans.isError ? (
        <Alert color="red" role="alert">
          {plansError(plans.error)}
        </Alert>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
          {(plans.data?.data ?? []).map((plan) => {
            const action = planAction(plan, currentPlanId);
            return (
              <Card
                key={plan.id}
                withBorder
                radius="md"
                p="lg"
                data-testid={`plan-${plan.id}`}
                style={plan.popular ? { borderColor: "var(--mantine-color-indigo-5)" } : undefined}
              >
                <Stack gap="sm" h="100%" justify="space-between">
                  <Stack gap="xs">
                    <Group justify="space-between" gap="xs" wrap="nowrap">
                      <Text fw={700} fz="lg" style={{ overflowWrap: "anywhere" }}>
                        {plan.displayName}
                      </Text>
                      {plan.popular ? <Badge style={{ flexShrink: 0 }}>Popular</Badge> : null}
                      {plan.inviteOnly ? (
                        <Badge color="gray" variant="light" style={{ flexShrink: 0 }}>
                          Invite only
                        </Badge>
                      ) : null}
                    </Group>
                    <PlanPrice plan={plan} cycle={cycle} custom={action.customPricing} />
                    <List
                      spacing={4}
                      size="sm"
                      mt="xs"
                      icon={<IconCheck size={14} color="var(--mantine-color-teal-6)" />}
                    >
                      {plan.features.map((f) => (
                        <List.Item key={f}>{f}</List.Item>
                      ))}
                    </List>
                  </Stack>
                  {action.contact ? (
                    <Stack gap={6}>
                      {salesNote(plan) ? (
                        <Text fz="xs" c="dimmed">
                          {salesNote(plan)}
                        </Text>
                      ) : null}
                      <Button component="a" href={salesMailto(plan)} variant="light">
                        {action.label}
                      </Button>
                    </Stack>
                  ) : needsInvite(plan, currentPlanId, invitedPlans) ? (
                    <Button
                      component="a"
                      href={inviteRequestMailto(plan, user?.email ?? "")}
                      variant="light"
                    >
                      Request an invite
                    </Button>
                  ) : (
                    <Button
                      disabled={
                        buyingPaused || action.disabled || (buying !== null && buying !== plan.id)
                      }
                      loading={buying === plan.id}
                      variant={plan.popular ? "filled" : "light"}
                      onClick={() => void buy(plan)}
                      styles={WRAPPING_BUTTON}
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
