import { Stack, Switch, TextInput } from "@mantine/core";
import type { CampaignEditor } from "../../hooks/useCampaignEditor";
import { ExitIntentFields } from "../SettingsFields";

/** Basic Settings: name and website (their errors once left), the two switches, exit intent. */
export function BasicSettingsPanel({ editor }: { editor: CampaignEditor }) {
  const { draft, setDraft, errors, touch, settings: s, setExit } = editor;
  return (
    <Stack maw={640}>
      <TextInput
        id="edit-name"
        label="Campaign name"
        required
        value={draft.name}
        error={errors.name}
        onBlur={() => touch("name")}
        onChange={(e) => {
          const name = e.currentTarget.value;
          setDraft((d) => ({ ...d, name }));
        }}
      />
      <TextInput
        id="edit-websiteUrl"
        label="Website URL"
        type="url"
        required
        value={draft.websiteUrl}
        error={errors.websiteUrl}
        onBlur={() => touch("websiteUrl")}
        onChange={(e) => {
          const websiteUrl = e.currentTarget.value;
          setDraft((d) => ({ ...d, websiteUrl }));
        }}
      />
      <Switch
        label="Campaign active"
        checked={draft.isActive}
        onChange={(e) => {
          const isActive = e.currentTarget.checked;
          setDraft((d) => ({ ...d, isActive }));
        }}
      />
      <Switch
        label="Exit intent enabled"
        checked={s.exitIntent.enabled}
        onChange={(e) => setExit({ enabled: e.currentTarget.checked })}
      />
      <ExitIntentFields value={s.exitIntent} onChange={setExit} />
    </Stack>
  );
}
