//! GST tax invoices and credit notes. When a payment succeeds, a tax invoice
//! is issued in the settling transaction: the seller (from configuration),
//! the buyer (the account's name, email and phone and their billing
//! details) and the tax are copied into an `invoices` row that is never
//! changed, so later profile or configuration edits leave it as issued. A
//! refund issues a credit note with the next number of the same series.
//!
//! The tax is computed in paise. The place of supply is the buyer's state
//! (the seller's when the buyer gave none); when it is the seller's state
//! the GST is split into CGST and SGST, otherwise it is IGST.

use chrono::{DateTime, Utc};
use sea_orm::sea_query::Expr;
use sea_orm::{ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, Set};

use ca_auth::entities::user;
use ca_core::gst;

use crate::BillingError;
use crate::config::{BillingConfig, TaxRules};
use crate::dto::{CreditNoteOut, InvoiceParty, TaxLines};
use crate::entities::invoice::{self, CREDIT_NOTE, INVOICE};
use crate::entities::{billing_detail, invoice_sequence, payment};

/// `a / b` rounded half up (both non-negative, `b` positive).
fn div_round(a: i64, b: i64) -> i64 {
    (2 * a + b) / (2 * b)
}

/// How a total splits into taxable value and GST, in paise.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Split {
    pub taxable: i64,
    pub cgst: i64,
    pub sgst: i64,
    pub igst: i64,
}

impl Split {
    pub fn total(&self) -> i64 {
        self.taxable + self.cgst + self.sgst + self.igst
    }
}

/// Splits `total_paise` (GST included) at `rate_bp` hundredths of a percent:
/// the taxable value is the total over (1 + rate), rounded to the paisa; the
/// rest is GST, as CGST and SGST (CGST is half the rate on the taxable value,
/// SGST takes what is left, so the parts always add up to the total) when
/// `intra_state`, else as IGST.
pub fn split(total_paise: i64, rate_bp: i64, intra_state: bool) -> Split {
    let total = total_paise.max(0);
    let taxable = div_round(total * 10_000, 10_000 + rate_bp.max(0));
    let tax = total - taxable;
    if intra_state {
        let cgst = div_round(taxable * rate_bp.max(0), 20_000).min(tax);
        Split {
            taxable,
            cgst,
            sgst: tax - cgst,
            igst: 0,
        }
    } else {
        Split {
            taxable,
            cgst: 0,
            sgst: 0,
            igst: tax,
        }
    }
}

/// What the buyer is charged for a price of `price_paise`: the price when
/// prices include GST, otherwise the price plus GST on it.
pub fn charge(price_paise: i64, rules: &TaxRules) -> i64 {
    if rules.prices_include_gst {
        price_paise
    } else {
        price_paise + div_round(price_paise * rules.gst_rate_bp, 10_000)
    }
}

const ONES: [&str; 20] = [
    "Zero",
    "One",
    "Two",
    "Three",
    "Four",
    "Five",
    "Six",
    "Seven",
    "Eight",
    "Nine",
    "Ten",
    "Eleven",
    "Twelve",
    "Thirteen",
    "Fourteen",
    "Fifteen",
    "Sixteen",
    "Seventeen",
    "Eighteen",
    "Nineteen",
];
const TENS: [&str; 10] = [
    "", "", "Twenty", "Thirty", "Forty", "Fifty", "Sixty", "Seventy", "Eighty", "Ninety",
];

fn below_hundred(n: i64) -> String {
    let n = n as usize;
    match n {
        0..=19 => ONES[n].to_string(),
        _ if n.is_multiple_of(10) => TENS[n / 10].to_string(),
        _ => format!("{} {}", TENS[n / 10], ONES[n % 10]),
    }
}

const LAKH: i64 = 100_000;
const CRORE: i64 = 100 * LAKH;

/// `n` in words with the Indian grouping (thousand, lakh, crore).
pub fn number_in_words(n: i64) -> String {
    if n < 100 {
        return below_hundred(n.max(0));
    }
    let mut parts = Vec::new();
    let crore = n / CRORE;
    let rest = n % CRORE;
    if crore > 0 {
        parts.push(format!("{} Crore", number_in_words(crore)));
    }
    for (unit, size, below) in [
        ("Lakh", LAKH, CRORE),
        ("Thousand", 1_000, LAKH),
        ("Hundred", 100, 1_000),
    ] {
        let count = rest % below / size;
        if count > 0 {
            parts.push(format!("{} {unit}", below_hundred(count)));
        }
    }
    if rest % 100 > 0 {
        parts.push(below_hundred(rest % 100));
    }
    parts.join(" ")
}

/// An amount in words, e.g. `Rupees One Lakh Eighteen Thousand and Fifty
/// Paise Only`.
pub fn amount_in_words(paise: i64) -> String {
    let (rupees, paise) = (paise.max(0) / 100, paise.max(0) % 100);
    match (rupees, paise) {
        (0, 0) => "Rupees Zero Only".into(),
        (0, p) => format!("{} Paise Only", number_in_words(p)),
        (r, 0) => format!("Rupees {} Only", number_in_words(r)),
        (r, p) => format!(
            "Rupees {} and {} Paise Only",
            number_in_words(r),
            number_in_words(p)
        ),
    }
}

/// Rupees of `paise`.
fn rupees(paise: i64) -> f64 {
    paise as f64 / 100.0
}

/// `CA-000042`.
pub fn label(number: i64) -> String {
    format!("CA-{number:06}")
}

/// Takes the next number of the gap-free series shared by invoices and
/// credit notes, in the caller's transaction.
pub(crate) async fn next_number<C: ConnectionTrait>(conn: &C) -> Result<i64, BillingError> {
    use sea_orm::sea_query::ExprTrait;
    invoice_sequence::Entity::update_many()
        .col_expr(
            invoice_sequence::Column::LastNumber,
            Expr::col(invoice_sequence::Column::LastNumber).add(1),
        )
        .filter(invoice_sequence::Column::Id.eq(1))
        .exec(conn)
        .await?;
    invoice_sequence::Entity::find_by_id(1)
        .one(conn)
        .await?
        .map(|s| s.last_number)
        .ok_or_else(|| {
            BillingError::Infra(ca_core::error::InfraError::Other(
                "the invoice sequence row is missing".into(),
            ))
        })
}

/// The tax invoice of the payment `p`, numbered `number`, as it would be
/// issued now: the seller from `config`, the buyer from the account `owner`
/// and their billing details `details`.
fn tax_invoice(
    p: &payment::Model,
    number: i64,
    config: &BillingConfig,
    owner: Option<&user::Model>,
    details: Option<&billing_detail::Model>,
    now: DateTime<Utc>,
) -> invoice::Model {
    let seller_state = config.seller.state_code.clone();
    let buyer_state = details.map(|d| d.state_code.clone());
    // A buyer who gave no state is supplied where the seller is.
    let place = buyer_state.clone().or_else(|| seller_state.clone());
    let intra = place.is_some() && place == seller_state;
    let s = split(p.amount_paise, config.tax.gst_rate_bp, intra);
    let phone = owner
        .map(|o| o.phone.trim().to_string())
        .filter(|ph| !ph.is_empty())
        .unwrap_or_else(|| {
            if p.phone == payment::DEFAULT_PHONE {
                String::new()
            } else {
                p.phone.clone()
            }
        });
    invoice::Model {
        id: ca_core::ids::new_id().to_string(),
        payment_id: p.id.clone(),
        owner_id: p.owner_id.clone(),
        kind: INVOICE.into(),
        number,
        original_number: None,
        issued_at: now,
        seller_name: config.seller.name.clone(),
        seller_address: config.seller.address.clone(),
        seller_gstin: config.seller.gstin.clone(),
        seller_state_code: seller_state,
        buyer_name: owner.map_or_else(|| p.firstname.clone(), |o| o.name.clone()),
        buyer_email: owner.map_or_else(|| p.email.clone(), |o| o.email.clone()),
        buyer_phone: phone,
        buyer_address: details.map(|d| d.address.clone()),
        buyer_state_code: buyer_state,
        buyer_gstin: details.and_then(|d| d.gstin.clone()),
        place_of_supply: place,
        sac: config.tax.sac.clone(),
        description: p.productinfo.clone(),
        gst_rate_bp: i32::try_from(config.tax.gst_rate_bp).unwrap_or(0),
        taxable_paise: s.taxable,
        cgst_paise: s.cgst,
        sgst_paise: s.sgst,
        igst_paise: s.igst,
        total_paise: s.total(),
    }
}

fn insert_model(m: invoice::Model) -> invoice::ActiveModel {
    invoice::ActiveModel {
        id: Set(m.id),
        payment_id: Set(m.payment_id),
        owner_id: Set(m.owner_id),
        kind: Set(m.kind),
        number: Set(m.number),
        original_number: Set(m.original_number),
        issued_at: Set(m.issued_at),
        seller_name: Set(m.seller_name),
        seller_address: Set(m.seller_address),
        seller_gstin: Set(m.seller_gstin),
        seller_state_code: Set(m.seller_state_code),
        buyer_name: Set(m.buyer_name),
        buyer_email: Set(m.buyer_email),
        buyer_phone: Set(m.buyer_phone),
        buyer_address: Set(m.buyer_address),
        buyer_state_code: Set(m.buyer_state_code),
        buyer_gstin: Set(m.buyer_gstin),
        place_of_supply: Set(m.place_of_supply),
        sac: Set(m.sac),
        description: Set(m.description),
        gst_rate_bp: Set(m.gst_rate_bp),
        taxable_paise: Set(m.taxable_paise),
        cgst_paise: Set(m.cgst_paise),
        sgst_paise: Set(m.sgst_paise),
        igst_paise: Set(m.igst_paise),
        total_paise: Set(m.total_paise),
    }
}

/// Issues the tax invoice numbered `number` for the payment `p` that has
/// just succeeded, in the settling transaction.
pub(crate) async fn issue<C: ConnectionTrait>(
    conn: &C,
    config: &BillingConfig,
    p: &payment::Model,
    number: i64,
    now: DateTime<Utc>,
) -> Result<invoice::Model, BillingError> {
    let owner = user::Entity::find_by_id(p.owner_id.clone())
        .one(conn)
        .await?;
    let details = billing_detail::Entity::find_by_id(p.owner_id.clone())
        .one(conn)
        .await?;
    let model = tax_invoice(p, number, config, owner.as_ref(), details.as_ref(), now);
    Ok(insert_model(model).insert(conn).await?)
}

/// The documents issued for the payment `p`: its tax invoice and its credit
/// note, if any. A payment that succeeded before invoices were stored gets
/// its invoice as recorded on the payment (the buyer's name, email and phone
/// copied at checkout), with today's seller and tax settings.
pub(crate) async fn documents<C: ConnectionTrait>(
    conn: &C,
    config: &BillingConfig,
    p: &payment::Model,
) -> Result<Option<(invoice::Model, Option<invoice::Model>)>, BillingError> {
    let rows = invoice::Entity::find()
        .filter(invoice::Column::PaymentId.eq(&p.id))
        .all(conn)
        .await?;
    let credit = rows.iter().find(|r| r.kind == CREDIT_NOTE).cloned();
    if let Some(inv) = rows.into_iter().find(|r| r.kind == INVOICE) {
        return Ok(Some((inv, credit)));
    }
    let (Some(number), Some(at)) = (p.invoice_number, p.settled_at) else {
        return Ok(None);
    };
    Ok(Some((
        tax_invoice(p, number, config, None, None, at),
        credit,
    )))
}

/// Issues the credit note that reverses the invoice of the refunded payment
/// `p`, with the next number of the series, in the refund's transaction.
pub(crate) async fn issue_credit_note<C: ConnectionTrait>(
    conn: &C,
    config: &BillingConfig,
    p: &payment::Model,
    now: DateTime<Utc>,
) -> Result<invoice::Model, BillingError> {
    let Some((original, None)) = documents(conn, config, p).await? else {
        return Err(BillingError::NotRefundable);
    };
    let number = next_number(conn).await?;
    let note = invoice::Model {
        id: ca_core::ids::new_id().to_string(),
        kind: CREDIT_NOTE.into(),
        number,
        original_number: Some(original.number),
        issued_at: now,
        ..original
    };
    Ok(insert_model(note).insert(conn).await?)
}

fn party(
    name: &str,
    address: Option<&str>,
    email: Option<&str>,
    phone: Option<&str>,
    gstin: Option<&str>,
    state: Option<&str>,
) -> InvoiceParty {
    let some = |v: Option<&str>| v.map(str::trim).filter(|v| !v.is_empty()).map(String::from);
    InvoiceParty {
        name: name.to_string(),
        address: some(address),
        email: some(email),
        phone: some(phone),
        gstin: some(gstin),
        state_code: some(state),
        state_name: state.and_then(gst::state).map(|s| s.name.to_string()),
    }
}

/// The seller as printed on the document `d`.
pub fn seller(d: &invoice::Model) -> InvoiceParty {
    party(
        &d.seller_name,
        Some(&d.seller_address),
        None,
        None,
        d.seller_gstin.as_deref(),
        d.seller_state_code.as_deref(),
    )
}

/// The buyer as printed on the document `d`.
pub fn buyer(d: &invoice::Model) -> InvoiceParty {
    party(
        &d.buyer_name,
        d.buyer_address.as_deref(),
        Some(&d.buyer_email),
        Some(&d.buyer_phone),
        d.buyer_gstin.as_deref(),
        d.buyer_state_code.as_deref(),
    )
}

/// The tax lines of the document `d`.
pub fn lines(d: &invoice::Model) -> TaxLines {
    TaxLines {
        taxable_value: rupees(d.taxable_paise),
        cgst: rupees(d.cgst_paise),
        sgst: rupees(d.sgst_paise),
        igst: rupees(d.igst_paise),
        total: rupees(d.total_paise),
        amount_in_words: amount_in_words(d.total_paise),
    }
}

/// `Karnataka (29)`.
pub fn place_of_supply(d: &invoice::Model) -> Option<String> {
    d.place_of_supply
        .as_deref()
        .map(|code| match gst::state(code) {
            Some(s) => format!("{} ({})", s.name, s.code),
            None => code.to_string(),
        })
}

/// `intra` when GST was split into CGST and SGST, `inter` for IGST.
pub fn tax_type(d: &invoice::Model) -> &'static str {
    if d.igst_paise == 0 && d.cgst_paise + d.sgst_paise > 0 {
        "intra"
    } else if d.igst_paise > 0 {
        "inter"
    } else if d.place_of_supply.is_some() && d.place_of_supply == d.seller_state_code {
        "intra"
    } else {
        "inter"
    }
}

/// The credit note `d` for the invoice view.
pub fn credit_note_out(d: &invoice::Model) -> CreditNoteOut {
    CreditNoteOut {
        number: label(d.number),
        issued_at: d.issued_at,
        lines: lines(d),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_add_up_to_the_paisa() {
        for total in [100, 99_900, 99_999, 1, 0, 11_800, 99_999_999, 12_345] {
            for rate in [1800, 500, 1200, 2800, 0] {
                for intra in [true, false] {
                    let s = split(total, rate, intra);
                    assert_eq!(s.total(), total, "{total} {rate} {intra}");
                    assert!(s.cgst.abs_diff(s.sgst) <= 1, "{s:?}");
                }
            }
        }
        assert_eq!(
            split(99_900, 1800, true),
            Split {
                taxable: 84_661,
                cgst: 7_619,
                sgst: 7_620,
                igst: 0
            }
        );
        assert_eq!(
            split(100, 1800, false),
            Split {
                taxable: 85,
                cgst: 0,
                sgst: 0,
                igst: 15
            }
        );
        assert_eq!(split(11_800, 1800, true).taxable, 10_000);
    }

    #[test]
    fn gst_added_when_prices_exclude_it() {
        let rules = TaxRules {
            prices_include_gst: false,
            ..TaxRules::default()
        };
        assert_eq!(charge(99_900, &rules), 117_882);
        assert_eq!(split(117_882, 1800, false).taxable, 99_900);
        assert_eq!(charge(99_900, &TaxRules::default()), 99_900);
    }

    #[test]
    fn words_use_lakh_and_crore() {
        assert_eq!(
            amount_in_words(99_900),
            "Rupees Nine Hundred Ninety Nine Only"
        );
        assert_eq!(amount_in_words(100), "Rupees One Only");
        assert_eq!(amount_in_words(15), "Fifteen Paise Only");
        assert_eq!(
            amount_in_words(117_882),
            "Rupees One Thousand One Hundred Seventy Eight and Eighty Two Paise Only"
        );
        assert_eq!(
            amount_in_words(123_456_789),
            "Rupees Twelve Lakh Thirty Four Thousand Five Hundred Sixty Seven and Eighty Nine Paise Only"
        );
        assert_eq!(
            amount_in_words(10_500_000_000),
            "Rupees Ten Crore Fifty Lakh Only"
        );
        // Past 99 crore the count of crores is itself read in words.
        assert_eq!(
            amount_in_words(105_000_000_000),
            "Rupees One Hundred Five Crore Only"
        );
        assert_eq!(number_in_words(10_000_001), "One Crore One");
        assert_eq!(number_in_words(2_000_000), "Twenty Lakh");
    }
}
