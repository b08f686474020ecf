//! The numbers behind an A/B test's results table and its decision.
//!
//! - Each arm's conversion rate carries a 95 % Wilson score interval.
//! - A variant is compared with the control through a mixture sequential
//!   probability ratio test (mSPRT, as in Johari, Pekelis and Walsh, "Always
//!   Valid Inference", the method behind Optimizely's Stats Engine): its
//!   interval for the difference covers the true difference at every look at
//!   once, so "significant" means the same whether the owner looks once on
//!   day 20 or every hour from day 1.
//! - "Probability to be best" is the share of draws from each arm's
//!   posterior in which that arm is ahead: a description of the data so far,
//!   not a decision.

use rand::SeedableRng;
use rand::rngs::StdRng;
use rand_distr::{Beta, Distribution, Normal};
use serde::{Deserialize, Serialize};

/// The quantile of the standard normal distribution for a two-sided 95 %.
pub const Z_95: f64 = 1.959_963_984_540_054;

/// What a test is decided on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Metric {
    /// Leads per visitor who saw the popup.
    ConversionRate,
    /// Attributed revenue per visitor who saw the popup.
    RevenuePerVisitor,
}

/// What one arm (the control or a variant) has recorded.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Arm {
    /// Visitors who saw this arm's popup.
    pub visitors: u64,
    /// Those visitors who became leads.
    pub conversions: u64,
    /// Revenue attributed to the arm, in the campaign's currency.
    pub revenue: f64,
    /// The sum, over visitors, of the square of each visitor's revenue: what
    /// the spread of revenue per visitor is computed from.
    pub revenue_squares: f64,
}

impl Arm {
    /// Leads per visitor (0 before the first visitor).
    pub fn conversion_rate(&self) -> f64 {
        if self.visitors == 0 {
            return 0.0;
        }
        self.conversions.min(self.visitors) as f64 / self.visitors as f64
    }

    /// Revenue per visitor (0 before the first visitor).
    pub fn revenue_per_visitor(&self) -> f64 {
        if self.visitors == 0 {
            return 0.0;
        }
        self.revenue / self.visitors as f64
    }

    /// The arm's mean for `metric`.
    pub fn mean(&self, metric: Metric) -> f64 {
        match metric {
            Metric::ConversionRate => self.conversion_rate(),
            Metric::RevenuePerVisitor => self.revenue_per_visitor(),
        }
    }

    /// The variance of one visitor's value for `metric` (the sample variance
    /// for revenue, p(1-p) for a conversion).
    fn variance(&self, metric: Metric) -> f64 {
        match metric {
            Metric::ConversionRate => {
                let p = self.conversion_rate();
                p * (1.0 - p)
            }
            Metric::RevenuePerVisitor => {
                if self.visitors < 2 {
                    return 0.0;
                }
                let n = self.visitors as f64;
                let mean = self.revenue / n;
                ((self.revenue_squares - n * mean * mean) / (n - 1.0)).max(0.0)
            }
        }
    }
}

/// The Wilson score interval for `successes` out of `trials` at the normal
/// quantile `z` (use [`Z_95`] for 95 %): unlike the textbook "p ± z·se" it
/// stays inside 0..1 and keeps its coverage for small counts and rates near
/// 0, which is where popups convert.
pub fn wilson_interval(successes: u64, trials: u64, z: f64) -> (f64, f64) {
    if trials == 0 {
        return (0.0, 1.0);
    }
    let n = trials as f64;
    let p = successes.min(trials) as f64 / n;
    let z2 = z * z;
    let denominator = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denominator;
    let half = z / denominator * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// How wide the mixture of alternatives is, relative to the metric's mean:
/// the test is most sensitive to lifts of about this size. A design
/// constant, fixed before any data (the simulation tests report what it
/// gives: detection of a 20 % lift, false winners in A/A tests).
pub const MIXTURE_RELATIVE_SCALE: f64 = 0.2;

/// A variant against the control at one look.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Comparison {
    /// The variant's mean minus the control's.
    pub difference: f64,
    /// An always-valid interval for the difference at level `1 - alpha`:
    /// with probability `1 - alpha` it holds the true difference at every
    /// look of the test at once.
    pub lower: f64,
    /// See `lower`.
    pub upper: f64,
    /// The evidence at this look as an always-valid p-value (`1 / Λ`, at
    /// most 1); a decision keeps the smallest value seen.
    pub p_value: f64,
}

impl Comparison {
    /// The variant is ahead of the control beyond doubt at this level.
    pub fn variant_better(&self) -> bool {
        self.lower > 0.0
    }

    /// The variant is behind the control beyond doubt at this level.
    pub fn variant_worse(&self) -> bool {
        self.upper < 0.0
    }
}

/// Compares `variant` with `control` on `metric` with the mixture
/// sequential probability ratio test at level `alpha` (two-sided). `None`
/// while there is nothing to compare yet: fewer than two visitors in an arm,
/// or no spread at all (no conversion, no revenue anywhere).
pub fn compare(control: &Arm, variant: &Arm, metric: Metric, alpha: f64) -> Option<Comparison> {
    if control.visitors < 2 || variant.visitors < 2 || !(alpha > 0.0 && alpha < 1.0) {
        return None;
    }
    let (nc, nv) = (control.visitors as f64, variant.visitors as f64);
    let v = control.variance(metric) / nc + variant.variance(metric) / nv;
    // The mixture is centred on "no difference" and scaled to the pooled
    // mean, which is the same for both arms when there is no difference.
    let pooled = (control.mean(metric) * nc + variant.mean(metric) * nv) / (nc + nv);
    let tau = MIXTURE_RELATIVE_SCALE * pooled.abs();
    if !(v > 0.0 && tau > 0.0) {
        return None;
    }
    let tau2 = tau * tau;
    let difference = variant.mean(metric) - control.mean(metric);
    let log_lambda =
        0.5 * (v / (v + tau2)).ln() + difference * difference * tau2 / (2.0 * v * (v + tau2));
    let half = (v * (v + tau2) / tau2 * (((v + tau2) / v).ln() - 2.0 * alpha.ln())).sqrt();
    Some(Comparison {
        difference,
        lower: difference - half,
        upper: difference + half,
        p_value: (-log_lambda).exp().min(1.0),
    })
}

/// How many posterior draws "probability to be best" takes.
pub const DRAWS: usize = 20_000;

/// For each arm, the probability that it is the best of `arms` on `metric`
/// given the data so far: the share of joint posterior draws (Beta(1 + leads,
/// 1 + visitors − leads) for a conversion rate; a normal with the sample
/// mean and its standard error for revenue per visitor) in which the arm is
/// ahead; ties are shared. The draws are seeded, so the same figures give the
/// same answer on every look. Arms with fewer than two visitors make every
/// arm equally likely: nothing is known yet.
pub fn probability_to_be_best(arms: &[Arm], metric: Metric) -> Vec<f64> {
    let k = arms.len();
    if k == 0 {
        return Vec::new();
    }
    if k == 1 {
        return vec![1.0];
    }
    if arms.iter().any(|a| a.visitors < 2) {
        return vec![1.0 / k as f64; k];
    }
    enum Posterior {
        Beta(Beta<f64>),
        Normal(Normal<f64>),
    }
    let mut posteriors = Vec::with_capacity(k);
    for a in arms {
        let p = match metric {
            Metric::ConversionRate => {
                let c = a.conversions.min(a.visitors) as f64;
                match Beta::new(1.0 + c, 1.0 + a.visitors as f64 - c) {
                    Ok(b) => Posterior::Beta(b),
                    Err(_) => return vec![1.0 / k as f64; k],
                }
            }
            Metric::RevenuePerVisitor => {
                let se = (a.variance(metric) / a.visitors as f64).sqrt();
                match Normal::new(a.revenue_per_visitor(), se) {
                    Ok(n) => Posterior::Normal(n),
                    Err(_) => return vec![1.0 / k as f64; k],
                }
            }
        };
        posteriors.push(p);
    }
    let mut rng = StdRng::seed_from_u64(0x00ab_7e57);
    let mut wins = vec![0.0_f64; k];
    let mut draw = vec![0.0_f64; k];
    for _ in 0..DRAWS {
        for (d, p) in draw.iter_mut().zip(&posteriors) {
            *d = match p {
                Posterior::Beta(b) => b.sample(&mut rng),
                Posterior::Normal(n) => n.sample(&mut rng),
            };
        }
        let best = draw.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let ahead = draw.iter().filter(|d| **d == best).count() as f64;
        for (w, d) in wins.iter_mut().zip(&draw) {
            if *d == best {
                *w += 1.0 / ahead;
            }
        }
    }
    wins.into_iter().map(|w| w / DRAWS as f64).collect()
}

/// When a test may be called.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rules {
    /// The chance of calling a winner when the arms are in truth the same,
    /// over the whole test however often it is looked at (shared out among
    /// the variants' comparisons with the control).
    pub alpha: f64,
    /// No call before this many days: a week holds every weekday once, and
    /// shoppers on a Sunday are not shoppers on a Tuesday.
    pub min_days: f64,
    /// After this many days without a call the test is inconclusive.
    pub max_days: f64,
    /// No call before every arm has this many visitors.
    pub min_visitors: u64,
    /// No call on conversion rate before every arm has this many leads.
    pub min_conversions: u64,
}

impl Default for Rules {
    fn default() -> Self {
        Self {
            alpha: 0.05,
            min_days: 7.0,
            max_days: 30.0,
            min_visitors: 200,
            min_conversions: 5,
        }
    }
}

/// Where a test stands at one look.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Verdict {
    /// Too early for any call: fewer than `Rules::min_days` days.
    TooEarly,
    /// Too little data for any call yet.
    TooFewVisitors,
    /// Running; no arm is ahead beyond doubt yet.
    Running,
    /// An arm (0 is the control) wins: a variant ahead of the control beyond
    /// doubt (the best such), or the control when every variant is behind it.
    Winner(usize),
    /// The maximum duration passed without a call.
    Inconclusive,
}

/// Decides a test whose arms are `arms` (the control first, then the
/// variants still running) after `days` days.
pub fn decide(arms: &[Arm], metric: Metric, rules: &Rules, days: f64) -> Verdict {
    if arms.len() < 2 {
        return if days >= rules.max_days {
            Verdict::Inconclusive
        } else {
            Verdict::Running
        };
    }
    if days < rules.min_days {
        return Verdict::TooEarly;
    }
    let enough = arms.iter().all(|a| {
        a.visitors >= rules.min_visitors
            && (metric != Metric::ConversionRate || a.conversions >= rules.min_conversions)
    });
    if !enough {
        return if days >= rules.max_days {
            Verdict::Inconclusive
        } else {
            Verdict::TooFewVisitors
        };
    }
    let variants = arms.len() - 1;
    let alpha = rules.alpha / variants as f64;
    let control = &arms[0];
    let mut best: Option<usize> = None;
    let mut worse = 0;
    for (i, arm) in arms.iter().enumerate().skip(1) {
        let Some(c) = compare(control, arm, metric, alpha) else {
            continue;
        };
        if c.variant_better() && best.is_none_or(|b| arm.mean(metric) > arms[b].mean(metric)) {
            best = Some(i);
        }
        if c.variant_worse() {
            worse += 1;
        }
    }
    if let Some(b) = best {
        Verdict::Winner(b)
    } else if worse == variants {
        Verdict::Winner(0)
    } else if days >= rules.max_days {
        Verdict::Inconclusive
    } else {
        Verdict::Running
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arm(visitors: u64, conversions: u64) -> Arm {
        Arm {
            visitors,
            conversions,
            ..Arm::default()
        }
    }

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    /// Newcombe (1998), "Two-sided confidence intervals for the single
    /// proportion", Statistics in Medicine 17, table II, method 3 (Wilson):
    /// 81/263 → 0.2553–0.3662, 15/148 → 0.0624–0.1605, 0/20 → 0–0.1611,
    /// 1/29 → 0.0061–0.1718.
    #[test]
    fn wilson_intervals_match_newcombe_s_published_examples() {
        for (s, n, lo, hi) in [
            (81, 263, 0.2553, 0.3662),
            (15, 148, 0.0624, 0.1605),
            (0, 20, 0.0, 0.1611),
            (1, 29, 0.0061, 0.1718),
        ] {
            let (l, h) = wilson_interval(s, n, Z_95);
            assert!(close(l, lo, 0.00006), "{s}/{n}: lower {l} vs {lo}");
            assert!(close(h, hi, 0.00006), "{s}/{n}: upper {h} vs {hi}");
        }
        assert_eq!(wilson_interval(0, 0, Z_95), (0.0, 1.0));
    }

    /// Johari, Pekelis and Walsh: Λ = sqrt(V/(V+τ²)) · exp(θ²τ² / (2V(V+τ²))),
    /// and the interval θ ± sqrt(V(V+τ²)/τ² · (ln((V+τ²)/V) − 2 ln α)) is
    /// exactly where Λ < 1/α. Checked by hand for 50/1000 against 80/1000.
    #[test]
    fn the_mixture_test_matches_its_closed_form() {
        let (c, v) = (arm(1000, 50), arm(1000, 80));
        let got = compare(&c, &v, Metric::ConversionRate, 0.05).unwrap_or_else(|| panic!());
        let var = 0.05 * 0.95 / 1000.0 + 0.08 * 0.92 / 1000.0;
        let tau2 = (0.2_f64 * 0.065).powi(2);
        let theta = 0.03_f64;
        let lambda =
            (var / (var + tau2)).sqrt() * (theta * theta * tau2 / (2.0 * var * (var + tau2))).exp();
        assert!(close(got.difference, 0.03, 1e-12));
        assert!(close(got.p_value, 1.0 / lambda, 1e-12));
        // At the interval's edge the evidence is exactly 1/α.
        let edge = got.lower.abs().max(got.upper.abs()) - got.difference.abs();
        let at_edge =
            (var / (var + tau2)).sqrt() * (edge * edge * tau2 / (2.0 * var * (var + tau2))).exp();
        assert!(close(at_edge, 20.0, 1e-6), "{at_edge}");
        // 3 points on 5 % is seen at 1,000 visitors a side only loosely.
        assert!(got.lower < 0.03 && got.upper > 0.03);
    }

    #[test]
    fn the_always_valid_interval_is_wider_than_the_fixed_one() {
        let (c, v) = (arm(20_000, 1_000), arm(20_000, 1_150));
        let got = compare(&c, &v, Metric::ConversionRate, 0.05).unwrap_or_else(|| panic!());
        let se = (0.05 * 0.95 / 20_000.0 + 0.0575 * 0.9425 / 20_000.0_f64).sqrt();
        assert!(got.upper - got.lower > 2.0 * Z_95 * se);
        assert!(got.variant_better(), "{got:?}");
        assert!(got.p_value < 0.05);
    }

    #[test]
    fn nothing_to_compare_gives_no_comparison() {
        assert!(compare(&arm(1, 0), &arm(100, 3), Metric::ConversionRate, 0.05).is_none());
        assert!(compare(&arm(100, 0), &arm(100, 0), Metric::ConversionRate, 0.05).is_none());
        assert!(compare(&arm(100, 0), &arm(100, 0), Metric::RevenuePerVisitor, 0.05).is_none());
    }

    /// Evan Miller, "Formulas for Bayesian A/B testing": for Beta posteriors
    /// P(B > A) = Σ_{i=0}^{αB−1} B(αA+i, βA+βB) / ((βB+i) B(1+i, βB) B(αA, βA)).
    fn exact_b_beats_a(a: (f64, f64), b: (f64, f64)) -> f64 {
        fn ln_beta(x: f64, y: f64) -> f64 {
            ln_gamma(x) + ln_gamma(y) - ln_gamma(x + y)
        }
        // Lanczos approximation, accurate to ~1e-13 for x > 0.
        fn ln_gamma(x: f64) -> f64 {
            const G: [f64; 9] = [
                0.999_999_999_999_809_9,
                676.520_368_121_885_1,
                -1_259.139_216_722_402_8,
                771.323_428_777_653_1,
                -176.615_029_162_140_6,
                12.507_343_278_686_905,
                -0.138_571_095_265_720_12,
                9.984_369_578_019_572e-6,
                1.505_632_735_149_311_6e-7,
            ];
            let x = x - 1.0;
            let mut s = G[0];
            for (i, g) in G.iter().enumerate().skip(1) {
                s += g / (x + i as f64);
            }
            let t = x + 7.5;
            0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + s.ln()
        }
        let (aa, ba) = a;
        let (ab, bb) = b;
        let mut total = 0.0;
        for i in 0..(ab as u64) {
            let i = i as f64;
            total +=
                (ln_beta(aa + i, ba + bb) - (bb + i).ln() - ln_beta(1.0 + i, bb) - ln_beta(aa, ba))
                    .exp();
        }
        total
    }

    #[test]
    fn probability_to_be_best_agrees_with_the_exact_two_arm_formula() {
        for (c, v) in [
            (arm(1000, 50), arm(1000, 62)),
            (arm(400, 20), arm(400, 20)),
            (arm(3000, 90), arm(2800, 70)),
        ] {
            let got = probability_to_be_best(&[c, v], Metric::ConversionRate);
            let exact = exact_b_beats_a(
                (
                    1.0 + c.conversions as f64,
                    1.0 + (c.visitors - c.conversions) as f64,
                ),
                (
                    1.0 + v.conversions as f64,
                    1.0 + (v.visitors - v.conversions) as f64,
                ),
            );
            assert!(close(got[1], exact, 0.01), "{got:?} vs {exact}");
            assert!(close(got[0] + got[1], 1.0, 1e-9));
        }
    }

    #[test]
    fn probability_to_be_best_is_shared_when_nothing_is_known() {
        assert_eq!(
            probability_to_be_best(&[arm(0, 0), arm(0, 0), arm(1, 0)], Metric::ConversionRate),
            vec![1.0 / 3.0; 3]
        );
        // No revenue anywhere: every draw is a tie.
        let p = probability_to_be_best(&[arm(50, 1), arm(50, 2)], Metric::RevenuePerVisitor);
        assert!(close(p[0], 0.5, 1e-9) && close(p[1], 0.5, 1e-9), "{p:?}");
    }

    #[test]
    fn revenue_per_visitor_uses_the_sample_variance() {
        // Four visitors who spent 0, 0, 100 and 300.
        let a = Arm {
            visitors: 4,
            conversions: 2,
            revenue: 400.0,
            revenue_squares: 100_000.0,
        };
        assert!(close(a.revenue_per_visitor(), 100.0, 1e-12));
        // ((0-100)² + (0-100)² + 0 + 200²) / 3 = 20,000.
        assert!(close(a.variance(Metric::RevenuePerVisitor), 20_000.0, 1e-9));
    }

    #[test]
    fn no_call_before_the_minimum_days_and_sample() {
        let rules = Rules::default();
        let strong = [arm(5000, 100), arm(5000, 300)];
        assert_eq!(
            decide(&strong, Metric::ConversionRate, &rules, 3.0),
            Verdict::TooEarly
        );
        assert_eq!(
            decide(&strong, Metric::ConversionRate, &rules, 7.0),
            Verdict::Winner(1)
        );
        let small = [arm(150, 10), arm(150, 40)];
        assert_eq!(
            decide(&small, Metric::ConversionRate, &rules, 10.0),
            Verdict::TooFewVisitors
        );
        assert_eq!(
            decide(&small, Metric::ConversionRate, &rules, 30.0),
            Verdict::Inconclusive
        );
    }

    #[test]
    fn the_control_wins_when_every_variant_is_behind_it() {
        let rules = Rules::default();
        let arms = [arm(8000, 400), arm(8000, 200), arm(8000, 150)];
        assert_eq!(
            decide(&arms, Metric::ConversionRate, &rules, 8.0),
            Verdict::Winner(0)
        );
        // One behind and one level: keep running.
        let arms = [arm(8000, 400), arm(8000, 200), arm(8000, 405)];
        assert_eq!(
            decide(&arms, Metric::ConversionRate, &rules, 8.0),
            Verdict::Running
        );
        assert_eq!(
            decide(&arms, Metric::ConversionRate, &rules, 30.0),
            Verdict::Inconclusive
        );
    }

    #[test]
    fn the_best_of_several_winning_variants_wins() {
        let rules = Rules::default();
        let arms = [
            arm(10_000, 300),
            arm(10_000, 500),
            arm(10_000, 620),
            arm(10_000, 310),
        ];
        assert_eq!(
            decide(&arms, Metric::ConversionRate, &rules, 9.0),
            Verdict::Winner(2)
        );
    }
}
