import { Group, Progress, Text } from "@mantine/core";
import { limitText } from "../api/plan-form";

/** Usage against a limit, the bar capped at 100%; a limit of -1 is unlimited. */
export function UsageBar({ label, used, limit }: { label: string; used: number; limit: number }) {
  const unlimited = limit < 0;
  const percent = unlimited || limit === 0 ? 0 : Math.min(100, (used / limit) * 100);
  return (
    <div>
      <Group justify="space-between" mb={4} gap="xs">
        <Text fz="sm">{label}</Text>
        <Text fz="sm" fw={600}>
          {used.toLocaleString("en-IN")} / {limitText(limit)}
        </Text>
      </Group>
      <Progress
        value={percent}
        color={percent >= 90 ? "red" : percent >= 70 ? "yellow" : "indigo"}
        aria-label={`${label} usage`}
      />
    </div>
  );
}
