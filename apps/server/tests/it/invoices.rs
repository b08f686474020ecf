//! GST tax invoices: the owner's billing details, the invoice as issued
//! (immune to later profile edits), CGST + SGST or IGST adding up to the
//! paisa, the A4 PDF, and the credit note a refund issues.

use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
use serde_json::{Value, json};

use ca_billing::entities::invoice;

use crate::admin::account;
use crate::helpers::{TestApp, spawn_app, spawn_app_with};
use crate::payments::{buy, initialize, last_invoice_number, payment};

/// A seller registered in Karnataka.
async fn seller_app() -> TestApp {
    spawn_app_with(|c| {
        c.invoice_name = "Exit Labs Private Limited".into();
        c.invoice_address = "4th Floor, 80 Feet Road\nKoramangala, Bengaluru 560034".into();
        c.invoice_gstin = Some("29AAGCB7383J1Z4".into());
        c.invoice_state = Some("29".into());
    })
    .await
}

async fn details(app: &TestApp, token: &str, body: Value) -> crate::helpers::Reply {
    app.send("PUT", "/api/billing/details", Some(token), body)
        .await
}

async fn invoice_of(app: &TestApp, token: &str, txnid: &str) -> Value {
    let r = app
        .get(&format!("/api/payment/invoice/{txnid}"), Some(token))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.body["data"].clone()
}

async fn issued(app: &TestApp, txnid: &str) -> Vec<invoice::Model> {
    let p = payment(app, txnid).await;
    invoice::Entity::find()
        .filter(invoice::Column::PaymentId.eq(&p.id))
        .all(&app.db.conn)
        .await
        .expect("invoices")
}

/// Checks that the invoice of `txnid` adds up to what was paid, to the paisa.
async fn adds_up(app: &TestApp, txnid: &str) -> invoice::Model {
    let p = payment(app, txnid).await;
    let rows = issued(app, txnid).await;
    assert_eq!(rows.len(), 1);
    let inv = rows[0].clone();
    assert_eq!(inv.total_paise, p.amount_paise);
    assert_eq!(
        inv.taxable_paise + inv.cgst_paise + inv.sgst_paise + inv.igst_paise,
        p.amount_paise,
        "{inv:?}"
    );
    inv
}

#[tokio::test]
async fn an_issued_invoice_keeps_the_buyer_as_they_were() {
    let app = seller_app().await;
    let (token, _) = app.register("asha@example.in", "correct horse 1").await;
    let me = app
        .send(
            "PUT",
            "/api/auth/me",
            Some(&token),
            json!({"name": "Asha Rao", "phone": "+91 98450 12345"}),
        )
        .await;
    assert_eq!(me.status, 200, "{}", me.body);
    let saved = details(
        &app,
        &token,
        json!({"address": "12 MG Road\nBengaluru 560001", "stateCode": "29", "gstin": "29aagcb7383j1z4"}),
    )
    .await;
    assert_eq!(saved.status, 200, "{}", saved.body);
    let txnid = buy(&app, &token, "basic", "monthly").await;
    let first = invoice_of(&app, &token, &txnid).await;
    assert_eq!(first["buyer"]["name"], "Asha Rao");
    assert_eq!(first["buyer"]["email"], "asha@example.in");
    // The account's phone, as accounts store it (E.164).
    assert_eq!(first["buyer"]["phone"], "+919845012345");
    assert_eq!(first["buyer"]["address"], "12 MG Road\nBengaluru 560001");
    assert_eq!(first["buyer"]["gstin"], "29AAGCB7383J1Z4");
    assert_eq!(first["buyer"]["stateName"], "Karnataka");
    assert_eq!(first["seller"]["name"], "Exit Labs Private Limited");
    assert_eq!(first["seller"]["gstin"], "29AAGCB7383J1Z4");
    assert_eq!(first["placeOfSupply"], "Karnataka (29)");
    assert_eq!(first["sac"], "998314");

    // The buyer edits their profile and billing details afterwards.
    let me = app
        .send(
            "PUT",
            "/api/auth/me",
            Some(&token),
            json!({"name": "Someone Else", "phone": "+91 90000 00000"}),
        )
        .await;
    assert_eq!(me.status, 200, "{}", me.body);
    let moved = details(
        &app,
        &token,
        json!({"address": "1 Marine Drive, Mumbai", "stateCode": "27", "gstin": "27AAPFU0939F1ZV"}),
    )
    .await;
    assert_eq!(moved.status, 200, "{}", moved.body);

    let again = invoice_of(&app, &token, &txnid).await;
    assert_eq!(again["buyer"], first["buyer"]);
    assert_eq!(again["placeOfSupply"], first["placeOfSupply"]);
    assert_eq!(again["lines"], first["lines"]);
    assert_eq!(again["taxType"], "intra");
}

#[tokio::test]
async fn gst_is_split_within_a_state_and_integrated_across_states_to_the_paisa() {
    let app = seller_app().await;

    // Same state as the seller: CGST 9 % + SGST 9 %.
    let (ka, _) = app.register("ka@example.in", "correct horse 1").await;
    let r = details(&app, &ka, json!({"address": "Mysuru", "stateCode": "29"})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let txnid = buy(&app, &ka, "basic", "monthly").await;
    let inv = adds_up(&app, &txnid).await;
    assert_eq!(inv.total_paise, 99_900);
    assert_eq!(
        (
            inv.taxable_paise,
            inv.cgst_paise,
            inv.sgst_paise,
            inv.igst_paise
        ),
        (84_661, 7_619, 7_620, 0)
    );
    let body = invoice_of(&app, &ka, &txnid).await;
    assert_eq!(body["taxType"], "intra");
    assert_eq!(body["gstRate"], 18.0);
    assert_eq!(body["lines"]["total"], 999.0);
    assert_eq!(body["lines"]["cgst"], 76.19);
    assert_eq!(body["lines"]["sgst"], 76.2);
    assert_eq!(body["lines"]["igst"], 0.0);
    assert_eq!(
        body["lines"]["amountInWords"],
        "Rupees Nine Hundred Ninety Nine Only"
    );

    // Another state: IGST 18 %.
    let (mh, _) = app.register("mh@example.in", "correct horse 1").await;
    let r = details(
        &app,
        &mh,
        json!({"address": "Pune", "stateCode": "27", "gstin": "27AAPFU0939F1ZV"}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let txnid = buy(&app, &mh, "basic", "annual").await;
    let inv = adds_up(&app, &txnid).await;
    assert_eq!(inv.total_paise, 999_000);
    assert_eq!((inv.cgst_paise, inv.sgst_paise), (0, 0));
    assert_eq!(inv.igst_paise, 999_000 - 846_610);
    let body = invoice_of(&app, &mh, &txnid).await;
    assert_eq!(body["taxType"], "inter");
    assert_eq!(body["placeOfSupply"], "Maharashtra (27)");
    assert_eq!(body["buyer"]["gstin"], "27AAPFU0939F1ZV");

    // ₹1: both ways still add up.
    ca_billing::entities::plan::Entity::update_many()
        .col_expr(ca_billing::entities::plan::Column::Price, Expr::value(1))
        .filter(ca_billing::entities::plan::Column::Id.eq("basic"))
        .exec(&app.db.conn)
        .await
        .expect("price");
    let (one_mh, _) = app.register("one-mh@example.in", "correct horse 1").await;
    details(
        &app,
        &one_mh,
        json!({"address": "Nagpur", "stateCode": "27"}),
    )
    .await;
    let txnid = buy(&app, &one_mh, "basic", "monthly").await;
    let inv = adds_up(&app, &txnid).await;
    assert_eq!((inv.taxable_paise, inv.igst_paise), (85, 15));
    // No billing details: supplied where the seller is.
    let (one, _) = app.register("one@example.in", "correct horse 1").await;
    let txnid = buy(&app, &one, "basic", "monthly").await;
    let inv = adds_up(&app, &txnid).await;
    assert_eq!(inv.place_of_supply.as_deref(), Some("29"));
    assert_eq!(
        (inv.taxable_paise, inv.cgst_paise, inv.sgst_paise),
        (85, 8, 7)
    );
    let body = invoice_of(&app, &one, &txnid).await;
    assert_eq!(body["lines"]["amountInWords"], "Rupees One Only");
}

#[tokio::test]
async fn gst_is_added_at_checkout_when_prices_exclude_it() {
    let app = spawn_app_with(|c| {
        c.prices_include_gst = false;
        c.invoice_state = Some("Karnataka".into());
    })
    .await;
    let (token, _) = app.register("net@example.in", "correct horse 1").await;
    let init = initialize(&app, &token, json!({"udf2": "basic"})).await;
    assert_eq!(init.status, 200, "{}", init.body);
    assert_eq!(init.body["data"]["amount"], 1178.82);
    let txnid = buy(&app, &token, "basic", "monthly").await;
    let inv = adds_up(&app, &txnid).await;
    assert_eq!(inv.taxable_paise, 99_900);
    assert_eq!(inv.cgst_paise + inv.sgst_paise, 17_982);
}

#[tokio::test]
async fn billing_details_are_checked_and_a_refusal_changes_nothing() {
    let app = spawn_app().await;
    let (token, _) = app.register("details@example.in", "correct horse 1").await;
    let empty = app.get("/api/billing/details", Some(&token)).await;
    assert_eq!(empty.status, 200, "{}", empty.body);
    assert_eq!(empty.body["success"], true);
    assert_eq!(empty.body["data"]["address"], Value::Null);
    let states = empty.body["data"]["states"].as_array().expect("states");
    assert!(states.contains(&json!({"code": "29", "name": "Karnataka"})));
    assert!(states.contains(&json!({"code": "38", "name": "Ladakh"})));

    let ok = details(
        &app,
        &token,
        json!({"address": "  12 MG Road\n\nBengaluru ", "stateCode": "29", "gstin": " 29AAGCB7383J1Z4 "}),
    )
    .await;
    assert_eq!(ok.status, 200, "{}", ok.body);
    assert_eq!(ok.body["data"]["address"], "12 MG Road\nBengaluru");
    assert_eq!(ok.body["data"]["stateName"], "Karnataka");
    assert_eq!(ok.body["data"]["gstin"], "29AAGCB7383J1Z4");

    let refusals = [
        (
            json!({"address": "Elsewhere", "stateCode": "29", "gstin": "29AAGCB7383J1Z5"}),
            "gstin",
            "This GSTIN's check character is wrong; please check it for a typing mistake",
        ),
        (
            json!({"address": "Elsewhere", "stateCode": "29", "gstin": "29AAGCB7383"}),
            "gstin",
            "A GSTIN has 15 characters: the 2-digit state code, the 10-character PAN, the entity number, Z and a check character (e.g. 29ABCDE1234F1Z5)",
        ),
        (
            json!({"address": "Elsewhere", "stateCode": "29", "gstin": "27AAPFU0939F1ZV"}),
            "gstin",
            "This GSTIN is registered in Maharashtra (code 27), not in Karnataka",
        ),
        (
            json!({"address": " ", "stateCode": "29"}),
            "address",
            "Please enter your billing address",
        ),
        (
            json!({"address": "Elsewhere", "stateCode": "28"}),
            "stateCode",
            "28 is not a GST state code; please choose your state from the list",
        ),
        (
            json!({"address": "Elsewhere"}),
            "stateCode",
            "Please choose your state or union territory",
        ),
    ];
    for (body, field, message) in refusals {
        let r = details(&app, &token, body.clone()).await;
        assert_eq!(r.error(400, "validation_failed"), message, "{body}");
        assert_eq!(r.body["errors"][field][0], message, "{body}");
    }
    let after = app.get("/api/billing/details", Some(&token)).await;
    assert_eq!(
        after.body["data"], ok.body["data"],
        "refusals changed nothing"
    );

    // Clearing the GSTIN is allowed.
    let cleared = details(
        &app,
        &token,
        json!({"address": "12 MG Road", "stateCode": "29", "gstin": ""}),
    )
    .await;
    assert_eq!(cleared.status, 200, "{}", cleared.body);
    assert_eq!(cleared.body["data"]["gstin"], Value::Null);

    app.get("/api/billing/details", None)
        .await
        .error(401, "missing_token");
    app.send("PUT", "/api/billing/details", None, json!({}))
        .await
        .error(401, "missing_token");
    // Each owner sees only their own.
    let (other, _) = app.register("other@example.in", "correct horse 1").await;
    let theirs = app.get("/api/billing/details", Some(&other)).await;
    assert_eq!(theirs.body["data"]["address"], Value::Null);
}

/// The numbers of every `/MediaBox [...]` in `pdf`.
fn media_boxes(pdf: &[u8]) -> Vec<Vec<f64>> {
    let text = String::from_utf8_lossy(pdf);
    text.split("/MediaBox")
        .skip(1)
        .filter_map(|rest| {
            let inside = rest.trim_start().strip_prefix('[')?.split(']').next()?;
            Some(
                inside
                    .split_whitespace()
                    .filter_map(|n| n.parse().ok())
                    .collect(),
            )
        })
        .collect()
}

async fn pdf(app: &TestApp, path: &str, token: Option<&str>) -> (u16, String, Vec<u8>) {
    let mut req = app.client.get(app.url(path));
    if let Some(t) = token {
        req = req.bearer_auth(t);
    }
    let res = req.send().await.expect("request");
    let status = res.status().as_u16();
    let kind = res
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string();
    (status, kind, res.bytes().await.expect("body").to_vec())
}

#[tokio::test]
async fn the_invoice_pdf_is_an_a4_document() {
    let app = seller_app().await;
    let (token, _) = app.register("pdf@example.in", "correct horse 1").await;
    details(
        &app,
        &token,
        json!({"address": "12 MG Road\nBengaluru 560001", "stateCode": "29", "gstin": "29AAGCB7383J1Z4"}),
    )
    .await;
    let txnid = buy(&app, &token, "basic", "monthly").await;
    let path = format!("/api/payment/invoice/{txnid}/pdf");
    let (status, kind, bytes) = pdf(&app, &path, Some(&token)).await;
    assert_eq!(status, 200);
    assert_eq!(kind, "application/pdf");
    assert!(bytes.starts_with(b"%PDF-"), "a PDF");
    assert!(bytes.ends_with(b"%%EOF") || bytes.ends_with(b"%%EOF\n"));
    let boxes = media_boxes(&bytes);
    assert_eq!(boxes.len(), 1, "one page");
    let b = &boxes[0];
    assert_eq!(b.len(), 4);
    assert!((595.0..596.0).contains(&(b[2] - b[0])), "A4 width {b:?}");
    assert!((841.0..843.0).contains(&(b[3] - b[1])), "A4 height {b:?}");
    // The font is embedded as a subset, so the file stays small.
    assert!(bytes.len() < 150_000, "{} bytes", bytes.len());
    if let Ok(dir) = std::env::var("CA_TEST_PDF_DIR") {
        std::fs::write(format!("{dir}/invoice.pdf"), &bytes).expect("write");
    }

    // Nobody else's, and not without a session; no credit note yet.
    let (stranger, _) = app.register("stranger@example.in", "correct horse 1").await;
    assert_eq!(pdf(&app, &path, Some(&stranger)).await.0, 404);
    assert_eq!(pdf(&app, &path, None).await.0, 401);
    let note = format!("/api/payment/invoice/{txnid}/credit-note/pdf");
    assert_eq!(pdf(&app, &note, Some(&token)).await.0, 404);
}

#[tokio::test]
async fn a_refund_issues_a_credit_note_with_the_next_number() {
    let app = seller_app().await;
    let (token, _) = app.register("refunded@example.in", "correct horse 1").await;
    details(
        &app,
        &token,
        json!({"address": "Chennai", "stateCode": "33"}),
    )
    .await;
    let txnid = buy(&app, &token, "basic", "monthly").await;
    let number = last_invoice_number(&app).await;
    let before = invoice_of(&app, &token, &txnid).await;
    assert_eq!(before["status"], "paid");
    assert_eq!(before["creditNote"], Value::Null);
    assert_eq!(before["invoiceNumber"], format!("CA-{number:06}"));

    let (staff, _) = account(&app, "ops@example.in", "admin").await;
    let r = app
        .send(
            "POST",
            &format!("/api/admin/payments/{txnid}/refund"),
            Some(&staff),
            json!({}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(last_invoice_number(&app).await, number + 1);

    let after = invoice_of(&app, &token, &txnid).await;
    assert_eq!(after["status"], "refunded");
    assert_eq!(after["invoiceNumber"], before["invoiceNumber"]);
    assert_eq!(after["lines"], before["lines"]);
    let note = &after["creditNote"];
    assert_eq!(note["number"], format!("CA-{:06}", number + 1));
    assert_eq!(note["lines"], before["lines"]);
    let rows = issued(&app, &txnid).await;
    let credit = rows
        .iter()
        .find(|r| r.kind == "credit_note")
        .expect("credit note row");
    assert_eq!(credit.original_number, Some(number));
    assert_eq!(credit.igst_paise, 99_900 - 84_661);

    let history = app.get("/api/payment/history", Some(&token)).await;
    assert_eq!(history.body["data"][0]["status"], "refunded");
    assert_eq!(
        history.body["data"][0]["creditNoteNumber"],
        format!("CA-{:06}", number + 1)
    );

    let (status, kind, bytes) = pdf(
        &app,
        &format!("/api/payment/invoice/{txnid}/credit-note/pdf"),
        Some(&token),
    )
    .await;
    assert_eq!((status, kind.as_str()), (200, "application/pdf"));
    assert!(bytes.starts_with(b"%PDF-"));
    if let Ok(dir) = std::env::var("CA_TEST_PDF_DIR") {
        std::fs::write(format!("{dir}/credit-note.pdf"), &bytes).expect("write");
    }
    // The invoice's PDF is still there.
    let (status, _, _) = pdf(
        &app,
        &format!("/api/payment/invoice/{txnid}/pdf"),
        Some(&token),
    )
    .await;
    assert_eq!(status, 200);

    // The series goes on without a gap.
    let (next, _) = app.register("next@example.in", "correct horse 1").await;
    let txnid = buy(&app, &next, "basic", "monthly").await;
    assert_eq!(
        invoice_of(&app, &next, &txnid).await["invoiceNumber"],
        format!("CA-{:06}", number + 2)
    );
}
