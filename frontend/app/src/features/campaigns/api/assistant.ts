import type { components } from "../../../api/schema";
import { $api } from "../../../lib/api-client";

export type TryReply = components["schemas"]["TryOut"];
export type UnansweredQuestion = components["schemas"]["UnansweredQuestion"];

/** Questions a page of the unanswered list shows. */
export const UNANSWERED_PAGE_SIZE = 10;

/** Asks the campaign's assistant as a visitor would; stores nothing. */
export function useTryAssistant() {
  return $api.useMutation("post", "/api/campaigns/{id}/assistant/try");
}

/** The visitors' questions the campaign's assistant could not answer, newest first. */
export function useUnansweredQuestions(id: string, page: number) {
  return $api.useQuery("get", "/api/campaigns/{id}/assistant/unanswered", {
    params: {
      path: { id },
      query: { page, limit: UNANSWERED_PAGE_SIZE },
    },
  });
}

/** How long ago a question was last asked: "just now", "5 min ago", "3 h ago", "2 days ago", then the date. */
export function askedAgo(iso: string, now: Date = new Date()): string {
  const then = new Date(iso);
  const seconds = Math.max(0, Math.round((now.getTime() - then.getTime()) / 1000));
  if (Number.isNaN(seconds)) return "";
  if (seconds < 60) return "just now";
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.floor(hours / 24);
  if (days < 7) return days === 1 ? "yesterday" : `${days} days ago`;
  return then.toLocaleDateString("en-IN", { day: "numeric", month: "short", year: "numeric" });
}

/** "asked once", "asked 3 times". */
export function timesAsked(count: number): string {
  return count === 1 ? "asked once" : `asked ${count.toLocaleString("en-IN")} times`;
}

/** A passage's score as the share of the question it answers, e.g. "90% match". */
export function matchShare(score: number): string {
  return `${Math.round(score * 100)}% match`;
}
