import {
  Badge,
  Button,
  Card,
  Center,
  Group,
  Modal,
  NumberInput,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Switch,
  Tabs,
  Text,
  TextInput,
  Textarea,
  Title,
} from "@mantine/core";
import { useQueryClient } from "@tanstack/react-query";
import { IconExternalLink } from "@tabler/icons-react";
import { useEffect, useState } from "react";
import { Link, useBlocker, useParams, useSearchParams } from "react-router";
import { $api, messageOf } from "../../../lib/api-client";
import { formatInr } from "../../../lib/format";
import { ReportedRevenueCaption, HeldOrdersNotice } from "../../../components/RevenueNotes";
import { maxOrderError } from "../../../lib/revenue";
import {
  useCampaignAnalytics,
  useDefaultSettings,
  type Campaign,
  type CampaignSettings,
} from "../api/campaigns";
import { fromDesigner, toDesigner } from "../api/designer";
import { parsePages } from "../api/page-list";
import { basicErrors, intInput, type BasicErrors } from "../api/wizard";
import { AssistantPanel } from "../components/AssistantPanel";
import { ConversionFormsEditor } from "../components/ConversionFormsEditor";
import { PopupDesigner } from "../components/PopupDesigner";
import { DevicesField, ExitIntentFields, MaxOrderField } from "../components/SettingsFields";

interface Draft {
  name: string;
  websiteUrl: string;
  isActive: boolean;
  settings: CampaignSettings;
}

const AI_LIMITS = [
  { key: "initialMessage", label: "Initial message", max: 1000, warn: null, rows: 2 },
  { key: "knowledgeBase", label: "Knowledge base", max: 10000, warn: 9000, rows: 8 },
  { key: "businessInfo", label: "Business information", max: 2000, warn: 1800, rows: 4 },
  { key: "customInstructions", label: "Custom instructions", max: 1000, warn: null, rows: 3 },
] as const;

const TABS = ["basic", "design", "targeting", "ai", "forms"];

function Editor({ campaign }: { campaign: Campaign }) {
  const queryClient = useQueryClient();
  const defaults = useDefaultSettings();
  const save = $api.useMutation("put", "/api/campaigns/{id}");
  const analytics = useCampaignAnalytics(campaign._id);
  const [params] = useSearchParams();
  const [saved, setSaved] = useState<Campaign>(campaign);
  const [draft, setDraft] = useState<Draft>({
    name: campaign.name,
    websiteUrl: campaign.websiteUrl,
    isActive: campaign.isActive,
    settings: campaign.settings,
  });
  const [include, setInclude] = useState(campaign.settings.targeting.includePages.join("\n"));
  const [exclude, setExclude] = useState(campaign.settings.targeting.excludePages.join("\n"));
  // What the last save said, and the editor state it was about: a later change makes it stale.
  const [status, setStatus] = useState<{ ok: boolean; text: string; at: string } | null>(null);
  // What the server has, in the editor's own terms: the draft differs from it = unsaved changes.
  const [baseline, setBaseline] = useState(() =>
    snapshot(
      {
        name: campaign.name,
        websiteUrl: campaign.websiteUrl,
        isActive: campaign.isActive,
        settings: campaign.settings,
      },
      campaign.settings.targeting.includePages.join("\n"),
      campaign.settings.targeting.excludePages.join("\n"),
    ),
  );
  const current = snapshot(draft, include, exclude);
  const dirty = current !== baseline;
  // A link may open a tab and put the cursor in one field (?tab=targeting&field=maxOrderValue).
  const [tab, setTab] = useState<string | null>(() => {
    const asked = params.get("tab");
    return asked && TABS.includes(asked) ? asked : "basic";
  });
  // Fields the owner has left: only these show their errors (and all of them once Save is pressed).
  const [touched, setTouched] = useState<ReadonlySet<EditField>>(new Set());
  const shown = Object.fromEntries(
    Object.entries(editErrors(draft)).filter(([k]) => touched.has(k as EditField)),
  ) as EditErrors;
  const touch = (field: EditField) =>
    setTouched((t) => (t.has(field) ? t : new Set([...t, field])));
  const focusField = (field: string) =>
    window.setTimeout(() => document.getElementById(`edit-${field}`)?.focus(), 0);
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
      window.setTimeout(() => document.getElementById(`edit-${invalid[0]}`)?.focus(), 0);
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
      setSaved(result.campaign);
      const next = {
        name: result.campaign.name,
        websiteUrl: result.campaign.websiteUrl,
        isActive: result.campaign.isActive,
        settings: result.campaign.settings,
      };
      const inc = result.campaign.settings.targeting.includePages.join("\n");
      const exc = result.campaign.settings.targeting.excludePages.join("\n");
      setDraft(next);
      setInclude(inc);
      setExclude(exc);
      const stored = snapshot(next, inc, exc);
      setBaseline(stored);
      queryClient.setQueryData(
        ["get", "/api/campaigns/{id}", { params: { path: { id: campaign._id } } }],
        result,
      );
      void queryClient.invalidateQueries({ queryKey: ["get", "/api/campaigns"] });
      setStatus({ ok: true, text: "Campaign updated successfully!", at: stored });
    } catch (err) {
      setStatus({ ok: false, text: messageOf(err, "Failed to update campaign"), at: current });
    }
  }

  const rate = saved.analytics.conversionRate;
  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <Group gap="sm" style={{ minWidth: 0 }}>
          <Title order={2} style={{ overflowWrap: "anywhere" }}>
            {saved.name}
          </Title>
          <Badge color={saved.isActive ? "green" : "gray"} variant="light">
            {saved.isActive ? "Active" : "Inactive"}
          </Badge>
        </Group>
        <Group>
          <Button
            variant="default"
            leftSection={<IconExternalLink size={16} />}
            component="a"
            href={`/test-widget?campaign=${campaign._id}`}
            target="_blank"
            rel="noopener"
          >
            Preview
          </Button>
        </Group>
      </Group>
      <Card withBorder radius="md" p="lg">
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="md">
          <div>
            <Text fz="xs" c="dimmed">
              Website
            </Text>
            <Text fw={600} style={{ overflowWrap: "anywhere" }}>
              {saved.websiteUrl}
            </Text>
          </div>
          <div>
            <Text fz="xs" c="dimmed">
              Campaign ID
            </Text>
            <Text fw={600} ff="monospace" fz="xs" style={{ overflowWrap: "anywhere" }}>
              {saved._id}
            </Text>
          </div>
          <div>
            <Text fz="xs" c="dimmed">
              Impressions / Conversions
            </Text>
            <Text fw={600}>
              {saved.analytics.impressions.toLocaleString("en-IN")} /{" "}
              {saved.analytics.conversions.toLocaleString("en-IN")}
            </Text>
          </div>
          <div>
            <Text fz="xs" c="dimmed">
              Conversion rate · Revenue
            </Text>
            <Text fw={600}>
              {rate.toFixed(1)}% · {formatInr(saved.analytics.revenue)}
            </Text>
            <ReportedRevenueCaption />
          </div>
        </SimpleGrid>
        <HeldOrdersNotice
          held={analytics.data?.heldOrders}
          campaignId={campaign._id}
          maxOrderValue={saved.settings.revenue.maxOrderValue}
          mt="md"
          onChangeLimit={() => {
            setTab("targeting");
            focusField("maxOrderValue");
          }}
        />
      </Card>
      <Card withBorder radius="md" p="lg">
        <Tabs
          value={tab}
          onChange={setTab}
          styles={{
            // One row that scrolls sideways on a phone instead of wrapping onto three.
            list: { flexWrap: "nowrap", overflowX: "auto", overflowY: "hidden" },
            tab: { whiteSpace: "nowrap", flexShrink: 0 },
          }}
        >
          <Tabs.List mb="lg">
            <Tabs.Tab value="basic">Basic Settings</Tabs.Tab>
            <Tabs.Tab value="design">Popup Design</Tabs.Tab>
            <Tabs.Tab value="targeting">Targeting</Tabs.Tab>
            <Tabs.Tab value="ai">AI Settings</Tabs.Tab>
            <Tabs.Tab value="forms">Conversion Forms</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="basic">
            <Stack maw={640}>
              <TextInput
                id="edit-name"
                label="Campaign name"
                required
                value={draft.name}
                error={shown.name}
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
                error={shown.websiteUrl}
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
          </Tabs.Panel>
          <Tabs.Panel value="design">
            {defaults.data ? (
              <PopupDesigner
                settings={toDesigner(s)}
                defaults={toDesigner(defaults.data.settings)}
                base={s}
                onChange={(v) => setSettings(fromDesigner(s, v))}
                onSave={(v) => void saveAll(fromDesigner(s, v))}
              />
            ) : (
              <Skeleton h={300} />
            )}
          </Tabs.Panel>
          <Tabs.Panel value="targeting">
            <Stack maw={720}>
              <DevicesField
                value={s.targeting.devices}
                onChange={(devices) => setTargeting({ devices })}
              />
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
                value={include}
                onChange={(e) => setInclude(e.currentTarget.value)}
              />
              <Textarea
                label="Exclude pages"
                description="One URL or path per line."
                autosize
                minRows={3}
                value={exclude}
                onChange={(e) => setExclude(e.currentTarget.value)}
              />
              <MaxOrderField
                id="edit-maxOrderValue"
                value={s.revenue.maxOrderValue}
                error={shown.maxOrderValue}
                onBlur={() => touch("maxOrderValue")}
                onChange={(maxOrderValue) => setSettings({ ...s, revenue: { maxOrderValue } })}
              />
            </Stack>
          </Tabs.Panel>
          <Tabs.Panel value="ai">
            <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="xl">
              <Stack>
                {AI_LIMITS.map((f) => {
                  const value = s.aiSettings[f.key];
                  return (
                    <Stack key={f.key} gap={4}>
                      <Textarea
                        label={f.label}
                        autosize
                        minRows={f.rows}
                        maxLength={f.max}
                        value={value}
                        onChange={(e) => {
                          const v = e.currentTarget.value.slice(0, f.max);
                          setSettings({ ...s, aiSettings: { ...s.aiSettings, [f.key]: v } });
                        }}
                      />
                      <Group justify="space-between">
                        {f.warn !== null && value.length > f.warn ? (
                          <Text fz="xs" c="orange">
                            You are close to the {f.max.toLocaleString("en-IN")}-character limit.
                          </Text>
                        ) : (
                          <span />
                        )}
                        <Text fz="xs" c="dimmed">
                          {value.length}/{f.max}
                        </Text>
                      </Group>
                    </Stack>
                  );
                })}
              </Stack>
              <AssistantPanel
                campaignId={campaign._id}
                knowledgeBase={s.aiSettings.knowledgeBase}
                businessInfo={s.aiSettings.businessInfo}
              />
            </SimpleGrid>
          </Tabs.Panel>
          <Tabs.Panel value="forms">
            <ConversionFormsEditor
              value={s.forms}
              onChange={(forms) => setSettings({ ...s, forms })}
            />
          </Tabs.Panel>
        </Tabs>
      </Card>
      <SaveBar
        dirty={dirty}
        saving={save.isPending}
        status={status?.at === current ? status : null}
        onSave={() => void saveAll()}
      />
      <Modal
        opened={blocker.state === "blocked"}
        onClose={() => blocker.reset?.()}
        title="Leave without saving?"
        centered
      >
        <Stack>
          <Text>Your changes to {saved.name} are not saved yet. Leave and lose them?</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => blocker.reset?.()} data-autofocus>
              Stay
            </Button>
            <Button color="red" onClick={() => blocker.proceed?.()}>
              Leave without saving
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

type EditField = keyof BasicErrors | "maxOrderValue";
type EditErrors = Partial<Record<EditField, string>>;

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

/**
 * The bar at the foot of the window while editing: whether there is anything to save, what the
 * last save did, and the Save button, always in view.
 */
function SaveBar({
  dirty,
  saving,
  status,
  onSave,
}: {
  dirty: boolean;
  saving: boolean;
  status: { ok: boolean; text: string } | null;
  onSave: () => void;
}) {
  const text = status ? status.text : dirty ? "You have unsaved changes" : "All changes saved";
  const colour = status && !status.ok ? "red" : dirty ? "orange" : "teal";
  return (
    <Paper
      withBorder
      shadow="md"
      radius="md"
      p="sm"
      data-testid="save-bar"
      style={{ position: "sticky", bottom: 12, zIndex: 10 }}
    >
      <Group justify="space-between" gap="sm" wrap="nowrap">
        <Text
          fz="sm"
          fw={600}
          c={colour}
          role={status && !status.ok ? "alert" : "status"}
          style={{ minWidth: 0 }}
        >
          {text}
        </Text>
        <Button onClick={onSave} loading={saving} style={{ flexShrink: 0 }}>
          Save changes
        </Button>
      </Group>
    </Paper>
  );
}

/** /campaigns/:id/edit: loads one campaign and shows its summary and settings tabs. */
export function EditCampaignPage() {
  const { id = "" } = useParams();
  const query = $api.useQuery(
    "get",
    "/api/campaigns/{id}",
    { params: { path: { id } } },
    { retry: false },
  );
  if (query.isLoading) {
    return (
      <Stack aria-busy="true">
        <Skeleton h={40} w={320} />
        <Skeleton h={100} />
        <Skeleton h={360} />
      </Stack>
    );
  }
  if (query.isError || !query.data) {
    const notFound = (query.error as { code?: string } | null)?.code === "campaign_not_found";
    return (
      <Center mih="50vh">
        <Card withBorder radius="md" p="xl" maw={520}>
          <Stack align="center" ta="center">
            <Title order={2}>{notFound ? "Campaign Not Found" : "Failed to load campaign"}</Title>
            <Text c="dimmed">
              {notFound
                ? "This campaign doesn't exist or was deleted."
                : messageOf(query.error, "Failed to fetch campaign")}
            </Text>
            {notFound ? (
              <Button component={Link} to="/campaigns">
                Back to Campaigns
              </Button>
            ) : (
              <Button onClick={() => void query.refetch()}>Try Again</Button>
            )}
          </Stack>
        </Card>
      </Center>
    );
  }
  return <Editor key={query.data.campaign._id} campaign={query.data.campaign} />;
}
