import {
  ActionIcon,
  Alert,
  Button,
  Card,
  Center,
  Grid,
  Group,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import { IconArrowLeft, IconPlus, IconTrash } from "@tabler/icons-react";
import { useState, type FormEvent } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { messageOf } from "../../../lib/api-client";
import { usePlan, useRefreshAdmin, useUpdatePlan } from "../api/admin";
import { fieldErrors } from "../api/errors";
import {
  featureRows,
  INTERVALS,
  planBody,
  removeFeatureRow,
  type PlanFormValues,
} from "../api/plan-form";
import type { Plan } from "../api/types";
import { PlanFlagSwitches, WholeNumber } from "../components/PlanFields";
import { PlanPreview } from "../components/PlanPreview";

function formFromPlan(plan: Plan): PlanFormValues {
  return {
    name: plan.name,
    displayName: plan.displayName,
    price: plan.price,
    currency: plan.currency,
    interval: plan.interval,
    features: featureRows(plan.features),
    limits: { ...plan.limits },
    popular: plan.popular,
    active: plan.active,
    sortOrder: plan.sortOrder,
  };
}

function EditPlanForm({ plan }: { plan: Plan }) {
  const navigate = useNavigate();
  const [values, setValues] = useState(() => formFromPlan(plan));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const update = useUpdatePlan();
  const refresh = useRefreshAdmin();
  const limits = values.limits;

  async function submit(e: FormEvent) {
    e.preventDefault();
    setErrors({});
    try {
      await update.mutateAsync({
        params: { path: { id: plan.id } },
        body: { ...planBody(values), id: plan.id },
      });
      await refresh();
      navigate("/admin/plans");
    } catch (err) {
      setErrors(fieldErrors(err));
    }
  }

  const setFeature = (i: number, text: string) =>
    setValues({ ...values, features: values.features.map((f, j) => (j === i ? text : f)) });

  return (
    <form noValidate onSubmit={(e) => void submit(e)}>
      <Grid gutter="lg">
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Stack gap="md">
            {update.isError && (
              <Alert color="red" variant="light" role="alert">
                {messageOf(update.error, "Failed to update plan")}
              </Alert>
            )}
            <Card withBorder radius="md" p="md">
              <Title order={4} mb="sm">
                Basic Information
              </Title>
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
                <TextInput
                  label="Plan ID"
                  value={plan.id}
                  readOnly
                  description="Plan ID cannot be changed"
                  variant="filled"
                />
                <TextInput
                  label="Display Name"
                  value={values.displayName}
                  onChange={(e) => setValues({ ...values, displayName: e.currentTarget.value })}
                  error={errors.displayName}
                />
                <TextInput
                  label="Internal Name"
                  value={values.name}
                  onChange={(e) => setValues({ ...values, name: e.currentTarget.value })}
                  error={errors.name}
                />
                <WholeNumber
                  label="Sort Order"
                  value={values.sortOrder}
                  onChange={(sortOrder) => setValues({ ...values, sortOrder })}
                />
              </SimpleGrid>
            </Card>
            <Card withBorder radius="md" p="md">
              <Title order={4} mb="sm">
                Pricing
              </Title>
              <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
                <WholeNumber
                  label="Price"
                  value={values.price}
                  onChange={(price) => setValues({ ...values, price })}
                />
                <TextInput
                  label="Currency"
                  value={values.currency}
                  onChange={(e) => setValues({ ...values, currency: e.currentTarget.value })}
                  error={errors.currency}
                />
                <Select
                  label="Billing Interval"
                  data={INTERVALS}
                  value={values.interval}
                  onChange={(v) => setValues({ ...values, interval: v ?? values.interval })}
                  allowDeselect={false}
                  comboboxProps={{ withinPortal: true }}
                />
              </SimpleGrid>
              <Group gap="lg" mt="md">
                <Switch
                  label="Mark as Popular"
                  checked={values.popular}
                  onChange={(e) => setValues({ ...values, popular: e.currentTarget.checked })}
                />
                <Switch
                  label="Active"
                  checked={values.active}
                  onChange={(e) => setValues({ ...values, active: e.currentTarget.checked })}
                />
              </Group>
            </Card>
            <Card withBorder radius="md" p="md">
              <Group justify="space-between" mb="sm">
                <Title order={4}>Features</Title>
                <Button
                  size="xs"
                  variant="light"
                  leftSection={<IconPlus size={14} />}
                  onClick={() => setValues({ ...values, features: [...values.features, ""] })}
                >
                  Add Feature
                </Button>
              </Group>
              <Stack gap="xs">
                {values.features.map((f, i) => (
                  <Group key={i} gap="xs" wrap="nowrap">
                    <TextInput
                      aria-label={`Feature ${i + 1}`}
                      placeholder="Describe a feature"
                      value={f}
                      onChange={(e) => setFeature(i, e.currentTarget.value)}
                      style={{ flex: 1 }}
                    />
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={`Remove feature ${i + 1}`}
                      disabled={values.features.length <= 1}
                      onClick={() =>
                        setValues({ ...values, features: removeFeatureRow(values.features, i) })
                      }
                    >
                      <IconTrash size={16} />
                    </ActionIcon>
                  </Group>
                ))}
                {errors.features && (
                  <Text c="red" fz="sm">
                    {errors.features}
                  </Text>
                )}
              </Stack>
            </Card>
            <Card withBorder radius="md" p="md">
              <Title order={4} mb="sm">
                Limits &amp; Permissions
              </Title>
              <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm" mb="md">
                <WholeNumber
                  label="Campaigns"
                  value={limits.campaigns}
                  onChange={(campaigns) =>
                    setValues({ ...values, limits: { ...limits, campaigns } })
                  }
                />
                <WholeNumber
                  label="Visitors/Month"
                  value={limits.visitorsPerMonth}
                  onChange={(visitorsPerMonth) =>
                    setValues({ ...values, limits: { ...limits, visitorsPerMonth } })
                  }
                />
                <WholeNumber
                  label="AI Conversations"
                  description="Use -1 for unlimited"
                  inputWrapperOrder={["label", "input", "description", "error"]}
                  value={limits.aiConversations}
                  onChange={(aiConversations) =>
                    setValues({ ...values, limits: { ...limits, aiConversations } })
                  }
                />
              </SimpleGrid>
              <PlanFlagSwitches
                limits={limits}
                onChange={(next) => setValues({ ...values, limits: next })}
              />
            </Card>
            <Group justify="flex-end" gap="xs">
              <Button
                variant="default"
                onClick={() => navigate("/admin/plans")}
                disabled={update.isPending}
              >
                Cancel
              </Button>
              <Button type="submit" loading={update.isPending}>
                Save Changes
              </Button>
            </Group>
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Text fz="xs" c="dimmed" tt="uppercase" fw={700} mb={6}>
            Preview
          </Text>
          <PlanPreview values={values} />
        </Grid.Col>
      </Grid>
    </form>
  );
}

export function EditPlanPage() {
  const { planId = "" } = useParams();
  const plan = usePlan(planId);

  return (
    <Stack gap="lg">
      <div>
        <Button
          component={Link}
          to="/admin/plans"
          variant="subtle"
          leftSection={<IconArrowLeft size={16} />}
          px={0}
        >
          Back
        </Button>
        <Title order={2}>Edit Plan{plan.data ? `: ${plan.data.data.displayName}` : ""}</Title>
      </div>
      {plan.isLoading && <Skeleton h={420} radius="md" />}
      {plan.isError && (
        <Center mih="30vh">
          <Stack align="center" gap="sm">
            <Text c="red" fw={600}>
              {messageOf(plan.error, "Failed to fetch plan")}
            </Text>
            <Button component={Link} to="/admin/plans">
              Back to Plans
            </Button>
          </Stack>
        </Center>
      )}
      {plan.data && <EditPlanForm key={plan.data.data.id} plan={plan.data.data} />}
    </Stack>
  );
}
