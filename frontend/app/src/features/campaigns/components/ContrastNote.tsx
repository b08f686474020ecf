import { Alert, ColorSwatch, Group, Stack, Text } from "@mantine/core";
import type { PublicCampaign } from "../../../../../widget/src/types";
import { AA, contrastAdvice, formatRatio, type Contrast } from "../api/contrast";

function Row({ label, c }: { label: string; c: Contrast }) {
  const ok = c.ratio >= AA;
  return (
    <Group gap={6} wrap="nowrap">
      <ColorSwatch color={c.background} size={16} aria-hidden />
      <Text fz="sm">
        {label}: {c.textName} text, <strong>{formatRatio(c.ratio)}</strong>{" "}
        {ok ? "(passes)" : "(fails)"}
      </Text>
    </Group>
  );
}

/**
 * The contrast of the popup's text on the owner's colours (WCAG AA asks 4.5:1), with the text
 * colour the widget picks by itself, and a warning when the owner's colours fail.
 */
export function ContrastNote({ popup }: { popup: PublicCampaign["popup"] }) {
  const a = contrastAdvice(popup);
  if (!a) return null;
  const header = a.onHeader;
  return (
    <Stack gap={6} mt="sm" data-testid="contrast-note">
      <Text fz="sm" fw={500}>
        Text contrast (WCAG AA asks {AA}:1)
      </Text>
      <Row label="Button and visitor messages" c={a.onPrimary} />
      <Row label="Header" c={header} />
      {header.ratio < AA ? (
        <Alert color="red" variant="light" title="Hard to read" data-testid="contrast-warning">
          No text colour reads on both ends of your header&apos;s gradient: {header.textName} text
          is only {formatRatio(header.ratio)} on {header.background}. Pick a primary and a secondary
          colour closer in lightness.
        </Alert>
      ) : a.whiteFails !== null ? (
        <Alert
          color="yellow"
          variant="light"
          title="White text would be hard to read"
          data-testid="contrast-warning"
        >
          White on {a.onPrimary.background} is only {formatRatio(a.whiteFails)}, below {AA}:1. The
          popup writes {a.onPrimary.textName} text ({a.onPrimary.text}) on it instead,{" "}
          {formatRatio(a.onPrimary.ratio)}, as the preview shows.
        </Alert>
      ) : null}
    </Stack>
  );
}
