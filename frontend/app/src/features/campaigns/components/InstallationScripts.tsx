import { Alert, Code, Group, Skeleton, Stack, Tabs, Text } from "@mantine/core";
import { useState } from "react";
import { CopyButton } from "../../../components/CopyButton";
import { useAuth } from "../../../lib/auth";
import { rememberCopiedScript } from "../../../lib/first-run";
import { useConversionScript, useWidgetScript } from "../api/campaigns";
import { cspDirectives, widgetOrigin } from "../api/csp";

/** The Widget Script / Conversion Script tabs an owner installs a campaign with, each copyable. */
export function InstallationScripts({ campaignId }: { campaignId: string }) {
  const widget = useWidgetScript(campaignId, true);
  const conversion = useConversionScript(campaignId, true);
  const [copyError, setCopyError] = useState<string | null>(null);
  const { user } = useAuth();
  const failed = widget.isError || conversion.isError;
  const origin = widget.data ? widgetOrigin(widget.data.script) : null;

  return (
    <Stack gap="xs">
      <Text fw={600} fz="sm">
        Installation Scripts
      </Text>
      {failed ? (
        <Alert color="red" role="alert">
          Failed to load scripts
        </Alert>
      ) : null}
      {copyError ? (
        <Alert color="red" role="alert">
          {copyError}
        </Alert>
      ) : null}
      <Tabs defaultValue="widget" variant="outline">
        <Tabs.List>
          <Tabs.Tab value="widget">Widget Script</Tabs.Tab>
          <Tabs.Tab value="conversion">Conversion Script</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="widget" pt="sm">
          {widget.data ? (
            <Stack gap="xs">
              <Text fz="xs" c="dimmed">
                Paste this before the closing &lt;/body&gt; tag on every page of your site.
              </Text>
              <Code block style={{ whiteSpace: "pre-wrap", wordBreak: "break-all" }}>
                {widget.data.script}
              </Code>
              <Group>
                <CopyButton
                  text={widget.data.script}
                  onCopied={() => {
                    if (user) rememberCopiedScript(user._id);
                  }}
                  onError={() => setCopyError("Failed to copy widget script")}
                />
              </Group>
            </Stack>
          ) : widget.isLoading ? (
            <Skeleton h={60} />
          ) : null}
        </Tabs.Panel>
        <Tabs.Panel value="conversion" pt="sm">
          {conversion.data ? (
            <Stack gap="xs">
              <Text fz="xs" c="dimmed">
                Put this on your order confirmation page, with your order's total and id.
              </Text>
              <Code block style={{ whiteSpace: "pre-wrap", wordBreak: "break-all" }}>
                {conversion.data.scriptContent}
              </Code>
              <Group>
                <CopyButton
                  text={conversion.data.scriptContent}
                  onError={() => setCopyError("Failed to copy conversion script")}
                />
              </Group>
            </Stack>
          ) : conversion.isLoading ? (
            <Skeleton h={60} />
          ) : null}
        </Tabs.Panel>
      </Tabs>
      {origin ? (
        <CspDirectives
          origin={origin}
          onCopyError={() => setCopyError("Failed to copy the CSP directives")}
        />
      ) : null}
    </Stack>
  );
}

/** What a site that sends a Content-Security-Policy adds for the widget (see docs/widget.md). */
function CspDirectives({ origin, onCopyError }: { origin: string; onCopyError: () => void }) {
  const lines = cspDirectives(origin);
  const text = lines.map((l) => `${l.directive};`).join("\n");
  return (
    <Stack gap={6} data-testid="csp-directives">
      <Text fw={600} fz="sm">
        Site with a Content-Security-Policy?
      </Text>
      <Text fz="xs" c="dimmed">
        Add this server, {origin}, to two directives of your policy and keep the sources they
        already list (&apos;self&apos; stands for them). Nothing else is needed, not even
        &apos;unsafe-inline&apos;.
      </Text>
      {/* Lines break between words first, so the origin stays whole where it fits. */}
      <Code block style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>
        {text}
      </Code>
      <Stack gap={2} component="ul" m={0} pl="md">
        {lines.map((l) => (
          <Text key={l.directive} component="li" fz="xs" c="dimmed">
            <Code>{l.directive.split(" ")[0]}</Code>: {l.why}
          </Text>
        ))}
      </Stack>
      <Group>
        <CopyButton text={text} label="Copy directives" onError={onCopyError} />
      </Group>
    </Stack>
  );
}
