import { useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import type { paths } from "../../../api/schema";
import { $api, client } from "../../../lib/api-client";
import { PAGE_SIZE } from "./pagination";
import { listQuery, type UserListState } from "./user-list";

/** The admin area's calls, one small hook each, over the generated client. */

export function useDashboardStats() {
  return $api.useQuery("get", "/api/admin/dashboard/stats");
}

/** One page of the users table, filtered and sorted as `s` says. */
export function useAdminUsers(s: UserListState) {
  return $api.useQuery(
    "get",
    "/api/admin/users",
    {
      params: {
        query: { ...listQuery(s), page: String(s.page), limit: String(PAGE_SIZE) },
      },
    },
    { placeholderData: (previous) => previous },
  );
}

/** Every user the table's filters match, as the server's CSV file. */
export async function fetchUsersCsv(s: UserListState): Promise<Blob> {
  const { data, error } = await client.GET("/api/admin/users/export", {
    params: { query: listQuery(s) },
    parseAs: "blob",
  });
  if (error || !data) throw error ?? new Error("The users could not be exported");
  return data;
}

export function useBulkChangePlan() {
  return $api.useMutation("post", "/api/admin/users/bulk/change-plan");
}

export function useBulkSendPasswordReset() {
  return $api.useMutation("post", "/api/admin/users/bulk/send-password-reset");
}

export function useUserDetail(id: string) {
  return $api.useQuery("get", "/api/admin/users/{id}", { params: { path: { id } } });
}

export function useUpdateUser() {
  return $api.useMutation("put", "/api/admin/users/{id}");
}

export function useDeleteUser() {
  return $api.useMutation("delete", "/api/admin/users/{id}");
}

export function useCreateUser() {
  return $api.useMutation("post", "/api/admin/users/create-user");
}

export function useCreateAdmin() {
  return $api.useMutation("post", "/api/admin/users/create-admin");
}

export function useChangePlan() {
  return $api.useMutation("post", "/api/admin/users/{id}/change-plan");
}

export function useLoginAsUser() {
  return $api.useMutation("post", "/api/admin/login-as-user");
}

/** Every plan, inactive ones too, with its subscriber count. */
export function useAdminPlans() {
  return $api.useQuery("get", "/api/admin/plans");
}

export function usePlan(id: string) {
  return $api.useQuery("get", "/api/plans/{id}", { params: { path: { id } } });
}

export function useCreatePlan() {
  return $api.useMutation("post", "/api/plans");
}

export function useUpdatePlan() {
  return $api.useMutation("put", "/api/plans/{id}");
}

/** Deactivates a plan (plans are never removed). */
export function useDeactivatePlan() {
  return $api.useMutation("delete", "/api/plans/{id}");
}

/** Refunds one of an owner's successful payments (staff). */
export function useRefundPayment() {
  return $api.useMutation("post", "/api/admin/payments/{txnid}/refund");
}

export function useSystemHealth() {
  return $api.useQuery("get", "/api/admin/system/health", {}, { refetchInterval: 30_000 });
}

/** The Meta outbox's counts and one page of its events, all or in one state (staff). */
export function useMetaOutbox(query: { status?: MetaEventStatus; page: number }) {
  return $api.useQuery(
    "get",
    "/api/admin/meta/events",
    { params: { query: { status: query.status ?? "", page: query.page } } },
    { refetchInterval: 30_000, placeholderData: (previous) => previous },
  );
}

/** The states of a Meta outbox event (the API's `status` filter). */
export type MetaEventStatus = Exclude<
  NonNullable<NonNullable<paths["/api/admin/meta/events"]["get"]["parameters"]["query"]>["status"]>,
  ""
>;

/** Puts failed Meta events back in the queue and lifts a pause (staff). */
export function useRequeueMetaEvents() {
  return $api.useMutation("post", "/api/admin/meta/events/requeue");
}

/** Puts the failed emails of the last 7 days back in the queue (staff). */
export function useRequeueEmails() {
  return $api.useMutation("post", "/api/admin/system/emails/requeue");
}

/** Emails the signed-in staff member a test message through the outbox (staff). */
export function useSendTestEmail() {
  return $api.useMutation("post", "/api/admin/system/emails/test");
}

export function useSuperAdminStats() {
  return $api.useQuery("get", "/api/admin/superadmin", {}, { retry: false });
}

export function useSaveAdSpend() {
  return $api.useMutation("put", "/api/admin/settings/ad-spend");
}

export function useTrialSettings() {
  return $api.useQuery("get", "/api/admin/settings/trial");
}

export function useSaveTrialSettings() {
  return $api.useMutation("put", "/api/admin/settings/trial");
}

/** The grace period staff have to turn on two-factor sign-in. */
export function useStaffTwoFactor() {
  return $api.useQuery("get", "/api/admin/settings/two-factor");
}

export function useSaveStaffTwoFactor() {
  return $api.useMutation("put", "/api/admin/settings/two-factor");
}

/** The simple users list of /admin/users. */
export function useSimpleUsers(page: number, search: string) {
  return $api.useQuery(
    "get",
    "/api/users",
    {
      params: {
        query: { page: String(page), limit: String(PAGE_SIZE), search: search || undefined },
      },
    },
    { placeholderData: (previous) => previous },
  );
}

export function useAddSimpleUser() {
  return $api.useMutation("post", "/api/users");
}

export function useDeleteSimpleUser() {
  return $api.useMutation("delete", "/api/users/{id}");
}

const ADMIN_PATHS = ["/api/admin/", "/api/users", "/api/plans"];

/** Marks every admin, user-list and plan query stale after a change. */
export function useRefreshAdmin() {
  const queryClient = useQueryClient();
  return useCallback(
    () =>
      queryClient.invalidateQueries({
        predicate: (q) => {
          const path = q.queryKey[1];
          return typeof path === "string" && ADMIN_PATHS.some((p) => path.startsWith(p));
        },
      }),
    [queryClient],
  );
}

/** Suspends an account (sign-in refused, sessions ended; the widget pauses if asked). */
export function useSuspendUser() {
  return $api.useMutation("post", "/api/admin/users/{id}/suspend");
}

/** Restores a suspended account. */
export function useUnsuspendUser() {
  return $api.useMutation("post", "/api/admin/users/{id}/unsuspend");
}

/** Emails the account the usual password reset link. */
export function useSendPasswordReset() {
  return $api.useMutation("post", "/api/admin/users/{id}/send-password-reset");
}

/** Ends every session of the account. */
export function useSignOutEverywhere() {
  return $api.useMutation("post", "/api/admin/users/{id}/sign-out-everywhere");
}

/** The staff-only notes on an account, newest first. */
export function useUserNotes(id: string) {
  return $api.useQuery("get", "/api/admin/users/{id}/notes", { params: { path: { id } } });
}

export function useAddNote() {
  return $api.useMutation("post", "/api/admin/users/{id}/notes");
}
