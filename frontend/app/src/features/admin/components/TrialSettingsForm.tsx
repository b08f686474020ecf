import {
  Alert,
  Button,
  Card,
  Checkbox,
  Group,
  NumberInput,
  SimpleGrid,
  Skeleton,
  Stack,
  Switch,
  Text,
  Title,
} from "@mantine/core";
import { useState, type FormEvent } from "react";
import { messageOf } from "../../../lib/api-client";
import { useSaveTrialSettings, useTrialSettings } from "../api/admin";
import { fieldErrors } from "../../../lib/errors";
import {
  TRIAL_BOUNDS,
  TRIAL_FEATURES,
  TRIAL_SAVED,
  trialErrors,
  type TrialSettingsValues,
} from "../api/trial";

function TrialForm({ initial, canSave }: { initial: TrialSettingsValues; canSave: boolean }) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saved, setSaved] = useState(false);
  const save = useSaveTrialSettings();
  const b = TRIAL_BOUNDS;

  async function submit(e: FormEvent) {
    e.preventDefault();
    setSaved(false);
    const found = trialErrors(values);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    try {
      const res = await save.mutateAsync({ body: values });
      setValues(res.data);
      setSaved(true);
    } catch (err) {
      setErrors(fieldErrors(err));
    }
  }

  const num = (v: string | number) => (typeof v === "number" ? v : Number.NaN);
  return (
    <form noValidate onSubmit={(e) => void submit(e)}>
      <Stack gap="md">
        {saved && (
          <Alert color="green" variant="light" role="status">
            {TRIAL_SAVED}
          </Alert>
        )}
        {save.isError && (
          <Alert color="red" variant="light" role="alert">
            {messageOf(save.error, "Failed to save trial settings")}
          </Alert>
        )}
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
          <NumberInput
            label="Trial Duration (days)"
            {...b.trialDurationDays}
            allowDecimal={false}
            value={values.trialDurationDays}
            onChange={(v) => setValues({ ...values, trialDurationDays: num(v) })}
            error={errors.trialDurationDays}
          />
          <NumberInput
            label="Campaign Limit"
            {...b.trialCampaignLimit}
            allowDecimal={false}
            value={values.trialCampaignLimit}
            onChange={(v) => setValues({ ...values, trialCampaignLimit: num(v) })}
            error={errors.trialCampaignLimit}
          />
          <NumberInput
            label="Visitor Limit"
            {...b.trialVisitorLimit}
            allowDecimal={false}
            value={values.trialVisitorLimit}
            onChange={(v) => setValues({ ...values, trialVisitorLimit: num(v) })}
            error={errors.trialVisitorLimit}
          />
        </SimpleGrid>
        <Switch
          label="Start a trial automatically for new accounts"
          checked={values.autoStartTrial}
          onChange={(e) => setValues({ ...values, autoStartTrial: e.currentTarget.checked })}
        />
        <Checkbox.Group
          label="Trial Features"
          value={values.trialFeatures}
          onChange={(trialFeatures) => setValues({ ...values, trialFeatures })}
          error={errors.trialFeatures}
        >
          <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="xs" mt="xs">
            {TRIAL_FEATURES.map((f) => (
              <Checkbox key={f.value} value={f.value} label={f.label} />
            ))}
          </SimpleGrid>
        </Checkbox.Group>
        <Group justify="space-between" wrap="wrap" gap="xs">
          {!canSave ? (
            <Text fz="sm" c="dimmed">
              Only a superuser can change the trial settings.
            </Text>
          ) : (
            <span />
          )}
          <Button type="submit" loading={save.isPending} disabled={!canSave}>
            Save Trial Settings
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The trial every new account gets; a superuser may change it. */
export function TrialSettingsCard({ canSave }: { canSave: boolean }) {
  const settings = useTrialSettings();
  return (
    <Card withBorder radius="md" p="md">
      <Title order={4} mb="sm">
        Trial Settings
      </Title>
      {settings.isLoading && <Skeleton h={200} />}
      {settings.isError && !settings.data && (
        <Alert color="red" variant="light">
          {messageOf(settings.error, "Failed to fetch trial settings")}
        </Alert>
      )}
      {settings.data && <TrialForm initial={settings.data.data} canSave={canSave} />}
    </Card>
  );
}
