import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Pagination,
  Progress,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import {
  IconArrowDown,
  IconArrowUp,
  IconDownload,
  IconPercentage,
  IconSearch,
  IconUserPlus,
  IconUsers,
  IconUserStar,
} from "@tabler/icons-react";
import { useEffect, useState } from "react";
import { useSearchParams } from "react-router";
import { Breakable } from "../../../components/Breakable";
import { StatCard } from "../../../components/StatCard";
import { countOf } from "../../../lib/format";
import { DEFAULT_SORT, nextSort, type Sort } from "../api/customer-sort";
import {
  fetchCustomersCsv,
  useCustomer,
  useCustomerOverview,
  useCustomers,
} from "../api/customers";
import { STATUSES, type Status } from "../api/customer-status";
import { type Customer, CustomerDialog } from "../components/CustomerDialog";
import {
  changeCaption,
  changeColor,
  formatLastActive,
  OVERVIEW_ERROR,
  SKELETON_ROWS,
  SORTS,
  STATUS_COLORS,
  statusLabel,
} from "../components/display";
import { paginationControlLabel } from "../../../components/a11y";

function Overview() {
  const overview = useCustomerOverview();
  useEffect(() => {
    if (overview.isError) console.error("customer analytics failed", overview.error);
  }, [overview.isError, overview.error]);
  if (overview.isError) {
    return (
      <Card withBorder radius="md" p="lg" data-testid="overview-error">
        <Stack align="center" gap="sm">
          <Text c="red" role="alert">
            {OVERVIEW_ERROR}
          </Text>
          <Button
            variant="light"
            loading={overview.isFetching}
            onClick={() => void overview.refetch()}
          >
            Try Again
          </Button>
        </Stack>
      </Card>
    );
  }
  const o = overview.data;
  if (!o) {
    return (
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} aria-busy="true">
        {[1, 2, 3, 4].map((i) => (
          <Skeleton key={i} h={110} radius="md" />
        ))}
      </SimpleGrid>
    );
  }
  const total = STATUSES.reduce((n, s) => n + o.conversionStats[s], 0);
  return (
    <>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
        <StatCard
          size="lg"
          label="Total Customers"
          value={o.totalCustomers.toLocaleString("en-IN")}
          caption={changeCaption(o.totalCustomers, o.previous.totalCustomers)}
          captionColor={changeColor(o.totalCustomers, o.previous.totalCustomers)}
          icon={IconUsers}
        />
        <StatCard
          size="lg"
          label="New Customers"
          value={o.newCustomers.toLocaleString("en-IN")}
          caption={changeCaption(o.newCustomers, o.previous.newCustomers)}
          captionColor={changeColor(o.newCustomers, o.previous.newCustomers)}
          icon={IconUserPlus}
        />
        <StatCard
          size="lg"
          label="Conversion Rate"
          value={`${o.conversionRate.toFixed(1)}%`}
          caption="Customers who are buyers today"
          captionColor="dimmed"
          icon={IconPercentage}
        />
        <StatCard
          size="lg"
          label="Active Leads"
          value={o.activeLeads.toLocaleString("en-IN")}
          caption="Leads whose latest chat was in this period"
          captionColor="dimmed"
          icon={IconUserStar}
        />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Card withBorder radius="md" p="lg">
          <Title order={4} mb="md">
            Customer Status Distribution
          </Title>
          <Stack gap="sm">
            {STATUSES.map((s) => {
              const n = o.conversionStats[s];
              return (
                <div key={s} data-testid={`status-${s}`}>
                  <Group justify="space-between" mb={4}>
                    <Text fz="sm">{statusLabel(s)}</Text>
                    <Text fz="sm" fw={600}>
                      {n.toLocaleString("en-IN")}
                    </Text>
                  </Group>
                  <Progress
                    value={total === 0 ? 0 : (n / total) * 100}
                    color={STATUS_COLORS[s]}
                    aria-label={`${statusLabel(s)} share`}
                  />
                </div>
              );
            })}
          </Stack>
        </Card>
        <Card withBorder radius="md" p="lg">
          <Title order={4} mb="md">
            Top Performing Campaigns
          </Title>
          {o.topCampaigns.length === 0 ? (
            <Text c="dimmed" fz="sm">
              No campaign has brought customers yet.
            </Text>
          ) : (
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Campaign</Table.Th>
                  <Table.Th ta="right">Customers</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {o.topCampaigns.map((c) => (
                  <Table.Tr key={`${c._id ?? ""}-${c.campaignName}`}>
                    <Table.Td>{c.campaignName}</Table.Td>
                    <Table.Td ta="right">{c.customers.toLocaleString("en-IN")}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </Card>
      </SimpleGrid>
    </>
  );
}

/** Downloads the CSV export as customers.csv; a failure is only logged and the screen stays put. */
async function exportCsv() {
  try {
    const url = URL.createObjectURL(await fetchCustomersCsv());
    const a = document.createElement("a");
    a.href = url;
    a.download = "customers.csv";
    document.body.appendChild(a);
    a.click();
    a.remove();
    URL.revokeObjectURL(url);
  } catch (e) {
    console.error("customer export failed", e);
  }
}

function StatusBadge({ status }: { status: string }) {
  return (
    <Badge
      variant="light"
      color={STATUS_COLORS[status as Status] ?? "gray"}
      // Never squeezed below its text: a cut status tells the owner nothing.
      style={{ minWidth: "max-content" }}
    >
      {statusLabel(status)}
    </Badge>
  );
}

function ViewButton({ customer, onView }: { customer: Customer; onView: (c: Customer) => void }) {
  return (
    <Button
      size="xs"
      variant="light"
      onClick={() => onView(customer)}
      aria-label={`View ${customer.email}`}
      style={{ flexShrink: 0 }}
    >
      View
    </Button>
  );
}

function CustomerTable({
  customers,
  onView,
}: {
  customers: Customer[];
  onView: (c: Customer) => void;
}) {
  return (
    <Table.ScrollContainer minWidth={760} visibleFrom="lg">
      <Table verticalSpacing="sm" highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Customer</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Lead Score</Table.Th>
            <Table.Th>Conversations</Table.Th>
            <Table.Th>Last Active</Table.Th>
            <Table.Th>Source</Table.Th>
            <Table.Th>Actions</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {customers.map((c) => (
            <Table.Tr key={c._id}>
              <Table.Td>
                {/* A long email wraps at its dots, so the columns fit beside it. */}
                <Text fz="sm" fw={600}>
                  <Breakable text={c.name || c.email} />
                </Text>
                {c.name && (
                  <Text fz="xs" c="dimmed">
                    <Breakable text={c.email} />
                  </Text>
                )}
              </Table.Td>
              <Table.Td>
                <StatusBadge status={c.conversionStatus} />
              </Table.Td>
              <Table.Td>{c.leadScore}</Table.Td>
              <Table.Td>{c.totalConversations.toLocaleString("en-IN")}</Table.Td>
              <Table.Td style={{ whiteSpace: "nowrap" }}>
                {formatLastActive(c.lastConversationDate) || "—"}
              </Table.Td>
              <Table.Td>{c.sourceCampaign || "Direct"}</Table.Td>
              <Table.Td>
                <ViewButton customer={c} onView={onView} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/**
 * The list as stacked cards, for screens too narrow for the table's columns (below 1200 px: a
 * tablet's 1024 px leaves about 690 px beside the sidebar, under the table's 760).
 */
function CustomerCards({
  customers,
  onView,
}: {
  customers: Customer[];
  onView: (c: Customer) => void;
}) {
  return (
    <Stack gap="xs" hiddenFrom="lg" component="ul" p={0} m={0} style={{ listStyle: "none" }}>
      {customers.map((c) => (
        <Card key={c._id} component="li" withBorder radius="md" p="sm" data-testid="customer-card">
          <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
            <div style={{ minWidth: 0 }}>
              <Text fz="sm" fw={600}>
                <Breakable text={c.name || c.email} />
              </Text>
              {c.name && (
                <Text fz="xs" c="dimmed">
                  <Breakable text={c.email} />
                </Text>
              )}
            </div>
            <ViewButton customer={c} onView={onView} />
          </Group>
          <Group gap="xs" mt="xs" wrap="wrap">
            <StatusBadge status={c.conversionStatus} />
            <Text fz="xs" c="dimmed">
              Lead Score {c.leadScore} · {countOf(c.totalConversations, "conversation")}
            </Text>
          </Group>
          <Text fz="xs" c="dimmed" mt={4}>
            Last active {formatLastActive(c.lastConversationDate) || "—"} ·{" "}
            {c.sourceCampaign || "Direct"}
          </Text>
        </Card>
      ))}
    </Stack>
  );
}

function CustomerDatabase() {
  const [search, setSearch] = useState("");
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const [status, setStatus] = useState<string>("all");
  const [sort, setSort] = useState<Sort>(DEFAULT_SORT);
  const [page, setPage] = useState(1);
  const [viewing, setViewing] = useState<Customer | null>(null);
  // A notification of a new lead opens /customers?customer=ID: that customer's dialog.
  const [params, setParams] = useSearchParams();
  const linked = useCustomer(params.get("customer"));
  const shown = viewing ?? linked.data?.customer ?? null;
  function closeDialog() {
    setViewing(null);
    if (params.has("customer")) {
      const next = new URLSearchParams(params);
      next.delete("customer");
      setParams(next, { replace: true });
    }
  }

  const list = useCustomers({ page, search: debounced, status, sort });

  let body;
  if (list.isLoading) {
    body = (
      <Stack gap="xs" aria-busy="true">
        {Array.from({ length: SKELETON_ROWS }, (_, i) => (
          <Skeleton key={i} h={36} data-testid="skeleton-row" />
        ))}
      </Stack>
    );
  } else if (list.isError || !list.data) {
    body = (
      <Stack align="center" py="xl" gap="sm">
        <Text c="red" role="alert">
          Failed to load customers. Please try again.
        </Text>
        <Button variant="light" loading={list.isFetching} onClick={() => void list.refetch()}>
          Try Again
        </Button>
      </Stack>
    );
  } else if (list.data.customers.length === 0) {
    body = (
      <Stack align="center" py="xl" gap={4}>
        <Text fw={600}>No customers found</Text>
        <Text c="dimmed" fz="sm">
          Try adjusting your search filters or check back later
        </Text>
      </Stack>
    );
  } else {
    body = (
      <>
        <CustomerTable customers={list.data.customers} onView={setViewing} />
        <CustomerCards customers={list.data.customers} onView={setViewing} />
      </>
    );
  }
  const pages = list.data?.pagination.pages ?? 0;
  const total = list.data?.pagination.total ?? 0;
  // Past 10,000 matches a search stops counting: "10,000+ customers".
  const more = list.data?.pagination.capped ? "+" : "";

  return (
    <Card withBorder radius="md" p="lg">
      <Stack gap="md">
        {linked.isError ? (
          <Alert color="yellow" role="status">
            The customer this link names no longer exists in your account.
          </Alert>
        ) : null}
        <Group justify="space-between" align="flex-end" wrap="wrap">
          <Title order={4}>Customer Database</Title>
          <Group gap="xs" wrap="wrap">
            <TextInput
              aria-label="Search customers"
              placeholder="Search customers..."
              leftSection={<IconSearch size={16} />}
              value={search}
              onChange={(e) => {
                setSearch(e.currentTarget.value);
                setPage(1);
              }}
              w={240}
            />
            <Select
              aria-label="Status filter"
              data={[
                { value: "all", label: "All Statuses" },
                ...STATUSES.map((s) => ({ value: s, label: statusLabel(s) })),
              ]}
              value={status}
              onChange={(v) => {
                setStatus(v ?? "all");
                setPage(1);
              }}
              allowDeselect={false}
              w={160}
            />
          </Group>
        </Group>
        <Group gap="xs">
          <Text fz="sm" c="dimmed">
            Sort by
          </Text>
          {SORTS.map((s) => {
            const active = sort.by === s.by;
            const Arrow = sort.order === "desc" ? IconArrowDown : IconArrowUp;
            return (
              <Button
                key={s.by}
                size="xs"
                variant={active ? "filled" : "default"}
                aria-pressed={active}
                rightSection={active ? <Arrow size={14} aria-label={sort.order} /> : undefined}
                onClick={() => {
                  setSort(nextSort(sort, s.by));
                  setPage(1);
                }}
              >
                {s.label}
              </Button>
            );
          })}
        </Group>
        {body}
        {pages > 1 && (
          <Group justify="space-between">
            <Text fz="sm" c="dimmed">
              {total.toLocaleString("en-IN")}
              {more} customers
            </Text>
            <Pagination
              getControlProps={paginationControlLabel}
              total={pages}
              value={page}
              onChange={setPage}
              size="sm"
            />
          </Group>
        )}
      </Stack>
      <CustomerDialog customer={shown} onClose={closeDialog} />
    </Card>
  );
}

/** The title is the shell header's: the page starts with its action. */
export function CustomersPage() {
  return (
    <Stack gap="lg">
      <Group justify="flex-end">
        <Button
          leftSection={<IconDownload size={16} />}
          variant="light"
          onClick={() => void exportCsv()}
        >
          Export CSV
        </Button>
      </Group>
      <Overview />
      <CustomerDatabase />
    </Stack>
  );
}
