import { Group, SimpleGrid, Stack, Text, Textarea } from "@mantine/core";
import type { CampaignEditor } from "../../hooks/useCampaignEditor";
import { AssistantPanel } from "../AssistantPanel";

const AI_LIMITS = [
  { key: "initialMessage", label: "Initial message", max: 1000, warn: null, rows: 2 },
  { key: "knowledgeBase", label: "Knowledge base", max: 10000, warn: 9000, rows: 8 },
  { key: "businessInfo", label: "Business information", max: 2000, warn: 1800, rows: 4 },
  { key: "customInstructions", label: "Custom instructions", max: 1000, warn: null, rows: 3 },
] as const;

/** AI Settings: the assistant's four texts with their limits, beside a way to try it. */
export function AiSettingsPanel({
  campaignId,
  editor,
}: {
  campaignId: string;
  editor: CampaignEditor;
}) {
  const { settings: s, setSettings } = editor;
  return (
    <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="xl">
      <Stack>
        {AI_LIMITS.map((f) => {
          const value = s.aiSettings[f.key];
          return (
            <Stack key={f.key} gap={4}>
              <Textarea
                label={f.label}
                autosize
                minRows={f.rows}
                maxLength={f.max}
                value={value}
                onChange={(e) => {
                  const v = e.currentTarget.value.slice(0, f.max);
                  setSettings({ ...s, aiSettings: { ...s.aiSettings, [f.key]: v } });
                }}
              />
              <Group justify="space-between">
                {f.warn !== null && value.length > f.warn ? (
                  <Text fz="xs" c="orange">
                    You are close to the {f.max.toLocaleString("en-IN")}-character limit.
                  </Text>
                ) : (
                  <span />
                )}
                <Text fz="xs" c="dimmed">
                  {value.length}/{f.max}
                </Text>
              </Group>
            </Stack>
          );
        })}
      </Stack>
      <AssistantPanel
        campaignId={campaignId}
        knowledgeBase={s.aiSettings.knowledgeBase}
        businessInfo={s.aiSettings.businessInfo}
      />
    </SimpleGrid>
  );
}
