//! `/test-widget?campaign={id}`: a sample shop page with the campaign's widget
//! on it, opened by the edit screen's Preview button.

use actix_web::http::header;
use actix_web::{HttpResponse, web};
use serde::Deserialize;

use crate::state::AppState;

#[derive(Deserialize)]
pub struct Query {
    campaign: Option<String>,
}

/// The sample shop's look (the live demo page wears it too).
pub(crate) const STYLE: &str = "body{margin:0;font-family:Georgia,serif;color:#3b2f2f;background:#fffaf3}\
header{display:flex;justify-content:space-between;align-items:center;padding:18px 40px;background:#7a1f2b;color:#fff}\
header nav a{color:#fde9c9;margin-left:20px;text-decoration:none;font-family:Arial,sans-serif;font-size:14px}\
.hero{padding:60px 40px;background:linear-gradient(120deg,#fde9c9,#f7d3a7)}\
.hero h1{font-size:40px;margin:0 0 12px}.hero p{font-size:18px;max-width:560px}\
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(220px,1fr));gap:24px;padding:40px}\
.card{background:#fff;border:1px solid #ecd9c0;border-radius:10px;padding:18px}\
.swatch{height:140px;border-radius:8px;margin-bottom:12px}\
.price{font-family:Arial,sans-serif;font-weight:bold;color:#7a1f2b}\
.note{font-family:Arial,sans-serif;font-size:13px;background:#fff3cd;border-bottom:1px solid #e7d28f;padding:10px 40px;margin:0}\
footer{padding:30px 40px;font-family:Arial,sans-serif;font-size:13px;color:#6b5b4b}";

const PRODUCTS: [(&str, &str, &str); 6] = [
    ("Banarasi silk saree", "₹12,499", "#a4243b"),
    ("Handloom cotton saree", "₹1,299", "#d8973c"),
    ("Chanderi dupatta", "₹899", "#bd632f"),
    ("Block-printed kurta", "₹1,499", "#273e47"),
    ("Kanjeevaram silk saree", "₹17,999", "#5c2a4a"),
    ("Ikat cotton stole", "₹749", "#3d6b5a"),
];

/// The sample shop's header, products and footer; `about` says what the
/// shop is for.
pub(crate) fn shop_body(about: &str) -> String {
    let products: String = PRODUCTS
        .iter()
        .map(|(name, price, colour)| {
            format!(
                "<div class=\"card\"><div class=\"swatch\" style=\"background:{colour}\"></div><h3>{name}</h3><p class=\"price\">{price}</p></div>"
            )
        })
        .collect();
    format!(
        "<header><strong>Kesar Handlooms</strong><nav><a href=\"#\">Sarees</a><a href=\"#\">Dupattas</a><a href=\"#\">Kurtas</a><a href=\"#\">Cart (0)</a></nav></header>\
<section class=\"hero\"><h1>Handwoven in Jaipur since 1998</h1><p>Free shipping across India on orders above ₹999. Cash on delivery available.</p></section>\
<section class=\"grid\">{products}</section>\
<footer>Kesar Handlooms · M.I. Road, Jaipur · care@kesarhandlooms.in ({about})</footer>"
    )
}

/// The sample shop page. Only a campaign id that is a UUID is put on the page.
pub async fn page(state: web::Data<AppState>, query: web::Query<Query>) -> HttpResponse {
    let campaign = query
        .campaign
        .as_deref()
        .and_then(ca_core::ids::parse_id)
        .map(|id| id.to_string());
    let base = state.config.public_url();
    let (note, tag) = match &campaign {
        Some(id) => (
            "This is a sample shop with your campaign's widget on it. Move the pointer out through the top of the window (after the campaign's delay and minimum time on page) to see the popup.".to_string(),
            format!(
                "<script src=\"{base}/widget/ca-widget.js\" data-campaign-id=\"{id}\" data-api-url=\"{base}\" async defer></script>"
            ),
        ),
        None => (
            "Open this page from a campaign's Preview button (it adds ?campaign=&lt;campaign id&gt;).".to_string(),
            String::new(),
        ),
    };
    let html = format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
<title>Widget preview · Kesar Handlooms (sample shop)</title><style>{STYLE}</style></head><body>\
<p class=\"note\" id=\"preview-note\">{note}</p>\
{}{tag}</body></html>",
        shop_body("sample shop for previews")
    );
    HttpResponse::Ok()
        .content_type("text/html; charset=utf-8")
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .body(html)
}
