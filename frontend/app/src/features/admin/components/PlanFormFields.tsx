import {
  ActionIcon,
  Button,
  Card,
  Group,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
  Title,
} from "@mantine/core";
import { IconPlus, IconTrash } from "@tabler/icons-react";
import {
  CREATE_PLAN_BOUNDS,
  INTERVALS,
  PLAN_FLAGS,
  planName,
  removeFeatureRow,
  type PlanFormValues,
  type PlanLimitsValues,
} from "../api/plan-form";
import { FeatureEntry } from "./FeatureEntry";

/**
 * The three plan editors: the plan list's quick create dialog, the Create Plan screen (with
 * input bounds) and the Edit Plan screen (the plan id shown read-only, the internal name as
 * typed).
 */
export type PlanFormScreen = "dialog" | "create" | "edit";

/** The five permission toggles of a plan. */
function PlanFlagSwitches({
  limits,
  onChange,
}: {
  limits: PlanLimitsValues;
  onChange: (next: PlanLimitsValues) => void;
}) {
  return (
    <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs">
      {PLAN_FLAGS.map((f) => (
        <Switch
          key={f.key}
          label={f.label}
          checked={limits[f.key]}
          onChange={(e) => onChange({ ...limits, [f.key]: e.currentTarget.checked })}
        />
      ))}
    </SimpleGrid>
  );
}

type WrapperPart = "label" | "input" | "description" | "error";

/** A whole-number field whose raw value (number or the text being typed) is kept as is. */
function WholeNumber(props: {
  label: string;
  value: number;
  onChange: (v: number) => void;
  min?: number;
  max?: number;
  step?: number;
  description?: string;
  inputWrapperOrder?: WrapperPart[];
  error?: string;
}) {
  const { onChange, ...rest } = props;
  return (
    <NumberInput
      {...rest}
      allowDecimal={false}
      thousandSeparator=","
      thousandsGroupStyle="lakh"
      onChange={(v) => onChange(v as number)}
    />
  );
}

/** The hints under the name fields, screen by screen (the edit screen has none). */
const NAME_HINTS = {
  dialog: { name: "Internal; lowercase with hyphens", displayName: "What customers see" },
  create: {
    name: "Internal name and plan ID: lowercase, hyphens for spaces",
    displayName: "Shown to customers",
  },
  edit: { name: undefined, displayName: undefined },
};

/** "Use -1 for unlimited", under the field, on every screen. */
const UNLIMITED_HINT: { description: string; inputWrapperOrder: WrapperPart[] } = {
  description: "Use -1 for unlimited",
  inputWrapperOrder: ["label", "input", "description", "error"],
};

const VISITORS_HINT: { description: string; inputWrapperOrder: WrapperPart[] } = {
  description: "Steps of 1,000; -1 for unlimited",
  inputWrapperOrder: ["label", "input", "description", "error"],
};

/**
 * A plan's fields, laid out as `screen` shows them. The create screens offer a choice of
 * `currencies`; without it the currency is free text (the edit screen). `planId` is the edit
 * screen's read-only id.
 */
export function PlanFormFields({
  screen,
  values,
  onChange,
  errors,
  currencies,
  planId,
}: {
  screen: PlanFormScreen;
  values: PlanFormValues;
  onChange: (next: PlanFormValues) => void;
  /** Field errors from the server, by field name. */
  errors: Record<string, string>;
  currencies?: readonly string[];
  planId?: string;
}) {
  const set = (patch: Partial<PlanFormValues>) => onChange({ ...values, ...patch });
  const limits = values.limits;
  const setLimits = (patch: Partial<PlanLimitsValues>) => set({ limits: { ...limits, ...patch } });
  const create = screen === "create";
  const edit = screen === "edit";
  // Only the create screen bounds its numbers; the dialog keeps price and order non-negative.
  const bounds = create
    ? CREATE_PLAN_BOUNDS
    : edit
      ? null
      : { price: { min: 0 }, sortOrder: { min: 0 } };
  const hints = NAME_HINTS[screen];

  const name = (
    <TextInput
      label={edit ? "Internal Name" : "Plan Name"}
      description={hints.name}
      placeholder={create ? "e.g. growth-plus" : undefined}
      required={!edit}
      value={values.name}
      onChange={(e) => {
        const typed = e.currentTarget.value;
        set({ name: edit ? typed : planName(typed) });
      }}
      error={create ? (errors.name ?? errors.id) : errors.name}
    />
  );
  const displayName = (
    <TextInput
      label="Display Name"
      description={hints.displayName}
      placeholder={create ? "e.g. Growth Plus" : undefined}
      required={!edit}
      value={values.displayName}
      onChange={(e) => set({ displayName: e.currentTarget.value })}
      error={errors.displayName}
    />
  );
  const price = (
    <WholeNumber
      label="Price"
      {...bounds?.price}
      value={values.price}
      onChange={(price) => set({ price })}
    />
  );
  const currency = currencies ? (
    <Select
      label="Currency"
      data={[...currencies]}
      value={values.currency}
      onChange={(v) => set({ currency: v ?? "INR" })}
      allowDeselect={false}
      comboboxProps={{ withinPortal: true }}
    />
  ) : (
    <TextInput
      label="Currency"
      value={values.currency}
      onChange={(e) => set({ currency: e.currentTarget.value })}
      error={errors.currency}
    />
  );
  const interval = (
    <Select
      label="Billing Interval"
      data={INTERVALS}
      value={values.interval}
      onChange={(v) => set({ interval: v ?? values.interval })}
      allowDeselect={false}
      comboboxProps={{ withinPortal: true }}
    />
  );
  const sortOrder = (
    <WholeNumber
      label="Sort Order"
      {...bounds?.sortOrder}
      value={values.sortOrder}
      onChange={(sortOrder) => set({ sortOrder })}
    />
  );
  const limitFields = (
    <>
      <WholeNumber
        label="Campaigns"
        {...(create ? CREATE_PLAN_BOUNDS.campaigns : {})}
        value={limits.campaigns}
        onChange={(campaigns) => setLimits({ campaigns })}
        error={errors["limits.campaigns"]}
      />
      {/* Steps of 1,000 (or -1 for unlimited) on every screen, as the server checks. */}
      <WholeNumber
        label={create ? "Monthly Visitors" : "Visitors/Month"}
        step={CREATE_PLAN_BOUNDS.visitorsPerMonth.step}
        {...VISITORS_HINT}
        value={limits.visitorsPerMonth}
        onChange={(visitorsPerMonth) => setLimits({ visitorsPerMonth })}
        error={errors["limits.visitorsPerMonth"]}
      />
      <WholeNumber
        label="AI Conversations"
        {...(create ? CREATE_PLAN_BOUNDS.aiConversations : {})}
        {...UNLIMITED_HINT}
        value={limits.aiConversations}
        onChange={(aiConversations) => setLimits({ aiConversations })}
        error={errors["limits.aiConversations"]}
      />
    </>
  );
  const flags = <PlanFlagSwitches limits={limits} onChange={(next) => set({ limits: next })} />;
  const switches = (
    <Group gap="lg" mt={screen === "dialog" ? undefined : "md"}>
      <Switch
        label="Mark as Popular"
        checked={values.popular}
        onChange={(e) => set({ popular: e.currentTarget.checked })}
      />
      <Switch
        label="Active"
        checked={values.active}
        onChange={(e) => set({ active: e.currentTarget.checked })}
      />
    </Group>
  );
  const featuresError = errors.features && (
    <Text c="red" fz="sm">
      {errors.features}
    </Text>
  );

  if (screen === "dialog") {
    return (
      <>
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          {name}
          {displayName}
          {price}
          {currency}
          {interval}
          {sortOrder}
          {limitFields}
        </SimpleGrid>
        {/* One feature per line; blank lines are dropped when the plan is sent. */}
        <Textarea
          label="Features"
          description="One per line"
          autosize
          minRows={3}
          value={values.features.join("\n")}
          onChange={(e) => set({ features: e.currentTarget.value.split("\n") })}
          error={errors.features}
        />
        {flags}
        {switches}
      </>
    );
  }

  if (create) {
    return (
      <>
        <Card withBorder radius="md" p="md">
          <Title order={4} mb="sm">
            Basic Information
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            {name}
            {displayName}
            {price}
            {currency}
            {interval}
            {sortOrder}
          </SimpleGrid>
          {switches}
        </Card>
        <Card withBorder radius="md" p="md">
          <Title order={4} mb="sm">
            Limits &amp; Features
          </Title>
          <Stack gap="md">
            <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
              {limitFields}
            </SimpleGrid>
            {flags}
            <FeatureEntry features={values.features} onChange={(features) => set({ features })} />
            {featuresError}
          </Stack>
        </Card>
      </>
    );
  }

  const setFeature = (i: number, text: string) =>
    set({ features: values.features.map((f, j) => (j === i ? text : f)) });
  return (
    <>
      <Card withBorder radius="md" p="md">
        <Title order={4} mb="sm">
          Basic Information
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <TextInput
            label="Plan ID"
            value={planId ?? ""}
            readOnly
            description="Plan ID cannot be changed"
            variant="filled"
          />
          {displayName}
          {name}
          {sortOrder}
        </SimpleGrid>
      </Card>
      <Card withBorder radius="md" p="md">
        <Title order={4} mb="sm">
          Pricing
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
          {price}
          {currency}
          {interval}
        </SimpleGrid>
        {switches}
      </Card>
      <Card withBorder radius="md" p="md">
        <Group justify="space-between" mb="sm">
          <Title order={4}>Features</Title>
          <Button
            size="xs"
            variant="light"
            leftSection={<IconPlus size={14} />}
            onClick={() => set({ features: [...values.features, ""] })}
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
                onClick={() => set({ features: removeFeatureRow(values.features, i) })}
              >
                <IconTrash size={16} />
              </ActionIcon>
            </Group>
          ))}
          {featuresError}
        </Stack>
      </Card>
      <Card withBorder radius="md" p="md">
        <Title order={4} mb="sm">
          Limits &amp; Permissions
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm" mb="md">
          {limitFields}
        </SimpleGrid>
        {flags}
      </Card>
    </>
  );
}
