import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import type { components } from "../../../api/schema";
import { client, messageOf } from "../../../lib/api-client";

type Detail = components["schemas"]["ConversationDetail"];

/** Conversations per list load ("Load more" fetches the next batch). */
export const LIST_LIMIT = 10;
/** Messages per load in the detail: the latest batch first, then older ones on scroll. */
export const MESSAGE_PAGE = 20;

/**
 * The owner's conversations, newest first, LIST_LIMIT per page, "Load more" for the next; only
 * those holding `search` (a customer's email, say) when given.
 */
export function useConversations(search = "") {
  return useInfiniteQuery({
    queryKey: ["conversations", "user", search],
    initialPageParam: 1,
    queryFn: async ({ pageParam }) => {
      const { data, error } = await client.GET("/api/conversations/user", {
        params: { query: { page: pageParam, limit: LIST_LIMIT, search: search || undefined } },
      });
      if (error || !data) throw new Error(messageOf(error, "Failed to load conversations"));
      return data;
    },
    // A capped count (a search past 10,000 matches) has more after its last counted page.
    getNextPageParam: (last) =>
      last.pagination.page < last.pagination.pages ||
      (last.pagination.capped && last.conversations.length === LIST_LIMIT)
        ? last.pagination.page + 1
        : undefined,
  });
}

/** A conversation that could not be read; `notFound` when the server has no such one. */
export class DetailError extends Error {
  constructor(public notFound: boolean) {
    super(notFound ? "Conversation not found" : "Failed to load conversation details");
  }
}

/** One conversation with MESSAGE_PAGE of its messages: the latest, or those before message `before`. */
export async function fetchConversationPage(id: string, before?: number): Promise<Detail> {
  const { data, error, response } = await client.GET("/api/conversations/{id}", {
    params: {
      path: { id },
      query: { limit: MESSAGE_PAGE, before: before || undefined },
    },
  });
  if (error || !data) throw new DetailError(response.status === 404);
  return data.conversation;
}

/** One conversation with its latest messages (older ones through fetchConversationPage). */
export function useConversation(id: string) {
  return useQuery({
    queryKey: ["conversation", id],
    queryFn: () => fetchConversationPage(id),
    retry: false,
  });
}
