import {
  Alert,
  Button,
  Card,
  CloseButton,
  Group,
  Skeleton,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from "@mantine/core";
import { IconCircleCheck, IconPlus, IconRocket, IconSparkles } from "@tabler/icons-react";
import { useEffect, useRef } from "react";
import { useLocation, useNavigate } from "react-router";
import { canCreate, type Usage } from "../../../lib/usage";
import { useCampaigns } from "../api/campaigns";
import { creationButton } from "../api/creation-button";
import { CampaignCard } from "../components/CampaignCard";
import { InstallationScripts } from "../components/InstallationScripts";

/** Right after the wizard: the new campaign's script to paste, before anything else. */
function InstallNow({ id, name, onDone }: { id: string; name: string; onDone: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <Card
      withBorder
      radius="md"
      p="lg"
      data-testid="install-now"
      style={{ borderColor: "var(--mantine-color-teal-6)" }}
    >
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Group gap="sm" wrap="nowrap" align="flex-start">
            <ThemeIcon color="teal.8" variant="light" radius="xl" size={34} aria-hidden>
              <IconCircleCheck size={20} />
            </ThemeIcon>
            <div>
              <Title order={3} fz="h4" ref={heading} tabIndex={-1}>
                {name} is ready: install it on your site
              </Title>
              <Text fz="sm">
                The popup shows once this script is on your pages. The dashboard ticks &quot;First
                page view received&quot; as soon as a visitor loads one.
              </Text>
            </div>
          </Group>
          <CloseButton aria-label="Hide the installation steps" onClick={onDone} />
        </Group>
        <InstallationScripts campaignId={id} />
      </Stack>
    </Card>
  );
}

/** A short pause after pressing New Campaign before the wizard opens. */
const CREATE_NAVIGATION_MS = 150;

function UpgradeBanner({ usage }: { usage: Usage }) {
  const navigate = useNavigate();
  const { current, limit } = usage.campaigns;
  if (usage.plan.status === "active" && current < limit) return null;
  const free = usage.plan.status !== "active";
  const text =
    usage.plan.status === "trial"
      ? `Your trial includes ${limit} campaign${limit === 1 ? "" : "s"} (${current} used). Upgrade to keep your campaigns running after the trial.`
      : free
        ? "The free plan cannot run campaigns. Upgrade to create your first one."
        : `You are using ${current} of ${limit} campaign${limit === 1 ? "" : "s"} on your plan. Upgrade for more.`;
  return (
    <Alert color="indigo" icon={<IconSparkles size={18} />} title="Upgrade your plan" role="note">
      <Group justify="space-between" gap="sm">
        <Text fz="sm">{text}</Text>
        <Button size="xs" onClick={() => navigate("/billing")}>
          See plans
        </Button>
      </Group>
    </Alert>
  );
}

export function CampaignsPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const campaigns = useCampaigns();
  const createdId = (location.state as { createdId?: string } | null)?.createdId;

  function go(to: string) {
    if (to === "/campaigns/create") window.setTimeout(() => navigate(to), CREATE_NAVIGATION_MS);
    else navigate(to);
  }

  if (campaigns.isLoading) {
    return (
      <Stack aria-busy="true">
        <Skeleton h={36} w={240} />
        {[1, 2].map((i) => (
          <Skeleton key={i} h={220} radius="md" />
        ))}
      </Stack>
    );
  }

  if (campaigns.isError || !campaigns.data) {
    return (
      <Card withBorder radius="md" p="xl" maw={640}>
        <Stack align="flex-start">
          <Title order={3}>Error Loading Campaigns</Title>
          <Text c="dimmed">Failed to fetch campaigns</Text>
          <Button onClick={() => void campaigns.refetch()}>Try Again</Button>
        </Stack>
      </Card>
    );
  }

  const { usage } = campaigns.data;
  const list = campaigns.data.campaigns;
  const button = creationButton(usage);
  const created = createdId ? list.find((c) => c._id === createdId) : undefined;

  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <div>
          <Title order={2}>Your campaigns</Title>
          <Text c="dimmed" fz="sm">
            {usage.campaigns.current} of {usage.campaigns.limit} campaign
            {usage.campaigns.limit === 1 ? "" : "s"} used
          </Text>
        </div>
        <Button leftSection={<IconPlus size={16} />} onClick={() => go(button.to)}>
          {button.label}
        </Button>
      </Group>
      {created ? (
        <InstallNow
          id={created._id}
          name={created.name}
          onDone={() => navigate(".", { replace: true, state: null })}
        />
      ) : null}
      <UpgradeBanner usage={usage} />
      {list.length === 0 ? (
        <Card withBorder radius="md" p="xl">
          <Stack align="center" ta="center" gap="sm">
            <ThemeIcon size={56} radius="xl" variant="light">
              <IconRocket size={28} />
            </ThemeIcon>
            <Title order={3}>No campaigns yet</Title>
            <Text c="dimmed" maw={460}>
              A campaign watches for visitors about to leave your site and opens a popup with an AI
              assistant and an offer.
            </Text>
            {canCreate(usage) ? (
              <Button onClick={() => go("/campaigns/create")}>Create Your First Campaign</Button>
            ) : (
              <Button onClick={() => navigate("/billing")}>Upgrade to Create</Button>
            )}
          </Stack>
        </Card>
      ) : (
        list.map((c) => <CampaignCard key={c._id} campaign={c} />)
      )}
    </Stack>
  );
}
