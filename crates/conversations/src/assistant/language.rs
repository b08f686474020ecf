//! How a visitor's words meet the owner's: lower-case words with thousands
//! separators dropped, Snowball (Porter 2) stems, stopwords, the words that
//! only ever help a match, shoppers' synonyms, the kind of answer a question
//! asks for ("how long" wants a duration), and one-typo matches.
//!
//! Everything is expressed as *terms*: a word's stem, or a concept shared by
//! synonyms (written with a leading `#`, which no word can start with).

use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;

use rust_stemmers::{Algorithm, Stemmer};

static STEMMER: LazyLock<Stemmer> = LazyLock::new(|| Stemmer::create(Algorithm::English));

/// The Snowball English stem of a lower-case word.
pub fn stem(word: &str) -> String {
    // Snowball makes "installment" and "install" one word; they are not.
    if word.starts_with("installment") || word.starts_with("instalment") {
        return "instalment".into();
    }
    // "TVs", "ACs", "PCs": an acronym's plural, which Snowball leaves alone.
    if let Some(acronym) = word.strip_suffix('s')
        && (2..=3).contains(&acronym.len())
        && acronym
            .chars()
            .all(|c| c.is_ascii_alphabetic() && !"aeiouy".contains(c))
    {
        return acronym.to_string();
    }
    STEMMER.stem(word).into_owned()
}

/// Lower-case words of `text`: runs of letters, or of digits (so `10am` is
/// `10` and `am`, and `₹1,499` is `₹` and `1499`). The rupee sign is kept as
/// a word of its own so prices can be recognised.
pub fn words(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut current = String::new();
    let mut digits = false;
    for (i, &c) in chars.iter().enumerate() {
        let between_digits = i > 0
            && chars[i - 1].is_ascii_digit()
            && chars.get(i + 1).is_some_and(char::is_ascii_digit);
        if c == ',' && between_digits {
            continue;
        }
        if c.is_alphanumeric() {
            let is_digit = c.is_ascii_digit();
            if !current.is_empty() && is_digit != digits {
                out.push(std::mem::take(&mut current));
            }
            digits = is_digit;
            current.extend(c.to_lowercase());
        } else {
            if !current.is_empty() {
                out.push(std::mem::take(&mut current));
            }
            if c == '₹' {
                out.push("₹".into());
            }
        }
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

/// Words that carry no topic: dropped from questions and passages alike.
const STOPWORDS: &[&str] = &[
    "a", "about", "after", "all", "also", "am", "an", "and", "any", "anything", "are", "aren",
    "as", "at", "b", "be", "been", "before", "being", "but", "by", "c", "can", "could", "d", "did",
    "didn", "do", "does", "doesn", "doing", "don", "e", "each", "else", "even", "every", "for",
    "from", "g", "had", "has", "have", "he", "hello", "her", "here", "hey", "hi", "him", "his",
    "how", "i", "if", "in", "into", "is", "isn", "it", "its", "just", "k", "kindly", "let", "ll",
    "m", "may", "me", "might", "mine", "more", "most", "must", "my", "n", "no", "not", "now", "o",
    "of", "on", "one", "only", "or", "other", "our", "ours", "out", "p", "please", "pls", "plz",
    "r", "re", "s", "shall", "she", "should", "so", "some", "such", "t", "than", "that", "the",
    "their", "them", "then", "there", "these", "they", "this", "those", "to", "too", "u", "up",
    "us", "ve", "very", "was", "we", "were", "what", "whats", "which", "who", "whom", "whose",
    "why", "will", "with", "won", "would", "x", "y", "yes", "you", "your", "yours", "z",
];

/// Words that say little about what is asked ("policy", "available",
/// "order"): they count for a passage that holds them and never against one
/// that does not, so "What is your return policy?" is about returns.
const WEAK: &[&str] = &[
    "accept",
    "actually",
    "allow",
    "allowed",
    "availability",
    "available",
    "best",
    "buy",
    "bought",
    "come",
    "currently",
    "detail",
    "details",
    "exact",
    "exactly",
    "get",
    "give",
    "go",
    "good",
    "help",
    "info",
    "information",
    "item",
    "items",
    "kind",
    "know",
    "like",
    "long",
    "make",
    "many",
    "much",
    "need",
    "normally",
    "ok",
    "okay",
    "option",
    "options",
    "order",
    "orders",
    "policies",
    "policy",
    "possible",
    "process",
    "procedure",
    "product",
    "products",
    "provide",
    "purchase",
    "really",
    "sell",
    "still",
    "sure",
    "take",
    "takes",
    "taken",
    "tell",
    "thing",
    "things",
    "type",
    "usual",
    "usually",
    "want",
    "way",
    "work",
    "today",
    "tonight",
    "tomorrow",
    "sir",
    "madam",
    "ji",
    "bhai",
    "use",
    "using",
    "offer",
    "offers",
    "offered",
    "discount",
    "discounts",
    "coupon",
    "coupons",
    "sale",
    "deal",
    "deals",
    "promo",
    "cashback",
    "where",
    "when",
    "time",
    "fast",
    "quick",
    "quickly",
    "soon",
    "day",
    "days",
    "week",
    "weeks",
    "month",
    "months",
    "hour",
    "hours",
    "minute",
    "minutes",
    "year",
    "years",
    "pay",
    "paying",
    "paid",
    "payment",
    "payments",
    "limit",
    "limits",
    "version",
    "versions",
    "app",
    "apps",
    "application",
    "support",
    "facility",
    "facilities",
    "safe",
    "secure",
    "compliant",
    "suitable",
    "home",
    "house",
    "question",
    "questions",
    "query",
    "doubt",
];

/// Shoppers' synonyms: each word or phrase of a group meets every other one.
const CONCEPTS: &[(&str, &[&str])] = &[
    (
        "#ship",
        &[
            "ship",
            "shipping",
            "shipped",
            "shipment",
            "delivery",
            "deliveries",
            "deliver",
            "delivered",
            "delivering",
            "arrive",
            "arrival",
            "arrives",
            "dispatch",
            "dispatched",
            "courier",
        ],
    ),
    (
        "#return",
        &[
            "return",
            "returns",
            "returned",
            "refund",
            "refunds",
            "refunded",
            "money back",
            "exchange",
            "exchanged",
            "replace",
            "replaced",
            "replacement",
        ],
    ),
    (
        "#price",
        &[
            "price",
            "prices",
            "priced",
            "pricing",
            "cost",
            "costs",
            "fee",
            "fees",
            "charge",
            "charges",
            "charged",
            "rate",
            "rates",
            "tariff",
            "amount",
            "expensive",
            "cheap",
            "rupee",
            "rupees",
            "rs",
            "inr",
        ],
    ),
    (
        "#cod",
        &[
            "cod",
            "cash on delivery",
            "pay on delivery",
            "pay at delivery",
            "pay cash",
            "cash payment",
        ],
    ),
    (
        "#emi",
        &[
            "emi",
            "emis",
            "installment",
            "installments",
            "instalment",
            "instalments",
            "monthly payment",
            "monthly payments",
            "pay monthly",
            "pay in parts",
        ],
    ),
    (
        "#timing",
        &[
            "timing",
            "timings",
            "open",
            "opens",
            "opening",
            "close",
            "closes",
            "closing",
            "closed",
            "opening hours",
            "working hours",
            "business hours",
            "office hours",
        ],
    ),
    (
        "#address",
        &[
            "address",
            "located",
            "location",
            "situated",
            "directions",
            "where",
            "find you",
            "visit you",
        ],
    ),
    (
        "#discount",
        &[
            "discount",
            "discounts",
            "offer",
            "offers",
            "coupon",
            "coupons",
            "sale",
            "deal",
            "deals",
            "promo",
            "promo code",
            "cashback",
            "early bird",
        ],
    ),
    (
        "#booking",
        &[
            "book",
            "booking",
            "booked",
            "appointment",
            "appointments",
            "reserve",
            "reserved",
            "reservation",
            "reservations",
        ],
    ),
    (
        "#payment",
        &["pay", "paying", "paid", "payment", "payments"],
    ),
    (
        "#upi",
        &["upi", "gpay", "google pay", "phonepe", "paytm", "bhim"],
    ),
    (
        "#plan",
        &[
            "plan",
            "plans",
            "subscription",
            "subscriptions",
            "membership",
            "memberships",
            "package",
            "packages",
        ],
    ),
    (
        "#people",
        &[
            "people", "person", "persons", "guest", "guests", "pax", "per head",
        ],
    ),
    (
        "#warranty",
        &["warranty", "warranties", "guarantee", "guaranteed"],
    ),
    (
        "#days",
        &[
            "monday",
            "tuesday",
            "wednesday",
            "thursday",
            "friday",
            "saturday",
            "sunday",
            "weekend",
            "weekends",
            "weekday",
            "weekdays",
            "daily",
            "every day",
            "all days",
            "7 days",
            "all week",
            "holiday",
            "holidays",
        ],
    ),
    (
        "#india",
        &[
            "india",
            "indian",
            "nationwide",
            "pan india",
            "all over india",
            "across the country",
            "all over the country",
            "everywhere",
            "elsewhere",
            "city",
            "cities",
            "metro",
            "metros",
            "town",
            "towns",
            "anywhere",
            "pincode",
            "pincodes",
            "pin code",
            "pin codes",
        ],
    ),
];

/// Places a visitor may ask about; they meet an owner's "across India" (and
/// themselves), but never another place the owner names.
const PLACES: &[&str] = &[
    "agra",
    "ahmedabad",
    "ajmer",
    "allahabad",
    "amritsar",
    "andhra",
    "assam",
    "aurangabad",
    "bangalore",
    "bengaluru",
    "bhopal",
    "bhubaneswar",
    "bihar",
    "bombay",
    "calcutta",
    "chandigarh",
    "chennai",
    "coimbatore",
    "cuttack",
    "dehradun",
    "delhi",
    "goa",
    "gujarat",
    "gurgaon",
    "gurugram",
    "guwahati",
    "gwalior",
    "haryana",
    "himachal",
    "hubli",
    "hyderabad",
    "indore",
    "jaipur",
    "jammu",
    "jharkhand",
    "jodhpur",
    "kanpur",
    "karnataka",
    "kashmir",
    "kerala",
    "kochi",
    "kolkata",
    "kota",
    "kozhikode",
    "lucknow",
    "ludhiana",
    "madras",
    "madurai",
    "maharashtra",
    "mangalore",
    "meerut",
    "mumbai",
    "mysore",
    "mysuru",
    "nagpur",
    "nashik",
    "noida",
    "odisha",
    "patna",
    "pondicherry",
    "pune",
    "punjab",
    "raipur",
    "rajasthan",
    "rajkot",
    "ranchi",
    "secunderabad",
    "shimla",
    "siliguri",
    "srinagar",
    "surat",
    "tamilnadu",
    "telangana",
    "thane",
    "thiruvananthapuram",
    "trichy",
    "trivandrum",
    "udaipur",
    "uttarakhand",
    "vadodara",
    "varanasi",
    "vijayawada",
    "visakhapatnam",
    "vizag",
    "warangal",
];

/// What visitors call the business's premises.
const VENUES: &[&str] = &[
    "restaurant",
    "shop",
    "store",
    "clinic",
    "office",
    "showroom",
    "outlet",
    "centre",
    "center",
    "studio",
    "salon",
    "branch",
    "hospital",
    "school",
    "academy",
    "institute",
    "hotel",
    "cafe",
    "place",
];

/// A duration in a passage: a number, then one of these.
const DURATION_UNITS: &[&str] = &[
    "day", "days", "week", "weeks", "month", "months", "hour", "hours", "hr", "hrs", "minute",
    "minutes", "min", "mins", "year", "years",
];

/// What a question word asks for, besides its own stem.
const ANSWER_KINDS: &[(&str, &[&str])] = &[
    ("when", &["#duration", "#clock", "#days"]),
    ("time", &["#duration", "#clock"]),
    ("fast", &["#duration"]),
    ("quick", &["#duration"]),
    ("quickly", &["#duration"]),
    ("soon", &["#duration"]),
    ("long", &["#duration"]),
    ("how long", &["#duration"]),
    ("how soon", &["#duration"]),
    ("how fast", &["#duration"]),
    ("how many days", &["#duration"]),
    ("how many hours", &["#duration"]),
    ("how many weeks", &["#duration"]),
    ("how much time", &["#duration"]),
    ("what time", &["#clock", "#timing"]),
    ("timing", &["#clock"]),
    ("hours", &["#clock", "#timing", "#duration"]),
    ("timings", &["#clock"]),
    ("open", &["#clock"]),
    ("close", &["#clock"]),
    ("how much", &["#price"]),
];

/// Phrases that stand for one concept, as word stems.
struct Phrase {
    stems: Vec<String>,
    terms: Vec<String>,
    weak: bool,
}

struct Tables {
    stop: HashSet<&'static str>,
    weak: HashSet<&'static str>,
    /// A word's stem → the concepts it belongs to.
    concepts: HashMap<String, Vec<&'static str>>,
    /// Surface word → what it asks for.
    kinds: HashMap<&'static str, &'static [&'static str]>,
    places: HashSet<&'static str>,
    /// By their first stem, longest first.
    phrases: HashMap<String, Vec<Phrase>>,
    /// Stems of every synonym, for one-typo matches of words the owner never wrote.
    synonym_stems: Vec<String>,
}

static TABLES: LazyLock<Tables> = LazyLock::new(|| {
    let mut concepts: HashMap<String, Vec<&'static str>> = HashMap::new();
    let mut phrases: HashMap<Vec<String>, Phrase> = HashMap::new();
    let mut synonym_stems = Vec::new();
    for (concept, members) in CONCEPTS {
        for member in *members {
            let stems: Vec<String> = words(member).iter().map(|w| stem(w)).collect();
            if stems.len() == 1 {
                let entry = concepts.entry(stems[0].clone()).or_default();
                if !entry.contains(concept) {
                    entry.push(concept);
                }
                synonym_stems.push(stems[0].clone());
            } else {
                let phrase = phrases.entry(stems.clone()).or_insert_with(|| Phrase {
                    stems,
                    terms: Vec::new(),
                    weak: false,
                });
                phrase.terms.push((*concept).to_string());
            }
        }
    }
    for (words_, terms) in ANSWER_KINDS {
        let stems: Vec<String> = words(words_).iter().map(|w| stem(w)).collect();
        if stems.len() > 1 {
            let phrase = phrases.entry(stems.clone()).or_insert_with(|| Phrase {
                stems,
                terms: Vec::new(),
                weak: true,
            });
            phrase.weak = true;
            phrase.terms.extend(terms.iter().map(|t| (*t).to_string()));
        }
    }
    let mut by_first: HashMap<String, Vec<Phrase>> = HashMap::new();
    for phrase in phrases.into_values() {
        by_first
            .entry(phrase.stems[0].clone())
            .or_default()
            .push(phrase);
    }
    for list in by_first.values_mut() {
        list.sort_by_key(|p| std::cmp::Reverse(p.stems.len()));
    }
    synonym_stems.sort();
    synonym_stems.dedup();
    Tables {
        stop: STOPWORDS.iter().copied().collect(),
        weak: WEAK.iter().copied().collect(),
        concepts,
        kinds: ANSWER_KINDS
            .iter()
            .filter(|(w, _)| !w.contains(' '))
            .map(|(w, t)| (*w, *t))
            .collect(),
        places: PLACES.iter().copied().collect(),
        phrases: by_first,
        synonym_stems,
    }
});

/// The longest phrase starting at `at`, as (its length in words, the phrase).
fn phrase_at(stems: &[String], at: usize) -> Option<(usize, &'static Phrase)> {
    TABLES
        .phrases
        .get(&stems[at])?
        .iter()
        .find(|p| stems[at..].starts_with(&p.stems))
        .map(|p| (p.stems.len(), p))
}

fn is_number(word: &str) -> bool {
    word.chars().all(|c| c.is_ascii_digit())
}

/// A word that carries no topic ("the", "do", "you").
pub fn is_stopword(word: &str) -> bool {
    TABLES.stop.contains(word)
}

/// Every term a passage holds: its stems, their concepts, the concepts of
/// its phrases, and the kinds of answer it gives (a duration, a time of
/// day, a price).
pub fn passage_terms(text: &str) -> Vec<String> {
    let words = words(text);
    let stems: Vec<String> = words.iter().map(|w| stem(w)).collect();
    let mut out = Vec::new();
    // Words of a phrase stand for the phrase only: the "delivery" of "cash
    // on delivery" is no shipping.
    let mut in_phrase = 0;
    for (i, word) in words.iter().enumerate() {
        if let Some((len, phrase)) = phrase_at(&stems, i) {
            out.extend(phrase.terms.iter().cloned());
            in_phrase = in_phrase.max(len);
        }
        let next = words.get(i + 1).map(String::as_str);
        let after = words.get(i + 2).map(String::as_str);
        if is_number(word) {
            out.push(word.clone());
            let unit = match next {
                Some("working" | "business" | "calendar" | "extra") => after,
                other => other,
            };
            if unit.is_some_and(|u| DURATION_UNITS.contains(&u)) {
                out.push("#duration".into());
            }
            if matches!(next, Some("am" | "pm" | "noon"))
                || (matches!(next, Some("a" | "p")) && after == Some("m"))
                || (next.is_some_and(is_number) && matches!(after, Some("am" | "pm")))
            {
                out.push("#clock".into());
            }
            if i > 0 && matches!(words[i - 1].as_str(), "₹" | "rs" | "inr") {
                out.push("#price".into());
                if word.chars().all(|c| c == '0') {
                    out.push("free".into());
                }
            }
            in_phrase = in_phrase.saturating_sub(1);
            continue;
        }
        if matches!(word.as_str(), "noon" | "midnight") {
            out.push("#clock".into());
        }
        if matches!(word.as_str(), "free") {
            out.push("#price".into());
        }
        if matches!(word.as_str(), "same" | "next") && next == Some("day") {
            out.push("#duration".into());
        }
        if in_phrase == 0
            && let Some(concepts) = TABLES.concepts.get(&stems[i])
        {
            out.extend(concepts.iter().map(|c| (*c).to_string()));
        }
        if !TABLES.stop.contains(word.as_str()) && word != "₹" {
            out.push(stems[i].clone());
        }
        in_phrase = in_phrase.saturating_sub(1);
    }
    out
}

/// One thing a question asks about: the terms that satisfy it, each with how
/// well (1 for the visitor's own word, less for a synonym or a typo).
#[derive(Debug, Clone, PartialEq)]
pub struct QueryTerm {
    /// The visitor's word or phrase.
    pub word: String,
    pub alternatives: Vec<(String, f64)>,
    /// Counts only when a passage holds it (see [`WEAK`]).
    pub weak: bool,
}

/// How much a synonym's match is worth against the visitor's own word.
pub const SYNONYM: f64 = 0.9;
/// How much a one-typo or derived-form match is worth.
pub const TYPO: f64 = 0.8;

/// The things `question` asks about, in order, without repeats.
pub fn query_terms(question: &str) -> Vec<QueryTerm> {
    let words = words(question);
    let stems: Vec<String> = words.iter().map(|w| stem(w)).collect();
    // A place is somewhere to deliver to: it meets "across India" only in a
    // question about delivery, never "Do you have a store in Mumbai?".
    let about_delivery = stems
        .iter()
        .any(|s| TABLES.concepts.get(s).is_some_and(|c| c.contains(&"#ship")));
    // "Where is the restaurant?" asks for the address, whatever the place is called.
    let asks_where = words.iter().any(|w| w == "where");
    let mut out: Vec<QueryTerm> = Vec::new();
    // "online or offline": either one answers.
    let mut either = false;
    let mut i = 0;
    while i < words.len() {
        if let Some((len, phrase)) = phrase_at(&stems, i) {
            push_term(
                &mut out,
                QueryTerm {
                    word: words[i..i + len].join(" "),
                    alternatives: phrase.terms.iter().map(|t| (t.clone(), 1.0)).collect(),
                    weak: phrase.weak,
                },
                std::mem::take(&mut either),
            );
            i += len;
            continue;
        }
        let word = words[i].as_str();
        let stem = &stems[i];
        i += 1;
        if word == "or" {
            either = !out.is_empty();
            continue;
        }
        let concepts = TABLES.concepts.get(stem);
        let kinds = TABLES.kinds.get(word);
        if word == "₹"
            || (TABLES.stop.contains(word) && concepts.is_none() && kinds.is_none())
            || (asks_where && VENUES.contains(&word))
        {
            continue;
        }
        let mut alternatives = vec![(stem.clone(), 1.0)];
        for concept in concepts.into_iter().flatten() {
            alternatives.push(((*concept).to_string(), SYNONYM));
        }
        for kind in kinds.into_iter().flat_map(|k| k.iter()) {
            alternatives.push(((*kind).to_string(), SYNONYM));
        }
        if about_delivery && TABLES.places.contains(word) {
            alternatives.push(("#india".into(), SYNONYM));
        }
        push_term(
            &mut out,
            QueryTerm {
                word: word.to_string(),
                alternatives,
                weak: TABLES.weak.contains(word) || is_number(word),
            },
            std::mem::take(&mut either),
        );
    }
    let mut seen = HashSet::new();
    out.retain(|t| seen.insert(t.alternatives[0].0.clone()));
    out
}

/// Adds `term`, or joins it to the previous one when the visitor asked for
/// one or the other.
fn push_term(out: &mut Vec<QueryTerm>, term: QueryTerm, either: bool) {
    match out.last_mut() {
        Some(last) if either => {
            last.word = format!("{} or {}", last.word, term.word);
            last.alternatives.extend(term.alternatives);
            last.weak &= term.weak;
        }
        _ => out.push(term),
    }
}

/// Endings that make one word of another which Snowball does not undo
/// ("rent" and "rental", "refund" and "refundable").
const DERIVATIONS: &[&str] = &[
    "al", "er", "ers", "or", "ors", "ion", "ation", "ment", "able", "ible", "ive", "ity",
];

/// One is the other with a derivational ending, and the shorter has four
/// letters or more.
fn derived(a: &str, b: &str) -> bool {
    let (short, long) = if a.len() < b.len() { (a, b) } else { (b, a) };
    short.chars().count() >= 4
        && long
            .strip_prefix(short)
            .is_some_and(|rest| DERIVATIONS.contains(&rest))
}

/// The terms a word the owner never wrote may have been meant as: stems of
/// `vocabulary` (and of the synonyms) one edit away (a letter added, dropped,
/// changed, or two neighbours swapped) for words of five letters or more
/// that start with the same letter, or derived from the same word.
pub fn near_matches<'v>(word: &str, vocabulary: impl Iterator<Item = &'v String>) -> Vec<String> {
    if is_number(word) {
        return Vec::new();
    }
    let typos = word.chars().count() >= 5;
    let stemmed = stem(word);
    let mut out: Vec<String> = vocabulary
        .chain(TABLES.synonym_stems.iter())
        .filter(|v| !v.starts_with('#') && v.chars().count() >= 4)
        .filter(|v| {
            derived(v, &stemmed)
                || (typos
                    && v.chars().next() == word.chars().next()
                    && (one_edit(v, word) || one_edit(v, &stemmed)))
        })
        .cloned()
        .collect();
    out.sort();
    out.dedup();
    let mut terms: Vec<String> = Vec::new();
    for stem in out {
        if let Some(concepts) = TABLES.concepts.get(&stem) {
            terms.extend(concepts.iter().map(|c| (*c).to_string()));
        }
        terms.push(stem);
    }
    terms
}

/// Exactly one insertion, deletion, substitution or swap of neighbours apart.
fn one_edit(a: &str, b: &str) -> bool {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    if a == b || a.len().abs_diff(b.len()) > 1 {
        return false;
    }
    let prefix = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let (ra, rb) = (&a[prefix..], &b[prefix..]);
    match ra.len().cmp(&rb.len()) {
        std::cmp::Ordering::Equal => {
            ra[1..] == rb[1..]
                || (ra.len() >= 2 && ra[0] == rb[1] && ra[1] == rb[0] && ra[2..] == rb[2..])
        }
        std::cmp::Ordering::Greater => ra[1..] == *rb,
        std::cmp::Ordering::Less => *ra == rb[1..],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stems(question: &str) -> Vec<String> {
        query_terms(question)
            .into_iter()
            .map(|t| t.alternatives[0].0.clone())
            .collect()
    }

    #[test]
    fn words_are_lower_case_with_numbers_kept_whole() {
        assert_eq!(
            words("Free above ₹1,499; open 10am–7pm. COD!"),
            [
                "free", "above", "₹", "1499", "open", "10", "am", "7", "pm", "cod"
            ]
        );
    }

    #[test]
    fn snowball_stems_meet_across_word_forms() {
        assert_eq!(stem("returns"), stem("returned"));
        assert_eq!(stem("returning"), stem("return"));
        assert_eq!(stem("deliver"), stem("delivered"));
        assert_eq!(stem("installments"), stem("instalment"));
        assert_ne!(stem("installment"), stem("install"));
        assert_eq!(stem("TVs".to_lowercase().as_str()), "tv");
        assert_eq!(stem("cancellation"), stem("cancelled"));
        assert_eq!(stem("classes"), stem("class"));
    }

    #[test]
    fn questions_drop_stopwords_and_keep_numbers() {
        assert_eq!(stems("What is your return policy?"), ["return", "polici"]);
        assert_eq!(
            stems("Is shipping free above 1,499?"),
            ["ship", "free", "abov", "1499"]
        );
        let policy = &query_terms("What is your return policy?")[1];
        assert!(policy.weak, "policy only ever helps a match");
        assert!(query_terms("above 999")[1].weak, "a number only ever helps");
    }

    fn has(terms: &[String], term: &str) -> bool {
        terms.iter().any(|t| t == term)
    }

    fn asks_for(question: &str, term: &str) -> bool {
        query_terms(question)
            .iter()
            .any(|q| q.alternatives.iter().any(|(t, _)| t == term))
    }

    #[test]
    fn synonyms_meet_each_other() {
        for (question, passage) in [
            (
                "When will my order arrive?",
                "Delivered in 4 to 6 working days.",
            ),
            ("How long does dispatch take?", "We ship within a day."),
            ("Can I get my money back?", "Full refund within 10 days."),
            (
                "Can I exchange a saree?",
                "Returns are accepted within 7 days.",
            ),
            ("What are the fees?", "The course costs 45,000."),
            ("Any extra charges?", "A small fee applies."),
            ("Do you have cash on delivery?", "COD is available."),
            ("Can I pay on delivery?", "COD is available."),
            ("Can I pay in installments?", "No-cost EMI over 6 months."),
            ("What are your timings?", "We open at 10."),
            ("When do you close?", "Open till 9 pm."),
            ("Where are you located?", "Our address: 12 MG Road."),
            ("Where is the shop?", "Address: 12 MG Road."),
            ("Can I book a table?", "Reservations on 98450 77889."),
            ("Do you deliver to Pune?", "We deliver across India."),
        ] {
            let passage = passage_terms(passage);
            let met = query_terms(question).iter().any(|q| {
                q.alternatives
                    .iter()
                    .any(|(t, _)| t.starts_with('#') && has(&passage, t))
            });
            assert!(met, "{question:?} should meet {passage:?}");
        }
    }

    #[test]
    fn a_place_to_deliver_to_meets_india_but_not_another_place() {
        assert!(asks_for("Do you deliver to Chennai?", "#india"));
        assert!(!asks_for("Do you have a store in Chennai?", "#india"));
        assert!(!has(&passage_terms("Same-day delivery in Pune."), "#india"));
    }

    #[test]
    fn one_thing_or_another_is_one_thing_asked() {
        let terms = query_terms("Is it online or offline?");
        assert_eq!(terms.len(), 1, "{terms:?}");
        assert_eq!(terms[0].word, "online or offline");
        assert!(terms[0].alternatives.iter().any(|(t, _)| t == "offlin"));
    }

    #[test]
    fn where_the_business_is_asks_for_its_address() {
        let terms = query_terms("Where is the restaurant?");
        assert_eq!(terms.len(), 1, "{terms:?}");
        assert_eq!(terms[0].word, "where");
        assert_eq!(
            query_terms("Do you have a restaurant?")[0].word,
            "restaurant"
        );
    }

    #[test]
    fn passages_say_what_kind_of_answer_they_give() {
        let t = passage_terms("Delivered in 4 to 6 working days, free above ₹1,499.");
        assert!(has(&t, "#duration") && has(&t, "#price") && has(&t, "1499"));
        let t = passage_terms("Open 9:30 am to 8 pm, 12 noon on Sundays.");
        assert!(has(&t, "#clock") && has(&t, "#timing") && has(&t, "#days"));
        assert!(asks_for("How long does it take?", "#duration"));
        assert!(asks_for("When do you open?", "#clock"));
        assert!(asks_for("How much is a silk saree?", "#price"));
    }

    #[test]
    fn a_phrase_is_one_thing_asked() {
        let terms = query_terms("Do you have cash on delivery?");
        assert_eq!(terms.len(), 1, "{terms:?}");
        assert_eq!(terms[0].alternatives[0].0, "#cod");
    }

    #[test]
    fn one_typo_or_a_derived_form_is_forgiven() {
        let vocabulary = [
            "return".to_string(),
            "ship".to_string(),
            "lunch".to_string(),
        ];
        assert!(near_matches("retrun", vocabulary.iter()).contains(&"return".to_string()));
        assert!(near_matches("shiping", vocabulary.iter()).contains(&"#ship".to_string()));
        assert!(near_matches("delivry", vocabulary.iter()).contains(&"#ship".to_string()));
        assert!(
            near_matches("retn", vocabulary.iter()).is_empty(),
            "too short"
        );
        assert!(
            near_matches("rettunn", vocabulary.iter()).is_empty(),
            "two typos"
        );
        assert!(near_matches("rent", vocabulary.iter()).is_empty());
        let rental = ["rental".to_string()];
        assert_eq!(near_matches("rent", rental.iter()), ["rental"]);
        assert!(near_matches("ren", ["renal".to_string()].iter()).is_empty());
        assert!(one_edit("return", "retrun"));
        assert!(one_edit("refund", "refnd"));
        assert!(!one_edit("refund", "refund"));
    }
}
