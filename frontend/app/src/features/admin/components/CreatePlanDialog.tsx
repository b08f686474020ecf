import { Alert, Button, Group, Modal, Stack } from "@mantine/core";
import { useState, type FormEvent } from "react";
import { messageOf } from "../../../lib/api-client";
import { useCreatePlan, useRefreshAdmin } from "../api/admin";
import { fieldErrors } from "../../../lib/errors";
import {
  createPlanError,
  CURRENCIES,
  DIALOG_PLAN_DEFAULTS,
  planBody,
  planLimitErrors,
  type PlanFormValues,
} from "../api/plan-form";
import { PlanFormFields } from "./PlanFormFields";
import { READABLE_TEXT } from "../../../components/a11y";

/** The plan list's quick create: features one per line, blank lines dropped. */
export function CreatePlanDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const [values, setValues] = useState<PlanFormValues>(DIALOG_PLAN_DEFAULTS);
  const [problem, setProblem] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const create = useCreatePlan();
  const refresh = useRefreshAdmin();

  function close() {
    setValues(DIALOG_PLAN_DEFAULTS);
    setProblem(null);
    setErrors({});
    create.reset();
    onClose();
  }

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
      await refresh();
      close();
    } catch (err) {
      setErrors(fieldErrors(err));
      setProblem(messageOf(err, "Failed to create plan"));
    }
  }

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
          <PlanFormFields
            screen="dialog"
            values={values}
            onChange={setValues}
            errors={errors}
            currencies={CURRENCIES}
          />
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
