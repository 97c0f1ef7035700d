//! Conversions and statistics for reports: pages to MiB, sizes in MiB,
//! GiB or TiB by one rule, means and medians. An empty input has no mean
//! or median (`None`), never 0 or NaN.

use crate::sim::kernel::PAGE_SIZE;

/// Pages per MiB.
const PAGES_PER_MIB: f64 = (1u64 << 20) as f64 / PAGE_SIZE as f64;

/// A number of pages (or pages per second) of any numeric type.
pub trait Pages: Copy {
    /// As a float.
    fn pages(self) -> f64;
}

impl Pages for u64 {
    fn pages(self) -> f64 {
        self as f64
    }
}

impl Pages for i64 {
    fn pages(self) -> f64 {
        self as f64
    }
}

impl Pages for f64 {
    fn pages(self) -> f64 {
        self
    }
}

/// Pages as MiB (pages/s as MiB/s).
pub fn mib(pages: impl Pages) -> f64 {
    pages.pages() / PAGES_PER_MIB
}

/// The units sizes are shown in, each 1024 of the one before.
const SIZE_UNITS: [&str; 3] = ["MiB", "GiB", "TiB"];

/// The largest size shown in a unit before the next one takes over:
/// four digits read at a glance, five and six (`800000 MiB`) do not.
const MOST_IN_A_UNIT: f64 = 9999.0;

/// One of the units sizes are shown in: MiB, GiB or TiB. The rule every
/// size on the screen follows: MiB up to 9999 MiB, then GiB up to 9999
/// GiB, then TiB; a chart writes the values of its title in its axis'
/// unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct SizeUnit(usize);

impl SizeUnit {
    /// MiB, the unit sizes are computed in.
    pub const MIB: SizeUnit = SizeUnit(0);

    /// The unit `mib` \[MiB\] is shown in: the smallest in which it reads
    /// at most 9999 once rounded (9999.4 MiB is `9999 MiB`, 9999.5 MiB
    /// `9.77 GiB`), TiB past that. A value that is not a number stays in
    /// MiB.
    pub fn of(mib: f64) -> SizeUnit {
        let mut k = 0;
        while k + 1 < SIZE_UNITS.len() && mib.abs() / 1024f64.powi(k as i32) >= MOST_IN_A_UNIT + 0.5 {
            k += 1;
        }
        SizeUnit(k)
    }

    /// The one unit sizes read side by side are shown in: the unit of
    /// the largest of `mibs` \[MiB\] (values that are not numbers left
    /// out), MiB when there is none.
    pub fn of_largest(mibs: impl IntoIterator<Item = f64>) -> SizeUnit {
        SizeUnit::of(mibs.into_iter().filter(|x| x.is_finite()).map(f64::abs).fold(0.0, f64::max))
    }

    /// The unit named `name` (`MiB`, `GiB`, `TiB`), if it is one.
    pub fn named(name: &str) -> Option<SizeUnit> {
        SIZE_UNITS.iter().position(|u| *u == name).map(SizeUnit)
    }

    /// Its name: `MiB`, `GiB` or `TiB`.
    pub fn name(self) -> &'static str {
        SIZE_UNITS[self.0]
    }

    /// `mib` \[MiB\] in this unit.
    pub fn value(self, mib: f64) -> f64 {
        mib / 1024f64.powi(self.0 as i32)
    }

    /// `mib` \[MiB\] in this unit as the screen writes a number, without
    /// the unit: `669`, `12.1`, `0.653`.
    pub fn number(self, mib: f64) -> String {
        crate::lesson::check::show(self.value(mib))
    }

    /// `mib` \[MiB\] in this unit as a report writes it, without the
    /// unit: in MiB to a tenth (`368.6`), in a larger unit as the screen
    /// writes a number (`369`, `12.1`), so that a 4 TiB world reads `369
    /// GiB`, not `377487.4 MiB`.
    pub fn reported(self, mib: f64) -> String {
        if self > SizeUnit::MIB { self.number(mib) } else { format!("{mib:.1}") }
    }

    /// `mib` \[MiB\] in this unit, with it: `669 MiB`, `12.1 GiB`.
    pub fn size(self, mib: f64) -> String {
        format!("{} {}", self.number(mib), self.name())
    }
}

/// A size \[MiB\] as the screen shows it, in the unit of
/// [`SizeUnit::of`]: `669 MiB`, `9999 MiB`, `9.77 GiB`, `4096 GiB`,
/// `16 TiB`.
pub fn size(mib: f64) -> String {
    SizeUnit::of(mib).size(mib)
}

/// The mean, or `None` when there is nothing to average.
pub fn mean(xs: impl IntoIterator<Item = f64>) -> Option<f64> {
    let (sum, n) = xs.into_iter().fold((0.0, 0usize), |(s, n), x| (s + x, n + 1));
    (n > 0).then(|| sum / n as f64)
}

/// The median: the middle value, or the mean of the two middle values of
/// an even count (as a trace's [`crate::ktrace::stats`] gives it); `None`
/// when empty.
pub fn median(mut xs: Vec<f64>) -> Option<f64> {
    if xs.is_empty() {
        return None;
    }
    let (n, mid) = (xs.len(), xs.len() / 2);
    let (below, &mut upper, _) = xs.select_nth_unstable_by(mid, f64::total_cmp);
    if n % 2 == 1 {
        return Some(upper);
    }
    let lower = below.iter().copied().max_by(f64::total_cmp)?;
    Some((lower + upper) / 2.0)
}

/// Seconds as a report shows them: to the microsecond, without trailing
/// zeros (`1.5`, `10`, `0.0025`), so that a run of 1.5 s never reads "2 s".
pub fn seconds(s: f64) -> String {
    trimmed(s, 6)
}

/// `ns` nanoseconds in seconds, exactly, without trailing zeros
/// (`1000000.000000001`, `61`, `0.5`): where [`seconds`] rounds to the
/// microsecond, and an f64 cannot hold the nanosecond past 2^53 ns.
pub fn exact_seconds(ns: u64) -> String {
    let (whole, frac) = (ns / 1_000_000_000, ns % 1_000_000_000);
    if frac == 0 {
        return whole.to_string();
    }
    format!("{whole}.{}", format!("{frac:09}").trim_end_matches('0'))
}

/// How long a jiffy lasts at `hz`: `3.333 ms at HZ 300`.
pub fn jiffy(hz: u64) -> String {
    format!("{} ms at HZ {hz}", trimmed(1000.0 / hz as f64, 3))
}

/// A jiffy at `hz` in whole nanoseconds, as the engine counts them.
pub fn jiffy_ns(hz: u64) -> u64 {
    1_000_000_000 / hz.max(1)
}

/// `ns` if it lasts at least one jiffy at `hz`, else a message: `what`
/// (`the run must last`, `--at must be`) at least one jiffy, naming the HZ.
pub fn at_least_one_jiffy(what: &str, ns: u64, hz: u64) -> crate::error::Result<u64> {
    if ns >= jiffy_ns(hz) {
        return Ok(ns);
    }
    Err(crate::error::Error::invalid(format!(
        "{what} at least one jiffy ({}), got {} ms",
        jiffy(hz),
        trimmed(ns as f64 / 1e6, 6)
    )))
}

/// `n` things, the noun plural unless one: `1 sleep`, `2 sleeps`, `0 sleeps`.
pub fn count(n: u64, noun: &str) -> String {
    if n == 1 { format!("1 {noun}") } else { format!("{n} {noun}s") }
}

/// `v` to at least `figures` significant figures, whole numbers kept
/// whole: to two, `238`, `24`, `1.4`, `0.35`, and 9.96 is `10`, not `10.0`.
pub fn significant(v: f64, figures: u32) -> String {
    if v == 0.0 || !v.is_finite() {
        return format!("{v:.0}");
    }
    let figures = figures.max(1) as i32;
    let decimals = |v: f64| (figures - 1 - v.abs().log10().floor() as i32).max(0) as usize;
    let d = decimals(v);
    let shown = format!("{v:.d$}");
    // Rounding up to the next power of ten gains a figure: drop a decimal.
    match shown.parse::<f64>() {
        Ok(r) if d > 0 && decimals(r) < d => format!("{r:.0$}", decimals(r)),
        _ => shown,
    }
}

/// `v` to `decimals` decimals, without trailing zeros (`3.333`, `4`).
pub fn trimmed(v: f64, decimals: usize) -> String {
    let shown = format!("{v:.decimals$}");
    if shown.contains('.') { shown.trim_end_matches('0').trim_end_matches('.').to_string() } else { shown }
}

/// `text` with each number and the unit after it (`10 s`, `85-100 MiB/s`)
/// joined by a no-break space, so that a wrapped line keeps them on one row.
pub fn with_units(text: &str) -> String {
    const UNITS: [&str; 9] = ["s", "ms", "KiB", "MiB", "GiB", "TiB", "MiB/s", "pages", "dd"];
    let mut out = String::new();
    let mut words = text.split(' ').peekable();
    while let Some(word) = words.next() {
        out.push_str(word);
        let Some(next) = words.peek() else { break };
        let unit = next.trim_end_matches([')', ',', ';', ':', '.']);
        let number = word.ends_with(|c: char| c.is_ascii_digit());
        out.push(if number && UNITS.contains(&unit) { '\u{a0}' } else { ' ' });
    }
    out
}

/// Whether a line may break at `c`: at any blank but a no-break space
/// (which keeps a value and its unit together).
pub fn breaks_at(c: char) -> bool {
    c.is_whitespace() && c != '\u{a0}'
}

/// `text` in lines of at most `width` characters, broken between words
/// (a no-break space joins two words into one); a word longer than a
/// line is broken after a `_`, `/` or `-` in it where it has one, else
/// at the line's end.
pub fn wrap_words(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut lines: Vec<String> = vec![String::new()];
    for word in text.split(breaks_at).filter(|w| !w.is_empty()) {
        let mut word: Vec<char> = word.chars().collect();
        loop {
            let line = lines.last_mut().expect("one line at least");
            let used = line.chars().count();
            let gap = usize::from(used > 0);
            if used + gap + word.len() <= width {
                if gap == 1 {
                    line.push(' ');
                }
                line.extend(word.iter());
                break;
            }
            if word.len() <= width {
                lines.push(String::new());
                continue;
            }
            // Longer than a line: what fits of it here, cut after a
            // separator when there is one.
            let room = width.saturating_sub(used + gap);
            let cut = word[..room.min(word.len())].iter().rposition(|c| matches!(c, '_' | '/' | '-')).map(|i| i + 1);
            let cut = match cut {
                Some(i) => i,
                None if used > 0 => {
                    lines.push(String::new());
                    continue;
                }
                None => room,
            };
            if gap == 1 {
                line.push(' ');
            }
            line.extend(word[..cut].iter());
            word.drain(..cut);
            lines.push(String::new());
        }
    }
    lines
}

/// `text` after `first`, wrapped to `width` columns ([`wrap_words`]), its
/// later lines indented `indent` columns (as wide as `first`, or where a
/// column starts); at least 20 columns of text to a line.
pub fn hanging_lines(first: &str, indent: usize, text: &str, width: usize) -> Vec<String> {
    let rows = wrap_words(text, width.saturating_sub(indent).max(20));
    rows.into_iter()
        .enumerate()
        .map(|(i, row)| if i == 0 { format!("{first}{row}") } else { format!("{}{row}", " ".repeat(indent)) })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_wrap_whole_and_long_ones_break_after_a_separator() {
        assert_eq!(wrap_words("pause / resume", 40), vec!["pause / resume"]);
        assert_eq!(
            wrap_words("single step (100 ms) while paused", 14),
            vec!["single step", "(100 ms) while", "paused"]
        );
        assert_eq!(wrap_words("the dirty_background_ratio +1", 14), vec!["the dirty_", "background_", "ratio +1"]);
        assert_eq!(wrap_words("abcdefghij", 4), vec!["abcd", "efgh", "ij"]);
        for width in 1..30 {
            for line in wrap_words("dirty_ratelimit × pos_ratio: what a task was held to", width) {
                assert!(line.chars().count() <= width, "{width}: {line:?}");
            }
        }
    }

    #[test]
    fn numbers_keep_their_units() {
        let nb = |s: &str| s.replace('_', "\u{a0}");
        for (text, want) in [
            ("dirty never passes the limit (last 20 s)", "dirty never passes the limit (last 20_s)"),
            ("writes at 85-100 MiB/s, last 10 s", "writes at 85-100_MiB/s, last 10_s"),
            ("all 300 MiB were written during this step (15 s)", "all 300_MiB were written during this step (15_s)"),
            ("1475 (freerun) and 20 sheep", "1475 (freerun) and 20 sheep"),
        ] {
            assert_eq!(with_units(text), nb(want), "{text}");
        }
    }

    #[test]
    fn one_of_a_thing_is_singular() {
        assert_eq!([count(0, "sleep"), count(1, "sleep"), count(2, "call")], ["0 sleeps", "1 sleep", "2 calls"]);
    }

    #[test]
    fn sizes_step_up_a_unit_past_four_digits() {
        let gib = 1024.0;
        let tib = 1024.0 * gib;
        for (mib, want) in [
            (0.0, "0 MiB"),
            (0.5, "0.500 MiB"),
            (669.0, "669 MiB"),
            (737.3, "737 MiB"),
            (8192.0, "8192 MiB"),
            (9999.0, "9999 MiB"),
            (9999.4, "9999 MiB"),
            // Rounded, 9999.5 would read 10000: the next unit.
            (9999.5, "9.77 GiB"),
            (10240.0, "10 GiB"),
            (12345.0, "12.1 GiB"),
            (100.0 * gib, "100 GiB"),
            (4.0 * tib, "4096 GiB"),
            (9999.0 * gib, "9999 GiB"),
            (9999.5 * gib, "9.77 TiB"),
            (16.0 * tib, "16 TiB"),
            (20_000.0 * tib, "20000 TiB"),
            (-12345.0, "-12.1 GiB"),
        ] {
            assert_eq!(size(mib), want, "{mib}");
        }
        assert_eq!(SizeUnit::of(f64::NAN), SizeUnit::MIB);
        // A value in another value's unit (a chart's title in its axis').
        let g = SizeUnit::named("GiB").expect("a unit");
        assert_eq!((g.size(669.0), g.number(12288.0), g.name()), ("0.653 GiB".into(), "12".into(), "GiB"));
        assert_eq!(SizeUnit::named("MiB/s"), None);
        assert!(SizeUnit::of(4.0 * tib) > SizeUnit::of(9000.0));
        assert_eq!(SizeUnit::of_largest([669.0, f64::NAN, -12345.0]).name(), "GiB");
        assert_eq!(SizeUnit::of_largest([]), SizeUnit::MIB);
    }

    #[test]
    fn empty_inputs_have_no_mean_or_median() {
        assert_eq!(mib(256u64), 1.0);
        assert_eq!(mib(-512i64), -2.0);
        assert_eq!(mean([1.0, 2.0, 6.0]), Some(3.0));
        assert_eq!(mean(std::iter::empty()), None);
        assert_eq!(median(vec![5.0, 1.0, 3.0, 2.0]), Some(2.5));
        assert_eq!(median(vec![4.0, 9.0, 1.0]), Some(4.0));
        assert_eq!(median(vec![600.0, 128.0, 600.0, 128.0]), Some(364.0), "the mean of the middle two");
        assert_eq!(median(Vec::new()), None);
    }

    #[test]
    fn significant_keeps_the_figures_asked_for() {
        assert_eq!(significant(237.99, 2), "238");
        assert_eq!(significant(24.4, 2), "24");
        assert_eq!(significant(1.43, 2), "1.4");
        assert_eq!(significant(0.352, 2), "0.35");
        assert_eq!(significant(0.0123, 2), "0.012");
        assert_eq!(significant(9.96, 2), "10");
        assert_eq!(significant(0.0996, 2), "0.10");
        assert_eq!(significant(-1.43, 2), "-1.4");
        assert_eq!(significant(0.0, 2), "0");
    }

    #[test]
    fn exact_seconds_keep_every_nanosecond() {
        assert_eq!(exact_seconds(1_000_000_000_000_001), "1000000.000000001");
        assert_eq!(exact_seconds(61_000_000_000), "61");
        assert_eq!(exact_seconds(500_000_000), "0.5");
        assert_eq!(exact_seconds(0), "0");
        assert_eq!(exact_seconds(u64::MAX), "18446744073.709551615");
    }

    #[test]
    fn seconds_keep_their_fraction() {
        assert_eq!(seconds(1.5), "1.5");
        assert_eq!(seconds(2.5), "2.5");
        assert_eq!(seconds(10.0), "10");
        assert_eq!(seconds(0.75), "0.75");
        assert_eq!(seconds(0.001), "0.001");
        assert_eq!(seconds(60.0), "60");
        assert_eq!(seconds(0.0025), "0.0025");
        assert_eq!(seconds(1_000_500_000.0 / 1e9), "1.0005");
        assert_eq!(trimmed(10.0 / 3.0, 3), "3.333");
        assert_eq!(trimmed(100.0, 0), "100");
    }

    #[test]
    fn a_jiffy_is_named_with_its_hz() {
        assert_eq!(jiffy(300), "3.333 ms at HZ 300");
        assert_eq!(at_least_one_jiffy("--at must be", 10_000_000, 100).ok(), Some(10_000_000));
        assert_eq!(
            at_least_one_jiffy("--at must be", 5_000_000, 100).unwrap_err().to_string(),
            "--at must be at least one jiffy (10 ms at HZ 100), got 5 ms"
        );
        // 1 j at HZ 300 is 3333333 ns, rounded down: still a jiffy.
        assert!(at_least_one_jiffy("x", 3_333_333, 300).is_ok());
        assert!(at_least_one_jiffy("x", 3_333_332, 300).is_err());
    }
}
