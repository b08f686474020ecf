//! PayU India's hosted checkout: the request and response hashes, checking a
//! callback against the stored payment, and the server-to-server
//! `verify_payment` call. Also the built-in simulator of PayU's hosted page,
//! which signs its answers exactly as PayU does with a local key and salt.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rust_decimal::Decimal;
use serde_json::Value;
use sha2::{Digest, Sha512};

use crate::entities::payment::{self, PaymentStatus};

/// PayU's checkout URLs: test and live.
pub const TEST_PAYMENT_URL: &str = "https://test.payu.in/_payment";
pub const LIVE_PAYMENT_URL: &str = "https://secure.payu.in/_payment";
/// PayU's server-to-server API: test and live.
pub const TEST_VERIFY_URL: &str = "https://test.payu.in/merchant/postservice.php?form=2";
pub const LIVE_VERIFY_URL: &str = "https://info.payu.in/merchant/postservice.php?form=2";

/// A merchant key and salt.
#[derive(Clone)]
pub struct Credentials {
    pub key: String,
    pub salt: String,
}

impl std::fmt::Debug for Credentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Credentials")
            .field("key", &self.key)
            .field("salt", &"<hidden>")
            .finish()
    }
}

fn sha512_hex(text: &str) -> String {
    hex::encode(Sha512::digest(text.as_bytes()))
}

/// The fields a payment request is signed over.
#[derive(Debug, Clone, Default)]
pub struct Signed<'a> {
    pub txnid: &'a str,
    pub amount: &'a str,
    pub productinfo: &'a str,
    pub firstname: &'a str,
    pub email: &'a str,
    pub udf: [&'a str; 5],
}

/// `sha512(key|txnid|amount|productinfo|firstname|email|udf1|…|udf5||||||SALT)`.
pub fn request_hash(c: &Credentials, s: &Signed<'_>) -> String {
    sha512_hex(&format!(
        "{}|{}|{}|{}|{}|{}|{}|{}|{}|{}|{}||||||{}",
        c.key,
        s.txnid,
        s.amount,
        s.productinfo,
        s.firstname,
        s.email,
        s.udf[0],
        s.udf[1],
        s.udf[2],
        s.udf[3],
        s.udf[4],
        c.salt
    ))
}

/// The hash PayU sends back: `sha512([additional_charges|]SALT|status||||||udf5|…|udf1|email|firstname|productinfo|amount|txnid|key)`.
pub fn response_hash(
    c: &Credentials,
    status: &str,
    s: &Signed<'_>,
    additional_charges: Option<&str>,
) -> String {
    let base = format!(
        "{}|{}||||||{}|{}|{}|{}|{}|{}|{}|{}|{}|{}|{}",
        c.salt,
        status,
        s.udf[4],
        s.udf[3],
        s.udf[2],
        s.udf[1],
        s.udf[0],
        s.email,
        s.firstname,
        s.productinfo,
        s.amount,
        s.txnid,
        c.key
    );
    match additional_charges {
        Some(extra) => sha512_hex(&format!("{extra}|{base}")),
        None => sha512_hex(&base),
    }
}

/// `sha512(key|command|var1|SALT)` for the server-to-server API.
pub fn api_hash(c: &Credentials, command: &str, var1: &str) -> String {
    sha512_hex(&format!("{}|{}|{}|{}", c.key, command, var1, c.salt))
}

/// Paise as PayU's amount text, e.g. `999.00`.
pub fn amount_text(paise: i64) -> String {
    format!("{}.{:02}", paise / 100, paise % 100)
}

/// The udf fields a payment is signed with: user id, plan id, `subscription`, cycle.
pub fn udfs(p: &payment::Model) -> [String; 5] {
    [
        p.owner_id.clone(),
        p.plan_id.clone(),
        "subscription".into(),
        p.cycle.clone(),
        String::new(),
    ]
}

/// What a provider says happened to a payment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// `Pending` while PayU is still waiting (or the bank only authorised).
    pub status: PaymentStatus,
    pub mihpayid: Option<String>,
    pub mode: Option<String>,
    pub bank_ref_num: Option<String>,
    pub unmapped_status: Option<String>,
    pub error: Option<String>,
    /// The fields as received, for the record.
    pub raw: BTreeMap<String, String>,
}

/// Why a callback was not applied.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Rejected {
    #[error("the merchant key does not match")]
    WrongKey,
    #[error("the amount {posted} differs from the stored {stored}")]
    AmountMismatch { posted: String, stored: String },
    #[error("the hash does not match")]
    BadHash,
    #[error("unknown status {0:?}")]
    UnknownStatus(String),
}

fn field<'a>(f: &'a HashMap<String, String>, name: &str) -> Option<&'a str> {
    f.get(name).map(|v| v.trim()).filter(|v| !v.is_empty())
}

/// Checks a callback (browser return or webhook) against the stored payment:
/// the key, the amount (as stored, never as posted) and the response hash,
/// computed over the stored values, so no signed field can be changed.
pub fn check_callback(
    c: &Credentials,
    p: &payment::Model,
    fields: &HashMap<String, String>,
) -> Result<Outcome, Rejected> {
    if field(fields, "key") != Some(c.key.as_str()) {
        return Err(Rejected::WrongKey);
    }
    let stored = amount_text(p.amount_paise);
    let posted = field(fields, "amount").unwrap_or_default();
    let same_amount = matches!(
        (posted.parse::<Decimal>(), stored.parse::<Decimal>()),
        (Ok(a), Ok(b)) if a == b
    );
    if !same_amount {
        return Err(Rejected::AmountMismatch {
            posted: posted.to_string(),
            stored,
        });
    }
    let status = field(fields, "status").unwrap_or_default().to_lowercase();
    let udf = udfs(p);
    let signed = Signed {
        txnid: &p.txnid,
        // PayU signs the amount as it sent it back ("999.00").
        amount: posted,
        productinfo: &p.productinfo,
        firstname: &p.firstname,
        email: &p.email,
        udf: [&udf[0], &udf[1], &udf[2], &udf[3], &udf[4]],
    };
    let expected = response_hash(c, &status, &signed, field(fields, "additional_charges"));
    let got = field(fields, "hash").unwrap_or_default().to_lowercase();
    if expected.len() != got.len()
        || expected
            .bytes()
            .zip(got.bytes())
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            != 0
    {
        return Err(Rejected::BadHash);
    }
    let unmapped = field(fields, "unmappedstatus");
    let error = field(fields, "error_Message")
        .filter(|m| !m.eq_ignore_ascii_case("no error"))
        .or_else(|| field(fields, "error").filter(|e| *e != "E000"));
    let (status, error) =
        classify(&status, unmapped, error).ok_or(Rejected::UnknownStatus(status))?;
    Ok(Outcome {
        status,
        mihpayid: field(fields, "mihpayid").map(str::to_string),
        mode: field(fields, "mode").map(str::to_string),
        bank_ref_num: field(fields, "bank_ref_num").map(str::to_string),
        unmapped_status: field(fields, "unmappedstatus").map(str::to_string),
        error,
        raw: fields
            .iter()
            .filter(|(k, _)| k.as_str() != "hash")
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect(),
    })
}

/// What PayU's `status` and `unmappedstatus` (and error message) mean for a
/// payment, with the reason shown to the owner when it did not go through.
/// `None` for a status PayU does not send.
///
/// | PayU | here |
/// |---|---|
/// | `success` / `captured` | success |
/// | `success` / `auth`, `pending` | pending: the bank authorised, PayU has not captured |
/// | `pending` | pending (asked again later) |
/// | `failure` / `usercancelled` | failure: cancelled by the buyer |
/// | `failure` / `dropped` | failure: left before paying |
/// | `failure` / `bounced` | failure: the bank's step was not completed |
/// | `failure` / `autorefund` | failure: refunded automatically by PayU |
/// | `failure` / `failed` or other | failure with PayU's message |
pub fn classify(
    status: &str,
    unmapped: Option<&str>,
    error: Option<&str>,
) -> Option<(PaymentStatus, Option<String>)> {
    let unmapped = unmapped.map(str::to_lowercase);
    let reason = |fallback: &str| Some(error.unwrap_or(fallback).to_string());
    Some(
        match (status.to_lowercase().as_str(), unmapped.as_deref()) {
            ("success", Some("auth" | "pending")) => (PaymentStatus::Pending, None),
            ("success", Some("autorefund")) => (
                PaymentStatus::Failure,
                Some("Refunded automatically by PayU".into()),
            ),
            ("success", _) => (PaymentStatus::Success, None),
            ("pending", _) => (PaymentStatus::Pending, None),
            ("failure" | "failed", Some("usercancelled")) => (
                PaymentStatus::Failure,
                Some("Cancelled on PayU's page".into()),
            ),
            ("failure" | "failed", Some("dropped")) => (
                PaymentStatus::Failure,
                Some("Not completed: the buyer left PayU's page before paying".into()),
            ),
            ("failure" | "failed", Some("bounced")) => (
                PaymentStatus::Failure,
                Some("Not completed: the bank's verification step was not finished".into()),
            ),
            ("failure" | "failed", Some("autorefund")) => (
                PaymentStatus::Failure,
                Some("Refunded automatically by PayU".into()),
            ),
            ("failure" | "failed", _) => (PaymentStatus::Failure, reason("Declined")),
            _ => return None,
        },
    )
}

fn text(v: Option<&Value>) -> Option<String> {
    match v? {
        Value::String(s) => Some(s.trim().to_string()).filter(|s| !s.is_empty()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// Whether PayU's `verify_payment` answer says `txnid` is still in
/// progress: a bank authorisation not yet captured, or a payment PayU itself
/// reports as pending. The buyer's money may be held, so such a payment is
/// not given up when its 30 minutes pass: it is asked about until PayU
/// settles it one way or the other.
pub fn in_progress(body: &Value, txnid: &str) -> bool {
    let Some(t) = body.get("transaction_details").and_then(|d| d.get(txnid)) else {
        return false;
    };
    let Some(status) = text(t.get("status")) else {
        return false;
    };
    let unmapped = text(t.get("unmappedstatus"));
    matches!(
        classify(&status, unmapped.as_deref(), None),
        Some((PaymentStatus::Pending, _))
    )
}

/// Reads PayU's `verify_payment` answer for `txnid`. `None` when PayU does not
/// know the transaction yet (or says it is still in progress).
pub fn parse_verify(body: &Value, txnid: &str, stored_paise: i64) -> Option<Outcome> {
    let t = body.get("transaction_details")?.get(txnid)?;
    let status = text(t.get("status"))?.to_lowercase();
    let unmapped = text(t.get("unmappedstatus"));
    let error_message =
        text(t.get("error_Message")).filter(|m| !m.eq_ignore_ascii_case("no error"));
    let (status, reason) = classify(&status, unmapped.as_deref(), error_message.as_deref())?;
    if status == PaymentStatus::Pending {
        return None;
    }
    let amount = text(t.get("amt")).or_else(|| text(t.get("transaction_amount")));
    let amount_ok = amount
        .as_deref()
        .and_then(|a| a.parse::<Decimal>().ok())
        .is_some_and(|a| a == Decimal::new(stored_paise, 2));
    if status == PaymentStatus::Success && !amount_ok {
        // A success for another amount is not ours to apply.
        tracing::warn!(
            txnid,
            ?amount,
            "verify answered success for a different amount"
        );
        return None;
    }
    let raw = t
        .as_object()
        .map(|o| {
            o.iter()
                .filter_map(|(k, v)| text(Some(v)).map(|v| (k.clone(), v)))
                .collect()
        })
        .unwrap_or_default();
    Some(Outcome {
        status,
        mihpayid: text(t.get("mihpayid")),
        mode: text(t.get("mode")),
        bank_ref_num: text(t.get("bank_ref_num")).or_else(|| text(t.get("bankrefnum"))),
        unmapped_status: text(t.get("unmappedstatus")),
        error: reason
            .or_else(|| text(t.get("field9")).filter(|_| status == PaymentStatus::Failure)),
        raw,
    })
}

/// PayU refused the API call itself: `status: 0` with no transaction in
/// the answer (a wrong key or salt, an invalid hash). Its message, for the
/// log and the staff's System tab. (`status: 0` with transactions "Not
/// Found" only means PayU does not know them yet.)
pub fn call_refused(body: &Value) -> Option<String> {
    let failed = body.get("status").and_then(Value::as_i64) == Some(0)
        || body.get("status").and_then(Value::as_str) == Some("0");
    let details = body
        .get("transaction_details")
        .and_then(Value::as_object)
        .is_some_and(|d| !d.is_empty());
    (failed && !details).then(|| {
        body.get("msg")
            .and_then(Value::as_str)
            .unwrap_or("PayU refused the call")
            .to_string()
    })
}

/// The most txnids asked about in one `verify_payment` call.
pub const VERIFY_BATCH: usize = 50;

/// Asks `url` (PayU's postservice) about `txnids` (`var1` takes several
/// joined by `|`).
pub async fn verify_payments(
    http: &reqwest::Client,
    url: &str,
    c: &Credentials,
    txnids: &[String],
) -> Result<Value, String> {
    verify_payment(http, url, c, &txnids.join("|")).await
}

/// PayU accepted a refund request: its id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefundQueued {
    pub request_id: String,
}

/// Asks PayU to refund `amount` of the payment `mihpayid`
/// (`cancel_refund_transaction`: `var1` the payment, `var2` our unique id
/// for this refund, `var3` the amount).
pub async fn cancel_refund_transaction(
    http: &reqwest::Client,
    url: &str,
    c: &Credentials,
    mihpayid: &str,
    refund_id: &str,
    amount: &str,
) -> Result<RefundQueued, String> {
    let body = post_command(
        http,
        url,
        c,
        "cancel_refund_transaction",
        &[("var1", mihpayid), ("var2", refund_id), ("var3", amount)],
        Duration::from_secs(15),
    )
    .await?;
    let ok = body.get("status").and_then(Value::as_i64) == Some(1);
    let msg = body
        .get("msg")
        .and_then(Value::as_str)
        .unwrap_or("no message")
        .to_string();
    if !ok {
        return Err(format!("PayU refused the refund: {msg}"));
    }
    Ok(RefundQueued {
        request_id: text(body.get("request_id"))
            .or_else(|| text(body.get("mihpayid")))
            .unwrap_or_else(|| refund_id.to_string()),
    })
}

/// Where a refund PayU accepted stands, from `check_action_status`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RefundState {
    /// The money went back to the buyer.
    Done,
    /// PayU could not make it (no money left the merchant's settlement).
    Failed(String),
    /// Still queued, with the bank, or PayU does not report it yet.
    Waiting(String),
}

/// Asks `url` (PayU's postservice) where the refund `request_id` stands
/// (`check_action_status`, `var1` the request id PayU gave the refund).
pub async fn check_action_status(
    http: &reqwest::Client,
    url: &str,
    c: &Credentials,
    request_id: &str,
) -> Result<Value, String> {
    post_command(
        http,
        url,
        c,
        "check_action_status",
        &[("var1", request_id)],
        Duration::from_secs(10),
    )
    .await
}

/// Reads `check_action_status`'s answer for the refund `request_id` (our
/// `token` for it, `var2` of the request, identifies it too). PayU's refund
/// states: `success`; `failure`; `queued`, `in progress`, `requested` and
/// `od_hit` (the bank has it, or the merchant's balance was short and it
/// waits) are not settled yet.
pub fn refund_state(body: &Value, request_id: &str, token: &str) -> RefundState {
    let actions = body
        .get("transaction_details")
        .and_then(|d| d.get(request_id))
        .and_then(Value::as_object);
    let Some(actions) = actions else {
        let msg = text(body.get("msg")).unwrap_or_else(|| "no answer about it".into());
        return RefundState::Waiting(format!("PayU does not report the refund yet: {msg}"));
    };
    // `{request_id: {request_id: {...}}}`; older answers put the fields
    // directly under the request id.
    let ours = |a: &Value| {
        text(a.get("request_id")).as_deref() == Some(request_id)
            || text(a.get("token")).as_deref() == Some(token)
    };
    let action = actions
        .get(request_id)
        .filter(|a| a.is_object())
        .or_else(|| actions.values().find(|a| a.is_object() && ours(a)))
        .unwrap_or(&body["transaction_details"][request_id]);
    let status = text(action.get("status"))
        .unwrap_or_default()
        .to_lowercase();
    match status.as_str() {
        "success" => RefundState::Done,
        "failure" | "failed" | "cancelled" => RefundState::Failed(
            text(action.get("error_Message"))
                .or_else(|| text(action.get("remark")))
                .map_or_else(
                    || "PayU could not make the refund".to_string(),
                    |why| format!("PayU could not make the refund: {why}"),
                ),
        ),
        "" => RefundState::Waiting("PayU does not report the refund's status yet".into()),
        other => RefundState::Waiting(format!("PayU reports the refund as {other}")),
    }
}

/// Asks `url` (PayU's postservice) about `txnid` (or several joined by `|`).
pub async fn verify_payment(
    http: &reqwest::Client,
    url: &str,
    c: &Credentials,
    txnid: &str,
) -> Result<Value, String> {
    post_command(
        http,
        url,
        c,
        "verify_payment",
        &[("var1", txnid)],
        Duration::from_secs(10),
    )
    .await
}

/// Posts `command` with its `vars` to PayU's postservice at `url`, signed
/// with `api_hash` over `var1`, and reads the JSON answer.
async fn post_command(
    http: &reqwest::Client,
    url: &str,
    c: &Credentials,
    command: &str,
    vars: &[(&str, &str)],
    timeout: Duration,
) -> Result<Value, String> {
    let var1 = vars
        .iter()
        .find(|(name, _)| *name == "var1")
        .map_or("", |(_, v)| *v);
    let hash = api_hash(c, command, var1);
    let mut form = vec![("key", c.key.as_str()), ("command", command)];
    form.extend_from_slice(vars);
    form.push(("hash", hash.as_str()));
    let res = http
        .post(url)
        .timeout(timeout)
        .form(&form)
        .send()
        .await
        .map_err(|e| format!("PayU could not be reached: {}", e.without_url()))?;
    if !res.status().is_success() {
        return Err(format!("PayU answered {}", res.status()));
    }
    res.json::<Value>()
        .await
        .map_err(|e| format!("PayU's answer could not be read: {}", e.without_url()))
}

/// What the simulator remembers of a transaction it completed.
#[derive(Debug, Clone)]
struct Simulated {
    status: String,
    mihpayid: String,
    mode: String,
    amount: String,
    error: String,
}

/// The built-in stand-in of PayU's hosted page (mode `simulator`): it keeps
/// what it "charged" in memory so its verify answer can report it.
#[derive(Clone, Default)]
pub struct Simulator {
    done: Arc<Mutex<HashMap<String, Simulated>>>,
}

impl Simulator {
    /// The fields PayU would post back for `outcome` (`success` or
    /// `failure`) of the request `request`, signed with `c`.
    pub fn complete(
        &self,
        c: &Credentials,
        request: &HashMap<String, String>,
        outcome: &str,
    ) -> Vec<(String, String)> {
        let get = |k: &str| request.get(k).cloned().unwrap_or_default();
        let success = outcome == "success";
        let status = if success { "success" } else { "failure" };
        let mihpayid = format!("{}", 400_000_000_000u64 + u64::from(rand::random::<u32>()));
        let mode = "UPI".to_string();
        let (unmapped, error_code, error_message) = if success {
            ("captured", "E000", "No Error")
        } else {
            ("failed", "E308", "Transaction declined in the simulator")
        };
        let udf: Vec<String> = (1..=5).map(|i| get(&format!("udf{i}"))).collect();
        let (txnid, amount, productinfo, firstname, email) = (
            get("txnid"),
            get("amount"),
            get("productinfo"),
            get("firstname"),
            get("email"),
        );
        let hash = response_hash(
            c,
            status,
            &Signed {
                txnid: &txnid,
                amount: &amount,
                productinfo: &productinfo,
                firstname: &firstname,
                email: &email,
                udf: [&udf[0], &udf[1], &udf[2], &udf[3], &udf[4]],
            },
            None,
        );
        if let Ok(mut done) = self.done.lock() {
            if done.len() > 10_000 {
                done.clear();
            }
            done.insert(
                txnid.clone(),
                Simulated {
                    status: status.into(),
                    mihpayid: mihpayid.clone(),
                    mode: mode.clone(),
                    amount: amount.clone(),
                    error: error_message.into(),
                },
            );
        }
        let mut out: Vec<(String, String)> = vec![
            ("mihpayid".into(), mihpayid),
            ("mode".into(), mode),
            ("status".into(), status.into()),
            ("unmappedstatus".into(), unmapped.into()),
            ("key".into(), c.key.clone()),
            ("txnid".into(), txnid),
            ("amount".into(), amount.clone()),
            ("net_amount_debit".into(), amount),
            ("productinfo".into(), productinfo),
            ("firstname".into(), firstname),
            ("email".into(), email),
            ("phone".into(), get("phone")),
        ];
        for (i, u) in udf.into_iter().enumerate() {
            out.push((format!("udf{}", i + 1), u));
        }
        out.extend([
            ("hash".into(), hash),
            (
                "bank_ref_num".into(),
                format!("SIM{}", rand::random::<u32>()),
            ),
            ("bankcode".into(), "UPI".into()),
            ("error".into(), error_code.into()),
            ("error_Message".into(), error_message.into()),
            ("PG_TYPE".into(), "SIMULATOR".into()),
        ]);
        out
    }

    /// The simulator's `verify_payment` answer for `var1` (one txnid, or
    /// several joined by `|`), shaped like PayU's.
    pub fn verify(&self, var1: &str) -> Value {
        let txnids: Vec<&str> = var1.split('|').filter(|t| !t.is_empty()).collect();
        let done = self.done.lock().ok();
        let mut details = serde_json::Map::new();
        let mut found = 0;
        for txnid in &txnids {
            let known = done.as_ref().and_then(|d| d.get(*txnid).cloned());
            let entry = match known {
                Some(s) => {
                    found += 1;
                    serde_json::json!({
                        "mihpayid": s.mihpayid,
                        "txnid": txnid,
                        "status": s.status,
                        "unmappedstatus": if s.status == "success" { "captured" } else { "failed" },
                        "amt": s.amount,
                        "transaction_amount": s.amount,
                        "mode": s.mode,
                        "error_Message": s.error,
                    })
                }
                None => serde_json::json!({ "mihpayid": "Not Found", "status": "Not Found" }),
            };
            details.insert((*txnid).to_string(), entry);
        }
        serde_json::json!({
            "status": i32::from(found > 0),
            "msg": format!("{found} out of {} Transactions Fetched Successfully", txnids.len()),
            "transaction_details": details,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Vectors computed once with PayU's own Node SDK (`payu-websdk` 1.3.1,
    // `utils/hasher.js`: paymentHasher, reverseHasher, apiHasher) for these
    // inputs; the SDK is not needed to run the tests.
    fn creds() -> Credentials {
        Credentials {
            key: "gtKFFx".into(),
            salt: "4R38IvwiV57FwVpsgOvTXBdLE4tHUXFW".into(),
        }
    }

    fn signed() -> Signed<'static> {
        Signed {
            txnid: "CA1732350000000abcd",
            amount: "999.00",
            productinfo: "ConvertAssist Basic (Monthly)",
            firstname: "Meera",
            email: "meera@example.in",
            udf: ["0193f1c2-user", "basic", "subscription", "monthly", ""],
        }
    }

    #[test]
    fn request_hash_matches_payu_sdk() {
        assert_eq!(
            request_hash(&creds(), &signed()),
            "1b6ed1e48d1feb9301b39a6d58b610ad48ee46adb6184f506c78dd2d94ff266cb1563444550441e13b81e72895630d655030b1ddde6482d6ba41f0efefd8f5a4"
        );
        let no_udf = Signed {
            txnid: "CA2",
            amount: "9990.00",
            productinfo: "ConvertAssist Basic (Annual)",
            firstname: "Ravi Kumar",
            email: "ravi@example.in",
            udf: ["", "", "", "", ""],
        };
        assert_eq!(
            request_hash(&creds(), &no_udf),
            "72b3fe43a8f27e7f420396a684a0ec4c1e91df135597d6faa2e047e14e34f349fb74597d14aa518b6d7f54e474a4b01c5b242dc56b95c109291acd4d156c262d"
        );
    }

    #[test]
    fn response_hashes_match_payu_sdk() {
        assert_eq!(
            response_hash(&creds(), "success", &signed(), None),
            "14751c5c02ea648fdd0cbe78b06482a055bce092f04e228f4a219a149f9c48325443d8e8e23f14b8857d0b6aa4ec4ba852132b24d6ca9b8babd9e11f2b1a03d9"
        );
        assert_eq!(
            response_hash(&creds(), "failure", &signed(), None),
            "28a5a90281641fe8bc8c8908759fa936d9b06df8c468c549f28a0f6b8492d91eb9f3fef6aab5142ba21505d09abaab4367e759924ff5e76a0307ecd6b8d28bc4"
        );
        assert_eq!(
            response_hash(&creds(), "success", &signed(), Some("17.70")),
            "43c96868df5b59900f371667165c3841e04ce4e642e5bd7bfa2b1f5554bc1ab3da623d586d619c576668fca5f97923f5185747fa618e395b9ebeb8caa8e4c9bb"
        );
    }

    #[test]
    fn api_hash_matches_payu_sdk() {
        assert_eq!(
            api_hash(&creds(), "verify_payment", "CA1732350000000abcd"),
            "67ebcbc7f871f1f10e5842b3418a8eb130ab712f7a93dd0177b97bcc355d40f29b4c9f794a0cfb493eaad91ee6e10f03a212b58092db0ef50c5b70697a93b254"
        );
    }

    #[test]
    fn refund_status_hash_matches_payu_sdk() {
        // `checkRefundStatus` (`wrapper/refund.js`) signs `check_action_status` with apiHasher.
        assert_eq!(
            api_hash(&creds(), "check_action_status", "131278422"),
            "803fc16dda22dacf2811619b9ba2b49f15f8ee9e125a71239f6950d66e9b79d38cdfefc7fa7e449be03169caa99ca6a38cd213bf891e4adbf377202e593d30c9"
        );
    }

    #[test]
    fn refund_states_are_read_from_payus_answer() {
        let answer = |status: &str| {
            serde_json::json!({"status": 1, "msg": "1 out of 1 Transactions Fetched Successfully",
                "transaction_details": {"131278422": {"131278422": {
                    "mihpayid": "403993715521937565", "request_id": "131278422", "amt": "999.00",
                    "action": "refund", "token": "RF0A1B", "status": status,
                    "bank_arn": null, "refund_mode": "Back to Source"}}}})
        };
        assert_eq!(
            refund_state(&answer("success"), "131278422", "RF0A1B"),
            RefundState::Done
        );
        assert_eq!(
            refund_state(&answer("SUCCESS"), "131278422", "RF0A1B"),
            RefundState::Done
        );
        assert!(matches!(
            refund_state(&answer("failure"), "131278422", "RF0A1B"),
            RefundState::Failed(_)
        ));
        for waiting in ["queued", "in progress", "requested", "od_hit"] {
            assert!(
                matches!(
                    refund_state(&answer(waiting), "131278422", "RF0A1B"),
                    RefundState::Waiting(_)
                ),
                "{waiting}"
            );
        }
        // Another request's answer, or none, is not ours to settle.
        assert!(matches!(
            refund_state(&answer("success"), "999", "RF0A1B"),
            RefundState::Waiting(_)
        ));
        let missing = serde_json::json!({"status": 0, "msg": "0 out of 1 Transactions Fetched Successfully",
            "transaction_details": {"131278422": "No action status found"}});
        assert!(matches!(
            refund_state(&missing, "131278422", "RF0A1B"),
            RefundState::Waiting(_)
        ));
        // Keyed another way but carrying our token.
        let by_token = serde_json::json!({"status": 1, "transaction_details": {"131278422": {
            "x": {"token": "RF0A1B", "status": "failure", "remark": "Account closed"}}}});
        assert_eq!(
            refund_state(&by_token, "131278422", "RF0A1B"),
            RefundState::Failed("PayU could not make the refund: Account closed".into())
        );
    }

    #[test]
    fn amounts_are_rupees_with_two_decimals() {
        assert_eq!(amount_text(99_900), "999.00");
        assert_eq!(amount_text(999_000), "9990.00");
        assert_eq!(amount_text(5), "0.05");
    }

    #[test]
    fn verify_answers_are_read_with_their_amount() {
        let ok = serde_json::json!({"status": 1, "transaction_details": {"T1": {
            "status": "success", "amt": "999.00", "mihpayid": 403993715521937565u64, "mode": "CC",
            "bankrefnum": "123", "error_Message": "NO ERROR"}}});
        let o = parse_verify(&ok, "T1", 99_900).expect("success");
        assert_eq!(o.status, PaymentStatus::Success);
        assert_eq!(o.mihpayid.as_deref(), Some("403993715521937565"));
        assert_eq!(o.bank_ref_num.as_deref(), Some("123"));
        assert_eq!(o.error, None);
        assert_eq!(parse_verify(&ok, "T1", 10_000), None, "another amount");
        assert_eq!(parse_verify(&ok, "T2", 99_900), None, "another txnid");
        let missing = serde_json::json!({"status": 0, "transaction_details": {"T1": {
            "mihpayid": "Not Found", "status": "Not Found"}}});
        assert_eq!(parse_verify(&missing, "T1", 99_900), None);
        let failed = serde_json::json!({"status": 1, "transaction_details": {"T1": {
            "status": "failure", "amt": 999, "error_Message": "Bank denied"}}});
        let o = parse_verify(&failed, "T1", 99_900).expect("failure");
        assert_eq!(
            (o.status.as_str(), o.error.as_deref()),
            ("failure", Some("Bank denied"))
        );
    }
}
