//! The builtin assistant: answers from the campaign's knowledge base and
//! business information with the one or two passages that answer the
//! question, handles greetings, prices and discounts, contact and "talk to a
//! human" requests, and says so honestly when the owner's texts do not cover
//! a question. Deterministic and offline, so tests can assert its answers.

use super::language::words;
use super::passages::{Passage, passages};
use super::retrieval::{Hit, Index, together};

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

/// A passage an answer quoted, for the owner to see why.
#[derive(Debug, Clone, PartialEq)]
pub struct UsedPassage {
    /// The passage as the owner wrote it.
    pub text: String,
    /// The heading or FAQ question it sits under.
    pub context: Option<String>,
    /// How much of the question it answers, 0–1.
    pub score: f64,
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
    /// The visitor asked something the owner's texts do not answer: the
    /// honest "not sure" reply.
    pub unanswered: bool,
    /// The passages the reply quotes, in the order quoted.
    pub passages: Vec<UsedPassage>,
}

/// The best passage must answer at least this share of the question (its
/// score); below it the visitor gets the honest "not sure".
pub const ANSWER_THRESHOLD: f64 = 0.55;
/// A second passage of the same block joins the first when it scores at
/// least this share of it.
const SECOND_PASSAGE_SHARE: f64 = 0.85;
/// Two passages that each answer part of a question must answer this much
/// of it together (more than one passage must alone).
const PAIR_THRESHOLD: f64 = 0.75;
/// A passage joins an answer that leaves part of the question open (weak
/// words included) when the two answer at least this much more of it
/// together.
const PAIR_GAIN: f64 = 0.2;
/// The best passages among which such a pair is looked for.
const PAIR_CANDIDATES: usize = 6;
/// The business information's first line names the business when it is at
/// most this many words ("Kesar Handlooms, Jaipur.").
const NAME_WORDS: usize = 8;

const GREETINGS: &[&str] = &[
    "hi",
    "hii",
    "hiii",
    "hello",
    "helo",
    "hey",
    "namaste",
    "namaskar",
    "namaskaram",
    "vanakkam",
    "hola",
    "good morning",
    "good afternoon",
    "good evening",
    "there",
    "team",
];
const THANKS: &[&str] = &[
    "thank",
    "thanks",
    "thankyou",
    "thx",
    "ty",
    "dhanyavad",
    "dhanyawad",
    "shukriya",
];
const HUMAN: &[&str] = &[
    "human",
    "real person",
    "a person",
    "agent",
    "representative",
    "executive",
    "talk to someone",
    "speak to someone",
    "talk to somebody",
    "customer care",
    "customer service",
    "call me",
    "callback",
    "call back",
];
const CONTACT: &[&str] = &[
    "contact",
    "phone number",
    "phone no",
    "your phone",
    "contact number",
    "call us",
    "whatsapp",
    "reach you",
    "call you",
    "your email",
    "email id",
    "email address",
    "mail id",
    "mobile number",
    "your number",
    "helpline",
    "toll free",
];
const PRICING: &[&str] = &[
    "price",
    "prices",
    "pricing",
    "cost",
    "costs",
    "how much",
    "discount",
    "discounts",
    "offers",
    "coupon",
    "coupons",
    "deal",
    "deals",
    "sale",
    "cheap",
    "cheaper",
    "expensive",
    "rate",
    "rates",
    "₹",
    "rs",
    "rupee",
    "rupees",
    "fee",
    "fees",
];

/// The message's words, space-separated and padded, for phrase look-ups.
fn padded(message: &str) -> String {
    format!(" {} ", words(message).join(" "))
}

fn mentions(padded: &str, phrases: &[&str]) -> bool {
    phrases.iter().any(|p| padded.contains(&format!(" {p} ")))
}

/// The message's main intent.
pub fn intent(message: &str) -> Intent {
    let text = padded(message);
    if mentions(&text, HUMAN) {
        return Intent::Human;
    }
    if mentions(&text, CONTACT) {
        return Intent::Contact;
    }
    if mentions(&text, PRICING) {
        return Intent::Pricing;
    }
    let rest: Vec<String> = words(message)
        .into_iter()
        .filter(|w| !super::language::is_stopword(w))
        .filter(|w| !GREETINGS.contains(&w.as_str()) && !THANKS.contains(&w.as_str()))
        .filter(|w| {
            !matches!(
                w.as_str(),
                "good"
                    | "morning"
                    | "afternoon"
                    | "evening"
                    | "lot"
                    | "much"
                    | "ok"
                    | "okay"
                    | "great"
            )
        })
        .collect();
    if mentions(&text, THANKS) && rest.is_empty() {
        return Intent::Thanks;
    }
    if mentions(&text, GREETINGS) && rest.is_empty() {
        return Intent::Greeting;
    }
    Intent::Question
}

const ASK_EMAIL: &str = "Leave your email below and our team will get back to you personally.";
/// The honest reply to a question the owner's texts do not answer.
pub const NOT_SURE: &str = "I'm not sure about that, and I don't want to guess.";

fn ends_sentence(text: &str) -> bool {
    text.trim_end_matches(['"', '\'', ')'])
        .ends_with(['.', '!', '?'])
}

/// The quoted passages as one reply, in the owner's order: a bullet comes
/// after its heading ("Fees: …"), each passage ends a sentence.
fn compose(quoted: &[&Passage]) -> String {
    let mut out = String::new();
    let mut last_heading: Option<&str> = None;
    for p in quoted {
        let mut text = p.text.trim().to_string();
        if p.item
            && let Some(h) = p.heading.as_deref()
            && last_heading != Some(h)
            && !text.to_lowercase().starts_with(&h.to_lowercase())
        {
            let joint = if text.contains(':') { " – " } else { ": " };
            text = format!("{h}{joint}{text}");
        }
        if !ends_sentence(&text) {
            text.push('.');
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(&text);
        last_heading = p.heading.as_deref();
    }
    out
}

fn quote(passage: &Passage, score: f64) -> UsedPassage {
    UsedPassage {
        text: passage.text.clone(),
        context: passage.context().map(str::to_string),
        score: (score * 100.0).round() / 100.0,
    }
}

/// The best passage and, when it scores nearly as well, a second one; or,
/// for a question about two things, the two passages that answer it
/// together.
fn best_two<'a, 'h>(hits: &'h [Hit<'a>]) -> Vec<&'h Hit<'a>> {
    let answers = hits.iter().find(|h| h.score >= ANSWER_THRESHOLD);
    let mut chosen = if let Some(top) = answers {
        let mut chosen = vec![top];
        // The next best of the same paragraph, list or FAQ answer: the rest
        // of the answer, not another topic that shares a word.
        if let Some(second) = hits
            .iter()
            .find(|h| h.position != top.position && h.passage.block == top.passage.block)
            .filter(|h| {
                h.score >= (top.score * SECOND_PASSAGE_SHARE).max(ANSWER_THRESHOLD)
                    && h.completeness >= top.completeness * SECOND_PASSAGE_SHARE
            })
        {
            chosen.push(second);
        } else if let Some(rest) = hits
            .iter()
            .take(PAIR_CANDIDATES)
            .filter(|h| h.position != top.position)
            .map(|h| (together(top, h), h))
            .filter(|((score, complete), _)| {
                *score >= PAIR_THRESHOLD && *complete >= top.completeness + PAIR_GAIN
            })
            .max_by(|x, y| x.0.1.total_cmp(&y.0.1))
        {
            // The best passage leaves part of the question open; another answers it.
            chosen.push(rest.1);
        }
        chosen
    } else {
        hits.iter()
            .take(PAIR_CANDIDATES)
            .flat_map(|a| hits.iter().take(PAIR_CANDIDATES).map(move |b| (a, b)))
            .filter(|(a, b)| a.position < b.position)
            .map(|(a, b)| (together(a, b).0, a, b))
            .filter(|(score, a, b)| *score >= PAIR_THRESHOLD && *score > a.score.max(b.score))
            .max_by(|x, y| x.0.total_cmp(&y.0))
            .map(|(_, a, b)| vec![a, b])
            .unwrap_or_default()
    };
    chosen.sort_by_key(|h| h.position);
    chosen
}

/// A passage that tells how to reach the business: a phone number, an
/// email address or WhatsApp.
fn is_contact(p: &Passage) -> bool {
    let digits = p
        .text
        .split(|c: char| !(c.is_ascii_digit() || c == ' ' || c == '-' || c == '+'))
        .any(|run| run.chars().filter(char::is_ascii_digit).count() >= 8);
    digits || p.text.contains('@') || p.text.to_lowercase().contains("whatsapp")
}

/// Answers `message` from `knowledge`.
pub fn reply(knowledge: &Knowledge<'_>, message: &str) -> BuiltinReply {
    let intent = intent(message);
    let plain = |text: &str, asks_for_email: bool| BuiltinReply {
        text: text.into(),
        intent,
        grounded: false,
        asks_for_email,
        unanswered: false,
        passages: Vec::new(),
    };
    match intent {
        Intent::Greeting => {
            return plain(
                "Hi! 👋 How can I help you today? Ask me about our products, prices, delivery or returns.",
                false,
            );
        }
        Intent::Thanks => {
            return plain(
                "You're welcome! Is there anything else I can help you with?",
                false,
            );
        }
        _ => {}
    }
    let mut all = passages(knowledge.knowledge_base, 0);
    let first_info_block = all.last().map_or(0, |p| p.block + 1);
    let info = passages(knowledge.business_info, first_info_block);
    let name = info
        .first()
        .map(|p| p.text.clone())
        .filter(|n| n.split_whitespace().count() <= NAME_WORDS)
        .unwrap_or_default();
    all.extend(info);
    let index = Index::new(all).named(&name);

    match intent {
        Intent::Human | Intent::Contact => {
            let hits = index.search(&format!("{message} contact phone call email whatsapp"));
            // The contact passage that best fits the question; else the
            // business information's first one, else the knowledge base's.
            let quoted = hits
                .iter()
                .find(|h| is_contact(h.passage))
                .map(|h| (h.passage, h.score))
                .or_else(|| {
                    index
                        .passages()
                        .iter()
                        .filter(|p| is_contact(p))
                        .min_by_key(|p| p.block < first_info_block)
                        .map(|p| (p, 0.0))
                });
            let lead = if intent == Intent::Human {
                "Of course, I'll get a person from our team to help you."
            } else {
                "Here's how to reach us."
            };
            match quoted {
                Some((passage, score)) => BuiltinReply {
                    text: format!("{lead} {} {ASK_EMAIL}", compose(&[passage])),
                    intent,
                    grounded: true,
                    asks_for_email: true,
                    unanswered: false,
                    passages: vec![quote(passage, score)],
                },
                None => plain(&format!("{lead} {ASK_EMAIL}"), true),
            }
        }
        // Questions and prices (greetings and thanks were answered above).
        _ => {
            let hits = index.search(message);
            let chosen = best_two(&hits);
            if chosen.is_empty() {
                return BuiltinReply {
                    text: format!("{NOT_SURE} {ASK_EMAIL}"),
                    intent,
                    grounded: false,
                    asks_for_email: true,
                    unanswered: true,
                    passages: Vec::new(),
                };
            }
            let quoted: Vec<&Passage> = chosen.iter().map(|h| h.passage).collect();
            let mut text = compose(&quoted);
            let asks = intent == Intent::Pricing;
            if asks {
                text.push_str(
                    " Want an exclusive offer? Leave your email and I'll send it to you.",
                );
            }
            BuiltinReply {
                text,
                intent,
                grounded: true,
                asks_for_email: asks,
                unanswered: false,
                passages: chosen.iter().map(|h| quote(h.passage, h.score)).collect(),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn intents() {
        assert_eq!(intent("hello!"), Intent::Greeting);
        assert_eq!(intent("Namaste"), Intent::Greeting);
        assert_eq!(intent("hi there, good morning"), Intent::Greeting);
        assert_eq!(intent("thanks a lot"), Intent::Thanks);
        assert_eq!(intent("hi, do you ship to Pune?"), Intent::Question);
        assert_eq!(intent("I want to talk to a human"), Intent::Human);
        assert_eq!(intent("whats your whatsapp number"), Intent::Contact);
        assert_eq!(intent("How much is a silk saree?"), Intent::Pricing);
        assert_eq!(
            intent("What is the number of days for delivery?"),
            Intent::Question,
            "a number is not a phone number"
        );
        assert_eq!(intent("Do you offer teeth whitening?"), Intent::Question);
    }

    #[test]
    fn bullets_are_quoted_after_their_heading_once() {
        let fees = passages("Fees\n- Full course: ₹45,000\n- EMI over 6 months", 0);
        let quoted: Vec<&Passage> = fees.iter().collect();
        assert_eq!(
            compose(&quoted),
            "Fees – Full course: ₹45,000. EMI over 6 months."
        );
        let schedule = passages("Schedule\n- Weekends, 10 am to 1 pm", 0);
        assert_eq!(
            compose(&[&schedule[0]]),
            "Schedule: Weekends, 10 am to 1 pm."
        );
    }
}
