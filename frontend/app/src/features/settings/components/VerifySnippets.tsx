import { Card, Code, Group, Stack, Tabs, Text, Title } from "@mantine/core";
import { CopyButton } from "../../../components/CopyButton";
import { NODE_SNIPPET, PYTHON_SNIPPET } from "../api/integrations";

const SNIPPETS = [
  { value: "node", label: "Node.js", code: NODE_SNIPPET },
  { value: "python", label: "Python", code: PYTHON_SNIPPET },
];

/** How a receiver checks that a delivery is genuine, ready to copy. */
export function VerifySnippets() {
  return (
    <Card withBorder radius="md" p="md">
      <Stack gap="sm">
        <div>
          <Title order={2} fz="h4">
            Verify signatures
          </Title>
          <Text fz="sm" c="dimmed">
            Deliveries follow the Standard Webhooks specification: <Code>webhook-signature</Code>{" "}
            holds <Code>v1,</Code> and the base64 HMAC-SHA256 of{" "}
            <Code>{"{webhook-id}.{webhook-timestamp}.{body}"}</Code>, keyed with the base64-decoded
            part of the secret after <Code>whsec_</Code>. Check it against the raw body and refuse
            timestamps more than 5 minutes old. The <Code>standardwebhooks</Code> packages for Node,
            Python and other languages do the same.
          </Text>
        </div>
        <Tabs defaultValue="node" keepMounted={false}>
          <Tabs.List>
            {SNIPPETS.map((s) => (
              <Tabs.Tab key={s.value} value={s.value}>
                {s.label}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {SNIPPETS.map((s) => (
            <Tabs.Panel key={s.value} value={s.value} pt="sm">
              <Stack gap="xs">
                <Group justify="flex-end">
                  <CopyButton text={s.code} label={`Copy ${s.label} code`} />
                </Group>
                {/* Code keeps its lines and indentation: the box scrolls sideways on narrow screens. */}
                <div
                  tabIndex={0}
                  role="region"
                  aria-label={`${s.label} verification code`}
                  style={{
                    overflow: "auto",
                    maxHeight: 420,
                    borderRadius: "var(--mantine-radius-sm)",
                    background: "var(--mantine-color-gray-0)",
                  }}
                >
                  <Code block fz="xs" style={{ width: "max-content", minWidth: "100%" }}>
                    {s.code}
                  </Code>
                </div>
              </Stack>
            </Tabs.Panel>
          ))}
        </Tabs>
      </Stack>
    </Card>
  );
}
