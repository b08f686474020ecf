//! Reads test counts out of the runners' closing lines.

/// Passed and failed tests seen in a runner's output.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Counts {
    pub passed: u64,
    pub failed: u64,
}

/// Which runner printed the output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Runner {
    Cargo,
    Vitest,
    Playwright,
}

fn strip_ansi(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            if chars.peek() == Some(&'[') {
                chars.next();
                for d in chars.by_ref() {
                    if d.is_ascii_alphabetic() {
                        break;
                    }
                }
            }
            continue;
        }
        out.push(c);
    }
    out
}

/// The number written just before `word` in `text` (e.g. `12 passed`).
fn number_before(text: &str, word: &str) -> Option<u64> {
    let idx = text.find(word)?;
    text[..idx].split_whitespace().last()?.parse().ok()
}

/// Adds what one output line says to `counts`.
pub fn read_line(runner: Runner, raw: &str, counts: &mut Counts) {
    let line = strip_ansi(raw);
    let t = line.trim();
    match runner {
        Runner::Cargo => {
            if let Some(rest) = t.strip_prefix("test result:") {
                counts.passed += number_before(rest, " passed").unwrap_or(0);
                counts.failed += number_before(rest, " failed").unwrap_or(0);
            }
        }
        Runner::Vitest => {
            if let Some(rest) = t.strip_prefix("Tests ") {
                counts.passed += number_before(rest, " passed").unwrap_or(0);
                counts.failed += number_before(rest, " failed").unwrap_or(0);
            }
        }
        Runner::Playwright => {
            let mut words = t.split_whitespace();
            let (Some(n), Some(kind)) = (words.next(), words.next()) else {
                return;
            };
            let Ok(n) = n.parse::<u64>() else {
                return;
            };
            let rest: Vec<&str> = words.collect();
            // Closing lines are "N passed (3.2s)", "N failed", "N flaky".
            if !(rest.is_empty() || rest.first().is_some_and(|w| w.starts_with('('))) {
                return;
            }
            match kind {
                "passed" => counts.passed += n,
                "failed" | "flaky" => counts.failed += n,
                _ => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(runner: Runner, text: &str) -> Counts {
        let mut c = Counts::default();
        for line in text.lines() {
            read_line(runner, line, &mut c);
        }
        c
    }

    #[test]
    fn cargo_lines_are_summed() {
        let out = "running 3 tests\ntest a ... ok\n\ntest result: ok. 3 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s\n\
                   test result: FAILED. 20 passed; 2 failed; 0 ignored; 0 measured; 0 filtered out; finished in 1.2s";
        assert_eq!(
            read(Runner::Cargo, out),
            Counts {
                passed: 23,
                failed: 2
            }
        );
    }

    #[test]
    fn vitest_summary() {
        let ok = " Test Files  4 passed (4)\n      Tests  17 passed (17)\n   Start at  10:00:00";
        assert_eq!(
            read(Runner::Vitest, ok),
            Counts {
                passed: 17,
                failed: 0
            }
        );
        let bad = "      Tests  \u{1b}[31m2 failed\u{1b}[39m | \u{1b}[32m15 passed\u{1b}[39m (17)";
        assert_eq!(
            read(Runner::Vitest, bad),
            Counts {
                passed: 15,
                failed: 2
            }
        );
    }

    #[test]
    fn playwright_summary() {
        let out = "Running 6 tests using 1 worker\n  ✓  1 auth.spec.ts:3:1 › register (2.1s)\n\n  1 failed\n    auth.spec.ts:10:1 › reset\n  5 passed (21.4s)";
        assert_eq!(
            read(Runner::Playwright, out),
            Counts {
                passed: 5,
                failed: 1
            }
        );
        assert_eq!(
            read(Runner::Playwright, "  3 passed (1.0s)"),
            Counts {
                passed: 3,
                failed: 0
            }
        );
        assert_eq!(
            read(Runner::Playwright, "  2 passed the check"),
            Counts::default()
        );
    }
}
