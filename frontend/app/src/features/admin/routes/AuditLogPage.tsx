import {
  Alert,
  Anchor,
  Autocomplete,
  Badge,
  Button,
  Card,
  Group,
  Pagination,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import { IconArrowLeft, IconDownload, IconFilterOff } from "@tabler/icons-react";
import { useState } from "react";
import { Link, useSearchParams } from "react-router";
import { paginationControlLabel, scrollRegion } from "../../../components/a11y";
import { messageOf } from "../../../lib/api-client";
import { localIsoDate } from "../../billing/api/history-csv";
import {
  AUDIT_ACTIONS,
  auditCsv,
  entryDetails,
  fetchAllAudit,
  filtersFromParams,
  paramsFromFilters,
  useAuditLog,
  type AuditEntry,
  type AuditFilters,
} from "../api/audit";
import { auditAction } from "../api/display";
import { useAdminNotice } from "../components/AdminNotice";
import { useCompactLists } from "../components/compact";

const dateTime = new Intl.DateTimeFormat("en-IN", { dateStyle: "medium", timeStyle: "short" });

function when(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : dateTime.format(d);
}

/** The account an entry is about, linked to its page. */
function Target({ e }: { e: AuditEntry }) {
  if (e.targetUserId) {
    return (
      <Anchor component={Link} to={`/admin/users/${e.targetUserId}`} fz="sm">
        {e.targetUserId}
      </Anchor>
    );
  }
  return (
    <Text fz="sm" c="dimmed">
      {e.targetType}
      {e.targetId ? ` ${e.targetId}` : ""}
    </Text>
  );
}

function ActionCell({ e }: { e: AuditEntry }) {
  return (
    <Group gap={4} wrap="wrap">
      <Text fz="sm" fw={600}>
        {auditAction(e.action)}
      </Text>
      {e.viaLoginAs && (
        <Badge variant="light" color="grape" size="sm">
          Via login as
        </Badge>
      )}
      {e.action.endsWith("_refused") && (
        <Badge variant="light" color="red" size="sm">
          Refused
        </Badge>
      )}
    </Group>
  );
}

function Details({ e }: { e: AuditEntry }) {
  const text = entryDetails(e);
  return (
    <Text fz="xs" c="dimmed" ff="monospace" style={{ overflowWrap: "anywhere" }}>
      {text || "—"}
    </Text>
  );
}

function EntryRows({ entries }: { entries: AuditEntry[] }) {
  return (
    <Table.ScrollContainer minWidth={860} scrollAreaProps={scrollRegion("Audit entries")}>
      <Table verticalSpacing="xs" striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>When</Table.Th>
            <Table.Th>Actor</Table.Th>
            <Table.Th>Action</Table.Th>
            <Table.Th>Account</Table.Th>
            <Table.Th>Details</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {entries.map((e) => (
            <Table.Tr key={e.id} data-testid="audit-row">
              <Table.Td style={{ whiteSpace: "nowrap" }}>{when(e.at)}</Table.Td>
              <Table.Td>
                <Text fz="sm" style={{ overflowWrap: "anywhere" }}>
                  {e.actorEmail || e.actorId}
                </Text>
              </Table.Td>
              <Table.Td>
                <ActionCell e={e} />
              </Table.Td>
              <Table.Td>
                <Target e={e} />
              </Table.Td>
              <Table.Td maw={360}>
                <Details e={e} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function EntryCards({ entries }: { entries: AuditEntry[] }) {
  return (
    <Stack gap="xs">
      {entries.map((e) => (
        <Paper key={e.id} withBorder radius="md" p="sm" data-testid="audit-row">
          <ActionCell e={e} />
          <Text fz="sm" style={{ overflowWrap: "anywhere" }}>
            {e.actorEmail || e.actorId}
          </Text>
          <Group gap={4} fz="sm">
            <Text fz="sm" c="dimmed">
              Account:
            </Text>
            <Target e={e} />
          </Group>
          <Details e={e} />
          <Text fz="xs" c="dimmed" mt={4}>
            {when(e.at)}
          </Text>
        </Paper>
      ))}
    </Stack>
  );
}

/** The filters, applied together (each change would otherwise fetch at every keystroke). */
function FilterForm({
  initial,
  anyFilter,
  onApply,
}: {
  initial: AuditFilters;
  anyFilter: boolean;
  onApply: (f: AuditFilters) => void;
}) {
  const [draft, setDraft] = useState<AuditFilters>(initial);
  const apply = onApply;
  return (
    <Card withBorder radius="md" p="md">
      <form
        onSubmit={(ev) => {
          ev.preventDefault();
          apply({ ...draft, page: 1 });
        }}
      >
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 5 }} spacing="sm">
          <TextInput
            label="Actor"
            placeholder="Email or id"
            value={draft.actor}
            onChange={(ev) => setDraft({ ...draft, actor: ev.currentTarget.value })}
          />
          <TextInput
            label="Account id"
            placeholder="Acted on or signed in as"
            value={draft.targetUserId}
            onChange={(ev) => setDraft({ ...draft, targetUserId: ev.currentTarget.value })}
          />
          <Autocomplete
            label="Action"
            placeholder="Any action"
            data={[...AUDIT_ACTIONS]}
            value={draft.action}
            onChange={(action) => setDraft({ ...draft, action })}
          />
          <TextInput
            type="date"
            label="From"
            value={draft.from}
            onChange={(ev) => setDraft({ ...draft, from: ev.currentTarget.value })}
          />
          <TextInput
            type="date"
            label="To"
            value={draft.to}
            onChange={(ev) => setDraft({ ...draft, to: ev.currentTarget.value })}
          />
        </SimpleGrid>
        <Group justify="flex-end" gap="xs" mt="sm">
          {anyFilter && (
            <Button
              variant="default"
              leftSection={<IconFilterOff size={16} />}
              onClick={() =>
                apply({ actor: "", targetUserId: "", action: "", from: "", to: "", page: 1 })
              }
            >
              Clear filters
            </Button>
          )}
          <Button type="submit">Apply filters</Button>
        </Group>
      </form>
    </Card>
  );
}

/** Downloads `csv` as a file named `name`. */
function download(csv: string, name: string) {
  const url = URL.createObjectURL(new Blob([csv], { type: "text/csv;charset=utf-8" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  URL.revokeObjectURL(url);
}

/**
 * The audit log (superusers): every staff action, refusal and write made while signed in as an
 * owner, filtered by actor, account, action and dates kept in the address bar, a page at a time,
 * with a CSV export of everything the filters match.
 */
export function AuditLogPage() {
  const [params, setParams] = useSearchParams();
  const filters = filtersFromParams(params);
  const notify = useAdminNotice();
  const compact = useCompactLists();
  const [exporting, setExporting] = useState(false);
  const [exportError, setExportError] = useState<string | null>(null);
  const log = useAuditLog(filters);
  const key = params.toString();

  const apply = (next: AuditFilters) => setParams(paramsFromFilters(next));
  const page = log.data?.data;
  const entries = page?.entries ?? [];
  const pages = page?.pagination.pages ?? 0;
  const total = page?.pagination.total ?? 0;
  const filtered = [filters.actor, filters.targetUserId, filters.action, filters.from, filters.to];
  const anyFilter = filtered.some(Boolean);

  const exportCsv = async () => {
    setExporting(true);
    setExportError(null);
    try {
      const all = await fetchAllAudit(filters);
      download(auditCsv(all), `audit-log-${localIsoDate(new Date())}.csv`);
      const n = all.length;
      notify(`Exported ${n.toLocaleString("en-IN")} audit ${n === 1 ? "entry" : "entries"}.`);
    } catch (e) {
      setExportError(messageOf(e, "The audit log could not be exported"));
    } finally {
      setExporting(false);
    }
  };

  return (
    <Stack gap="lg">
      <div>
        <Anchor component={Link} to="/admin" fz="sm">
          <Group gap={4} component="span">
            <IconArrowLeft size={14} /> Admin Dashboard
          </Group>
        </Anchor>
        <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm" mt={4}>
          <div>
            <Title order={2}>Audit Log</Title>
            <Text c="dimmed" fz="sm">
              Every staff action and every change made while signed in as an owner. Entries are
              never edited or removed.
            </Text>
          </div>
          <Button
            variant="light"
            leftSection={<IconDownload size={16} />}
            loading={exporting}
            disabled={total === 0}
            onClick={() => void exportCsv()}
          >
            Export CSV
          </Button>
        </Group>
      </div>

      {exportError && (
        <Alert color="red" variant="light" role="alert">
          {exportError}
        </Alert>
      )}

      {/* The form starts again from the address bar whenever it changes (back, forward, a link). */}
      <FilterForm key={key} initial={filters} anyFilter={anyFilter} onApply={apply} />

      {log.isError && (
        <Alert color="red" variant="light" role="alert">
          {messageOf(log.error, "Failed to fetch the audit log")}
        </Alert>
      )}

      <Card withBorder radius="md" p="md">
        <Group justify="space-between" mb="sm">
          <Title order={4}>Entries</Title>
          {page && (
            <Text fz="sm" c="dimmed" aria-live="polite">
              {total.toLocaleString("en-IN")} {total === 1 ? "entry" : "entries"}
            </Text>
          )}
        </Group>
        {log.isLoading ? (
          <Stack aria-busy="true">
            {Array.from({ length: 5 }, (_, i) => (
              <Skeleton key={i} h={36} />
            ))}
          </Stack>
        ) : entries.length === 0 ? (
          <Stack align="center" gap={4} py="xl">
            <Text fw={600}>No entries</Text>
            <Text c="dimmed" fz="sm" ta="center">
              {anyFilter ? "Nothing matches these filters." : "No staff action is on record yet."}
            </Text>
          </Stack>
        ) : compact ? (
          <EntryCards entries={entries} />
        ) : (
          <EntryRows entries={entries} />
        )}
        {pages > 1 && (
          <Group justify="center" mt="md">
            <Pagination
              total={pages}
              value={filters.page}
              onChange={(p) => apply({ ...filters, page: p })}
              getControlProps={paginationControlLabel}
              size="sm"
            />
          </Group>
        )}
      </Card>
    </Stack>
  );
}
