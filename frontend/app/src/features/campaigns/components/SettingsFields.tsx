import {
  ActionIcon,
  Checkbox,
  Group,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  TextInput,
} from "@mantine/core";
import { IconTrash } from "@tabler/icons-react";
import type { CampaignSettings } from "../api/campaigns";
import { MAX_ORDER_MAX, MAX_ORDER_MIN } from "../../../lib/revenue";
import { intInput } from "../api/wizard";

type ExitIntent = CampaignSettings["exitIntent"];
type TrustBadge = CampaignSettings["popup"]["design"]["trustBadges"][number];

const SENSITIVITIES = [
  { value: "low", label: "Low" },
  { value: "medium", label: "Medium" },
  { value: "high", label: "High" },
];

/** Sensitivity, Delay (ms, at least 0) and Cooldown (min, at least 1); blank means the minimum. */
export function ExitIntentFields({
  value,
  onChange,
}: {
  value: ExitIntent;
  onChange: (patch: Partial<ExitIntent>) => void;
}) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }}>
      <Select
        label="Sensitivity"
        data={SENSITIVITIES}
        value={value.sensitivity}
        allowDeselect={false}
        onChange={(v) => onChange({ sensitivity: v ?? "medium" })}
      />
      <NumberInput
        label="Delay (ms)"
        min={0}
        step={100}
        allowDecimal={false}
        value={value.delay}
        onChange={(v) => onChange({ delay: intInput(v, 0, 0) })}
      />
      <NumberInput
        label="Cooldown (min)"
        min={1}
        allowDecimal={false}
        value={value.cooldown}
        onChange={(v) => onChange({ cooldown: intInput(v, 1, 1) })}
      />
    </SimpleGrid>
  );
}

/** A device a campaign can target. */
export type Device = "desktop" | "mobile" | "tablet";

/** The Devices checkboxes. */
export function DevicesField({
  value,
  onChange,
}: {
  value: Device[];
  onChange: (devices: Device[]) => void;
}) {
  return (
    <Checkbox.Group label="Devices" value={value} onChange={(v) => onChange(v as Device[])}>
      <Group mt="xs">
        <Checkbox value="desktop" label="Desktop" />
        <Checkbox value="mobile" label="Mobile" />
        <Checkbox value="tablet" label="Tablet" />
      </Group>
    </Checkbox.Group>
  );
}

/** Editable trust badges: icon, text and a remove button each. */
export function TrustBadgeList({
  badges,
  onChange,
  label = "Badge",
}: {
  badges: TrustBadge[];
  onChange: (badges: TrustBadge[]) => void;
  /** Prefix of the inputs' accessible names. */
  label?: string;
}) {
  const set = (i: number, patch: Partial<TrustBadge>) =>
    onChange(badges.map((b, j) => (j === i ? { ...b, ...patch } : b)));
  return (
    <Stack gap="xs">
      {badges.map((b, i) => (
        <Group key={i} gap="xs" wrap="nowrap">
          <TextInput
            aria-label={`${label} ${i + 1} icon`}
            w={64}
            value={b.icon}
            onChange={(e) => set(i, { icon: e.currentTarget.value })}
          />
          <TextInput
            aria-label={`${label} ${i + 1} text`}
            style={{ flex: 1 }}
            value={b.text}
            onChange={(e) => set(i, { text: e.currentTarget.value })}
          />
          <ActionIcon
            variant="light"
            color="red"
            aria-label={`Remove ${label.toLowerCase()} ${i + 1}`}
            onClick={() => onChange(badges.filter((_, j) => j !== i))}
          >
            <IconTrash size={16} />
          </ActionIcon>
        </Group>
      ))}
    </Stack>
  );
}

/**
 * Largest order counted (₹): whole rupees, 1 to 1,00,00,000, shown in Indian grouping. Blank is
 * NaN, so the editor can tell it apart and refuse to save it.
 */
export function MaxOrderField({
  id,
  value,
  error,
  onChange,
  onBlur,
}: {
  id: string;
  value: number;
  error?: string;
  onChange: (value: number) => void;
  onBlur: () => void;
}) {
  return (
    <NumberInput
      id={id}
      label="Largest order counted (₹)"
      description="Your site reports each order's value with caTrack('purchase', …), unverified. An order above this amount is kept but not added to revenue. Applies to orders reported from now on."
      min={MAX_ORDER_MIN}
      max={MAX_ORDER_MAX}
      clampBehavior="none"
      allowDecimal={false}
      allowNegative={false}
      thousandSeparator=","
      thousandsGroupStyle="lakh"
      value={Number.isNaN(value) ? "" : value}
      error={error}
      onBlur={onBlur}
      onChange={(v) => onChange(typeof v === "number" ? v : Number.NaN)}
      maw={320}
    />
  );
}
