import { useEffect, useState } from "react";
import { useBlocker, useSearchParams } from "react-router";
import { messageOf } from "../../../lib/api-client";
import { maxOrderError } from "../../../lib/revenue";
import { useUpdateCampaign, type Campaign, type CampaignSettings } from "../api/campaigns";
import { parsePages } from "../api/page-list";
import { basicErrors, type BasicErrors } from "../api/wizard";

/** What the editor changes: the campaign's name, website, switch and settings. */
interface Draft {
  name: string;
  websiteUrl: string;
  isActive: boolean;
  settings: CampaignSettings;
}

const EDITOR_TABS = ["basic", "design", "targeting", "ai", "forms", "tests"];

type EditField = keyof BasicErrors | "maxOrderValue";
type EditErrors = Partial<Record<EditField, string>>;

/** What the last save said, and the editor state it was about: a later change makes it stale. */
interface SaveStatus {
  ok: boolean;
  text: string;
  at: string;
}

/** The errors the editor checks before saving: the name, the website, the largest order. */
function editErrors(draft: Draft): EditErrors {
  const errors: EditErrors = basicErrors(draft);
  const maxOrder = maxOrderError(draft.settings.revenue.maxOrderValue);
  if (maxOrder) errors.maxOrderValue = maxOrder;
  return errors;
}

/** The editor's state as one comparable string. */
function snapshot(draft: Draft, include: string, exclude: string): string {
  return JSON.stringify([draft, parsePages(include), parsePages(exclude)]);
}

function draftOf(c: Campaign): Draft {
  return { name: c.name, websiteUrl: c.websiteUrl, isActive: c.isActive, settings: c.settings };
}

/** Puts the cursor in a field (`edit-<field>`) once the current render is on screen. */
function focusField(field: string) {
  window.setTimeout(() => document.getElementById(`edit-${field}`)?.focus(), 0);
}

/**
 * The campaign editor's state: the draft and the page lists as typed, whether they differ from
 * what the server has (then leaving the page asks first), the open tab, which fields show their
 * errors, and saving (checked first, then sent; what the server saved becomes the new start).
 */
export function useCampaignEditor(campaign: Campaign) {
  const save = useUpdateCampaign();
  const [params] = useSearchParams();
  const [saved, setSaved] = useState<Campaign>(campaign);
  const [draft, setDraft] = useState<Draft>(() => draftOf(campaign));
  const [include, setInclude] = useState(campaign.settings.targeting.includePages.join("\n"));
  const [exclude, setExclude] = useState(campaign.settings.targeting.excludePages.join("\n"));
  const [status, setStatus] = useState<SaveStatus | null>(null);
  // What the server has, in the editor's own terms: the draft differs from it = unsaved changes.
  const [baseline, setBaseline] = useState(() =>
    snapshot(
      draftOf(campaign),
      campaign.settings.targeting.includePages.join("\n"),
      campaign.settings.targeting.excludePages.join("\n"),
    ),
  );
  const current = snapshot(draft, include, exclude);
  const dirty = current !== baseline;
  // A link may open a tab and put the cursor in one field (?tab=targeting&field=maxOrderValue).
  const [tab, setTab] = useState<string | null>(() => {
    const asked = params.get("tab");
    return asked && EDITOR_TABS.includes(asked) ? asked : "basic";
  });
  // Fields the owner has left: only these show their errors (and all of them once Save is pressed).
  const [touched, setTouched] = useState<ReadonlySet<EditField>>(new Set());
  const shown = Object.fromEntries(
    Object.entries(editErrors(draft)).filter(([k]) => touched.has(k as EditField)),
  ) as EditErrors;
  const touch = (field: EditField) =>
    setTouched((t) => (t.has(field) ? t : new Set([...t, field])));
  useEffect(() => {
    const field = params.get("field");
    if (field) focusField(field);
    // Only on arrival: the link's field, once.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirty && currentLocation.pathname !== nextLocation.pathname,
  );
  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      e.returnValue = "";
    };
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [dirty]);
  const s = draft.settings;
  const setSettings = (settings: CampaignSettings) => setDraft((d) => ({ ...d, settings }));
  const setExit = (patch: Partial<CampaignSettings["exitIntent"]>) =>
    setSettings({ ...s, exitIntent: { ...s.exitIntent, ...patch } });
  const setTargeting = (patch: Partial<CampaignSettings["targeting"]>) =>
    setSettings({ ...s, targeting: { ...s.targeting, ...patch } });

  /** Starts again from `next` as the server has it (after a save, or a promoted test variant). */
  function replace(next: Campaign): string {
    setSaved(next);
    const d = draftOf(next);
    const inc = next.settings.targeting.includePages.join("\n");
    const exc = next.settings.targeting.excludePages.join("\n");
    setDraft(d);
    setInclude(inc);
    setExclude(exc);
    const stored = snapshot(d, inc, exc);
    setBaseline(stored);
    return stored;
  }

  async function saveAll(settings: CampaignSettings = draft.settings) {
    setStatus(null);
    // The name and website are checked here first, where the owner can see and fix them.
    const invalid = Object.keys(basicErrors(draft)) as (keyof BasicErrors)[];
    if (invalid.length > 0) {
      setTouched(new Set([...touched, ...invalid]));
      setTab("basic");
      setStatus({
        ok: false,
        text: "Please fix the highlighted fields in Basic Settings.",
        at: current,
      });
      focusField(invalid[0]!);
      return;
    }
    // Then the largest order counted, on the Targeting tab.
    if (maxOrderError(settings.revenue.maxOrderValue)) {
      touch("maxOrderValue");
      setTab("targeting");
      setStatus({ ok: false, text: "Please fix the highlighted field in Targeting.", at: current });
      focusField("maxOrderValue");
      return;
    }
    const merged = {
      ...saved,
      ...draft,
      settings: {
        ...settings,
        targeting: {
          ...settings.targeting,
          includePages: parsePages(include),
          excludePages: parsePages(exclude),
        },
      },
    };
    try {
      const result = await save.mutateAsync({
        params: { path: { id: campaign._id } },
        body: merged,
      });
      const stored = replace(result.campaign);
      setStatus({ ok: true, text: "Campaign updated successfully!", at: stored });
    } catch (err) {
      setStatus({ ok: false, text: messageOf(err, "Failed to update campaign"), at: current });
    }
  }

  return {
    /** The campaign as last saved (the header and summary show it). */
    saved,
    draft,
    setDraft,
    settings: s,
    setSettings,
    setExit,
    setTargeting,
    include,
    setInclude,
    exclude,
    setExclude,
    dirty,
    saving: save.isPending,
    /** The last save's outcome while it is still about what is on screen. */
    status: status?.at === current ? status : null,
    tab,
    setTab,
    /** The errors of the fields the owner has left. */
    errors: shown,
    touch,
    focusField,
    save: saveAll,
    /** Drops the draft for the campaign as the server now has it. */
    replace,
    blocker,
  };
}

export type CampaignEditor = ReturnType<typeof useCampaignEditor>;
