#![allow(clippy::expect_used, clippy::unwrap_used)]
//! The builtin assistant on a realistic knowledge base: an Indian handloom shop.

use ca_conversations::assistant::builtin::{Intent, Knowledge, reply};

const KNOWLEDGE_BASE: &str = "\
Shipping: We ship across India. Delivery takes 3-5 business days to metro cities and 5-8 days elsewhere. Shipping is free on orders above ₹999; below that a flat ₹79 applies.

Cash on delivery (COD) is available on orders up to ₹10,000 for a ₹49 handling fee.

Returns: You can return unused products within 7 days of delivery. Refunds reach your original payment method within 5-7 working days after we receive the item.

Prices: Cotton sarees start at ₹1,299. Silk sarees cost ₹4,999 to ₹18,000. Dupattas start at ₹599.

Payment: We accept UPI, credit and debit cards, net banking and wallets.

Care: Dry clean silk sarees only. Cotton sarees can be hand washed in cold water.";

const BUSINESS_INFO: &str = "Kesar Handlooms, Jaipur. Handwoven sarees and dupattas since 1998.\n\nCall us on +91 98290 12345 or email care@kesarhandlooms.in, Monday to Saturday 10am to 7pm.";

fn ask(message: &str) -> ca_conversations::assistant::builtin::BuiltinReply {
    reply(
        &Knowledge {
            knowledge_base: KNOWLEDGE_BASE,
            business_info: BUSINESS_INFO,
        },
        message,
    )
}

#[test]
fn answers_from_the_right_passage() {
    let cod = ask("Do you have cash on delivery?");
    assert!(
        cod.text.starts_with("Cash on delivery (COD) is available"),
        "{}",
        cod.text
    );
    assert!(cod.grounded);
    assert!(!cod.asks_for_email);

    let shipping = ask("How many days will delivery take to Bangalore?");
    assert!(
        shipping.text.contains("3-5 business days"),
        "{}",
        shipping.text
    );

    let returns = ask("Can I return a saree I bought?");
    assert!(
        returns
            .text
            .starts_with("Returns: You can return unused products within 7 days"),
        "{}",
        returns.text
    );

    let washing = ask("how should I wash a cotton saree");
    assert!(
        washing.text.contains("hand washed in cold water"),
        "{}",
        washing.text
    );

    let payment = ask("Can I pay with UPI?");
    assert!(payment.text.contains("We accept UPI"), "{}", payment.text);
}

#[test]
fn prices_are_answered_and_followed_by_an_offer_for_the_email() {
    let price = ask("How much is a silk saree?");
    assert_eq!(price.intent, Intent::Pricing);
    assert!(
        price.text.contains("Silk sarees cost ₹4,999 to ₹18,000"),
        "{}",
        price.text
    );
    assert!(price.asks_for_email);
    assert!(price.text.contains("Leave your email"));

    let discount = ask("any discount today?");
    assert!(discount.asks_for_email);
}

#[test]
fn a_person_or_contact_request_gets_the_contact_details_and_asks_for_the_email() {
    let human = ask("I want to talk to a human");
    assert_eq!(human.intent, Intent::Human);
    assert!(human.text.contains("+91 98290 12345"), "{}", human.text);
    assert!(human.asks_for_email);

    let contact = ask("what is your whatsapp number?");
    assert_eq!(contact.intent, Intent::Contact);
    assert!(
        contact.text.contains("care@kesarhandlooms.in"),
        "{}",
        contact.text
    );
}

#[test]
fn admits_what_it_does_not_know() {
    for message in [
        "Do you sell laptops?",
        "What is the warranty on the mixer grinder?",
    ] {
        let r = ask(message);
        assert!(!r.grounded, "{message}: {}", r.text);
        assert!(r.text.starts_with("I'm not sure about that"), "{}", r.text);
        assert!(r.asks_for_email);
    }
}

#[test]
fn greetings_and_thanks() {
    assert_eq!(ask("Namaste").intent, Intent::Greeting);
    assert_eq!(ask("hello!").intent, Intent::Greeting);
    assert_eq!(ask("thanks a lot").intent, Intent::Thanks);
    assert!(!ask("hi").asks_for_email);
}

#[test]
fn an_empty_knowledge_base_never_invents_an_answer() {
    let r = reply(&Knowledge::default(), "Do you deliver to Pune?");
    assert!(!r.grounded);
    assert!(r.asks_for_email);
}

#[test]
fn a_one_paragraph_knowledge_base_still_answers_what_it_covers() {
    let knowledge = Knowledge {
        knowledge_base: "Cash on delivery (COD) is available on orders up to ₹10,000.",
        business_info: "",
    };
    let r = reply(&knowledge, "Do you have COD?");
    assert!(r.grounded, "{}", r.text);
    assert!(r.text.starts_with("Cash on delivery (COD)"), "{}", r.text);
    let r = reply(&knowledge, "Do you sell laptops with warranty?");
    assert!(!r.grounded, "{}", r.text);
}

/// The four-sentence knowledge base of the issue that asked for better answers.
const SAREE_SHOP: &str = "Shipping: free across India on orders above 1499 rupees, delivered in 4 to 6 working days. Returns: unused items can be returned within 10 days for a full refund. Payment: UPI, cards and cash on delivery. Every saree is handwoven in Chanderi.";

#[test]
fn ordinary_questions_get_the_sentence_that_answers_them() {
    let knowledge = Knowledge {
        knowledge_base: SAREE_SHOP,
        business_info: "",
    };
    for (question, answer) in [
        ("What is your return policy?", "Returns: unused items"),
        (
            "How long does shipping take?",
            "Shipping: free across India",
        ),
        ("When will my order arrive?", "Shipping: free across India"),
        ("Can I get my money back?", "Returns: unused items"),
        ("Is shipping free?", "Shipping: free across India"),
    ] {
        let r = reply(&knowledge, question);
        assert!(r.grounded && !r.unanswered, "{question}: {}", r.text);
        assert!(r.text.starts_with(answer), "{question}: {}", r.text);
        assert_eq!(r.passages.len(), 1, "{question}: {:?}", r.passages);
    }
    let free = reply(&knowledge, "Is shipping free?");
    assert_eq!(
        free.text,
        "Shipping: free across India on orders above 1499 rupees, delivered in 4 to 6 working days.",
        "the sentence, not the paragraph"
    );
    assert!((free.passages[0].score - 1.0).abs() < 1e-9);
}

#[test]
fn a_heading_over_bullets_answers_with_the_bullets() {
    let knowledge = Knowledge {
        knowledge_base: "About the course\nA 16-week live online programme in SQL and Python.\n\nFees\n- Full course: ₹45,000 (including GST)\n- EMI: no-cost EMI over 6 months\n\nLanguage\n- Classes are taught in English and Hindi.",
        business_info: "",
    };
    let fees = reply(&knowledge, "What are the fees?");
    assert!(
        fees.text.starts_with(
            "Fees – Full course: ₹45,000 (including GST). EMI: no-cost EMI over 6 months."
        ),
        "{}",
        fees.text
    );
    assert_eq!(fees.passages[0].context.as_deref(), Some("Fees"));
    let tamil = reply(&knowledge, "Is the course available in Tamil?");
    assert!(tamil.unanswered, "{}", tamil.text);
    assert!(
        tamil.text.starts_with("I'm not sure about that"),
        "{}",
        tamil.text
    );
}

#[test]
fn an_faq_answer_is_found_by_its_question() {
    let knowledge = Knowledge {
        knowledge_base: "Q: Do you offer EMI?\nA: Yes, on all orders above ₹3,000 through Bajaj Finserv.\n\nQ: Where is the store?\nA: 14 MG Road, Bengaluru.",
        business_info: "",
    };
    let r = reply(&knowledge, "Can I pay in installments?");
    assert_eq!(
        r.text,
        "Yes, on all orders above ₹3,000 through Bajaj Finserv."
    );
    assert_eq!(r.passages[0].context.as_deref(), Some("Do you offer EMI?"));
    let r = reply(&knowledge, "where are you located");
    assert_eq!(r.text, "14 MG Road, Bengaluru.");
}

#[test]
fn a_question_about_two_things_gets_a_sentence_for_each() {
    let r = ask("I have a question: how long does shipping take, and is it free?");
    assert_eq!(
        r.text,
        "Delivery takes 3-5 business days to metro cities and 5-8 days elsewhere. Shipping is free on orders above ₹999; below that a flat ₹79 applies."
    );
    assert_eq!(r.passages.len(), 2);
}
