import {
  ActionIcon,
  Avatar,
  Badge,
  Button,
  Card,
  Grid,
  Group,
  List,
  Menu,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from "@mantine/core";
import {
  IconCircleCheckFilled,
  IconCircleDashed,
  IconCurrencyRupee,
  IconDots,
  IconPercentage,
  IconPlus,
  IconSpeakerphone,
  IconTargetArrow,
} from "@tabler/icons-react";
import { useState } from "react";
import { Link, useNavigate } from "react-router";
import type { components } from "../../../api/schema";
import { HeldOrdersNotice } from "../../../components/RevenueNotes";
import { StatCard } from "../../../components/StatCard";
import { useAuth } from "../../../lib/auth";
import { countOf, formatDate, formatInr } from "../../../lib/format";
import { copiedScript } from "../../../lib/first-run";
import { REPORTED_REVENUE } from "../../../lib/revenue";
import { firstRunChecklist } from "../api/checklist";
import { useCampaignsAnalytics, useDashboardCampaigns } from "../api/dashboard";
import { planSummary } from "../api/plan-summary";
import { recentActivity, summarize } from "../api/summary";
import { VisitorQuotaBanner } from "../components/VisitorQuotaBanner";

type Campaigns = components["schemas"]["CampaignOut"][];

/** Shown until the owner's first lead: each step turns green from the account's real figures. */
function FirstRunChecklist({ userId, campaigns }: { userId: string; campaigns: Campaigns }) {
  const navigate = useNavigate();
  const [copied] = useState(() => copiedScript(userId));
  const items = firstRunChecklist(campaigns, { copiedScript: copied });
  if (items.every((i) => i.done)) return null;
  const first = campaigns[0];
  const action: Record<string, React.ReactNode> = {
    create: (
      <Button size="compact-sm" variant="light" component={Link} to="/campaigns/create">
        Create a campaign
      </Button>
    ),
    install: first ? (
      <Button
        size="compact-sm"
        variant="light"
        onClick={() => navigate("/campaigns", { state: { createdId: first._id } })}
      >
        Get the script
      </Button>
    ) : null,
    pageView: first ? (
      <Text fz="xs" c="dimmed">
        Waiting for a visitor on {first.websiteUrl} (your own Preview does not count). This turns
        green by itself.
      </Text>
    ) : null,
    lead: (
      <Text fz="xs" c="dimmed">
        A visitor leaves their email in the popup.
      </Text>
    ),
  };
  const next = items.find((i) => !i.done)?.key;
  return (
    <Card withBorder radius="md" p="lg" data-testid="first-run-checklist">
      <Title order={3} fz="h4" mb={4}>
        Get your first lead
      </Title>
      <Text fz="sm" c="dimmed" mb="md">
        {items.filter((i) => i.done).length} of {items.length} done
      </Text>
      <List spacing="sm" listStyleType="none" center>
        {items.map((item) => (
          <List.Item
            key={item.key}
            data-step={item.key}
            data-done={item.done}
            icon={
              item.done ? (
                <IconCircleCheckFilled size={22} color="var(--mantine-color-teal-8)" aria-hidden />
              ) : (
                <IconCircleDashed size={22} color="var(--mantine-color-gray-7)" aria-hidden />
              )
            }
          >
            <Group gap="sm">
              <Text
                fz="sm"
                fw={item.key === next ? 700 : 500}
                td={item.done ? "line-through" : undefined}
              >
                {item.label}
                <VisuallyHidden>{item.done ? " (done)" : " (to do)"}</VisuallyHidden>
              </Text>
              {item.done ? null : action[item.key]}
            </Group>
          </List.Item>
        ))}
      </List>
    </Card>
  );
}

/** Each campaign whose site reported orders above its largest order counted, with a way there. */
function HeldOrders({ campaigns }: { campaigns: Campaigns }) {
  const analytics = useCampaignsAnalytics(campaigns);
  const notices = campaigns.flatMap((c, i) => {
    const held = analytics[i]?.data?.heldOrders;
    return held && held.orders > 0 ? [{ c, held }] : [];
  });
  if (notices.length === 0) return null;
  return (
    <Stack gap="xs">
      {notices.map(({ c, held }) => (
        <HeldOrdersNotice
          key={c._id}
          held={held}
          campaignId={c._id}
          campaignName={campaigns.length > 1 ? c.name : undefined}
          maxOrderValue={c.settings.revenue.maxOrderValue}
        />
      ))}
    </Stack>
  );
}

/** One campaign as a stacked row, for screens too narrow for the table. */
function CampaignRow({ c, onOpen }: { c: Campaigns[number]; onOpen: () => void }) {
  return (
    <Card withBorder radius="md" p="sm" data-testid="campaign-row">
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
        <div style={{ minWidth: 0 }}>
          <Text fw={600} style={{ overflowWrap: "anywhere" }}>
            {c.name}
          </Text>
          <Text fz="xs" c="dimmed" style={{ overflowWrap: "anywhere" }}>
            {countOf(c.analytics.impressions, "impression")} · {c.websiteUrl}
          </Text>
        </div>
        <Button
          size="compact-sm"
          variant="default"
          onClick={onOpen}
          aria-label={`Open ${c.name}`}
          style={{ flexShrink: 0 }}
        >
          Open
        </Button>
      </Group>
      <Group gap="sm" mt="xs">
        <Badge color={c.isActive ? "green" : "gray"} variant="light">
          {c.isActive ? "Active" : "Inactive"}
        </Badge>
        <Text fz="sm">{c.analytics.conversionRate.toFixed(2)}% conversion rate</Text>
      </Group>
    </Card>
  );
}

export function DashboardPage() {
  const { user } = useAuth();
  const navigate = useNavigate();
  const campaigns = useDashboardCampaigns();
  if (!user) return null;
  const plan = planSummary(user);

  if (campaigns.isLoading) {
    return (
      <Stack aria-busy="true">
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
          {[1, 2, 3, 4].map((i) => (
            <Skeleton key={i} h={96} radius="md" />
          ))}
        </SimpleGrid>
        <Skeleton h={260} radius="md" />
      </Stack>
    );
  }
  if (campaigns.isError || !campaigns.data) {
    return (
      <Card withBorder radius="md" p="xl" maw={640}>
        <Stack align="flex-start">
          <Title order={3}>Failed to load dashboard</Title>
          <Text c="dimmed">Failed to load dashboard data</Text>
          <Button onClick={() => window.location.reload()}>Try Again</Button>
        </Stack>
      </Card>
    );
  }

  const list = campaigns.data.campaigns;
  const s = summarize(list);
  const activity = recentActivity(list, user.name);

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          <Title order={2}>Welcome back, {user.name.split(" ")[0]}</Title>
          <Group gap="xs">
            <Badge color={plan.color} variant="light">
              {plan.badge}
            </Badge>
            <Text c="dimmed" fz="sm">
              {plan.text}
            </Text>
          </Group>
        </Stack>
        <Button leftSection={<IconPlus size={16} />} onClick={() => navigate("/campaigns/create")}>
          Create Campaign
        </Button>
      </Group>
      <VisitorQuotaBanner />
      <FirstRunChecklist userId={user._id} campaigns={list} />
      <SimpleGrid cols={{ base: 1, xs: 2, lg: 4 }}>
        <StatCard
          size="lg"
          label="Total Revenue"
          value={formatInr(s.totalRevenue)}
          icon={IconCurrencyRupee}
          caption={REPORTED_REVENUE}
          captionLineHeight={1.3}
        />
        <StatCard
          size="lg"
          label="Total Conversions"
          value={s.conversions.toLocaleString("en-IN")}
          icon={IconTargetArrow}
        />
        <StatCard
          size="lg"
          label="Active Campaigns"
          value={String(s.activeCampaigns)}
          icon={IconSpeakerphone}
        />
        <StatCard
          size="lg"
          label="Conversion Rate"
          value={`${s.conversionRate.toFixed(2)}%`}
          icon={IconPercentage}
        />
      </SimpleGrid>
      <HeldOrders campaigns={list} />
      <Grid gutter="lg">
        <Grid.Col span={{ base: 12, lg: 8 }}>
          <Card withBorder radius="md" p="lg">
            <Title order={3} fz="h4" mb="md">
              Campaign Performance
            </Title>
            {list.length === 0 ? (
              <Stack align="center" py="xl">
                <Text fw={600}>No campaigns found</Text>
                <Button component={Link} to="/campaigns/create" variant="light">
                  Create Your First Campaign
                </Button>
              </Stack>
            ) : (
              <>
                <Stack gap="xs" hiddenFrom="md">
                  {list.map((c) => (
                    <CampaignRow
                      key={c._id}
                      c={c}
                      onOpen={() => navigate(`/campaigns/${c._id}/edit`)}
                    />
                  ))}
                </Stack>
                <Table.ScrollContainer minWidth={520} visibleFrom="md">
                  <Table verticalSpacing="sm" highlightOnHover>
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th>Campaign</Table.Th>
                        <Table.Th>Status</Table.Th>
                        <Table.Th>Conversion rate</Table.Th>
                        <Table.Th aria-label="Actions" />
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {list.map((c) => (
                        <Table.Tr key={c._id}>
                          <Table.Td>
                            <Text fw={600}>{c.name}</Text>
                            <Text fz="xs" c="dimmed">
                              {countOf(c.analytics.impressions, "impression")} · {c.websiteUrl}
                            </Text>
                          </Table.Td>
                          <Table.Td style={{ whiteSpace: "nowrap" }}>
                            <Badge
                              color={c.isActive ? "green" : "gray"}
                              variant="light"
                              // Never squeezed below its text: "ACTI…" told the owner nothing.
                              style={{ minWidth: "max-content" }}
                            >
                              {c.isActive ? "Active" : "Inactive"}
                            </Badge>
                          </Table.Td>
                          <Table.Td>{c.analytics.conversionRate.toFixed(2)}%</Table.Td>
                          <Table.Td>
                            <Menu
                              position="bottom-end"
                              withinPortal
                              withInitialFocusPlaceholder={false}
                            >
                              <Menu.Target>
                                <ActionIcon
                                  variant="subtle"
                                  color="gray"
                                  aria-label={`Actions for ${c.name}`}
                                >
                                  <IconDots size={16} />
                                </ActionIcon>
                              </Menu.Target>
                              <Menu.Dropdown>
                                <Menu.Item onClick={() => navigate(`/campaigns/${c._id}/edit`)}>
                                  View Details
                                </Menu.Item>
                                <Menu.Item onClick={() => navigate(`/campaigns/${c._id}/edit`)}>
                                  Edit Campaign
                                </Menu.Item>
                              </Menu.Dropdown>
                            </Menu>
                          </Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </Table.ScrollContainer>
              </>
            )}
          </Card>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 4 }}>
          <Card withBorder radius="md" p="lg" h="100%">
            <Title order={3} fz="h4" mb="md">
              Recent Activity
            </Title>
            {activity.length === 0 ? (
              <Text c="dimmed">No recent activity</Text>
            ) : (
              <Stack gap="md">
                {activity.map((a) => (
                  <Group key={a.id} gap="sm" wrap="nowrap" align="flex-start">
                    <Avatar
                      color={a.type === "conversion" ? "teal" : "indigo"}
                      radius="xl"
                      size={34}
                    >
                      {a.user.avatar}
                    </Avatar>
                    <div>
                      <Text fz="sm" fw={600}>
                        {a.title}
                      </Text>
                      <Text fz="sm" c="dimmed">
                        {a.description}
                      </Text>
                      <Text fz="xs" c="dimmed">
                        {formatDate(a.timestamp)}
                      </Text>
                    </div>
                  </Group>
                ))}
              </Stack>
            )}
          </Card>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
