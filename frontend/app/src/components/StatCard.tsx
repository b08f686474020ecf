import {
  Card,
  Group,
  Text,
  ThemeIcon,
  type MantineBreakpoint,
  type MantineSpacing,
} from "@mantine/core";
import type { IconUsers } from "@tabler/icons-react";
import type { ReactNode } from "react";

/** The card's measures: `md` in the admin area and payment history, `lg` for the owner's headline figures. */
const SIZES = {
  md: { padding: "md", figure: 24, icon: 36 },
  lg: { padding: "lg", figure: 26, icon: 38 },
} as const;

/**
 * A labelled figure with an icon, on every page that shows figures in cards. The figure is the
 * label's next sibling (the journeys read it that way) and carries `data-testid="stat-<label>"`.
 */
export function StatCard({
  label,
  value,
  icon: Icon,
  color,
  caption,
  captionColor = "dimmed",
  captionLineHeight,
  size = "md",
  iconVisibleFrom,
  gap = "md",
}: {
  label: string;
  value: string;
  icon: typeof IconUsers;
  /** The icon's colour; the theme's primary colour when left out. */
  color?: string;
  /** A line under the figure: where it comes from, or how it changed. */
  caption?: ReactNode;
  captionColor?: string;
  /** Tighter for a caption that is a note on the figure's source (the dashboard's revenue). */
  captionLineHeight?: number;
  size?: keyof typeof SIZES;
  /** Leaves the icon out below this breakpoint, where the cards sit two to a row and are narrow. */
  iconVisibleFrom?: MantineBreakpoint;
  /** Room between the text and the icon: "xs" leaves the admin area's long labels on one line. */
  gap?: MantineSpacing;
}) {
  const s = SIZES[size];
  return (
    <Card withBorder radius="md" p={s.padding}>
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap={gap}>
        <div style={{ flex: 1, minWidth: 0 }}>
          <Text fz="xs" c="dimmed" tt="uppercase" fw={700} style={{ overflowWrap: "break-word" }}>
            {label}
          </Text>
          <Text fz={s.figure} fw={800} data-testid={`stat-${label}`}>
            {value}
          </Text>
          {caption ? (
            <Text fz="xs" c={captionColor} lh={captionLineHeight} component="div">
              {caption}
            </Text>
          ) : null}
        </div>
        <ThemeIcon
          variant="light"
          color={color}
          size={s.icon}
          radius="md"
          visibleFrom={iconVisibleFrom}
        >
          <Icon size={20} />
        </ThemeIcon>
      </Group>
    </Card>
  );
}
