import {
  Alert,
  Badge,
  Box,
  Button,
  Center,
  Divider,
  Group,
  Loader,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from "@mantine/core";
import { IconArrowLeft, IconPrinter } from "@tabler/icons-react";
import type { ReactNode } from "react";
import { Link, useParams } from "react-router";
import { formatDate, formatInrExact } from "../../../lib/format";
import { useInvoice } from "../api/billing";
import { cycleName, paymentModeText, periodText, providerText } from "../api/invoice";
import "./invoice-print.css";

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Group gap="xs" wrap="nowrap" align="flex-start">
      <Text fz="sm" c="dimmed" w={{ base: 120, sm: 150 }} style={{ flexShrink: 0 }}>
        {label}
      </Text>
      <Text fz="sm" style={{ overflowWrap: "anywhere" }}>
        {children}
      </Text>
    </Group>
  );
}

function BackToHistory() {
  return (
    <Button
      component={Link}
      to="/billing/history"
      variant="subtle"
      leftSection={<IconArrowLeft size={16} />}
      px={0}
      style={{ alignSelf: "flex-start" }}
    >
      Back to Payment History
    </Button>
  );
}

/** A printable invoice for one successful payment. */
export function InvoicePage() {
  const { txnid = "" } = useParams();
  const invoice = useInvoice(txnid);

  if (invoice.isLoading) {
    return (
      <Center mih="40vh">
        <Loader aria-label="Loading invoice" />
      </Center>
    );
  }
  if (invoice.isError) {
    return (
      <Stack maw={820} gap="md">
        <BackToHistory />
        <Alert color="red" role="alert">
          Failed to load the invoice. Please try again.
        </Alert>
      </Stack>
    );
  }
  const inv = invoice.data;
  if (!inv) {
    return (
      <Stack maw={820} gap="md">
        <BackToHistory />
        <Paper withBorder radius="md" p="xl">
          <Stack align="center" gap="xs" ta="center">
            <Title order={2} fz="h3">
              Invoice not found
            </Title>
            <Text c="dimmed" maw={460}>
              There is no invoice for transaction {txnid}. Invoices are issued for your successful
              payments only.
            </Text>
          </Stack>
        </Paper>
      </Stack>
    );
  }

  return (
    <Stack maw={820} gap="md">
      <Group justify="space-between" data-print-hide>
        <BackToHistory />
        <Button leftSection={<IconPrinter size={16} />} onClick={() => window.print()}>
          Print
        </Button>
      </Group>
      <Paper withBorder radius="md" p={{ base: "md", sm: "xl" }} bg="white" data-invoice>
        <Stack gap="lg">
          <Group justify="space-between" align="flex-start" gap="md">
            <div>
              <Text fw={800} fz={22}>
                {inv.seller.name}
              </Text>
              <Text fz="sm" style={{ whiteSpace: "pre-line" }}>
                {inv.seller.address}
              </Text>
              {inv.seller.gstin ? <Text fz="sm">GSTIN: {inv.seller.gstin}</Text> : null}
            </div>
            <Box ta={{ base: "left", xs: "right" }}>
              <Title order={2} fz={26} lts={1}>
                INVOICE
              </Title>
              <Text fz="sm">
                No. <strong>{inv.invoiceNumber}</strong>
              </Text>
              <Text fz="sm">Issued {formatDate(inv.issuedAt)}</Text>
              <Badge color="green" variant="outline" mt={4}>
                Paid
              </Badge>
            </Box>
          </Group>

          <Divider />

          <SimpleGrid cols={{ base: 1, xs: 2 }} data-invoice-block>
            <div>
              <Text fz="xs" tt="uppercase" fw={700} c="dimmed" mb={4}>
                Billed to
              </Text>
              <Text fw={600}>{inv.buyer.name}</Text>
              <Text fz="sm" style={{ overflowWrap: "anywhere" }}>
                {inv.buyer.email}
              </Text>
              <Text fz="sm">{inv.buyer.phone}</Text>
            </div>
            <div>
              <Text fz="xs" tt="uppercase" fw={700} c="dimmed" mb={4}>
                Service period
              </Text>
              <Text fz="sm">{periodText(inv.periodStart, inv.periodEnd)}</Text>
            </div>
          </SimpleGrid>

          <Table withTableBorder verticalSpacing="sm" layout="fixed">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Description</Table.Th>
                <Table.Th w={130} ta="right">
                  Amount ({inv.currency})
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              <Table.Tr>
                <Table.Td>
                  <Text fw={600} fz="sm">
                    {inv.planName} plan, {cycleName(inv.cycle)} subscription
                  </Text>
                  <Text fz="xs" c="dimmed">
                    {periodText(inv.periodStart, inv.periodEnd)}
                  </Text>
                </Table.Td>
                <Table.Td ta="right">{formatInrExact(inv.amount)}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Td ta="right" fw={700}>
                  Total paid
                </Table.Td>
                <Table.Td ta="right" fw={800}>
                  {formatInrExact(inv.amount)}
                </Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>

          <Stack gap={6} data-invoice-block>
            <Text fz="xs" tt="uppercase" fw={700} c="dimmed">
              Payment details
            </Text>
            <Field label="Paid on">{formatDate(inv.paidAt)}</Field>
            <Field label="Payment mode">{paymentModeText(inv.paymentMode)}</Field>
            <Field label="Processed by">{providerText(inv.provider)}</Field>
            <Field label="Transaction ID">{inv.txnid}</Field>
            <Field label="Gateway reference">{inv.mihpayid ?? "N/A"}</Field>
          </Stack>

          <Divider />
          <Text fz="xs" c="dimmed">
            This is a computer-generated invoice and needs no signature.
          </Text>
        </Stack>
      </Paper>
    </Stack>
  );
}
