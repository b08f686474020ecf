import { Box, Group, Stack, Text, Tooltip } from "@mantine/core";

/** Monthly bars; each bar names its month and value for screen readers and on hover. */
export function BarChart({
  bars,
  color = "indigo",
  height = 160,
  label,
}: {
  bars: { key: string; short: string; long: string; value: number; text: string }[];
  color?: string;
  height?: number;
  label: string;
}) {
  const max = Math.max(1, ...bars.map((b) => b.value));
  return (
    <Box role="img" aria-label={label}>
      <Group gap={4} align="flex-end" wrap="nowrap" h={height}>
        {bars.map((b) => (
          <Tooltip key={b.key} label={`${b.long}: ${b.text}`} withinPortal>
            <Box
              data-testid={`bar-${b.key}`}
              style={{
                flex: 1,
                minWidth: 0,
                height: `${Math.max(2, (b.value / max) * 100)}%`,
                background:
                  b.value > 0 ? `var(--mantine-color-${color}-5)` : "var(--mantine-color-gray-2)",
                borderRadius: "4px 4px 0 0",
              }}
            />
          </Tooltip>
        ))}
      </Group>
      <Group gap={4} wrap="nowrap" mt={4}>
        {bars.map((b) => (
          <Stack key={b.key} gap={0} style={{ flex: 1, minWidth: 0 }} align="center">
            <Text fz={10} c="dimmed" truncate="end" maw="100%">
              {b.short}
            </Text>
          </Stack>
        ))}
      </Group>
    </Box>
  );
}
