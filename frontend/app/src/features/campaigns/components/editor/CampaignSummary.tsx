import { Badge, Button, Card, Group, SimpleGrid, Text, Title } from "@mantine/core";
import { IconExternalLink } from "@tabler/icons-react";
import { HeldOrdersNotice, ReportedRevenueCaption } from "../../../../components/RevenueNotes";
import { formatInr } from "../../../../lib/format";
import { useCampaignAnalytics, type Campaign } from "../../api/campaigns";

/**
 * The editor's head: the campaign's name and state with Preview, then its website, id and
 * figures as last saved, and its held orders with a way to the limit that held them.
 */
export function CampaignSummary({
  campaign,
  onChangeLimit,
}: {
  campaign: Campaign;
  /** Opens the field of the largest order counted. */
  onChangeLimit: () => void;
}) {
  const analytics = useCampaignAnalytics(campaign._id);
  const rate = campaign.analytics.conversionRate;
  return (
    <>
      <Group justify="space-between">
        <Group gap="sm" style={{ minWidth: 0 }}>
          <Title order={2} style={{ overflowWrap: "anywhere" }}>
            {campaign.name}
          </Title>
          <Badge color={campaign.isActive ? "green" : "gray"} variant="light">
            {campaign.isActive ? "Active" : "Inactive"}
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
              {campaign.websiteUrl}
            </Text>
          </div>
          <div>
            <Text fz="xs" c="dimmed">
              Campaign ID
            </Text>
            <Text fw={600} ff="monospace" fz="xs" style={{ overflowWrap: "anywhere" }}>
              {campaign._id}
            </Text>
          </div>
          <div>
            <Text fz="xs" c="dimmed">
              Impressions / Conversions
            </Text>
            <Text fw={600}>
              {campaign.analytics.impressions.toLocaleString("en-IN")} /{" "}
              {campaign.analytics.conversions.toLocaleString("en-IN")}
            </Text>
          </div>
          <div>
            <Text fz="xs" c="dimmed">
              Conversion rate · Revenue
            </Text>
            <Text fw={600}>
              {rate.toFixed(1)}% · {formatInr(campaign.analytics.revenue)}
            </Text>
            <ReportedRevenueCaption />
          </div>
        </SimpleGrid>
        <HeldOrdersNotice
          held={analytics.data?.heldOrders}
          campaignId={campaign._id}
          maxOrderValue={campaign.settings.revenue.maxOrderValue}
          mt="md"
          onChangeLimit={onChangeLimit}
        />
      </Card>
    </>
  );
}
