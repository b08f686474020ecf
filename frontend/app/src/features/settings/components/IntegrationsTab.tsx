import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Modal,
  Skeleton,
  Stack,
  Text,
  Title,
} from "@mantine/core";
import {
  IconEye,
  IconMailPlus,
  IconKey,
  IconPencil,
  IconPlus,
  IconSend,
  IconTrash,
} from "@tabler/icons-react";
import { useState, type ReactNode } from "react";
import { READABLE_TEXT } from "../../../components/a11y";
import { messageOf } from "../../../lib/api-client";
import { formatDate } from "../../../lib/format";
import { endpointName, formatWhen, overlapUntil, type Endpoint } from "../api/integrations";
import {
  useDeleteEndpoint,
  useEndpoints,
  useRefreshWebhooks,
  useRevealSecret,
  useRotateSecret,
  useSendTest,
} from "../api/webhooks";
import { DeliveryLog } from "./DeliveryLog";
import { EndpointModal, type EndpointEditing } from "./EndpointModal";
import { SecretModal, type ShownSecret } from "./SecretModal";
import { VerifySnippets } from "./VerifySnippets";

type Notice = { ok: boolean; text: string };

function EndpointStatus({ endpoint }: { endpoint: Endpoint }) {
  if (endpoint.enabled)
    return (
      <Badge color="green" variant="light">
        Enabled
      </Badge>
    );
  if (endpoint.disabledReason)
    return (
      <Badge color="red" variant="light">
        Switched off
      </Badge>
    );
  return (
    <Badge color="gray" variant="light">
      Disabled
    </Badge>
  );
}

function EndpointCard({
  endpoint,
  busy,
  onTest,
  onEdit,
  onReveal,
  onRotate,
  onDelete,
}: {
  endpoint: Endpoint;
  busy: "test" | "reveal" | null;
  onTest: () => void;
  onEdit: () => void;
  onReveal: () => void;
  onRotate: () => void;
  onDelete: () => void;
}) {
  const name = endpointName(endpoint);
  const overlap = overlapUntil(endpoint, new Date());
  const webhook = endpoint.kind !== "mailchimp";
  return (
    <Card withBorder radius="md" p="md" component="li" aria-label={name}>
      <Stack gap="xs">
        <Group justify="space-between" align="flex-start" gap="xs">
          <div style={{ minWidth: 0, flex: "1 1 220px" }}>
            <Text fw={600} style={{ overflowWrap: "anywhere" }}>
              {name}
            </Text>
            {name !== endpoint.url ? (
              <Text fz="xs" c="dimmed" ff="monospace" style={{ overflowWrap: "anywhere" }}>
                {endpoint.url}
              </Text>
            ) : null}
          </div>
          <Group gap={6} wrap="nowrap" style={{ flexShrink: 0 }}>
            {webhook ? null : (
              <Badge color="indigo" variant="light">
                Mailchimp
              </Badge>
            )}
            <EndpointStatus endpoint={endpoint} />
          </Group>
        </Group>
        <Group gap={6}>
          {endpoint.eventTypes.map((t) => (
            <Badge key={t} variant="outline" color="gray" tt="none" ff="monospace" fw={500}>
              {t}
            </Badge>
          ))}
        </Group>
        {endpoint.disabledReason ? (
          <Alert color="red" variant="light" p="xs">
            <Text fz="sm">
              {endpoint.disabledReason}. Fix the receiver, then switch it back on with Edit.
            </Text>
          </Alert>
        ) : endpoint.failingSince && endpoint.enabled ? (
          <Alert color="yellow" variant="light" p="xs">
            <Text fz="sm">
              Failing since {formatWhen(endpoint.failingSince)}. After 5 days without a successful
              delivery it is switched off and you get an email.
            </Text>
          </Alert>
        ) : null}
        {overlap ? (
          <Text fz="xs" c="dimmed">
            The previous signing secret also signs until {formatWhen(overlap.toISOString())}.
          </Text>
        ) : null}
        <Text fz="xs" c="dimmed">
          Added {formatDate(endpoint.createdAt)}
        </Text>
        <Group gap="xs">
          <Button
            size="xs"
            variant="light"
            leftSection={<IconSend size={14} />}
            loading={busy === "test"}
            onClick={onTest}
          >
            Send test event
          </Button>
          <Button
            size="xs"
            variant="default"
            leftSection={<IconPencil size={14} />}
            onClick={onEdit}
          >
            Edit
          </Button>
          {webhook ? (
            <>
              <Button
                size="xs"
                variant="default"
                leftSection={<IconEye size={14} />}
                loading={busy === "reveal"}
                onClick={onReveal}
              >
                Show secret
              </Button>
              <Button
                size="xs"
                variant="default"
                leftSection={<IconKey size={14} />}
                onClick={onRotate}
              >
                Rotate secret
              </Button>
            </>
          ) : null}
          <Button
            size="xs"
            variant="subtle"
            color="red"
            leftSection={<IconTrash size={14} />}
            onClick={onDelete}
            aria-label={`Delete ${name}`}
          >
            Delete
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

/** A yes/no question before something that cannot be undone. */
function Confirm({
  opened,
  title,
  children,
  confirmLabel,
  color,
  loading,
  onConfirm,
  onClose,
}: {
  opened: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  color?: string;
  loading: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={title}
      centered
      styles={{ content: READABLE_TEXT }}
    >
      <Stack gap="md">
        {children}
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onClose} disabled={loading}>
            Cancel
          </Button>
          <Button color={color} loading={loading} onClick={onConfirm}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/**
 * Settings → Integrations: the owner's webhook endpoints and Mailchimp audience pushes, their
 * signing secrets, test events, the delivery log and how to verify a delivery.
 */
export function IntegrationsTab() {
  const endpoints = useEndpoints();
  const sendTest = useSendTest();
  const reveal = useRevealSecret();
  const rotate = useRotateSecret();
  const remove = useDeleteEndpoint();
  const refresh = useRefreshWebhooks();
  const [editing, setEditing] = useState<EndpointEditing | null>(null);
  const [secret, setSecret] = useState<ShownSecret | null>(null);
  const [rotating, setRotating] = useState<Endpoint | null>(null);
  const [deleting, setDeleting] = useState<Endpoint | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [busy, setBusy] = useState<{ id: string; what: "test" | "reveal" } | null>(null);
  const list = endpoints.data?.data ?? [];

  async function test(e: Endpoint) {
    setNotice(null);
    setBusy({ id: e.id, what: "test" });
    try {
      const queued = await sendTest.mutateAsync({ params: { path: { id: e.id } } });
      await refresh();
      setNotice({
        ok: true,
        text: `Test event ${queued.data.eventId} sent to ${endpointName(e)}: its delivery appears in the log below.`,
      });
    } catch (err) {
      setNotice({ ok: false, text: messageOf(err, "Failed to send the test event") });
    } finally {
      setBusy(null);
    }
  }

  async function show(e: Endpoint) {
    setNotice(null);
    setBusy({ id: e.id, what: "reveal" });
    try {
      const got = await reveal.mutateAsync({ params: { path: { id: e.id } } });
      setSecret({ secret: got.data.secret, reason: "revealed", endpointName: endpointName(e) });
    } catch (err) {
      setNotice({ ok: false, text: messageOf(err, "Failed to show the signing secret") });
    } finally {
      setBusy(null);
    }
  }

  async function confirmRotate() {
    if (!rotating) return;
    try {
      const got = await rotate.mutateAsync({ params: { path: { id: rotating.id } } });
      await refresh();
      setSecret({
        secret: got.data.secret,
        reason: "rotated",
        overlapUntil: got.data.previousSecretExpiresAt
          ? new Date(got.data.previousSecretExpiresAt)
          : null,
        endpointName: endpointName(rotating),
      });
    } catch (err) {
      setNotice({ ok: false, text: messageOf(err, "Failed to rotate the signing secret") });
    } finally {
      setRotating(null);
    }
  }

  async function confirmDelete() {
    if (!deleting) return;
    try {
      await remove.mutateAsync({ params: { path: { id: deleting.id } } });
      await refresh();
      setNotice({ ok: true, text: `${endpointName(deleting)} was deleted.` });
    } catch (err) {
      setNotice({ ok: false, text: messageOf(err, "Failed to delete the endpoint") });
    } finally {
      setDeleting(null);
    }
  }

  return (
    <Stack gap="lg">
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" gap="sm">
          <div style={{ flex: "1 1 320px", minWidth: 0 }}>
            <Title order={2} fz="h4">
              Webhooks
            </Title>
            <Text fz="sm" c="dimmed">
              Send leads, conversations and purchases to your own tools the moment they happen: your
              CRM, Zapier, Make, n8n or a Google Sheet. Every delivery is signed and retried until
              it gets through.
            </Text>
          </div>
          <Group gap="xs">
            <Button
              variant="default"
              leftSection={<IconMailPlus size={16} />}
              onClick={() => setEditing({ kind: "mailchimp" })}
            >
              Connect Mailchimp
            </Button>
            <Button
              leftSection={<IconPlus size={16} />}
              onClick={() => setEditing({ kind: "webhook" })}
            >
              Add endpoint
            </Button>
          </Group>
        </Group>
        {notice ? (
          <Alert
            color={notice.ok ? "teal" : "red"}
            role={notice.ok ? "status" : "alert"}
            withCloseButton
            closeButtonLabel="Dismiss"
            onClose={() => setNotice(null)}
          >
            <Text fz="sm" style={{ overflowWrap: "anywhere" }}>
              {notice.text}
            </Text>
          </Alert>
        ) : null}
        {endpoints.isLoading ? (
          <Stack gap="xs">
            <Skeleton h={120} />
          </Stack>
        ) : endpoints.isError ? (
          <Alert color="red" role="alert">
            {messageOf(endpoints.error, "Failed to load your endpoints. Please try again.")}
          </Alert>
        ) : list.length === 0 ? (
          <Card withBorder radius="md" p="lg">
            <Stack align="center" gap={4}>
              <Text fw={600}>No endpoints yet</Text>
              <Text c="dimmed" fz="sm" ta="center">
                Add the URL of a receiver (a Zapier, Make or n8n catch hook works as it is), or
                connect a Mailchimp audience to add every lead to it.
              </Text>
            </Stack>
          </Card>
        ) : (
          <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: "none" }}>
            {list.map((e) => (
              <EndpointCard
                key={e.id}
                endpoint={e}
                busy={busy?.id === e.id ? busy.what : null}
                onTest={() => void test(e)}
                onEdit={() => setEditing({ endpoint: e })}
                onReveal={() => void show(e)}
                onRotate={() => setRotating(e)}
                onDelete={() => setDeleting(e)}
              />
            ))}
          </Stack>
        )}
      </Stack>

      <DeliveryLog endpoints={list} onResent={(text) => setNotice({ ok: true, text })} />
      <VerifySnippets />

      <EndpointModal
        editing={editing}
        onClose={() => setEditing(null)}
        onCreated={(created) => {
          setEditing(null);
          if (created.secret)
            setSecret({
              secret: created.secret,
              reason: "created",
              endpointName: endpointName(created),
            });
          else setNotice({ ok: true, text: `${endpointName(created)} was connected.` });
        }}
      />
      <SecretModal shown={secret} onClose={() => setSecret(null)} />
      <Confirm
        opened={rotating !== null}
        title="Rotate the signing secret?"
        confirmLabel="Rotate secret"
        loading={rotate.isPending}
        onConfirm={() => void confirmRotate()}
        onClose={() => setRotating(null)}
      >
        <Text fz="sm">
          A new secret signs every delivery from now on. For the next 24 hours the current secret
          signs too (<code>webhook-signature</code> carries both signatures), so your receiver keeps
          working while you give it the new one.
        </Text>
      </Confirm>
      <Confirm
        opened={deleting !== null}
        title="Delete this endpoint?"
        confirmLabel="Delete endpoint"
        color="red"
        loading={remove.isPending}
        onConfirm={() => void confirmDelete()}
        onClose={() => setDeleting(null)}
      >
        <Text fz="sm" style={{ overflowWrap: "anywhere" }}>
          {deleting ? endpointName(deleting) : ""} stops receiving events at once, and its delivery
          log is deleted with it.
        </Text>
      </Confirm>
    </Stack>
  );
}
