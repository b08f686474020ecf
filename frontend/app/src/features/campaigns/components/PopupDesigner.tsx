import {
  Button,
  Card,
  ColorInput,
  ColorSwatch,
  Grid,
  Group,
  SegmentedControl,
  Select,
  Slider,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
  UnstyledButton,
} from "@mantine/core";
import type { CampaignSettings } from "../api/campaigns";
import {
  COLOR_PRESETS,
  FONTS,
  QUICK_BADGES,
  RADIUS_PRESETS,
  fromDesigner,
  type DesignerSettings,
} from "../api/designer";
import type { PublicCampaign } from "../../../../../widget/src/types";
import { ContrastNote } from "./ContrastNote";
import { PopupPreview } from "./PopupPreview";
import { TrustBadgeList } from "./SettingsFields";

/**
 * The standalone popup designer: takes designer settings plus change and save
 * callbacks, with a live preview. Without `onSave` (a test variant, sent with its test) there
 * is no save button.
 */
export function PopupDesigner({
  settings,
  defaults,
  base,
  onChange,
  onSave,
  resetLabel = "Reset to Default",
}: {
  settings: DesignerSettings;
  defaults: DesignerSettings;
  /** The campaign settings the preview draws the rest from. */
  base: CampaignSettings;
  onChange: (next: DesignerSettings) => void;
  onSave?: (next: DesignerSettings) => void;
  /** The reset button's words: it goes back to `defaults`. */
  resetLabel?: string;
}) {
  const set = (patch: Partial<DesignerSettings>) => onChange({ ...settings, ...patch });
  const full = fromDesigner(base, settings);
  const addBadge = (badge: { icon: string; text: string }) => {
    if (settings.trustBadges.length >= 8) return;
    set({ trustBadges: [...settings.trustBadges, badge] });
  };

  return (
    <Grid gutter="lg">
      <Grid.Col span={{ base: 12, lg: 6 }}>
        <Stack>
          <Card withBorder radius="md" p="md">
            <Title order={4} mb="sm">
              Header Content
            </Title>
            <Stack gap="sm">
              <TextInput
                label="Main Title"
                value={settings.headerTitle}
                onChange={(e) => set({ headerTitle: e.currentTarget.value })}
              />
              <TextInput
                label="Subtitle"
                value={settings.headerSubtitle}
                onChange={(e) => set({ headerSubtitle: e.currentTarget.value })}
              />
            </Stack>
          </Card>
          <Card withBorder radius="md" p="md">
            <Title order={4} mb="sm">
              Layout & Design
            </Title>
            <Stack gap="sm">
              <div>
                <Text fz="sm" fw={500} mb={4}>
                  Size
                </Text>
                <SegmentedControl
                  aria-label="Size"
                  data={[
                    { value: "small", label: "Small" },
                    { value: "medium", label: "Medium" },
                    { value: "large", label: "Large" },
                  ]}
                  value={settings.popupSize}
                  onChange={(popupSize) => set({ popupSize })}
                />
              </div>
              <div>
                <Text fz="sm" fw={500} mb={4}>
                  Border radius: {settings.borderRadius}px
                </Text>
                <Slider
                  aria-label="Border radius"
                  thumbLabel="Border radius"
                  min={0}
                  max={32}
                  value={settings.borderRadius}
                  onChange={(borderRadius) => set({ borderRadius })}
                />
                <Group gap={6} mt="xs">
                  {RADIUS_PRESETS.map((p) => (
                    <Button
                      key={p.value}
                      size="compact-xs"
                      variant={settings.borderRadius === p.value ? "filled" : "default"}
                      onClick={() => set({ borderRadius: p.value })}
                    >
                      {p.label}
                    </Button>
                  ))}
                </Group>
              </div>
              <Select
                label="Font family"
                data={FONTS}
                value={settings.fontFamily}
                allowDeselect={false}
                onChange={(v) => set({ fontFamily: v ?? "Inter" })}
              />
            </Stack>
          </Card>
          <Card withBorder radius="md" p="md">
            <Title order={4} mb="sm">
              Colors
            </Title>
            <Group gap="sm" mb="sm">
              {COLOR_PRESETS.map((p) => (
                <UnstyledButton
                  key={p.name}
                  aria-label={p.name}
                  onClick={() => set({ primaryColor: p.primary, secondaryColor: p.secondary })}
                >
                  <Group gap={4}>
                    <ColorSwatch color={p.primary} size={18} />
                    <ColorSwatch color={p.secondary} size={18} />
                    <Text fz="xs">{p.name}</Text>
                  </Group>
                </UnstyledButton>
              ))}
            </Group>
            <Group grow>
              <ColorInput
                label="Primary"
                format="hex"
                value={settings.primaryColor}
                onChange={(primaryColor) => set({ primaryColor })}
              />
              <ColorInput
                label="Secondary"
                format="hex"
                value={settings.secondaryColor}
                onChange={(secondaryColor) => set({ secondaryColor })}
              />
            </Group>
            <ContrastNote popup={full.popup as PublicCampaign["popup"]} />
          </Card>
          <Card withBorder radius="md" p="md">
            <Title order={4} mb="sm">
              Messages
            </Title>
            <Stack gap="sm">
              <TextInput
                label="Form title"
                value={settings.formTitle}
                onChange={(e) => set({ formTitle: e.currentTarget.value })}
              />
              <TextInput
                label="Form subtitle"
                value={settings.formSubtitle}
                onChange={(e) => set({ formSubtitle: e.currentTarget.value })}
              />
              <TextInput
                label="Submit button text"
                value={settings.submitButtonText}
                onChange={(e) => set({ submitButtonText: e.currentTarget.value })}
              />
            </Stack>
          </Card>
          <Card withBorder radius="md" p="md">
            <Group justify="space-between" mb="sm">
              <Title order={4}>Trust Badges</Title>
              <Switch
                label="Show badges"
                checked={settings.showTrustBadges}
                onChange={(e) => set({ showTrustBadges: e.currentTarget.checked })}
              />
            </Group>
            <TrustBadgeList
              label="Designer badge"
              badges={settings.trustBadges}
              onChange={(trustBadges) => set({ trustBadges })}
            />
            <Text fz="xs" c="dimmed" mt="sm" mb={4}>
              Quick Add
            </Text>
            <Group gap={6}>
              {QUICK_BADGES.map((b) => (
                <Button key={b.text} size="compact-xs" variant="light" onClick={() => addBadge(b)}>
                  {b.icon} {b.text}
                </Button>
              ))}
              <Button
                size="compact-xs"
                variant="default"
                onClick={() => addBadge({ icon: "⭐", text: "Custom" })}
              >
                Add Custom Badge
              </Button>
            </Group>
          </Card>
          <Group justify="space-between">
            <Button variant="default" onClick={() => onChange(defaults)}>
              {resetLabel}
            </Button>
            {onSave && (
              <Button
                onClick={() => {
                  onChange(settings);
                  onSave(settings);
                }}
              >
                Save Design
              </Button>
            )}
          </Group>
        </Stack>
      </Grid.Col>
      <Grid.Col span={{ base: 12, lg: 6 }}>
        <Text fw={600} mb="xs">
          Preview
        </Text>
        <PopupPreview settings={full} sample />
      </Grid.Col>
    </Grid>
  );
}
