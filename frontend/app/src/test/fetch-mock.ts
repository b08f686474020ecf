import { vi } from "vitest";
import type { User } from "../lib/api-client";

/** Every fetch in a unit test goes here; tests give it answers. */
export const fetchMock = vi.fn<(input: Request) => Promise<Response>>();

export function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json" },
  });
}

export const sampleUser: User = {
  _id: "u1",
  id: "u1",
  name: "Priya Sharma",
  email: "priya@example.in",
  phone: "+91 9876543210",
  role: "user",
  planId: "free",
  subscriptionStatus: "trial",
  isInTrial: true,
  trialEndsAt: "2026-11-25T10:00:00Z",
  trialRemainingDays: 3,
  subscriptionEndsAt: null,
  createdAt: "2026-11-22T10:00:00Z",
  emailNotifications: true,
  pushNotifications: false,
};
