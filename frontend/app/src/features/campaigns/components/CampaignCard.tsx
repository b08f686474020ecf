import {
  ActionIcon,
  Anchor,
  Badge,
  Button,
  Card,
  Divider,
  Group,
  Modal,
  Paper,
  Progress,
  SimpleGrid,
  Stack,
  Text,
  Tooltip,
} from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import {
  IconChevronDown,
  IconChevronUp,
  IconEdit,
  IconPlayerPause,
  IconPlayerPlay,
  IconTrash,
} from "@tabler/icons-react";
import { useState } from "react";
import { Link } from "react-router";
import { HeldOrdersNotice } from "../../../components/RevenueNotes";
import { messageOf } from "../../../lib/api-client";
import { formatInr } from "../../../lib/format";
import { REPORTED_REVENUE } from "../../../lib/revenue";
import {
  performanceBar,
  useCampaignAnalytics,
  useDeleteCampaign,
  useToggleCampaign,
  type Campaign,
} from "../api/campaigns";
import { InstallationScripts } from "./InstallationScripts";

function Tile({ label, value, note }: { label: string; value: string; note?: string }) {
  return (
    <Paper withBorder radius="md" p="sm">
      <Text fz="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fz="lg" fw={700}>
        {value}
      </Text>
      {note ? (
        <Text fz="xs" c="dimmed" lh={1.3}>
          {note}
        </Text>
      ) : null}
    </Paper>
  );
}

export function CampaignCard({ campaign }: { campaign: Campaign }) {
  const [expanded, { toggle: toggleExpanded }] = useDisclosure(false);
  const [confirming, { open: askDelete, close: cancelDelete }] = useDisclosure(false);
  const toggle = useToggleCampaign();
  const remove = useDeleteCampaign();
  const analytics = useCampaignAnalytics(campaign._id);
  const [error, setError] = useState<string | null>(null);
  const rate = campaign.analytics.conversionRate;
  const exit = campaign.settings.exitIntent;
  const path = { params: { path: { id: campaign._id } } };

  async function onToggle() {
    setError(null);
    try {
      await toggle.mutateAsync(path);
    } catch (err) {
      setError(messageOf(err, "Failed to toggle campaign"));
    }
  }

  async function onDelete() {
    setError(null);
    try {
      await remove.mutateAsync(path);
      cancelDelete();
    } catch (err) {
      cancelDelete();
      setError(messageOf(err, "Failed to delete campaign"));
    }
  }

  return (
    <Card withBorder radius="md" p="lg" data-testid="campaign-card">
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" gap="xs">
          <Stack gap={2} style={{ minWidth: 0, flex: "1 1 220px" }}>
            <Group gap="xs">
              <Text fw={700} fz="lg" style={{ overflowWrap: "anywhere" }}>
                {campaign.name}
              </Text>
              <Badge color={campaign.isActive ? "green" : "gray"} variant="light">
                {campaign.isActive ? "Active" : "Inactive"}
              </Badge>
            </Group>
            <Anchor
              href={campaign.websiteUrl}
              target="_blank"
              rel="noopener noreferrer"
              fz="sm"
              c="dimmed"
              style={{ overflowWrap: "anywhere" }}
            >
              {campaign.websiteUrl}
            </Anchor>
          </Stack>
          <Group gap={4} wrap="nowrap" ml="auto">
            <Tooltip label={campaign.isActive ? "Pause campaign" : "Activate campaign"}>
              <ActionIcon
                variant="light"
                color={campaign.isActive ? "orange" : "green"}
                aria-label={campaign.isActive ? "Pause campaign" : "Activate campaign"}
                onClick={() => void onToggle()}
                disabled={toggle.isPending}
              >
                {campaign.isActive ? <IconPlayerPause size={16} /> : <IconPlayerPlay size={16} />}
              </ActionIcon>
            </Tooltip>
            <Tooltip label="Edit campaign">
              <ActionIcon
                variant="light"
                component={Link}
                to={`/campaigns/${campaign._id}/edit`}
                aria-label="Edit campaign"
              >
                <IconEdit size={16} />
              </ActionIcon>
            </Tooltip>
            <Tooltip label="Delete campaign">
              <ActionIcon
                variant="light"
                color="red"
                aria-label="Delete campaign"
                onClick={askDelete}
              >
                <IconTrash size={16} />
              </ActionIcon>
            </Tooltip>
            <ActionIcon
              variant="subtle"
              color="gray"
              aria-label={expanded ? "Hide details" : "Show details"}
              aria-expanded={expanded}
              onClick={toggleExpanded}
            >
              {expanded ? <IconChevronUp size={16} /> : <IconChevronDown size={16} />}
            </ActionIcon>
          </Group>
        </Group>
        {error ? (
          <Text c="red" fz="sm" role="alert">
            {error}
          </Text>
        ) : null}
        <SimpleGrid cols={{ base: 2, md: 4 }} spacing="sm">
          <Tile
            label="Impressions"
            value={campaign.analytics.impressions.toLocaleString("en-IN")}
          />
          <Tile
            label="Conversions"
            value={campaign.analytics.conversions.toLocaleString("en-IN")}
          />
          <Tile label="Conversion rate" value={`${rate.toFixed(1)}%`} />
          <Tile
            label="Revenue"
            value={formatInr(campaign.analytics.revenue)}
            note={REPORTED_REVENUE}
          />
        </SimpleGrid>
        <HeldOrdersNotice
          held={analytics.data?.heldOrders}
          campaignId={campaign._id}
          maxOrderValue={campaign.settings.revenue.maxOrderValue}
        />
        <Stack gap={4}>
          <Group justify="space-between">
            <Text fz="xs" c="dimmed">
              Performance
            </Text>
            <Text fz="xs" c="dimmed">
              {rate.toFixed(1)}% conversion
            </Text>
          </Group>
          <Progress value={performanceBar(rate)} aria-label="Performance" />
        </Stack>
        {expanded ? (
          <Stack gap={0}>
            <Divider mb="md" />
            <Stack gap="md">
              <SimpleGrid cols={{ base: 2, md: 4 }} spacing="sm">
                <div>
                  <Text fz="xs" c="dimmed">
                    Revenue
                  </Text>
                  <Text fw={600}>{formatInr(campaign.analytics.revenue)}</Text>
                </div>
                <div>
                  <Text fz="xs" c="dimmed">
                    Exit intent
                  </Text>
                  <Text fw={600}>{exit.enabled ? "Enabled" : "Disabled"}</Text>
                </div>
                <div>
                  <Text fz="xs" c="dimmed">
                    Sensitivity
                  </Text>
                  <Text fw={600} tt="capitalize">
                    {exit.sensitivity}
                  </Text>
                </div>
                <div>
                  <Text fz="xs" c="dimmed">
                    Delay
                  </Text>
                  <Text fw={600}>{exit.delay} ms</Text>
                </div>
              </SimpleGrid>
              <InstallationScripts campaignId={campaign._id} />
            </Stack>
          </Stack>
        ) : null}
      </Stack>
      <Modal opened={confirming} onClose={cancelDelete} title="Delete campaign" centered>
        <Stack>
          <Text>
            Delete the campaign <b>{campaign.name}</b>? Its popup stops showing and its figures are
            removed. Your customers are kept. This cannot be undone.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={cancelDelete}>
              Cancel
            </Button>
            <Button color="red" loading={remove.isPending} onClick={() => void onDelete()}>
              Delete
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Card>
  );
}
