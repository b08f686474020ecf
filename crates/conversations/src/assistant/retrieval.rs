//! Passage retrieval: split the owner's texts into passages and rank them
//! against a visitor's message with Okapi BM25.

use std::collections::HashMap;

/// BM25 term-frequency saturation.
const K1: f64 = 1.2;
/// BM25 length normalisation.
const B: f64 = 0.75;
/// Longest passage, in characters, before a paragraph is split at sentences.
const MAX_PASSAGE_CHARS: usize = 400;

const STOPWORDS: &[&str] = &[
    "a", "an", "and", "are", "as", "at", "be", "but", "by", "can", "do", "does", "for", "from",
    "have", "how", "i", "if", "in", "is", "it", "its", "me", "my", "of", "on", "or", "our", "so",
    "that", "the", "their", "there", "this", "to", "was", "we", "what", "when", "where", "which",
    "who", "will", "with", "you", "your", "yours", "any", "about", "would", "could", "should",
    "please", "hi", "hello", "hey", "there", "tell", "know", "want", "need", "get",
];

/// Lower-cased word stems of `text`, without stopwords.
pub fn terms(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| stem(&w.to_lowercase()))
        .filter(|w| !STOPWORDS.contains(&w.as_str()))
        .collect()
}

/// A light suffix stripper so "returns", "returned" and "returning" meet.
fn stem(word: &str) -> String {
    for suffix in ["ing", "ed", "es", "s"] {
        if let Some(base) = word.strip_suffix(suffix)
            && base.chars().count() >= 3
        {
            return base.to_string();
        }
    }
    word.to_string()
}

/// Paragraphs (split on blank lines and bullet lines), with long ones cut at sentence ends.
pub fn passages(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for block in text
        .split("\n\n")
        .flat_map(|b| b.split("\n- "))
        .flat_map(|b| b.split("\n* "))
    {
        let block = block.trim().trim_start_matches(['-', '*']).trim();
        if block.is_empty() {
            continue;
        }
        if block.chars().count() <= MAX_PASSAGE_CHARS {
            out.push(block.replace('\n', " "));
            continue;
        }
        let mut current = String::new();
        for sentence in block.split_inclusive(['.', '!', '?']) {
            if !current.is_empty()
                && current.chars().count() + sentence.chars().count() > MAX_PASSAGE_CHARS
            {
                out.push(current.trim().to_string());
                current.clear();
            }
            current.push_str(sentence);
        }
        if !current.trim().is_empty() {
            out.push(current.trim().replace('\n', " "));
        }
    }
    out
}

/// A BM25 index over passages.
pub struct Index {
    passages: Vec<String>,
    docs: Vec<HashMap<String, usize>>,
    lengths: Vec<usize>,
    doc_freq: HashMap<String, usize>,
    avg_len: f64,
}

/// A passage and its score.
#[derive(Debug, Clone, PartialEq)]
pub struct Hit<'a> {
    pub passage: &'a str,
    pub score: f64,
    /// Share of the query's distinct terms that occur in the passage (0–1).
    pub coverage: f64,
}

impl Index {
    /// Indexes the given passages.
    pub fn new(passages: Vec<String>) -> Self {
        let mut docs = Vec::with_capacity(passages.len());
        let mut lengths = Vec::with_capacity(passages.len());
        let mut doc_freq: HashMap<String, usize> = HashMap::new();
        for p in &passages {
            let mut tf: HashMap<String, usize> = HashMap::new();
            let t = terms(p);
            lengths.push(t.len());
            for term in t {
                *tf.entry(term).or_default() += 1;
            }
            for term in tf.keys() {
                *doc_freq.entry(term.clone()).or_default() += 1;
            }
            docs.push(tf);
        }
        let avg_len = if lengths.is_empty() {
            0.0
        } else {
            lengths.iter().sum::<usize>() as f64 / lengths.len() as f64
        };
        Self {
            passages,
            docs,
            lengths,
            doc_freq,
            avg_len,
        }
    }

    /// Passages matching `query`, best first; passages with no shared term are left out.
    pub fn search(&self, query: &str) -> Vec<Hit<'_>> {
        let n = self.passages.len() as f64;
        let mut query_terms = terms(query);
        query_terms.sort();
        query_terms.dedup();
        let mut hits: Vec<Hit<'_>> = self
            .docs
            .iter()
            .enumerate()
            .filter_map(|(i, tf)| {
                let len = self.lengths[i] as f64;
                let matched = query_terms.iter().filter(|t| tf.contains_key(*t)).count();
                let score: f64 = query_terms
                    .iter()
                    .filter_map(|term| {
                        let f = *tf.get(term)? as f64;
                        let df = *self.doc_freq.get(term).unwrap_or(&0) as f64;
                        let idf = ((n - df + 0.5) / (df + 0.5) + 1.0).ln();
                        let norm =
                            f * (K1 + 1.0) / (f + K1 * (1.0 - B + B * len / self.avg_len.max(1.0)));
                        Some(idf * norm)
                    })
                    .sum();
                (score > 0.0).then(|| Hit {
                    passage: &self.passages[i],
                    score,
                    coverage: matched as f64 / query_terms.len().max(1) as f64,
                })
            })
            .collect();
        hits.sort_by(|a, b| b.score.total_cmp(&a.score));
        hits
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terms_drop_stopwords_and_stem() {
        assert_eq!(
            terms("What is your Returns policy?"),
            vec!["return", "policy"]
        );
        assert_eq!(terms("shipping shipped"), vec!["shipp", "shipp"]);
    }

    #[test]
    fn passages_split_blocks_bullets_and_long_text() {
        let p = passages("Shipping is free.\n\n- COD available\n- Returns in 7 days");
        assert_eq!(
            p,
            vec!["Shipping is free.", "COD available", "Returns in 7 days"]
        );
        let long = "A sentence here. ".repeat(40);
        assert!(
            passages(&long)
                .iter()
                .all(|p| p.chars().count() <= MAX_PASSAGE_CHARS)
        );
    }

    #[test]
    fn rarer_terms_rank_higher() {
        let idx = Index::new(vec![
            "We ship across India.".into(),
            "Cash on delivery is available across India.".into(),
        ]);
        let hits = idx.search("cash on delivery");
        assert_eq!(
            hits[0].passage,
            "Cash on delivery is available across India."
        );
        assert_eq!(hits.len(), 1);
    }
}
