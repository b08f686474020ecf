//! The demo owner's sample month: a live campaign for a made-up Indian online
//! shop, its visitors, conversations, leads and purchases, and a paid Basic
//! plan with its invoice, spread over the last 30 days so every chart and
//! period filter of the dashboard has something to show.
//!
//! Everything is made through the steps the product itself takes when a
//! visitor browses, chats, leaves details or buys (the widget's calls, the
//! owner's status changes, the demo payment), each dated in the past, so the
//! figures follow the same rules as real ones. It runs only on a new
//! database and never while real payments are configured. Nothing of it
//! leaves the server: the assistant is the builtin one (no model is asked),
//! the demo owner has no webhooks, and the lead emails it would cause are
//! marked handled without being sent.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, bail};
use chrono::{DateTime, Utc};
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};

use ca_auth::entities::user;
use ca_campaigns::settings::{CampaignSettings, ConversionForm, FormField};
use ca_conversations::dto::{MessageIn, StartIn, SubmitIn, UserContext};
use ca_conversations::{ConversationService, Limits};
use ca_core::rate_limit::RateLimiter;
use ca_tracking::dto::{EventIn, EventKind, PurchaseIn};
use ca_tracking::writer::{EventWriter, WriterConfig};
use ca_tracking::{TrackingConfig, TrackingService};

use crate::state::AppState;

/// The sample shop's address: a reserved example domain, so nothing real is
/// ever named or reached.
pub const SITE: &str = "https://demo-shop.example.com";
/// The campaign's name: says it is demo data.
pub const CAMPAIGN_NAME: &str = "Demo: Exit offer — Kesar Handlooms";
/// The sample customers' email domain.
pub const EMAIL_DOMAIN: &str = "example.com";

/// Conversations that left an email (each one a customer).
pub const CONVERTED: usize = 60;
/// Conversations the visitor closed without leaving details.
pub const DISMISSED: usize = 12;
/// Conversations still going on (the last half hour).
pub const ACTIVE: usize = 6;
/// Customers who bought (status `customer`, revenue attributed).
pub const BUYERS: usize = 16;
/// Customers the owner marked `prospect`.
pub const PROSPECTS: usize = 12;
/// Customers the owner marked `churned`.
pub const CHURNED: usize = 8;
/// Customers left as `lead`.
pub const LEADS: usize = CONVERTED - BUYERS - PROSPECTS - CHURNED;

const BUSINESS_INFO: &str = "Kesar Handlooms is an online shop from Jaipur selling handwoven \
sarees, kurtas, dupattas and home linen made by weaver families in Rajasthan and Varanasi. \
Customer care: care@demo-shop.example.com, Monday to Saturday, 10 am to 7 pm IST.";

const KNOWLEDGE_BASE: &str = "\
# Prices
Cotton sarees cost ₹1,499 to ₹3,999. Banarasi silk sarees cost ₹6,500 to ₹18,000.
Kurtas cost ₹899 to ₹2,499. Dupattas cost ₹599 to ₹1,299.
Cotton bedsheet sets with two pillow covers cost ₹1,799.

# Shipping
Shipping is free on orders above ₹999; below that it is ₹79.
Orders leave our Jaipur workshop within 2 working days and reach metro cities in 3 to 5 days.
We ship to every PIN code in India. We do not ship outside India yet.

# Payment
We accept UPI, cards, net banking and cash on delivery (₹49 extra, orders up to ₹10,000).

# Returns
Unworn items with tags can be returned within 7 days of delivery for a full refund to the original payment method.
Refunds reach your account within 5 to 7 working days after we receive the parcel.

# Care
Wash cotton sarees in cold water with mild detergent and dry them in shade.
Banarasi silk needs dry cleaning only.

# Offers
First order: 10% off with the code WELCOME10 (leave your email in the chat to get it).
Festive sale: 15% off all silk sarees until Diwali.

Q: Are the sarees handwoven?
A: Yes, every saree is woven on a handloom and carries the Handloom Mark.

Q: Does the saree come with a blouse piece?
A: Yes, all our sarees come with an unstitched blouse piece of 0.8 metres.

Q: Can I get a saree stitched or fall-pico done?
A: Yes, fall and pico cost ₹150 and add one day to dispatch.
";

/// What visitors ask, in the order a conversation uses them.
const QUESTIONS: [&str; 10] = [
    "How much do the Banarasi silk sarees cost?",
    "Is shipping free?",
    "Can I return a saree if the colour is different?",
    "Do you have cash on delivery?",
    "Do the sarees come with a blouse piece?",
    "How long does delivery take to Bengaluru?",
    "Is there a discount on my first order?",
    "How should I wash a cotton saree?",
    "Are these really handwoven?",
    "Can you do fall and pico?",
];

const FIRST_NAMES: [&str; 20] = [
    "Aarav",
    "Priya",
    "Rohan",
    "Ananya",
    "Vikram",
    "Sneha",
    "Arjun",
    "Kavya",
    "Rahul",
    "Meera",
    "Aditya",
    "Isha",
    "Karan",
    "Pooja",
    "Siddharth",
    "Neha",
    "Varun",
    "Divya",
    "Nikhil",
    "Riya",
];
const LAST_NAMES: [&str; 12] = [
    "Sharma", "Iyer", "Patel", "Reddy", "Nair", "Gupta", "Menon", "Singh", "Joshi", "Rao",
    "Kulkarni", "Das",
];

/// The pages a visitor looks at.
const PAGES: [&str; 6] = [
    "/collections/banarasi-silk",
    "/collections/cotton-sarees",
    "/products/indigo-kota-doria-saree",
    "/collections/kurtas",
    "/products/mustard-chanderi-dupatta",
    "/cart",
];

/// What was made, for the caller to print or check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DemoSummary {
    pub campaign_id: String,
    pub conversations: usize,
    pub customers_by_status: BTreeMap<&'static str, usize>,
    pub purchases: usize,
    pub revenue_paise: i64,
}

/// The sample visitor number `i`'s role.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    Converted,
    Dismissed,
    Active,
}

fn role(i: usize) -> Role {
    if i < CONVERTED {
        Role::Converted
    } else if i < CONVERTED + DISMISSED {
        Role::Dismissed
    } else {
        Role::Active
    }
}

/// When visitor `i` arrives: the converted and dismissed ones spread over
/// the last 30 days (a few today, more in recent weeks), the active ones in
/// the last half hour.
fn arrival(i: usize, now: DateTime<Utc>) -> DateTime<Utc> {
    let minutes = |m: i64| chrono::Duration::minutes(m);
    match role(i) {
        Role::Active => now - minutes(4 + 4 * (i - CONVERTED - DISMISSED) as i64),
        _ => {
            // Days ago, 0..=29, walking the month in a scattered order, at
            // least two hours before now.
            let days = (i as i64 * 17) % 30;
            let hours = 2 + (i as i64 * 7) % 13;
            now - chrono::Duration::days(days)
                - chrono::Duration::hours(hours)
                - minutes((i as i64 * 13) % 60)
        }
    }
}

/// How many questions visitor `i` asks: every fifth conversation is long.
fn question_count(i: usize) -> usize {
    if i.is_multiple_of(5) { 6 } else { 1 + i % 3 }
}

fn name_of(i: usize) -> (String, String) {
    let first = FIRST_NAMES[i % FIRST_NAMES.len()];
    let last = LAST_NAMES[(i * 7 + i / FIRST_NAMES.len()) % LAST_NAMES.len()];
    let email = format!(
        "demo.{}.{}{}@{EMAIL_DOMAIN}",
        first.to_lowercase(),
        last.to_lowercase(),
        i
    );
    (format!("{first} {last}"), email)
}

/// The campaign's settings: the default popup with the shop's knowledge
/// base and a first-order offer form.
pub(crate) fn settings() -> CampaignSettings {
    let mut settings = CampaignSettings::default();
    settings.ai_settings.business_info = BUSINESS_INFO.into();
    settings.ai_settings.knowledge_base = KNOWLEDGE_BASE.into();
    settings.ai_settings.initial_message =
        "Namaste! Before you go: can I help you find a saree or answer a question?".into();
    let field =
        |name: &str, label: &str, kind: &str, required: bool, placeholder: &str| FormField {
            name: name.into(),
            label: label.into(),
            field_type: kind.into(),
            required,
            placeholder: placeholder.into(),
        };
    settings.forms.conversion_forms = vec![ConversionForm {
        id: "first-order-offer".into(),
        name: "First order offer".into(),
        form_type: "coupon".into(),
        title: "Get 10% off your first order".into(),
        subtitle: "We'll email you the code WELCOME10".into(),
        button_text: "Send my code".into(),
        success_message: "Done! Your code WELCOME10 is on its way.".into(),
        follow_up_message: String::new(),
        fields: vec![
            field("name", "Name", "text", false, "Your name"),
            field("email", "Email", "email", true, "you@example.com"),
            field("phone", "Phone", "phone", false, "+91 98765 43210"),
        ],
        trigger_keywords: vec!["discount".into(), "offer".into(), "coupon".into()],
        is_default: true,
        active: true,
    }];
    settings
}

/// The widget's side of the product, as the demo visitors use it: the
/// builtin assistant (no model is asked), and limits that let one process
/// play a month of visitors at once.
fn widget_services(state: &AppState) -> anyhow::Result<(ConversationService, TrackingService)> {
    let limiter = Arc::new(RateLimiter::memory());
    let assistant = ca_conversations::assistant::from_config(None, state.config.llm_history_tokens)
        .map_err(|e| anyhow::anyhow!("the builtin assistant: {e}"))?;
    let conversations = ConversationService::new(
        state.db.clone(),
        assistant,
        limiter.clone(),
        Limits {
            message_max_chars: state.config.widget_message_max_chars,
            messages_per_conversation: state.config.widget_messages_per_conversation,
            ip_per_minute: 100_000,
            campaign_per_minute: 100_000,
            idle: Duration::from_secs(state.config.conversation_idle_minutes * 60),
            campaign_cache: Duration::from_secs(0),
        },
    );
    let tracking = TrackingService::new(
        state.db.clone(),
        limiter,
        EventWriter::start(state.db.clone(), WriterConfig::default()),
        conversations.clone(),
        TrackingConfig {
            public_url: state.config.public_url(),
            config_cache: Duration::from_secs(0),
            attribution_days: state.config.attribution_days,
            events_ip_per_minute: 100_000,
            events_campaign_per_minute: 100_000,
            new_visitors_per_address: 100_000,
            address_secret: "demo-data".into(),
        },
    );
    Ok((conversations, tracking))
}

/// Gives `owner` the sample month ending at `now`. The caller makes sure
/// the database was new (this owner has nothing yet).
pub async fn seed(
    state: &AppState,
    owner: &user::Model,
    now: DateTime<Utc>,
) -> anyhow::Result<DemoSummary> {
    if !state.billing.demo_enabled() {
        bail!("demo data is never made while real payments (CA_PAYU_KEY) are configured");
    }
    let days = chrono::Duration::days;
    let hours = chrono::Duration::hours;
    let seconds = chrono::Duration::seconds;
    // Made-up leads: nobody is emailed about them. The owner's lead emails
    // are off while they are made (a server already running on this
    // database then sends none either) and back as they were afterwards.
    let notify = owner.email_notifications;
    state
        .auth
        .update_me(
            owner.clone(),
            ca_auth::dto::UpdateMeIn {
                email_notifications: Some(false),
                ..Default::default()
            },
        )
        .await
        .map_err(|e| anyhow::anyhow!("pausing the demo owner's lead emails: {e}"))?;
    // The owner subscribed to Basic a month ago, then set up the campaign.
    let owner = state
        .billing
        .complete_demo_payment_at(owner, "basic", now - days(29) - hours(3))
        .await
        .map_err(|e| anyhow::anyhow!("the demo owner's Basic plan: {e}"))?;
    let campaign = state
        .campaigns
        .create_at(
            &owner,
            ca_campaigns::dto::CampaignIn {
                name: CAMPAIGN_NAME.into(),
                website_url: SITE.into(),
                is_active: Some(true),
                settings: settings(),
            },
            now - days(29) - hours(2),
        )
        .await
        .map_err(|e| anyhow::anyhow!("the demo campaign: {e}"))?;
    let (conversations, tracking) = widget_services(state)?;
    let origin = Some(SITE);
    let total = CONVERTED + DISMISSED + ACTIVE;
    let mut buyers = Vec::new();
    let mut converted = Vec::new();
    let mut revenue_paise = 0i64;
    let mut last_lead = now - days(30);
    // In the order the visitors came, so the campaign's latest conversion is
    // the latest lead.
    let mut order: Vec<usize> = (0..total).collect();
    order.sort_by_key(|i| arrival(*i, now));
    for i in order {
        let visitor = format!("demo-visitor-{i:03}");
        let ip = format!("198.51.100.{}", 1 + i % 250);
        let start = arrival(i, now);
        let event = |kind: EventKind, secs: Option<u64>, new_session: bool| EventIn {
            campaign_id: campaign.id.clone(),
            visitor_id: visitor.clone(),
            event_type: Some(kind),
            seconds: secs.map(serde_json::Value::from),
            new_session: Some(new_session),
            variant_id: None,
        };
        // Browsing before the exit intent: a few pages, then the popup.
        let pages = 2 + i % 5;
        for p in 0..pages {
            let at = start - seconds(60 * (pages - p) as i64);
            tracking
                .event(event(EventKind::Pageview, None, false), origin, &ip, at)
                .await
                .with_context(|| format!("page view of {visitor}"))?;
        }
        tracking
            .event(
                event(
                    EventKind::Engagement,
                    Some(45 + (i as u64 * 37) % 500),
                    true,
                ),
                origin,
                &ip,
                start - seconds(5),
            )
            .await
            .with_context(|| format!("engaged time of {visitor}"))?;
        tracking
            .event(
                event(EventKind::Impression, None, false),
                origin,
                &ip,
                start,
            )
            .await
            .with_context(|| format!("impression for {visitor}"))?;
        tracking.writer().flush().await;
        let devices = ["desktop", "mobile", "tablet"];
        let started = conversations
            .start(
                StartIn {
                    campaign_id: campaign.id.clone(),
                    visitor_id: visitor.clone(),
                    session_id: Some(format!("demo-session-{i:03}")),
                    user_context: UserContext {
                        device_type: Some(devices[i % 3].into()),
                        current_url: Some(format!("{SITE}{}", PAGES[i % PAGES.len()])),
                    },
                    variant_id: None,
                },
                &ip,
                start + seconds(2),
            )
            .await
            .map_err(|e| anyhow::anyhow!("conversation of {visitor}: {e}"))?;
        let id = started.conversation_id;
        let mut at = start + seconds(2);
        for q in 0..question_count(i) {
            at += seconds(20 + ((i + q) as i64 * 11) % 40);
            let turn = conversations
                .begin(
                    &id,
                    MessageIn {
                        message: QUESTIONS[(i + q * 3) % QUESTIONS.len()].into(),
                    },
                    &ip,
                    at,
                )
                .await
                .map_err(|e| anyhow::anyhow!("question of {visitor}: {e}"))?;
            at += seconds(2);
            conversations
                .complete_at(turn, &mut |_| {}, Some(at))
                .await
                .map_err(|e| anyhow::anyhow!("answer to {visitor}: {e}"))?;
        }
        at += seconds(30);
        match role(i) {
            Role::Converted => {
                let (name, email) = name_of(i);
                let mut values = BTreeMap::new();
                values.insert("email".to_string(), email.clone());
                if i % 3 != 2 {
                    values.insert("name".to_string(), name);
                }
                if i % 2 == 0 {
                    values.insert(
                        "phone".to_string(),
                        format!("+91 98{:08}", 10_000 + i * 7919),
                    );
                }
                tracking
                    .submit_form(
                        &id,
                        SubmitIn {
                            form_id: Some("first-order-offer".into()),
                            values,
                            website: None,
                        },
                        &ip,
                        None,
                        at,
                    )
                    .await
                    .map_err(|e| anyhow::anyhow!("lead of {visitor}: {e}"))?;
                last_lead = last_lead.max(at);
                converted.push((i, email, at));
                // The visitor closes the popup and browses on as a customer.
                at += seconds(20);
                conversations
                    .dismiss(&id, &ip, at)
                    .await
                    .map_err(|e| anyhow::anyhow!("closing {visitor}'s popup: {e}"))?;
                let more = 1 + i % 4;
                for p in 0..more {
                    tracking
                        .event(
                            event(EventKind::Pageview, None, false),
                            origin,
                            &ip,
                            at + seconds(40 * (p as i64 + 1)),
                        )
                        .await
                        .with_context(|| format!("page view of {visitor}"))?;
                }
                tracking
                    .event(
                        event(
                            EventKind::Engagement,
                            Some(60 + (i as u64 * 53) % 900),
                            false,
                        ),
                        origin,
                        &ip,
                        at + seconds(40 * (more as i64 + 1)),
                    )
                    .await
                    .with_context(|| format!("engaged time of {visitor}"))?;
            }
            Role::Dismissed => {
                conversations
                    .dismiss(&id, &ip, at)
                    .await
                    .map_err(|e| anyhow::anyhow!("closing {visitor}'s popup: {e}"))?;
            }
            Role::Active => {}
        }
        tracking.writer().flush().await;
    }
    // Purchases: every third customer of the first 48 bought within a day
    // of leaving their email (a saree, a kurta, a bedsheet set…), the last
    // order still inside the month.
    // Rupees.
    let prices: [i64; 8] = [1_499, 3_999, 899, 6_500, 2_499, 1_799, 12_500, 1_299];
    for (n, (i, _, lead_at)) in converted
        .iter()
        .filter(|(i, _, _)| i % 3 == 0)
        .take(BUYERS)
        .enumerate()
    {
        let at =
            (*lead_at + hours(1 + (n as i64 * 5) % 20)).min(now - chrono::Duration::minutes(30));
        let value = prices[n % prices.len()] * 100;
        let out = tracking
            .purchase(
                PurchaseIn {
                    campaign_id: campaign.id.clone(),
                    visitor_id: format!("demo-visitor-{i:03}"),
                    value: Some(serde_json::Value::String(format!(
                        "{}.{:02}",
                        value / 100,
                        value % 100
                    ))),
                    currency: Some("INR".into()),
                    order_id: format!("DEMO-{}", 10_001 + n),
                    variant_id: None,
                },
                origin,
                &format!("198.51.100.{}", 1 + i % 250),
                at,
            )
            .await
            .map_err(|e| anyhow::anyhow!("purchase {n}: {e}"))?;
        if out.attributed_campaign_id.as_deref() != Some(campaign.id.as_str()) || out.held {
            bail!("the demo purchase {n} was not attributed to the demo campaign");
        }
        buyers.push(*i);
        revenue_paise += value;
    }
    // The owner's follow-up: some leads became prospects, some went cold.
    let rest: Vec<&(usize, String, DateTime<Utc>)> = converted
        .iter()
        .filter(|(i, _, _)| !buyers.contains(i))
        .collect();
    for (n, (_, email, _)) in rest.iter().enumerate() {
        let status = if n % 3 == 0 && n / 3 < PROSPECTS {
            "prospect"
        } else if n % 3 == 1 && n / 3 < CHURNED {
            "churned"
        } else {
            continue;
        };
        let customer = ca_customers::entities::customer::Entity::find()
            .filter(ca_customers::entities::customer::Column::OwnerId.eq(&owner.id))
            .filter(ca_customers::entities::customer::Column::Email.eq(email.as_str()))
            .one(&state.db)
            .await?
            .with_context(|| format!("the customer {email}"))?;
        state
            .customers
            .update(
                &owner.id,
                &customer.id,
                ca_customers::dto::CustomerUpdate {
                    conversion_status: Some(status.into()),
                    ..Default::default()
                },
            )
            .await
            .map_err(|e| anyhow::anyhow!("status of {email}: {e}"))?;
    }
    tracking.writer().flush().await;
    ca_customers::notifications::discard_waiting(&state.db, &owner.id, last_lead).await?;
    let owner = ca_auth::entities::user::Entity::find_by_id(owner.id.clone())
        .one(&state.db)
        .await?
        .context("the demo owner")?;
    state
        .auth
        .update_me(
            owner,
            ca_auth::dto::UpdateMeIn {
                email_notifications: Some(notify),
                ..Default::default()
            },
        )
        .await
        .map_err(|e| anyhow::anyhow!("restoring the demo owner's lead emails: {e}"))?;
    let mut customers_by_status = BTreeMap::new();
    customers_by_status.insert("customer", BUYERS);
    customers_by_status.insert("prospect", PROSPECTS);
    customers_by_status.insert("churned", CHURNED);
    customers_by_status.insert("lead", LEADS);
    Ok(DemoSummary {
        campaign_id: campaign.id,
        conversations: total,
        customers_by_status,
        purchases: buyers.len(),
        revenue_paise,
    })
}
