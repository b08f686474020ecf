import { Card, Group, Text, ThemeIcon } from "@mantine/core";
import type { IconUsers } from "@tabler/icons-react";
import type { ReactNode } from "react";

/** A labelled figure with an icon (left out on phones, where the cards are narrow). */
export function StatCard({
  label,
  value,
  icon: Icon,
  color = "indigo",
  caption,
}: {
  label: string;
  value: string;
  icon: typeof IconUsers;
  color?: string;
  caption?: ReactNode;
}) {
  return (
    <Card withBorder radius="md" p="md">
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
        <div style={{ flex: 1, minWidth: 0 }}>
          <Text fz="xs" c="dimmed" tt="uppercase" fw={700} style={{ overflowWrap: "break-word" }}>
            {label}
          </Text>
          <Text fz={24} fw={800} data-testid={`stat-${label}`}>
            {value}
          </Text>
          {caption && (
            <Text fz="xs" c="dimmed" component="div">
              {caption}
            </Text>
          )}
        </div>
        <ThemeIcon variant="light" color={color} size={36} radius="md" visibleFrom="xs">
          <Icon size={20} />
        </ThemeIcon>
      </Group>
    </Card>
  );
}
