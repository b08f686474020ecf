#![allow(clippy::expect_used, clippy::unwrap_used)]
//! Simulated tests with a look every day, as an owner who checks the results
//! each morning would make. Run with `--nocapture` to see the figures.
//!
//! - A/A tests (both arms the same): how often a winner is called anyway.
//!   The always-valid test must stay at or under 5 % however often it is
//!   looked at; the textbook fixed-horizon z-test, checked every day, is
//!   reported beside it.
//! - A/B tests with a true 20 % lift: how often, and how soon, the lift is
//!   called, on the conversion rate and on revenue per visitor (more buyers,
//!   or bigger orders).

use ca_experiments::stats::{Arm, Metric, Rules, Verdict, Z_95, compare, decide};
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand_distr::{Binomial, Distribution, LogNormal};

const DAYS: u32 = 28;

/// One day's visitors to an arm, converting at `rate`; buyers among the
/// converted spend a log-normal amount (median ₹1,200, a long tail).
fn day(rng: &mut StdRng, arm: &mut Arm, visitors: u64, rate: f64, buy_rate: f64) {
    let converted = Binomial::new(visitors, rate).unwrap().sample(rng);
    arm.visitors += visitors;
    arm.conversions += converted;
    if buy_rate > 0.0 {
        let buyers = Binomial::new(converted, buy_rate).unwrap().sample(rng);
        let spend = LogNormal::new(1200.0_f64.ln(), 0.8).unwrap();
        for _ in 0..buyers {
            let v: f64 = spend.sample(rng);
            arm.revenue += v;
            arm.revenue_squares += v * v;
        }
    }
}

/// The textbook two-proportion z-test at 5 %, as a dashboard that shows
/// "significant" whenever p < 0.05 does.
fn naive_significant(c: &Arm, v: &Arm, metric: Metric) -> bool {
    let (nc, nv) = (c.visitors as f64, v.visitors as f64);
    let var = |a: &Arm| match metric {
        Metric::ConversionRate => {
            let p = a.conversion_rate();
            p * (1.0 - p)
        }
        Metric::RevenuePerVisitor => {
            let n = a.visitors as f64;
            let m = a.revenue / n;
            ((a.revenue_squares - n * m * m) / (n - 1.0)).max(0.0)
        }
    };
    let se = (var(c) / nc + var(v) / nv).sqrt();
    se > 0.0 && ((v.mean(metric) - c.mean(metric)) / se).abs() > Z_95
}

struct Outcome {
    /// The always-valid test called a winner at some daily look (no minimum days).
    any_look: bool,
    /// The product's decision (7 days, minimum sample) called the variant.
    variant_called: bool,
    /// The product's decision called any winner.
    any_called: bool,
    /// The day the product called the variant.
    day_called: Option<u32>,
    /// The naive z-test was "significant" at some daily look.
    naive: bool,
}

fn run(seed: u64, visitors: u64, rates: (f64, f64), buy: f64, metric: Metric) -> Outcome {
    run_with(seed, metric, |rng, c, v| {
        day(rng, c, visitors, rates.0, buy);
        day(rng, v, visitors, rates.1, buy);
    })
}

/// A shop's buyers: the share of visitors who order, and the average order.
#[derive(Clone, Copy)]
struct Shop {
    buy_rate: f64,
    average_order: f64,
}

/// Spread of order values (log-normal σ): with an average of ₹1,500 the
/// median order is about ₹1,090 and one order in twenty is over ₹4,000.
const ORDER_SIGMA: f64 = 0.8;

/// One day's visitors to an arm of `shop`: each orders with the shop's rate,
/// for a log-normal amount with the shop's average.
fn orders_day(rng: &mut StdRng, arm: &mut Arm, visitors: u64, shop: Shop) {
    let buyers = Binomial::new(visitors, shop.buy_rate).unwrap().sample(rng);
    arm.visitors += visitors;
    arm.conversions += buyers;
    let mu = shop.average_order.ln() - ORDER_SIGMA * ORDER_SIGMA / 2.0;
    let spend = LogNormal::new(mu, ORDER_SIGMA).unwrap();
    for _ in 0..buyers {
        let v: f64 = spend.sample(rng);
        arm.revenue += v;
        arm.revenue_squares += v * v;
    }
}

/// One test of `DAYS` daily looks; `step` adds a day's visitors to the
/// control and the variant.
fn run_with(
    seed: u64,
    metric: Metric,
    mut step: impl FnMut(&mut StdRng, &mut Arm, &mut Arm),
) -> Outcome {
    let mut rng = StdRng::seed_from_u64(seed);
    let (mut c, mut v) = (Arm::default(), Arm::default());
    let rules = Rules {
        max_days: f64::from(DAYS),
        ..Rules::default()
    };
    let mut out = Outcome {
        any_look: false,
        variant_called: false,
        any_called: false,
        day_called: None,
        naive: false,
    };
    for d in 1..=DAYS {
        step(&mut rng, &mut c, &mut v);
        if let Some(cmp) = compare(&c, &v, metric, rules.alpha)
            && (cmp.variant_better() || cmp.variant_worse())
        {
            out.any_look = true;
        }
        if naive_significant(&c, &v, metric) {
            out.naive = true;
        }
        if !out.any_called {
            match decide(&[c, v], metric, &rules, f64::from(d)) {
                Verdict::Winner(w) => {
                    out.any_called = true;
                    if w == 1 {
                        out.variant_called = true;
                        out.day_called = Some(d);
                    }
                }
                Verdict::Inconclusive => break,
                _ => {}
            }
        }
    }
    out
}

fn share(outcomes: &[Outcome], f: impl Fn(&Outcome) -> bool) -> f64 {
    outcomes.iter().filter(|o| f(o)).count() as f64 / outcomes.len() as f64
}

/// The median day on which the variant was called (0 when it never was).
fn median_day(outcomes: &[Outcome]) -> u32 {
    let mut days: Vec<u32> = outcomes.iter().filter_map(|o| o.day_called).collect();
    days.sort_unstable();
    days.get(days.len() / 2).copied().unwrap_or(0)
}

#[test]
fn a_a_tests_looked_at_every_day_call_a_false_winner_in_at_most_5_percent() {
    let runs = 1000;
    for (metric, visitors, buy, label) in [
        (
            Metric::ConversionRate,
            400,
            0.0,
            "conversion rate, 5 %, 400 visitors/day/arm",
        ),
        (
            Metric::ConversionRate,
            2000,
            0.0,
            "conversion rate, 5 %, 2,000 visitors/day/arm",
        ),
        (
            Metric::RevenuePerVisitor,
            1000,
            0.3,
            "revenue per visitor, 5 % leads, 30 % of them buy, 1,000 visitors/day/arm",
        ),
    ] {
        let outcomes: Vec<Outcome> = (0..runs)
            .map(|s| run(s, visitors, (0.05, 0.05), buy, metric))
            .collect();
        let always_valid = share(&outcomes, |o| o.any_look);
        let product = share(&outcomes, |o| o.any_called);
        let naive = share(&outcomes, |o| o.naive);
        println!(
            "A/A {label}, {runs} tests, {DAYS} daily looks: always-valid test {:.1} % false winners at any look, \
             the product's decision (7 days, minimum sample) {:.1} %, naive daily z-test {:.1} %",
            100.0 * always_valid,
            100.0 * product,
            100.0 * naive
        );
        assert!(always_valid <= 0.05, "{label}: {always_valid}");
        assert!(product <= 0.05, "{label}: {product}");
        assert!(
            naive > 2.0 * always_valid.max(0.02),
            "{label}: naive {naive}"
        );
    }
}

#[test]
fn a_true_20_percent_lift_is_called_and_the_control_almost_never() {
    let runs = 1000;
    for (visitors, power, label) in [
        (400, 0.6, "400 visitors/day/arm"),
        (1000, 0.95, "1,000 visitors/day/arm"),
    ] {
        let outcomes: Vec<Outcome> = (0..runs)
            .map(|s| {
                run(
                    10_000 + s,
                    visitors,
                    (0.05, 0.06),
                    0.0,
                    Metric::ConversionRate,
                )
            })
            .collect();
        let called = share(&outcomes, |o| o.variant_called);
        let wrong = share(&outcomes, |o| o.any_called && !o.variant_called);
        let median = median_day(&outcomes);
        println!(
            "A/B 5 % → 6 % ({label}), {runs} tests, {DAYS} days: the variant called in {:.1} % (median day {median}), \
             the control called in {:.1} %",
            100.0 * called,
            100.0 * wrong
        );
        assert!(called >= power, "{label}: {called}");
        assert!(wrong <= 0.01, "{label}: {wrong}");
    }
}

#[test]
fn a_true_20_percent_lift_in_revenue_per_visitor_is_called_and_the_control_almost_never() {
    let runs = 1000;
    // 5 % of visitors order, ₹1,500 on average: ₹75 per visitor. The variant
    // makes ₹90 per visitor, either with more buyers or with bigger orders.
    let control = Shop {
        buy_rate: 0.05,
        average_order: 1500.0,
    };
    let more_buyers = Shop {
        buy_rate: 0.06,
        ..control
    };
    let bigger_orders = Shop {
        average_order: 1800.0,
        ..control
    };
    println!(
        "A/B revenue per visitor ₹75 → ₹90 (5 % order, ₹1,500 average, log-normal σ {ORDER_SIGMA}), {runs} tests, {DAYS} daily looks:"
    );
    println!(
        "  {:<34} {:>18} {:>14} {:>11} {:>16}",
        "variant", "visitors/day/arm", "variant called", "median day", "control called"
    );
    for (variant, visitors, power, label) in [
        (more_buyers, 1000, 0.65, "6 % order, ₹1,500 average"),
        (more_buyers, 2000, 0.9, "6 % order, ₹1,500 average"),
        (bigger_orders, 1000, 0.65, "5 % order, ₹1,800 average"),
        (bigger_orders, 2000, 0.9, "5 % order, ₹1,800 average"),
    ] {
        let outcomes: Vec<Outcome> = (0..runs)
            .map(|s| {
                run_with(20_000 + s, Metric::RevenuePerVisitor, |rng, c, v| {
                    orders_day(rng, c, visitors, control);
                    orders_day(rng, v, visitors, variant);
                })
            })
            .collect();
        let called = share(&outcomes, |o| o.variant_called);
        let wrong = share(&outcomes, |o| o.any_called && !o.variant_called);
        println!(
            "  {label:<34} {visitors:>18} {:>12.1} % {:>11} {:>14.1} %",
            100.0 * called,
            median_day(&outcomes),
            100.0 * wrong
        );
        assert!(called >= power, "{label}, {visitors}/day: {called}");
        assert!(wrong <= 0.01, "{label}, {visitors}/day: {wrong}");
    }
}
