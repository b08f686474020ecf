import { Alert, Button, Card, Group, Modal, Stack, Text, Title } from "@mantine/core";
import { IconArrowUpRight, IconHistory, IconPlayerPlay, IconX } from "@tabler/icons-react";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "react-router";
import { messageOf } from "../../../lib/api-client";
import { useAuth } from "../../../lib/auth";
import { formatDate } from "../../../lib/format";
import { useCancelSubscription, useResumeSubscription } from "../api/billing";
import { canCancel, canResume, upgradeLabel, type Subscription } from "../api/subscription";
import { PLANS_ANCHOR } from "./PlanGrid";

type Result = { ok: boolean; message: string };

/** Upgrade (scrolls to the plans), the full history, and cancelling a paid plan. */
export function QuickActions({ subscription }: { subscription?: Subscription }) {
  const [confirming, setConfirming] = useState(false);
  const [result, setResult] = useState<Result | null>(null);
  const cancel = useCancelSubscription();
  const resume = useResumeSubscription();
  const queryClient = useQueryClient();
  const { refreshUser } = useAuth();
  const cancellable = canCancel(subscription);

  async function refresh() {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: ["get", "/api/billing/subscription"] }),
      queryClient.invalidateQueries({ queryKey: ["get", "/api/billing/usage"] }),
      refreshUser(),
    ]);
  }

  async function confirmCancel() {
    try {
      const answer = await cancel.mutateAsync({});
      setResult({ ok: true, message: answer.message });
      await refresh();
    } catch (err) {
      setResult({ ok: false, message: messageOf(err, "Failed to cancel subscription") });
    } finally {
      setConfirming(false);
    }
  }

  async function resumeSubscription() {
    try {
      const answer = await resume.mutateAsync({});
      setResult({ ok: true, message: answer.message });
      await refresh();
    } catch (err) {
      setResult({ ok: false, message: messageOf(err, "Failed to resume subscription") });
    }
  }

  return (
    <Card withBorder radius="md" p="lg" h="100%">
      <Title order={2} fz="h4" mb="md">
        Quick Actions
      </Title>
      <Stack gap="sm">
        <Button
          leftSection={<IconArrowUpRight size={16} />}
          onClick={() =>
            document.getElementById(PLANS_ANCHOR)?.scrollIntoView({ behavior: "smooth" })
          }
        >
          {upgradeLabel(subscription?.status)}
        </Button>
        <Button
          component={Link}
          to="/billing/history"
          variant="default"
          leftSection={<IconHistory size={16} />}
        >
          View Full History
        </Button>
        {subscription?.setByStaff ? (
          // A plan set up by our team is not billed: there is nothing to cancel.
          <Text fz="xs" c="dimmed">
            Your plan was set up by our team. To change it, contact us.
          </Text>
        ) : (
          <>
            <Button
              variant="light"
              color="red"
              leftSection={<IconX size={16} />}
              disabled={!cancellable}
              onClick={() => {
                setResult(null);
                setConfirming(true);
              }}
            >
              Cancel Subscription
            </Button>
            {!cancellable && !result ? (
              <Text fz="xs" c="dimmed">
                {subscription?.cancelAtPeriodEnd
                  ? `Your subscription is already set to end on ${formatDate(subscription.subscriptionEndsAt)}.`
                  : "There is no paid subscription to cancel."}
              </Text>
            ) : null}
            {canResume(subscription) ? (
              <Button
                variant="light"
                color="teal"
                leftSection={<IconPlayerPlay size={16} />}
                loading={resume.isPending}
                onClick={() => {
                  setResult(null);
                  void resumeSubscription();
                }}
              >
                Resume Subscription
              </Button>
            ) : null}
          </>
        )}
        {result ? (
          <Alert
            color={result.ok ? "teal" : "red"}
            role={result.ok ? "status" : "alert"}
            withCloseButton
            closeButtonLabel="Dismiss"
            onClose={() => setResult(null)}
          >
            {result.message}
          </Alert>
        ) : null}
      </Stack>
      <Modal
        opened={confirming}
        onClose={() => setConfirming(false)}
        title="Cancel your subscription?"
        size={480}
        centered
      >
        <Stack>
          <Text fz="sm">
            Your {subscription?.planName} plan stays active until{" "}
            {formatDate(subscription?.subscriptionEndsAt)}. After that your account moves to the
            free plan.
          </Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setConfirming(false)}>
              Keep Subscription
            </Button>
            <Button color="red" loading={cancel.isPending} onClick={() => void confirmCancel()}>
              Cancel Subscription
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Card>
  );
}
