import { Badge, Box, Button, Group, Paper, Stack, Text, TextInput } from "@mantine/core";
import { useElementSize } from "@mantine/hooks";
import type { CampaignSettings } from "../api/campaigns";

/** The assistant's greeting when the campaign sets no initial message. */
export const DEFAULT_GREETING = "Hi! I noticed you're about to leave. What can I help you with?";

/** The popup's width and height in pixels for each size choice. */
export const POPUP_SIZES: Record<string, { width: number; height: number }> = {
  small: { width: 480, height: 580 },
  medium: { width: 560, height: 680 },
  large: { width: 640, height: 780 },
};

/**
 * The design's text, falling back to the popup's plain fields (title, message, button text and
 * colour) when empty, so a campaign that only set those still previews with its own wording.
 */
export function previewTexts(settings: CampaignSettings) {
  const { popup } = settings;
  const d = popup.design;
  return {
    title: d.headerTitle || popup.title,
    subtitle: d.headerSubtitle || popup.message,
    button: d.submitButtonText || popup.buttonText || "Submit",
    primary: d.primaryColor || popup.buttonColor || "#ff6b6b",
    secondary: d.secondaryColor || d.primaryColor || "#ee5a24",
    greeting: settings.aiSettings.initialMessage || DEFAULT_GREETING,
  };
}

/** The preview's font: the chosen one, then the sans-serif the live widget falls back to. */
export function previewFont(family: string): string {
  const f = family.trim().replace(/["';{}]/g, "");
  return `${f ? `"${f}", ` : ""}system-ui, -apple-system, "Segoe UI", Roboto, sans-serif`;
}

/** The popup as visitors will see it, over a dimmed page, scaled down to fit its column. */
export function PopupPreview({
  settings,
  scale = 0.62,
  sample = false,
}: {
  settings: CampaignSettings;
  scale?: number;
  /** Show a sample exchange under the greeting. */
  sample?: boolean;
}) {
  const d = settings.popup.design;
  const size = POPUP_SIZES[d.popupSize] ?? { width: 560, height: 680 };
  const t = previewTexts(settings);
  const { ref, width } = useElementSize();
  // 16 px padding each side; never larger than `scale`, smaller when the column is narrow.
  const fit = width > 0 ? Math.min(scale, width / size.width) : scale;
  return (
    <Box
      data-testid="popup-preview"
      data-scale={fit.toFixed(3)}
      bg="rgba(15, 23, 42, 0.55)"
      p="md"
      style={{ borderRadius: 12, overflow: "hidden" }}
      h={size.height * fit + 32}
    >
      <Box ref={ref} w="100%">
        <Paper
          shadow="xl"
          style={{
            width: size.width,
            height: size.height,
            transform: `scale(${fit})`,
            transformOrigin: "top left",
            borderRadius: d.borderRadius,
            fontFamily: previewFont(d.fontFamily),
            overflow: "hidden",
            display: "flex",
            flexDirection: "column",
          }}
          data-popup-size={d.popupSize}
        >
          <Box
            p="lg"
            style={{
              background: `linear-gradient(135deg, ${t.primary}, ${t.secondary})`,
              color: "white",
            }}
            data-testid="preview-header"
          >
            <Group justify="space-between" align="flex-start">
              <div>
                <Text fw={800} fz={24} c="white" style={{ fontFamily: "inherit" }}>
                  {t.title}
                </Text>
                <Text fz="sm" c="white" opacity={0.9} style={{ fontFamily: "inherit" }}>
                  {t.subtitle}
                </Text>
              </div>
              <Text fz={22} c="white" aria-hidden>
                ×
              </Text>
            </Group>
            {d.showTrustBadges && d.trustBadges.length > 0 ? (
              <Group gap={6} mt="sm">
                {d.trustBadges.map((b, i) => (
                  <Badge key={`${b.text}-${i}`} variant="white" color="dark" radius="sm">
                    {b.icon} {b.text}
                  </Badge>
                ))}
              </Group>
            ) : null}
          </Box>
          <Stack p="lg" gap="md" style={{ flex: 1 }}>
            <Paper bg="gray.1" p="sm" radius="md" maw="85%">
              <Text fz="sm" style={{ fontFamily: "inherit" }}>
                {t.greeting}
              </Text>
            </Paper>
            {sample ? (
              <>
                <Paper p="sm" radius="md" maw="80%" ml="auto" style={{ background: t.primary }}>
                  <Text fz="sm" c="white" style={{ fontFamily: "inherit" }}>
                    Do you deliver to Pune? What does shipping cost?
                  </Text>
                </Paper>
                <Paper bg="gray.1" p="sm" radius="md" maw="85%">
                  <Text fz="sm" style={{ fontFamily: "inherit" }}>
                    Yes! Delivery to Pune takes 3–5 days and is free above ₹999.
                  </Text>
                </Paper>
              </>
            ) : null}
            <Box style={{ flex: 1 }} />
            <Paper withBorder p="md" radius="md">
              <Text fw={700} style={{ fontFamily: "inherit" }}>
                {d.formTitle}
              </Text>
              <Text fz="sm" c="dimmed" mb="sm" style={{ fontFamily: "inherit" }}>
                {d.formSubtitle}
              </Text>
              <Group gap="xs" wrap="nowrap">
                <TextInput
                  placeholder="you@example.com"
                  disabled
                  style={{ flex: 1 }}
                  aria-label="Email (preview)"
                />
                <Button disabled style={{ background: t.primary, color: "white", opacity: 1 }}>
                  {t.button}
                </Button>
              </Group>
            </Paper>
            <Group gap="xs" wrap="nowrap">
              <TextInput
                placeholder="Type your message…"
                disabled
                style={{ flex: 1 }}
                aria-label="Message (preview)"
              />
              <Button disabled variant="default">
                Send
              </Button>
            </Group>
          </Stack>
        </Paper>
      </Box>
    </Box>
  );
}
