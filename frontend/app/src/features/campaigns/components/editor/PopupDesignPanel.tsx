import { Skeleton } from "@mantine/core";
import { useDefaultSettings } from "../../api/campaigns";
import { fromDesigner, toDesigner } from "../../api/designer";
import type { CampaignEditor } from "../../hooks/useCampaignEditor";
import { PopupDesigner } from "../PopupDesigner";

/** Popup Design: the designer over the campaign's settings, once the defaults it resets to are in. */
export function PopupDesignPanel({ editor }: { editor: CampaignEditor }) {
  const defaults = useDefaultSettings();
  const { settings: s, setSettings, save } = editor;
  if (!defaults.data) return <Skeleton h={300} />;
  return (
    <PopupDesigner
      settings={toDesigner(s)}
      defaults={toDesigner(defaults.data.settings)}
      base={s}
      onChange={(v) => setSettings(fromDesigner(s, v))}
      onSave={(v) => void save(fromDesigner(s, v))}
    />
  );
}
