//! The builtin assistant: answers from the campaign's knowledge base and
//! business information with passage retrieval, handles greetings, prices and
//! discounts, contact and "talk to a human" requests, and says so honestly when
//! it does not know. Deterministic and offline, so tests can assert its answers.

use super::retrieval::{Index, passages, terms};

/// What the campaign tells the assistant.
#[derive(Debug, Clone, Default)]
pub struct Knowledge<'a> {
    pub knowledge_base: &'a str,
    pub business_info: &'a str,
}

/// What the visitor's message is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Intent {
    Greeting,
    Thanks,
    Human,
    Contact,
    Pricing,
    Question,
}

/// A reply and whether it invites the visitor to leave their details.
#[derive(Debug, Clone, PartialEq)]
pub struct BuiltinReply {
    pub text: String,
    pub intent: Intent,
    /// The reply quotes the owner's own text.
    pub grounded: bool,
    /// The assistant asks for the visitor's email (the widget shows the lead form).
    pub asks_for_email: bool,
}

/// A passage must score at least this to count as an answer.
const MIN_SCORE: f64 = 0.9;
/// A second passage is added when it scores at least this share of the first.
/// Share of the message's words a passage must hold to answer regardless of score.
const MIN_COVERAGE: f64 = 0.5;
const SECOND_PASSAGE_SHARE: f64 = 0.8;

const GREETINGS: &[&str] = &[
    "hi",
    "hello",
    "hey",
    "namaste",
    "namaskar",
    "hii",
    "hola",
    "good morning",
    "good evening",
];
const THANKS: &[&str] = &["thank", "thanks", "thx", "dhanyavad", "shukriya"];
const HUMAN: &[&str] = &[
    "human",
    "real person",
    "agent",
    "representative",
    "talk to someone",
    "speak to someone",
    "customer care",
    "customer service",
    "call me",
    "callback",
    "call back",
];
const CONTACT: &[&str] = &[
    "contact",
    "phone",
    "number",
    "email",
    "whatsapp",
    "address",
    "reach you",
    "call you",
];
const PRICING: &[&str] = &[
    "price",
    "prices",
    "cost",
    "costs",
    "how much",
    "discount",
    "offer",
    "coupon",
    "deal",
    "sale",
    "cheap",
    "expensive",
    "rate",
    "₹",
    "rs",
    "rupee",
];

fn mentions(message: &str, words: &[&str]) -> bool {
    let lower = format!(" {} ", message.to_lowercase());
    words.iter().any(|w| {
        if w.chars().all(char::is_alphanumeric) {
            lower
                .split(|c: char| !c.is_alphanumeric())
                .any(|token| token == *w || (w.len() > 4 && token.starts_with(w)))
        } else {
            lower.contains(w)
        }
    })
}

/// The message's main intent.
pub fn intent(message: &str) -> Intent {
    if mentions(message, HUMAN) {
        return Intent::Human;
    }
    if mentions(message, CONTACT) {
        return Intent::Contact;
    }
    if mentions(message, PRICING) {
        return Intent::Pricing;
    }
    if mentions(message, THANKS) {
        return Intent::Thanks;
    }
    if mentions(message, GREETINGS) && terms(message).len() <= 1 {
        return Intent::Greeting;
    }
    Intent::Question
}

const ASK_EMAIL: &str = "Leave your email below and our team will get back to you personally.";

/// Answers `message` from `knowledge`.
pub fn reply(knowledge: &Knowledge<'_>, message: &str) -> BuiltinReply {
    let intent = intent(message);
    let mut all = passages(knowledge.knowledge_base);
    all.extend(passages(knowledge.business_info));
    let index = Index::new(all);

    match intent {
        Intent::Greeting => BuiltinReply {
            text: "Hi! 👋 How can I help you today? Ask me about our products, prices, delivery or returns.".into(),
            intent,
            grounded: false,
            asks_for_email: false,
        },
        Intent::Thanks => BuiltinReply {
            text: "You're welcome! Is there anything else I can help you with?".into(),
            intent,
            grounded: false,
            asks_for_email: false,
        },
        Intent::Human | Intent::Contact => {
            let contact = Index::new(passages(knowledge.business_info))
                .search(&format!("{message} contact phone email call whatsapp"))
                .into_iter()
                .next()
                .map(|h| h.passage.to_string());
            let lead = if intent == Intent::Human {
                "Of course, I'll get a person from our team to help you."
            } else {
                "Here's how to reach us."
            };
            let text = match &contact {
                Some(c) => format!("{lead} {c} {ASK_EMAIL}"),
                None => format!("{lead} {ASK_EMAIL}"),
            };
            BuiltinReply {
                text,
                intent,
                grounded: contact.is_some(),
                asks_for_email: true,
            }
        }
        Intent::Pricing | Intent::Question => {
            let hits = index.search(message);
            // BM25 scores shrink with a small knowledge base (one paragraph
            // gives every term a low idf), so a passage holding more than half
            // of the visitor's words also counts as an answer.
            let best = hits
                .first()
                .filter(|h| h.score >= MIN_SCORE || h.coverage > MIN_COVERAGE);
            match best {
                Some(top) => {
                    let mut text = top.passage.to_string();
                    if let Some(second) = hits.get(1)
                        && second.score >= top.score * SECOND_PASSAGE_SHARE
                    {
                        text.push(' ');
                        text.push_str(second.passage);
                    }
                    let asks = intent == Intent::Pricing;
                    if asks {
                        text.push_str(" Want an exclusive offer? Leave your email and I'll send it to you.");
                    }
                    BuiltinReply {
                        text,
                        intent,
                        grounded: true,
                        asks_for_email: asks,
                    }
                }
                None => BuiltinReply {
                    text: format!("I'm not sure about that, and I don't want to guess. {ASK_EMAIL}"),
                    intent,
                    grounded: false,
                    asks_for_email: true,
                },
            }
        }
    }
}
