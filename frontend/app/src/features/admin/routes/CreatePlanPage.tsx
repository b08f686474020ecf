import {
  Alert,
  Anchor,
  Badge,
  Box,
  Button,
  Card,
  Center,
  Grid,
  Group,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  ThemeIcon,
  Title,
} from "@mantine/core";
import { IconArrowLeft, IconCircleCheck, IconCrown } from "@tabler/icons-react";
import { useEffect, useState, type FormEvent } from "react";
import { Link, useNavigate } from "react-router";
import { messageOf } from "../../../lib/api-client";
import { useCreatePlan, useRefreshAdmin } from "../api/admin";
import { formatPrice } from "../api/display";
import { fieldErrors } from "../api/errors";
import {
  applyPreset,
  CREATE_PLAN_BOUNDS,
  CREATE_PLAN_DEFAULTS,
  createPlanError,
  CURRENCIES,
  INTERVALS,
  PLAN_PRESETS,
  planBody,
  planName,
  type PlanFormValues,
} from "../api/plan-form";
import { FeatureEntry } from "../components/FeatureEntry";
import { PlanFlagSwitches, WholeNumber } from "../components/PlanFields";
import { PlanPreview } from "../components/PlanPreview";

/** How long the success message shows before the plan list. */
const REDIRECT_MS = 2000;

function Created() {
  const navigate = useNavigate();
  useEffect(() => {
    const t = window.setTimeout(() => navigate("/admin/plans"), REDIRECT_MS);
    return () => window.clearTimeout(t);
  }, [navigate]);
  return (
    <Center mih="50vh">
      <Stack align="center" gap="sm">
        <ThemeIcon color="teal" size={64} radius="xl" variant="light">
          <IconCircleCheck size={40} />
        </ThemeIcon>
        <Title order={2}>Plan Created Successfully!</Title>
        <Text c="dimmed">Taking you to the plan list…</Text>
      </Stack>
    </Center>
  );
}

export function CreatePlanPage() {
  const navigate = useNavigate();
  const [values, setValues] = useState<PlanFormValues>(CREATE_PLAN_DEFAULTS);
  const [problem, setProblem] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [created, setCreated] = useState(false);
  const create = useCreatePlan();
  const refresh = useRefreshAdmin();

  if (created) return <Created />;

  async function submit(e: FormEvent) {
    e.preventDefault();
    const invalid = createPlanError(values);
    setProblem(invalid);
    setErrors({});
    if (invalid) return;
    const body = planBody(values);
    try {
      await create.mutateAsync({ body: { ...body, id: body.name } });
      void refresh();
      setCreated(true);
    } catch (err) {
      setErrors(fieldErrors(err));
      setProblem(messageOf(err, "Failed to create plan"));
    }
  }

  const limits = values.limits;
  const b = CREATE_PLAN_BOUNDS;
  // Beside the form on wide screens; above it on narrow ones, where it is most useful first.
  const presets = (
    <Card withBorder radius="md" p="md">
      <Title order={4} mb="sm">
        Quick Presets
      </Title>
      <Stack gap="xs">
        {PLAN_PRESETS.map((p) => (
          <Button
            key={p.label}
            variant="light"
            justify="space-between"
            fullWidth
            onClick={() => setValues(applyPreset(values, p))}
            rightSection={
              <Text span fz="xs">
                {formatPrice(p.price, "INR")}
              </Text>
            }
          >
            {p.label}
          </Button>
        ))}
      </Stack>
    </Card>
  );
  return (
    <Stack gap="lg">
      <div>
        <Anchor component={Link} to="/admin/plans" fz="sm">
          <Group gap={4} component="span">
            <IconArrowLeft size={14} /> Plan Management
          </Group>
        </Anchor>
        <Group gap="sm" mt={4}>
          <Title order={2}>Create New Plan</Title>
          <Badge color="grape" leftSection={<IconCrown size={12} />}>
            SuperAdmin
          </Badge>
        </Group>
      </div>
      <form noValidate onSubmit={(e) => void submit(e)}>
        <Grid gutter="lg">
          <Grid.Col span={{ base: 12, md: 8 }}>
            <Stack gap="md">
              <Box hiddenFrom="md">{presets}</Box>
              {problem && (
                <Alert color="red" variant="light" role="alert" title="Could not create the plan">
                  {problem}
                </Alert>
              )}
              <Card withBorder radius="md" p="md">
                <Title order={4} mb="sm">
                  Basic Information
                </Title>
                <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
                  <TextInput
                    label="Plan Name"
                    description="Internal name and plan ID: lowercase, hyphens for spaces"
                    placeholder="e.g. growth-plus"
                    required
                    value={values.name}
                    onChange={(e) =>
                      setValues({ ...values, name: planName(e.currentTarget.value) })
                    }
                    error={errors.name ?? errors.id}
                  />
                  <TextInput
                    label="Display Name"
                    description="Shown to customers"
                    placeholder="e.g. Growth Plus"
                    required
                    value={values.displayName}
                    onChange={(e) => setValues({ ...values, displayName: e.currentTarget.value })}
                    error={errors.displayName}
                  />
                  <WholeNumber
                    label="Price"
                    min={b.price.min}
                    value={values.price}
                    onChange={(price) => setValues({ ...values, price })}
                  />
                  <Select
                    label="Currency"
                    data={[...CURRENCIES]}
                    value={values.currency}
                    onChange={(v) => setValues({ ...values, currency: v ?? "INR" })}
                    allowDeselect={false}
                    comboboxProps={{ withinPortal: true }}
                  />
                  <Select
                    label="Billing Interval"
                    data={INTERVALS}
                    value={values.interval}
                    onChange={(v) => setValues({ ...values, interval: v ?? "monthly" })}
                    allowDeselect={false}
                    comboboxProps={{ withinPortal: true }}
                  />
                  <WholeNumber
                    label="Sort Order"
                    min={b.sortOrder.min}
                    value={values.sortOrder}
                    onChange={(sortOrder) => setValues({ ...values, sortOrder })}
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
                <Title order={4} mb="sm">
                  Limits &amp; Features
                </Title>
                <Stack gap="md">
                  <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
                    <WholeNumber
                      label="Campaigns"
                      {...b.campaigns}
                      value={limits.campaigns}
                      onChange={(campaigns) =>
                        setValues({ ...values, limits: { ...limits, campaigns } })
                      }
                    />
                    <WholeNumber
                      label="Monthly Visitors"
                      {...b.visitorsPerMonth}
                      value={limits.visitorsPerMonth}
                      onChange={(visitorsPerMonth) =>
                        setValues({ ...values, limits: { ...limits, visitorsPerMonth } })
                      }
                    />
                    <WholeNumber
                      label="AI Conversations"
                      {...b.aiConversations}
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
                  <FeatureEntry
                    features={values.features}
                    onChange={(features) => setValues({ ...values, features })}
                  />
                  {errors.features && (
                    <Text c="red" fz="sm">
                      {errors.features}
                    </Text>
                  )}
                </Stack>
              </Card>
              <Group justify="flex-end" gap="xs">
                <Button
                  variant="default"
                  onClick={() => navigate("/admin/plans")}
                  disabled={create.isPending}
                >
                  Cancel
                </Button>
                <Button type="submit" loading={create.isPending}>
                  Create Plan
                </Button>
              </Group>
            </Stack>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 4 }}>
            <Stack gap="md">
              <Box visibleFrom="md">{presets}</Box>
              <div>
                <Text fz="xs" c="dimmed" tt="uppercase" fw={700} mb={6}>
                  Live Preview
                </Text>
                <PlanPreview values={values} />
              </div>
            </Stack>
          </Grid.Col>
        </Grid>
      </form>
    </Stack>
  );
}
