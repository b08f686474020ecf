import {
  Anchor,
  Badge,
  Button,
  Divider,
  Group,
  Modal,
  SimpleGrid,
  Stack,
  Text,
} from "@mantine/core";
import { IconMessages } from "@tabler/icons-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import type { components } from "../../../api/schema";
import { Breakable } from "../../../components/Breakable";
import { formatDate } from "../../../lib/format";
import type { Status } from "../api/customer-status";
import { conversationsOf, formatSessionTime, STATUS_COLORS, statusLabel, telHref } from "./display";

export type Customer = components["schemas"]["CustomerOut"];

function Field({ label, value }: { label: string; value: ReactNode }) {
  return (
    <div style={{ minWidth: 0 }}>
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
            <Field
              label="Email"
              value={
                <Anchor href={`mailto:${customer.email}`} fz="sm" c="indigo.8">
                  <Breakable text={customer.email} />
                </Anchor>
              }
            />
            {customer.phone && (
              <Field
                label="Phone"
                value={
                  <Anchor href={telHref(customer.phone)} fz="sm" c="indigo.8">
                    {customer.phone}
                  </Anchor>
                }
              />
            )}
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
          <Button
            component={Link}
            to={conversationsOf(customer.email)}
            variant="light"
            leftSection={<IconMessages size={16} />}
            style={{ alignSelf: "flex-start" }}
          >
            View conversations
          </Button>
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
