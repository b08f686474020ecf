import { Alert, Code, Group, Skeleton, Stack, Tabs, Text } from "@mantine/core";
import { useState } from "react";
import { CopyButton } from "../../../components/CopyButton";
import { useAuth } from "../../../lib/auth";
import { rememberCopiedScript } from "../../../lib/first-run";
import { useConversionScript, useWidgetScript } from "../api/campaigns";

/** The Widget Script / Conversion Script tabs an owner installs a campaign with, each copyable. */
export function InstallationScripts({ campaignId }: { campaignId: string }) {
  const widget = useWidgetScript(campaignId, true);
  const conversion = useConversionScript(campaignId, true);
  const [copyError, setCopyError] = useState<string | null>(null);
  const { user } = useAuth();
  const failed = widget.isError || conversion.isError;

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
    </Stack>
  );
}
