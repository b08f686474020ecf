//! Passage retrieval: ranks the owner's passages by how much of a visitor's
//! question each one answers.
//!
//! Every thing the question asks about weighs its inverse document frequency
//! (rare words say more than words on every line), and a word the owner
//! never wrote weighs as much as the rarest one they did: "Is the course
//! available in Tamil?" is about Tamil, which no passage mentions. A
//! passage's score is the weight it covers over the weight asked, between 0
//! and 1 whatever the knowledge base's length, so one threshold decides
//! whether there is an answer at all.

use std::collections::{HashMap, HashSet};

use super::language::{QueryTerm, TYPO, near_matches, passage_terms, query_terms};
use super::passages::Passage;

/// A match in the heading or FAQ question a passage sits under is worth
/// this much of a match in its own words.
pub const CONTEXT: f64 = 0.8;

/// The owner's passages, indexed.
pub struct Index {
    passages: Vec<Passage>,
    text_terms: Vec<HashSet<String>>,
    context_terms: Vec<HashSet<String>>,
    doc_freq: HashMap<String, usize>,
    /// Stems of the business's name: asking "how much is LedgerLite?" on
    /// LedgerLite's own site is asking "how much?".
    names: HashSet<String>,
}

/// How a passage meets one thing asked.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Part {
    pub weight: f64,
    /// 1 for the visitor's own word in the passage's words, less for a
    /// synonym, a typo or its heading; 0 when it is not there.
    pub strength: f64,
    pub weak: bool,
}

/// A passage and how much of the question it answers (0–1).
#[derive(Debug, Clone, PartialEq)]
pub struct Hit<'a> {
    pub passage: &'a Passage,
    /// Its place among the passages (document order).
    pub position: usize,
    pub score: f64,
    /// Like `score`, with the weak words it lacks held against it: of two
    /// passages about shipping, the one with the duration asked for.
    pub completeness: f64,
    /// How it meets each thing asked, in the question's order.
    pub parts: Vec<Part>,
    /// Things asked that its own words (not its heading) hold.
    text_matches: usize,
    /// Things asked that its heading or FAQ question holds.
    context_matches: usize,
}

/// The share of the question that `parts` answer: weak words count only
/// where they are met, and nothing is answered unless something other than
/// a weak word is.
fn coverage(parts: impl Iterator<Item = Part>) -> f64 {
    let (mut covered, mut asked, mut strong_met) = (0.0, 0.0, false);
    let mut any_strong = false;
    for p in parts {
        covered += p.weight * p.strength;
        if p.strength > 0.0 || !p.weak {
            asked += p.weight;
        }
        any_strong |= !p.weak;
        strong_met |= !p.weak && p.strength > 0.0;
    }
    if asked == 0.0 || (any_strong && !strong_met) {
        0.0
    } else {
        covered / asked
    }
}

/// How much of the question two passages answer together, as (score,
/// completeness): a question about two things ("are you open for lunch?")
/// may need one passage for each.
pub fn together(a: &Hit<'_>, b: &Hit<'_>) -> (f64, f64) {
    let both = || {
        a.parts.iter().zip(&b.parts).map(|(x, y)| Part {
            strength: x.strength.max(y.strength),
            ..*x
        })
    };
    (
        coverage(both()),
        coverage(both().map(|p| Part { weak: false, ..p })),
    )
}

impl Index {
    /// Indexes the given passages.
    pub fn new(passages: Vec<Passage>) -> Self {
        let mut text_terms = Vec::with_capacity(passages.len());
        let mut context_terms = Vec::with_capacity(passages.len());
        let mut doc_freq: HashMap<String, usize> = HashMap::new();
        for p in &passages {
            let own: HashSet<String> = passage_terms(&p.text).into_iter().collect();
            let mut context: HashSet<String> = HashSet::new();
            for c in [&p.heading, &p.question, &p.label].into_iter().flatten() {
                context.extend(passage_terms(c));
            }
            for term in own.union(&context) {
                *doc_freq.entry(term.clone()).or_default() += 1;
            }
            text_terms.push(own);
            context_terms.push(context);
        }
        Self {
            passages,
            text_terms,
            context_terms,
            doc_freq,
            names: HashSet::new(),
        }
    }

    /// The business is called `name`: its words say nothing about which
    /// passage answers.
    pub fn named(mut self, name: &str) -> Self {
        self.names = query_terms(name)
            .into_iter()
            .map(|t| t.alternatives[0].0.clone())
            .collect();
        self
    }

    pub fn passages(&self) -> &[Passage] {
        &self.passages
    }

    /// BM25's inverse document frequency of a term found in `df` passages.
    fn idf(&self, df: usize) -> f64 {
        let n = self.passages.len() as f64;
        let df = df as f64;
        ((n - df + 0.5) / (df + 0.5) + 1.0).ln()
    }

    /// The things `question` asks about, each with its weight; words the
    /// owner never wrote get their one-typo and derived-form matches, if any.
    fn weigh(&self, question: &str) -> Vec<(QueryTerm, f64)> {
        let unknown = self.idf(1);
        let mut terms = query_terms(question);
        if terms
            .iter()
            .any(|t| !self.names.contains(&t.alternatives[0].0))
        {
            terms.retain(|t| !self.names.contains(&t.alternatives[0].0));
        }
        // A question made only of weak words ("any offers?") is about them.
        if terms.iter().all(|t| t.weak) {
            for t in &mut terms {
                t.weak = false;
            }
        }
        terms
            .into_iter()
            .map(|mut term| {
                let known = |t: &QueryTerm| {
                    t.alternatives
                        .iter()
                        .filter_map(|(a, _)| self.doc_freq.get(a))
                        .map(|df| self.idf(*df))
                        .fold(None, |best: Option<f64>, w| {
                            Some(best.map_or(w, |b| b.max(w)))
                        })
                };
                if known(&term).is_none() && !term.weak && !term.word.contains(' ') {
                    let vocabulary = self.doc_freq.keys().filter(|k| !k.starts_with('#'));
                    for t in near_matches(&term.word, vocabulary) {
                        term.alternatives.push((t, TYPO));
                    }
                }
                let weight = known(&term).unwrap_or(unknown);
                (term, weight)
            })
            .collect()
    }

    /// Passages that answer part of `question`, best first.
    pub fn search(&self, question: &str) -> Vec<Hit<'_>> {
        let weighted = self.weigh(question);
        let mut hits: Vec<Hit<'_>> = (0..self.passages.len())
            .filter_map(|i| {
                let (mut text_matches, mut context_matches) = (0, 0);
                let parts: Vec<Part> = weighted
                    .iter()
                    .map(|(term, weight)| {
                        let (strength, in_text) = term
                            .alternatives
                            .iter()
                            .map(|(t, s)| {
                                if self.text_terms[i].contains(t) {
                                    (*s, true)
                                } else if self.context_terms[i].contains(t) {
                                    (s * CONTEXT, false)
                                } else {
                                    (0.0, false)
                                }
                            })
                            .fold((0.0, false), |best, m| if m.0 > best.0 { m } else { best });
                        text_matches += usize::from(in_text);
                        context_matches += usize::from(
                            term.alternatives
                                .iter()
                                .any(|(t, _)| self.context_terms[i].contains(t)),
                        );
                        Part {
                            weight: *weight,
                            strength,
                            weak: term.weak,
                        }
                    })
                    .collect();
                let score = coverage(parts.iter().copied());
                let complete = coverage(parts.iter().map(|p| Part { weak: false, ..*p }));
                (parts.iter().any(|p| p.strength > 0.0)).then(|| Hit {
                    passage: &self.passages[i],
                    position: i,
                    score,
                    completeness: complete,
                    parts,
                    text_matches,
                    context_matches,
                })
            })
            .collect();
        // Best first: what it answers, and what it holds of the weak words
        // too (a duration for "how long"); on a tie the one whose own words
        // match, the one whose heading or question does, then the earlier one.
        hits.sort_by(|a, b| {
            (b.score + b.completeness)
                .total_cmp(&(a.score + a.completeness))
                .then(b.score.total_cmp(&a.score))
                .then(b.text_matches.cmp(&a.text_matches))
                .then(b.context_matches.cmp(&a.context_matches))
                .then(a.position.cmp(&b.position))
        });
        hits
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assistant::passages::passages;

    fn best(kb: &str, question: &str) -> Option<(String, f64)> {
        let index = Index::new(passages(kb, 0));
        index
            .search(question)
            .first()
            .map(|h| (h.passage.text.clone(), h.score))
    }

    const SHOP: &str = "Shipping: free across India on orders above 1499 rupees, delivered in 4 to 6 working days. \
        Returns: unused items can be returned within 10 days for a full refund. \
        Payment: UPI, cards and cash on delivery. \
        Every saree is handwoven and comes with a blouse piece.";

    #[test]
    fn rarer_words_decide() {
        let (text, _) = best(
            "We ship across India.\n\nCash on delivery is available across India.",
            "cash on delivery",
        )
        .expect("a hit");
        assert_eq!(text, "Cash on delivery is available across India.");
    }

    #[test]
    fn the_whole_question_is_covered_by_the_answering_sentence() {
        let (text, score) = best(SHOP, "Is shipping free?").expect("a hit");
        assert!(text.starts_with("Shipping: free across India"), "{text}");
        assert!((score - 1.0).abs() < 1e-9, "{score}");
        let (text, _) = best(SHOP, "Can I get my money back?").expect("a hit");
        assert!(text.starts_with("Returns:"), "{text}");
    }

    #[test]
    fn a_word_the_owner_never_wrote_weighs_like_their_rarest() {
        // "saree" is on one line only, as rare as a word can be here: Tamil
        // weighs as much, and half a question is no answer.
        let (_, score) = best(SHOP, "Is the saree available in Tamil?").unwrap_or_default();
        assert!(score <= 0.5, "{score}");
    }

    #[test]
    fn weak_words_help_but_never_hurt() {
        let (text, score) = best(SHOP, "What is your return policy?").expect("a hit");
        assert!(text.starts_with("Returns:"), "{text}");
        assert!(
            (score - 1.0).abs() < 1e-9,
            "policy is not held against it: {score}"
        );
    }

    #[test]
    fn a_heading_answers_for_its_bullets() {
        let kb = "Fees\n- Full course: 45,000 rupees\n- EMI over 6 months\n\nSchedule\n- Weekends, 10 am to 1 pm";
        let index = Index::new(passages(kb, 0));
        let hits = index.search("What are the fees?");
        assert_eq!(hits[0].passage.text, "Full course: 45,000 rupees");
        assert!(hits[0].score >= CONTEXT, "{}", hits[0].score);
        assert_eq!(hits[1].passage.text, "EMI over 6 months");
    }

    #[test]
    fn scores_do_not_depend_on_the_knowledge_base_length() {
        let padding: String = (0..60)
            .map(|i| format!("Our branch number {i} sells handloom cotton in many colours.\n\n"))
            .collect();
        for question in [
            "Is shipping free?",
            "How long does delivery take?",
            "Do you sell laptops?",
        ] {
            let small = best(SHOP, question).map_or(0.0, |h| h.1);
            let large = best(&format!("{SHOP}\n\n{padding}"), question).map_or(0.0, |h| h.1);
            assert!(
                (small - large).abs() < 0.1,
                "{question}: {small} vs {large}"
            );
        }
    }

    #[test]
    fn one_typo_is_forgiven() {
        let (text, _) = best(SHOP, "retrun within how many days").expect("a hit");
        assert!(text.starts_with("Returns:"), "{text}");
    }
}
