//! The owner's billing details: the address, state and optional GSTIN their
//! tax invoices are made out to. They are read when a payment settles and
//! copied onto its invoice; changing them later changes no issued invoice.

use chrono::Utc;
use sea_orm::{EntityTrait, Set};

use ca_auth::entities::user;
use ca_core::gst;

use crate::BillingError;
use crate::dto::{BillingDetailsIn, BillingDetailsOut, StateOut};
use crate::entities::billing_detail;
use crate::service::BillingService;

/// The longest billing address accepted.
pub const ADDRESS_MAX: usize = 500;

fn out(owner: &user::Model, d: Option<billing_detail::Model>) -> BillingDetailsOut {
    BillingDetailsOut {
        name: owner.name.clone(),
        state_name: d
            .as_ref()
            .and_then(|d| gst::state(&d.state_code))
            .map(|s| s.name.to_string()),
        address: d.as_ref().map(|d| d.address.clone()),
        state_code: d.as_ref().map(|d| d.state_code.clone()),
        gstin: d.as_ref().and_then(|d| d.gstin.clone()),
        updated_at: d.map(|d| d.updated_at),
        states: gst::STATES
            .iter()
            .map(|s| StateOut {
                code: s.code.into(),
                name: s.name.into(),
            })
            .collect(),
    }
}

/// Checks `input`; answers the address (trimmed, at most one blank line in a
/// row), the state's code and the GSTIN (upper-cased) or every field's message.
fn checked(input: &BillingDetailsIn) -> Result<(String, String, Option<String>), BillingError> {
    let mut errors = ca_core::FieldErrors::new();
    let mut fail = |field: &str, message: String| {
        errors.entry(field.to_string()).or_default().push(message);
    };
    let address = input
        .address
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("\n");
    if address.is_empty() {
        fail("address", "Please enter your billing address".into());
    } else if address.chars().count() > ADDRESS_MAX {
        fail(
            "address",
            format!("The billing address can have at most {ADDRESS_MAX} characters"),
        );
    } else if address.chars().any(|c| c.is_control() && c != '\n') {
        fail(
            "address",
            "The billing address has characters that cannot be printed".into(),
        );
    }
    let state = gst::state(&input.state_code);
    if input.state_code.trim().is_empty() {
        fail(
            "stateCode",
            "Please choose your state or union territory".into(),
        );
    } else if state.is_none() {
        fail(
            "stateCode",
            format!(
                "{} is not a GST state code; please choose your state from the list",
                input.state_code.trim()
            ),
        );
    }
    let gstin = match input.gstin.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(text) => match gst::check_gstin(text) {
            Ok(g) => {
                if let Some(state) = state
                    && let Err(e) = gst::check_gstin_state(&g, state.code)
                {
                    fail("gstin", e.to_string());
                }
                Some(g)
            }
            Err(e) => {
                fail("gstin", e.to_string());
                None
            }
        },
    };
    if !errors.is_empty() {
        return Err(BillingError::invalid(errors));
    }
    let code = state.map(|s| s.code.to_string()).unwrap_or_default();
    Ok((address, code, gstin))
}

impl BillingService {
    /// The owner's billing details (empty until saved) and the states to choose from.
    pub async fn billing_details(
        &self,
        owner: &user::Model,
    ) -> Result<BillingDetailsOut, BillingError> {
        let d = billing_detail::Entity::find_by_id(owner.id.clone())
            .one(&self.db)
            .await?;
        Ok(out(owner, d))
    }

    /// Saves the owner's billing details after checking them all; a refused
    /// input changes nothing. Invoices already issued keep what they say.
    pub async fn save_billing_details(
        &self,
        owner: &user::Model,
        input: BillingDetailsIn,
    ) -> Result<BillingDetailsOut, BillingError> {
        let (address, state_code, gstin) = checked(&input)?;
        let row = billing_detail::ActiveModel {
            owner_id: Set(owner.id.clone()),
            address: Set(address),
            state_code: Set(state_code),
            gstin: Set(gstin),
            updated_at: Set(Utc::now()),
        };
        billing_detail::Entity::insert(row)
            .on_conflict(
                sea_orm::sea_query::OnConflict::column(billing_detail::Column::OwnerId)
                    .update_columns([
                        billing_detail::Column::Address,
                        billing_detail::Column::StateCode,
                        billing_detail::Column::Gstin,
                        billing_detail::Column::UpdatedAt,
                    ])
                    .to_owned(),
            )
            .exec_without_returning(&self.db)
            .await?;
        tracing::info!(owner = %owner.id, "billing details saved");
        self.billing_details(owner).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(address: &str, state: &str, gstin: Option<&str>) -> BillingDetailsIn {
        BillingDetailsIn {
            address: address.into(),
            state_code: state.into(),
            gstin: gstin.map(String::from),
        }
    }

    fn messages(err: BillingError) -> ca_core::FieldErrors {
        match err {
            BillingError::Validation { errors, .. } => errors,
            other => panic!("not a validation error: {other}"),
        }
    }

    #[test]
    fn good_details_are_normalised() {
        let (a, s, g) = checked(&input(
            "  12 MG Road \n\n Bengaluru 560001 ",
            "29",
            Some(" 29aagcb7383j1z4"),
        ))
        .expect("valid");
        assert_eq!(a, "12 MG Road\nBengaluru 560001");
        assert_eq!(s, "29");
        assert_eq!(g.as_deref(), Some("29AAGCB7383J1Z4"));
        let (_, _, g) = checked(&input("Pune", "27", Some(""))).expect("no GSTIN");
        assert_eq!(g, None);
    }

    #[test]
    fn each_bad_field_has_its_message() {
        let e = messages(checked(&input(" ", "", None)).expect_err("blank"));
        assert_eq!(e["address"], ["Please enter your billing address"]);
        assert_eq!(
            e["stateCode"],
            ["Please choose your state or union territory"]
        );
        let e = messages(checked(&input("x", "28", None)).expect_err("old code"));
        assert!(e["stateCode"][0].contains("not a GST state code"));
        let e = messages(checked(&input("x", "29", Some("29AAGCB7383J1Z5"))).expect_err("check"));
        assert!(e["gstin"][0].contains("check character"));
        let e = messages(checked(&input("x", "29", Some("27AAPFU0939F1ZV"))).expect_err("state"));
        assert_eq!(
            e["gstin"],
            ["This GSTIN is registered in Maharashtra (code 27), not in Karnataka"]
        );
        let long = "a".repeat(ADDRESS_MAX + 1);
        assert!(checked(&input(&long, "29", None)).is_err());
    }
}
