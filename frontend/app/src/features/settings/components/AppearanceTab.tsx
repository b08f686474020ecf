import { Badge, Group, Radio, Stack, Text } from "@mantine/core";

/** ConvertAssist is light-theme only; a dark theme is coming. */
export function AppearanceTab() {
  return (
    <Stack maw={480}>
      <Radio.Group label="Theme" value="light" description="The dashboard uses the light theme.">
        <Stack mt="xs" gap="xs">
          <Radio value="light" label="Light" />
          <Group gap="xs">
            <Radio value="dark" label="Dark" disabled />
            <Badge variant="light" color="gray" size="sm">
              Coming soon
            </Badge>
          </Group>
        </Stack>
      </Radio.Group>
      <Text fz="xs" c="dimmed">
        More appearance options are coming soon.
      </Text>
    </Stack>
  );
}
