#![allow(clippy::expect_used, clippy::unwrap_used)]
//! The builtin assistant against the evaluation set in `eval/`: businesses of
//! different kinds, each written in its own style, with visitors' questions
//! and the fact each answer must hold, and questions their texts do not
//! answer. Fails below 90 % answered correctly or below 100 % honest on the
//! out-of-scope questions; prints both figures and the median reply length
//! (`cargo test -p ca-conversations --test eval -- --nocapture`).

use std::path::Path;

use ca_conversations::assistant::builtin::{Knowledge, NOT_SURE, reply};

struct Business {
    name: String,
    knowledge_base: String,
    business_info: String,
    questions: Vec<(String, String)>,
    out_of_scope: Vec<String>,
}

fn parse(name: &str, text: &str) -> Business {
    let mut business = Business {
        name: name.into(),
        knowledge_base: String::new(),
        business_info: String::new(),
        questions: Vec::new(),
        out_of_scope: Vec::new(),
    };
    let mut section = "";
    for line in text.lines() {
        if let Some(title) = line.strip_prefix("=== ") {
            section = match title.trim() {
                "knowledge base" => "kb",
                "business info" => "info",
                "questions" => "questions",
                "out of scope" => "out",
                other => panic!("{name}: unknown section {other:?}"),
            };
            continue;
        }
        match section {
            "" => assert!(
                line.starts_with('#') || line.trim().is_empty(),
                "{name}: text before the first section"
            ),
            "kb" => {
                business.knowledge_base.push_str(line);
                business.knowledge_base.push('\n');
            }
            "info" => {
                business.business_info.push_str(line);
                business.business_info.push('\n');
            }
            "questions" if !line.trim().is_empty() => {
                let (q, fact) = line
                    .split_once(" => ")
                    .unwrap_or_else(|| panic!("{name}: no ' => fact' in {line:?}"));
                business
                    .questions
                    .push((q.trim().into(), fact.trim().into()));
            }
            "out" if !line.trim().is_empty() => business.out_of_scope.push(line.trim().into()),
            _ => {}
        }
    }
    business
}

fn businesses() -> Vec<Business> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("eval");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("eval directory")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    files
        .iter()
        .map(|p| {
            let name = p.file_stem().unwrap().to_string_lossy().to_string();
            parse(&name, &std::fs::read_to_string(p).expect("eval file"))
        })
        .collect()
}

fn normalise(text: &str) -> String {
    text.to_lowercase()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn the_builtin_assistant_answers_the_evaluation_set() {
    let businesses = businesses();
    assert!(businesses.len() >= 8, "at least 8 businesses");
    let (mut asked, mut correct, mut outside, mut honest) = (0, 0, 0, 0);
    let mut lengths = Vec::new();
    let mut misses = Vec::new();
    for b in &businesses {
        let knowledge = Knowledge {
            knowledge_base: &b.knowledge_base,
            business_info: &b.business_info,
        };
        let texts = normalise(&format!("{}\n{}", b.knowledge_base, b.business_info));
        for (question, fact) in &b.questions {
            assert!(
                texts.contains(&normalise(fact)),
                "{}: the fact {fact:?} is not in the owner's texts",
                b.name
            );
            asked += 1;
            let r = reply(&knowledge, question);
            lengths.push(r.text.chars().count());
            if r.grounded && normalise(&r.text).contains(&normalise(fact)) {
                correct += 1;
            } else {
                misses.push(format!(
                    "{} · {question:?} wants {fact:?}\n    got {:?}",
                    b.name, r.text
                ));
            }
        }
        for question in &b.out_of_scope {
            outside += 1;
            let r = reply(&knowledge, question);
            if r.unanswered && r.text.starts_with(NOT_SURE) && r.asks_for_email {
                honest += 1;
            } else {
                misses.push(format!(
                    "{} · out of scope {question:?}\n    got {:?}",
                    b.name, r.text
                ));
            }
        }
    }
    lengths.sort_unstable();
    let median = lengths[lengths.len() / 2];
    let answered = 100.0 * f64::from(correct) / f64::from(asked);
    let honesty = 100.0 * f64::from(honest) / f64::from(outside);
    println!(
        "evaluation: {} businesses; {correct}/{asked} answered correctly ({answered:.1} %); \
         {honest}/{outside} out-of-scope answered honestly ({honesty:.1} %); median reply {median} characters",
        businesses.len()
    );
    for m in &misses {
        println!("  miss: {m}");
    }
    assert!(asked >= 80, "at least 80 questions, got {asked}");
    assert!(
        outside >= 24,
        "at least 24 out-of-scope questions, got {outside}"
    );
    assert!(
        answered >= 90.0,
        "answered correctly {answered:.1} % < 90 %"
    );
    assert_eq!(
        honest, outside,
        "every out-of-scope question gets the honest answer"
    );
}
