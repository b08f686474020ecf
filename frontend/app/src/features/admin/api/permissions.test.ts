import { describe, expect, it } from "vitest";
import { allowedFrom, grantableRoles, rowControls, type Permission } from "./permissions";

const ADMIN: Permission[] = [
  "viewAdmin",
  "editUsers",
  "createAdmins",
  "refundPayments",
  "requeueMetaEvents",
];
const SUPERUSER: Permission[] = [
  ...ADMIN,
  "grantSuperuser",
  "manageStaff",
  "loginAs",
  "viewBusiness",
  "editSettings",
  "managePlans",
];

describe("rowControls", () => {
  const admin = allowedFrom(ADMIN);
  const root = allowedFrom(SUPERUSER);

  it("gives an admin no control over a superuser's or another admin's row", () => {
    const none = { edit: false, changePlan: false, delete: false, loginAs: false };
    expect(rowControls(admin, "me", { id: "su", role: "superuser" })).toEqual(none);
    expect(rowControls(admin, "me", { id: "peer", role: "admin" })).toEqual(none);
  });

  it("lets an admin change owners and their own row, but not sign in as anyone", () => {
    expect(rowControls(admin, "me", { id: "o", role: "user" })).toEqual({
      edit: true,
      changePlan: true,
      delete: true,
      loginAs: false,
    });
    expect(rowControls(admin, "me", { id: "me", role: "admin" })).toEqual({
      edit: true,
      changePlan: true,
      delete: false,
      loginAs: false,
    });
  });

  it("lets a superuser sign in as owners only, never as staff or themselves", () => {
    expect(rowControls(root, "me", { id: "o", role: "user" }).loginAs).toBe(true);
    expect(rowControls(root, "me", { id: "su2", role: "superuser" }).loginAs).toBe(false);
    expect(rowControls(root, "me", { id: "me", role: "superuser" }).loginAs).toBe(false);
    expect(rowControls(root, "me", { id: "su2", role: "superuser" }).delete).toBe(true);
  });

  it("allows nothing before the permissions have loaded", () => {
    expect(rowControls(allowedFrom(undefined), "me", { id: "o", role: "user" })).toEqual({
      edit: false,
      changePlan: false,
      delete: false,
      loginAs: false,
    });
  });
});

describe("grantableRoles", () => {
  it("offers superuser only to whom may grant it", () => {
    expect(grantableRoles(allowedFrom(ADMIN))).toEqual(["user", "admin"]);
    expect(grantableRoles(allowedFrom(SUPERUSER))).toEqual(["user", "admin", "superuser"]);
  });
});
