//! Who may do what in the admin area: every call needs staff (`admin` or
//! `superuser`); plans, settings, the business figures, login-as and
//! anything done to a superuser need a superuser.

use ca_auth::entities::user;

use crate::AdminError;
use crate::audit::Actor;

/// The role an admin call needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Need {
    /// Any signed-in account: recording what a superuser did while signed
    /// in as an owner.
    Anyone,
    /// An `admin` or a `superuser`.
    Staff,
    /// A `superuser`.
    Superuser,
}

/// Refuses `actor` unless they have the role `need` names.
pub fn check(actor: &Actor, need: Need) -> Result<(), AdminError> {
    if need == Need::Anyone {
        return Ok(());
    }
    if !actor.is_staff() {
        return Err(AdminError::AdminRequired);
    }
    if need == Need::Superuser && !actor.is_superuser() {
        return Err(AdminError::SuperuserRequired);
    }
    Ok(())
}

/// Refuses what the actor may not do to `target`: only a superuser may
/// change a superuser.
pub fn may_manage(actor: &Actor, target: &user::Model) -> Result<(), AdminError> {
    if target.role == "superuser" && !actor.is_superuser() {
        return Err(AdminError::SuperuserRequired);
    }
    Ok(())
}
