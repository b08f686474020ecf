import {
  ActionIcon,
  Alert,
  Badge,
  Box,
  Button,
  Card,
  Collapse,
  Divider,
  Group,
  Loader,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Textarea,
  Title,
} from "@mantine/core";
import { useMediaQuery } from "@mantine/hooks";
import {
  IconArrowUp,
  IconChevronDown,
  IconChevronUp,
  IconInfoCircle,
  IconSend,
} from "@tabler/icons-react";
import { useCallback, useLayoutEffect, useMemo, useRef, useState } from "react";
import { useNavigate } from "react-router";
import type { components } from "../../../api/schema";
import { Breakable } from "../../../components/Breakable";
import { DetailError, fetchConversationPage, useConversation } from "../api/conversations";
import { badgeOf } from "./display";
import { LOAD_OLDER_BELOW, NARROW, OLDER_DELAY_MS, SCROLL_TOP_AFTER } from "./paging";

type Message = components["schemas"]["ConversationMessage"];
type Detail = components["schemas"]["ConversationDetail"];

const timeFormat = new Intl.DateTimeFormat("en-IN", {
  day: "numeric",
  month: "short",
  hour: "numeric",
  minute: "2-digit",
});

function Field({
  label,
  value,
  long = false,
}: {
  label: string;
  value?: string | null;
  /** A URL or an email: wraps at its separators, at most two lines, the whole of it on hover. */
  long?: boolean;
}) {
  return (
    <div style={{ minWidth: 0 }}>
      <Text fz="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      {value && long ? (
        <Text fz="sm" lineClamp={2} title={value}>
          <Breakable text={value} />
        </Text>
      ) : (
        <Text fz="sm" style={{ overflowWrap: "break-word" }}>
          {value || "—"}
        </Text>
      )}
    </div>
  );
}

/** What the visitor left and where they were: open on wide screens, folded away on phones. */
function VisitorDetails({ c, narrow }: { c: Detail; narrow: boolean }) {
  const [open, setOpen] = useState(false);
  const fields = (
    <SimpleGrid cols={{ base: 2, md: 3 }} spacing="xs" id={`details-${c.conversationId}`}>
      <Field label="Name" value={c.collectedData.name} />
      <Field label="Email" value={c.collectedData.email} long />
      <Field label="Phone" value={c.collectedData.phone} />
      <Field label="Company" value={c.collectedData.company} />
      <Field label="Device" value={c.userContext.deviceType} />
      <Field label="Page" value={c.userContext.currentUrl} long />
    </SimpleGrid>
  );
  return (
    <Card withBorder radius={0} p={narrow ? 4 : "sm"} style={{ flexShrink: 0 }}>
      {narrow ? (
        <>
          <Button
            variant="subtle"
            size="compact-sm"
            fullWidth
            justify="space-between"
            rightSection={open ? <IconChevronUp size={16} /> : <IconChevronDown size={16} />}
            aria-expanded={open}
            aria-controls={`details-${c.conversationId}`}
            onClick={() => setOpen((o) => !o)}
          >
            Visitor details
          </Button>
          <Collapse in={open} p={open ? "xs" : 0}>
            {fields}
          </Collapse>
        </>
      ) : (
        fields
      )}
    </Card>
  );
}

function Bubble({ m }: { m: Message }) {
  const visitor = m.role === "user";
  const assistant = m.role === "assistant";
  return (
    <Group justify={visitor ? "flex-end" : "flex-start"} data-testid="message">
      {/* Full-strength text on every bubble: faded labels and times fell below AA contrast. */}
      <Paper
        p="xs"
        radius="md"
        maw="80%"
        bg={visitor ? "blue.8" : assistant ? "gray.1" : "yellow.0"}
        c={visitor ? "white" : "dark.7"}
      >
        <Text fz="xs" fw={700}>
          {visitor ? "Visitor" : assistant ? "Assistant" : "System"}
        </Text>
        <Text fz="sm" style={{ whiteSpace: "pre-wrap", overflowWrap: "break-word" }}>
          {m.content}
        </Text>
        <Text fz={10} ta="right">
          {timeFormat.format(new Date(m.createdAt))}
        </Text>
      </Paper>
    </Group>
  );
}

/** One conversation: messages in pages of 20 (older ones when scrolled near the top), data and context. */
export function ConversationDetail({ id }: { id: string }) {
  const navigate = useNavigate();
  const narrow = Boolean(useMediaQuery(NARROW, undefined, { getInitialValueInEffect: false }));
  const first = useConversation(id);
  const [older, setOlder] = useState<Message[]>([]);
  // Whether older messages remain, once an older batch has been loaded.
  const [olderHasMore, setOlderHasMore] = useState<boolean | null>(null);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [showTop, setShowTop] = useState(false);
  const [draft, setDraft] = useState("");
  const viewport = useRef<HTMLDivElement>(null);
  // Keeps the reader's place when older messages are added above.
  const keepFrom = useRef<number | null>(null);

  // The latest messages show first: start at the bottom.
  useLayoutEffect(() => {
    const el = viewport.current;
    if (el && first.data) el.scrollTop = el.scrollHeight;
  }, [first.data]);

  useLayoutEffect(() => {
    const el = viewport.current;
    if (el && keepFrom.current !== null) {
      el.scrollTop += el.scrollHeight - keepFrom.current;
      keepFrom.current = null;
    }
  }, [older]);

  const hasMore = olderHasMore ?? first.data?.hasMore ?? false;
  const messages = useMemo(() => [...older, ...(first.data?.messages ?? [])], [older, first.data]);

  const loadOlder = useCallback(async () => {
    const oldest = messages[0];
    if (!oldest || loadingOlder || !hasMore) return;
    setLoadingOlder(true);
    try {
      // A short deliberate wait before the older batch, so the loader shows while it arrives.
      await new Promise((r) => setTimeout(r, OLDER_DELAY_MS));
      const page = await fetchConversationPage(id, oldest._id);
      keepFrom.current = viewport.current?.scrollHeight ?? null;
      setOlder((prev) => [...page.messages, ...prev]);
      setOlderHasMore(page.hasMore);
    } catch (e) {
      console.error("older messages failed", e);
    } finally {
      setLoadingOlder(false);
    }
  }, [id, messages, loadingOlder, hasMore]);

  const onScroll = () => {
    const el = viewport.current;
    if (!el) return;
    setShowTop(el.scrollTop > SCROLL_TOP_AFTER);
    if (el.scrollTop < LOAD_OLDER_BELOW) void loadOlder();
  };

  if (first.isLoading) {
    return (
      <Stack p="md" aria-busy="true">
        <Skeleton h={40} />
        <Skeleton h={300} />
      </Stack>
    );
  }
  if (first.isError || !first.data) {
    const notFound = first.error instanceof DetailError && first.error.notFound;
    return (
      <Stack p="xl" align="center" gap="sm">
        <Text fw={700} c="red">
          {notFound ? "Conversation not found" : "Failed to load conversation details"}
        </Text>
        <Group>
          <Button variant="default" onClick={() => navigate("/conversations")}>
            Back to Conversations
          </Button>
          <Button onClick={() => void first.refetch()}>Retry</Button>
        </Group>
      </Stack>
    );
  }
  const c = first.data;
  const badge = badgeOf(c);

  return (
    <Stack gap={0} h="100%">
      <Group
        justify="space-between"
        p="sm"
        gap="xs"
        style={{ borderBottom: "1px solid var(--mantine-color-gray-3)", flexShrink: 0 }}
      >
        {/* At least 220 px for the name, else the badge and count move below it. */}
        <Stack gap={0} style={{ minWidth: 0, flex: "1 1 220px" }}>
          <Title order={2} fz="h4">
            <Breakable text={c.collectedData.name || c.collectedData.email || "Visitor"} />
          </Title>
          <Text fz="xs" c="dimmed" style={{ overflowWrap: "anywhere" }}>
            {c.campaign.name} · {c.conversationId}
          </Text>
        </Stack>
        <Group gap="xs" wrap="nowrap">
          <Badge color={badge.color} style={{ minWidth: "max-content" }}>
            {badge.label}
          </Badge>
          <Text fz="sm" c="dimmed" style={{ whiteSpace: "nowrap" }}>
            {c.analytics.totalMessages} messages
          </Text>
          {/* Up here, outside the messages, so it never covers one. */}
          {showTop && (
            <ActionIcon
              variant="light"
              radius="xl"
              size="lg"
              aria-label="Scroll to top"
              onClick={() => viewport.current?.scrollTo({ top: 0, behavior: "smooth" })}
            >
              <IconArrowUp size={18} />
            </ActionIcon>
          )}
        </Group>
      </Group>
      <VisitorDetails c={c} narrow={narrow} />
      <Box pos="relative" style={{ flex: 1, minHeight: 320 }}>
        <div
          ref={viewport}
          onScroll={onScroll}
          data-testid="messages"
          // Scrolled from the keyboard too: the pane takes focus.
          role="region"
          aria-label="Messages"
          tabIndex={0}
          style={{ position: "absolute", inset: 0, overflowY: "auto", padding: 12 }}
        >
          <Stack gap="xs">
            {!hasMore && <Divider label="Beginning of conversation" labelPosition="center" />}
            {messages.map((m) => (
              <Bubble key={m._id} m={m} />
            ))}
          </Stack>
        </div>
        {/* Pinned over the top of the pane, outside the scrolled content: the browser keeps the
            reader's place as older messages arrive, which would scroll a loader inside out of view. */}
        {loadingOlder && (
          <Group justify="center" pos="absolute" top={8} left={0} right={0}>
            <Paper shadow="sm" radius="xl" px="sm" py={4} withBorder role="status">
              <Group gap={8} wrap="nowrap">
                <Loader size="xs" />
                <Text fz="xs">Loading older messages…</Text>
              </Group>
            </Paper>
          </Group>
        )}
      </Box>
      <Stack
        gap={6}
        p="sm"
        style={{ borderTop: "1px solid var(--mantine-color-gray-3)", flexShrink: 0 }}
      >
        <Alert variant="light" color="gray" icon={<IconInfoCircle size={16} />} p="xs">
          This conversation is for monitoring purposes. New messages are demonstration only.
        </Alert>
        <Group gap="xs" wrap="nowrap" align="flex-end">
          <Textarea
            aria-label="Message"
            placeholder="Type a message..."
            autosize
            minRows={1}
            maxRows={4}
            value={draft}
            onChange={(e) => setDraft(e.currentTarget.value)}
            style={{ flex: 1 }}
          />
          {/* Owners only monitor conversations: Send is a demonstration and sends nothing. */}
          <Button
            leftSection={<IconSend size={16} />}
            disabled={draft.trim() === ""}
            onClick={() => setDraft("")}
          >
            Send
          </Button>
        </Group>
      </Stack>
    </Stack>
  );
}
