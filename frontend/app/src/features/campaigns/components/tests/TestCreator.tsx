import {
  ActionIcon,
  Alert,
  Button,
  Card,
  Group,
  NumberInput,
  Radio,
  Select,
  SimpleGrid,
  Slider,
  Stack,
  Tabs,
  Text,
  TextInput,
  Textarea,
  Title,
} from "@mantine/core";
import { IconTrash } from "@tabler/icons-react";
import { useState } from "react";
import { messageOf } from "../../../../lib/api-client";
import {
  MAX_DAYS,
  MAX_VARIANTS,
  METRICS,
  evenSplit,
  maxDaysError,
  applyOverrides,
  overridesOf,
  testDraftErrors,
  type ArmDraft,
  type TestMetric,
} from "../../api/ab-tests";
import { useCreateAbTest, useNewAbTestVersion, type AbTest } from "../../api/ab-test-queries";
import type { CampaignSettings } from "../../api/campaigns";
import { fromDesigner, toDesigner } from "../../api/designer";
import { intInput } from "../../api/wizard";
import { ConversionFormsEditor } from "../ConversionFormsEditor";
import { PopupDesigner } from "../PopupDesigner";
import { TestEnding } from "./TestEnding";

const SENSITIVITIES = [
  { value: "low", label: "Low" },
  { value: "medium", label: "Medium" },
  { value: "high", label: "High" },
];

/** The name the n-th arm starts with: the control, then Variant B, C, D. */
function armName(i: number): string {
  return i === 0 ? "Control" : `Variant ${String.fromCharCode(65 + i)}`;
}

/** A fresh copy of the campaign's settings for a new variant to change. */
function copyOf(settings: CampaignSettings): CampaignSettings {
  return structuredClone(settings);
}

/** The arms an open test's next version starts from: its own, each variant laid over `base`. */
function armsOf(test: AbTest, base: CampaignSettings): ArmDraft[] {
  return test.variants.map((v, i) => ({
    name: v.name,
    weight: v.weight,
    settings: i === 0 ? base : applyOverrides(base, v.overrides),
  }));
}

/**
 * Writing a new test from the campaign as saved: its name and metric, the control (the campaign
 * as it is) and 1 to 3 variants, each changed with the Popup Design tab's designer and its live
 * preview (and the greeting, the exit-intent timing and the forms), and the traffic split in
 * whole percent. Checked here first; what the server refuses is shown as it says it.
 *
 * With `from` (an open test) it edits that test's variants instead, starting from them: saving
 * starts the test's next version, so results of different variants are never mixed.
 */
export function TestCreator({
  campaignId,
  base,
  dirty,
  from,
  onCancel,
  onCreated,
}: {
  campaignId: string;
  /** The campaign's settings as saved: the control. */
  base: CampaignSettings;
  /** The editor has unsaved changes (the test starts from the saved campaign). */
  dirty: boolean;
  /** The open test whose variants are edited into its next version. */
  from?: AbTest;
  onCancel: () => void;
  onCreated: (testId: string) => void;
}) {
  const create = useCreateAbTest();
  const nextVersion = useNewAbTestVersion();
  const [name, setName] = useState(from?.name ?? "");
  const [metric, setMetric] = useState<TestMetric>(
    (from?.metric as TestMetric | undefined) ?? "conversionRate",
  );
  const [arms, setArms] = useState<ArmDraft[]>(() =>
    from
      ? armsOf(from, base)
      : [
          { name: armName(0), weight: 50, settings: base },
          { name: armName(1), weight: 50, settings: copyOf(base) },
        ],
  );
  const [maxDays, setMaxDays] = useState<number>(from?.maxDays ?? MAX_DAYS.default);
  const [autoPromote, setAutoPromote] = useState(from?.autoPromote ?? false);
  const [editing, setEditing] = useState<string | null>("1");
  const [tried, setTried] = useState(false);
  // What the server said, and the test as it was then: a later change makes it stale.
  const [refusal, setRefusal] = useState<{ text: string; at: string } | null>(null);
  const errors = testDraftErrors(name, arms, base);
  const daysError = maxDaysError(maxDays);
  if (daysError) errors.maxDays = daysError;
  const draft = JSON.stringify([name, metric, arms, maxDays, autoPromote]);
  const serverError = refusal?.at === draft ? refusal.text : null;
  const shown = tried ? errors : {};
  const total = arms.reduce((a, b) => a + b.weight, 0);
  const current = Number(editing ?? "1");
  const arm = arms[current];

  const update = (i: number, patch: Partial<ArmDraft>) =>
    setArms((all) => all.map((a, j) => (j === i ? { ...a, ...patch } : a)));
  const setWeight = (i: number, weight: number) =>
    setArms((all) =>
      all.map((a, j) => {
        if (j === i) return { ...a, weight };
        // With two arms the other takes the rest, so the split always adds up.
        if (all.length === 2) return { ...a, weight: Math.max(0, 100 - weight) };
        return a;
      }),
    );
  const setSettings = (i: number, settings: CampaignSettings) => update(i, { settings });
  const addVariant = () => {
    const split = evenSplit(arms.length + 1);
    setArms([
      ...arms.map((a, i) => ({ ...a, weight: split[i]! })),
      { name: armName(arms.length), weight: split[arms.length]!, settings: copyOf(base) },
    ]);
    setEditing(String(arms.length));
  };
  const removeVariant = (i: number) => {
    const rest = arms.filter((_, j) => j !== i);
    const split = evenSplit(rest.length);
    setArms(rest.map((a, j) => ({ ...a, weight: split[j]! })));
    setEditing("1");
  };

  async function submit() {
    setTried(true);
    setRefusal(null);
    if (Object.keys(errors).length > 0) return;
    try {
      const body = {
        name: name.trim(),
        metric,
        // The server's defaults (30 days, not by itself) are left out.
        ...(maxDays !== MAX_DAYS.default ? { maxDays } : {}),
        ...(autoPromote ? { autoPromote } : {}),
        variants: arms.map((a, i) => ({
          name: a.name.trim(),
          weight: a.weight,
          // The document types a free-form object as an empty one.
          overrides: (i === 0 ? {} : overridesOf(base, a.settings)) as Record<string, never>,
        })),
      };
      const result = from
        ? await nextVersion.mutateAsync({
            params: { path: { id: campaignId, testId: from.id } },
            body,
          })
        : await create.mutateAsync({ params: { path: { id: campaignId } }, body });
      onCreated(result.data.id);
    } catch (err) {
      setRefusal({
        text: messageOf(err, from ? "Failed to start the new version" : "Failed to start the test"),
        at: draft,
      });
    }
  }

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={3}>
          {from ? `Edit variants: version ${from.version + 1} of “${from.name}”` : "New A/B test"}
        </Title>
        <Button variant="default" onClick={onCancel}>
          Cancel
        </Button>
      </Group>
      {from && (
        <Alert color="blue" title="Editing starts a new version" data-testid="new-version-note">
          Version {from.version} closes and keeps its results. Version {from.version + 1} starts
          counting from zero with the variants below, and every visitor is assigned again, so
          results of different variants are never mixed.
        </Alert>
      )}
      {dirty && (
        <Alert color="yellow" title="Unsaved changes">
          The control is the campaign as saved: save your changes first if the test should start
          from them.
        </Alert>
      )}
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput
          label="Test name"
          required
          maxLength={120}
          value={name}
          error={shown.name}
          onChange={(e) => setName(e.currentTarget.value)}
        />
        <Radio.Group
          label="Metric"
          description="What decides the winner"
          value={metric}
          onChange={(v) => setMetric(v as TestMetric)}
        >
          <Group mt="xs">
            {METRICS.map((m) => (
              <Radio key={m.value} value={m.value} label={m.label} />
            ))}
          </Group>
        </Radio.Group>
      </SimpleGrid>

      <Card withBorder radius="md" p="md">
        <Title order={4} mb={4}>
          Traffic split
        </Title>
        <Text fz="sm" c="dimmed" mb="sm">
          Each visitor always sees the same variant. Shares are whole percent and add up to 100.
        </Text>
        <Stack gap="md">
          {arms.map((a, i) => (
            <div key={i} data-testid="test-arm">
              <Group align="flex-end" gap="sm" wrap="wrap">
                <TextInput
                  label={`${armName(i)} name`}
                  required
                  maxLength={60}
                  value={a.name}
                  error={shown[`arms.${i}.name`]}
                  onChange={(e) => update(i, { name: e.currentTarget.value })}
                  style={{ flex: "1 1 12rem" }}
                />
                <NumberInput
                  label={`${a.name.trim() || armName(i)} share (%)`}
                  min={0}
                  max={100}
                  allowDecimal={false}
                  clampBehavior="none"
                  value={a.weight}
                  onChange={(v) => setWeight(i, intInput(v, 0, 0))}
                  w={150}
                />
                {i > 0 && arms.length > 2 && (
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    size="lg"
                    aria-label={`Remove ${a.name.trim() || armName(i)}`}
                    onClick={() => removeVariant(i)}
                  >
                    <IconTrash size={18} />
                  </ActionIcon>
                )}
              </Group>
              <Slider
                mt="xs"
                min={0}
                max={100}
                step={1}
                label={(v) => `${v} %`}
                aria-label={`${a.name.trim() || armName(i)} share`}
                thumbLabel={`${a.name.trim() || armName(i)} share`}
                value={Math.min(100, a.weight)}
                onChange={(v) => setWeight(i, v)}
              />
            </div>
          ))}
          <Group justify="space-between">
            <Group gap="xs">
              <Button variant="light" disabled={arms.length > MAX_VARIANTS} onClick={addVariant}>
                Add variant
              </Button>
              <Button
                variant="default"
                onClick={() => {
                  const split = evenSplit(arms.length);
                  setArms(arms.map((a, i) => ({ ...a, weight: split[i]! })));
                }}
              >
                Split evenly
              </Button>
            </Group>
            <Text fz="sm" fw={600} c={total === 100 ? undefined : "red.8"}>
              Total: {total} %
            </Text>
          </Group>
          {errors.weights && (
            <Text fz="sm" c="red.8" role="alert">
              {errors.weights}
            </Text>
          )}
        </Stack>
      </Card>

      <Card withBorder radius="md" p="md">
        <Title order={4} mb={4}>
          Variants
        </Title>
        <Text fz="sm" c="dimmed" mb="sm">
          The control is the campaign as it is. Change each variant&apos;s design, greeting, timing
          or forms: only what you change is tested.
        </Text>
        <Tabs value={editing} onChange={setEditing} keepMounted={false}>
          <Tabs.List mb="md">
            {arms.slice(1).map((a, j) => (
              <Tabs.Tab key={j + 1} value={String(j + 1)}>
                {a.name.trim() || armName(j + 1)}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {arm && current > 0 && (
            <Tabs.Panel value={String(current)}>
              <VariantEditor
                base={base}
                settings={arm.settings}
                error={shown[`arms.${current}.design`]}
                onChange={(s) => setSettings(current, s)}
              />
            </Tabs.Panel>
          )}
        </Tabs>
      </Card>

      <Card withBorder radius="md" p="md">
        <Title order={4} mb={4}>
          How the test ends
        </Title>
        <Text fz="sm" c="dimmed" mb="sm">
          A winner is called after at least 7 days and enough visitors, and you are told by email.
        </Text>
        <TestEnding
          maxDays={maxDays}
          autoPromote={autoPromote}
          error={shown.maxDays}
          onMaxDays={setMaxDays}
          onAutoPromote={setAutoPromote}
        />
      </Card>

      {serverError && (
        <Alert
          color="red"
          title={from ? "The new version was not started" : "The test was not started"}
          role="alert"
        >
          {serverError}
        </Alert>
      )}
      {tried && Object.keys(errors).length > 0 && (
        <Text fz="sm" c="red.8" role="alert">
          Please fix the highlighted fields.
        </Text>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel}>
          Cancel
        </Button>
        <Button loading={create.isPending || nextVersion.isPending} onClick={() => void submit()}>
          {from ? `Start version ${from.version + 1}` : "Start test"}
        </Button>
      </Group>
    </Stack>
  );
}

/** One variant's settings: the popup designer with its live preview, the greeting and timing, the forms. */
function VariantEditor({
  base,
  settings,
  error,
  onChange,
}: {
  base: CampaignSettings;
  settings: CampaignSettings;
  error?: string;
  onChange: (s: CampaignSettings) => void;
}) {
  const [section, setSection] = useState<string | null>("design");
  const changed = Object.keys(overridesOf(base, settings)).length > 0;
  return (
    <Stack>
      {error && !changed && (
        <Text fz="sm" c="red.8" role="alert">
          {error}
        </Text>
      )}
      <Tabs value={section} onChange={setSection} variant="pills" keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="design">Design</Tabs.Tab>
          <Tabs.Tab value="greeting">Greeting and timing</Tabs.Tab>
          <Tabs.Tab value="forms">Forms</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="design">
          <PopupDesigner
            settings={toDesigner(settings)}
            defaults={toDesigner(base)}
            base={settings}
            resetLabel="Reset to control"
            onChange={(v) => onChange(fromDesigner(settings, v))}
          />
        </Tabs.Panel>
        <Tabs.Panel value="greeting">
          <Stack maw={640}>
            <Textarea
              label="Initial message"
              autosize
              minRows={2}
              maxLength={1000}
              value={settings.aiSettings.initialMessage}
              onChange={(e) =>
                onChange({
                  ...settings,
                  aiSettings: { ...settings.aiSettings, initialMessage: e.currentTarget.value },
                })
              }
            />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <Select
                label="Sensitivity"
                data={SENSITIVITIES}
                value={settings.exitIntent.sensitivity}
                allowDeselect={false}
                onChange={(v) =>
                  onChange({
                    ...settings,
                    exitIntent: { ...settings.exitIntent, sensitivity: v ?? "medium" },
                  })
                }
              />
              <NumberInput
                label="Delay (ms)"
                min={0}
                step={100}
                allowDecimal={false}
                value={settings.exitIntent.delay}
                onChange={(v) =>
                  onChange({
                    ...settings,
                    exitIntent: { ...settings.exitIntent, delay: intInput(v, 0, 0) },
                  })
                }
              />
            </SimpleGrid>
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="forms">
          <ConversionFormsEditor
            value={settings.forms}
            onChange={(forms) => onChange({ ...settings, forms })}
          />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
