//! Payments as staff handle them: refunds. The money is asked back first
//! (the provider is asked outside any transaction), then the refund (or,
//! when PayU only queued it, the request) and its audit entry are stored
//! together.

use chrono::Utc;
use serde_json::json;

use ca_billing::entities::payment;
use ca_billing::refunds::RefundAsked;

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
        "refundRequestedAt": p.refund_requested_at,
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
        refund_requested_at: p
            .refund_requested_at
            .filter(|_| p.status == payment::PaymentStatus::Success),
        refund_error: p
            .refund_error
            .clone()
            .filter(|_| p.status == payment::PaymentStatus::Success),
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
        let asked = self.billing.request_refund(&p).await?;
        let action = Action {
            name: "refund_payment",
            target_type: "payment",
            need: Some(Permission::RefundPayments),
        };
        let keep_access = input.keep_access.unwrap_or(false);
        let refund_id = match &asked {
            RefundAsked::Done(id) | RefundAsked::Queued(id) => id.clone(),
        };
        let recorded = self
            .audited(actor, action, async |txn| {
                let after = match &asked {
                    RefundAsked::Done(id) => {
                        ca_billing::refunds::record_refund(
                            txn,
                            self.billing.config(),
                            &p,
                            id,
                            keep_access,
                            Utc::now(),
                        )
                        .await?
                    }
                    // PayU makes it later; the payment says so meanwhile.
                    RefundAsked::Queued(id) => {
                        ca_billing::refunds::record_request(txn, &p, id, keep_access, Utc::now())
                            .await?
                    }
                };
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
