import type { components } from "../../../api/schema";
import { $api } from "../../../lib/api-client";

/** An action of the server's permission table (the server checks every call against it). */
export type Permission = components["schemas"]["Permission"];

/** What a role may do: the actions the server's table allows it. */
export interface Allowed {
  can(action: Permission): boolean;
  /** Whether the permissions have been read from the server yet. */
  loaded: boolean;
}

/** The signed-in role's permissions from a list of allowed actions. */
export function allowedFrom(actions: readonly Permission[] | undefined): Allowed {
  const set = new Set(actions ?? []);
  return { can: (action) => set.has(action), loaded: actions !== undefined };
}

/** An account as a row's controls need it. */
export interface RowAccount {
  id: string;
  role: string;
}

/** The controls one account's row offers the signed-in staff member. */
export interface RowControls {
  edit: boolean;
  changePlan: boolean;
  delete: boolean;
  loginAs: boolean;
}

/**
 * A row's controls, by the same rules the server applies: one's own row and owners need
 * editUsers; another staff account (admin or superuser) needs manageStaff; nobody deletes or
 * signs in as themselves, and only owners can be signed in as.
 */
export function rowControls(allowed: Allowed, meId: string, target: RowAccount): RowControls {
  const own = target.id === meId;
  const change =
    own || target.role === "user" ? allowed.can("editUsers") : allowed.can("manageStaff");
  return {
    edit: change,
    changePlan: change,
    delete: !own && change,
    loginAs: !own && target.role === "user" && allowed.can("loginAs"),
  };
}

/** The roles the signed-in staff member may give an account in the Edit dialog. */
export function grantableRoles(allowed: Allowed): string[] {
  const roles = ["user"];
  if (allowed.can("createAdmins")) roles.push("admin");
  if (allowed.can("grantSuperuser")) roles.push("superuser");
  return roles;
}

/**
 * The signed-in role's permissions, read from the server's table. Until they have loaded
 * nothing is allowed, so no control shows that the role may not use.
 */
export function usePermissions(): Allowed {
  const { data } = $api.useQuery("get", "/api/admin/permissions", {}, { staleTime: 60_000 });
  return allowedFrom(data?.data.allowed);
}
