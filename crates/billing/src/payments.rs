//! Buying a plan: the payment is created pending with the amount the server
//! computes from the plan, the browser is sent to the hosted payment page, and
//! the payment is settled once, from whichever comes first of the browser's
//! return, PayU's webhook, or asking PayU (`verify_payment`). Settling a
//! success gives the invoice number and starts the paid period, in one
//! transaction.

use std::collections::{BTreeMap, HashMap};

use chrono::{DateTime, Months, Utc};
use sea_orm::sea_query::{Expr, ExprTrait};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, DatabaseConnection, EntityTrait, QueryFilter,
    QueryOrder, QuerySelect, Set,
};

use ca_auth::entities::user;

use crate::BillingError;
use crate::dto::{
    Buyer, InitializeData, InitializeIn, InvoiceOut, PaymentOut, StatusData, VerifyData,
    VerifyResponse,
};
use crate::entities::{invoice_sequence, payment, plan, subscription};
use crate::payu::{self, Credentials, Outcome, Signed};
use crate::service::{BillingService, purchasable};

/// Phone sent to the payment page when the account has none.
pub const DEFAULT_PHONE: &str = "9999999999";
/// An annual purchase costs this many months.
pub const ANNUAL_MONTHS_CHARGED: i64 = 10;
/// The provider is asked about a pending payment at most this often.
const RECHECK_SECONDS: i64 = 5;

/// Which hosted payment page checkout uses.
#[derive(Debug, Clone)]
pub enum Gateway {
    /// PayU itself (`test` or `live`).
    Payu {
        credentials: Credentials,
        payment_url: String,
        verify_url: String,
    },
    /// The built-in stand-in served by this server at `/payment/simulator`.
    Simulator,
}

/// What billing needs from the configuration.
#[derive(Debug, Clone)]
pub struct BillingConfig {
    /// This server's own URL (return URLs, the simulator's address).
    pub public_url: String,
    pub gateway: Gateway,
    /// The simulator's key and salt (also checks callbacks of simulated payments).
    pub simulator: Credentials,
    /// The demo page may activate plans without charging (no PayU key set).
    pub demo_enabled: bool,
    pub seller: crate::dto::Seller,
}

/// How a callback ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settlement {
    pub txnid: String,
    /// The payment's status after the callback.
    pub status: String,
    /// Whether this call changed it (false for a resend or a late duplicate).
    pub applied: bool,
    pub error: Option<String>,
}

/// A callback that changed nothing, and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CallbackRefused {
    #[error("no txnid in the callback")]
    MissingTxnid,
    #[error("unknown txnid {0}")]
    UnknownTxnid(String),
    #[error("{txnid}: {reason}")]
    Rejected {
        txnid: String,
        reason: payu::Rejected,
    },
    /// It checked out but could not be stored (the provider should resend).
    #[error("{txnid}: storing failed")]
    NotStored { txnid: String },
}

fn rupees(paise: i64) -> f64 {
    paise as f64 / 100.0
}

/// A new transaction id: `CA`, the time in base 36 and random letters, at
/// most 25 characters.
fn new_txnid() -> String {
    use rand::Rng;
    const ALPHABET: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    let mut n = u64::try_from(Utc::now().timestamp_millis()).unwrap_or(0);
    let mut time = Vec::new();
    while n > 0 {
        time.push(ALPHABET[(n % 36) as usize]);
        n /= 36;
    }
    time.reverse();
    let mut rng = rand::thread_rng();
    let tail: String = (0..10)
        .map(|_| ALPHABET[rng.gen_range(0..ALPHABET.len())] as char)
        .collect();
    format!("CA{}{tail}", String::from_utf8_lossy(&time))
}

/// `CA-000042`.
pub fn invoice_label(number: i64) -> String {
    format!("CA-{number:06}")
}

/// The end of a period of `cycle` starting at `start`.
pub fn period_end(start: DateTime<Utc>, cycle: &str) -> DateTime<Utc> {
    let months = if cycle == "annual" { 12 } else { 1 };
    start
        .checked_add_months(Months::new(months))
        .unwrap_or(start)
}

fn payment_out(p: &payment::Model) -> PaymentOut {
    PaymentOut {
        id: p.id.clone(),
        txnid: p.txnid.clone(),
        productinfo: p.productinfo.clone(),
        amount: rupees(p.amount_paise),
        status: p.status.clone(),
        payment_mode: p.payment_mode.clone(),
        created_at: p.created_at,
        mihpayid: p.mihpayid.clone(),
        firstname: p.firstname.clone(),
        email: p.email.clone(),
        phone: p.phone.clone(),
        plan_id: p.plan_id.clone(),
        cycle: p.cycle.clone(),
        invoice_number: p.invoice_number.map(invoice_label),
        provider: p.provider.clone(),
        error_message: p.error_message.clone(),
    }
}

/// Text for the payment page: at most `max` characters, no `|` (PayU's hash separator).
fn clean(text: &str, max: usize) -> String {
    text.replace(['|', '\n', '\r'], " ")
        .trim()
        .chars()
        .take(max)
        .collect()
}

/// Settles the pending payment `p` with `outcome` inside one transaction: the
/// status moves forward only from `pending` (a resend changes nothing); a
/// success takes the next invoice number and starts the paid period.
pub(crate) async fn settle(
    db: &DatabaseConnection,
    p: &payment::Model,
    outcome: &Outcome,
    now: DateTime<Utc>,
) -> Result<bool, BillingError> {
    if outcome.status == "pending" {
        return Ok(false);
    }
    let txn = ca_core::db::begin_write(db).await?;
    let raw = serde_json::to_string(&outcome.raw).unwrap_or_default();
    let moved = payment::Entity::update_many()
        .col_expr(payment::Column::Status, Expr::value(outcome.status.clone()))
        .col_expr(
            payment::Column::Mihpayid,
            Expr::value(outcome.mihpayid.clone()),
        )
        .col_expr(
            payment::Column::PaymentMode,
            Expr::value(outcome.mode.clone()),
        )
        .col_expr(
            payment::Column::BankRefNum,
            Expr::value(outcome.bank_ref_num.clone()),
        )
        .col_expr(
            payment::Column::UnmappedStatus,
            Expr::value(outcome.unmapped_status.clone()),
        )
        .col_expr(
            payment::Column::ErrorMessage,
            Expr::value(if outcome.status == "failure" {
                outcome.error.clone()
            } else {
                None
            }),
        )
        .col_expr(payment::Column::Raw, Expr::value(Some(raw)))
        .col_expr(payment::Column::SettledAt, Expr::value(Some(now)))
        .col_expr(payment::Column::UpdatedAt, Expr::value(now))
        .filter(payment::Column::Id.eq(&p.id))
        .filter(payment::Column::Status.eq("pending"))
        .exec(&txn)
        .await?
        .rows_affected
        == 1;
    if !moved {
        txn.rollback().await?;
        return Ok(false);
    }
    if outcome.status == "success" {
        start_period(&txn, p, now).await?;
    }
    txn.commit().await?;
    tracing::info!(txnid = %p.txnid, status = %outcome.status, owner = %p.owner_id, plan = %p.plan_id, "payment settled");
    Ok(true)
}

/// A successful payment: invoice number, the period it pays for, the owner's
/// plan and subscription record. Runs in the settling transaction.
async fn start_period<C: ConnectionTrait>(
    txn: &C,
    p: &payment::Model,
    now: DateTime<Utc>,
) -> Result<(), BillingError> {
    invoice_sequence::Entity::update_many()
        .col_expr(
            invoice_sequence::Column::LastNumber,
            Expr::col(invoice_sequence::Column::LastNumber).add(1),
        )
        .filter(invoice_sequence::Column::Id.eq(1))
        .exec(txn)
        .await?;
    let number = invoice_sequence::Entity::find_by_id(1)
        .one(txn)
        .await?
        .map(|s| s.last_number)
        .ok_or_else(|| {
            BillingError::Infra(ca_core::error::InfraError::Other(
                "the invoice sequence row is missing".into(),
            ))
        })?;
    let end = period_end(now, &p.cycle);
    payment::Entity::update_many()
        .col_expr(payment::Column::InvoiceNumber, Expr::value(Some(number)))
        .col_expr(payment::Column::PeriodStart, Expr::value(Some(now)))
        .col_expr(payment::Column::PeriodEnd, Expr::value(Some(end)))
        .filter(payment::Column::Id.eq(&p.id))
        .exec(txn)
        .await?;
    ca_auth::subscription::set_subscription(txn, &p.owner_id, &p.plan_id, "active", Some(end))
        .await?;
    let record = subscription::ActiveModel {
        owner_id: Set(p.owner_id.clone()),
        plan_id: Set(p.plan_id.clone()),
        cycle: Set(p.cycle.clone()),
        status: Set("active".into()),
        current_period_start: Set(now),
        current_period_end: Set(end),
        cancel_at_period_end: Set(false),
        cancelled_at: Set(None),
        last_txnid: Set(Some(p.txnid.clone())),
        updated_at: Set(now),
    };
    subscription::Entity::insert(record)
        .on_conflict(
            sea_orm::sea_query::OnConflict::column(subscription::Column::OwnerId)
                .update_columns([
                    subscription::Column::PlanId,
                    subscription::Column::Cycle,
                    subscription::Column::Status,
                    subscription::Column::CurrentPeriodStart,
                    subscription::Column::CurrentPeriodEnd,
                    subscription::Column::CancelAtPeriodEnd,
                    subscription::Column::CancelledAt,
                    subscription::Column::LastTxnid,
                    subscription::Column::UpdatedAt,
                ])
                .to_owned(),
        )
        .exec_without_returning(txn)
        .await?;
    Ok(())
}

impl BillingService {
    /// Creates the pending payment for `owner` buying the plan and cycle named
    /// in `input`, and returns the hosted page's URL with its signed fields.
    pub async fn initialize(
        &self,
        owner: &user::Model,
        input: InitializeIn,
    ) -> Result<InitializeData, BillingError> {
        let now = Utc::now();
        // The first of the three that is not blank names the plan.
        let plan_id = [input.udf2, input.plan_id, input.subscription_id]
            .into_iter()
            .flatten()
            .find(|id| !id.trim().is_empty())
            .unwrap_or_default();
        let cycle = match input.udf4.as_deref().map(str::trim).unwrap_or("monthly") {
            "" | "monthly" => "monthly",
            "annual" | "yearly" => "annual",
            _ => return Err(BillingError::BadCycle),
        };
        let plan = purchasable(&self.db, owner, &plan_id, now).await?;
        let amount_paise = plan.price
            * 100
            * if cycle == "annual" {
                ANNUAL_MONTHS_CHARGED
            } else {
                1
            };
        let productinfo = clean(
            &format!(
                "{} Plan ({})",
                plan.display_name,
                if cycle == "annual" {
                    "Annual"
                } else {
                    "Monthly"
                }
            ),
            100,
        );
        let firstname = {
            let name = clean(&owner.name, 60);
            if name.is_empty() {
                "Customer".into()
            } else {
                name
            }
        };
        let phone = {
            let digits: String = owner.phone.chars().filter(char::is_ascii_digit).collect();
            let digits = if digits.len() > 10 && digits.starts_with("91") {
                digits[digits.len() - 10..].to_string()
            } else {
                digits
            };
            if digits.len() == 10 {
                digits
            } else {
                DEFAULT_PHONE.to_string()
            }
        };
        let (provider, credentials, action) = match &self.config.gateway {
            Gateway::Payu {
                credentials,
                payment_url,
                ..
            } => ("payu", credentials.clone(), payment_url.clone()),
            Gateway::Simulator => (
                "simulator",
                self.config.simulator.clone(),
                format!("{}/payment/simulator", self.config.public_url),
            ),
        };
        let model = payment::ActiveModel {
            id: Set(ca_core::ids::new_id().to_string()),
            txnid: Set(new_txnid()),
            owner_id: Set(owner.id.clone()),
            plan_id: Set(plan.id.clone()),
            cycle: Set(cycle.into()),
            amount_paise: Set(amount_paise),
            currency: Set("INR".into()),
            productinfo: Set(productinfo),
            firstname: Set(firstname),
            email: Set(owner.email.clone()),
            phone: Set(phone),
            provider: Set(provider.into()),
            status: Set("pending".into()),
            payment_mode: Set(None),
            mihpayid: Set(None),
            bank_ref_num: Set(None),
            unmapped_status: Set(None),
            error_message: Set(None),
            raw: Set(None),
            invoice_number: Set(None),
            period_start: Set(None),
            period_end: Set(None),
            created_at: Set(now),
            updated_at: Set(now),
            settled_at: Set(None),
            checked_at: Set(None),
            receipt_sent_at: Set(None),
        }
        .insert(&self.db)
        .await?;
        let amount = payu::amount_text(model.amount_paise);
        let udf = payu::udfs(&model);
        let hash = payu::request_hash(
            &credentials,
            &Signed {
                txnid: &model.txnid,
                amount: &amount,
                productinfo: &model.productinfo,
                firstname: &model.firstname,
                email: &model.email,
                udf: [&udf[0], &udf[1], &udf[2], &udf[3], &udf[4]],
            },
        );
        let back = format!("{}/api/payment/payu/return", self.config.public_url);
        let mut params = BTreeMap::new();
        params.insert("key".into(), credentials.key.clone());
        params.insert("txnid".into(), model.txnid.clone());
        params.insert("amount".into(), amount);
        params.insert("productinfo".into(), model.productinfo.clone());
        params.insert("firstname".into(), model.firstname.clone());
        params.insert("email".into(), model.email.clone());
        params.insert("phone".into(), model.phone.clone());
        for (i, u) in udf.iter().enumerate() {
            params.insert(format!("udf{}", i + 1), u.clone());
        }
        params.insert("surl".into(), back.clone());
        params.insert("furl".into(), back);
        params.insert("hash".into(), hash);
        tracing::info!(txnid = %model.txnid, owner = %owner.id, plan = %plan.id, cycle, provider, "payment initialised");
        Ok(InitializeData {
            action,
            params,
            txnid: model.txnid,
            amount: rupees(model.amount_paise),
        })
    }

    fn credentials_for(&self, p: &payment::Model) -> Option<Credentials> {
        match (p.provider.as_str(), &self.config.gateway) {
            ("simulator", _) => Some(self.config.simulator.clone()),
            ("payu", Gateway::Payu { credentials, .. }) => Some(credentials.clone()),
            _ => None,
        }
    }

    async fn by_txnid(&self, txnid: &str) -> Result<Option<payment::Model>, BillingError> {
        let txnid = txnid.trim();
        if txnid.is_empty() || txnid.len() > 25 {
            return Ok(None);
        }
        Ok(payment::Entity::find()
            .filter(payment::Column::Txnid.eq(txnid))
            .one(&self.db)
            .await?)
    }

    async fn owned(&self, owner_id: &str, txnid: &str) -> Result<payment::Model, BillingError> {
        self.by_txnid(txnid)
            .await?
            .filter(|p| p.owner_id == owner_id)
            .ok_or(BillingError::PaymentNotFound)
    }

    /// A callback from the payment page (the browser's return to surl/furl)
    /// or PayU's webhook. It is applied only when its key, amount and hash
    /// match the stored payment; applying twice changes nothing.
    pub async fn callback(
        &self,
        fields: &HashMap<String, String>,
    ) -> Result<Settlement, CallbackRefused> {
        let txnid = fields
            .get("txnid")
            .map(|t| t.trim().to_string())
            .filter(|t| !t.is_empty())
            .ok_or(CallbackRefused::MissingTxnid)?;
        let p = self
            .by_txnid(&txnid)
            .await
            .ok()
            .flatten()
            .ok_or_else(|| CallbackRefused::UnknownTxnid(txnid.clone()))?;
        let credentials = self.credentials_for(&p).ok_or(CallbackRefused::Rejected {
            txnid: txnid.clone(),
            reason: payu::Rejected::WrongKey,
        })?;
        let outcome = payu::check_callback(&credentials, &p, fields).map_err(|reason| {
            CallbackRefused::Rejected {
                txnid: txnid.clone(),
                reason,
            }
        })?;
        let applied = settle(&self.db, &p, &outcome, Utc::now())
            .await
            .map_err(|e| {
                tracing::error!(%txnid, %e, "settling a payment failed");
                CallbackRefused::NotStored {
                    txnid: txnid.clone(),
                }
            })?;
        let now_status = if applied {
            outcome.status.clone()
        } else {
            self.by_txnid(&txnid)
                .await
                .ok()
                .flatten()
                .map_or(p.status.clone(), |p| p.status)
        };
        Ok(Settlement {
            txnid,
            status: now_status,
            applied,
            error: outcome.error,
        })
    }

    /// Asks the provider about a pending payment and settles it from the
    /// answer; a settled one is returned as it is.
    async fn refresh(
        &self,
        p: payment::Model,
        force: bool,
    ) -> Result<payment::Model, BillingError> {
        if p.status != "pending" || p.provider == "demo" {
            return Ok(p);
        }
        let now = Utc::now();
        if !force
            && p.checked_at
                .is_some_and(|at| (now - at).num_seconds() < RECHECK_SECONDS)
        {
            return Ok(p);
        }
        payment::Entity::update_many()
            .col_expr(payment::Column::CheckedAt, Expr::value(Some(now)))
            .filter(payment::Column::Id.eq(&p.id))
            .exec(&self.db)
            .await?;
        let answer = match (p.provider.as_str(), &self.config.gateway) {
            ("simulator", _) => Ok(self.simulator.verify(&p.txnid)),
            (
                "payu",
                Gateway::Payu {
                    credentials,
                    verify_url,
                    ..
                },
            ) => payu::verify_payment(&self.http, verify_url, credentials, &p.txnid).await,
            _ => Err("no provider is configured for this payment".to_string()),
        };
        match answer {
            Ok(body) => {
                if let Some(outcome) = payu::parse_verify(&body, &p.txnid, p.amount_paise) {
                    settle(&self.db, &p, &outcome, now).await?;
                }
            }
            Err(err) => {
                tracing::warn!(txnid = %p.txnid, %err, "asking the provider about a payment failed")
            }
        }
        Ok(self.by_txnid(&p.txnid).await?.unwrap_or(p))
    }

    /// `POST /payment/verify`: the owner's payment, settled from the
    /// provider's answer when it was still pending.
    pub async fn verify(
        &self,
        owner: &user::Model,
        txnid: &str,
    ) -> Result<VerifyResponse, BillingError> {
        let p = self.owned(&owner.id, txnid).await?;
        let p = self.refresh(p, true).await?;
        Ok(VerifyResponse {
            success: true,
            data: VerifyData {
                status: p.status.clone(),
                amount: rupees(p.amount_paise),
                plan_id: p.plan_id.clone(),
                cycle: p.cycle.clone(),
            },
            txnid: p.txnid,
            productinfo: p.productinfo,
            firstname: p.firstname,
            email: p.email,
            phone: p.phone,
        })
    }

    /// The owner's payment status (asking the provider at most every few
    /// seconds while it is pending).
    pub async fn status(
        &self,
        owner: &user::Model,
        txnid: &str,
    ) -> Result<StatusData, BillingError> {
        let p = self.owned(&owner.id, txnid).await?;
        let p = self.refresh(p, false).await?;
        Ok(StatusData {
            status: p.status,
            amount: rupees(p.amount_paise),
            mihpayid: p.mihpayid,
        })
    }

    /// The owner's payments, newest first.
    pub async fn history(&self, owner: &user::Model) -> Result<Vec<PaymentOut>, BillingError> {
        let rows = payment::Entity::find()
            .filter(payment::Column::OwnerId.eq(&owner.id))
            .order_by_desc(payment::Column::CreatedAt)
            .order_by_desc(payment::Column::Id)
            .limit(1000)
            .all(&self.db)
            .await?;
        Ok(rows.iter().map(payment_out).collect())
    }

    /// The invoice of one of the owner's successful payments.
    pub async fn invoice(
        &self,
        owner: &user::Model,
        txnid: &str,
    ) -> Result<InvoiceOut, BillingError> {
        let p = self.owned(&owner.id, txnid).await?;
        let (Some(number), Some(paid_at), "success") =
            (p.invoice_number, p.settled_at, p.status.as_str())
        else {
            return Err(BillingError::PaymentNotFound);
        };
        let plan_name = plan::Entity::find_by_id(p.plan_id.clone())
            .one(&self.db)
            .await?
            .map_or_else(|| p.plan_id.clone(), |pl| pl.display_name);
        Ok(InvoiceOut {
            invoice_number: invoice_label(number),
            issued_at: paid_at,
            seller: self.config.seller.clone(),
            buyer: Buyer {
                name: owner.name.clone(),
                email: p.email.clone(),
                phone: owner.phone.clone(),
            },
            plan_id: p.plan_id.clone(),
            plan_name,
            cycle: p.cycle.clone(),
            period_start: p.period_start,
            period_end: p.period_end,
            amount: rupees(p.amount_paise),
            currency: p.currency.clone(),
            paid_at,
            payment_mode: p.payment_mode.clone(),
            provider: p.provider.clone(),
            txnid: p.txnid.clone(),
            mihpayid: p.mihpayid.clone(),
        })
    }

    /// The simulator's hosted page was submitted with `request`: checks the
    /// request hash and the pending payment, and returns what the page shows.
    pub async fn simulator_order(
        &self,
        request: &HashMap<String, String>,
    ) -> Result<payment::Model, String> {
        let c = &self.config.simulator;
        let get = |k: &str| request.get(k).map(String::as_str).unwrap_or_default();
        if get("key") != c.key {
            return Err("This merchant key is not the simulator's.".into());
        }
        let udf: Vec<&str> = (1..=5).map(|i| get(&format!("udf{i}"))).collect();
        let expected = payu::request_hash(
            c,
            &Signed {
                txnid: get("txnid"),
                amount: get("amount"),
                productinfo: get("productinfo"),
                firstname: get("firstname"),
                email: get("email"),
                udf: [udf[0], udf[1], udf[2], udf[3], udf[4]],
            },
        );
        if expected != get("hash") {
            return Err("The payment request's hash does not match.".into());
        }
        let own = format!("{}/", self.config.public_url);
        if !get("surl").starts_with(&own) || !get("furl").starts_with(&own) {
            return Err("The simulator only returns to this server.".into());
        }
        match self.by_txnid(get("txnid")).await {
            Ok(Some(p)) if p.status == "pending" => Ok(p),
            Ok(Some(_)) => Err("This transaction is already complete.".into()),
            _ => Err("Unknown transaction.".into()),
        }
    }

    /// The simulated payment finished with `outcome`: the fields PayU would
    /// post back to the request's surl (success) or furl (failure).
    pub fn simulator_result(
        &self,
        request: &HashMap<String, String>,
        outcome: &str,
    ) -> (String, Vec<(String, String)>) {
        let fields = self
            .simulator
            .complete(&self.config.simulator, request, outcome);
        let target = if outcome == "success" { "surl" } else { "furl" };
        (request.get(target).cloned().unwrap_or_default(), fields)
    }
}
