import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Box,
  Button,
  Card,
  Center,
  Group,
  Paper,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
  Tooltip,
} from "@mantine/core";
import {
  IconArrowLeft,
  IconBan,
  IconInfoCircle,
  IconPencil,
  IconPlus,
  IconTemplate,
} from "@tabler/icons-react";
import { useState } from "react";
import { Link } from "react-router";
import { messageOf } from "../../../lib/api-client";
import { usePermissions } from "../api/permissions";
import { useAdminPlans, useDeactivatePlan, useRefreshAdmin } from "../api/admin";
import { count, formatPrice, ownersOnPlanText, perInterval } from "../api/display";
import { isNetworkError } from "../../../lib/errors";
import { limitLines } from "../api/plan-form";
import type { AdminPlan } from "../api/types";
import { useCompactLists } from "../components/compact";
import { ConfirmModal } from "../components/ConfirmModal";
import { CreatePlanDialog } from "../components/CreatePlanDialog";

/** The free plan is every account's fallback and cannot be deactivated. */
const FREE_PLAN = "free";

function PlanBadges({ plan: p }: { plan: AdminPlan }) {
  return (
    <Group gap={4}>
      {p.active ? (
        <Badge color="green" variant="light">
          Active
        </Badge>
      ) : (
        <Badge color="gray" variant="filled">
          Inactive
        </Badge>
      )}
      {p.popular && <Badge color="indigo">Popular</Badge>}
      {p.inviteOnly && (
        <Badge color="grape" variant="light">
          Invite only
        </Badge>
      )}
      {p.contactSales && (
        <Badge color="orange" variant="light">
          Contact sales
        </Badge>
      )}
    </Group>
  );
}

function PlanActions({
  plan: p,
  onDeactivate,
}: {
  plan: AdminPlan;
  onDeactivate: (p: AdminPlan) => void;
}) {
  // Only whom the permission table lets manage plans sees Edit and Deactivate.
  const allowed = usePermissions();
  if (!allowed.can("managePlans")) return null;
  return (
    <Group gap={4} justify="flex-end" wrap="nowrap">
      <Tooltip label="Edit">
        <ActionIcon
          component={Link}
          to={`/admin/plans/${p.id}/edit`}
          variant="subtle"
          aria-label={`Edit ${p.displayName}`}
        >
          <IconPencil size={18} />
        </ActionIcon>
      </Tooltip>
      {p.active && p.id !== FREE_PLAN && (
        <Tooltip label="Deactivate">
          <ActionIcon
            variant="subtle"
            color="red"
            aria-label={`Deactivate ${p.displayName}`}
            onClick={() => onDeactivate(p)}
          >
            <IconBan size={18} />
          </ActionIcon>
        </Tooltip>
      )}
    </Group>
  );
}

function PlanPrice({ plan: p }: { plan: AdminPlan }) {
  return (
    <Text fz="sm" fw={600} style={{ whiteSpace: "nowrap" }}>
      {formatPrice(p.price, p.currency)}
      <Text span fz="xs" c="dimmed" fw={400}>
        {perInterval(p.interval)}
      </Text>
    </Text>
  );
}

/** On narrow screens: one stacked row per plan. */
function PlanCards({
  plans,
  onDeactivate,
}: {
  plans: AdminPlan[];
  onDeactivate: (p: AdminPlan) => void;
}) {
  return (
    <Stack gap="xs">
      {plans.map((p) => (
        <Paper
          key={p.id}
          withBorder
          radius="md"
          p="sm"
          data-testid={`plan-row-${p.id}`}
          bg={p.active ? undefined : "gray.0"}
        >
          <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
            <div style={{ minWidth: 0 }}>
              <Text fz="sm" fw={600} style={{ overflowWrap: "anywhere" }}>
                {p.displayName}
              </Text>
              <Text fz="xs" c="dimmed" ff="monospace" style={{ overflowWrap: "anywhere" }}>
                {p.id}
              </Text>
            </div>
            <PlanActions plan={p} onDeactivate={onDeactivate} />
          </Group>
          <Group justify="space-between" mt={6} gap="xs">
            <PlanPrice plan={p} />
            <Text fz="xs" c="dimmed">
              {count(p.subscribers)} subscriber{p.subscribers === 1 ? "" : "s"} · order{" "}
              {p.sortOrder}
            </Text>
          </Group>
          <Text fz="xs" mt={4}>
            {limitLines(p.limits).join(" · ")}
          </Text>
          <Box mt={6}>
            <PlanBadges plan={p} />
          </Box>
        </Paper>
      ))}
    </Stack>
  );
}

function PlanRows({
  plans,
  onDeactivate,
}: {
  plans: AdminPlan[];
  onDeactivate: (p: AdminPlan) => void;
}) {
  return plans.map((p) => (
    <Table.Tr key={p.id} data-testid={`plan-row-${p.id}`} bg={p.active ? undefined : "gray.0"}>
      <Table.Td>
        <Text fz="sm" fw={600}>
          {p.displayName}
        </Text>
        <Text fz="xs" c="dimmed" ff="monospace">
          {p.id}
        </Text>
      </Table.Td>
      <Table.Td>
        <PlanPrice plan={p} />
      </Table.Td>
      <Table.Td>
        <Stack gap={0}>
          {limitLines(p.limits).map((line) => (
            <Text key={line} fz="xs">
              {line}
            </Text>
          ))}
        </Stack>
      </Table.Td>
      <Table.Td ta="right">{count(p.subscribers)}</Table.Td>
      <Table.Td>
        <PlanBadges plan={p} />
      </Table.Td>
      <Table.Td ta="right">{p.sortOrder}</Table.Td>
      <Table.Td>
        <PlanActions plan={p} onDeactivate={onDeactivate} />
      </Table.Td>
    </Table.Tr>
  ));
}

export function PlanManagementPage() {
  const allowed = usePermissions();
  const plans = useAdminPlans();
  const deactivate = useDeactivatePlan();
  const refresh = useRefreshAdmin();
  const [creating, setCreating] = useState(false);
  const [target, setTarget] = useState<AdminPlan | null>(null);
  const [done, setDone] = useState<string | null>(null);

  const compact = useCompactLists();
  const list = plans.data?.data ?? [];
  let message = null;
  if (plans.isLoading) {
    message = (
      <Stack gap="xs">
        {Array.from({ length: 4 }, (_, i) => (
          <Skeleton key={i} h={36} />
        ))}
      </Stack>
    );
  } else if (plans.isError && !plans.data) {
    message = (
      <Stack align="center" py="lg" gap="sm">
        <Text c="red">
          {/* The browser's own "Failed to fetch" on a network failure means nothing here. */}
          {isNetworkError(plans.error)
            ? "Failed to fetch plans"
            : messageOf(plans.error, "Failed to fetch plans")}
        </Text>
        <Button variant="light" onClick={() => void plans.refetch()}>
          Try Again
        </Button>
      </Stack>
    );
  } else if (list.length === 0) {
    message = (
      <Center py="xl">
        <Text c="dimmed">No plans available at the moment.</Text>
      </Center>
    );
  }

  let content;
  if (compact) {
    content = message ?? <PlanCards plans={list} onDeactivate={setTarget} />;
  } else {
    content = (
      <Table.ScrollContainer minWidth={860}>
        <Table verticalSpacing="sm" highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Plan</Table.Th>
              <Table.Th>Price</Table.Th>
              <Table.Th>Limits</Table.Th>
              <Table.Th ta="right">Subscribers</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th ta="right">Order</Table.Th>
              <Table.Th ta="right">Actions</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {message ? (
              <Table.Tr>
                <Table.Td colSpan={7}>{message}</Table.Td>
              </Table.Tr>
            ) : (
              <PlanRows plans={list} onDeactivate={setTarget} />
            )}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    );
  }

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
        <div>
          <Anchor component={Link} to="/admin" fz="sm">
            <Group gap={4} component="span">
              <IconArrowLeft size={14} /> Admin Dashboard
            </Group>
          </Anchor>
          <Title order={2}>Plan Management</Title>
        </div>
        {allowed.can("managePlans") && (
          <Group gap="xs" wrap="wrap">
            <Button
              variant="light"
              leftSection={<IconPlus size={16} />}
              onClick={() => setCreating(true)}
            >
              Quick Create
            </Button>
            <Button
              component={Link}
              to="/admin/plans/create"
              leftSection={<IconTemplate size={16} />}
            >
              Create Plan
            </Button>
          </Group>
        )}
      </Group>
      {allowed.loaded && !allowed.can("managePlans") && (
        <Alert color="blue" variant="light" icon={<IconInfoCircle size={18} />}>
          Only superusers can create, change or deactivate plans.
        </Alert>
      )}
      {done && (
        <Alert
          color="teal"
          variant="light"
          role="status"
          withCloseButton
          closeButtonLabel="Dismiss"
          onClose={() => setDone(null)}
        >
          {done}
        </Alert>
      )}
      <Card withBorder radius="md" p="md">
        {content}
      </Card>
      <CreatePlanDialog opened={creating} onClose={() => setCreating(false)} />
      <ConfirmModal
        opened={target !== null}
        title="Deactivate Plan"
        message={
          target && (
            <>
              <Text fz="sm" mb="xs">
                Are you sure you want to deactivate {target.displayName}?
              </Text>
              <Text fz="sm" mb="xs" fw={600}>
                {ownersOnPlanText(target.subscribers)}
              </Text>
              <Text fz="sm" c="dimmed">
                It will no longer be offered to customers, and staff can no longer put owners on it.
                It stays in this list, marked Inactive, and can be turned on again from its edit
                screen.
              </Text>
            </>
          )
        }
        confirmLabel="Deactivate"
        loading={deactivate.isPending}
        error={deactivate.isError ? messageOf(deactivate.error, "Failed to delete plan") : null}
        onClose={() => {
          deactivate.reset();
          setTarget(null);
        }}
        onConfirm={() => {
          if (!target) return;
          deactivate.mutate(
            { params: { path: { id: target.id } } },
            {
              onSuccess: (answer) => {
                setTarget(null);
                setDone(answer.message);
                void refresh();
              },
            },
          );
        }}
      />
    </Stack>
  );
}
