import { Badge, Card, Divider, Group, List, Stack, Text, ThemeIcon } from "@mantine/core";
import { IconCheck } from "@tabler/icons-react";
import { formatPrice, perInterval } from "../api/display";
import { limitLines, numberOrZero, PLAN_FLAGS, type PlanFormValues } from "../api/plan-form";

/** The plan as a customer would see its card, from the form as it stands. */
export function PlanPreview({ values }: { values: PlanFormValues }) {
  const features = values.features.map((f) => f.trim()).filter((f) => f !== "");
  const flags = PLAN_FLAGS.filter((f) => values.limits[f.key]);
  return (
    <Card
      withBorder
      radius="md"
      p="lg"
      data-testid="plan-preview"
      style={values.popular ? { borderColor: "var(--mantine-color-indigo-5)", borderWidth: 2 } : {}}
    >
      <Stack gap="xs">
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Text fw={700} fz="lg" style={{ overflowWrap: "anywhere" }}>
            {values.displayName.trim() || "Plan Name"}
          </Text>
          <Group gap={4}>
            {values.popular && <Badge color="indigo">Most Popular</Badge>}
            {!values.active && (
              <Badge color="gray" variant="light">
                Inactive
              </Badge>
            )}
          </Group>
        </Group>
        <Text fz="xs" c="dimmed" ff="monospace" style={{ overflowWrap: "anywhere" }}>
          {values.name.trim() || "plan-name"}
        </Text>
        <Text fz={28} fw={800} lh={1.1}>
          {formatPrice(numberOrZero(values.price), values.currency.trim() || "INR")}
          <Text span fz="sm" c="dimmed" fw={400}>
            {perInterval(values.interval)}
          </Text>
        </Text>
        <Divider />
        <Stack gap={0}>
          {limitLines({
            campaigns: numberOrZero(values.limits.campaigns),
            visitorsPerMonth: numberOrZero(values.limits.visitorsPerMonth),
            aiConversations: numberOrZero(values.limits.aiConversations),
          }).map((line) => (
            <Text key={line} fz="sm">
              {line}
            </Text>
          ))}
        </Stack>
        {flags.length > 0 && (
          <Group gap={4}>
            {flags.map((f) => (
              <Badge key={f.key} size="sm" variant="light">
                {f.label}
              </Badge>
            ))}
          </Group>
        )}
        {features.length > 0 ? (
          <List
            size="sm"
            spacing={4}
            icon={
              <ThemeIcon color="teal" size={18} radius="xl">
                <IconCheck size={12} />
              </ThemeIcon>
            }
          >
            {features.map((f) => (
              <List.Item key={f} style={{ overflowWrap: "anywhere" }}>
                {f}
              </List.Item>
            ))}
          </List>
        ) : (
          <Text fz="sm" c="dimmed">
            No features yet.
          </Text>
        )}
      </Stack>
    </Card>
  );
}
