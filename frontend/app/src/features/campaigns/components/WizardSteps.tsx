import {
  Alert,
  Button,
  ColorInput,
  Group,
  NumberInput,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Textarea,
} from "@mantine/core";
import { IconBulb } from "@tabler/icons-react";
import type { CampaignSettings } from "../api/campaigns";
import { intInput, type BasicErrors, type WizardDraft } from "../api/wizard";
import type { PublicCampaign } from "../../../../../widget/src/types";
import { ContrastNote } from "./ContrastNote";
import { DevicesField, ExitIntentFields, TrustBadgeList } from "./SettingsFields";

type Update = (change: (draft: WizardDraft) => WizardDraft) => void;

function withSettings(draft: WizardDraft, settings: Partial<CampaignSettings>): WizardDraft {
  return { ...draft, settings: { ...draft.settings, ...settings } };
}

export function BasicStep({
  draft,
  update,
  errors = {},
  onBlur,
}: {
  draft: WizardDraft;
  update: Update;
  /** The errors to show now (of fields the owner has left or tried to go past). */
  errors?: BasicErrors;
  onBlur?: (field: keyof BasicErrors) => void;
}) {
  const exit = draft.settings.exitIntent;
  const setExit = (patch: Partial<CampaignSettings["exitIntent"]>) =>
    update((d) => withSettings(d, { exitIntent: { ...d.settings.exitIntent, ...patch } }));
  return (
    <Stack>
      <Alert color="indigo" icon={<IconBulb size={18} />} title="Quick tip" role="note">
        Name the campaign after its offer (for example "Diwali 10% off") so you can tell campaigns
        apart in reports.
      </Alert>
      <TextInput
        label="Campaign Name"
        required
        value={draft.name}
        error={errors.name}
        onBlur={() => onBlur?.("name")}
        onChange={(e) => {
          const name = e.currentTarget.value;
          update((d) => ({ ...d, name }));
        }}
      />
      <TextInput
        label="Website URL"
        type="url"
        required
        placeholder="https://www.example.in"
        value={draft.websiteUrl}
        error={errors.websiteUrl}
        onBlur={() => onBlur?.("websiteUrl")}
        onChange={(e) => {
          const websiteUrl = e.currentTarget.value;
          update((d) => ({ ...d, websiteUrl }));
        }}
      />
      <Text fw={600} mt="sm">
        Exit-Intent Settings
      </Text>
      <ExitIntentFields value={exit} onChange={setExit} />
    </Stack>
  );
}

export function DesignStep({ draft, update }: { draft: WizardDraft; update: Update }) {
  const design = draft.settings.popup.design;
  const setDesign = (patch: Partial<CampaignSettings["popup"]["design"]>) =>
    update((d) =>
      withSettings(d, {
        popup: { ...d.settings.popup, design: { ...d.settings.popup.design, ...patch } },
      }),
    );
  const text = (
    label: string,
    key: "headerTitle" | "headerSubtitle" | "formTitle" | "formSubtitle" | "submitButtonText",
  ) => (
    <TextInput
      label={label}
      value={design[key]}
      onChange={(e) => setDesign({ [key]: e.currentTarget.value })}
    />
  );
  return (
    <Stack>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        {text("Header title", "headerTitle")}
        {text("Header subtitle", "headerSubtitle")}
        {text("Form title", "formTitle")}
        {text("Form subtitle", "formSubtitle")}
        {text("Button text", "submitButtonText")}
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <ColorInput
          label="Primary colour"
          format="hex"
          value={design.primaryColor}
          onChange={(v) => setDesign({ primaryColor: v })}
        />
        <ColorInput
          label="Secondary colour"
          format="hex"
          value={design.secondaryColor}
          onChange={(v) => setDesign({ secondaryColor: v })}
        />
      </SimpleGrid>
      <ContrastNote popup={draft.settings.popup as PublicCampaign["popup"]} />
      <div>
        <Text fz="sm" fw={500} mb={4}>
          Popup size
        </Text>
        <SegmentedControl
          aria-label="Popup size"
          data={[
            { value: "small", label: "Small" },
            { value: "medium", label: "Medium" },
            { value: "large", label: "Large" },
          ]}
          value={design.popupSize}
          onChange={(v) => setDesign({ popupSize: v })}
        />
      </div>
      <div>
        <Group justify="space-between" mb={4}>
          <Text fz="sm" fw={500}>
            Trust badges
          </Text>
          <Button
            size="xs"
            variant="light"
            disabled={design.trustBadges.length >= 8}
            onClick={() =>
              setDesign({ trustBadges: [...design.trustBadges, { icon: "✨", text: "New Badge" }] })
            }
          >
            Add Badge
          </Button>
        </Group>
        <TrustBadgeList
          badges={design.trustBadges}
          onChange={(trustBadges) => setDesign({ trustBadges })}
        />
      </div>
    </Stack>
  );
}

export function TargetingStep({ draft, update }: { draft: WizardDraft; update: Update }) {
  const t = draft.settings.targeting;
  const setTargeting = (patch: Partial<CampaignSettings["targeting"]>) =>
    update((d) => withSettings(d, { targeting: { ...d.settings.targeting, ...patch } }));
  return (
    <Stack>
      <DevicesField value={t.devices} onChange={(devices) => setTargeting({ devices })} />
      {t.devices.length === 0 ? (
        <Text c="red.8" fz="sm" role="alert">
          Choose at least one device.
        </Text>
      ) : null}
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <NumberInput
          label="Min Time on Page (seconds)"
          min={0}
          allowDecimal={false}
          value={t.minTimeOnPage}
          onChange={(v) => setTargeting({ minTimeOnPage: intInput(v, 0, 0) })}
        />
        <NumberInput
          label="Max Displays per Session"
          min={1}
          allowDecimal={false}
          value={t.maxDisplaysPerSession}
          onChange={(v) => setTargeting({ maxDisplaysPerSession: intInput(v, 1, 1) })}
        />
      </SimpleGrid>
    </Stack>
  );
}

const AI_FIELDS = [
  { key: "initialMessage", label: "Initial Message", max: 1000, rows: 3 },
  { key: "knowledgeBase", label: "Knowledge Base", max: 10000, rows: 8 },
  { key: "businessInfo", label: "Business Information", max: 2000, rows: 4 },
] as const;

export function AiStep({ draft, update }: { draft: WizardDraft; update: Update }) {
  const ai = draft.settings.aiSettings;
  return (
    <Stack>
      {AI_FIELDS.map((f) => (
        <Textarea
          key={f.key}
          label={f.label}
          autosize
          minRows={f.rows}
          maxLength={f.max}
          value={ai[f.key]}
          description={`${ai[f.key].length}/${f.max}`}
          inputWrapperOrder={["label", "input", "description"]}
          placeholder={
            f.key === "initialMessage"
              ? "Hi! I noticed you're about to leave. What can I help you with?"
              : f.key === "knowledgeBase"
                ? "Shipping, returns, prices, offers: what should the assistant know?"
                : "Your business name, what you sell, hours and contact details"
          }
          onChange={(e) => {
            const value = e.currentTarget.value.slice(0, f.max);
            update((d) =>
              withSettings(d, { aiSettings: { ...d.settings.aiSettings, [f.key]: value } }),
            );
          }}
        />
      ))}
    </Stack>
  );
}
