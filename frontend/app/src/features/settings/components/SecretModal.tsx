import { Alert, Button, Code, Group, Modal, Stack, Text } from "@mantine/core";
import { READABLE_TEXT } from "../../../components/a11y";
import { CopyButton } from "../../../components/CopyButton";

/** Why a secret is on screen. */
export type ShownSecret = {
  secret: string;
  /** Created with the endpoint, rotated (the old one signs until `overlapUntil`), or asked for. */
  reason: "created" | "rotated" | "revealed";
  overlapUntil?: Date | null;
  endpointName: string;
};

const untilFormat = new Intl.DateTimeFormat("en-IN", {
  day: "numeric",
  month: "short",
  hour: "2-digit",
  minute: "2-digit",
  hour12: false,
});

/** Shows a signing secret with a copy button, and what to do with it. */
export function SecretModal({
  shown,
  onClose,
}: {
  shown: ShownSecret | null;
  onClose: () => void;
}) {
  return (
    <Modal
      opened={shown !== null}
      onClose={onClose}
      title={
        shown?.reason === "rotated"
          ? "New signing secret"
          : shown?.reason === "created"
            ? "Endpoint added"
            : "Signing secret"
      }
      centered
      size="lg"
      styles={{ content: READABLE_TEXT }}
    >
      {shown ? (
        <Stack gap="md">
          <Text fz="sm">
            {shown.reason === "created"
              ? `Deliveries to ${shown.endpointName} are signed with this secret. Copy it now and keep it with your receiver: it verifies that a request really comes from ConvertAssist.`
              : `The signing secret of ${shown.endpointName}. Keep it with your receiver, never in a web page.`}
          </Text>
          <Group gap="xs" wrap="nowrap" align="center">
            <Code
              aria-label="Signing secret"
              fz="sm"
              style={{ flex: 1, minWidth: 0, overflowWrap: "anywhere", padding: "8px 10px" }}
            >
              {shown.secret}
            </Code>
            <CopyButton text={shown.secret} label="Copy secret" />
          </Group>
          {shown.reason === "rotated" ? (
            <Alert color="indigo" variant="light" title="Both secrets sign for 24 hours">
              From now on every delivery is signed with this new secret. Until{" "}
              {shown.overlapUntil ? untilFormat.format(shown.overlapUntil) : "24 hours from now"},
              the previous secret signs too: <Code>webhook-signature</Code> carries both signatures,
              space-separated, so your receiver keeps verifying while you give it the new one.
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button onClick={onClose}>Done</Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}
