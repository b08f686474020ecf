import { Badge, Divider, Group, Modal, SimpleGrid, Stack, Text } from "@mantine/core";
import type { components } from "../../../api/schema";
import { formatDate } from "../../../lib/format";
import type { Status } from "../api/customer-status";
import { formatSessionTime, STATUS_COLORS, statusLabel } from "./display";

export type Customer = components["schemas"]["CustomerOut"];

function Field({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <Text fz="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Text fz="sm" style={{ wordBreak: "break-word" }}>
        {value}
      </Text>
    </div>
  );
}

/** The View dialog: contact, engagement, source campaign (or Direct) and customer-since date. */
export function CustomerDialog({
  customer,
  onClose,
}: {
  customer: Customer | null;
  onClose: () => void;
}) {
  return (
    <Modal
      opened={customer !== null}
      onClose={onClose}
      title={customer ? customer.name || customer.email : ""}
      size="lg"
    >
      {customer && (
        <Stack gap="md">
          <Group gap="xs">
            <Badge color={STATUS_COLORS[customer.conversionStatus as Status] ?? "gray"}>
              {statusLabel(customer.conversionStatus)}
            </Badge>
            <Text fz="sm" c="dimmed">
              Lead score {customer.leadScore}
            </Text>
          </Group>
          <Divider label="Contact Information" labelPosition="left" />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Field label="Email" value={customer.email} />
            {customer.phone && <Field label="Phone" value={customer.phone} />}
            {customer.company && <Field label="Company" value={customer.company} />}
          </SimpleGrid>
          <Divider label="Engagement" labelPosition="left" />
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <Field
              label="Conversations"
              value={customer.totalConversations.toLocaleString("en-IN")}
            />
            <Field label="Page Views" value={customer.totalPageViews.toLocaleString("en-IN")} />
            <Field
              label="Avg. Session Time"
              value={formatSessionTime(customer.averageSessionDuration)}
            />
          </SimpleGrid>
          <Divider label="Source" labelPosition="left" />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Field label="Campaign" value={customer.sourceCampaign || "Direct"} />
            <Field label="Customer Since" value={formatDate(customer.createdAt)} />
          </SimpleGrid>
          {customer.notes && (
            <>
              <Divider label="Notes" labelPosition="left" />
              <Text fz="sm">{customer.notes}</Text>
            </>
          )}
        </Stack>
      )}
    </Modal>
  );
}
