import { Alert, Button, Stack, Text, type MantineSpacing, type TextProps } from "@mantine/core";
import { IconAlertTriangle } from "@tabler/icons-react";
import { Link } from "react-router";
import { formatInr } from "../lib/format";
import {
  REPORTED_REVENUE,
  heldOrdersText,
  maxOrderSettingPath,
  type HeldOrders,
} from "../lib/revenue";

/** The caption under a revenue figure: the site says what an order was worth; nobody checks. */
export function ReportedRevenueCaption(props: TextProps) {
  return (
    <Text fz="xs" c="dimmed" {...props}>
      {REPORTED_REVENUE}
    </Text>
  );
}

/**
 * "2 orders (₹12,00,000) above your limit were not counted", with the limit and a way to it:
 * a link to the campaign's Targeting tab, or `onChangeLimit` where the setting is on this screen.
 * Nothing when no order was held.
 */
export function HeldOrdersNotice({
  held,
  campaignId,
  campaignName,
  maxOrderValue,
  onChangeLimit,
  mt,
}: {
  held: HeldOrders | undefined;
  campaignId: string;
  /** Named when several campaigns' notices share a screen. */
  campaignName?: string;
  maxOrderValue: number;
  onChangeLimit?: () => void;
  mt?: MantineSpacing;
}) {
  const text = held ? heldOrdersText(held) : null;
  if (!text) return null;
  return (
    <Alert
      color="orange"
      variant="light"
      role="status"
      icon={<IconAlertTriangle size={18} aria-hidden />}
      data-testid="held-orders"
      p="sm"
      mt={mt}
    >
      <Stack gap={6} align="flex-start">
        <Text fz="sm">
          {campaignName ? <b>{campaignName}: </b> : null}
          {text}: they are kept, not added to revenue. The limit is {formatInr(maxOrderValue)} an
          order; a new limit applies to orders reported after it.
        </Text>
        {onChangeLimit ? (
          <Button size="compact-sm" variant="light" color="orange" onClick={onChangeLimit}>
            Change the limit
          </Button>
        ) : (
          <Button
            size="compact-sm"
            variant="light"
            color="orange"
            component={Link}
            to={maxOrderSettingPath(campaignId)}
          >
            Change the limit{campaignName ? ` of ${campaignName}` : ""}
          </Button>
        )}
      </Stack>
    </Alert>
  );
}
