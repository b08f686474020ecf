import {
  Alert,
  Badge,
  Box,
  Button,
  Card,
  Center,
  Divider,
  Group,
  Loader,
  Skeleton,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from "@mantine/core";
import {
  IconArrowLeft,
  IconCircleCheck,
  IconCreditCard,
  IconInfoCircle,
} from "@tabler/icons-react";
import { useEffect, useState } from "react";
import { Navigate, useNavigate, useSearchParams } from "react-router";
import { Logo } from "../../../components/Logo";
import { messageOf } from "../../../lib/api-client";
import { useAuth } from "../../../lib/auth";
import { planPriceText } from "../api/pricing";
import { useMockPayment, usePlan } from "../api/billing";
import { READABLE_TEXT } from "../../../components/a11y";

/**
 * The demo payment imitates a real one: a simulated processing wait, then time to read the
 * success view (or an invite-only refusal) before going back to billing.
 */
const PROCESSING_MS = 2000;
const SUCCESS_REDIRECT_MS = 3000;
const INVITE_REDIRECT_MS = 4000;

type State =
  | { kind: "idle" }
  | { kind: "processing" }
  | { kind: "success" }
  | { kind: "error"; message: string };

function mentionsInvite(message: string): boolean {
  const m = message.toLowerCase();
  return m.includes("invite-only") || m.includes("invitation only");
}

/** The demo payment page: no charge is made; the server activates the plan. */
export function MockPaymentPage() {
  const [params] = useSearchParams();
  const planId = params.get("planId");
  const planName = params.get("planName");
  const price = params.get("price");
  const navigate = useNavigate();
  const { refreshUser } = useAuth();
  const pay = useMockPayment();
  // The price shown is the server's, whatever the query says.
  const plan = usePlan(planId ?? "");
  const [state, setState] = useState<State>({ kind: "idle" });

  useEffect(() => {
    if (state.kind === "success") {
      const t = window.setTimeout(
        () => navigate("/settings/billing?success=true"),
        SUCCESS_REDIRECT_MS,
      );
      return () => window.clearTimeout(t);
    }
    if (state.kind === "error" && mentionsInvite(state.message)) {
      const t = window.setTimeout(() => navigate("/settings/billing"), INVITE_REDIRECT_MS);
      return () => window.clearTimeout(t);
    }
  }, [state, navigate]);

  if (!planId || !planName || !price) return <Navigate to="/campaigns" replace />;
  const name = plan.data?.data.displayName ?? planName;
  const planError = plan.isError ? messageOf(plan.error as unknown, "Plan not found") : null;

  async function complete(id: string) {
    setState({ kind: "processing" });
    await new Promise((resolve) => window.setTimeout(resolve, PROCESSING_MS));
    try {
      await pay.mutateAsync({ body: { planId: id } });
      await refreshUser();
      setState({ kind: "success" });
    } catch (err) {
      setState({ kind: "error", message: messageOf(err, "Payment failed. Please try again.") });
    }
  }

  return (
    <Center mih="100vh" bg="gray.0" p="md" style={READABLE_TEXT}>
      <Box w="100%" maw={460}>
        <Box mb="md">
          <Logo />
        </Box>
        <Card withBorder radius="md" p="xl" shadow="sm">
          {state.kind === "success" ? (
            <Stack align="center" ta="center">
              <ThemeIcon size={56} radius="xl" color="teal" variant="light">
                <IconCircleCheck size={32} />
              </ThemeIcon>
              <Title order={2}>Payment Successful!</Title>
              <Text c="dimmed">
                Your {name} plan is active. Taking you to your billing page in 3 seconds…
              </Text>
            </Stack>
          ) : (
            <Stack>
              <Group justify="space-between">
                <Title order={2} fz="h3">
                  Complete your purchase
                </Title>
                <Badge variant="light" color="orange">
                  Demo
                </Badge>
              </Group>
              <Alert color="blue" role="note" icon={<IconInfoCircle size={18} />}>
                This is a demo payment. No actual charges will be made.
              </Alert>
              <Group justify="space-between">
                <div>
                  <Text fw={600}>{name} plan</Text>
                  <Text fz="sm" c="dimmed">
                    {plan.data?.data.interval === "yearly" ? "Billed yearly" : "Billed monthly"}
                  </Text>
                </div>
                {plan.data ? (
                  // The demo pays for the plan's own period: a month, or a year for a yearly plan.
                  <Text fz="xl" fw={800}>
                    {planPriceText(plan.data.data).split(" / ")[0]}
                    <Text span fz="sm" c="dimmed" fw={400}>
                      {` / ${plan.data.data.interval === "yearly" ? "year" : "month"}`}
                    </Text>
                  </Text>
                ) : plan.isLoading ? (
                  <Skeleton h={28} w={110} aria-label="Loading price" />
                ) : null}
              </Group>
              <Divider />
              <Card withBorder radius="md" p="md" bg="gray.0">
                <Group gap="sm">
                  <IconCreditCard size={22} />
                  <div>
                    <Text fz="sm" fw={600}>
                      Test card •••• 4242
                    </Text>
                    <Text fz="xs" c="dimmed">
                      Expires 12/25
                    </Text>
                  </div>
                </Group>
              </Card>
              {planError ? (
                <Alert color="red" role="alert">
                  {planError}
                </Alert>
              ) : null}
              {state.kind === "error" ? (
                <Alert color="red" role="alert">
                  {state.message}
                  {mentionsInvite(state.message) ? " Taking you back to billing…" : null}
                </Alert>
              ) : null}
              <Button
                size="md"
                onClick={() => void complete(planId)}
                disabled={state.kind === "processing" || !plan.data}
                leftSection={
                  state.kind === "processing" ? <Loader size={16} color="white" /> : null
                }
              >
                {state.kind === "processing" ? "Processing payment…" : "Complete Payment"}
              </Button>
              <Group grow>
                <Button
                  variant="default"
                  leftSection={<IconArrowLeft size={16} />}
                  onClick={() => navigate(-1)}
                  disabled={state.kind === "processing"}
                >
                  Back
                </Button>
                <Button
                  variant="subtle"
                  color="gray"
                  onClick={() => navigate("/campaigns")}
                  disabled={state.kind === "processing"}
                >
                  Cancel
                </Button>
              </Group>
            </Stack>
          )}
        </Card>
      </Box>
    </Center>
  );
}
