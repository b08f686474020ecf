import { Button, Group, Paper, Text } from "@mantine/core";

/**
 * The bar at the foot of the window while editing: whether there is anything to save, what the
 * last save did, and the Save button, always in view.
 */
export function SaveBar({
  dirty,
  saving,
  status,
  onSave,
}: {
  dirty: boolean;
  saving: boolean;
  status: { ok: boolean; text: string } | null;
  onSave: () => void;
}) {
  const text = status ? status.text : dirty ? "You have unsaved changes" : "All changes saved";
  const colour = status && !status.ok ? "red" : dirty ? "orange" : "teal";
  return (
    <Paper
      withBorder
      shadow="md"
      radius="md"
      p="sm"
      data-testid="save-bar"
      style={{ position: "sticky", bottom: 12, zIndex: 10 }}
    >
      <Group justify="space-between" gap="sm" wrap="nowrap">
        <Text
          fz="sm"
          fw={600}
          c={colour}
          role={status && !status.ok ? "alert" : "status"}
          style={{ minWidth: 0 }}
        >
          {text}
        </Text>
        <Button onClick={onSave} loading={saving} style={{ flexShrink: 0 }}>
          Save changes
        </Button>
      </Group>
    </Paper>
  );
}
