import {
  Alert,
  Box,
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
} from "@mantine/core";
import { IconCheck, IconEye, IconEyeOff, IconLock } from "@tabler/icons-react";
import { useEffect, useState } from "react";
import { useNavigate } from "react-router";
import { messageOf } from "../../../lib/api-client";
import { startCheckout } from "../../../lib/checkout";
import { canCreate, useUsage } from "../../../lib/usage";
import { useCreateCampaign, useDefaultSettings, type CampaignSettings } from "../api/campaigns";
import {
  STEPS,
  campaignsWord,
  createErrorMessage,
  stepComplete,
  type StepKey,
  type WizardDraft,
} from "../api/wizard";
import { PopupPreview } from "../components/PopupPreview";
import { AiStep, BasicStep, DesignStep, TargetingStep } from "../components/WizardSteps";

/** A short pause after a successful create before going back to the campaign list. */
const DONE_NAVIGATION_MS = 150;

function UpgradeRequired({ limit }: { limit: number }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <Center mih="50vh">
      <Card withBorder radius="md" p="xl" maw={520}>
        <Stack align="center" ta="center">
          <ThemeIcon size={56} radius="xl" variant="light" color="orange">
            <IconLock size={28} />
          </ThemeIcon>
          <Title order={2}>Upgrade Required</Title>
          <Text c="dimmed">You've reached your free plan limit of {campaignsWord(limit)}.</Text>
          {error ? (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          ) : null}
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
  const current = STEPS[step] ?? STEPS[0];
  const last = step === STEPS.length - 1;

  async function submit() {
    setError(null);
    try {
      await create.mutateAsync({
        body: {
          name: draft.name,
          websiteUrl: draft.websiteUrl,
          isActive: true,
          settings: draft.settings,
        },
      });
      window.setTimeout(() => navigate("/campaigns"), DONE_NAVIGATION_MS);
    } catch (err) {
      setError(createErrorMessage(err));
    }
  }

  const body: Record<StepKey, React.ReactNode> = {
    basic: <BasicStep draft={draft} update={setDraft} />,
    design: <DesignStep draft={draft} update={setDraft} />,
    targeting: <TargetingStep draft={draft} update={setDraft} />,
    ai: <AiStep draft={draft} update={setDraft} />,
  };

  return (
    <Stack gap="lg" maw={1280}>
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
      <Group gap="lg" role="tablist" aria-label="Wizard steps">
        {STEPS.map((s, i) => {
          const done = stepComplete(s.key, draft);
          const green = done || i < step;
          return (
            <UnstyledButton
              key={s.key}
              role="tab"
              aria-selected={i === step}
              onClick={() => setStep(i)}
              data-complete={done}
            >
              <Group gap={8}>
                <ThemeIcon
                  radius="xl"
                  size={30}
                  color={green ? "green" : i === step ? "indigo" : "gray"}
                  variant={i === step || green ? "filled" : "light"}
                >
                  {done ? <IconCheck size={16} /> : <Text fz="sm">{i + 1}</Text>}
                </ThemeIcon>
                <Text fz="sm" fw={i === step ? 700 : 500}>
                  {s.label}
                </Text>
              </Group>
            </UnstyledButton>
          );
        })}
      </Group>
      <Grid gutter="lg">
        <Grid.Col span={{ base: 12, lg: showPreview ? 6 : 12 }}>
          <Card withBorder radius="md" p="lg">
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
                <Button onClick={() => setStep((s) => s + 1)}>Next</Button>
              )}
            </Group>
          </Card>
        </Grid.Col>
        {showPreview ? (
          <Grid.Col span={{ base: 12, lg: 6 }}>
            <Text fw={600} mb="xs">
              Live preview
            </Text>
            <Box style={{ overflow: "hidden" }}>
              <PopupPreview settings={draft.settings} />
            </Box>
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
    return <UpgradeRequired limit={usage.data.data.campaigns.limit} />;
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
