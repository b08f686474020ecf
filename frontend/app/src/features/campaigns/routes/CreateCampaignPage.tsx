import {
  Alert,
  Button,
  Card,
  Center,
  Grid,
  Group,
  Loader,
  Progress,
  Stack,
  Text,
  ThemeIcon,
  Title,
  UnstyledButton,
  VisuallyHidden,
} from "@mantine/core";
import { IconCheck, IconEye, IconEyeOff, IconLock } from "@tabler/icons-react";
import { useEffect, useRef, useState } from "react";
import { Link, useNavigate } from "react-router";
import { messageOf } from "../../../lib/api-client";
import { startCheckout } from "../../../lib/checkout";
import { formatMoney } from "../../../lib/format";
import { canCreate, useUsage, type Usage } from "../../../lib/usage";
import {
  useCreateCampaign,
  useDefaultSettings,
  usePlans,
  type CampaignSettings,
} from "../api/campaigns";
import {
  STEPS,
  campaignsWord,
  createErrorMessage,
  stepComplete,
  stepErrors,
  type StepKey,
  type WizardDraft,
} from "../api/wizard";
import { PopupPreview } from "../components/PopupPreview";
import { AiStep, BasicStep, DesignStep, TargetingStep } from "../components/WizardSteps";

/** A short pause after a successful create before going back to the campaign list. */
const DONE_NAVIGATION_MS = 150;

/** Why the owner cannot create another campaign, in the words of their own plan. */
export function gateText(usage: Usage): string {
  const { limit } = usage.campaigns;
  switch (usage.plan.status) {
    case "trial":
      return `Your free trial includes ${campaignsWord(limit)}, and you have used ${limit === 1 ? "it" : "them all"}.`;
    case "active":
      return `Your plan includes ${campaignsWord(limit)}, and you have used ${limit === 1 ? "it" : "them all"}.`;
    default:
      return limit > 0
        ? `You've reached your free plan limit of ${campaignsWord(limit)}.`
        : "The free plan does not include campaigns.";
  }
}

function UpgradeRequired({ usage }: { usage: Usage }) {
  const navigate = useNavigate();
  const plans = usePlans();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const basic = plans.data?.data.find((p) => p.id === "basic");
  return (
    <Center mih="50vh">
      <Card withBorder radius="md" p="xl" maw={520}>
        <Stack align="center" ta="center">
          <ThemeIcon size={56} radius="xl" variant="light" color="orange">
            <IconLock size={28} />
          </ThemeIcon>
          <Title order={2}>Upgrade Required</Title>
          <Text>{gateText(usage)}</Text>
          {basic ? (
            <Text data-testid="gate-price">
              The Basic plan is <b>{formatMoney(basic.price, basic.currency)}</b>{" "}
              {basic.interval === "yearly" ? "a year" : "a month"}
              {basic.limits.campaigns > 0
                ? ` for ${basic.limits.campaigns === -1 ? "unlimited campaigns" : campaignsWord(basic.limits.campaigns)}`
                : ""}
              . Your campaigns keep their settings.
            </Text>
          ) : null}
          {error ? (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          ) : null}
          <Group justify="center">
            <Button variant="default" onClick={() => navigate("/campaigns")}>
              Back to campaigns
            </Button>
            <Button component={Link} to="/billing" variant="light">
              Compare plans
            </Button>
            <Button
              loading={busy}
              onClick={() => {
                setBusy(true);
                startCheckout("basic").catch((err: unknown) => {
                  console.error("checkout failed", err);
                  setError(messageOf(err, "Failed to create checkout session"));
                  setBusy(false);
                });
              }}
            >
              Upgrade to Basic
            </Button>
          </Group>
        </Stack>
      </Card>
    </Center>
  );
}

function Wizard({ defaults }: { defaults: CampaignSettings }) {
  const navigate = useNavigate();
  const create = useCreateCampaign();
  const [draft, setDraft] = useState<WizardDraft>({ name: "", websiteUrl: "", settings: defaults });
  const [step, setStep] = useState(0);
  const [showPreview, setShowPreview] = useState(true);
  const [error, setError] = useState<string | null>(null);
  // Fields the owner has left (or tried to go past): only these show their errors.
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  const formRef = useRef<HTMLDivElement>(null);
  const current = STEPS[step] ?? STEPS[0];
  const last = step === STEPS.length - 1;
  const errors = Object.fromEntries(
    Object.entries(stepErrors(current.key, draft)).filter(([k]) => touched.has(k)),
  );

  // A change clears a failed create's message: it was about what the owner has just fixed.
  const update = (change: (d: WizardDraft) => WizardDraft) => {
    setDraft(change);
    setError(null);
  };
  const touch = (...fields: string[]) =>
    setTouched((t) => (fields.every((f) => t.has(f)) ? t : new Set([...t, ...fields])));

  /** Shows the step's errors and moves focus to the first; true when there are none. */
  function check(index: number): boolean {
    const s = STEPS[index];
    if (!s) return true;
    const found = Object.keys(stepErrors(s.key, draft));
    if (found.length === 0) return true;
    touch(...found);
    setStep(index);
    window.setTimeout(() => {
      formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
    }, 0);
    return false;
  }

  async function submit() {
    setError(null);
    for (let i = 0; i < STEPS.length; i += 1) if (!check(i)) return;
    try {
      const result = await create.mutateAsync({
        body: {
          name: draft.name,
          websiteUrl: draft.websiteUrl,
          isActive: true,
          settings: draft.settings,
        },
      });
      window.setTimeout(
        () => navigate("/campaigns", { state: { createdId: result.campaign._id } }),
        DONE_NAVIGATION_MS,
      );
    } catch (err) {
      setError(createErrorMessage(err));
    }
  }

  const body: Record<StepKey, React.ReactNode> = {
    basic: (
      <BasicStep draft={draft} update={update} errors={errors} onBlur={(field) => touch(field)} />
    ),
    design: <DesignStep draft={draft} update={update} />,
    targeting: <TargetingStep draft={draft} update={update} />,
    ai: <AiStep draft={draft} update={update} />,
  };

  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <Button variant="default" onClick={() => navigate("/campaigns")}>
          Cancel
        </Button>
        <Button
          variant="light"
          leftSection={showPreview ? <IconEyeOff size={16} /> : <IconEye size={16} />}
          onClick={() => setShowPreview((v) => !v)}
        >
          {showPreview ? "Hide Preview" : "Show Preview"}
        </Button>
      </Group>
      <Stack gap={4}>
        <Group justify="space-between">
          <Text fw={600}>
            Step {step + 1} of {STEPS.length}: {current.label}
          </Text>
          <Text c="dimmed" fz="sm">
            {Math.round(((step + 1) / STEPS.length) * 100)}%
          </Text>
        </Group>
        <Progress value={((step + 1) / STEPS.length) * 100} aria-label="Wizard progress" />
      </Stack>
      {error ? (
        <Alert color="red" role="alert" title="Error:">
          {error}
        </Alert>
      ) : null}
      <Group
        gap="lg"
        role="tablist"
        aria-label="Wizard steps"
        onKeyDown={(e) => {
          // Arrow keys move between the steps, as in any tab list; Tab goes on to the step itself.
          const delta = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[e.key];
          const to =
            e.key === "Home"
              ? 0
              : e.key === "End"
                ? STEPS.length - 1
                : delta === undefined
                  ? null
                  : (step + delta + STEPS.length) % STEPS.length;
          if (to === null) return;
          e.preventDefault();
          setStep(to);
          document.getElementById(`wizard-tab-${STEPS[to]?.key}`)?.focus();
        }}
      >
        {STEPS.map((s, i) => {
          const done = stepComplete(s.key, draft);
          const green = done || i < step;
          return (
            <UnstyledButton
              key={s.key}
              role="tab"
              aria-selected={i === step}
              tabIndex={i === step ? 0 : -1}
              aria-controls="wizard-step"
              id={`wizard-tab-${s.key}`}
              onClick={() => setStep(i)}
              data-complete={done}
            >
              <Group gap={8} wrap="nowrap">
                <ThemeIcon
                  radius="xl"
                  size={30}
                  color={green ? "green.8" : i === step ? "indigo" : "gray"}
                  variant={i === step || green ? "filled" : "light"}
                  aria-hidden
                >
                  {done ? <IconCheck size={16} /> : <Text fz="sm">{i + 1}</Text>}
                </ThemeIcon>
                <Text fz="sm" fw={i === step ? 700 : 500}>
                  {s.label}
                  {done ? <VisuallyHidden> (complete)</VisuallyHidden> : null}
                </Text>
              </Group>
            </UnstyledButton>
          );
        })}
      </Group>
      <Grid gutter="lg">
        <Grid.Col span={{ base: 12, lg: showPreview ? 6 : 12 }}>
          <Card
            withBorder
            radius="md"
            p="lg"
            ref={formRef}
            id="wizard-step"
            role="tabpanel"
            aria-labelledby={`wizard-tab-${current.key}`}
          >
            {body[current.key]}
            <Group justify="space-between" mt="xl">
              <Button variant="default" disabled={step === 0} onClick={() => setStep((s) => s - 1)}>
                Previous
              </Button>
              {last ? (
                <Button onClick={() => void submit()} disabled={create.isPending}>
                  {create.isPending ? "Creating..." : "Create Campaign"}
                </Button>
              ) : (
                <Button
                  onClick={() => {
                    if (check(step)) setStep((s) => s + 1);
                  }}
                >
                  Next
                </Button>
              )}
            </Group>
          </Card>
        </Grid.Col>
        {showPreview ? (
          <Grid.Col span={{ base: 12, lg: 6 }}>
            <Text fw={600} mb="xs">
              Live preview
            </Text>
            <PopupPreview settings={draft.settings} />
          </Grid.Col>
        ) : null}
      </Grid>
    </Stack>
  );
}

/** /campaigns/create: the creation gate, then the wizard. */
export function CreateCampaignPage() {
  const usage = useUsage();
  const defaults = useDefaultSettings();

  useEffect(() => {
    if (usage.isError) console.error("loading usage failed", usage.error);
  }, [usage.isError, usage.error]);

  if (usage.isLoading || defaults.isLoading) {
    return (
      <Center mih="40vh">
        <Loader aria-label="Loading" />
      </Center>
    );
  }
  if (usage.data && !canCreate(usage.data.data)) {
    return <UpgradeRequired usage={usage.data.data} />;
  }
  if (!defaults.data) {
    return (
      <Alert color="red" role="alert" maw={640}>
        Failed to load the campaign defaults. Please reload the page.
      </Alert>
    );
  }
  return <Wizard defaults={defaults.data.settings} />;
}
