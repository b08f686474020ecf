import {
  Badge,
  Button,
  Group,
  ScrollArea,
  SegmentedControl,
  Skeleton,
  Stack,
  Text,
  UnstyledButton,
} from "@mantine/core";
import { useState } from "react";
import { Link, useSearchParams } from "react-router";
import type { components } from "../../../api/schema";
import { Breakable } from "../../../components/Breakable";
import { useConversations } from "../api/conversations";
import {
  emptyFilterText,
  inTimeFilter,
  moreCanMatch,
  TIME_FILTERS,
  type TimeFilter,
} from "../api/time-filters";
import { badgeOf, preview } from "./display";

type Conversation = components["schemas"]["ConversationOut"];

const timeFormat = new Intl.DateTimeFormat("en-IN", {
  day: "numeric",
  month: "short",
  hour: "numeric",
  minute: "2-digit",
});

/** The query parameter that narrows the list to one customer's conversations (their email). */
export const SEARCH_PARAM = "search";

/**
 * The owner's conversations, 10 per load, newest first by when they started, with client-side
 * time filters on that time; only one customer's when the address carries `?search=` (the
 * customer dialog links here so).
 */
export function ConversationList({ selected }: { selected?: string }) {
  const [filter, setFilter] = useState<TimeFilter>("All");
  const [params, setParams] = useSearchParams();
  const search = params.get(SEARCH_PARAM)?.trim() ?? "";
  const keep = search ? `?${SEARCH_PARAM}=${encodeURIComponent(search)}` : "";
  const list = useConversations(search);

  const all: Conversation[] = list.data?.pages.flatMap((p) => p.conversations) ?? [];
  const shown = all.filter((c) => inTimeFilter(c.createdAt, filter));

  let body;
  if (list.isLoading) {
    body = (
      <Stack gap="xs" p="sm">
        {[1, 2, 3, 4, 5].map((i) => (
          <Skeleton key={i} h={64} radius="sm" />
        ))}
      </Stack>
    );
  } else if (list.isError) {
    body = (
      <Stack p="md" gap="xs" align="flex-start">
        <Text fw={600} c="red">
          Failed to load conversations
        </Text>
        <Text fz="sm" c="dimmed">
          {list.error.message}
        </Text>
        <Button size="xs" variant="light" onClick={() => void list.refetch()}>
          Try Again
        </Button>
      </Stack>
    );
  } else if (shown.length === 0) {
    body = (
      <Text c="dimmed" fz="sm" p="md">
        {all.length > 0 && filter !== "All"
          ? emptyFilterText(filter)
          : search
            ? "No conversations with this customer yet."
            : "No conversations yet."}
      </Text>
    );
  } else {
    body = (
      <Stack gap={0}>
        {shown.map((c) => {
          const badge = badgeOf(c);
          const active = selected === c.conversationId || selected === c._id;
          const who = c.collectedData.name || c.collectedData.email || "Visitor";
          return (
            <UnstyledButton
              key={c._id}
              component={Link}
              to={`/conversations/${c.conversationId}${keep}`}
              data-testid="conversation-item"
              aria-current={active ? "true" : undefined}
              p="sm"
              style={{
                borderBottom: "1px solid var(--mantine-color-gray-2)",
                background: active ? "var(--mantine-color-blue-0)" : undefined,
              }}
            >
              <Group justify="space-between" wrap="wrap" gap={4} mb={4}>
                <Badge size="sm" variant="light" color={badge.color} style={{ flexShrink: 0 }}>
                  {badge.label}
                </Badge>
                {/* When it started: the order and the time filters go by it. */}
                <Text
                  fz="xs"
                  c="dimmed"
                  style={{ whiteSpace: "nowrap" }}
                  title={`Last message ${timeFormat.format(new Date(c.updatedAt))}`}
                >
                  {timeFormat.format(new Date(c.createdAt))}
                </Text>
              </Group>
              {/* On a line of its own: a long email wraps at its dots instead of being cut. */}
              <Text fz="sm" fw={600} lineClamp={2} title={who}>
                <Breakable text={who} />
              </Text>
              <Text fz="xs" c="dimmed">
                {preview(c.lastMessage)}
              </Text>
            </UnstyledButton>
          );
        })}
        {list.hasNextPage && moreCanMatch(all, filter) && (
          <Button
            variant="subtle"
            m="sm"
            loading={list.isFetchingNextPage}
            onClick={() => void list.fetchNextPage()}
          >
            Load more
          </Button>
        )}
      </Stack>
    );
  }

  return (
    <Stack gap={0} h="100%">
      {/* The title is the shell header's; the list starts with its filters. */}
      <Stack gap="xs" p="sm" style={{ borderBottom: "1px solid var(--mantine-color-gray-3)" }}>
        {search ? (
          <Group gap="xs" justify="space-between" wrap="wrap" data-testid="conversation-search">
            <Text fz="sm" style={{ minWidth: 0, overflowWrap: "anywhere" }}>
              Conversations with <b>{search}</b>
            </Text>
            <Button
              size="compact-xs"
              variant="subtle"
              onClick={() => {
                params.delete(SEARCH_PARAM);
                setParams(params);
              }}
            >
              Show all
            </Button>
          </Group>
        ) : null}
        <SegmentedControl
          size="xs"
          fullWidth
          aria-label="Time filter"
          data={[...TIME_FILTERS]}
          value={filter}
          onChange={(v) => setFilter(v as TimeFilter)}
        />
      </Stack>
      <ScrollArea style={{ flex: 1 }}>{body}</ScrollArea>
    </Stack>
  );
}
