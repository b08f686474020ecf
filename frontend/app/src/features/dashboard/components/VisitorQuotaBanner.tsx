import { Alert, Button, Stack, Text } from "@mantine/core";
import { IconAlertTriangle, IconHandStop } from "@tabler/icons-react";
import { Link } from "react-router";
import { useUsage } from "../../../lib/usage";
import { visitorQuotaBanner } from "../api/visitor-quota";

/**
 * The month's visitors against the plan, once they need the owner's attention (80 %, the limit
 * with its grace, the popup stopped), with a way to a bigger plan. Only the server's figures.
 */
export function VisitorQuotaBanner() {
  const usage = useUsage();
  const visitors = usage.data?.data.visitors;
  const banner = visitors ? visitorQuotaBanner(visitors) : null;
  if (!banner) return null;
  const stopped = banner.level === "stopped";
  return (
    <Alert
      color={banner.color}
      variant={stopped ? "filled" : "light"}
      role={stopped ? "alert" : "status"}
      title={banner.title}
      icon={
        stopped ? (
          <IconHandStop size={20} aria-hidden />
        ) : (
          <IconAlertTriangle size={20} aria-hidden />
        )
      }
      data-testid="visitor-quota"
      data-level={banner.level}
      styles={stopped ? undefined : { title: { color: "var(--mantine-color-dark-7)" } }}
    >
      <Stack gap="xs" align="flex-start">
        <Text fz="sm" c={stopped ? "white" : undefined}>
          {banner.text}
        </Text>
        <Button
          component={Link}
          to="/billing"
          size="compact-sm"
          variant={stopped ? "white" : "filled"}
          color={stopped ? "red" : undefined}
        >
          Upgrade Plan
        </Button>
      </Stack>
    </Alert>
  );
}
