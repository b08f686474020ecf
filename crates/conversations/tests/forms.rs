#![allow(clippy::expect_used, clippy::unwrap_used)]
//! Conversion form offer rules.

use ca_campaigns::settings::{ConversionForm, FormDisplayRules, FormSettings};
use ca_conversations::forms::{FormState, next_offer};

fn form(id: &str, keywords: &[&str], is_default: bool, active: bool) -> ConversionForm {
    ConversionForm {
        id: id.into(),
        name: id.into(),
        form_type: "custom".into(),
        trigger_keywords: keywords.iter().map(|k| k.to_string()).collect(),
        is_default,
        active,
        ..ConversionForm::default()
    }
}

fn settings(forms: Vec<ConversionForm>, min: i64, max: i64, cooldown: i64) -> FormSettings {
    FormSettings {
        conversion_forms: forms,
        form_display_rules: FormDisplayRules {
            min_messages_before_form: min,
            max_forms_per_conversation: max,
            cooldown_between_forms: cooldown,
        },
    }
}

fn state(messages: i64, offered: &[&str], last: Option<i64>) -> FormState {
    FormState {
        visitor_messages: messages,
        offered: offered.iter().map(|s| s.to_string()).collect(),
        last_offer_at: last,
    }
}

#[test]
fn a_trigger_keyword_offers_its_form_at_once() {
    let s = settings(
        vec![
            form("lead", &[], true, true),
            form("coupon", &["discount", "coupon"], false, true),
        ],
        3,
        2,
        5,
    );
    let offered = next_offer(&s, &state(1, &[], None), "Is there a Discount?").expect("offer");
    assert_eq!(offered.id, "coupon");
    assert!(next_offer(&s, &state(1, &[], None), "what fabrics do you have").is_none());
    // Plural forms of a keyword count.
    assert_eq!(
        next_offer(&s, &state(1, &[], None), "any coupons")
            .expect("offer")
            .id,
        "coupon"
    );
}

#[test]
fn after_the_minimum_messages_the_default_form_comes_first() {
    let s = settings(
        vec![form("a", &[], false, true), form("b", &[], true, true)],
        3,
        2,
        0,
    );
    assert!(next_offer(&s, &state(2, &[], None), "tell me more").is_none());
    assert_eq!(
        next_offer(&s, &state(3, &[], None), "tell me more")
            .expect("offer")
            .id,
        "b"
    );
    assert_eq!(
        next_offer(&s, &state(4, &["b"], Some(3)), "ok")
            .expect("offer")
            .id,
        "a"
    );
}

#[test]
fn the_cap_the_cooldown_and_inactive_forms_are_respected() {
    let s = settings(
        vec![
            form("a", &["sale"], true, true),
            form("b", &["sale"], false, true),
            form("c", &["sale"], false, false),
        ],
        0,
        2,
        3,
    );
    // Cooldown: offered at message 2, so not again before message 5.
    assert!(next_offer(&s, &state(4, &["a"], Some(2)), "sale?").is_none());
    assert_eq!(
        next_offer(&s, &state(5, &["a"], Some(2)), "sale?")
            .expect("offer")
            .id,
        "b"
    );
    // Cap of 2 reached.
    assert!(next_offer(&s, &state(9, &["a", "b"], Some(5)), "sale?").is_none());
    // The inactive form is never offered.
    let only_inactive = settings(vec![form("c", &["sale"], true, false)], 0, 5, 0);
    assert!(next_offer(&only_inactive, &state(3, &[], None), "sale").is_none());
}

#[test]
fn submissions_are_checked_against_the_field_definitions() {
    use ca_campaigns::settings::FormField;
    use ca_conversations::forms::validate_submission;
    let field = |name: &str, t: &str, required: bool| FormField {
        name: name.into(),
        label: name[..1].to_uppercase() + &name[1..],
        field_type: t.into(),
        required,
        placeholder: String::new(),
    };
    let mut f = form("demo", &[], true, true);
    f.fields = vec![
        field("email", "email", true),
        field("name", "text", true),
        field("phone", "phone", false),
        field("city", "text", false),
    ];
    let v = |pairs: &[(&str, &str)]| {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect::<Vec<_>>()
    };

    let ok = validate_submission(
        &f,
        &v(&[
            ("email", " Asha@Example.IN "),
            ("name", "Asha"),
            ("city", "Pune"),
        ]),
    )
    .expect("valid");
    assert_eq!(ok.email.as_deref(), Some("asha@example.in"));
    assert_eq!(ok.name.as_deref(), Some("Asha"));
    assert_eq!(ok.phone, None);
    assert_eq!(ok.other, vec![("city".to_string(), "Pune".to_string())]);

    let bad = validate_submission(&f, &v(&[("email", "not-an-email"), ("phone", "12ab")]))
        .expect_err("invalid");
    assert_eq!(bad["email"], vec!["Please enter a valid email address"]);
    assert_eq!(bad["name"], vec!["Name is required"]);
    assert_eq!(bad["phone"], vec!["Please enter a valid phone number"]);

    // Every field is one line: a visitor's line breaks and control
    // characters cannot write lines of their own into the owner's lead
    // email ("Asha\n\nYour account is locked: …").
    let one_line = validate_submission(
        &f,
        &v(&[
            ("email", "asha@example.in"),
            (
                "name",
                "Asha\r\n\nYour account is locked:\u{1b}[2J https://evil.example",
            ),
            ("city", "\tPune \u{0085} West "),
        ]),
    )
    .expect("valid");
    assert_eq!(
        one_line.name.as_deref(),
        Some("Asha Your account is locked: [2J https://evil.example")
    );
    assert_eq!(
        one_line.other,
        vec![("city".to_string(), "Pune West".to_string())]
    );
    // Nothing but spaces and line breaks is nothing.
    let blank = validate_submission(&f, &v(&[("email", "a@example.in"), ("name", "\n \r\n")]))
        .expect_err("name is required");
    assert_eq!(blank["name"], vec!["Name is required"]);
}
