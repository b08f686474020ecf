import {
  Alert,
  Button,
  Group,
  Modal,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Textarea,
  TextInput,
} from "@mantine/core";
import { useState, type FormEvent } from "react";
import { messageOf } from "../../../lib/api-client";
import { useCreatePlan, useRefreshAdmin } from "../api/admin";
import { fieldErrors } from "../api/errors";
import {
  createPlanError,
  CURRENCIES,
  DIALOG_PLAN_DEFAULTS,
  INTERVALS,
  planBody,
  planName,
  type PlanFormValues,
} from "../api/plan-form";
import { PlanFlagSwitches, WholeNumber } from "./PlanFields";
import { READABLE_TEXT } from "../../../components/a11y";

/** The plan list's quick create: features one per line, blank lines dropped. */
export function CreatePlanDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const [values, setValues] = useState<PlanFormValues>(DIALOG_PLAN_DEFAULTS);
  const [featureText, setFeatureText] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const create = useCreatePlan();
  const refresh = useRefreshAdmin();

  function close() {
    setValues(DIALOG_PLAN_DEFAULTS);
    setFeatureText("");
    setProblem(null);
    setErrors({});
    create.reset();
    onClose();
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    const next = { ...values, features: featureText.split("\n") };
    const invalid = createPlanError(next);
    setProblem(invalid);
    setErrors({});
    if (invalid) return;
    const body = planBody(next);
    try {
      await create.mutateAsync({ body: { ...body, id: body.name } });
      await refresh();
      close();
    } catch (err) {
      setErrors(fieldErrors(err));
      setProblem(messageOf(err, "Failed to create plan"));
    }
  }

  const limits = values.limits;
  return (
    <Modal
      opened={opened}
      onClose={close}
      title="Create Plan"
      centered
      size="lg"
      styles={{ content: READABLE_TEXT }}
    >
      <form noValidate onSubmit={(e) => void submit(e)}>
        <Stack gap="sm">
          {problem && (
            <Alert color="red" variant="light" role="alert">
              {problem}
            </Alert>
          )}
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <TextInput
              label="Plan Name"
              description="Internal; lowercase with hyphens"
              required
              value={values.name}
              onChange={(e) => setValues({ ...values, name: planName(e.currentTarget.value) })}
              error={errors.name}
            />
            <TextInput
              label="Display Name"
              description="What customers see"
              required
              value={values.displayName}
              onChange={(e) => setValues({ ...values, displayName: e.currentTarget.value })}
              error={errors.displayName}
            />
            <WholeNumber
              label="Price"
              min={0}
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
              min={0}
              value={values.sortOrder}
              onChange={(sortOrder) => setValues({ ...values, sortOrder })}
            />
            <WholeNumber
              label="Campaigns"
              value={limits.campaigns}
              onChange={(campaigns) => setValues({ ...values, limits: { ...limits, campaigns } })}
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
          <Textarea
            label="Features"
            description="One per line"
            autosize
            minRows={3}
            value={featureText}
            onChange={(e) => setFeatureText(e.currentTarget.value)}
            error={errors.features}
          />
          <PlanFlagSwitches
            limits={limits}
            onChange={(next) => setValues({ ...values, limits: next })}
          />
          <Group gap="lg">
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
          <Group justify="flex-end" gap="xs" mt="xs">
            <Button variant="default" onClick={close} disabled={create.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending}>
              Create Plan
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
