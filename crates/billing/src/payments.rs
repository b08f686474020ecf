//! Buying a plan: the payment is created pending with the amount the server
//! computes from the plan, the browser is sent to the hosted payment page, and
//! the payment is settled once, from whichever comes first of the browser's
//! return, PayU's webhook, or asking PayU (`verify_payment`). Settling a
//! success gives the invoice number and starts the paid period, in one
//! transaction.

use std::collections::{BTreeMap, HashMap};

use chrono::{DateTime, Utc};
use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, DatabaseConnection, EntityTrait, QueryFilter,
    QueryOrder, QuerySelect, Set,
};

use ca_auth::entities::user;

use crate::BillingError;
use crate::calendar::{period_end, renewal_end};
use crate::config::{BillingConfig, Gateway};
use crate::dto::{
    InitializeData, InitializeIn, InvoiceOut, PaymentOut, StatusData, VerifyData, VerifyResponse,
};
use crate::entities::payment::{self, CheckoutMode, PaymentStatus};
use crate::entities::{plan, subscription};
use crate::payu::{self, Credentials, Outcome, Signed};
use crate::plans::purchasable;
use crate::service::BillingService;

pub use crate::entities::payment::DEFAULT_PHONE;
/// An annual purchase of a monthly plan costs this many months (two months
/// free). A yearly plan's price is already a year's: it is charged as it is.
pub const ANNUAL_MONTHS_CHARGED: i64 = 10;

/// The cycle a purchase of `plan` pays for when the buyer asks for `asked`
/// (left out or blank: the plan's own interval). A yearly plan is bought by
/// the year only; a monthly plan by the month or, at
/// [`ANNUAL_MONTHS_CHARGED`] months, by the year.
pub fn purchase_cycle(
    plan: &plan::Model,
    asked: Option<&str>,
) -> Result<&'static str, BillingError> {
    let yearly = plan.interval == "yearly";
    match asked.map(str::trim).unwrap_or_default() {
        "" if yearly => Ok("annual"),
        "" => Ok("monthly"),
        "annual" | "yearly" => Ok("annual"),
        "monthly" if yearly => Err(BillingError::field(
            "udf4",
            &format!(
                "The {} plan is billed yearly; it can only be bought for a year",
                plan.display_name
            ),
        )),
        "monthly" => Ok("monthly"),
        _ => Err(BillingError::BadCycle),
    }
}

/// What one `cycle` of `plan` costs, in whole units of its currency: a
/// yearly plan's price per year; a monthly plan's price per month, or
/// [`ANNUAL_MONTHS_CHARGED`] times it per year.
pub fn cycle_price(plan: &plan::Model, cycle: &str) -> i64 {
    if cycle == "annual" && plan.interval != "yearly" {
        plan.price * ANNUAL_MONTHS_CHARGED
    } else {
        plan.price
    }
}
/// The provider is asked about a pending payment at most this often.
const RECHECK_SECONDS: i64 = 5;
/// The longest email PayU's page accepts.
pub const PAYU_EMAIL_MAX: usize = 50;
/// Checkouts an owner may start a minute: enough for a few tries and a
/// change of plan, never a pile of pending payments.
pub const CHECKOUTS_PER_MINUTE: u32 = 10;

/// How a callback ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settlement {
    pub txnid: String,
    /// The payment's status after the callback.
    pub status: PaymentStatus,
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

impl ca_core::DomainError for CallbackRefused {
    fn kind(&self) -> ca_core::ErrorKind {
        match self {
            // The provider resends what was not answered 200.
            Self::NotStored { .. } => {
                ca_core::ErrorKind::Unavailable(std::time::Duration::from_secs(5))
            }
            _ => ca_core::ErrorKind::Validation,
        }
    }

    fn code(&self) -> &'static str {
        match self {
            Self::NotStored { .. } => "try_again",
            _ => "callback_refused",
        }
    }
}

impl CallbackRefused {
    /// What the provider is told (never why a hash failed).
    pub fn public_message(&self) -> &'static str {
        match self {
            Self::NotStored { .. } => "The payment could not be stored just now; please resend",
            _ => "The callback could not be verified; nothing was changed",
        }
    }
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
fn payment_out(p: &payment::Model, credit_note: Option<i64>) -> PaymentOut {
    PaymentOut {
        id: p.id.clone(),
        txnid: p.txnid.clone(),
        productinfo: p.productinfo.clone(),
        amount: rupees(p.amount_paise),
        status: p.status,
        payment_mode: p.payment_mode.clone(),
        created_at: p.created_at,
        settled_at: p.settled_at,
        mihpayid: p.mihpayid.clone(),
        firstname: p.firstname.clone(),
        email: p.email.clone(),
        phone: p.phone.clone(),
        plan_id: p.plan_id.clone(),
        cycle: p.cycle.clone(),
        invoice_number: p.invoice_number.map(crate::invoices::label),
        credit_note_number: credit_note.map(crate::invoices::label),
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

/// Where a checkout is made, and the buyer's browser at the time.
#[derive(Debug, Clone)]
pub struct Checkout {
    /// `payu`, `simulator` or `demo`.
    pub provider: &'static str,
    pub mode: CheckoutMode,
    pub browser: Browser,
}

/// The buyer's browser as the server saw it when checkout started.
#[derive(Debug, Clone, Default)]
pub struct Browser {
    pub user_agent: Option<String>,
    pub ip: Option<String>,
    /// The dashboard page checkout started from.
    pub page: Option<String>,
}

/// Creates the pending payment of `owner` for `plan` over `cycle`: the
/// amount is computed here from the plan (never taken from the browser),
/// and the buyer's details are cut to what the payment page takes.
pub(crate) async fn insert_pending<C: ConnectionTrait>(
    conn: &C,
    owner: &user::Model,
    plan: &plan::Model,
    cycle: &str,
    checkout: &Checkout,
    tax: &crate::config::TaxRules,
    now: DateTime<Utc>,
) -> Result<payment::Model, BillingError> {
    let annual = cycle == "annual";
    let price_paise = cycle_price(plan, cycle) * 100;
    let amount_paise = crate::invoices::charge(price_paise, tax);
    let productinfo = clean(
        &format!(
            "{} Plan ({})",
            plan.display_name,
            if annual { "Annual" } else { "Monthly" }
        ),
        100,
    );
    let firstname = match clean(&owner.name, 60) {
        name if name.is_empty() => "Customer".to_string(),
        name => name,
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
    Ok(payment::ActiveModel {
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
        provider: Set(checkout.provider.into()),
        status: Set(PaymentStatus::Pending),
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
        mode: Set(checkout.mode),
        client_user_agent: Set(checkout
            .browser
            .user_agent
            .as_deref()
            .map(|ua| ua.chars().take(500).collect())),
        client_ip: Set(checkout.browser.ip.clone()),
        source_url: Set(checkout
            .browser
            .page
            .as_deref()
            .map(|p| p.chars().take(500).collect())),
        refunded_at: Set(None),
        refund_amount_paise: Set(None),
        refund_id: Set(None),
        refund_keeps_access: Set(None),
        late_success_at: Set(None),
        refund_started_at: Set(None),
        refund_requested_at: Set(None),
        refund_checked_at: Set(None),
        refund_error: Set(None),
    }
    .insert(conn)
    .await?)
}

/// Settles the payment `p` with `outcome` inside one transaction. The status
/// moves forward only from `pending` (a resend changes nothing), except that
/// a success PayU reports after the payment had failed or expired is
/// applied, since the money was taken: it is logged at warn and marked
/// (`late_success_at`) for staff; and a success PayU later reverses by itself
/// (`autoRefund`) is refunded, with its credit note and the period ended. A
/// success takes the next invoice number and starts (or extends) the paid
/// period, and the tax invoice is issued.
pub(crate) async fn settle(
    db: &DatabaseConnection,
    config: &BillingConfig,
    p: &payment::Model,
    outcome: &Outcome,
    now: DateTime<Utc>,
) -> Result<bool, BillingError> {
    if outcome.status == PaymentStatus::Pending {
        return Ok(false);
    }
    let txn = ca_core::db::begin_write(db).await?;
    let Some(current) = payment::Entity::find_by_id(p.id.clone())
        .lock_exclusive()
        .one(&txn)
        .await?
    else {
        txn.rollback().await?;
        return Ok(false);
    };
    let late = match (current.status, outcome.status) {
        (PaymentStatus::Pending, _) => false,
        (PaymentStatus::Failure | PaymentStatus::Expired, PaymentStatus::Success) => true,
        (PaymentStatus::Success, PaymentStatus::Failure)
            if outcome
                .unmapped_status
                .as_deref()
                .is_some_and(|u| u.eq_ignore_ascii_case("autorefund")) =>
        {
            // PayU gave the money back itself (a payment captured late, after
            // the buyer had paid again): a refund like one staff make, with
            // its credit note, and the period it paid for ends.
            let refund_id = outcome
                .mihpayid
                .clone()
                .unwrap_or_else(|| format!("autorefund-{}", current.txnid));
            crate::refunds::record_refund(&txn, config, &current, &refund_id, false, now).await?;
            txn.commit().await?;
            tracing::warn!(txnid = %current.txnid, owner = %current.owner_id, "PayU refunded a settled payment by itself (autoRefund)");
            return Ok(true);
        }
        _ => {
            txn.rollback().await?;
            return Ok(false);
        }
    };
    let raw = serde_json::to_string(&outcome.raw).unwrap_or_default();
    let moved = payment::Entity::update_many()
        .col_expr(
            payment::Column::LateSuccessAt,
            Expr::value(late.then_some(now)),
        )
        .col_expr(payment::Column::Status, Expr::value(outcome.status))
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
            Expr::value(if outcome.status == PaymentStatus::Failure {
                outcome.error.clone()
            } else {
                None
            }),
        )
        .col_expr(payment::Column::Raw, Expr::value(Some(raw)))
        .col_expr(payment::Column::SettledAt, Expr::value(Some(now)))
        .col_expr(payment::Column::UpdatedAt, Expr::value(now))
        .filter(payment::Column::Id.eq(&p.id))
        .filter(payment::Column::Status.eq(current.status))
        .exec(&txn)
        .await?
        .rows_affected
        == 1;
    if !moved {
        txn.rollback().await?;
        return Ok(false);
    }
    if outcome.status == PaymentStatus::Success {
        start_period(&txn, config, p, now).await?;
        // The owner's browsers hear of it in this same transaction.
        let plan = plan::Entity::find_by_id(p.plan_id.clone())
            .one(&txn)
            .await?
            .map_or_else(|| p.productinfo.clone(), |plan| plan.display_name);
        ca_push::enqueue(
            &txn,
            &p.owner_id,
            ca_push::Notice::Payment {
                txnid: p.txnid.clone(),
                amount_paise: p.amount_paise,
                plan,
            },
            now,
        )
        .await?;
    }
    txn.commit().await?;
    // A paid plan changes what the owner's campaigns may do at once.
    ca_core::freshness::changed();
    if late {
        tracing::warn!(txnid = %p.txnid, was = %current.status, owner = %p.owner_id, "PayU reported a success after the payment had {}; applied (the money was taken)", current.status);
    }
    tracing::info!(txnid = %p.txnid, status = %outcome.status, owner = %p.owner_id, plan = %p.plan_id, "payment settled");
    Ok(true)
}

/// Marks the pending payment `p` as not completed (`expired`) with `reason`:
/// no money moved; it is counted in no total. Returns whether it changed.
pub(crate) async fn expire(
    db: &DatabaseConnection,
    p: &payment::Model,
    reason: &str,
    now: DateTime<Utc>,
) -> Result<bool, BillingError> {
    let moved = payment::Entity::update_many()
        .col_expr(payment::Column::Status, Expr::value(PaymentStatus::Expired))
        .col_expr(
            payment::Column::ErrorMessage,
            Expr::value(Some(reason.to_string())),
        )
        .col_expr(payment::Column::SettledAt, Expr::value(Some(now)))
        .col_expr(payment::Column::UpdatedAt, Expr::value(now))
        .filter(payment::Column::Id.eq(&p.id))
        .filter(payment::Column::Status.eq(PaymentStatus::Pending))
        .exec(db)
        .await?
        .rows_affected
        == 1;
    if moved {
        tracing::info!(txnid = %p.txnid, owner = %p.owner_id, reason, "checkout not completed; payment expired");
    }
    Ok(moved)
}

/// A successful payment: invoice number and the tax invoice, the period it
/// pays for, the owner's plan and subscription record. Runs in the settling
/// transaction.
async fn start_period<C: ConnectionTrait>(
    txn: &C,
    config: &BillingConfig,
    p: &payment::Model,
    now: DateTime<Utc>,
) -> Result<(), BillingError> {
    let number = crate::invoices::next_number(txn).await?;
    crate::invoices::issue(txn, config, p, number, now).await?;
    // A payment for the plan the owner is already paying for extends their
    // period from its current end (a renewal, or a second tab's checkout);
    // any other plan starts now.
    let record = subscription::Entity::find_by_id(p.owner_id.clone())
        .one(txn)
        .await?;
    let renewing = record
        .as_ref()
        .filter(|r| r.status == "active" && r.plan_id == p.plan_id && r.current_period_end > now);
    let start = renewing.map_or(now, |r| r.current_period_end);
    let first_start = renewing.map_or(now, |r| r.current_period_start);
    // A renewal keeps the day of the month the subscription started on.
    let end = match renewing {
        Some(r) => renewal_end(r.current_period_start, r.current_period_end, &p.cycle),
        None => period_end(start, &p.cycle),
    };
    payment::Entity::update_many()
        .col_expr(payment::Column::InvoiceNumber, Expr::value(Some(number)))
        .col_expr(payment::Column::PeriodStart, Expr::value(Some(start)))
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
        current_period_start: Set(first_start),
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
        browser: Browser,
    ) -> Result<InitializeData, BillingError> {
        let now = Utc::now();
        // The first of the three that is not blank names the plan.
        let plan_id = [input.udf2, input.plan_id, input.subscription_id]
            .into_iter()
            .flatten()
            .find(|id| !id.trim().is_empty())
            .unwrap_or_default();
        if !matches!(
            input.udf4.as_deref().map(str::trim).unwrap_or_default(),
            "" | "monthly" | "annual" | "yearly"
        ) {
            return Err(BillingError::BadCycle);
        }
        let renew = input.renew.unwrap_or(false);
        let plan = purchasable(&self.db, owner, &plan_id, renew, now).await?;
        let cycle = purchase_cycle(&plan, input.udf4.as_deref())?;
        // PayU refuses a longer email on its page, after the redirect.
        if owner.email.chars().count() > PAYU_EMAIL_MAX {
            return Err(BillingError::field(
                "email",
                "PayU accepts an email of at most 50 characters, and this account's is longer. Please contact us to pay for this account.",
            ));
        }
        // Counted once the checkout is one that would create a payment: a
        // refused choice creates nothing.
        self.limiter
            .hit(
                &format!("checkout:owner:{}", owner.id),
                ca_core::rate_limit::Limit::new(CHECKOUTS_PER_MINUTE, 60),
            )
            .await
            .map_err(BillingError::RateLimited)?;

        let provider = match &self.config.gateway {
            Gateway::Payu { .. } => "payu",
            Gateway::Simulator => "simulator",
        };
        let checkout = Checkout {
            provider,
            mode: self.config.mode(),
            browser,
        };
        let model = insert_pending(
            &self.db,
            owner,
            &plan,
            cycle,
            &checkout,
            &self.config.tax,
            now,
        )
        .await?;
        let (action, params) = self.hosted_form(&model);
        tracing::info!(txnid = %model.txnid, owner = %owner.id, plan = %plan.id, cycle, provider, "payment initialised");
        Ok(InitializeData {
            action,
            params,
            txnid: model.txnid,
            amount: rupees(model.amount_paise),
        })
    }

    /// The hosted payment page's URL and the signed form fields that pay the
    /// stored payment `model`.
    fn hosted_form(&self, model: &payment::Model) -> (String, BTreeMap<String, String>) {
        let (credentials, action) = match &self.config.gateway {
            Gateway::Payu {
                credentials,
                payment_url,
                ..
            } => (credentials.clone(), payment_url.clone()),
            Gateway::Simulator => (
                self.config.simulator.clone(),
                format!("{}/payment/simulator", self.config.public_url),
            ),
        };
        let amount = payu::amount_text(model.amount_paise);
        let udf = payu::udfs(model);
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
        (action, params)
    }

    /// The form that sends the browser to PayU for the payment `txnid`,
    /// made by a checkout link (`/payment/checkout/{txnid}`): only a payment
    /// still pending, made through the gateway the server runs now, within
    /// PayU's window.
    pub async fn checkout_form(
        &self,
        txnid: &str,
        now: DateTime<Utc>,
    ) -> Result<(String, BTreeMap<String, String>), BillingError> {
        let provider = match &self.config.gateway {
            Gateway::Payu { .. } => "payu",
            Gateway::Simulator => "simulator",
        };
        let p = self
            .by_txnid(txnid)
            .await?
            .filter(|p| p.status == PaymentStatus::Pending && p.provider == provider)
            .filter(|p| {
                now - p.created_at <= chrono::Duration::minutes(crate::config::EXPIRE_AFTER_MINUTES)
            })
            .ok_or(BillingError::PaymentNotFound)?;
        Ok(self.hosted_form(&p))
    }

    /// The keys a payment's callbacks are checked with. A simulated payment
    /// settles only while the server runs the simulator: once PayU is
    /// configured (test or live), nothing signed with the simulator's keys
    /// is accepted, so a simulated checkout can never become a free plan.
    fn credentials_for(&self, p: &payment::Model) -> Option<Credentials> {
        match (p.provider.as_str(), &self.config.gateway) {
            ("simulator", Gateway::Simulator) => Some(self.config.simulator.clone()),
            ("payu", Gateway::Payu { credentials, .. }) => Some(credentials.clone()),
            _ => None,
        }
    }

    /// The payments whose money counts in staff figures (revenue, MRR, new
    /// payers, an owner's total): on a live install only live PayU payments,
    /// so the test-card payments made while going live never count as
    /// revenue; on a test install (PayU's test mode, the simulator or the
    /// demo page) every payment, so its screens can be tried.
    pub fn counted_modes(&self) -> &'static [CheckoutMode] {
        match &self.config.gateway {
            Gateway::Payu { live: true, .. } => &[CheckoutMode::Live],
            _ => &[
                CheckoutMode::Live,
                CheckoutMode::Test,
                CheckoutMode::Simulator,
                CheckoutMode::Demo,
            ],
        }
    }

    /// Whether the built-in simulator of PayU's page is on (no PayU keys).
    pub fn simulator_enabled(&self) -> bool {
        matches!(self.config.gateway, Gateway::Simulator)
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

    /// The owner's payment `txnid` (the owner is part of the query: another
    /// owner's payment is never read).
    pub(crate) async fn owned(
        &self,
        owner_id: &str,
        txnid: &str,
    ) -> Result<payment::Model, BillingError> {
        let txnid = txnid.trim();
        if txnid.is_empty() || txnid.len() > 25 {
            return Err(BillingError::PaymentNotFound);
        }
        payment::Entity::find()
            .filter(payment::Column::Txnid.eq(txnid))
            .filter(payment::Column::OwnerId.eq(owner_id))
            .one(&self.db)
            .await?
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
        let p = match self.by_txnid(&txnid).await {
            Ok(Some(p)) => p,
            Ok(None) => return Err(CallbackRefused::UnknownTxnid(txnid)),
            // Not a forged callback: the database could not be asked. PayU
            // resends what is not answered 200.
            Err(err) => {
                tracing::error!(%txnid, %err, "looking up a payment callback's txnid failed");
                return Err(CallbackRefused::NotStored { txnid });
            }
        };
        let credentials = self.credentials_for(&p).ok_or(CallbackRefused::Rejected {
            txnid: txnid.clone(),
            reason: payu::Rejected::WrongKey,
        })?;
        let signed = payu::check_callback(&credentials, &p, fields).map_err(|reason| {
            CallbackRefused::Rejected {
                txnid: txnid.clone(),
                reason,
            }
        })?;
        // Everything PayU posts is signed except `unmappedstatus`, and that
        // is what tells captured money from a bank authorisation, or from
        // PayU's automatic refund. So a callback that would give the plan
        // (a success), or take back a payment already successful, is applied
        // only as PayU's own `verify_payment` answer states it. When PayU
        // cannot say yet, the payment stays pending and is asked about again
        // (the buyer's status page, then reconciliation).
        let signed_success = fields
            .get("status")
            .is_some_and(|s| s.trim().eq_ignore_ascii_case("success"));
        let outcome = if signed_success || p.status == PaymentStatus::Success {
            match self.confirmed(&p).await {
                Ok(Some(outcome)) => outcome,
                // PayU could not be asked: not stored this time, so PayU
                // resends its webhook (reconciliation asks only about
                // payments still pending, not a late success after a failure).
                Err(_) => return Err(CallbackRefused::NotStored { txnid }),
                Ok(None) => {
                    return Ok(Settlement {
                        status: self
                            .by_txnid(&txnid)
                            .await
                            .ok()
                            .flatten()
                            .map_or(p.status, |p| p.status),
                        txnid,
                        applied: false,
                        error: None,
                    });
                }
            }
        } else {
            signed
        };
        let applied = settle(&self.db, &self.config, &p, &outcome, Utc::now())
            .await
            .map_err(|e| {
                tracing::error!(%txnid, %e, "settling a payment failed");
                CallbackRefused::NotStored {
                    txnid: txnid.clone(),
                }
            })?;
        let now_status = if applied {
            outcome.status
        } else {
            self.by_txnid(&txnid)
                .await
                .ok()
                .flatten()
                .map_or(p.status, |p| p.status)
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
    async fn refresh(&self, p: payment::Model) -> Result<payment::Model, BillingError> {
        if p.status != PaymentStatus::Pending || p.provider == "demo" {
            return Ok(p);
        }
        let now = Utc::now();
        if p.checked_at
            .is_some_and(|at| (now - at).num_seconds() < RECHECK_SECONDS)
        {
            return Ok(p);
        }
        payment::Entity::update_many()
            .col_expr(payment::Column::CheckedAt, Expr::value(Some(now)))
            .filter(payment::Column::Id.eq(&p.id))
            .exec(&self.db)
            .await?;
        if let Ok(Some(outcome)) = self.confirmed(&p).await {
            settle(&self.db, &self.config, &p, &outcome, now).await?;
        }
        Ok(self.by_txnid(&p.txnid).await?.unwrap_or(p))
    }

    /// What the payment's provider says of `p` (PayU's `verify_payment`, or
    /// the simulator while it runs): `None` while it is in progress or
    /// unknown to the provider; an error when the provider could not be
    /// asked or refused the call.
    async fn confirmed(&self, p: &payment::Model) -> Result<Option<Outcome>, String> {
        let answer = match (p.provider.as_str(), &self.config.gateway) {
            ("simulator", Gateway::Simulator) => Ok(self.simulator.verify(&p.txnid)),
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
        let body = answer.inspect_err(|err| {
            tracing::warn!(txnid = %p.txnid, %err, "asking the provider about a payment failed");
        })?;
        if let Some(refused) = payu::call_refused(&body) {
            tracing::warn!(txnid = %p.txnid, msg = %refused, "PayU refused verify_payment");
            return Err(format!("PayU refused the call: {refused}"));
        }
        Ok(payu::parse_verify(&body, &p.txnid, p.amount_paise))
    }

    /// `POST /payment/verify`: the owner's payment, settled from the
    /// provider's answer when it was still pending.
    pub async fn verify(
        &self,
        owner: &user::Model,
        txnid: &str,
    ) -> Result<VerifyResponse, BillingError> {
        let p = self.owned(&owner.id, txnid).await?;
        // PayU is asked at most once every few seconds per payment, however
        // often the page asks.
        let p = self.refresh(p).await?;
        Ok(VerifyResponse {
            success: true,
            data: VerifyData {
                status: p.status,
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
        let p = self.refresh(p).await?;
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
        let credit_notes: HashMap<String, i64> = crate::entities::invoice::Entity::find()
            .filter(crate::entities::invoice::Column::OwnerId.eq(&owner.id))
            .filter(
                crate::entities::invoice::Column::Kind.eq(crate::entities::invoice::CREDIT_NOTE),
            )
            .all(&self.db)
            .await?
            .into_iter()
            .map(|n| (n.payment_id, n.number))
            .collect();
        Ok(rows
            .iter()
            .map(|p| payment_out(p, credit_notes.get(&p.id).copied()))
            .collect())
    }

    /// The documents of one of the owner's successful (or since refunded)
    /// payments: its tax invoice and its credit note, if any.
    pub(crate) async fn documents(
        &self,
        owner: &user::Model,
        txnid: &str,
    ) -> Result<
        (
            payment::Model,
            crate::entities::invoice::Model,
            Option<crate::entities::invoice::Model>,
        ),
        BillingError,
    > {
        let p = self.owned(&owner.id, txnid).await?;
        if !matches!(p.status, PaymentStatus::Success | PaymentStatus::Refunded) {
            return Err(BillingError::PaymentNotFound);
        }
        let (inv, credit) = crate::invoices::documents(&self.db, &self.config, &p)
            .await?
            .ok_or(BillingError::PaymentNotFound)?;
        Ok((p, inv, credit))
    }

    /// The invoice of one of the owner's successful (or since refunded)
    /// payments, as it was issued.
    pub async fn invoice(
        &self,
        owner: &user::Model,
        txnid: &str,
    ) -> Result<InvoiceOut, BillingError> {
        let (p, inv, credit) = self.documents(owner, txnid).await?;
        let plan_name = plan::Entity::find_by_id(p.plan_id.clone())
            .one(&self.db)
            .await?
            .map_or_else(|| p.plan_id.clone(), |pl| pl.display_name);
        use crate::invoices as docs;
        Ok(InvoiceOut {
            invoice_number: crate::invoices::label(inv.number),
            issued_at: inv.issued_at,
            seller: docs::seller(&inv),
            buyer: docs::buyer(&inv),
            status: if credit.is_some() || p.status == PaymentStatus::Refunded {
                "refunded".into()
            } else {
                "paid".into()
            },
            place_of_supply_code: inv.place_of_supply.clone(),
            place_of_supply: docs::place_of_supply(&inv),
            sac: inv.sac.clone(),
            description: inv.description.clone(),
            gst_rate: f64::from(inv.gst_rate_bp) / 100.0,
            tax_type: docs::tax_type(&inv).into(),
            lines: docs::lines(&inv),
            credit_note: credit.as_ref().map(docs::credit_note_out),
            plan_id: p.plan_id.clone(),
            plan_name,
            cycle: p.cycle.clone(),
            period_start: p.period_start,
            period_end: p.period_end,
            amount: rupees(p.amount_paise),
            currency: p.currency.clone(),
            paid_at: p.settled_at.unwrap_or(inv.issued_at),
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
            Ok(Some(p)) if p.status == PaymentStatus::Pending => Ok(p),
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
