import { Alert, Button, Center, Grid, Group, Skeleton, Stack, Text, Title } from "@mantine/core";
import { IconArrowLeft } from "@tabler/icons-react";
import { useState, type FormEvent } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { messageOf } from "../../../lib/api-client";
import { usePlan, useRefreshAdmin, useUpdatePlan } from "../api/admin";
import { fieldErrors } from "../../../lib/errors";
import { featureRows, planBody, planLimitErrors, type PlanFormValues } from "../api/plan-form";
import type { Plan } from "../api/types";
import { PlanFormFields } from "../components/PlanFormFields";
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

  async function submit(e: FormEvent) {
    e.preventDefault();
    const limitErrors = planLimitErrors(values.limits);
    setErrors(limitErrors);
    if (Object.keys(limitErrors).length > 0) return;
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
            <PlanFormFields
              screen="edit"
              values={values}
              onChange={setValues}
              errors={errors}
              planId={plan.id}
            />
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
