import {
  DndContext,
  KeyboardSensor,
  PointerSensor,
  TouchSensor,
  closestCenter,
  useSensor,
  useSensors,
  type DragEndEvent,
} from "@dnd-kit/core";
import {
  SortableContext,
  arrayMove,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import {
  ActionIcon,
  Badge,
  Button,
  Card,
  Checkbox,
  Collapse,
  Group,
  Menu,
  Modal,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
  Tooltip,
} from "@mantine/core";
import { IconCopy, IconGripVertical, IconPencil, IconPlus, IconTrash } from "@tabler/icons-react";
import { useState } from "react";
import type { CampaignSettings } from "../api/campaigns";
import {
  TEMPLATES,
  addFromTemplate,
  duplicate,
  keywordsText,
  makeDefault,
  parseKeywords,
  remove,
  newField,
  type ConversionForm,
  type FormField,
} from "../api/forms";
import { intInput } from "../api/wizard";

type Forms = CampaignSettings["forms"];

function FormRow({
  form,
  onChange,
  onDuplicate,
  onDelete,
  onDefault,
}: {
  form: ConversionForm;
  onChange: (f: ConversionForm) => void;
  onDuplicate: () => void;
  onDelete: () => void;
  onDefault: (on: boolean) => void;
}) {
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({
    id: form.id,
  });
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const askDelete = () => setConfirming(true);
  const [keywords, setKeywords] = useState(keywordsText(form));
  const text = (
    label: string,
    key: "name" | "title" | "subtitle" | "buttonText" | "successMessage" | "followUpMessage",
  ) => (
    <TextInput
      label={label}
      value={form[key]}
      onChange={(e) => onChange({ ...form, [key]: e.currentTarget.value })}
    />
  );
  return (
    <Card
      ref={setNodeRef}
      withBorder
      radius="md"
      p="sm"
      data-testid="conversion-form"
      style={{
        transform: CSS.Transform.toString(transform),
        transition,
        opacity: isDragging ? 0.6 : 1,
      }}
    >
      <Group justify="space-between" gap="xs">
        <Group gap="xs" wrap="nowrap" style={{ minWidth: 0, flex: "1 1 200px" }}>
          <ActionIcon
            variant="subtle"
            color="gray"
            aria-label={`Drag ${form.name}`}
            {...attributes}
            {...listeners}
            style={{ cursor: "grab", touchAction: "none" }}
          >
            <IconGripVertical size={16} />
          </ActionIcon>
          <Text fw={600} style={{ minWidth: 0, overflowWrap: "anywhere" }}>
            {form.name}
          </Text>
          <Badge variant="light" color="gray" size="sm" style={{ flexShrink: 0 }}>
            {TEMPLATES[form.type]?.label ?? form.type}
          </Badge>
          {form.isDefault ? (
            <Badge variant="light" size="sm" style={{ flexShrink: 0 }}>
              Default
            </Badge>
          ) : null}
        </Group>
        <Group gap={4} wrap="nowrap" ml="auto">
          <Switch
            aria-label={`${form.name} active`}
            checked={form.active}
            onChange={(e) => onChange({ ...form, active: e.currentTarget.checked })}
          />
          <Tooltip label="Edit">
            <ActionIcon
              variant="light"
              aria-label={`Edit ${form.name}`}
              aria-expanded={editing}
              onClick={() => setEditing((v) => !v)}
            >
              <IconPencil size={16} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label="Duplicate">
            <ActionIcon variant="light" aria-label={`Duplicate ${form.name}`} onClick={onDuplicate}>
              <IconCopy size={16} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label="Delete">
            <ActionIcon
              variant="light"
              color="red"
              aria-label={`Delete ${form.name}`}
              onClick={askDelete}
            >
              <IconTrash size={16} />
            </ActionIcon>
          </Tooltip>
        </Group>
      </Group>
      <Collapse in={editing}>
        <Stack gap="sm" mt="sm">
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {text("Form name", "name")}
            {text("Title", "title")}
            {text("Subtitle", "subtitle")}
            {text("Button text", "buttonText")}
            {text("Success message", "successMessage")}
            {text("Follow-up message", "followUpMessage")}
          </SimpleGrid>
          <TextInput
            label="Trigger keywords"
            description="Comma-separated; the assistant offers this form when a visitor mentions one."
            value={keywords}
            onChange={(e) => {
              const value = e.currentTarget.value;
              setKeywords(value);
              onChange({ ...form, triggerKeywords: parseKeywords(value) });
            }}
          />
          <FieldsEditor
            fields={form.fields}
            formName={form.name}
            onChange={(fields) => onChange({ ...form, fields })}
          />
          <Switch
            label="Default form"
            checked={form.isDefault}
            onChange={(e) => onDefault(e.currentTarget.checked)}
          />
        </Stack>
      </Collapse>
      <Modal opened={confirming} onClose={() => setConfirming(false)} title="Delete form" centered>
        <Stack>
          <Text>
            Delete the form <b>{form.name}</b>? The assistant stops offering it. Leads it already
            collected are kept. The form is gone once you save the campaign.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)} data-autofocus>
              Cancel
            </Button>
            <Button
              color="red"
              onClick={() => {
                setConfirming(false);
                onDelete();
              }}
            >
              Delete
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Card>
  );
}

const FIELD_TYPES = [
  { value: "email", label: "Email" },
  { value: "text", label: "Text" },
  { value: "phone", label: "Phone" },
];

/** A form's fields: label, type, required, placeholder; add and remove. */
function FieldsEditor({
  fields,
  formName,
  onChange,
}: {
  fields: FormField[];
  formName: string;
  onChange: (fields: FormField[]) => void;
}) {
  const set = (i: number, patch: Partial<FormField>) =>
    onChange(fields.map((f, j) => (j === i ? { ...f, ...patch } : f)));
  return (
    <Stack gap={6}>
      <Text fz="sm" fw={500}>
        Fields
      </Text>
      {fields.map((f, i) => (
        <Group key={`${f.name}-${i}`} gap="xs" align="center" data-testid="form-field-row">
          <TextInput
            aria-label={`${formName} field ${i + 1} label`}
            placeholder="Label"
            value={f.label}
            style={{ flex: "1 1 150px", minWidth: 0 }}
            onChange={(e) => set(i, { label: e.currentTarget.value })}
          />
          <Select
            aria-label={`${formName} field ${i + 1} type`}
            data={FIELD_TYPES}
            value={f.type}
            allowDeselect={false}
            style={{ flex: "0 0 112px" }}
            onChange={(v) => set(i, { type: (v ?? "text") as FormField["type"] })}
          />
          <TextInput
            aria-label={`${formName} field ${i + 1} placeholder`}
            placeholder="Placeholder"
            value={f.placeholder}
            style={{ flex: "1 1 150px", minWidth: 0 }}
            onChange={(e) => set(i, { placeholder: e.currentTarget.value })}
          />
          <Group gap="xs" wrap="nowrap" style={{ flex: "0 0 auto" }}>
            <Checkbox
              label="Required"
              aria-label={`${formName} field ${i + 1} required`}
              checked={f.required}
              onChange={(e) => set(i, { required: e.currentTarget.checked })}
            />
            <ActionIcon
              variant="light"
              color="red"
              aria-label={`Remove ${formName} field ${i + 1}`}
              disabled={fields.length === 1}
              onClick={() => onChange(fields.filter((_, j) => j !== i))}
            >
              <IconTrash size={16} />
            </ActionIcon>
          </Group>
        </Group>
      ))}
      <Group>
        <Button
          size="compact-sm"
          variant="subtle"
          disabled={fields.length >= 10}
          onClick={() => onChange([...fields, newField(fields)])}
        >
          Add field
        </Button>
      </Group>
    </Stack>
  );
}

/** The Conversion Forms tab: forms from templates, edit, toggle, duplicate, delete, drag to reorder, and the display rules. */
export function ConversionFormsEditor({
  value,
  onChange,
}: {
  value: Forms;
  onChange: (v: Forms) => void;
}) {
  // Drag starts after 5 px, or a 120 ms long-press on touch, so clicks and scrolling still work.
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 5 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: 120, tolerance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const forms = value.conversionForms;
  const setForms = (conversionForms: ConversionForm[]) => onChange({ ...value, conversionForms });
  const rules = value.formDisplayRules;
  const setRules = (patch: Partial<Forms["formDisplayRules"]>) =>
    onChange({ ...value, formDisplayRules: { ...rules, ...patch } });

  function onDragEnd(event: DragEndEvent) {
    const { active, over } = event;
    if (!over || active.id === over.id) return;
    const from = forms.findIndex((f) => f.id === active.id);
    const to = forms.findIndex((f) => f.id === over.id);
    if (from >= 0 && to >= 0) setForms(arrayMove(forms, from, to));
  }

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={3} fz="h4">
          Conversion forms
        </Title>
        <Menu position="bottom-end" withInitialFocusPlaceholder={false}>
          <Menu.Target>
            <Button leftSection={<IconPlus size={16} />} size="sm">
              Add form
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            {Object.entries(TEMPLATES).map(([key, t]) => (
              <Menu.Item key={key} onClick={() => setForms(addFromTemplate(forms, key))}>
                {t.label}
              </Menu.Item>
            ))}
          </Menu.Dropdown>
        </Menu>
      </Group>
      {forms.length === 0 ? (
        <Text c="dimmed">No conversion forms yet. Add one from a template.</Text>
      ) : (
        <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
          <SortableContext items={forms.map((f) => f.id)} strategy={verticalListSortingStrategy}>
            <Stack gap="xs">
              {forms.map((f) => (
                <FormRow
                  key={f.id}
                  form={f}
                  onChange={(next) => setForms(forms.map((x) => (x.id === f.id ? next : x)))}
                  onDuplicate={() => setForms(duplicate(forms, f.id))}
                  onDelete={() => setForms(remove(forms, f.id))}
                  onDefault={(on) => setForms(makeDefault(forms, f.id, on))}
                />
              ))}
            </Stack>
          </SortableContext>
        </DndContext>
      )}
      <Title order={3} fz="h4" mt="md">
        Form display rules
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <NumberInput
          label="Messages before a form"
          min={0}
          allowDecimal={false}
          value={rules.minMessagesBeforeForm}
          onChange={(v) => setRules({ minMessagesBeforeForm: intInput(v, 0, 0) })}
        />
        <NumberInput
          label="Forms per conversation"
          min={1}
          allowDecimal={false}
          value={rules.maxFormsPerConversation}
          onChange={(v) => setRules({ maxFormsPerConversation: intInput(v, 1, 1) })}
        />
        <NumberInput
          label="Messages between forms"
          min={0}
          allowDecimal={false}
          value={rules.cooldownBetweenForms}
          onChange={(v) => setRules({ cooldownBetweenForms: intInput(v, 0, 0) })}
        />
      </SimpleGrid>
    </Stack>
  );
}
