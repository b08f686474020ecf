import type { components } from "../../../api/schema";

/** The admin calls' shapes, as the server's OpenAPI document names them. */
type Schemas = components["schemas"];

export type Plan = Schemas["PlanOut"];
/** A plan with the number of accounts on it. */
export type AdminPlan = Schemas["AdminPlanOut"];
export type AdminUser = Schemas["AdminUser"];
export type DashboardStats = Schemas["DashboardStats"];
export type UserDetail = Schemas["UserDetail"];
export type SystemHealth = Schemas["SystemHealth"];
export type SuperAdminStats = Schemas["SuperadminFigures"];
export type BulkOutcome = Schemas["BulkOutcome"];
