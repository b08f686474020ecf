//! Issued invoices and credit notes as A4 PDF documents. The text is set in
//! DejaVu Sans (bundled, with the rupee sign), embedded as a subset.

use std::sync::LazyLock;

use chrono::{DateTime, Utc};
use krilla::Document;
use krilla::color::rgb;
use krilla::geom::{PathBuilder, Point, Rect};
use krilla::metadata::Metadata;
use krilla::page::PageSettings;
use krilla::paint::{Fill, Stroke};
use krilla::surface::Surface;
use krilla::text::{Font, TextDirection};
use skrifa::instance::{LocationRef, Size};
use skrifa::{FontRef, MetadataProvider};

use crate::entities::invoice::{self, CREDIT_NOTE};
use crate::entities::payment;
use crate::invoices;

static REGULAR_BYTES: &[u8] = include_bytes!("../fonts/DejaVuSans.ttf");
static BOLD_BYTES: &[u8] = include_bytes!("../fonts/DejaVuSans-Bold.ttf");

/// A4 in points.
const PAGE_W: f32 = 595.28;
const PAGE_H: f32 = 841.89;
const MARGIN: f32 = 48.0;
const RIGHT: f32 = PAGE_W - MARGIN;

static FONTS: LazyLock<Option<(Font, Font)>> = LazyLock::new(|| {
    Some((
        Font::new(REGULAR_BYTES.into(), 0)?,
        Font::new(BOLD_BYTES.into(), 0)?,
    ))
});

/// What one document shows besides its own row.
pub struct Context<'a> {
    pub payment: &'a payment::Model,
    pub plan_name: &'a str,
    /// For a tax invoice: its credit note, when the payment was refunded.
    /// For a credit note: the invoice it reverses.
    pub other: Option<&'a invoice::Model>,
}

#[derive(Clone, Copy)]
enum Face {
    Regular,
    Bold,
}

struct Pen<'s, 'p> {
    surface: &'s mut Surface<'p>,
    regular: Font,
    bold: Font,
}

fn bytes(face: Face) -> &'static [u8] {
    match face {
        Face::Regular => REGULAR_BYTES,
        Face::Bold => BOLD_BYTES,
    }
}

/// The width of `text` at `size` points.
fn width(face: Face, size: f32, text: &str) -> f32 {
    let Ok(font) = FontRef::new(bytes(face)) else {
        return text.chars().count() as f32 * size * 0.6;
    };
    let map = font.charmap();
    let metrics = font.glyph_metrics(Size::new(size), LocationRef::default());
    text.chars()
        .map(|c| {
            map.map(c)
                .and_then(|g| metrics.advance_width(g))
                .unwrap_or(size * 0.6)
        })
        .sum()
}

/// `text` broken into lines no wider than `max` (words longer than a line
/// are cut).
fn wrap(face: Face, size: f32, text: &str, max: f32) -> Vec<String> {
    let mut lines = Vec::new();
    for paragraph in text.lines() {
        let mut line = String::new();
        for word in paragraph.split_whitespace() {
            let candidate = if line.is_empty() {
                word.to_string()
            } else {
                format!("{line} {word}")
            };
            if width(face, size, &candidate) <= max || line.is_empty() {
                line = candidate;
            } else {
                lines.push(std::mem::take(&mut line));
                line = word.to_string();
            }
            while width(face, size, &line) > max && line.chars().count() > 1 {
                let mut cut = line.chars().count() - 1;
                while cut > 1
                    && width(face, size, &line.chars().take(cut).collect::<String>()) > max
                {
                    cut -= 1;
                }
                let head: String = line.chars().take(cut).collect();
                let tail: String = line.chars().skip(cut).collect();
                lines.push(head);
                line = tail;
            }
        }
        if !line.is_empty() {
            lines.push(line);
        }
    }
    lines
}

const INK: (u8, u8, u8) = (17, 24, 39);
const MUTED: (u8, u8, u8) = (90, 98, 112);
const RULE: (u8, u8, u8) = (205, 210, 218);
const SHADE: (u8, u8, u8) = (241, 243, 246);
const ACCENT: (u8, u8, u8) = (37, 99, 235);

impl Pen<'_, '_> {
    fn text(&mut self, x: f32, y: f32, face: Face, size: f32, color: (u8, u8, u8), text: &str) {
        self.surface.set_stroke(None);
        self.surface.set_fill(Some(Fill {
            paint: rgb::Color::new(color.0, color.1, color.2).into(),
            ..Fill::default()
        }));
        let font = match face {
            Face::Regular => self.regular.clone(),
            Face::Bold => self.bold.clone(),
        };
        self.surface.draw_text(
            Point::from_xy(x, y),
            font,
            size,
            text,
            false,
            TextDirection::Auto,
        );
    }

    fn right(&mut self, x: f32, y: f32, face: Face, size: f32, color: (u8, u8, u8), text: &str) {
        let w = width(face, size, text);
        self.text(x - w, y, face, size, color, text);
    }

    fn rule(&mut self, y: f32, from: f32, to: f32, color: (u8, u8, u8), thickness: f32) {
        let mut pb = PathBuilder::new();
        pb.move_to(from, y);
        pb.line_to(to, y);
        if let Some(path) = pb.finish() {
            self.surface.set_fill(None);
            self.surface.set_stroke(Some(Stroke {
                paint: rgb::Color::new(color.0, color.1, color.2).into(),
                width: thickness,
                ..Stroke::default()
            }));
            self.surface.draw_path(&path);
        }
    }

    fn shade(&mut self, x: f32, y: f32, w: f32, h: f32, color: (u8, u8, u8)) {
        let mut pb = PathBuilder::new();
        if let Some(rect) = Rect::from_xywh(x, y, w, h) {
            pb.push_rect(rect);
        }
        if let Some(path) = pb.finish() {
            self.surface.set_stroke(None);
            self.surface.set_fill(Some(Fill {
                paint: rgb::Color::new(color.0, color.1, color.2).into(),
                ..Fill::default()
            }));
            self.surface.draw_path(&path);
        }
    }

    /// Writes `text` wrapped to `max` from `y` down; answers the next line's `y`.
    fn para(
        &mut self,
        x: f32,
        y: f32,
        size: f32,
        color: (u8, u8, u8),
        text: &str,
        max: f32,
    ) -> f32 {
        let mut y = y;
        for line in wrap(Face::Regular, size, text, max) {
            self.text(x, y, Face::Regular, size, color, &line);
            y += size * 1.45;
        }
        y
    }
}

/// `₹1,23,456.78`: Indian digit grouping.
pub fn inr(paise: i64) -> String {
    let sign = if paise < 0 { "-" } else { "" };
    let paise = paise.abs();
    let rupees = (paise / 100).to_string();
    let grouped = if rupees.len() <= 3 {
        rupees
    } else {
        let (head, last3) = rupees.split_at(rupees.len() - 3);
        let mut groups: Vec<String> = Vec::new();
        let mut head = head.to_string();
        while head.len() > 2 {
            groups.insert(0, head[head.len() - 2..].to_string());
            head.truncate(head.len() - 2);
        }
        if !head.is_empty() {
            groups.insert(0, head);
        }
        format!("{},{last3}", groups.join(","))
    };
    format!("{sign}₹{grouped}.{:02}", paise % 100)
}

/// A date in India Standard Time, e.g. `26 Nov 2026`.
fn day(at: DateTime<Utc>) -> String {
    let ist = at + chrono::Duration::minutes(5 * 60 + 30);
    ist.format("%-d %b %Y").to_string()
}

/// A GST rate as the invoice prints it: `18%`, `2.5%`, from hundredths of a percent.
pub(crate) fn percent(bp: i64) -> String {
    if bp % 100 == 0 {
        format!("{}%", bp / 100)
    } else {
        format!("{}%", bp as f64 / 100.0)
    }
}

/// Renders the document `d` (a tax invoice or a credit note) as an A4 PDF.
pub fn render(d: &invoice::Model, ctx: &Context<'_>) -> Result<Vec<u8>, String> {
    let (regular, bold) = FONTS
        .clone()
        .ok_or_else(|| "the bundled font could not be read".to_string())?;
    let credit = d.kind == CREDIT_NOTE;
    let title = if credit { "CREDIT NOTE" } else { "TAX INVOICE" };
    let number = invoices::label(d.number);

    let mut document = Document::new();
    document.set_metadata(
        Metadata::new()
            .title(format!("{title} {number}"))
            .creator("ConvertAssist".into()),
    );
    let settings = PageSettings::from_wh(PAGE_W, PAGE_H)
        .ok_or_else(|| "the page size is invalid".to_string())?;
    let mut page = document.start_page_with(settings);
    let mut surface = page.surface();
    let mut pen = Pen {
        surface: &mut surface,
        regular,
        bold,
    };
    let p = ctx.payment;
    let half = (RIGHT - MARGIN) / 2.0;

    // The seller, and what this document is.
    pen.shade(0.0, 0.0, PAGE_W, 6.0, ACCENT);
    let mut y = MARGIN + 12.0;
    for line in wrap(Face::Bold, 15.0, &d.seller_name, half + 20.0) {
        pen.text(MARGIN, y, Face::Bold, 15.0, INK, &line);
        y += 19.0;
    }
    y = pen.para(MARGIN, y, 9.0, MUTED, &d.seller_address, half + 20.0);
    let seller = invoices::seller(d);
    if let Some(g) = &seller.gstin {
        pen.text(MARGIN, y, Face::Bold, 9.0, INK, &format!("GSTIN: {g}"));
        y += 13.0;
    }
    if let (Some(name), Some(code)) = (&seller.state_name, &seller.state_code) {
        pen.text(
            MARGIN,
            y,
            Face::Regular,
            9.0,
            MUTED,
            &format!("State: {name} ({code})"),
        );
        y += 13.0;
    }
    let mut ry = MARGIN + 14.0;
    pen.right(RIGHT, ry, Face::Bold, 18.0, INK, title);
    ry += 20.0;
    pen.right(RIGHT, ry, Face::Regular, 9.5, INK, &format!("No. {number}"));
    ry += 14.0;
    pen.right(
        RIGHT,
        ry,
        Face::Regular,
        9.5,
        INK,
        &format!("Date: {}", day(d.issued_at)),
    );
    ry += 14.0;
    match (credit, ctx.other) {
        (true, Some(original)) => {
            pen.right(
                RIGHT,
                ry,
                Face::Regular,
                9.0,
                MUTED,
                &format!(
                    "Against invoice {} of {}",
                    invoices::label(original.number),
                    day(original.issued_at)
                ),
            );
            ry += 14.0;
        }
        (false, Some(note)) => {
            pen.right(
                RIGHT,
                ry,
                Face::Bold,
                9.0,
                (185, 28, 28),
                &format!("Refunded: credit note {}", invoices::label(note.number)),
            );
            ry += 14.0;
        }
        (false, None) => {
            pen.right(RIGHT, ry, Face::Bold, 9.0, (21, 128, 61), "Paid");
            ry += 14.0;
        }
        (true, None) => {}
    }
    y = y.max(ry) + 8.0;
    pen.rule(y, MARGIN, RIGHT, RULE, 0.8);
    y += 20.0;

    // The buyer, the place of supply and the payment.
    let top = y;
    pen.text(MARGIN, y, Face::Bold, 7.5, MUTED, "BILLED TO");
    y += 15.0;
    let buyer = invoices::buyer(d);
    for line in wrap(Face::Bold, 11.0, &buyer.name, half - 16.0) {
        pen.text(MARGIN, y, Face::Bold, 11.0, INK, &line);
        y += 15.0;
    }
    if let Some(address) = &buyer.address {
        y = pen.para(MARGIN, y, 9.0, INK, address, half - 16.0);
    }
    if let (Some(name), Some(code)) = (&buyer.state_name, &buyer.state_code) {
        pen.text(
            MARGIN,
            y,
            Face::Regular,
            9.0,
            INK,
            &format!("State: {name} ({code})"),
        );
        y += 13.0;
    }
    if let Some(g) = &buyer.gstin {
        pen.text(MARGIN, y, Face::Bold, 9.0, INK, &format!("GSTIN: {g}"));
        y += 13.0;
    }
    for line in [buyer.email.as_deref(), buyer.phone.as_deref()]
        .into_iter()
        .flatten()
    {
        y = pen.para(MARGIN, y, 9.0, MUTED, line, half - 16.0);
    }

    let x2 = MARGIN + half + 8.0;
    let mut y2 = top;
    pen.text(x2, y2, Face::Bold, 7.5, MUTED, "PLACE OF SUPPLY");
    y2 += 15.0;
    let place = invoices::place_of_supply(d).unwrap_or_else(|| "Not stated".into());
    pen.text(x2, y2, Face::Regular, 10.0, INK, &place);
    y2 += 22.0;
    pen.text(x2, y2, Face::Bold, 7.5, MUTED, "PAYMENT");
    y2 += 15.0;
    let paid_on = p.settled_at.map(day).unwrap_or_default();
    let mut rows: Vec<(&str, String)> = vec![
        ("Transaction ID", p.txnid.clone()),
        (
            "Gateway reference",
            p.mihpayid.clone().unwrap_or_else(|| "N/A".into()),
        ),
        ("Paid on", paid_on),
    ];
    if let (true, Some(at)) = (credit, p.refunded_at) {
        rows.push(("Refunded on", day(at)));
    }
    for (label, value) in rows {
        pen.text(x2, y2, Face::Regular, 9.0, MUTED, label);
        pen.text(x2 + 92.0, y2, Face::Regular, 9.0, INK, &value);
        y2 += 13.0;
    }
    if let (Some(start), Some(end)) = (p.period_start, p.period_end) {
        pen.text(x2, y2, Face::Regular, 9.0, MUTED, "Service period");
        pen.text(
            x2 + 92.0,
            y2,
            Face::Regular,
            9.0,
            INK,
            &format!("{} – {}", day(start), day(end)),
        );
        y2 += 13.0;
    }
    y = y.max(y2) + 14.0;

    // The line and its tax.
    let amount_x = RIGHT - 8.0;
    let sac_x = RIGHT - 190.0;
    pen.shade(MARGIN, y, RIGHT - MARGIN, 22.0, SHADE);
    pen.text(MARGIN + 8.0, y + 14.5, Face::Bold, 8.5, INK, "Description");
    pen.text(sac_x, y + 14.5, Face::Bold, 8.5, INK, "SAC");
    pen.right(amount_x, y + 14.5, Face::Bold, 8.5, INK, "Taxable value");
    y += 38.0;
    let what = if credit {
        format!("Refund of {}", d.description)
    } else {
        d.description.clone()
    };
    let mut ly = y;
    for line in wrap(Face::Regular, 10.0, &what, sac_x - MARGIN - 20.0) {
        pen.text(MARGIN + 8.0, ly, Face::Regular, 10.0, INK, &line);
        ly += 14.0;
    }
    pen.text(
        MARGIN + 8.0,
        ly,
        Face::Regular,
        8.5,
        MUTED,
        &format!(
            "{} plan, {}",
            ctx.plan_name,
            if p.cycle == "annual" {
                "annual"
            } else {
                "monthly"
            }
        ),
    );
    pen.text(sac_x, y, Face::Regular, 10.0, INK, &d.sac);
    pen.right(amount_x, y, Face::Regular, 10.0, INK, &inr(d.taxable_paise));
    y = ly + 16.0;
    pen.rule(y, MARGIN, RIGHT, RULE, 0.8);
    y += 18.0;

    let rate = i64::from(d.gst_rate_bp);
    let mut sums: Vec<(String, i64)> = vec![("Taxable value".into(), d.taxable_paise)];
    if invoices::tax_type(d) == "intra" {
        sums.push((format!("CGST @ {}", percent(rate / 2)), d.cgst_paise));
        sums.push((format!("SGST @ {}", percent(rate - rate / 2)), d.sgst_paise));
    } else {
        sums.push((format!("IGST @ {}", percent(rate)), d.igst_paise));
    }
    let label_x = RIGHT - 230.0;
    for (label, value) in &sums {
        pen.text(label_x, y, Face::Regular, 9.5, MUTED, label);
        pen.right(amount_x, y, Face::Regular, 9.5, INK, &inr(*value));
        y += 16.0;
    }
    y += 2.0;
    pen.rule(y - 10.0, label_x, RIGHT, RULE, 0.8);
    pen.shade(label_x - 8.0, y - 6.0, RIGHT - label_x + 8.0, 24.0, SHADE);
    let total_label = if credit { "Total credited" } else { "Total" };
    pen.text(label_x, y + 10.5, Face::Bold, 11.0, INK, total_label);
    pen.right(
        amount_x,
        y + 10.5,
        Face::Bold,
        11.0,
        INK,
        &inr(d.total_paise),
    );
    y += 38.0;

    pen.text(MARGIN, y, Face::Bold, 7.5, MUTED, "AMOUNT IN WORDS");
    y += 14.0;
    y = pen.para(
        MARGIN,
        y,
        9.5,
        INK,
        &invoices::amount_in_words(d.total_paise),
        RIGHT - MARGIN,
    );
    y += 14.0;

    let mut notes = Vec::new();
    if credit {
        notes.push(format!(
            "This credit note reverses the tax invoice {} in full; the payment was refunded.",
            d.original_number.map(invoices::label).unwrap_or_default()
        ));
    }
    notes.push("Tax payable on reverse charge: No.".into());
    notes.push("This is a computer-generated document and needs no signature.".into());
    for note in notes {
        y = pen.para(MARGIN, y, 8.5, MUTED, &note, RIGHT - MARGIN);
    }
    pen.rule(PAGE_H - MARGIN + 8.0, MARGIN, RIGHT, RULE, 0.5);
    pen.text(
        MARGIN,
        PAGE_H - MARGIN + 22.0,
        Face::Regular,
        7.5,
        MUTED,
        &format!("{} · {title} {number}", d.seller_name),
    );

    surface.finish();
    page.finish();
    document.finish().map_err(|e| format!("{e:?}"))
}

impl crate::service::BillingService {
    /// The PDF of one of the owner's documents for the payment `txnid`: its
    /// tax invoice, or (with `credit_note`) the credit note of its refund.
    /// Answers a file name and the bytes.
    pub async fn document_pdf(
        &self,
        owner: &ca_auth::entities::user::Model,
        txnid: &str,
        credit_note: bool,
    ) -> Result<(String, Vec<u8>), crate::BillingError> {
        use sea_orm::EntityTrait;
        let (p, inv, note) = self.documents(owner, txnid).await?;
        let plan_name = crate::entities::plan::Entity::find_by_id(p.plan_id.clone())
            .one(&self.db)
            .await?
            .map_or_else(|| p.plan_id.clone(), |pl| pl.display_name);
        let (doc, other, prefix) = if credit_note {
            let note = note.ok_or(crate::BillingError::PaymentNotFound)?;
            (note, Some(inv), "credit-note")
        } else {
            (inv, note, "invoice")
        };
        let ctx = Context {
            payment: &p,
            plan_name: &plan_name,
            other: other.as_ref(),
        };
        let bytes = render(&doc, &ctx).map_err(|why| {
            tracing::error!(txnid = %p.txnid, %why, "rendering a PDF failed");
            crate::BillingError::Infra(ca_core::error::InfraError::Other(why))
        })?;
        Ok((
            format!("{prefix}-{}.pdf", invoices::label(doc.number)),
            bytes,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rupees_use_indian_grouping() {
        assert_eq!(inr(99_900), "₹999.00");
        assert_eq!(inr(100), "₹1.00");
        assert_eq!(inr(123_456_789), "₹12,34,567.89");
        assert_eq!(inr(1_000_000_000), "₹1,00,00,000.00");
        assert_eq!(inr(100_000), "₹1,000.00");
    }

    #[test]
    fn long_words_are_cut_to_the_line() {
        let lines = wrap(Face::Regular, 9.0, &"x".repeat(200), 100.0);
        assert!(lines.len() > 1);
        assert!(lines.iter().all(|l| width(Face::Regular, 9.0, l) <= 100.0));
    }
}
