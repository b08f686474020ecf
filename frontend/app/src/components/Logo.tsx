import { Group, Text, ThemeIcon } from "@mantine/core";
import { IconArrowBarRight } from "@tabler/icons-react";

export function Logo({ size = "md" }: { size?: "sm" | "md" | "lg" }) {
  const text = size === "lg" ? "xl" : size === "sm" ? "md" : "lg";
  return (
    <Group gap={8} wrap="nowrap">
      <ThemeIcon radius="md" size={size === "lg" ? 36 : 30} variant="filled">
        <IconArrowBarRight size={18} />
      </ThemeIcon>
      <Text fw={800} fz={text} c="dark">
        ConvertAssist
      </Text>
    </Group>
  );
}
