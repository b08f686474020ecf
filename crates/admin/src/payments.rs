//! Payments as staff handle them: refunds. The money goes back first (the
//! provider is asked outside any transaction), then the refund and its
//! audit entry are stored together.

use chrono::Utc;
use serde_json::json;

use ca_billing::entities::payment;

use crate::AdminError;
use crate::access::{self, Permission};
use crate::audit::Actor;
use crate::audited::{Action, Done};
use crate::dto::{RefundIn, UserPayment};
use crate::service::AdminService;
use crate::users::rupees;

fn snapshot(p: &payment::Model) -> serde_json::Value {
    json!({
        "txnid": p.txnid, "status": p.status, "amount": rupees(p.amount_paise),
        "refundId": p.refund_id, "refundedAt": p.refunded_at,
        "refundKeepsAccess": p.refund_keeps_access,
    })
}

/// A payment as staff see it.
pub(crate) fn user_payment(p: &payment::Model) -> UserPayment {
    UserPayment {
        id: p.id.clone(),
        status: p.status,
        productinfo: p.productinfo.clone(),
        txnid: p.txnid.clone(),
        mihpayid: p.mihpayid.clone(),
        amount: rupees(p.amount_paise),
        paid_at: p.settled_at.filter(|_| {
            matches!(
                p.status,
                payment::PaymentStatus::Success | payment::PaymentStatus::Refunded
            )
        }),
        created_at: p.created_at,
        payment_mode: p.payment_mode.clone(),
        plan_id: p.plan_id.clone(),
        reason: p.error_message.clone(),
        refunded_at: p.refunded_at,
        refund_keeps_access: p.refund_keeps_access,
        late_success_at: p.late_success_at,
        mode: p.mode,
    }
}

impl AdminService {
    /// Refunds the successful payment `txnid` (staff).
    pub async fn refund_payment(
        &self,
        actor: &Actor,
        txnid: &str,
        input: RefundIn,
    ) -> Result<UserPayment, AdminError> {
        access::check(actor, Permission::RefundPayments)?;
        let p = ca_billing::refunds::by_txnid(&self.db, txnid).await?;
        let refund_id = self.billing.request_refund(&p).await?;
        let action = Action {
            name: "refund_payment",
            target_type: "payment",
            need: Some(Permission::RefundPayments),
        };
        let recorded = self
            .audited(actor, action, async |txn| {
                let after = ca_billing::refunds::record_refund(
                    txn,
                    self.billing.config(),
                    &p,
                    &refund_id,
                    input.keep_access.unwrap_or(false),
                    Utc::now(),
                )
                .await?;
                Ok(Done::new(p.txnid.clone(), after.clone())
                    .before(Some(snapshot(&p)))
                    .after(Some(snapshot(&after))))
            })
            .await;
        match recorded {
            Ok(after) => Ok(user_payment(&after)),
            Err(err) => {
                // The money went back but the refund could not be stored:
                // say so loudly, with what is needed to put it right.
                tracing::error!(txnid = %p.txnid, refund = %refund_id, %err, "a refund was made but not recorded");
                Err(err)
            }
        }
    }
}
