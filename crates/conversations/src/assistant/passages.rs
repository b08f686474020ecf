//! The owner's texts cut into passages at the grain of an answer: one
//! sentence, one bullet or one line, each carrying the heading or the FAQ
//! question it sits under. Owners write plain paragraphs ("Shipping: free
//! above ₹999. Returns: …"), headings over bullets (Markdown `#`, `**bold**`,
//! or a short line of its own), and FAQs ("Q: … / A: …", or a question on its
//! own line over its answer); all of them are understood.

/// One passage of the owner's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Passage {
    /// The sentence, bullet or line as the owner wrote it (bullet marks and
    /// `A:` prefixes removed).
    pub text: String,
    /// The heading the passage sits under.
    pub heading: Option<String>,
    /// The FAQ question it answers.
    pub question: Option<String>,
    /// The "Label:" that opened it or an earlier sentence of its paragraph.
    pub label: Option<String>,
    /// A bullet or a short line: it reads right only after its heading.
    pub item: bool,
    /// Passages of one paragraph, list or answer share this number.
    pub block: usize,
}

impl Passage {
    /// What the passage is about besides its own words (shown to the owner):
    /// its FAQ question, its heading, or the label of an earlier sentence.
    pub fn context(&self) -> Option<&str> {
        self.question
            .as_deref()
            .or(self.heading.as_deref())
            .or(self.label.as_deref().filter(|l| !self.text.starts_with(l)))
    }
}

/// A heading line: at most this many words.
const HEADING_WORDS: usize = 8;
/// A "Label:" that opens a sentence: at most this many words.
const LABEL_WORDS: usize = 4;
/// A sentence shorter than this ("Yes.", "Sure!") joins the next one.
const SHORT_SENTENCE: usize = 20;

/// Words before a full stop that does not end the sentence.
const ABBREVIATIONS: &[&str] = &[
    "dr", "mr", "mrs", "ms", "no", "nos", "rs", "st", "vs", "etc", "approx", "incl", "excl", "jr",
    "sr", "prof", "eg", "ie", "e.g", "i.e", "a.m", "p.m", "ft", "sq", "opp", "nr", "ph", "mob",
    "tel", "govt", "pvt", "co", "dept", "min", "max", "qty", "est", "mt",
];

fn word_count(text: &str) -> usize {
    text.split_whitespace()
        .filter(|w| w.chars().any(char::is_alphanumeric))
        .count()
}

fn ends_sentence(text: &str) -> bool {
    text.trim_end_matches(['"', '\'', ')', '*', '_'])
        .ends_with(['.', '!', '?'])
}

/// `text` without Markdown emphasis around it.
fn unemphasise(text: &str) -> &str {
    let t = text.trim();
    for mark in ["**", "__"] {
        if let Some(inner) = t.strip_prefix(mark).and_then(|r| r.strip_suffix(mark)) {
            return inner.trim();
        }
    }
    t
}

/// The rest of a line after a bullet mark (`-`, `*`, `•`, `1.`, `2)`, `a)`), if it has one.
fn bullet(line: &str) -> Option<&str> {
    for mark in ['-', '*', '•', '·', '–', '—', '▪', '►', '✓', '✔', '+'] {
        if let Some(rest) = line.strip_prefix(mark)
            && rest.starts_with(char::is_whitespace)
        {
            return Some(rest.trim());
        }
    }
    let marker: String = line.chars().take_while(char::is_ascii_digit).collect();
    let rest = if marker.is_empty() {
        let first = line.chars().next()?;
        if !first.is_ascii_lowercase() {
            return None;
        }
        let rest = &line[first.len_utf8()..];
        rest.strip_prefix(')')?
    } else if marker.len() <= 2 {
        let rest = &line[marker.len()..];
        rest.strip_prefix(['.', ')'])?
    } else {
        return None;
    };
    rest.starts_with(char::is_whitespace).then(|| rest.trim())
}

/// The text after a case-insensitive FAQ prefix such as `Q:`.
fn after_prefix<'a>(line: &'a str, prefixes: &[&str]) -> Option<&'a str> {
    let lower = line.to_lowercase();
    prefixes.iter().find_map(|p| {
        let rest = line.get(p.len()..).filter(|_| lower.starts_with(p))?;
        // "A. " is an answer, "A.C. service" is not.
        (p.ends_with(':') || rest.starts_with(char::is_whitespace)).then(|| rest.trim())
    })
}

fn question_line(line: &str) -> Option<String> {
    if let Some(q) = after_prefix(line, &["q:", "q.", "q)", "q -", "question:", "ques:"]) {
        return Some(unemphasise(q).to_string());
    }
    let plain = unemphasise(line.trim_start_matches('#').trim());
    (plain.ends_with('?') && word_count(plain) <= 25 && bullet(line).is_none())
        .then(|| plain.to_string())
}

fn answer_line(line: &str) -> Option<&str> {
    after_prefix(line, &["a:", "a.", "a)", "a -", "ans:", "ans.", "answer:"])
}

/// A heading written as a heading: `# Fees`, `**Fees**`, or a short line
/// ending in a colon.
fn marked_heading(line: &str) -> Option<String> {
    if line.starts_with('#') {
        let text = unemphasise(line.trim_start_matches('#').trim());
        return (!text.is_empty()).then(|| text.trim_end_matches(':').trim().to_string());
    }
    let bold = unemphasise(line);
    if bold.len() < line.trim().len() && !ends_sentence(bold) && word_count(bold) <= HEADING_WORDS {
        return Some(bold.trim_end_matches(':').trim().to_string());
    }
    let text = line.trim();
    if let Some(label) = text.strip_suffix(':')
        && word_count(label) <= HEADING_WORDS
        && !label.contains(':')
    {
        return Some(unemphasise(label).to_string());
    }
    None
}

/// A short plain line with no full stop, followed at once by more text, or
/// by a list after an empty line.
fn plain_heading(line: &str, next: Option<&str>, next_text: Option<&str>) -> bool {
    let next = next.map(str::trim).unwrap_or_default();
    let followed = if next.is_empty() {
        next_text.is_some_and(|t| bullet(t).is_some())
    } else {
        bullet(next).is_some() || !next.starts_with(char::is_lowercase)
    };
    followed
        && !ends_sentence(line)
        && !line.contains(':')
        && word_count(line) <= HEADING_WORDS.min(6)
        && !line.chars().any(|c| c.is_ascii_digit())
        && (next_text.is_some_and(|t| bullet(t).is_some())
            || line.chars().next().is_some_and(char::is_uppercase))
}

/// Sentences of `text`: split after `.`, `!` or `?` when a capital, a digit
/// or `₹` follows, except after abbreviations such as "Dr." and "Rs.".
pub fn sentences(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if matches!(c, '.' | '!' | '?') {
            let mut end = i + 1;
            while end < chars.len() && matches!(chars[end], '.' | '!' | '?' | '"' | '\'' | ')') {
                end += 1;
            }
            let mut next = end;
            while next < chars.len() && chars[next].is_whitespace() {
                next += 1;
            }
            let spaced = next > end;
            let starts_new = chars.get(next).is_some_and(|n| {
                n.is_uppercase() || n.is_ascii_digit() || matches!(n, '₹' | '"' | '(')
            });
            let before: String = chars[start..i]
                .iter()
                .rev()
                .take_while(|ch| ch.is_alphanumeric() || **ch == '.')
                .collect::<String>()
                .chars()
                .rev()
                .collect::<String>()
                .to_lowercase();
            let abbreviation = c == '.' && ABBREVIATIONS.contains(&before.as_str());
            if (next >= chars.len() || (spaced && starts_new)) && !abbreviation {
                let sentence: String = chars[start..end].iter().collect();
                if !sentence.trim().is_empty() {
                    out.push(sentence.trim().to_string());
                }
                start = next;
                i = next;
                continue;
            }
        }
        i += 1;
    }
    let rest: String = chars[start.min(chars.len())..].iter().collect();
    if !rest.trim().is_empty() {
        out.push(rest.trim().to_string());
    }
    // "Yes." or "Sure!" alone answers nothing: it joins its neighbour.
    let mut merged: Vec<String> = Vec::new();
    let mut carry = String::new();
    for s in out {
        if s.chars().count() < SHORT_SENTENCE {
            carry.push_str(&s);
            carry.push(' ');
            continue;
        }
        merged.push(format!("{carry}{s}"));
        carry.clear();
    }
    let carry = carry.trim();
    if !carry.is_empty() {
        match merged.last_mut() {
            Some(last) => {
                last.push(' ');
                last.push_str(carry);
            }
            None => merged.push(carry.to_string()),
        }
    }
    merged
}

/// A "Label:" opening a sentence ("Shipping: free above ₹999"), if any.
fn label(sentence: &str) -> Option<String> {
    let (head, rest) = sentence.split_once(':')?;
    let head = unemphasise(head);
    (!rest.trim().is_empty()
        && !rest.starts_with("//")
        && word_count(head) <= LABEL_WORDS
        && !head.is_empty()
        && !head.chars().any(|c| c.is_ascii_digit()))
    .then(|| head.to_string())
}

#[derive(Default)]
struct Splitter {
    out: Vec<Passage>,
    heading: Option<String>,
    /// The heading ends with its block (a lead-in such as "Our services:").
    heading_ends_with_block: bool,
    /// Passages since the heading was set.
    under_heading: usize,
    question: Option<String>,
    /// Answer lines since the question.
    answered: bool,
    paragraph: String,
    block: usize,
}

impl Splitter {
    fn push(&mut self, text: &str, label: Option<String>, item: bool) {
        let text = unemphasise(text).trim();
        if text.is_empty() {
            return;
        }
        self.out.push(Passage {
            text: text.to_string(),
            heading: self.heading.clone(),
            question: self.question.clone(),
            label,
            item,
            block: self.block,
        });
        self.under_heading += 1;
    }

    fn flush_paragraph(&mut self) {
        let paragraph = std::mem::take(&mut self.paragraph);
        if paragraph.trim().is_empty() {
            return;
        }
        let mut current_label: Option<String> = None;
        let single = word_count(&paragraph) <= HEADING_WORDS && !ends_sentence(&paragraph);
        for sentence in sentences(&paragraph) {
            if let Some(l) = label(&sentence) {
                current_label = Some(l);
            }
            self.push(&sentence, current_label.clone(), single);
        }
        self.block += 1;
    }

    fn set_heading(&mut self, heading: String, ends_with_block: bool) {
        self.flush_paragraph();
        self.close_heading();
        self.heading = Some(heading);
        self.heading_ends_with_block = ends_with_block;
        self.under_heading = 0;
        self.question = None;
    }

    /// A heading with nothing under it is a passage of its own.
    fn close_heading(&mut self) {
        if self.under_heading == 0
            && let Some(h) = self.heading.take()
        {
            self.out.push(Passage {
                text: h,
                heading: None,
                question: None,
                label: None,
                item: true,
                block: self.block,
            });
            self.block += 1;
        }
        self.heading = None;
    }

    fn blank(&mut self) {
        self.flush_paragraph();
        if self.heading_ends_with_block && self.under_heading > 0 {
            self.heading = None;
            self.heading_ends_with_block = false;
        }
        if self.answered {
            self.question = None;
            self.answered = false;
        }
    }

    /// `next` is the next line, `next_text` the next one that is not empty.
    fn line(&mut self, line: &str, next: Option<&str>, next_text: Option<&str>) {
        if let Some(q) = question_line(line) {
            self.flush_paragraph();
            self.question = Some(q);
            self.answered = false;
            self.block += 1;
            return;
        }
        if let Some(h) = marked_heading(line) {
            let lead_in = line.trim_end().ends_with(':');
            self.set_heading(h, lead_in);
            return;
        }
        if plain_heading(line, next, next_text) && self.paragraph.is_empty() {
            // Unmarked, it heads its own list or paragraph only.
            self.set_heading(line.trim().to_string(), true);
            return;
        }
        let text = answer_line(line).unwrap_or(line);
        if self.question.is_some() {
            self.answered = true;
        }
        if let Some(item) = bullet(text) {
            self.flush_paragraph();
            let mut current_label = None;
            for sentence in sentences(item) {
                if current_label.is_none() {
                    current_label = label(&sentence);
                }
                self.push(&sentence, current_label.clone(), true);
            }
            return;
        }
        // A line that continues the previous one (wrapped by hand) joins it;
        // any other line is a paragraph of its own.
        let continues = !self.paragraph.is_empty()
            && !self
                .paragraph
                .trim_end()
                .ends_with(['.', '!', '?', ':', ';'])
            && text.chars().next().is_some_and(char::is_lowercase);
        if !continues {
            self.flush_paragraph();
        }
        if !self.paragraph.is_empty() {
            self.paragraph.push(' ');
        }
        self.paragraph.push_str(text.trim());
    }
}

/// The passages of `text`, in order; `first_block` numbers its blocks after
/// those of another text.
pub fn passages(text: &str, first_block: usize) -> Vec<Passage> {
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    let mut s = Splitter {
        block: first_block,
        ..Splitter::default()
    };
    for (i, line) in lines.iter().enumerate() {
        if line.is_empty() {
            s.blank();
        } else {
            let next_text = lines[i + 1..].iter().find(|l| !l.is_empty()).copied();
            s.line(line, lines.get(i + 1).copied(), next_text);
        }
    }
    s.flush_paragraph();
    s.close_heading();
    s.out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(p: &[Passage]) -> Vec<&str> {
        p.iter().map(|p| p.text.as_str()).collect()
    }

    #[test]
    fn a_paragraph_becomes_its_sentences_each_with_its_label() {
        let p = passages(
            "Shipping: free across India on orders above 1499 rupees, delivered in 4 to 6 working days. \
             Orders below that pay Rs. 80. Returns: unused items can be returned within 10 days for a full refund.",
            0,
        );
        assert_eq!(
            texts(&p),
            [
                "Shipping: free across India on orders above 1499 rupees, delivered in 4 to 6 working days.",
                "Orders below that pay Rs. 80.",
                "Returns: unused items can be returned within 10 days for a full refund.",
            ]
        );
        assert_eq!(p[1].label.as_deref(), Some("Shipping"));
        assert_eq!(p[2].label.as_deref(), Some("Returns"));
        assert!(p.iter().all(|p| p.heading.is_none() && !p.item));
    }

    #[test]
    fn sentences_keep_abbreviations_decimals_and_join_a_bare_yes() {
        assert_eq!(
            sentences("Yes. Dr. Rao sees children. It costs Rs. 4.5 lakh approx. in total! Ok?"),
            [
                "Yes. Dr. Rao sees children.",
                "It costs Rs. 4.5 lakh approx. in total! Ok?"
            ]
        );
    }

    #[test]
    fn headings_carry_over_their_bullets() {
        let p = passages(
            "About the course\nA 16-week live online programme.\n\nFees\n- Full course: ₹45,000\n- EMI: ₹7,500 a month\n\n## Schedule\n\n* Saturday and Sunday, 10 am to 1 pm\n\n**Language**\n1. English\n2) Hindi",
            0,
        );
        assert_eq!(
            texts(&p),
            [
                "A 16-week live online programme.",
                "Full course: ₹45,000",
                "EMI: ₹7,500 a month",
                "Saturday and Sunday, 10 am to 1 pm",
                "English",
                "Hindi"
            ]
        );
        let headings: Vec<_> = p.iter().map(|p| p.heading.as_deref()).collect();
        assert_eq!(
            headings,
            [
                Some("About the course"),
                Some("Fees"),
                Some("Fees"),
                Some("Schedule"),
                Some("Language"),
                Some("Language")
            ]
        );
        assert!(p[1..].iter().all(|p| p.item));
        assert_ne!(p[0].block, p[1].block);
        assert_eq!(p[1].block, p[2].block);
    }

    #[test]
    fn a_plain_heading_heads_its_own_list_only() {
        let p = passages(
            "Fees\n\n- Full course: ₹45,000\n- EMI: ₹7,500 a month\n\nLehengas: we sell bridal lehengas.",
            0,
        );
        assert_eq!(
            texts(&p),
            [
                "Full course: ₹45,000",
                "EMI: ₹7,500 a month",
                "Lehengas: we sell bridal lehengas."
            ]
        );
        assert_eq!(p[0].heading.as_deref(), Some("Fees"));
        assert_eq!(p[2].heading, None);
    }

    #[test]
    fn a_lead_in_heading_ends_with_its_list_and_an_empty_heading_is_kept() {
        let p = passages(
            "FixItNow – Hyderabad\n\nOur services:\n1) Plumbing – leaks, taps\n2) Electrical – wiring, fans\n\nVisiting charge is ₹199.",
            0,
        );
        assert_eq!(
            texts(&p),
            [
                "FixItNow – Hyderabad",
                "Plumbing – leaks, taps",
                "Electrical – wiring, fans",
                "Visiting charge is ₹199."
            ]
        );
        assert_eq!(p[1].heading.as_deref(), Some("Our services"));
        assert_eq!(p[3].heading, None);
    }

    #[test]
    fn faq_answers_carry_their_question() {
        let p = passages(
            "Q: What are your timings?\nA: We are open Monday to Saturday, 9:30 am to 8 pm. Sunday by appointment only.\n\n\
             **Is there a free trial?**\nEvery paid plan has a 14-day free trial, no card required.\n\n\
             Do you treat children?\nYes, Dr. Meera Rao sees children every Tuesday.",
            0,
        );
        assert_eq!(
            texts(&p),
            [
                "We are open Monday to Saturday, 9:30 am to 8 pm.",
                "Sunday by appointment only.",
                "Every paid plan has a 14-day free trial, no card required.",
                "Yes, Dr. Meera Rao sees children every Tuesday."
            ]
        );
        let questions: Vec<_> = p.iter().map(|p| p.question.as_deref()).collect();
        assert_eq!(
            questions,
            [
                Some("What are your timings?"),
                Some("What are your timings?"),
                Some("Is there a free trial?"),
                Some("Do you treat children?")
            ]
        );
        assert_eq!(p[0].block, p[1].block);
    }

    #[test]
    fn key_value_lines_are_passages_of_their_own() {
        let p = passages(
            "Timings: 12 noon to 11 pm, all days.\nAddress: 41, 11th Main, Jayanagar.\nParking: valet on weekends",
            0,
        );
        assert_eq!(p.len(), 3);
        assert_eq!(p[1].label.as_deref(), Some("Address"));
    }

    #[test]
    fn hand_wrapped_lines_join() {
        let p = passages("We ship across India and\ndeliver in 3 days.", 0);
        assert_eq!(texts(&p), ["We ship across India and deliver in 3 days."]);
    }
}
