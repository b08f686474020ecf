//! Receipts: the owner gets an email when a payment succeeds (unless they
//! turned email notifications off), once per payment. It names the tax
//! invoice and shows its GST: the taxable value and CGST with SGST (a buyer
//! in the seller's state) or IGST, as the invoice does.

use chrono::{DateTime, Duration, Utc};
use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait, DatabaseConnection, DbErr, EntityTrait, QueryFilter};

use ca_auth::Mailer;
use ca_auth::entities::user;

use crate::entities::{invoice, payment};
use crate::invoices::label as invoice_label;

/// Receipts are not sent for payments settled longer ago than this.
const RECENT_DAYS: i64 = 7;

/// Queues the receipts due in the email outbox; returns how many.
pub async fn send_due(
    db: &DatabaseConnection,
    mailer: &Mailer,
    public_url: &str,
    now: DateTime<Utc>,
) -> Result<usize, DbErr> {
    let due = payment::Entity::find()
        .filter(payment::Column::Status.eq(crate::entities::payment::PaymentStatus::Success))
        .filter(payment::Column::ReceiptSentAt.is_null())
        .filter(payment::Column::Provider.ne("demo"))
        .filter(payment::Column::SettledAt.gte(now - Duration::days(RECENT_DAYS)))
        .all(db)
        .await?;
    let mut sent = 0;
    for p in due {
        let Some(owner) = user::Entity::find_by_id(p.owner_id.clone()).one(db).await? else {
            continue;
        };
        // The email and the mark that it went out are stored together; a
        // second server doing the same round finds the mark and stores nothing.
        let txn = ca_core::db::begin_background_write(db).await?;
        let marked = payment::Entity::update_many()
            .col_expr(payment::Column::ReceiptSentAt, Expr::value(Some(now)))
            .filter(payment::Column::Id.eq(&p.id))
            .filter(payment::Column::ReceiptSentAt.is_null())
            .exec(&txn)
            .await?
            .rows_affected
            == 1;
        if !marked {
            txn.rollback().await?;
            continue;
        }
        if owner.email_notifications {
            let invoice = p.invoice_number.map(invoice_label).unwrap_or_default();
            let document = invoice::Entity::find()
                .filter(invoice::Column::PaymentId.eq(&p.id))
                .filter(invoice::Column::Kind.eq(invoice::INVOICE))
                .one(&txn)
                .await?;
            let body = format!(
                "Hi {},\n\nThank you for your payment.\n\n\
                 Plan: {}\nAmount: ₹{}\n{}Transaction: {}\nInvoice: {}\nPaid for: until {}\n\n\
                 Your invoice: {public_url}/billing/invoice/{}\n\n— ConvertAssist",
                owner.name,
                p.productinfo,
                crate::payu::amount_text(p.amount_paise),
                document.as_ref().map(tax_lines).unwrap_or_default(),
                p.txnid,
                invoice,
                p.period_end
                    .map(|d| d.format("%-d %B %Y").to_string())
                    .unwrap_or_default(),
                p.txnid
            );
            if let Err(err) = mailer
                .send(
                    &txn,
                    &owner.email,
                    &format!("Receipt {invoice}: {}", p.productinfo),
                    &body,
                )
                .await
            {
                txn.rollback().await?;
                tracing::warn!(txnid = %p.txnid, %err, "receipt not queued; retried next round");
                continue;
            }
            sent += 1;
        }
        txn.commit().await?;
    }
    Ok(sent)
}

/// The invoice's GST as receipt lines (each ending in a newline), labelled
/// as on the invoice; nothing when it carries no GST.
fn tax_lines(d: &invoice::Model) -> String {
    use crate::pdf::percent;
    let amount = crate::payu::amount_text;
    if d.cgst_paise + d.sgst_paise + d.igst_paise == 0 {
        return String::new();
    }
    let rate = i64::from(d.gst_rate_bp);
    let mut lines = format!("Taxable value: ₹{}\n", amount(d.taxable_paise));
    if crate::invoices::tax_type(d) == "intra" {
        lines.push_str(&format!(
            "CGST @ {}: ₹{}\nSGST @ {}: ₹{}\n",
            percent(rate / 2),
            amount(d.cgst_paise),
            percent(rate - rate / 2),
            amount(d.sgst_paise)
        ));
    } else {
        lines.push_str(&format!(
            "IGST @ {}: ₹{}\n",
            percent(rate),
            amount(d.igst_paise)
        ));
    }
    if let Some(gstin) = d.seller_gstin.as_deref().filter(|g| !g.is_empty()) {
        lines.push_str(&format!("Our GSTIN: {gstin}\n"));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::tax_lines;
    use crate::entities::invoice;

    fn document(
        rate_bp: i32,
        cgst: i64,
        sgst: i64,
        igst: i64,
        gstin: Option<&str>,
    ) -> invoice::Model {
        invoice::Model {
            id: "i1".into(),
            payment_id: "p1".into(),
            owner_id: "o1".into(),
            kind: invoice::INVOICE.into(),
            number: 12,
            original_number: None,
            issued_at: chrono::Utc::now(),
            seller_name: "ConvertAssist".into(),
            seller_address: "Bengaluru".into(),
            seller_gstin: gstin.map(str::to_string),
            seller_state_code: Some("29".into()),
            buyer_name: "Asha".into(),
            buyer_email: "asha@example.in".into(),
            buyer_phone: "9876543210".into(),
            buyer_address: None,
            buyer_state_code: Some("29".into()),
            buyer_gstin: None,
            place_of_supply: Some("29".into()),
            sac: "998314".into(),
            description: "Basic".into(),
            gst_rate_bp: rate_bp,
            taxable_paise: 99_900 - cgst - sgst - igst,
            cgst_paise: cgst,
            sgst_paise: sgst,
            igst_paise: igst,
            total_paise: 99_900,
        }
    }

    #[test]
    fn a_buyer_in_the_sellers_state_reads_cgst_and_sgst() {
        assert_eq!(
            tax_lines(&document(1800, 7_619, 7_620, 0, Some("29ABCDE1234F1Z5"))),
            "Taxable value: ₹846.61\nCGST @ 9%: ₹76.19\nSGST @ 9%: ₹76.20\nOur GSTIN: 29ABCDE1234F1Z5\n"
        );
    }

    #[test]
    fn an_invoice_without_gst_adds_no_lines() {
        assert_eq!(tax_lines(&document(0, 0, 0, 0, None)), "");
    }
}
