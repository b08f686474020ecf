import {
  ActionIcon,
  Avatar,
  Badge,
  Button,
  Card,
  Grid,
  Group,
  Menu,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  ThemeIcon,
  Title,
} from "@mantine/core";
import {
  IconCurrencyRupee,
  IconDots,
  IconPercentage,
  IconPlus,
  IconSpeakerphone,
  IconTargetArrow,
} from "@tabler/icons-react";
import { Link, useNavigate } from "react-router";
import { $api } from "../../../lib/api-client";
import { useAuth } from "../../../lib/auth";
import { formatDate, formatInr } from "../../../lib/format";
import { planSummary } from "../api/plan-summary";
import { recentActivity, summarize } from "../api/summary";

function Metric({
  label,
  value,
  icon: Icon,
}: {
  label: string;
  value: string;
  icon: typeof IconCurrencyRupee;
}) {
  return (
    <Card withBorder radius="md" p="lg">
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <div>
          <Text fz="xs" c="dimmed" tt="uppercase" fw={700}>
            {label}
          </Text>
          <Text fz={26} fw={800}>
            {value}
          </Text>
        </div>
        <ThemeIcon variant="light" size={38} radius="md">
          <Icon size={20} />
        </ThemeIcon>
      </Group>
    </Card>
  );
}

export function DashboardPage() {
  const { user } = useAuth();
  const navigate = useNavigate();
  const campaigns = $api.useQuery("get", "/api/campaigns");
  if (!user) return null;
  const plan = planSummary(user);

  if (campaigns.isLoading) {
    return (
      <Stack maw={1200} aria-busy="true">
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
    <Stack maw={1200} gap="lg">
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
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
        <Metric label="Total Revenue" value={formatInr(s.totalRevenue)} icon={IconCurrencyRupee} />
        <Metric
          label="Total Conversions"
          value={s.conversions.toLocaleString("en-IN")}
          icon={IconTargetArrow}
        />
        <Metric
          label="Active Campaigns"
          value={String(s.activeCampaigns)}
          icon={IconSpeakerphone}
        />
        <Metric
          label="Conversion Rate"
          value={`${s.conversionRate.toFixed(2)}%`}
          icon={IconPercentage}
        />
      </SimpleGrid>
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
              <Table.ScrollContainer minWidth={520}>
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
                            {c.analytics.impressions.toLocaleString("en-IN")} impressions ·{" "}
                            {c.websiteUrl}
                          </Text>
                        </Table.Td>
                        <Table.Td style={{ whiteSpace: "nowrap" }}>
                          <Badge
                            color={c.isActive ? "green" : "gray"}
                            variant="light"
                            style={{ overflow: "visible" }}
                          >
                            {c.isActive ? "Active" : "Inactive"}
                          </Badge>
                        </Table.Td>
                        <Table.Td>{c.analytics.conversionRate.toFixed(2)}%</Table.Td>
                        <Table.Td>
                          <Menu position="bottom-end" withinPortal>
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
