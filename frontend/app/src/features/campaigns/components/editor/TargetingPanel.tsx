import { NumberInput, SimpleGrid, Stack, Textarea } from "@mantine/core";
import { intInput } from "../../api/wizard";
import type { CampaignEditor } from "../../hooks/useCampaignEditor";
import { DevicesField, MaxOrderField } from "../SettingsFields";

/** Targeting: devices, timing, the page lists as typed, and the largest order counted. */
export function TargetingPanel({ editor }: { editor: CampaignEditor }) {
  const { settings: s, setSettings, setTargeting, errors, touch } = editor;
  return (
    <Stack maw={720}>
      <DevicesField value={s.targeting.devices} onChange={(devices) => setTargeting({ devices })} />
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <NumberInput
          label="Min time on page (seconds)"
          min={0}
          allowDecimal={false}
          value={s.targeting.minTimeOnPage}
          onChange={(v) => setTargeting({ minTimeOnPage: intInput(v, 0, 0) })}
        />
        <NumberInput
          label="Max displays per session"
          min={1}
          allowDecimal={false}
          value={s.targeting.maxDisplaysPerSession}
          onChange={(v) => setTargeting({ maxDisplaysPerSession: intInput(v, 1, 1) })}
        />
        <NumberInput
          label="Cooldown between displays (minutes)"
          min={1}
          allowDecimal={false}
          value={s.targeting.cooldownMinutes}
          onChange={(v) => setTargeting({ cooldownMinutes: intInput(v, 1440, 1) })}
        />
      </SimpleGrid>
      <Textarea
        label="Include pages"
        description="One URL or path per line (use * as a wildcard). Leave empty to show on every page."
        autosize
        minRows={3}
        value={editor.include}
        onChange={(e) => editor.setInclude(e.currentTarget.value)}
      />
      <Textarea
        label="Exclude pages"
        description="One URL or path per line."
        autosize
        minRows={3}
        value={editor.exclude}
        onChange={(e) => editor.setExclude(e.currentTarget.value)}
      />
      <MaxOrderField
        id="edit-maxOrderValue"
        value={s.revenue.maxOrderValue}
        error={errors.maxOrderValue}
        onBlur={() => touch("maxOrderValue")}
        onChange={(maxOrderValue) => setSettings({ ...s, revenue: { maxOrderValue } })}
      />
    </Stack>
  );
}
