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
  Stack,
  Text,
  ThemeIcon,
  Title,
} from "@mantine/core";
import { IconArrowLeft, IconCircleCheck, IconCrown } from "@tabler/icons-react";
import { useEffect, useState, type FormEvent } from "react";
import { Link, useNavigate } from "react-router";
import { messageOf } from "../../../lib/api-client";
import { useCreatePlan, useRefreshAdmin } from "../api/admin";
import { formatPrice } from "../api/display";
import { fieldErrors } from "../../../lib/errors";
import {
  applyPreset,
  CREATE_PLAN_DEFAULTS,
  createPlanError,
  CURRENCIES,
  PLAN_PRESETS,
  planBody,
  planLimitErrors,
  type PlanFormValues,
} from "../api/plan-form";
import { PlanFormFields } from "../components/PlanFormFields";
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
    const limitErrors = planLimitErrors(values.limits);
    const invalid = createPlanError(values) ?? Object.values(limitErrors)[0] ?? null;
    setProblem(invalid);
    setErrors(limitErrors);
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
              <PlanFormFields
                screen="create"
                values={values}
                onChange={setValues}
                errors={errors}
                currencies={CURRENCIES}
              />
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
