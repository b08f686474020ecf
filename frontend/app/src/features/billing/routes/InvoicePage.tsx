import {
  Alert,
  Anchor,
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
import { IconArrowLeft, IconDownload, IconPrinter } from "@tabler/icons-react";
import { useState, type ReactNode } from "react";
import { Link, useParams } from "react-router";
import { formatDate } from "../../../lib/format";
import { useInvoice } from "../api/billing";
import {
  cycleName,
  downloadDocumentPdf,
  formatTaxAmount,
  type Invoice,
  paymentModeText,
  pdfFileName,
  periodText,
  providerText,
  stateText,
  taxRows,
} from "../api/invoice";
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

/** The GST tax invoice of one successful (or since refunded) payment, printable and as a PDF. */
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

  return <InvoiceView inv={inv} txnid={txnid} />;
}

function Party({ heading, party }: { heading: string; party: Invoice["seller"] }) {
  const state = stateText(party);
  return (
    <div>
      <Text fz="xs" tt="uppercase" fw={700} c="dimmed" mb={4}>
        {heading}
      </Text>
      <Text fw={600}>{party.name}</Text>
      {party.address ? (
        <Text fz="sm" style={{ whiteSpace: "pre-line", overflowWrap: "anywhere" }}>
          {party.address}
        </Text>
      ) : null}
      {state ? <Text fz="sm">State: {state}</Text> : null}
      {party.gstin ? (
        <Text fz="sm" fw={600}>
          GSTIN: {party.gstin}
        </Text>
      ) : null}
      {party.email ? (
        <Text fz="sm" style={{ overflowWrap: "anywhere" }}>
          {party.email}
        </Text>
      ) : null}
      {party.phone ? <Text fz="sm">{party.phone}</Text> : null}
    </div>
  );
}

function DownloadButton({
  txnid,
  kind,
  number,
  label,
  variant,
}: {
  txnid: string;
  kind: "invoice" | "credit-note";
  number: string;
  label: string;
  variant?: string;
}) {
  const [state, setState] = useState<"idle" | "busy" | "failed">("idle");
  async function onClick() {
    setState("busy");
    try {
      await downloadDocumentPdf(txnid, kind, pdfFileName(kind, number));
      setState("idle");
    } catch {
      setState("failed");
    }
  }
  return (
    <Stack gap={4} align="flex-end">
      <Button
        leftSection={<IconDownload size={16} />}
        onClick={onClick}
        loading={state === "busy"}
        variant={variant}
      >
        {label}
      </Button>
      {state === "failed" ? (
        <Text fz="xs" c="red.8" role="alert">
          The PDF could not be downloaded. Please try again.
        </Text>
      ) : null}
    </Stack>
  );
}

function InvoiceView({ inv, txnid }: { inv: Invoice; txnid: string }) {
  const refunded = inv.status === "refunded";
  const note = inv.creditNote;
  return (
    <Stack maw={820} gap="md">
      <Group justify="space-between" align="flex-start" data-print-hide>
        <BackToHistory />
        <Group gap="xs" align="flex-start">
          <Button
            variant="default"
            leftSection={<IconPrinter size={16} />}
            onClick={() => window.print()}
          >
            Print
          </Button>
          <DownloadButton
            txnid={txnid}
            kind="invoice"
            number={inv.invoiceNumber}
            label="Download PDF"
          />
        </Group>
      </Group>
      <Paper withBorder radius="md" p={{ base: "md", sm: "xl" }} bg="white" data-invoice>
        <Stack gap="lg">
          <Group justify="space-between" align="flex-start" gap="md">
            <Party heading="Seller" party={inv.seller} />
            <Box ta={{ base: "left", xs: "right" }}>
              <Title order={2} fz={24} lts={1}>
                TAX INVOICE
              </Title>
              <Text fz="sm">
                No. <strong>{inv.invoiceNumber}</strong>
              </Text>
              <Text fz="sm">Issued {formatDate(inv.issuedAt)}</Text>
              <Badge color={refunded ? "red" : "green"} variant="outline" mt={4}>
                {refunded ? "Refunded" : "Paid"}
              </Badge>
            </Box>
          </Group>

          <Divider />

          <SimpleGrid cols={{ base: 1, xs: 2 }} data-invoice-block>
            <Party heading="Billed to" party={inv.buyer} />
            <Stack gap={4}>
              <Text fz="xs" tt="uppercase" fw={700} c="dimmed">
                Place of supply
              </Text>
              <Text fz="sm">{inv.placeOfSupply ?? "Not stated"}</Text>
              <Text fz="xs" tt="uppercase" fw={700} c="dimmed" mt="xs">
                Service period
              </Text>
              <Text fz="sm">{periodText(inv.periodStart, inv.periodEnd)}</Text>
            </Stack>
          </SimpleGrid>

          <Table.ScrollContainer minWidth={300} type="native">
            <Table withTableBorder verticalSpacing="sm" layout="fixed">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Description</Table.Th>
                  <Table.Th w={80}>SAC</Table.Th>
                  <Table.Th w={{ base: 110, sm: 140 }} ta="right">
                    Taxable value
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                <Table.Tr>
                  <Table.Td>
                    <Text fw={600} fz="sm" style={{ overflowWrap: "anywhere" }}>
                      {inv.planName} plan, {cycleName(inv.cycle)} subscription
                    </Text>
                    <Text fz="xs" c="dimmed">
                      {inv.description}
                    </Text>
                  </Table.Td>
                  <Table.Td fz="sm">{inv.sac}</Table.Td>
                  <Table.Td ta="right" fz="sm">
                    {formatTaxAmount(inv.lines.taxableValue)}
                  </Table.Td>
                </Table.Tr>
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>

          <Stack
            gap={6}
            ml={{ base: 0, sm: "auto" }}
            w={{ base: "100%", sm: 320 }}
            data-invoice-block
          >
            <Group justify="space-between">
              <Text fz="sm" c="dimmed">
                Taxable value
              </Text>
              <Text fz="sm">{formatTaxAmount(inv.lines.taxableValue)}</Text>
            </Group>
            {taxRows(inv.taxType, inv.gstRate, inv.lines).map((row) => (
              <Group key={row.label} justify="space-between">
                <Text fz="sm" c="dimmed">
                  {row.label}
                </Text>
                <Text fz="sm">{formatTaxAmount(row.amount)}</Text>
              </Group>
            ))}
            <Divider />
            <Group justify="space-between">
              <Text fw={700}>Total</Text>
              <Text fw={800}>{formatTaxAmount(inv.lines.total)}</Text>
            </Group>
          </Stack>

          <div data-invoice-block>
            <Text fz="xs" tt="uppercase" fw={700} c="dimmed" mb={4}>
              Amount in words
            </Text>
            <Text fz="sm">{inv.lines.amountInWords}</Text>
          </div>

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
            Tax payable on reverse charge: No. This is a computer-generated invoice and needs no
            signature.
          </Text>
        </Stack>
      </Paper>

      {note ? (
        <Paper withBorder radius="md" p={{ base: "md", sm: "lg" }} data-print-hide>
          <Group justify="space-between" align="flex-start" gap="md">
            <div>
              <Title order={2} fz="h4">
                Credit note {note.number}
              </Title>
              <Text fz="sm" c="dimmed">
                Issued {formatDate(note.issuedAt)} for the refund of this payment; it reverses
                invoice {inv.invoiceNumber} in full.
              </Text>
              <Text fz="sm" mt={4}>
                Credited: <strong>{formatTaxAmount(note.lines.total)}</strong>
              </Text>
            </div>
            <DownloadButton
              txnid={txnid}
              kind="credit-note"
              number={note.number}
              label="Download credit note"
              variant="light"
            />
          </Group>
        </Paper>
      ) : null}
      <Text fz="xs" c="dimmed" data-print-hide>
        Invoices are made out to the billing details you had when you paid; you can change them for
        your next payment under{" "}
        <Anchor component={Link} to="/settings/billing#billing-details" fz="xs">
          billing details
        </Anchor>
        .
      </Text>
    </Stack>
  );
}
