//! Who may do what in the admin area: one table of actions × roles. The
//! server checks every admin call against it, and the dashboard reads the
//! same table (`GET /api/admin/permissions`) to show each role only the
//! controls it may use; the server stays the authority.
//!
//! The rules: staff (`admin` and `superuser`) see the admin area, change
//! owners, create owners and admin accounts, refund payments, re-queue Meta
//! events and failed emails, and suspend owners. Only a superuser creates or promotes
//! superusers, changes, suspends or deletes another staff account (an admin
//! cannot demote, suspend or delete another admin, nor change a superuser at
//! all), signs in as an owner, sees the business figures, changes platform
//! settings, manages plans and reads the audit log.

use ca_auth::entities::user;

use crate::AdminError;
use crate::audit::Actor;
pub use crate::permission::{Permission, TABLE};

/// Whether `role` may do `permission`.
pub fn allows(role: &str, permission: Permission) -> bool {
    TABLE
        .iter()
        .any(|(p, roles)| *p == permission && roles.contains(&role))
}

/// Everything `role` may do, in the table's order.
pub fn allowed(role: &str) -> Vec<Permission> {
    TABLE
        .iter()
        .filter(|(_, roles)| roles.contains(&role))
        .map(|(p, _)| *p)
        .collect()
}

/// Refuses `actor` unless the table lets their role do `permission`:
/// anyone not staff is told the admin area is for staff; staff whose role
/// is not enough, that a superuser is needed.
pub fn check(actor: &Actor, permission: Permission) -> Result<(), AdminError> {
    if !actor.is_staff() {
        return Err(AdminError::AdminRequired);
    }
    if !allows(&actor.user.role, permission) {
        return Err(AdminError::SuperuserRequired);
    }
    Ok(())
}

/// Refuses what the actor may not do to `target`: another staff account
/// needs [`Permission::ManageStaff`]; one's own account and owners need
/// only [`Permission::EditUsers`].
pub fn may_manage(actor: &Actor, target: &user::Model) -> Result<(), AdminError> {
    if target.role != "user" && target.id != actor.person_id() {
        return check(actor, Permission::ManageStaff);
    }
    check(actor, Permission::EditUsers)
}

/// Refuses giving `role` to an account unless the actor may: `superuser`
/// needs [`Permission::GrantSuperuser`], `admin` [`Permission::CreateAdmins`].
pub fn may_grant(actor: &Actor, role: &str) -> Result<(), AdminError> {
    match role {
        "superuser" => check(actor, Permission::GrantSuperuser),
        "admin" => check(actor, Permission::CreateAdmins),
        _ => check(actor, Permission::EditUsers),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_action_is_in_the_table_once_and_superusers_may_do_all() {
        let all = allowed("superuser");
        assert_eq!(all.len(), TABLE.len());
        let mut seen = std::collections::HashSet::new();
        assert!(TABLE.iter().all(|(p, _)| seen.insert(*p)));
        assert!(allowed("user").is_empty());
        assert!(allows("admin", Permission::CreateAdmins));
        assert!(!allows("admin", Permission::GrantSuperuser));
        assert!(!allows("admin", Permission::ManageStaff));
    }
}
