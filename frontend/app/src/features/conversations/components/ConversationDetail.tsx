import {
  ActionIcon,
  Alert,
  Badge,
  Box,
  Button,
  Card,
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
import { IconArrowUp, IconInfoCircle, IconSend } from "@tabler/icons-react";
import { useQuery } from "@tanstack/react-query";
import { useCallback, useLayoutEffect, useMemo, useRef, useState } from "react";
import { useNavigate } from "react-router";
import type { components } from "../../../api/schema";
import { client } from "../../../lib/api-client";
import { badgeOf } from "./display";
import { LOAD_OLDER_BELOW, MESSAGE_PAGE, OLDER_DELAY_MS, SCROLL_TOP_AFTER } from "./paging";

type Message = components["schemas"]["ConversationMessage"];
type Detail = components["schemas"]["ConversationDetail"];

class DetailError extends Error {
  constructor(public notFound: boolean) {
    super(notFound ? "Conversation not found" : "Failed to load conversation details");
  }
}

async function fetchPage(id: string, before?: number): Promise<Detail> {
  const { data, error, response } = await client.GET("/api/conversations/{id}", {
    params: {
      path: { id },
      query: { limit: String(MESSAGE_PAGE), before: before ? String(before) : undefined },
    },
  });
  if (error || !data) throw new DetailError(response.status === 404);
  return data.conversation;
}

const timeFormat = new Intl.DateTimeFormat("en-IN", {
  day: "numeric",
  month: "short",
  hour: "numeric",
  minute: "2-digit",
});

function Field({ label, value }: { label: string; value?: string | null }) {
  return (
    <div style={{ minWidth: 0 }}>
      <Text fz="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Text fz="sm" style={{ wordBreak: "break-all" }}>
        {value || "—"}
      </Text>
    </div>
  );
}

function Bubble({ m }: { m: Message }) {
  const visitor = m.role === "user";
  const assistant = m.role === "assistant";
  return (
    <Group justify={visitor ? "flex-end" : "flex-start"} data-testid="message">
      <Paper
        p="xs"
        radius="md"
        maw="80%"
        bg={visitor ? "blue.6" : assistant ? "gray.1" : "yellow.0"}
        c={visitor ? "white" : undefined}
      >
        <Text fz="xs" fw={700} opacity={0.8}>
          {visitor ? "Visitor" : assistant ? "Assistant" : "System"}
        </Text>
        <Text fz="sm" style={{ whiteSpace: "pre-wrap" }}>
          {m.content}
        </Text>
        <Text fz={10} opacity={0.7} ta="right">
          {timeFormat.format(new Date(m.createdAt))}
        </Text>
      </Paper>
    </Group>
  );
}

/** One conversation: messages in pages of 20 (older ones when scrolled near the top), data and context. */
export function ConversationDetail({ id }: { id: string }) {
  const navigate = useNavigate();
  const first = useQuery({
    queryKey: ["conversation", id],
    queryFn: () => fetchPage(id),
    retry: false,
  });
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
      const page = await fetchPage(id, oldest._id);
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
        style={{ borderBottom: "1px solid var(--mantine-color-gray-3)", flexShrink: 0 }}
      >
        <Stack gap={0} style={{ minWidth: 0 }}>
          <Title order={4} style={{ wordBreak: "break-all" }}>
            {c.collectedData.name || c.collectedData.email || "Visitor"}
          </Title>
          <Text fz="xs" c="dimmed">
            {c.campaign.name} · {c.conversationId}
          </Text>
        </Stack>
        <Group gap="xs">
          <Badge color={badge.color}>{badge.label}</Badge>
          <Text fz="sm" c="dimmed">
            {c.analytics.totalMessages} messages
          </Text>
        </Group>
      </Group>
      <Card withBorder radius={0} p="sm" style={{ flexShrink: 0 }}>
        <SimpleGrid cols={{ base: 2, md: 3 }} spacing="xs">
          <Field label="Name" value={c.collectedData.name} />
          <Field label="Email" value={c.collectedData.email} />
          <Field label="Phone" value={c.collectedData.phone} />
          <Field label="Company" value={c.collectedData.company} />
          <Field label="Device" value={c.userContext.deviceType} />
          <Field label="Page" value={c.userContext.currentUrl} />
        </SimpleGrid>
      </Card>
      <Box pos="relative" style={{ flex: 1, minHeight: 320 }}>
        <div
          ref={viewport}
          onScroll={onScroll}
          data-testid="messages"
          style={{ position: "absolute", inset: 0, overflowY: "auto", padding: 12 }}
        >
          <Stack gap="xs">
            {loadingOlder && (
              <Group justify="center">
                <Loader size="sm" aria-label="Loading older messages" />
              </Group>
            )}
            {!hasMore && <Divider label="Beginning of conversation" labelPosition="center" />}
            {messages.map((m) => (
              <Bubble key={m._id} m={m} />
            ))}
          </Stack>
        </div>
        {showTop && (
          <ActionIcon
            pos="absolute"
            right={16}
            bottom={16}
            radius="xl"
            size="lg"
            aria-label="Scroll to top"
            onClick={() => viewport.current?.scrollTo({ top: 0, behavior: "smooth" })}
          >
            <IconArrowUp size={18} />
          </ActionIcon>
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
