import {
  Alert,
  Button,
  Card,
  Group,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  VisuallyHidden,
} from "@mantine/core";
import {
  IconCircleCheck,
  IconCircleX,
  IconCurrencyRupee,
  IconDownload,
  IconFileInvoice,
  IconReceipt,
  IconSearch,
} from "@tabler/icons-react";
import { useMemo, useState } from "react";
import { Link } from "react-router";
import { StatCard } from "../../../components/StatCard";
import { formatDate, formatInrExact } from "../../../lib/format";
import { usePaymentHistory } from "../api/billing";
import {
  DATE_FILTERS,
  filterPayments,
  hasInvoice,
  STATUS_FILTERS,
  summarize,
  type DateFilter,
  type StatusFilter,
} from "../api/history";
import { historyCsv, historyCsvName } from "../api/history-csv";
import { paymentModeText } from "../api/invoice";
import { PaymentReason, PaymentStatusBadge } from "../components/PaymentStatusBadge";

function InvoiceButton({ txnid }: { txnid: string }) {
  return (
    <Button
      component={Link}
      to={`/billing/invoice/${encodeURIComponent(txnid)}`}
      size="compact-sm"
      variant="light"
      leftSection={<IconFileInvoice size={14} />}
      style={{ flexShrink: 0 }}
    >
      Invoice
    </Button>
  );
}

/** Saves the listed payments as a CSV file, made here in the browser. */
function downloadCsv(csv: string, name: string) {
  const url = URL.createObjectURL(new Blob([csv], { type: "text/csv;charset=utf-8" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  URL.revokeObjectURL(url);
}

/** The credit note a refund issued, under the payment's status. */
function CreditNote({ number }: { number?: string | null }) {
  return number ? (
    <Text fz="xs" c="dimmed" mt={2}>
      Credit note {number}
    </Text>
  ) : null;
}

/** Every payment, with search, status and date filters, totals, CSV export and invoices. */
export function PaymentHistoryPage() {
  const history = usePaymentHistory();
  const [search, setSearch] = useState("");
  const [status, setStatus] = useState<StatusFilter>("all");
  const [date, setDate] = useState<DateFilter>("all");
  if (history.isError) console.error("payment history failed", history.error);

  const payments = useMemo(() => history.data?.data ?? [], [history.data]);
  const shown = useMemo(
    () => filterPayments(payments, { search, status, date }, new Date()),
    [payments, search, status, date],
  );
  const summary = summarize(shown);

  return (
    <Stack gap="lg">
      <Card withBorder radius="md" p="md">
        <Group gap="sm" align="flex-end" wrap="wrap">
          <TextInput
            label="Search"
            placeholder="Transaction ID or description"
            leftSection={<IconSearch size={16} />}
            value={search}
            onChange={(e) => setSearch(e.currentTarget.value)}
            style={{ flex: "1 1 240px" }}
          />
          <Select
            label="Status"
            data={STATUS_FILTERS}
            value={status}
            onChange={(v) => setStatus((v as StatusFilter | null) ?? "all")}
            allowDeselect={false}
            w={150}
            style={{ flex: "1 1 140px" }}
          />
          <Select
            label="Date"
            data={DATE_FILTERS}
            value={date}
            onChange={(v) => setDate((v as DateFilter | null) ?? "all")}
            allowDeselect={false}
            w={170}
            style={{ flex: "1 1 150px" }}
          />
          <Button
            leftSection={<IconDownload size={16} />}
            variant="default"
            disabled={shown.length === 0}
            onClick={() => downloadCsv(historyCsv(shown), historyCsvName(new Date()))}
          >
            Export CSV
          </Button>
        </Group>
      </Card>

      <Stack gap={6}>
        <SimpleGrid cols={{ base: 2, md: 4 }}>
          <StatCard
            iconVisibleFrom="sm"
            label="Total Transactions"
            value={summary.total.toLocaleString("en-IN")}
            icon={IconReceipt}
            color="indigo"
          />
          <StatCard
            iconVisibleFrom="sm"
            label="Total Amount"
            value={formatInrExact(summary.amount)}
            icon={IconCurrencyRupee}
            color="teal"
          />
          <StatCard
            iconVisibleFrom="sm"
            label="Successful"
            value={summary.successful.toLocaleString("en-IN")}
            icon={IconCircleCheck}
            color="green"
          />
          <StatCard
            iconVisibleFrom="sm"
            label="Failed"
            value={summary.failed.toLocaleString("en-IN")}
            icon={IconCircleX}
            color="red"
          />
        </SimpleGrid>
        <Text fz="xs" c="dimmed">
          Figures cover the transactions matching your filters; the total amount counts successful
          payments only, and checkouts that were not completed are left out.
        </Text>
      </Stack>

      <Card withBorder radius="md" p={0}>
        {history.isLoading ? (
          <Stack p="md" gap="xs">
            {[1, 2, 3, 4, 5].map((i) => (
              <Skeleton key={i} h={32} />
            ))}
          </Stack>
        ) : history.isError ? (
          <Alert color="red" role="alert" m="md">
            Failed to load payment history. Please try again.
          </Alert>
        ) : shown.length === 0 ? (
          <Stack align="center" gap={4} p="xl">
            <Text fw={600}>No transactions found</Text>
            <Text c="dimmed" fz="sm">
              {payments.length === 0
                ? "Payments you make will appear here."
                : "Try adjusting your search or filters."}
            </Text>
          </Stack>
        ) : (
          <>
            <Table.ScrollContainer minWidth={820} visibleFrom="lg">
              <Table verticalSpacing="sm" horizontalSpacing="md" striped highlightOnHover>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Transaction ID</Table.Th>
                    <Table.Th>Date</Table.Th>
                    <Table.Th>Description</Table.Th>
                    <Table.Th ta="right">Amount</Table.Th>
                    <Table.Th>Status</Table.Th>
                    <Table.Th>Payment Mode</Table.Th>
                    <Table.Th>
                      <VisuallyHidden>Actions</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {shown.map((p) => (
                    <Table.Tr key={p.txnid}>
                      <Table.Td ff="monospace" fz="sm">
                        {p.txnid}
                      </Table.Td>
                      <Table.Td>{formatDate(p.createdAt)}</Table.Td>
                      <Table.Td>{p.productinfo}</Table.Td>
                      <Table.Td ta="right">{formatInrExact(p.amount)}</Table.Td>
                      <Table.Td maw={260}>
                        <PaymentStatusBadge status={p.status} />
                        <PaymentReason status={p.status} reason={p.errorMessage} />
                        <CreditNote number={p.creditNoteNumber} />
                      </Table.Td>
                      <Table.Td>{paymentModeText(p.paymentMode)}</Table.Td>
                      <Table.Td>
                        {hasInvoice(p) ? <InvoiceButton txnid={p.txnid} /> : null}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            <Stack gap={0} hiddenFrom="lg" component="ul" p={0} m={0} style={{ listStyle: "none" }}>
              {shown.map((p, i) => (
                <Stack
                  key={p.txnid}
                  component="li"
                  gap={6}
                  p="md"
                  style={i > 0 ? { borderTop: "1px solid var(--mantine-color-gray-3)" } : undefined}
                >
                  <Group justify="space-between" wrap="nowrap" align="flex-start" gap="sm">
                    <div style={{ minWidth: 0 }}>
                      <Text fz="sm" fw={600}>
                        {p.productinfo}
                      </Text>
                      <Text fz="xs" c="dimmed">
                        {formatDate(p.createdAt)} · {paymentModeText(p.paymentMode)}
                      </Text>
                      <PaymentReason status={p.status} reason={p.errorMessage} />
                    </div>
                    <Stack gap={4} align="flex-end" style={{ flexShrink: 0 }}>
                      <Text fz="sm" fw={700}>
                        {formatInrExact(p.amount)}
                      </Text>
                      <PaymentStatusBadge status={p.status} />
                      <CreditNote number={p.creditNoteNumber} />
                    </Stack>
                  </Group>
                  <Group justify="space-between" wrap="nowrap" gap="sm">
                    <Text fz="xs" ff="monospace" c="dimmed" style={{ overflowWrap: "anywhere" }}>
                      {p.txnid}
                    </Text>
                    {hasInvoice(p) ? <InvoiceButton txnid={p.txnid} /> : null}
                  </Group>
                </Stack>
              ))}
            </Stack>
          </>
        )}
      </Card>
    </Stack>
  );
}
