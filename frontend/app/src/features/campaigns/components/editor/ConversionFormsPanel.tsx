import type { CampaignEditor } from "../../hooks/useCampaignEditor";
import { ConversionFormsEditor } from "../ConversionFormsEditor";

/** Conversion Forms: the popup's lead forms. */
export function ConversionFormsPanel({ editor }: { editor: CampaignEditor }) {
  const { settings: s, setSettings } = editor;
  return (
    <ConversionFormsEditor value={s.forms} onChange={(forms) => setSettings({ ...s, forms })} />
  );
}
