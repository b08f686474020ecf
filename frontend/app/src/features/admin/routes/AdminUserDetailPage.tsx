import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Center,
  Grid,
  Group,
  List,
  Menu,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Tabs,
  Text,
  TextInput,
  Timeline,
  Title,
} from "@mantine/core";
import {
  IconArrowLeft,
  IconCalendar,
  IconChevronDown,
  IconCurrencyRupee,
  IconKey,
  IconLogin2,
  IconLogout,
  IconMessages,
  IconPencil,
  IconPercentage,
  IconPlayerPause,
  IconPlayerPlay,
  IconReplace,
  IconSearch,
  IconShieldCog,
  IconSpeakerphone,
  IconTrash,
  IconUserStar,
} from "@tabler/icons-react";
import { useState, type ReactNode } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { messageOf } from "../../../lib/api-client";
import { useAuth } from "../../../lib/auth";
import { formatDate, formatInr } from "../../../lib/format";
import { useUserDetail } from "../api/admin";
import { auditAction, auditDetails, count, formatPrice, perInterval } from "../api/display";
import { rowControls, usePermissions } from "../api/permissions";
import { isNetworkError, isNotFound } from "../../../lib/errors";
import { limitLines, PLAN_FLAGS } from "../api/plan-form";
import type { UserDetail } from "../api/types";
import { RoleBadge, StatusBadge, SuspendedBadge } from "../components/Badges";
import {
  AccountOperationModal,
  NotesPanel,
  type AccountOperation,
} from "../components/AccountOperations";
import { TAB_LIST_STYLE, TAB_PX } from "../components/compact";
import { StatCard } from "../../../components/StatCard";
import { UsageBar } from "../components/UsageBar";
import { UserActionModal, type UserAction } from "../components/UserTable";
import { UserPaymentsPanel } from "../components/UserPaymentsPanel";
import { scrollRegion } from "../../../components/a11y";

const dateTime = new Intl.DateTimeFormat("en-IN", { dateStyle: "medium", timeStyle: "short" });

function when(iso: string | null | undefined): string {
  if (!iso) return "—";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? "—" : dateTime.format(d);
}

/** The failure text: not found, a refusal with the server's words, or no answer at all. */
function failureText(error: unknown): string {
  if (isNotFound(error)) return "User not found";
  if (isNetworkError(error)) return "Error fetching user details";
  return messageOf(error, "Failed to fetch user details");
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Group justify="space-between" gap="xs" wrap="nowrap">
      <Text fz="sm" c="dimmed">
        {label}
      </Text>
      <Text fz="sm" fw={500} ta="right" component="div" style={{ minWidth: 0 }}>
        {children}
      </Text>
    </Group>
  );
}

function Empty({ title, text }: { title: string; text: string }) {
  return (
    <Stack align="center" gap={4} py="xl">
      <Text fw={600}>{title}</Text>
      <Text c="dimmed" fz="sm" ta="center">
        {text}
      </Text>
    </Stack>
  );
}

function OverviewTab({ detail }: { detail: UserDetail }) {
  const { user, analytics, campaigns } = detail;
  return (
    <Stack gap="md">
      <Grid gutter="md">
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Card withBorder radius="md" p="md" h="100%">
            <Title order={5} mb="sm">
              Account
            </Title>
            <Stack gap={6}>
              <Field label="Phone">{user.phone || "—"}</Field>
              <Field label="Joined">{formatDate(user.createdAt)}</Field>
              <Field label="Last login">{when(user.lastLoginAt)}</Field>
              <Field label="Plan">{user.planId}</Field>
              <Field label="Payments">{count(user.totalPayments)}</Field>
              <Field label="Last payment">{formatDate(user.lastPaymentDate) || "—"}</Field>
            </Stack>
          </Card>
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 6, md: 4 }}>
          <Card withBorder radius="md" p="md" h="100%">
            <Title order={5} mb="sm">
              This Month
            </Title>
            <Stack gap={6}>
              <Field label="Conversations">{count(analytics.conversations.thisMonth)}</Field>
              <Field label="New customers">{count(analytics.customers.thisMonth)}</Field>
              <Field label="Revenue per customer">
                {formatInr(analytics.revenue.averagePerCustomer)}
              </Field>
            </Stack>
          </Card>
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 6, md: 4 }}>
          <Card withBorder radius="md" p="md" h="100%">
            <Title order={5} mb="sm">
              Usage
            </Title>
            <Stack gap="sm">
              <UsageBar
                label="Campaigns"
                used={analytics.usage.campaignUsage}
                limit={analytics.usage.campaignLimit}
              />
              <UsageBar
                label="Visitors this month"
                used={analytics.usage.visitorUsage}
                limit={analytics.usage.visitorLimit}
              />
            </Stack>
          </Card>
        </Grid.Col>
      </Grid>
      <Card withBorder radius="md" p="md">
        <Title order={5} mb="sm">
          Campaigns
        </Title>
        {campaigns.length === 0 ? (
          <Empty title="No campaigns found" text="This user hasn't created a campaign yet." />
        ) : (
          <Table.ScrollContainer minWidth={720} scrollAreaProps={scrollRegion("Campaigns")}>
            <Table verticalSpacing="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Campaign</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th ta="right">Impressions</Table.Th>
                  <Table.Th ta="right">Conversations</Table.Th>
                  <Table.Th ta="right">Customers</Table.Th>
                  <Table.Th ta="right">Conversion</Table.Th>
                  <Table.Th ta="right">Revenue</Table.Th>
                  <Table.Th>Created</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {campaigns.map((c) => (
                  <Table.Tr key={c.id}>
                    <Table.Td fw={600}>{c.name}</Table.Td>
                    <Table.Td>
                      <Badge variant="light" color={c.isActive ? "green" : "gray"}>
                        {c.isActive ? "Active" : "Paused"}
                      </Badge>
                    </Table.Td>
                    <Table.Td ta="right">{count(c.impressions)}</Table.Td>
                    <Table.Td ta="right">{count(c.conversationsCount)}</Table.Td>
                    <Table.Td ta="right">{count(c.customersCount)}</Table.Td>
                    <Table.Td ta="right">{c.conversionRate.toFixed(1)}%</Table.Td>
                    <Table.Td ta="right">{formatInr(c.revenue)}</Table.Td>
                    <Table.Td>{formatDate(c.createdAt)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Card>
    </Stack>
  );
}

function SubscriptionTab({
  detail,
  onChangePlan,
}: {
  detail: UserDetail;
  /** Left out when the signed-in role may not change this account's plan. */
  onChangePlan?: () => void;
}) {
  const { user, subscription, currentPlan: plan } = detail;
  return (
    <Grid gutter="md">
      <Grid.Col span={{ base: 12, md: 6 }}>
        <Card withBorder radius="md" p="md" h="100%">
          <Group justify="space-between" mb="sm">
            <Title order={5}>Subscription</Title>
            {onChangePlan && (
              <Button size="xs" variant="light" onClick={onChangePlan}>
                Change Plan
              </Button>
            )}
          </Group>
          <Stack gap={6}>
            <Field label="Status">
              <StatusBadge
                subscriptionStatus={subscription?.status ?? user.subscriptionStatus}
                cancelAtPeriodEnd={subscription?.cancelAtPeriodEnd ?? user.cancelAtPeriodEnd}
              />
            </Field>
            <Field label="Plan">{user.planId}</Field>
            {subscription ? (
              <>
                <Field label="Billing">
                  {subscription.interval === "annual" ? "Annual" : "Monthly"}
                </Field>
                <Field label="Current period">
                  {formatDate(subscription.currentPeriodStart)} –{" "}
                  {formatDate(subscription.currentPeriodEnd)}
                </Field>
                <Field label="Renews">
                  {subscription.cancelAtPeriodEnd ? "No, ends with this period" : "Yes"}
                </Field>
              </>
            ) : (
              <Field label="Paid period">None</Field>
            )}
            {user.subscriptionEndsAt && (
              <Field label="Subscription ends">{formatDate(user.subscriptionEndsAt)}</Field>
            )}
            {user.subscriptionStatus === "trial" && user.trialEndsAt && (
              <Field label="Trial ends">{formatDate(user.trialEndsAt)}</Field>
            )}
          </Stack>
        </Card>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 6 }}>
        <Card withBorder radius="md" p="md" h="100%">
          <Title order={5} mb="sm">
            Current Plan
          </Title>
          {plan ? (
            <Stack gap="xs">
              <Group justify="space-between" wrap="wrap" gap="xs">
                <Text fw={700}>{plan.displayName}</Text>
                <Text fw={700}>
                  {formatPrice(plan.price, plan.currency)}
                  <Text span c="dimmed" fz="sm">
                    {perInterval(plan.interval)}
                  </Text>
                </Text>
              </Group>
              <Text fz="sm" c="dimmed">
                {limitLines(plan.limits).join(" · ")}
              </Text>
              <Group gap={6}>
                {PLAN_FLAGS.filter((f) => plan.limits[f.key]).map((f) => (
                  <Badge key={f.key} variant="light" size="sm">
                    {f.label}
                  </Badge>
                ))}
              </Group>
              <List size="sm" spacing={2}>
                {plan.features.map((f) => (
                  <List.Item key={f}>{f}</List.Item>
                ))}
              </List>
            </Stack>
          ) : (
            <Text c="dimmed" fz="sm">
              No plan matches {user.planId}; the user is treated as on the free plan.
            </Text>
          )}
        </Card>
      </Grid.Col>
    </Grid>
  );
}

function PaymentsTab({ detail }: { detail: UserDetail }) {
  const [txnid, setTxnid] = useState("");
  if (detail.payments.length === 0) {
    return (
      <Card withBorder radius="md" p="md">
        <Empty title="No Payments" text="This user hasn't made any payments yet." />
      </Card>
    );
  }
  const term = txnid.trim().toLowerCase();
  const shown = term
    ? detail.payments.filter((p) => p.txnid.toLowerCase().includes(term))
    : detail.payments;
  return (
    <Stack gap="sm">
      <TextInput
        label="Search by transaction ID"
        placeholder="txnid"
        leftSection={<IconSearch size={16} />}
        value={txnid}
        onChange={(e) => setTxnid(e.currentTarget.value)}
        maw={360}
      />
      {shown.length === 0 ? (
        <Card withBorder radius="md" p="md">
          <Empty
            title="No matching payment"
            text={`No transaction ID contains "${txnid.trim()}".`}
          />
        </Card>
      ) : (
        <UserPaymentsPanel payments={shown} />
      )}
    </Stack>
  );
}

const ACTIVITY_ICONS: Record<string, typeof IconMessages> = {
  conversation: IconMessages,
  customer: IconUserStar,
  payment: IconCurrencyRupee,
  admin: IconShieldCog,
};

function ActivityTab({ detail }: { detail: UserDetail }) {
  const { activityTimeline, audit } = detail;
  const nameOf = (id: string | null) => (id === detail.user.id ? detail.user.name : (id ?? ""));
  return (
    <Grid gutter="md">
      <Grid.Col span={{ base: 12, md: 6 }}>
        <Card withBorder radius="md" p="md" h="100%">
          <Title order={5} mb="md">
            Recent Activity
          </Title>
          {activityTimeline.length === 0 ? (
            <Empty title="No recent activity" text="Nothing has happened on this account yet." />
          ) : (
            <Timeline bulletSize={26} lineWidth={2}>
              {activityTimeline.map((a, i) => {
                const Icon = ACTIVITY_ICONS[a.type] ?? IconCalendar;
                return (
                  <Timeline.Item
                    key={`${a.timestamp}-${i}`}
                    bullet={<Icon size={14} />}
                    title={a.title}
                  >
                    <Text fz="sm" c="dimmed">
                      {a.description}
                    </Text>
                    <Text fz="xs" c="dimmed" mt={2}>
                      {when(a.timestamp)}
                    </Text>
                  </Timeline.Item>
                );
              })}
            </Timeline>
          )}
        </Card>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 6 }}>
        <Card withBorder radius="md" p="md" h="100%">
          <Title order={5} mb="md">
            Admin Actions
          </Title>
          {audit.length === 0 ? (
            <Text c="dimmed" fz="sm">
              No admin has changed this account.
            </Text>
          ) : (
            <Stack gap="sm">
              {audit.map((a) => (
                <div key={a.id} data-testid="audit-entry">
                  <Text fz="sm">
                    <Text span fw={600}>
                      {a.actorName}
                    </Text>{" "}
                    · {auditAction(a.action)}
                    {a.actingAsId && (
                      <Text span c="dimmed">
                        {" "}
                        (acting as {nameOf(a.actingAsId)})
                      </Text>
                    )}
                  </Text>
                  {auditDetails(a).map((line) => (
                    <Text
                      key={line}
                      fz="xs"
                      c="dimmed"
                      ff="monospace"
                      style={{ overflowWrap: "anywhere" }}
                    >
                      {line}
                    </Text>
                  ))}
                  <Text fz="xs" c="dimmed">
                    {when(a.createdAt)}
                  </Text>
                </div>
              ))}
            </Stack>
          )}
        </Card>
      </Grid.Col>
    </Grid>
  );
}

export function AdminUserDetailPage() {
  const { userId = "" } = useParams();
  const navigate = useNavigate();
  const { user: me } = useAuth();
  const allowed = usePermissions();
  const detail = useUserDetail(userId);
  const [action, setAction] = useState<UserAction | null>(null);
  const [operation, setOperation] = useState<AccountOperation | null>(null);

  if (detail.isLoading) {
    return (
      <Stack aria-busy="true">
        <Skeleton h={60} radius="md" />
        <SimpleGrid cols={{ base: 2, lg: 3 }}>
          {Array.from({ length: 6 }, (_, i) => (
            <Skeleton key={i} h={88} radius="md" />
          ))}
        </SimpleGrid>
        <Skeleton h={300} radius="md" />
      </Stack>
    );
  }
  if (!detail.data) {
    return (
      <Center mih="50vh">
        <Stack align="center" gap="sm">
          <Title order={3}>{failureText(detail.error)}</Title>
          <Group gap="xs">
            <Button variant="default" component={Link} to="/admin">
              Back to Admin Dashboard
            </Button>
            {!isNotFound(detail.error) && (
              <Button onClick={() => void detail.refetch()}>Try Again</Button>
            )}
          </Group>
        </Stack>
      </Center>
    );
  }

  const d = detail.data.data;
  const { user, summary } = d;
  const controls = rowControls(allowed, me?.id ?? "", user);
  const own = user.id === me?.id;
  // The server's rules: staff suspend owners; another staff account needs a superuser.
  const canSuspend =
    !own && allowed.can("suspendUsers") && (user.role === "user" || allowed.can("manageStaff"));
  const suspended = Boolean(user.suspendedAt);

  return (
    <Stack gap="lg">
      <div>
        <Anchor component={Link} to="/admin" fz="sm">
          <Group gap={4} component="span">
            <IconArrowLeft size={14} /> Admin Dashboard
          </Group>
        </Anchor>
        <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm" mt={4}>
          <div style={{ minWidth: 0 }}>
            <Title order={2} style={{ overflowWrap: "anywhere" }}>
              {user.name}
            </Title>
            <Text c="dimmed" style={{ overflowWrap: "anywhere" }}>
              {user.email}
            </Text>
            <Group gap={6} mt={6}>
              <RoleBadge role={user.role} />
              <StatusBadge
                subscriptionStatus={user.subscriptionStatus}
                cancelAtPeriodEnd={user.cancelAtPeriodEnd}
              />
              <SuspendedBadge suspendedAt={user.suspendedAt} />
              <Text fz="sm" c="dimmed">
                Plan {user.planId}
              </Text>
            </Group>
            {suspended && (
              <Text fz="sm" c="red.9" mt={4}>
                Suspended {when(user.suspendedAt)}: cannot sign in;{" "}
                {user.widgetPaused ? "widget paused" : "widget keeps working"}.
              </Text>
            )}
          </div>
          <Group gap="xs" wrap="wrap">
            {controls.edit && (
              <Button
                variant="default"
                leftSection={<IconPencil size={16} />}
                onClick={() => setAction("edit")}
              >
                Edit User
              </Button>
            )}
            {controls.changePlan && (
              <Button
                variant="light"
                leftSection={<IconReplace size={16} />}
                onClick={() => setAction("changePlan")}
              >
                Change Plan
              </Button>
            )}
            {controls.loginAs && (
              <Button
                variant="light"
                color="grape"
                leftSection={<IconLogin2 size={16} />}
                onClick={() => setAction("loginAs")}
              >
                Login as User
              </Button>
            )}
            {canSuspend &&
              (suspended ? (
                <Button
                  variant="light"
                  color="teal"
                  leftSection={<IconPlayerPlay size={16} />}
                  onClick={() => setOperation("unsuspend")}
                >
                  Unsuspend
                </Button>
              ) : (
                <Button
                  variant="light"
                  color="orange"
                  leftSection={<IconPlayerPause size={16} />}
                  onClick={() => setOperation("suspend")}
                >
                  Suspend
                </Button>
              ))}
            {controls.edit && (
              <Menu position="bottom-end" withinPortal>
                <Menu.Target>
                  <Button variant="default" rightSection={<IconChevronDown size={16} />}>
                    Account
                  </Button>
                </Menu.Target>
                <Menu.Dropdown>
                  <Menu.Item
                    leftSection={<IconKey size={16} />}
                    onClick={() => setOperation("reset")}
                  >
                    Send password reset email
                  </Menu.Item>
                  <Menu.Item
                    leftSection={<IconLogout size={16} />}
                    onClick={() => setOperation("signOut")}
                  >
                    Sign out everywhere
                  </Menu.Item>
                </Menu.Dropdown>
              </Menu>
            )}
            {controls.delete && (
              <Button
                variant="light"
                color="red"
                leftSection={<IconTrash size={16} />}
                onClick={() => setAction("delete")}
              >
                Delete User
              </Button>
            )}
          </Group>
        </Group>
      </div>

      {detail.isError && (
        <Alert color="red" variant="light">
          {failureText(detail.error)}
        </Alert>
      )}

      <SimpleGrid cols={{ base: 2, lg: 3 }} spacing="sm">
        <StatCard
          iconVisibleFrom="xs"
          gap="xs"
          label="Conversations"
          value={count(summary.totalConversations)}
          icon={IconMessages}
          color="cyan"
        />
        <StatCard
          iconVisibleFrom="xs"
          gap="xs"
          label="Customers"
          value={count(summary.totalCustomers)}
          icon={IconUserStar}
          color="pink"
        />
        <StatCard
          iconVisibleFrom="xs"
          gap="xs"
          label="Campaign Revenue"
          value={formatInr(summary.totalRevenue)}
          icon={IconCurrencyRupee}
          color="green"
        />
        <StatCard
          iconVisibleFrom="xs"
          gap="xs"
          label="Conversion"
          value={`${summary.conversionRate.toFixed(1)}%`}
          icon={IconPercentage}
          color="orange"
        />
        <StatCard
          iconVisibleFrom="xs"
          gap="xs"
          label="Active Campaigns"
          value={count(summary.activeCampaigns)}
          icon={IconSpeakerphone}
        />
        <StatCard
          iconVisibleFrom="xs"
          gap="xs"
          label="Account Age"
          value={`${count(summary.accountAge)} day${summary.accountAge === 1 ? "" : "s"}`}
          icon={IconCalendar}
          color="gray"
        />
      </SimpleGrid>

      <Tabs defaultValue="overview" keepMounted={false}>
        <Tabs.List mb="md" style={TAB_LIST_STYLE}>
          <Tabs.Tab value="overview" px={TAB_PX}>
            Overview
          </Tabs.Tab>
          <Tabs.Tab value="subscription" px={TAB_PX}>
            Subscription
          </Tabs.Tab>
          <Tabs.Tab value="payments" px={TAB_PX}>
            Payments
          </Tabs.Tab>
          <Tabs.Tab value="activity" px={TAB_PX}>
            Activity
          </Tabs.Tab>
          <Tabs.Tab value="notes" px={TAB_PX}>
            Notes
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="overview">
          <OverviewTab detail={d} />
        </Tabs.Panel>
        <Tabs.Panel value="subscription">
          <SubscriptionTab
            detail={d}
            onChangePlan={controls.changePlan ? () => setAction("changePlan") : undefined}
          />
        </Tabs.Panel>
        <Tabs.Panel value="payments">
          <PaymentsTab detail={d} />
        </Tabs.Panel>
        <Tabs.Panel value="activity">
          <ActivityTab detail={d} />
        </Tabs.Panel>
        <Tabs.Panel value="notes">
          <NotesPanel userId={user.id} canAdd={allowed.can("editUsers")} />
        </Tabs.Panel>
      </Tabs>

      <AccountOperationModal operation={operation} user={user} onClose={() => setOperation(null)} />

      <UserActionModal
        action={action ? { kind: action, user } : null}
        onClose={() => setAction(null)}
        onDeleted={() => navigate("/admin")}
      />
    </Stack>
  );
}
