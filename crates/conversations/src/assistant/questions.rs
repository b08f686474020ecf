//! When two visitor questions count as the same one: the owner's list of
//! questions the assistant could not answer groups their repeats.

use super::language::words;

/// Longest stored form of an unanswered question, in characters.
const QUESTION_KEY_MAX: usize = 200;

/// The form in which questions are counted as the same: lower case, words
/// only.
pub fn question_key(question: &str) -> String {
    words(question)
        .join(" ")
        .chars()
        .take(QUESTION_KEY_MAX)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn questions_count_as_one_whatever_their_case_spacing_or_punctuation() {
        assert_eq!(
            question_key("  Do you ship to PUNE?? "),
            question_key("do you ship to pune")
        );
        assert_eq!(question_key("Is COD ₹50 extra?"), "is cod ₹ 50 extra");
        assert_eq!(
            question_key(&"why ".repeat(100)).chars().count(),
            QUESTION_KEY_MAX
        );
    }
}
