import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Progress,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
} from "@mantine/core";
import { useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { messageOf } from "../../../lib/api-client";
import { useRequeueEmails, useSendTestEmail, useSystemHealth } from "../api/admin";
import {
  type EmailHealth,
  emailRequeueMessage,
  formatBytes,
  formatUptime,
  formatWait,
  usageLevel,
  usagePercent,
} from "../api/system";

const checkedFormat = new Intl.DateTimeFormat("en-IN", { timeStyle: "medium" });

function SystemCard({
  title,
  percent,
  children,
}: {
  title: string;
  percent?: number;
  children: ReactNode;
}) {
  const level = percent === undefined ? null : usageLevel(percent);
  return (
    <Card withBorder radius="md" p="md" data-testid={`system-${title}`}>
      <Group justify="space-between" mb="xs" gap="xs">
        <Title order={5}>{title}</Title>
        {level && (
          <Badge color={level === "High" ? "red" : "green"} variant="light">
            {level}
          </Badge>
        )}
      </Group>
      {percent !== undefined && (
        <Progress
          value={Math.min(100, percent)}
          color={level === "High" ? "red" : "teal"}
          mb="xs"
          aria-label={`${title} usage`}
        />
      )}
      <Stack gap={2}>{children}</Stack>
    </Card>
  );
}

function Line({ label, value }: { label: string; value: string }) {
  return (
    <Group justify="space-between" gap="xs" wrap="nowrap">
      <Text fz="sm" c="dimmed">
        {label}
      </Text>
      <Text fz="sm" fw={500} ta="right" style={{ overflowWrap: "anywhere" }}>
        {value}
      </Text>
    </Group>
  );
}

/**
 * Account emails: whether a mail server takes them, what waits, and what was given up this week;
 * staff email themselves a test message, and put the given-up ones back in the queue once the mail
 * server is fixed.
 */
function EmailCard({ email }: { email: EmailHealth }) {
  const requeue = useRequeueEmails();
  const testEmail = useSendTestEmail();
  const queryClient = useQueryClient();
  const [done, setDone] = useState<string | null>(null);
  const refresh = () =>
    queryClient.invalidateQueries({ queryKey: ["get", "/api/admin/system/health"] });
  const onTest = async () => {
    setDone(null);
    try {
      const out = await testEmail.mutateAsync({});
      setDone(
        `A test email is on its way to ${out.data.to}. Waiting and Given up above show how the mail server answers.`,
      );
      await refresh();
      // The sender hands it over within a second or two: read the card again then.
      window.setTimeout(() => void refresh(), 3000);
    } catch {
      // The mutation's error is shown below.
    }
  };
  const onRequeue = async () => {
    setDone(null);
    try {
      const out = await requeue.mutateAsync({});
      setDone(emailRequeueMessage(out.data.requeued, out.data.leftFailed));
      await refresh();
    } catch {
      // The mutation's error is shown below.
    }
  };
  return (
    <SystemCard title="Email">
      <Line
        label="Mail server"
        value={email.mailServer ? "Configured" : "Not set: emails are kept in the outbox"}
      />
      {!email.mailServer && email.waiting > 0 && (
        // Written while a mail server was set, and not sent before it was
        // removed: they go once one is set again (an expired link never does).
        <Line
          label="Waiting"
          value={`${email.waiting.toLocaleString("en-IN")} (oldest ${formatWait(email.oldestWaitingSeconds)}), sent once a mail server is set again`}
        />
      )}
      {email.mailServer && (
        <>
          <Line
            label="Waiting"
            value={
              email.waiting === 0
                ? "None"
                : `${email.waiting.toLocaleString("en-IN")} (oldest ${formatWait(email.oldestWaitingSeconds)})`
            }
          />
          <Line
            label="Given up, last 7 days"
            value={email.failedLast7Days.toLocaleString("en-IN")}
          />
          {email.lastFailure && (
            <Text
              fz="xs"
              c="red.8"
              style={{ overflowWrap: "anywhere" }}
              data-testid="email-last-failure"
            >
              {email.lastFailure.subject}: {email.lastFailure.error}
            </Text>
          )}
          <Stack gap={4} mt="xs" align="flex-start">
            <Group gap="xs">
              <Button
                size="xs"
                variant="default"
                onClick={() => void onTest()}
                loading={testEmail.isPending}
              >
                Send test email
              </Button>
              {email.failedLast7Days > 0 && (
                <Button
                  size="xs"
                  variant="light"
                  onClick={() => void onRequeue()}
                  loading={requeue.isPending}
                >
                  Send failed emails again
                </Button>
              )}
            </Group>
            {done && (
              <Text fz="sm" role="status">
                {done}
              </Text>
            )}
            {requeue.error && (
              <Text fz="sm" c="red" role="alert">
                {messageOf(requeue.error, "The emails could not be put back in the queue.")}
              </Text>
            )}
            {testEmail.error && (
              <Text fz="sm" c="red" role="alert">
                {messageOf(testEmail.error, "The test email could not be sent.")}
              </Text>
            )}
          </Stack>
        </>
      )}
    </SystemCard>
  );
}

/** The server's own health: database, process, event writer, disk and email, refreshed every 30 s. */
export function SystemHealthPanel() {
  const health = useSystemHealth();
  if (health.isLoading) return <Skeleton h={240} radius="md" />;
  if (!health.data) {
    return (
      <Alert color="red" variant="light" title="Failed to fetch system health">
        <Stack gap="xs" align="flex-start">
          <Text fz="sm">{messageOf(health.error, "")}</Text>
          <Button size="xs" variant="light" onClick={() => void health.refetch()}>
            Try Again
          </Button>
        </Stack>
      </Alert>
    );
  }
  const h = health.data.data;
  const poolBusy = h.database.poolSize - h.database.poolIdle;
  const poolPercent = usagePercent(poolBusy, h.database.poolSize);
  const queuePercent = usagePercent(h.eventWriter.queueDepth, h.eventWriter.queueCapacity);
  const diskUsed = h.disk.totalBytes - h.disk.freeBytes;
  const diskPercent = usagePercent(diskUsed, h.disk.totalBytes);
  const ok = h.status === "ok";
  return (
    <Stack gap="md">
      <Card withBorder radius="md" p="md">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Group gap="xs">
            <Badge color={ok ? "green" : "orange"} size="lg">
              {ok ? "Healthy" : "Degraded"}
            </Badge>
            <Text fz="sm" c="dimmed">
              Version {h.version} · up {formatUptime(h.uptimeSeconds)}
            </Text>
          </Group>
          <Text fz="xs" c="dimmed">
            Checked {checkedFormat.format(new Date(h.checkedAt))}
          </Text>
        </Group>
      </Card>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <SystemCard title="Database" percent={poolPercent}>
          <Line label="Backend" value={h.database.backend} />
          <Line label="Latency" value={`${h.database.latencyMs.toLocaleString("en-IN")} ms`} />
          <Line
            label="Connections in use"
            value={`${poolBusy} of ${h.database.poolSize} (${poolPercent}%)`}
          />
        </SystemCard>
        <SystemCard title="CPU" percent={h.process.cpuPercent}>
          <Line label="Server process" value={`${h.process.cpuPercent.toFixed(1)}%`} />
          <Line label="Threads" value={String(h.process.threads)} />
          <Line label="Memory" value={formatBytes(h.process.memoryBytes)} />
        </SystemCard>
        <SystemCard title="Event Writer" percent={queuePercent}>
          <Line
            label="Queued events"
            value={`${h.eventWriter.queueDepth.toLocaleString("en-IN")} of ${h.eventWriter.queueCapacity.toLocaleString("en-IN")} (${queuePercent}%)`}
          />
        </SystemCard>
        <SystemCard title="Disk" percent={diskPercent}>
          <Line
            label="Used"
            value={`${formatBytes(diskUsed)} of ${formatBytes(h.disk.totalBytes)}`}
          />
          <Line label="Free" value={formatBytes(h.disk.freeBytes)} />
          <Line label="Path" value={h.disk.path} />
        </SystemCard>
        <EmailCard email={h.email} />
      </SimpleGrid>
    </Stack>
  );
}
