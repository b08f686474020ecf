import { ActionIcon, Button, Group, Stack, Text, TextInput } from "@mantine/core";
import { IconPlus, IconX } from "@tabler/icons-react";
import { useState } from "react";
import { addFeature } from "../api/plan-form";

/** Features as a list: Enter (or Add) adds the trimmed text; empties and duplicates are ignored. */
export function FeatureEntry({
  features,
  onChange,
}: {
  features: string[];
  onChange: (next: string[]) => void;
}) {
  const [draft, setDraft] = useState("");
  const add = () => {
    onChange(addFeature(features, draft));
    setDraft("");
  };
  return (
    <Stack gap="xs">
      <Group gap="xs" wrap="nowrap" align="flex-end">
        <TextInput
          label="Features"
          description="Press Enter to add"
          placeholder="e.g. AI sales assistant"
          value={draft}
          onChange={(e) => setDraft(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter" && !e.nativeEvent.isComposing) {
              e.preventDefault();
              add();
            }
          }}
          style={{ flex: 1 }}
        />
        <Button variant="light" leftSection={<IconPlus size={16} />} onClick={add}>
          Add
        </Button>
      </Group>
      {features.length === 0 ? (
        <Text fz="xs" c="dimmed">
          Add at least one feature.
        </Text>
      ) : (
        <Stack gap={4} data-testid="feature-list">
          {features.map((f) => (
            <Group
              key={f}
              justify="space-between"
              wrap="nowrap"
              gap="xs"
              px="sm"
              py={4}
              style={{ background: "var(--mantine-color-gray-0)", borderRadius: 6 }}
            >
              <Text fz="sm" style={{ overflowWrap: "anywhere" }}>
                {f}
              </Text>
              <ActionIcon
                variant="subtle"
                color="gray"
                size="sm"
                aria-label={`Remove ${f}`}
                onClick={() => onChange(features.filter((x) => x !== f))}
              >
                <IconX size={14} />
              </ActionIcon>
            </Group>
          ))}
        </Stack>
      )}
    </Stack>
  );
}
