import { NumberInput, SimpleGrid, Switch } from "@mantine/core";
import { PLAN_FLAGS, type PlanLimitsValues } from "../api/plan-form";

/** The five permission toggles of a plan. */
export function PlanFlagSwitches({
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

/** A whole-number field whose raw value (number or the text being typed) is kept as is. */
export function WholeNumber(props: {
  label: string;
  value: number;
  onChange: (v: number) => void;
  min?: number;
  max?: number;
  step?: number;
  description?: string;
  inputWrapperOrder?: ("label" | "input" | "description" | "error")[];
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
