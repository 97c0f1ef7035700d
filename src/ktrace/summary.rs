//! What a kernel trace shows, per bdi and globally: event counts, time
//! span, median rates, the limits' range, pause percentiles, the tasks.
//! Built while the events stream past, in memory bounded by the number of
//! distinct values, bdis and tasks, not by the trace's length.

use std::collections::BTreeMap;

use serde::Serialize;

use super::event::{Event, EventKind, Field};
use super::reader::Decoder;
use super::series::{MAX_GAP_S, TASK_LIVE_S, read_with_state};
use super::stats::{Dist, Extent, gcd};
use crate::run::summary::NOT_KNOWN;
use crate::units::{SizeUnit, count};

/// KB/s as MiB/s: the kernel prints rates in KB/s whatever its page size.
fn mibps(kbps: f64) -> f64 {
    kbps / 1024.0
}

/// Pages of `page_kb` KiB (4 when the trace does not tell) as MiB.
pub fn mib_of(pages: f64, page_kb: Option<u64>) -> f64 {
    pages * page_kb.unwrap_or(4) as f64 / 1024.0
}

/// What one bdi's events add up to, while reading.
#[derive(Debug, Default)]
struct BdiAcc {
    events: [u64; 2],
    first_s: Option<f64>,
    last_s: Option<f64>,
    bdp_dirty_ratelimit: Dist,
    bdp_task_ratelimit: Dist,
    limit: Extent,
    setpoint: Extent,
    bdi_setpoint: Extent,
    bdi_setpoint_values: Dist,
    dirty: Dist,
    bdi_dirty: Dist,
    pauses: Dist,
    no_sleep: u64,
    /// Each task's passes on the bdi, and its first and last \[s\].
    tasks: BTreeMap<u32, TaskSeen>,
    write_bw: Dist,
    awrite_bw: Dist,
    dirty_rate: Dist,
    bdr_dirty_ratelimit: Dist,
    bdr_task_ratelimit: Dist,
    balanced: Dist,
}

/// A task's balance_dirty_pages passes on one bdi, while reading.
#[derive(Debug, Default)]
struct TaskSeen {
    events: u64,
    first_s: Option<f64>,
    last_s: Option<f64>,
}

/// The global counters, while reading.
#[derive(Debug, Default)]
struct GlobalAcc {
    events: u64,
    first_s: Option<f64>,
    last_s: Option<f64>,
    thresh: Extent,
    bg_thresh: Extent,
    limit: Extent,
    thresh_values: Dist,
    bg_thresh_values: Dist,
    limit_values: Dist,
    /// The last thresh read \[pages\].
    last_thresh: Option<i64>,
    /// The last bg_thresh global_dirty_state printed \[pages\].
    last_bg_thresh: Option<i64>,
    dirty: Dist,
    writeback: Dist,
    /// ∫ dirty dt over the trace, each value held until the next \[pages·s\].
    dirty_integral: f64,
    /// When the first readable dirty count was printed \[s\].
    first_dirty_s: Option<f64>,
    last_dirty: Option<(f64, i64)>,
    /// The last count was a balance_dirty_pages pass's `dirty=`.
    last_dirty_from_pass: bool,
    /// When global_dirty_state last read the count \[s\].
    state_s: Option<f64>,
    /// The time the integral covers: from the first readable count to
    /// the last, less the silences between them \[s\].
    dirty_time_s: f64,
    /// Silence since the last readable count, not yet left out \[s\].
    silent_since_dirty_s: f64,
    /// The silences left out of the integral \[s\].
    dirty_silent_s: f64,
    /// The time past [`TASK_LIVE_S`] after a pass's count that no
    /// reading followed, left out of the integral \[s\].
    dirty_unheld_s: f64,
    /// The readings of balance_dirty_pages' `dirty=` among them.
    dirty_from_passes: u64,
    /// The last (time, NR_DIRTIED, NR_WRITTEN, whether its dirty +
    /// writeback (+ unstable) was at or under its own freerun), and the
    /// earliest and latest time of a reading.
    last_counters: Option<(f64, i64, i64, bool)>,
    counters_from_s: Option<f64>,
    counters_to_s: Option<f64>,
    /// The counters' growth between readings in time order, and the time
    /// it took \[pages, s\]: a step back in time, a silence or a counter
    /// that went down (traces joined, a reboot) adds neither.
    dirtied_pages: i64,
    written_pages: i64,
    counted_s: f64,
    /// Readings where NR_DIRTIED or NR_WRITTEN went down: restarts.
    counter_drops: u64,
    /// A silence since the last reading of the counters: their growth
    /// up to the next is not taken (a drop is still a restart).
    counters_silent: bool,
    /// A count of 2^32 or more was read: the counters do not wrap there.
    counters_wide: bool,
    /// Readings where a 32-bit kernel's counter had passed 2^32, read as
    /// growth.
    counter_wraps: u64,
    /// NR_WRITTEN's growth in windows.
    written: RateWindows,
    /// NR_DIRTIED's growth in windows, of the steps between two readings
    /// under freerun: the tasks' pace while nothing throttled them.
    dirtied_free: RateWindows,
}

/// A counter's growth in windows of [`RATE_WINDOW_S`]: the window
/// being added to (its index, pages and the part of it the readings cover
/// \[s\]), and the finished ones by the pages they would count whole at
/// their rate: how many, and the pages and time \[s\] the readings cover
/// in them (a trace begins and ends inside a window).
#[derive(Clone, Debug, Default)]
struct RateWindows {
    open: Option<(i64, f64, f64)>,
    done: std::collections::BTreeMap<i64, (f64, f64)>,
}

impl RateWindows {
    fn close(&mut self, pages: f64, covered_s: f64) {
        if covered_s <= 0.0 {
            return;
        }
        let whole = (pages * RATE_WINDOW_S / covered_s).round() as i64;
        let e = self.done.entry(whole).or_default();
        (e.0, e.1) = (e.0 + pages, e.1 + covered_s);
    }

    /// Adds `pages` counted from `t0` to `t1` to the windows they cover,
    /// spread evenly over the time. A step that counted nothing covers its
    /// time too: a window's rate is over all of it the readings cover.
    fn add(&mut self, t0: f64, t1: f64, pages: i64) {
        if pages < 0 || t1 < t0 {
            return;
        }
        let (a, b) = ((t0 / RATE_WINDOW_S).floor() as i64, (t1 / RATE_WINDOW_S).floor() as i64);
        if b - a > RATE_MAX_GAP {
            return;
        }
        for k in a..=b {
            let (lo, hi) = (t0.max(k as f64 * RATE_WINDOW_S), t1.min((k + 1) as f64 * RATE_WINDOW_S));
            let covered = (hi - lo).max(0.0);
            let share = if t1 > t0 { pages as f64 * covered / (t1 - t0) } else { pages as f64 };
            match &mut self.open {
                Some((i, p, c)) if *i == k => (*p, *c) = (*p + share, *c + covered),
                open => {
                    let closed = open.replace((k, share, covered));
                    if let Some((_, p, c)) = closed {
                        self.close(p, c);
                    }
                }
            }
        }
    }

    /// The rate in the busy windows, those that counted at least
    /// 1/[`RATE_BUSY_SHARE`] of the busiest \[pages/s\], and the time the
    /// readings cover in them \[s\].
    fn busy(&self) -> Option<(f64, f64)> {
        let mut windows = self.clone();
        if let Some((_, p, c)) = windows.open.take() {
            windows.close(p, c);
        }
        let most = windows.done.keys().next_back().copied().filter(|&m| m > 0)?;
        let busy = windows.done.range((most + RATE_BUSY_SHARE - 1) / RATE_BUSY_SHARE..);
        let (pages, busy_s) = busy.fold((0.0, 0.0), |(p, s), (_, &(wp, ws))| (p + wp, s + ws));
        (busy_s > 0.0).then(|| (pages / busy_s, busy_s))
    }
}

/// The windows a counter's rate (written while writing, dirtied while
/// free) is measured in \[s\]: the kernel's own bandwidth interval
/// (BANDWIDTH_INTERVAL, 200 ms).
const RATE_WINDOW_S: f64 = 0.2;
/// A gap between two global_dirty_state events longer than this many
/// windows (a clock jump, two captures joined) adds nothing.
const RATE_MAX_GAP: i64 = 10_000;
/// A window is a busy one when it counted at least this share of the
/// busiest window (the flusher's trickle after a dd stops is not).
const RATE_BUSY_SHARE: i64 = 10;

impl GlobalAcc {
    /// One count of dirty + writeback (+ unstable) pages at `t_s`, of
    /// global_dirty_state or of balance_dirty_pages' `dirty=`, the same
    /// readings the 100 ms rows take: into the distribution and the mean,
    /// each held until the next.
    ///
    /// A pass's count (`from_pass`) holds [`TASK_LIVE_S`] at most, as
    /// the rows hold it: the kernel prints no pass below freerun, so
    /// held longer the count would be held high.
    fn dirty_reading(&mut self, t_s: f64, total: i64, from_pass: bool) {
        self.dirty.add(total);
        if let Some((t, v)) = self.last_dirty {
            // A silence is not known to have held the count.
            let silent = self.silent_since_dirty_s;
            let mut held = ((t_s - t).max(0.0) - silent).max(0.0);
            if self.last_dirty_from_pass && held > TASK_LIVE_S {
                self.dirty_unheld_s += held - TASK_LIVE_S;
                held = TASK_LIVE_S;
            }
            self.dirty_integral += v as f64 * held;
            self.dirty_time_s += held;
            self.dirty_silent_s += silent;
        }
        self.silent_since_dirty_s = 0.0;
        self.first_dirty_s = self.first_dirty_s.or(Some(t_s));
        self.last_dirty = Some((t_s, total));
        self.last_dirty_from_pass = from_pass;
    }
}

/// The freerun ceiling of a reading's thresh and bg_thresh \[pages\]:
/// `dirty_freerun_ceiling()`.
fn freerun_of(thresh: i64, bg_thresh: i64) -> i64 {
    crate::sim::page_writeback::dirty_freerun_ceiling(thresh.max(0) as u64, bg_thresh.max(0) as u64) as i64
}

/// The HZ a kernel may be built with.
const HZS: [u64; 4] = [100, 250, 300, 1000];

/// Page sizes the period check tries: 4 KiB << 0..PAGE_SHIFTS.
const PAGE_SHIFTS: usize = 7;

/// The clock tick, from the granularity of the millisecond fields and
/// from balance_dirty_pages' own arithmetic (3.3+): `period = HZ ×
/// dirtied / task_ratelimit` jiffies, rounded down, printed as `period ×
/// 1000 / HZ` ms, rounded down again; each HZ gives its own periods.
#[derive(Debug, Default)]
struct HzAcc {
    gcd: u64,
    nonzero: u64,
    /// Every value could be j × 1000 / 300 (its last digit 0, 3 or 6).
    fits_300: bool,
    /// Passes whose period was checked, by page size.
    periods: [u64; PAGE_SHIFTS],
    /// Of those, the ones whose period each HZ gives, by page size.
    period_fits: [[u64; PAGE_SHIFTS]; HZS.len()],
}

impl HzAcc {
    /// Values enough to tell.
    const ENOUGH: u64 = 20;

    fn add(&mut self, ms: i64) {
        if ms == 0 {
            return;
        }
        if self.nonzero == 0 {
            self.fits_300 = true;
        }
        let a = ms.unsigned_abs();
        self.gcd = gcd(self.gcd, a);
        self.nonzero += 1;
        self.fits_300 &= matches!(a % 10, 0 | 3 | 6);
    }

    /// Checks the period of a balance_dirty_pages against each HZ, for
    /// each page size (task_ratelimit is printed in KB/s, the kernel
    /// divides by it in pages/s).
    fn add_period(&mut self, e: &Event) {
        let (Some(period), Some(kbps), Some(dirtied)) =
            (e.get(Field::Period), e.get(Field::TaskRatelimit), e.get(Field::Dirtied))
        else {
            return;
        };
        if period < 0 || kbps <= 0 || dirtied <= 0 {
            return;
        }
        for shift in 0..PAGE_SHIFTS {
            let page_kb = 4i64 << shift;
            if kbps % page_kb != 0 {
                continue;
            }
            let ratelimit = (kbps / page_kb) as i128;
            self.periods[shift] += 1;
            for (k, &hz) in HZS.iter().enumerate() {
                let jiffies = hz as i128 * dirtied as i128 / ratelimit;
                if jiffies * 1000 / hz as i128 == period as i128 {
                    self.period_fits[k][shift] += 1;
                }
            }
        }
    }

    /// The HZ each millisecond value could come from, by their granularity.
    fn by_granularity(&self, hz: u64) -> bool {
        match hz {
            300 => self.fits_300,
            _ => self.gcd.is_multiple_of(1000 / hz),
        }
    }

    /// The passes whose period was checked, for pages of `page_kb` (4
    /// when not known).
    fn checked(&self, page_kb: Option<u64>) -> (usize, u64) {
        let shift = (page_kb.unwrap_or(4) / 4).max(1).trailing_zeros() as usize;
        (shift, self.periods.get(shift).copied().unwrap_or(0))
    }

    /// The HZ every time and period fits (of those with values enough
    /// to tell), coarsest first.
    fn fits(&self, page_kb: Option<u64>) -> Vec<u64> {
        let granular = self.nonzero >= Self::ENOUGH;
        let (shift, checked) = self.checked(page_kb);
        let by_periods = checked >= Self::ENOUGH;
        // A few passes may go another way (a period cut to max_pause).
        let fits_periods = |k: usize| self.period_fits[k].get(shift).is_some_and(|&m| 50 * m >= 49 * checked);
        HZS.iter()
            .enumerate()
            .filter(|&(k, &hz)| (!granular || self.by_granularity(hz)) && (!by_periods || fits_periods(k)))
            .map(|(_, &hz)| hz)
            .collect()
    }

    /// HZ and how it was told, or why not, for pages of `page_kb` (4
    /// when not known).
    fn infer(&self, page_kb: Option<u64>) -> (Option<u64>, String) {
        let granular = self.nonzero >= Self::ENOUGH;
        let (_, checked) = self.checked(page_kb);
        let by_periods = checked >= Self::ENOUGH;
        let fit = self.fits(page_kb);
        let g = self.gcd;
        let periods_note = format!("period = HZ × dirtied / task_ratelimit of {}", passes(checked));
        let names = fit.iter().map(|h| format!("HZ {h}")).collect::<Vec<_>>().join(" or ");
        match (fit.as_slice(), granular, by_periods) {
            (_, false, false) => (
                None,
                format!(
                    "{} and {} with a period, too few to tell HZ",
                    count(self.nonzero, "non-zero millisecond value"),
                    passes(checked)
                ),
            ),
            ([], true, _) => {
                (None, format!("no HZ gives both every time (multiples of {g} ms) and the {periods_note}"))
            }
            ([], false, _) => (None, format!("no HZ gives the {periods_note}")),
            ([hz], _, true) => (Some(*hz), format!("{periods_note}: only HZ {hz} gives them")),
            ([hz], _, false) => (Some(*hz), format!("every time is a multiple of {g} ms: only HZ {hz} gives them")),
            // The times are any number of one jiffy of the coarsest HZ
            // that fits: that one (a finer clock would not print them so).
            ([coarsest, ..], true, _) if *coarsest != 300 && g == 1000 / coarsest => {
                (Some(*coarsest), format!("every pause, period and think time is a multiple of {g} ms"))
            }
            (_, true, by_periods) => (
                None,
                format!(
                    "every time is a multiple of {g} ms, which {names} give{}",
                    if by_periods { format!(", as they give the {periods_note}") } else { String::new() }
                ),
            ),
            (_, false, true) => (None, format!("{names} give the {periods_note}")),
        }
    }
}

/// The page size, from balance_dirty_pages' own arithmetic (3.3+):
/// `period = HZ × dirtied / task_ratelimit` with task_ratelimit in pages/s,
/// while the trace prints task_ratelimit in KB/s. So period × task_ratelimit
/// / dirtied is the page size in KB, less the jiffy period was rounded
/// down by (more than half of it: the period is a jiffy or more).
#[derive(Debug, Default)]
struct PageAcc {
    /// period \[ms\] × task_ratelimit \[KB/s\] / dirtied \[pages\] \[bytes\].
    estimates: Dist,
}

impl PageAcc {
    /// Events enough to tell.
    const ENOUGH: u64 = 20;

    fn add(&mut self, e: &Event) {
        if let (Some(p), Some(r), Some(d)) = (e.get(Field::Period), e.get(Field::TaskRatelimit), e.get(Field::Dirtied))
            && p > 0
            && r > 0
            && d > 0
        {
            self.estimates.add(((p as i128 * r as i128) / d as i128).min(i64::MAX as i128) as i64);
        }
    }

    /// The page size in KiB (a power of two, 4 at least) and how it was told.
    fn infer(&self) -> (Option<u64>, String) {
        let n = self.estimates.count();
        let Some(q) = self.estimates.quantile(0.9).filter(|_| n >= Self::ENOUGH) else {
            return (None, format!("{} with a period, too few to tell the page size", passes(n)));
        };
        // The estimate is at most the page size and more than half of it.
        let est = q as f64 / 1000.0;
        let mut page = 4u64;
        while (page as f64) < est && page < 1 << 20 {
            page *= 2;
        }
        (Some(page), format!("period × task_ratelimit / dirtied of {}: {est:.1} KiB at the 90th percentile", passes(n)))
    }
}

/// Builds a [`TraceSummary`] from events as they are read.
#[derive(Debug, Default)]
pub struct Summarizer {
    bdis: Vec<BdiAcc>,
    global: GlobalAcc,
    hz: HzAcc,
    page: PageAcc,
    tasks: BTreeMap<u32, [u64; 3]>,
    /// Every bdi's sleeps and passes without one \[ms\].
    pauses: Dist,
    no_sleep: u64,
    /// The latest event so far \[s\].
    last_event_s: Option<f64>,
    /// Silences: no event from the first time to the second, for longer
    /// than [`MAX_GAP_S`] \[s, the trace's clock\].
    silences: Vec<(f64, f64)>,
    /// The stretch of time order read (see [`super::reader::Reorder`]).
    stretch: u32,
}

fn note_time(first: &mut Option<f64>, last: &mut Option<f64>, t: f64) {
    *first = Some(first.map_or(t, |f| f.min(t)));
    *last = Some(last.map_or(t, |l| l.max(t)));
}

impl Summarizer {
    /// A summarizer that has seen nothing.
    pub fn new() -> Summarizer {
        Summarizer::default()
    }

    /// Takes one event into account.
    pub fn add(&mut self, e: &Event) {
        if e.stretch != self.stretch {
            // A new stretch (traces joined): nothing is known between
            // them, no count held, no counter's growth taken across.
            self.stretch = e.stretch;
            let g = &mut self.global;
            (g.last_dirty, g.last_counters, g.silent_since_dirty_s) = (None, None, 0.0);
        }
        if let Some(last) = self.last_event_s
            && e.time_s - last > MAX_GAP_S
        {
            self.silences.push((last, e.time_s));
            self.global.silent_since_dirty_s += e.time_s - last;
            // Nor is the counters' growth across it taken, as the rows
            // take it: the rates are the writers' while traced.
            self.global.counters_silent = true;
        }
        self.last_event_s = Some(self.last_event_s.map_or(e.time_s, |l| l.max(e.time_s)));
        self.tasks.entry(e.task).or_default()[e.kind.index()] += 1;
        match (e.kind, e.bdi) {
            (EventKind::GlobalDirtyState, _) => self.add_global(e),
            (kind, Some(bdi)) => {
                let i = bdi as usize;
                if self.bdis.len() <= i {
                    self.bdis.resize_with(i + 1, BdiAcc::default);
                }
                let b = &mut self.bdis[i];
                note_time(&mut b.first_s, &mut b.last_s, e.time_s);
                if kind == EventKind::BalanceDirtyPages {
                    b.events[0] += 1;
                    add_bdp(b, &mut self.hz, e, self.global.last_thresh, self.global.last_bg_thresh);
                    if let Some(d) = e.get(Field::Dirty) {
                        self.global.dirty_from_passes += 1;
                        // Read with the pass's own global_dirty_state (see
                        // `Series`), the count holds as that one's does.
                        let with_state = read_with_state(self.global.state_s, e.time_s);
                        self.global.dirty_reading(e.time_s, d, !with_state);
                    }
                    self.hz.add_period(e);
                    self.page.add(e);
                    match e.get(Field::Pause) {
                        Some(p) if p > 0 => self.pauses.add(p),
                        Some(_) => self.no_sleep += 1,
                        None => {}
                    }
                } else {
                    b.events[1] += 1;
                    add_bdr(b, e);
                }
            }
            (_, None) => {}
        }
    }

    fn add_global(&mut self, e: &Event) {
        let g = &mut self.global;
        g.events += 1;
        note_time(&mut g.first_s, &mut g.last_s, e.time_s);
        let each = [
            (Field::Thresh, &mut g.thresh, &mut g.thresh_values),
            (Field::BgThresh, &mut g.bg_thresh, &mut g.bg_thresh_values),
            (Field::Limit, &mut g.limit, &mut g.limit_values),
        ];
        for (f, extent, values) in each {
            if let Some(v) = e.get(f) {
                extent.add(v);
                values.add(v);
            }
        }
        g.last_thresh = e.get(Field::Thresh).or(g.last_thresh);
        g.last_bg_thresh = e.get(Field::BgThresh).or(g.last_bg_thresh);
        // Dirty + writeback (+ unstable), as freerun is compared with.
        let total = match (e.get(Field::Dirty), e.get(Field::Writeback)) {
            (Some(d), Some(w)) => {
                g.writeback.add(w);
                Some(d + w + e.get(Field::Unstable).unwrap_or(0))
            }
            _ => None,
        };
        if let Some(total) = total {
            g.dirty_reading(e.time_s, total, false);
            g.state_s = Some(e.time_s);
        }
        if let (Some(d), Some(w)) = (e.get(Field::Dirtied), e.get(Field::Written)) {
            let freerun = e.get(Field::Thresh).zip(e.get(Field::BgThresh)).map(|(th, bg)| freerun_of(th, bg));
            let free = total.zip(freerun).is_some_and(|(total, freerun)| total <= freerun);
            g.counters_wide |= d.max(w) >= super::COUNTER_WRAP;
            if let Some((t0, d0, w0, was_free)) = g.last_counters {
                let wide = g.counters_wide;
                match (super::counter_growth(d0, d, wide), super::counter_growth(w0, w, wide)) {
                    // A counter restarted: nothing known of this step.
                    (None, _) | (_, None) => g.counter_drops += 1,
                    (Some(dirtied), Some(written)) if e.time_s >= t0 && !g.counters_silent => {
                        g.counter_wraps += u64::from(d < d0 || w < w0);
                        g.written.add(t0, e.time_s, written);
                        if free && was_free {
                            g.dirtied_free.add(t0, e.time_s, dirtied);
                        }
                        g.dirtied_pages += dirtied;
                        g.written_pages += written;
                        g.counted_s += e.time_s - t0;
                    }
                    _ => {}
                }
            }
            note_time(&mut g.counters_from_s, &mut g.counters_to_s, e.time_s);
            g.last_counters = Some((e.time_s, d, w, free));
            g.counters_silent = false;
        }
    }

    /// The page size the passes so far tell \[KiB\].
    pub fn page_kb(&self) -> Option<u64> {
        self.page.infer().0
    }

    /// The summary of everything added, with the reader's names and counts.
    pub fn finish(&self, source: &str, decoder: &Decoder) -> TraceSummary {
        let st = &decoder.stats;
        let (page_kb, page_note) = self.page.infer();
        let (hz, hz_note) = self.hz.infer(page_kb);
        let hz_fits = if hz.is_none() { self.hz.fits(page_kb) } else { Vec::new() };
        let kernel = KernelSummary {
            generation: generation(decoder),
            cpus: st.cpus(),
            cpus_from_header: st.header_cpus.is_some(),
            cpus_note: match (st.header_cpus, st.max_cpu) {
                (Some(_), _) => "the trace's header",
                (None, Some(_)) => "the highest CPU column (at least that many)",
                (None, None) => "no header and no CPU column",
            },
            hz,
            hz_note,
            hz_fits,
            page_kb,
            page_note,
            fields: EventKind::ALL
                .iter()
                .map(|&k| (k.name(), st.fields_seen[k.index()].iter().map(|&f| printed_name(f, st.wb_names)).collect()))
                .filter(|(_, names): &(&str, Vec<&str>)| !names.is_empty())
                .collect(),
        };
        let bdis = self
            .bdis
            .iter()
            .enumerate()
            .filter(|(_, b)| b.events.iter().sum::<u64>() > 0)
            .map(|(i, b)| bdi_summary(i, b, decoder, page_kb))
            .collect();
        let tasks = by_name(&self.tasks, decoder)
            .into_iter()
            .map(|(task, counts)| TaskEvents {
                task,
                balance_dirty_pages: counts[0],
                bdi_dirty_ratelimit: counts[1],
                global_dirty_state: counts[2],
            })
            .collect();
        TraceSummary {
            source: source.to_string(),
            format: st.tool_name(),
            kernel,
            lines: st.lines,
            header_lines: st.header_lines,
            blank_lines: st.blank_lines,
            call_chain_lines: st.call_chain_lines,
            events: EventCounts::of(st.events),
            skipped: Skipped {
                total: st.skipped(),
                other_events: st.other_events,
                malformed: st.malformed,
                unreadable: st.unreadable,
                raw_clock: st.raw_clock,
                first_other_event_line: st.first_skipped[0],
                first_malformed_line: st.first_skipped[1],
                first_unreadable_line: st.first_skipped[2],
                first_malformed_col: st.first_malformed.as_ref().map(|m| m.1),
                first_malformed_why: st.first_malformed.as_ref().map(|m| m.2.clone()),
                first_nul_line: st.first_nul.map(|n| n.0),
                first_nul_col: st.first_nul.map(|n| n.1),
                last_line_cut: st.last_line_cut,
                unended_read_line: st.unended_read.as_ref().map(|u| u.0),
                unended_read_value: st.unended_read.as_ref().map(|u| u.1.clone()),
                unended_cut: st.unended_cut.clone(),
            },
            lost: Lost { marks: st.lost_marks, events: st.lost_events },
            backwards: Backwards {
                events: st.backwards,
                largest_s: st.largest_backwards.map(|b| b.0),
                largest_line: st.largest_backwards.map(|b| b.1),
            },
            reordered: Reordered { events: st.reordered, largest_s: st.reordered_max_s },
            stretches: st.stretches.iter().map(|x| StretchSpan { first_s: x.first_s, last_s: x.last_s }).collect(),
            wrapped: st.wrapped.iter().map(|(k, v)| (k.to_string(), *v)).collect(),
            span: Span::of(st.first_s, st.last_s, st),
            silences: self
                .silences
                .iter()
                .map(|&(a, b)| {
                    let t0 = st.first_s.unwrap_or(0.0);
                    Silence { from_s: a - t0, to_s: b - t0, duration_s: b - a }
                })
                .collect(),
            // balance_dirty_pages' dirty= alone (no global_dirty_state
            // enabled) still gives the dirty count.
            global: (self.global.events > 0 || self.global.dirty.count() > 0)
                .then(|| global_summary(&self.global, page_kb, st)),
            pause_ms: Pauses::of(&self.pauses, self.no_sleep),
            bdis,
            tasks,
        }
    }
}

/// Per-task values in the order of the tasks' names (command, then pid).
fn by_name<'a, T>(per_task: &'a BTreeMap<u32, T>, decoder: &Decoder) -> Vec<(String, &'a T)> {
    let mut v: Vec<_> = per_task.iter().map(|(&id, x)| (&decoder.tasks[id as usize], x)).collect();
    v.sort_by(|a, b| a.0.cmp(b.0));
    v.into_iter().map(|(t, x)| (t.to_string(), x)).collect()
}

/// A field's name as a trace printed it: 6.15 renamed two.
fn printed_name(f: Field, wb_names: bool) -> &'static str {
    match (f, wb_names) {
        (Field::BdiSetpoint, true) => "wb_setpoint",
        (Field::BdiDirty, true) => "wb_dirty",
        _ => f.name(),
    }
}

/// Takes balance_dirty_pages pass `e` into `b`; its limit and setpoint
/// as the control law takes them, with `thresh`, the last known
/// (global_dirty_state's): see [`super::control_setpoint`].
fn add_bdp(b: &mut BdiAcc, hz: &mut HzAcc, e: &Event, thresh: Option<i64>, bg_thresh: Option<i64>) {
    let dist_of = [
        (Field::DirtyRatelimit, &mut b.bdp_dirty_ratelimit),
        (Field::TaskRatelimit, &mut b.bdp_task_ratelimit),
        (Field::Dirty, &mut b.dirty),
        (Field::BdiDirty, &mut b.bdi_dirty),
        (Field::BdiSetpoint, &mut b.bdi_setpoint_values),
    ];
    for (f, d) in dist_of {
        if let Some(v) = e.get(f) {
            d.add(v);
        }
    }
    if let Some(l) = e.get(Field::Limit) {
        b.limit.add(super::hard_dirty_limit(l, thresh));
        if let Some(sp) = e.get(Field::Setpoint) {
            let t = thresh.map(|t| t.max(0) as u64);
            let freerun = thresh.zip(bg_thresh).map(|(t, bg)| freerun_of(t, bg) as u64);
            b.setpoint.add(super::control_setpoint(sp.max(0) as u64, l.max(0) as u64, t, freerun) as i64);
        }
    }
    if let Some(v) = e.get(Field::BdiSetpoint) {
        b.bdi_setpoint.add(v);
    }
    match e.get(Field::Pause) {
        Some(p) if p > 0 => b.pauses.add(p),
        Some(_) => b.no_sleep += 1,
        None => {}
    }
    for f in [Field::Pause, Field::Paused, Field::Period, Field::Think] {
        if let Some(v) = e.get(f) {
            hz.add(v);
        }
    }
    let seen = b.tasks.entry(e.task).or_default();
    seen.events += 1;
    note_time(&mut seen.first_s, &mut seen.last_s, e.time_s);
}

fn add_bdr(b: &mut BdiAcc, e: &Event) {
    let dist_of = [
        (Field::WriteBw, &mut b.write_bw),
        (Field::AwriteBw, &mut b.awrite_bw),
        (Field::DirtyRate, &mut b.dirty_rate),
        (Field::DirtyRatelimit, &mut b.bdr_dirty_ratelimit),
        (Field::TaskRatelimit, &mut b.bdr_task_ratelimit),
        (Field::BalancedDirtyRatelimit, &mut b.balanced),
    ];
    for (f, d) in dist_of {
        if let Some(v) = e.get(f) {
            d.add(v);
        }
    }
}

/// The kernel release the printed fields point to, with the evidence.
/// What tells (read in each release's include/trace/events/writeback.h):
/// 3.3 adds `period=`/`think=`; 4.3 appends the cgroup to both bdi
/// events, by path (`cgroup=/`, `/` without cgroup writeback), later by
/// inode (`cgroup_ino=`); 5.8 drops `unstable=`; 6.15 renames
/// `bdi_setpoint`/`bdi_dirty` to `wb_setpoint`/`wb_dirty`.
pub fn generation(decoder: &Decoder) -> String {
    let st = &decoder.stats;
    let bdp = EventKind::BalanceDirtyPages;
    let bdr = EventKind::BdiDirtyRatelimit;
    let gds = EventKind::GlobalDirtyState;
    let seen = |k: EventKind| st.events[k.index()] > 0;
    let cgroup_ino = st.saw(bdp, Field::CgroupIno) || st.saw(bdr, Field::CgroupIno);
    let unstable = st.saw(gds, Field::Unstable);
    if seen(bdp) && st.wb_names {
        return "6.15 or later (wb_setpoint, wb_dirty)".into();
    }
    if seen(gds) && !unstable {
        return if seen(bdp) {
            "5.8 to 6.14 (bdi_setpoint, no unstable=)".into()
        } else {
            "5.8 or later (global_dirty_state without unstable=)".into()
        };
    }
    // From here, global_dirty_state is absent or prints unstable= (up to 5.7).
    if st.cgroup_path {
        return "4.3 to 5.7 (cgroup=<path>)".into();
    }
    if cgroup_ino {
        return if seen(gds) {
            "4.x to 5.7 (cgroup_ino, unstable=)".into()
        } else if seen(bdp) {
            "4.x to 6.14 (cgroup_ino, bdi_setpoint)".into()
        } else {
            "4.x or later (cgroup_ino)".into()
        };
    }
    if seen(bdp) && st.saw(bdp, Field::Period) {
        return "3.3 to 4.2 (period, think; no cgroup)".into();
    }
    if seen(bdp) {
        return "3.2 (no period, think)".into();
    }
    if seen(bdr) {
        return "3.2 to 4.2 (bdi_dirty_ratelimit without cgroup)".into();
    }
    "3.1 to 5.7 (global_dirty_state with unstable=)".into()
}

fn extent_mb(x: &Extent, page_kb: Option<u64>) -> Range {
    let m = |v: Option<i64>| v.map(|p| mib_of(p as f64, page_kb));
    Range { first: m(x.first), min: m(x.min), max: m(x.max) }
}

fn bdi_summary(i: usize, b: &BdiAcc, decoder: &Decoder, page_kb: Option<u64>) -> BdiTraceSummary {
    let med_mibps = |d: &Dist| d.median().map(mibps);
    let med_mib = |d: &Dist| d.median().map(|p| mib_of(p, page_kb));
    let extent_mb = |x: &Extent| extent_mb(x, page_kb);
    let bdp = (b.events[0] > 0).then(|| BdpSummary {
        dirty_ratelimit_mbps: med_mibps(&b.bdp_dirty_ratelimit),
        task_ratelimit_mbps: med_mibps(&b.bdp_task_ratelimit),
        limit_mb: extent_mb(&b.limit),
        setpoint_mb: extent_mb(&b.setpoint),
        bdi_setpoint_mb: extent_mb(&b.bdi_setpoint),
        dirty_mb_median: med_mib(&b.dirty),
        bdi_dirty_mb_median: med_mib(&b.bdi_dirty),
        bdi_setpoint_mb_median: med_mib(&b.bdi_setpoint_values),
        pause_ms: Pauses::of(&b.pauses, b.no_sleep),
    });
    let bdr = (b.events[1] > 0).then(|| BdrSummary {
        write_bw_mbps: med_mibps(&b.write_bw),
        awrite_bw_mbps: med_mibps(&b.awrite_bw),
        dirty_rate_mbps: med_mibps(&b.dirty_rate),
        dirty_ratelimit_mbps: med_mibps(&b.bdr_dirty_ratelimit),
        task_ratelimit_mbps: med_mibps(&b.bdr_task_ratelimit),
        balanced_dirty_ratelimit_mbps: med_mibps(&b.balanced),
    });
    BdiTraceSummary {
        bdi: decoder.bdis[i].clone(),
        cgroup: decoder.shown_cgroup(i).map(str::to_string),
        events: EventCounts {
            balance_dirty_pages: b.events[0],
            bdi_dirty_ratelimit: b.events[1],
            global_dirty_state: 0,
        },
        span: Span::of(b.first_s, b.last_s, &decoder.stats),
        balance_dirty_pages: bdp,
        bdi_dirty_ratelimit: bdr,
        tasks: by_name(&b.tasks, decoder)
            .into_iter()
            .map(|(task, n)| TaskCount {
                task,
                events: n.events,
                first_s: n.first_s.unwrap_or(0.0),
                last_s: n.last_s.unwrap_or(0.0),
            })
            .collect(),
    }
}

/// `g` summed up; the trace's first event (of `st`) is the origin of the
/// spans it gives.
fn global_summary(g: &GlobalAcc, page_kb: Option<u64>, st: &super::reader::ReadStats) -> GlobalTraceSummary {
    let t0 = st.first_s.unwrap_or(0.0);
    let mib = |pages: f64| mib_of(pages, page_kb);
    let extent_mb = |x: &Extent| extent_mb(x, page_kb);
    let thresh = g.thresh_values.mode();
    let bg = g.bg_thresh_values.mode();
    let limit = g.limit_values.mode();
    let freerun = thresh.zip(bg).map(|(t, b)| freerun_of(t, b));
    let hard = limit.map(|l| super::hard_dirty_limit(l, thresh));
    let setpoint = hard.zip(freerun).map(|(l, f)| (l + f) / 2);
    let span = Span::of(g.first_s, g.last_s, st);
    let busy = g.written.busy();
    let free = g.dirtied_free.busy();
    let counted = (g.counted_s > 0.0).then_some(g.counted_s);
    let rate = |pages: i64| counted.map(|s| mib(pages as f64) / s);
    GlobalTraceSummary {
        events: g.events,
        span,
        thresh_pages: thresh,
        bg_thresh_pages: bg,
        limit_pages: limit,
        thresh_mb: extent_mb(&g.thresh),
        bg_thresh_mb: extent_mb(&g.bg_thresh),
        limit_mb: extent_mb(&g.limit),
        hard_limit_mb: hard.map(|p| mib(p as f64)),
        freerun_mb: freerun.map(|p| mib(p as f64)),
        setpoint_mb: setpoint.map(|p| mib(p as f64)),
        dirty_mb: DirtySummary {
            median: g.dirty.median().map(mib),
            // Over the time the integral covers: from the first readable
            // count to the last (a wrapped one adds nothing to it), less
            // the silences.
            mean: (g.dirty_time_s > 0.0).then(|| mib(g.dirty_integral / g.dirty_time_s)),
            mean_from_s: g.first_dirty_s.filter(|_| g.dirty_time_s > 0.0).map(|t| t - t0),
            mean_to_s: g.last_dirty.filter(|_| g.dirty_time_s > 0.0).map(|(t, _)| t - t0),
            mean_silent_s: g.dirty_silent_s,
            mean_unheld_s: g.dirty_unheld_s,
            mean_time_s: g.dirty_time_s,
            max: g.dirty.max().map(|p| mib(p as f64)),
            from_global_dirty_state: g.dirty.count() - g.dirty_from_passes,
            from_balance_dirty_pages: g.dirty_from_passes,
        },
        writeback_mb_median: g.writeback.median().map(mib),
        dirtied_mbps: rate(g.dirtied_pages),
        written_mbps: rate(g.written_pages),
        rates_from_s: g.counters_from_s.filter(|_| counted.is_some()).map(|t| t - t0),
        rates_to_s: g.counters_to_s.filter(|_| counted.is_some()).map(|t| t - t0),
        rates_time_s: counted,
        counter_drops: g.counter_drops,
        counter_wraps: g.counter_wraps,
        written_busy_mbps: busy.map(|(r, _)| mib(r)),
        written_busy_s: busy.map(|(_, s)| s),
        dirtied_free_mbps: free.map(|(r, _)| mib(r)),
        dirtied_free_s: free.map(|(_, s)| s),
    }
}

/// Event counts by tracepoint.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct EventCounts {
    pub balance_dirty_pages: u64,
    pub bdi_dirty_ratelimit: u64,
    pub global_dirty_state: u64,
}

impl Pauses {
    fn of(sleeps: &Dist, no_sleep: u64) -> Pauses {
        Pauses {
            sleeps: sleeps.count(),
            no_sleep,
            p50: sleeps.quantile(0.5),
            p90: sleeps.quantile(0.9),
            p99: sleeps.quantile(0.99),
            max: sleeps.max(),
        }
    }
}

impl EventCounts {
    fn of(n: [u64; 3]) -> EventCounts {
        EventCounts { balance_dirty_pages: n[0], bdi_dirty_ratelimit: n[1], global_dirty_state: n[2] }
    }
}

/// Lines skipped, by reason.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Skipped {
    pub total: u64,
    /// Lines of other events or tracers.
    pub other_events: u64,
    /// Writeback events with a field missing or unreadable (truncated).
    pub malformed: u64,
    /// Lines that are no event at all.
    pub unreadable: u64,
    /// Writeback events stamped by a trace clock not in nanoseconds
    /// (counter, uptime, x86-tsc): their time cannot be read.
    pub raw_clock: u64,
    /// The first line of each reason, to look at (from 1).
    pub first_other_event_line: Option<u64>,
    pub first_malformed_line: Option<u64>,
    pub first_unreadable_line: Option<u64>,
    /// The first malformed line's column (from 1) and what is wrong there.
    pub first_malformed_col: Option<usize>,
    pub first_malformed_why: Option<String>,
    /// The first NUL byte's line and column (from 1): binary data, its
    /// line counted unreadable.
    pub first_nul_line: Option<u64>,
    pub first_nul_col: Option<usize>,
    /// The last line is cut short: the trace was captured while being written.
    pub last_line_cut: bool,
    /// The last line held an event but no line end, and its last value
    /// could not have been cut (`think=0`, a blank after it): its line and
    /// that value. It was read.
    pub unended_read_line: Option<u64>,
    pub unended_read_value: Option<String>,
    /// The last line held an event but no line end, and may have been cut
    /// within its last value: its line, column and why. It was not read
    /// (one of `malformed`).
    pub unended_cut: Option<(u64, usize, String)>,
}

/// Events the ring buffer dropped before they were read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Lost {
    /// Marks in the trace (`CPU:1 [LOST 12 EVENTS]`, `[EVENTS DROPPED]`).
    pub marks: u64,
    /// The events they count (a mark without a number adds none).
    pub events: u64,
}

/// First and last event on the trace's clock \[s\].
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Span {
    pub first_s: Option<f64>,
    pub last_s: Option<f64>,
    /// last − first \[s\].
    pub duration_s: f64,
}

/// No event from `from_s` to `to_s`, on the trace's clock from its
/// first event \[s\].
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Silence {
    pub from_s: f64,
    pub to_s: f64,
    pub duration_s: f64,
}

/// Steps back in time of more than a second (traces joined, a stamp
/// corrupted): each starts a new stretch, moved on the clock the spans
/// and rows are on to go on a second after the one before.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Backwards {
    pub events: u64,
    /// The largest step back \[s\] and its line (from 1).
    pub largest_s: Option<f64>,
    pub largest_line: Option<u64>,
}

/// Events stamped up to a second before one read before them (per-CPU
/// buffers merged): put back in time order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Reordered {
    pub events: u64,
    /// The largest step back \[s\].
    pub largest_s: f64,
}

/// A stretch of time order: its first and last stamp on the trace's own clock \[s\].
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct StretchSpan {
    pub first_s: f64,
    pub last_s: f64,
}

impl Span {
    /// From `first` to `last` on the clock of the events' times, lasting
    /// the time they cover, less the gaps between stretches of `st`.
    fn of(first: Option<f64>, last: Option<f64>, st: &super::reader::ReadStats) -> Span {
        Span { first_s: first, last_s: last, duration_s: first.zip(last).map_or(0.0, |(f, l)| st.covered(f, l)) }
    }
}

/// First, smallest and largest value \[MiB\].
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Range {
    pub first: Option<f64>,
    pub min: Option<f64>,
    pub max: Option<f64>,
}

/// The sleeps balance_dirty_pages decided \[ms\].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Pauses {
    /// Passes that slept (pause > 0).
    pub sleeps: u64,
    /// Passes that did not (pause ≤ 0: the task was behind its rate).
    pub no_sleep: u64,
    /// Nearest-rank percentiles of the sleeps \[ms\].
    pub p50: Option<i64>,
    pub p90: Option<i64>,
    pub p99: Option<i64>,
    pub max: Option<i64>,
}

/// A bdi's balance_dirty_pages events.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BdpSummary {
    /// Median dirty_ratelimit the throttled tasks saw \[MiB/s\].
    pub dirty_ratelimit_mbps: Option<f64>,
    /// Median task_ratelimit (dirty_ratelimit × pos_ratio) \[MiB/s\].
    pub task_ratelimit_mbps: Option<f64>,
    /// Global limit as the control law takes it, max(thresh, the printed
    /// dirty_limit), thresh the last global_dirty_state printed \[MiB\].
    pub limit_mb: Range,
    /// Global setpoint as the control law takes it, (that limit +
    /// freerun) / 2: the printed one is of the raw dirty_limit \[MiB\].
    pub setpoint_mb: Range,
    /// The bdi's setpoint \[MiB\].
    pub bdi_setpoint_mb: Range,
    /// Median global dirty + writeback as the throttled tasks saw it \[MiB\].
    pub dirty_mb_median: Option<f64>,
    /// Median bdi dirty + writeback \[MiB\].
    pub bdi_dirty_mb_median: Option<f64>,
    /// Median bdi setpoint, over the same passes \[MiB\].
    pub bdi_setpoint_mb_median: Option<f64>,
    /// The pauses decided.
    pub pause_ms: Pauses,
}

/// A bdi's bdi_dirty_ratelimit events: medians \[MiB/s\].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BdrSummary {
    pub write_bw_mbps: Option<f64>,
    pub awrite_bw_mbps: Option<f64>,
    pub dirty_rate_mbps: Option<f64>,
    pub dirty_ratelimit_mbps: Option<f64>,
    pub task_ratelimit_mbps: Option<f64>,
    pub balanced_dirty_ratelimit_mbps: Option<f64>,
}

/// A task and how many events it has on a bdi.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TaskCount {
    /// `comm-pid`.
    pub task: String,
    pub events: u64,
    /// Its first and last pass on the bdi, on the trace's clock \[s\]:
    /// when `--fit` starts and stops its dd.
    pub first_s: f64,
    pub last_s: f64,
}

/// One bdi in the trace.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BdiTraceSummary {
    /// Its name: the device number, `8:0`.
    pub bdi: String,
    /// The cgroup of this writeback context, when the bdi has more than
    /// one: `cgroup /user.slice/…` (4.3 to 5.7) or `cgroup_ino 1234`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cgroup: Option<String>,
    pub events: EventCounts,
    pub span: Span,
    /// Null when the trace has none of its balance_dirty_pages events.
    pub balance_dirty_pages: Option<BdpSummary>,
    /// Null when the trace has none of its bdi_dirty_ratelimit events.
    pub bdi_dirty_ratelimit: Option<BdrSummary>,
    /// Tasks throttled on it, with their balance_dirty_pages events.
    pub tasks: Vec<TaskCount>,
}

/// Global dirty + writeback + unstable \[MiB\].
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct DirtySummary {
    pub median: Option<f64>,
    /// Over time, each value held until the next event, from
    /// `mean_from_s` to `mean_to_s` less `mean_silent_s`.
    pub mean: Option<f64>,
    /// The first and last readable count the mean is taken between, on
    /// the trace's clock from its first event \[s\].
    pub mean_from_s: Option<f64>,
    pub mean_to_s: Option<f64>,
    /// The silences between them (no event for over a minute), left out
    /// of the mean: no count is known there \[s\].
    pub mean_silent_s: f64,
    /// The time a balance_dirty_pages count was not held: past
    /// [`TASK_LIVE_S`] after it, to the next reading, left out of the
    /// mean \[s\].
    pub mean_unheld_s: f64,
    /// The time the mean is taken over: the counts held, neither the
    /// silences nor the gaps between stretches \[s\].
    pub mean_time_s: f64,
    pub max: Option<f64>,
    /// The readings all three are of: global_dirty_state's dirty +
    /// writeback + unstable, and balance_dirty_pages' `dirty=` (the same
    /// count), as the 100 ms rows take them.
    pub from_global_dirty_state: u64,
    pub from_balance_dirty_pages: u64,
}

/// The global_dirty_state events.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GlobalTraceSummary {
    pub events: u64,
    pub span: Span,
    /// The most frequent dirty_thresh, background_thresh and limit \[pages\].
    pub thresh_pages: Option<i64>,
    pub bg_thresh_pages: Option<i64>,
    pub limit_pages: Option<i64>,
    pub thresh_mb: Range,
    pub bg_thresh_mb: Range,
    pub limit_mb: Range,
    /// max(thresh, limit) of the most frequent values: the limit the
    /// control law uses (hard_dirty_limit()) \[MiB\].
    pub hard_limit_mb: Option<f64>,
    /// (thresh + bg_thresh) / 2 of the most frequent values \[MiB\].
    pub freerun_mb: Option<f64>,
    /// (hard limit + freerun) / 2 \[MiB\].
    pub setpoint_mb: Option<f64>,
    pub dirty_mb: DirtySummary,
    pub writeback_mb_median: Option<f64>,
    /// NR_DIRTIED and NR_WRITTEN's growth between readings in time
    /// order over the time it took, `rates_time_s` of `rates_from_s` to
    /// `rates_to_s` (their earliest and latest reading): a step back in
    /// time, a silence or a counter gone down adds neither \[MiB/s\].
    pub dirtied_mbps: Option<f64>,
    pub written_mbps: Option<f64>,
    /// On the trace's clock from its first event \[s\].
    pub rates_from_s: Option<f64>,
    pub rates_to_s: Option<f64>,
    /// The time the rates are taken over \[s\].
    pub rates_time_s: Option<f64>,
    /// Readings where NR_DIRTIED or NR_WRITTEN went down (traces joined,
    /// a reboot): each a restart, its drop not counted.
    pub counter_drops: u64,
    /// Readings where NR_DIRTIED or NR_WRITTEN had passed 2^32 and started
    /// again from 0 (a 32-bit kernel's `unsigned long`): read as the
    /// growth it is.
    pub counter_wraps: u64,
    /// NR_WRITTEN's rate while the disks were writing: over the 200 ms
    /// windows that wrote at least a tenth of the busiest one \[MiB/s\].
    pub written_busy_mbps: Option<f64>,
    /// The time of those windows \[s\].
    pub written_busy_s: Option<f64>,
    /// NR_DIRTIED's rate while nothing throttled: over the 200 ms windows
    /// of readings under freerun that dirtied at least a tenth of the
    /// busiest such one \[MiB/s\].
    pub dirtied_free_mbps: Option<f64>,
    /// The time of those windows \[s\].
    pub dirtied_free_s: Option<f64>,
}

/// The kernel that wrote the trace, as far as its fields tell.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct KernelSummary {
    /// The releases whose fields match, with the fields that tell.
    pub generation: String,
    /// CPUs, from the header or the highest CPU number seen.
    pub cpus: Option<u32>,
    /// Where the CPU count comes from.
    pub cpus_note: &'static str,
    /// The header states it (`#P:4`, `cpus=4`): the count, not a least.
    #[serde(skip)]
    pub cpus_from_header: bool,
    /// The timer frequency, from the granularity of the times and the
    /// periods of the throttling passes.
    pub hz: Option<u64>,
    /// How HZ was told, or why it could not be.
    pub hz_note: String,
    /// The HZ the times and periods fit, when more than one does and
    /// the evidence cannot tell which (the report names them).
    #[serde(skip)]
    pub hz_fits: Vec<u64>,
    /// The page size \[KiB\], from balance_dirty_pages' period (3.3+).
    /// Every MiB figure read from pages uses it (4 KiB when not told);
    /// MiB/s read from KB/s need none.
    pub page_kb: Option<u64>,
    /// How the page size was told, or why it could not be.
    pub page_note: String,
    /// Fields printed, by event.
    pub fields: BTreeMap<&'static str, Vec<&'static str>>,
}

/// One task's events.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TaskEvents {
    /// `comm-pid`.
    pub task: String,
    pub balance_dirty_pages: u64,
    pub bdi_dirty_ratelimit: u64,
    pub global_dirty_state: u64,
}

/// Everything `dirtyviz view --summary-json` reports of a kernel trace.
/// Pages are shown as MiB, KB/s as MiB/s, times in ms.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TraceSummary {
    /// The file read (`-` for standard input).
    pub source: String,
    /// The program that wrote it.
    pub format: &'static str,
    pub kernel: KernelSummary,
    pub lines: u64,
    pub header_lines: u64,
    /// Empty lines (perf script puts one after each event's call chain).
    pub blank_lines: u64,
    /// Lines of the call chains `perf script` prints under events
    /// recorded with `-g`: read, not skipped.
    pub call_chain_lines: u64,
    pub events: EventCounts,
    pub skipped: Skipped,
    /// Events lost to an overflowed ring buffer: every count and rate misses them.
    pub lost: Lost,
    /// Events out of time order by more than a second: each a new stretch.
    pub backwards: Backwards,
    /// Events out of time order by up to a second, put in order.
    pub reordered: Reordered,
    /// The stretches of time order, on the trace's own clock: one, or
    /// more when `backwards` started others.
    pub stretches: Vec<StretchSpan>,
    /// Values printed wrapped (and left out of every statistic), by field.
    pub wrapped: BTreeMap<String, u64>,
    pub span: Span,
    /// Stretches of over a minute without any event: the kernel printed
    /// nothing, so nothing is known there. The CSV's rows there are
    /// empty, the means leave them out and the dashboard draws no count.
    pub silences: Vec<Silence>,
    /// Null without global_dirty_state events.
    pub global: Option<GlobalTraceSummary>,
    /// The pauses of every bdi together.
    pub pause_ms: Pauses,
    pub bdis: Vec<BdiTraceSummary>,
    pub tasks: Vec<TaskEvents>,
}

/// `n` throttling passes, `1 throttling pass`.
fn passes(n: u64) -> String {
    if n == 1 { "1 throttling pass".into() } else { format!("{n} throttling passes") }
}

/// A span on the trace's clock from its first event: `0-19.95 s`; one
/// shorter than a second to the 0.1 ms (`0-0.0499 s`), so that it never
/// reads `0-0 s`.
pub fn span_text(from_s: f64, to_s: f64) -> String {
    let d = if to_s - from_s >= 1.0 { 2 } else { 4 };
    format!("{}-{} s", crate::units::trimmed(from_s, d), crate::units::trimmed(to_s, d))
}

/// How long a span lasts: to the 0.1 s from a second, in milliseconds
/// below it (`49.9 ms`), so that a short one never reads `0.0 s`.
pub fn duration_text(s: f64) -> String {
    if s >= 1.0 || s <= 0.0 {
        format!("{s:.1} s")
    } else {
        // A trace's clock counts microseconds.
        let ms = s * 1e3;
        format!("{} ms", crate::units::trimmed(ms, if ms >= 1.0 { 1 } else { 3 }))
    }
}

fn opt(v: Option<f64>, digits: usize) -> String {
    v.map_or(NOT_KNOWN.into(), |x| format!("{x:.digits$}"))
}

fn opt_i(v: Option<i64>) -> String {
    v.map_or(NOT_KNOWN.into(), |x| x.to_string())
}

/// A size \[MiB\] in `unit` as `run`'s report writes it
/// ([`SizeUnit::reported`]).
fn size_in(v: Option<f64>, unit: SizeUnit) -> String {
    match v {
        Some(x) if x.is_finite() => unit.reported(x),
        _ => opt(v, 1),
    }
}

/// A size \[MiB\] in `unit` to a tenth, to tell whether two read alike.
fn tenths(v: Option<f64>, unit: SizeUnit) -> Option<i64> {
    v.map(|x| (unit.value(x) * 10.0).round() as i64)
}

/// The one unit of sizes \[MiB\] read side by side: that of the largest.
fn unit_of(mibs: &[Option<f64>]) -> SizeUnit {
    SizeUnit::of_largest(mibs.iter().flatten().copied())
}

/// A range of sizes in the unit of its largest, or of `with` when larger.
fn range(r: &Range, with: Option<f64>) -> String {
    let unit = unit_of(&[r.first, r.min, r.max, with]);
    let (u, sz) = (unit.name(), |v| size_in(v, unit));
    if r.min == r.max {
        format!("{} {u}", sz(r.first))
    } else {
        format!("{} {u} (first; {} to {})", sz(r.first), sz(r.min), sz(r.max))
    }
}

/// `bdi dirty 75.9 vs bdi_setpoint 84.2 MiB (medians; bdi_setpoint 80.5
/// to 87.5)`: both medians over the same passes, and the setpoint's
/// range when it moved; by the names the trace printed them by
/// (`wb_names`: 6.15's `wb_dirty`, `wb_setpoint`).
fn bdi_dirty_vs_setpoint(p: &BdpSummary, wb_names: bool) -> String {
    let dirty_name = if wb_names { printed_name(Field::BdiDirty, true) } else { "bdi dirty" };
    let setpoint_name = printed_name(Field::BdiSetpoint, wb_names);
    let r = &p.bdi_setpoint_mb;
    let (dirty, setpoint) = (p.bdi_dirty_mb_median, p.bdi_setpoint_mb_median);
    let unit = unit_of(&[dirty, setpoint, r.min, r.max]);
    let sz = |v| size_in(v, unit);
    let moved = if tenths(r.min, unit) == tenths(r.max, unit) {
        String::new()
    } else {
        format!(" (medians; {setpoint_name} {} to {})", sz(r.min), sz(r.max))
    };
    format!("{dirty_name} {} vs {setpoint_name} {} {}{moved}", sz(dirty), sz(setpoint), unit.name())
}

impl TraceSummary {
    /// The text `dirtyviz view` prints.
    pub fn report(&self) -> String {
        use std::fmt::Write as _;
        let mut s = String::new();
        let k = &self.kernel;
        // 6.15's names where the trace printed them.
        let wb_names = k.fields.get("balance_dirty_pages").is_some_and(|f| f.contains(&"wb_setpoint"));
        let _ = writeln!(
            s,
            "trace {}: {}, kernel {}, {}, HZ {}",
            self.source,
            self.format,
            k.generation,
            match (k.cpus, k.cpus_from_header) {
                (None, _) => "? CPUs".into(),
                (Some(c), true) => count(c as u64, "CPU"),
                // The highest CPU column: CPUs without an event are not seen.
                (Some(c), false) => format!("at least {}", count(c as u64, "CPU")),
            },
            match (k.hz, k.hz_fits.as_slice()) {
                (Some(h), _) => h.to_string(),
                (None, fits @ [_, _, ..]) if fits.len() < HZS.len() => format!(
                    "{} (the times fit each)",
                    fits.iter().map(|h| h.to_string()).collect::<Vec<_>>().join(" or ")
                ),
                (None, _) => "?".into(),
            }
        );
        if let Some(kb) = k.page_kb.filter(|&kb| kb != 4) {
            let _ = writeln!(
                s,
                "pages       {kb} KiB, not 4 ({}): every MiB figure below counts pages of {kb} KiB",
                k.page_note
            );
        }
        let e = &self.events;
        let sk = &self.skipped;
        let reason = |n: u64, what: String, first: Option<u64>| match first {
            Some(line) if n > 0 => format!("{what} from line {line}"),
            _ => what,
        };
        let _ = writeln!(
            s,
            "lines       {} read: {} balance_dirty_pages, {} bdi_dirty_ratelimit, {} global_dirty_state; {} header;{}{} {} skipped ({}, {}, {}{}){}",
            self.lines,
            e.balance_dirty_pages,
            e.bdi_dirty_ratelimit,
            e.global_dirty_state,
            self.header_lines,
            match self.blank_lines {
                0 => String::new(),
                n => format!(" {n} blank;"),
            },
            match self.call_chain_lines {
                0 => String::new(),
                n => format!(" {n} in call chains;"),
            },
            sk.total,
            reason(sk.other_events, count(sk.other_events, "other event"), sk.first_other_event_line),
            reason(sk.malformed, format!("{} malformed", sk.malformed), sk.first_malformed_line),
            reason(sk.unreadable, format!("{} unreadable", sk.unreadable), sk.first_unreadable_line),
            match sk.raw_clock {
                0 => String::new(),
                n => format!(", {n} stamped by a trace clock not in seconds"),
            },
            match (&sk.unended_read_value, &sk.unended_cut) {
                (Some(value), _) =>
                    format!("; the last line has no line end and was read: its `{value}` cannot be cut short"),
                (_, Some(_)) => "; the last line has no line end and may be cut short: not read".to_string(),
                _ if sk.last_line_cut => "; the last line is cut short (captured while being written)".to_string(),
                _ => String::new(),
            }
        );
        if let (Some(line), Some(col), Some(why)) =
            (sk.first_malformed_line, sk.first_malformed_col, &sk.first_malformed_why)
        {
            let more = match sk.malformed {
                0 | 1 => String::new(),
                n => format!(" ({} more malformed, skipped too)", n - 1),
            };
            let last = match &sk.unended_cut {
                Some((at, col, why)) if *at != line => format!("; the last, {at}:{col}: {why}"),
                _ => String::new(),
            };
            let _ = writeln!(s, "malformed   {}:{line}:{col}: {why}{more}{last}", self.source);
        }
        if let (Some(line), Some(col)) = (sk.first_nul_line, sk.first_nul_col) {
            let _ = writeln!(
                s,
                "binary      {}:{line}:{col}: a NUL byte (binary data, not a trace's text): its line is not read",
                self.source
            );
        }
        if self.lost.marks > 0 {
            let _ = writeln!(
                s,
                "lost        {} in {} of an overflowed ring buffer: every count and rate misses them",
                if self.lost.events > 0 { count(self.lost.events, "event") } else { "uncounted events".into() },
                count(self.lost.marks, "mark")
            );
        }
        match self.stretches.as_slice() {
            [_, _, ..] => {
                const LISTED: usize = 4;
                let mut list: Vec<String> = self
                    .stretches
                    .iter()
                    .take(LISTED)
                    .map(|x| format!("{:.6} to {:.6} s", x.first_s, x.last_s))
                    .collect();
                if self.stretches.len() > LISTED {
                    list.push(format!("{} more", self.stretches.len() - LISTED));
                }
                let _ = writeln!(
                    s,
                    "span        {} ({} in {} stretches of time order)",
                    list.join(", then "),
                    duration_text(self.span.duration_s),
                    self.stretches.len()
                );
            }
            _ => {
                let _ = writeln!(
                    s,
                    "span        {} to {} s ({})",
                    opt(self.span.first_s, 6),
                    opt(self.span.last_s, 6),
                    duration_text(self.span.duration_s)
                );
            }
        }
        if !self.silences.is_empty() {
            const LISTED: usize = 4;
            let mut list: Vec<String> = self
                .silences
                .iter()
                .take(LISTED)
                .map(|q| format!("{} ({})", span_text(q.from_s, q.to_s), duration_text(q.duration_s)))
                .collect();
            if self.silences.len() > LISTED {
                list.push(format!("{} more", self.silences.len() - LISTED));
            }
            let _ = writeln!(
                s,
                "silence     no events {}: nothing is known there; the means leave it out, the CSV's rows there are empty",
                list.join(", ")
            );
        }
        if let (Some(step), Some(line)) = (self.backwards.largest_s, self.backwards.largest_line) {
            let _ = writeln!(
                s,
                "backwards   {} back in time by more than 1 s, the largest {} at {}:{line} (traces joined? a stamp corrupted?): each starts a new stretch, shown after the one before with a gap of a second or two; no count is held and no rate taken across",
                count(self.backwards.events, "step"),
                // Places enough to tell 1.02 s from the 1 s it is more than.
                if step < 10.0 { format!("{step:.2} s") } else { duration_text(step) },
                self.source
            );
        }
        if self.reordered.events > 0 {
            let _ = writeln!(
                s,
                "reordered   {} stamped up to {} before one printed before it (per-CPU buffers): read in time order",
                count(self.reordered.events, "event"),
                duration_text(self.reordered.largest_s)
            );
        }
        if let Some(g) = self.global.as_ref().filter(|g| g.counter_drops > 0) {
            let _ = writeln!(
                s,
                "counters    NR_DIRTIED or NR_WRITTEN went down {} (traces joined? a reboot?): each read as a restart, the dirtied and written rates leave those steps out",
                count(g.counter_drops, "time")
            );
        }
        if let Some(g) = self.global.as_ref().filter(|g| g.counter_wraps > 0) {
            let _ = writeln!(
                s,
                "counters    NR_DIRTIED or NR_WRITTEN passed 2^32 and went on from 0 at {} (a 32-bit kernel): read as the growth it is",
                count(g.counter_wraps, "reading")
            );
        }
        if !self.wrapped.is_empty() {
            let list: Vec<String> = self.wrapped.iter().map(|(f, n)| format!("{f} {n}")).collect();
            let _ = writeln!(s, "wrapped     {} (left out of every statistic)", list.join(", "));
        }
        if let Some(g) = &self.global {
            // The thresholds side by side in one unit, that of the
            // largest, as `run`'s report writes them; only
            // global_dirty_state tells them.
            if g.events > 0 {
                // One rule for all five: the most frequent thresh,
                // bg_thresh and limit, and freerun and setpoint made of
                // them, as the JSON's *_pages, freerun_mb and setpoint_mb.
                let mib = |p: Option<i64>| p.map(|p| mib_of(p as f64, k.page_kb));
                let most = [mib(g.bg_thresh_pages), g.freerun_mb, g.setpoint_mb, g.hard_limit_mb, mib(g.thresh_pages)];
                let unit = unit_of(&[&most[..], &[g.thresh_mb.max, g.limit_mb.max]].concat());
                let sz = |v| size_in(v, unit);
                let _ = writeln!(
                    s,
                    "thresholds  bg {}  freerun {}  setpoint {}  limit {}  thresh {} {}{}",
                    sz(most[0]),
                    sz(most[1]),
                    sz(most[2]),
                    sz(most[3]),
                    sz(most[4]),
                    unit.name(),
                    // A range that reads as one number (thresh moved by a
                    // few pages) is not written as `4376.1 to 4376.1`.
                    if [&g.thresh_mb, &g.limit_mb].iter().any(|r| tenths(r.min, unit) != tenths(r.max, unit)) {
                        format!(
                            " (the most frequent of {}; thresh {} to {}, limit {} to {})",
                            count(g.events, "global_dirty_state event"),
                            sz(g.thresh_mb.min),
                            sz(g.thresh_mb.max),
                            sz(g.limit_mb.min),
                            sz(g.limit_mb.max)
                        )
                    } else {
                        String::new()
                    }
                );
            }
            if let (Some(limit), Some(thresh)) = (g.limit_pages, g.thresh_pages)
                && limit < thresh
            {
                let limit = mib_of(limit as f64, k.page_kb);
                let _ = writeln!(
                    s,
                    "limit       global_dirty_state's dirty_limit {} lies below thresh: the kernel moves it \
                     only while tasks are throttled past freerun; its control law uses max(thresh, dirty_limit)",
                    {
                        let unit = unit_of(&[Some(limit)]);
                        format!("{} {}", size_in(Some(limit), unit), unit.name())
                    }
                );
            }
            let dirty = [g.dirty_mb.median, g.dirty_mb.mean, g.dirty_mb.max];
            let unit = unit_of(&dirty);
            let d = &g.dirty_mb;
            // Every mean says what time it is taken over.
            let unheld = match d.mean_unheld_s {
                0.0 => String::new(),
                q => format!(", a pass's for {} at most ({} left out)", duration_text(TASK_LIVE_S), duration_text(q)),
            };
            let mean_over = match (d.mean_from_s, d.mean_to_s) {
                (Some(_), Some(_)) if self.stretches.len() > 1 => format!(
                    " over {} in {} stretches, each count held until the next{unheld}{}",
                    duration_text(d.mean_time_s),
                    self.stretches.len(),
                    match d.mean_silent_s {
                        0.0 => String::new(),
                        q => format!(", less {} of silence", duration_text(q)),
                    }
                ),
                (Some(a), Some(b)) => format!(
                    " over {}, each count held until the next{unheld}{}",
                    span_text(a, b),
                    match d.mean_silent_s {
                        0.0 => String::new(),
                        q => format!(", less {} of silence", duration_text(q)),
                    }
                ),
                _ => String::new(),
            };
            let rates_over = match (g.rates_from_s, g.rates_to_s, g.rates_time_s) {
                // Not the span: steps back or restarts left out, or
                // stretches of time read twice (traces joined).
                (Some(a), Some(b), Some(t)) if (t - (b - a)).abs() > 1e-9 * (b - a).max(1.0) => {
                    format!(" over {} of readings in {}", duration_text(t), span_text(a, b))
                }
                (Some(a), Some(b), _) => format!(" over {}", span_text(a, b)),
                _ => String::new(),
            };
            // The readings all three are of, as the 100 ms rows take them.
            let readings = match (d.from_global_dirty_state, d.from_balance_dirty_pages) {
                (n, 0) => format!("{n} global_dirty_state"),
                (0, n) => format!(
                    "{n} balance_dirty_pages `dirty=` alone: no global_dirty_state, and no pass is printed below freerun"
                ),
                (g, n) => format!("{g} global_dirty_state and {n} balance_dirty_pages `dirty=`"),
            };
            // The counters of pages dirtied and written are
            // global_dirty_state's.
            let rates = match g.events {
                0 => String::new(),
                _ => format!(
                    "  dirtied {} MiB/s  written {} MiB/s{rates_over}",
                    opt(g.dirtied_mbps, 1),
                    opt(g.written_mbps, 1)
                ),
            };
            let _ = writeln!(
                s,
                "dirty       median {} {}  mean {}{mean_over}  max {}  (dirty + writeback + unstable, {readings}){rates}",
                size_in(dirty[0], unit),
                unit.name(),
                size_in(dirty[1], unit),
                size_in(dirty[2], unit),
            );
        }
        for b in &self.bdis {
            let name = match &b.cgroup {
                Some(cgroup) => format!("{} {cgroup}", b.bdi),
                None => b.bdi.clone(),
            };
            let _ = writeln!(
                s,
                "bdi {:<7} {} balance_dirty_pages, {} bdi_dirty_ratelimit over {}",
                name,
                b.events.balance_dirty_pages,
                b.events.bdi_dirty_ratelimit,
                duration_text(b.span.duration_s)
            );
            if let Some(r) = &b.bdi_dirty_ratelimit {
                let _ = writeln!(
                    s,
                    "  rates     write_bw {}  awrite_bw {}  dirty_rate {}  dirty_ratelimit {}  balanced {}  task_ratelimit {} MiB/s (medians of bdi_dirty_ratelimit)",
                    opt(r.write_bw_mbps, 1),
                    opt(r.awrite_bw_mbps, 1),
                    opt(r.dirty_rate_mbps, 1),
                    opt(r.dirty_ratelimit_mbps, 1),
                    opt(r.balanced_dirty_ratelimit_mbps, 1),
                    opt(r.task_ratelimit_mbps, 1)
                );
            }
            if let Some(p) = &b.balance_dirty_pages {
                let _ = writeln!(
                    s,
                    "  throttle  dirty_ratelimit {}  task_ratelimit {} MiB/s (medians of balance_dirty_pages)  {}",
                    opt(p.dirty_ratelimit_mbps, 1),
                    opt(p.task_ratelimit_mbps, 1),
                    bdi_dirty_vs_setpoint(p, wb_names)
                );
                let _ = writeln!(
                    s,
                    "  limits    limit {}  setpoint {}",
                    range(&p.limit_mb, None),
                    range(&p.setpoint_mb, None)
                );
                let q = &p.pause_ms;
                let _ = writeln!(
                    s,
                    "  pauses    {}  p50 {}  p90 {}  p99 {}  max {} ms; passes without a sleep: {}",
                    crate::units::count(q.sleeps, "sleep"),
                    opt_i(q.p50),
                    opt_i(q.p90),
                    opt_i(q.p99),
                    opt_i(q.max),
                    q.no_sleep
                );
            }
            if !b.tasks.is_empty() {
                let list: Vec<String> = b.tasks.iter().map(|t| format!("{} {}", t.task, t.events)).collect();
                let _ = writeln!(s, "  tasks     {} (balance_dirty_pages passes each)", list.join(", "));
            }
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_span_under_a_second_is_in_milliseconds_never_zero() {
        assert_eq!(duration_text(0.0499), "49.9 ms");
        assert_eq!(duration_text(0.0003), "0.3 ms");
        assert_eq!(duration_text(19.96), "20.0 s");
        assert_eq!(duration_text(0.0), "0.0 s", "one event");
        assert_eq!(span_text(0.0, 0.0499), "0-0.0499 s");
        assert_eq!(span_text(0.5, 19.954), "0.5-19.95 s");
        assert_eq!(passes(1), "1 throttling pass");
        assert_eq!(passes(3), "3 throttling passes");
    }

    fn generation_of(lines: &[&str]) -> String {
        let mut d = Decoder::new();
        for l in lines {
            d.line(l);
        }
        generation(&d)
    }

    #[test]
    fn the_release_is_told_from_the_fields_each_event_kind_prints() {
        let bdr = "dd-1 [000] 1.0: bdi_dirty_ratelimit: bdi 8:0: write_bw=1 awrite_bw=2 dirty_rate=3 dirty_ratelimit=4 task_ratelimit=5 balanced_dirty_ratelimit=6";
        let bdp = "dd-1 [000] 1.0: balance_dirty_pages: bdi 8:0: limit=1 setpoint=2 dirty=3 bdi_setpoint=4 bdi_dirty=5 dirty_ratelimit=6 task_ratelimit=7 dirtied=8 dirtied_pause=9 paused=0 pause=1 period=1 think=0";
        let gds = "dd-1 [000] 1.0: global_dirty_state: dirty=1 writeback=2 unstable=0 bg_thresh=3 thresh=4 limit=5 dirtied=6 written=7";
        // bdi_dirty_ratelimit alone with cgroup_ino: any release from the
        // inode on, 6.18 included; nothing says unstable= was printed.
        assert_eq!(generation_of(&[&format!("{bdr} cgroup_ino=1")]), "4.x or later (cgroup_ino)");
        assert_eq!(generation_of(&[&format!("{bdp} cgroup_ino=1")]), "4.x to 6.14 (cgroup_ino, bdi_setpoint)");
        assert_eq!(generation_of(&[&format!("{bdp} cgroup_ino=1"), gds]), "4.x to 5.7 (cgroup_ino, unstable=)");
        // 4.3's cgroup path, also `/` on kernels without cgroup writeback.
        assert_eq!(generation_of(&[&format!("{bdp} cgroup=/"), gds]), "4.3 to 5.7 (cgroup=<path>)");
        assert_eq!(generation_of(&[bdp, gds]), "3.3 to 4.2 (period, think; no cgroup)");
        assert_eq!(generation_of(&[bdr]), "3.2 to 4.2 (bdi_dirty_ratelimit without cgroup)");
        assert_eq!(generation_of(&[gds]), "3.1 to 5.7 (global_dirty_state with unstable=)");
    }

    fn summary_of(lines: &[String]) -> TraceSummary {
        let mut d = Decoder::new();
        let mut sum = Summarizer::new();
        let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
        super::super::reader::read_all(text.as_bytes(), &mut d, |e, _| sum.add(e)).expect("reads");
        sum.finish("t", &d)
    }

    #[test]
    fn the_malformed_row_names_a_last_line_not_read_after_an_earlier_malformed_one() {
        let gds =
            "dd-1 [000] 1.0: global_dirty_state: dirty=1 writeback=0 bg_thresh=2 thresh=4 limit=4 dirtied=1 written=12";
        let mut d = Decoder::new();
        let mut sum = Summarizer::new();
        let text = format!("{}\n{gds}\n{gds}", &gds[..gds.len() - 20]);
        crate::ktrace::reader::read_all(text.as_bytes(), &mut d, |e, _| sum.add(e)).expect("reads");
        let r = sum.finish("t", &d).report();
        let row = r.lines().find(|l| l.starts_with("malformed")).unwrap_or_else(|| panic!("{r}"));
        assert_eq!(
            row,
            "malformed   t:1:85: global_dirty_state: no `dirtied=`, which every release prints (cut short?) (1 more malformed, skipped too); \
             the last, 3:96: global_dirty_state: the last line has no line end and may be cut within `written=12`: not read (if it is whole, end it with a line feed)"
        );
    }

    #[test]
    fn a_kernel_of_64_kib_pages_is_told_not_misread() {
        // HZ 250, task_ratelimit 102400 KB/s. With 4 KiB pages that is
        // 25600 pages/s, and 512 pages take 250 × 512 / 25600 = 5 jiffies;
        // with 64 KiB pages, 1600 pages/s, and 32 pages take 5 jiffies.
        let bdp = |dirtied: u32| {
            format!(
                "dd-1 [000] 1.0: balance_dirty_pages: bdi 8:0: limit=1 setpoint=2 dirty=3 bdi_setpoint=4 bdi_dirty=5 dirty_ratelimit=102400 task_ratelimit=102400 dirtied={dirtied} dirtied_pause=32 paused=0 pause=20 period=20 think=0"
            )
        };
        let s = summary_of(&vec![bdp(512); 20]);
        assert_eq!(s.kernel.page_kb, Some(4), "{}", s.kernel.page_note);
        assert!(!s.report().contains("pages       "), "{}", s.report());
        let s = summary_of(&vec![bdp(32); 20]);
        assert_eq!(s.kernel.page_kb, Some(64), "{}", s.kernel.page_note);
        assert!(s.report().contains("pages       64 KiB, not 4 ("), "{}", s.report());
        assert!(s.report().contains("counts pages of 64 KiB"), "{}", s.report());
        // bdi_dirty=5 pages of 64 KiB; dirty_ratelimit 102400 KB/s is 100 MiB/s whatever the pages.
        let p = s.bdis[0].balance_dirty_pages.as_ref().expect("bdp");
        assert_eq!((p.bdi_dirty_mb_median, p.dirty_ratelimit_mbps), (Some(5.0 * 64.0 / 1024.0), Some(100.0)));
        // Too few passes, or 3.2 without period=: not told.
        assert_eq!(summary_of(&vec![bdp(32); 19]).kernel.page_kb, None);
    }

    #[test]
    fn sizes_past_9999_mib_are_written_in_gib_as_runs_report_writes_them() {
        // thresh 5242880 pages of 4 KiB: 20 GiB; bg_thresh 10 GiB, so
        // freerun 15 and setpoint 17.5 GiB.
        let gds = |t: u32, dirty: u64| {
            format!(
                "dd-1 [000] {t}.0: global_dirty_state: dirty={dirty} writeback=0 bg_thresh=2621440 \
                 thresh=5242880 limit=5242880 dirtied=1 written=1"
            )
        };
        let bdp = "dd-1 [000] 2.5: balance_dirty_pages: bdi 8:0: limit=5242880 setpoint=4587520 dirty=4000000 \
                   wb_setpoint=4587519 wb_dirty=4000000 dirty_ratelimit=102400 task_ratelimit=102400 dirtied=256 \
                   dirtied_pause=128 paused=0 pause=4 period=4 think=0 cgroup_ino=1";
        let lines = vec![gds(1, 3000000), gds(2, 4000000), bdp.to_string()];
        let r = summary_of(&lines).report();
        let line = |head: &str| r.lines().find(|l| l.starts_with(head)).unwrap_or_else(|| panic!("{head}:\n{r}"));
        assert_eq!(line("thresholds"), "thresholds  bg 10  freerun 15  setpoint 17.5  limit 20  thresh 20 GiB");
        // The mean holds each count until the next, balance_dirty_pages'
        // too: 11.4 GiB for 1 s, 15.3 for 0.5 s.
        assert!(
            line("dirty").starts_with(
                "dirty       median 15.3 GiB  mean 12.7 over 0-1.5 s, each count held until the next  max 15.3  "
            ),
            "{r}"
        );
        assert!(line("  throttle").ends_with("wb_dirty 15.3 vs wb_setpoint 17.5 GiB"), "{r}");
        assert_eq!(line("  limits"), "  limits    limit 20 GiB  setpoint 17.5 GiB");
        // thresh moved by a page: no range that reads `to 20 GiB` twice.
        let moved = gds(3, 4000000).replace("thresh=5242880", "thresh=5242881");
        let moved = summary_of(&[gds(1, 3000000), gds(2, 4000000), moved]).report();
        let head = moved.lines().find(|l| l.starts_with("thresholds")).expect("a thresholds line");
        assert_eq!(head, "thresholds  bg 10  freerun 15  setpoint 17.5  limit 20  thresh 20 GiB");
        // Up to 9999 MiB, MiB to a tenth as before.
        let small = summary_of(&[gds(1, 300).replace("5242880", "102400").replace("2621440", "51200")]).report();
        assert!(small.contains("thresholds  bg 200.0  freerun 300.0  setpoint 350.0  limit 400.0  thresh 400.0 MiB"));
    }

    #[test]
    fn the_mean_leaves_out_a_silence_and_says_so() {
        // 100 pages from 1 to 5 s, no event for 95 s, 300 pages from 100
        // to 105 s: 200 pages (0.8 MiB) over the 10 s known, not 100
        // held through the silence (0.45 MiB). The counters grow 2560
        // pages (10 MiB) a reading, one reading across the silence: 10
        // MiB/s over the 10 s known, not 110 MiB over 105 s.
        let gds = |t: u32, dirty: u32| {
            let n = if t < 100 { t } else { t - 94 } * 2560;
            format!(
                "dd-1 [000] {t}.0: global_dirty_state: dirty={dirty} writeback=0 bg_thresh=2560 thresh=5120 \
                 limit=5120 dirtied={n} written={n}"
            )
        };
        let lines: Vec<String> = (0..=5).map(|t| gds(t, 100)).chain((100..=105).map(|t| gds(t, 300))).collect();
        let s = summary_of(&lines);
        let d = s.global.as_ref().expect("global").dirty_mb;
        assert_eq!(d.mean.map(|m| (m * 1e6).round() / 1e6), Some(200.0 * 4.0 / 1024.0));
        assert_eq!((d.mean_from_s, d.mean_to_s, d.mean_silent_s), (Some(0.0), Some(105.0), 95.0));
        assert_eq!(s.silences, [Silence { from_s: 5.0, to_s: 100.0, duration_s: 95.0 }]);
        let r = s.report();
        assert!(r.contains("\nsilence     no events 5-100 s (95.0 s): nothing is known there"), "{r}");
        assert!(r.contains("  mean 0.8 over 0-105 s, each count held until the next, less 95.0 s of silence  "), "{r}");
        assert!(r.contains("dirtied 10.0 MiB/s  written 10.0 MiB/s over 10.0 s of readings in 0-105 s"), "{r}");
    }

    #[test]
    fn a_32_bit_counter_passing_2_to_the_32_is_read_as_growth() {
        // 2560 pages a second, NR_DIRTIED passing 2^32 between 1 and 2 s.
        let start = (1u64 << 32) - 5000;
        let lines: Vec<String> = (0..=4u64)
            .map(|t| {
                let n = (start + t * 2560) % (1 << 32);
                format!(
                    "dd-1 [000] {t}.0: global_dirty_state: dirty=100 writeback=0 bg_thresh=2560 thresh=5120 \
                     limit=5120 dirtied={n} written={}",
                    t * 2560
                )
            })
            .collect();
        let s = summary_of(&lines);
        let g = s.global.as_ref().expect("global");
        assert_eq!((g.counter_drops, g.counter_wraps), (0, 1));
        assert_eq!(g.dirtied_mbps, Some(10.0));
        let r = s.report();
        assert!(r.contains("passed 2^32 and went on from 0 at 1 reading (a 32-bit kernel)"), "{r}");
        assert!(!r.contains("went down"), "{r}");
    }

    /// A balance_dirty_pages pass in 6.15's fields at `t`: global
    /// `dirty`, the bdi's setpoint `wb_sp`, the traced `limit` and the
    /// setpoint printed of it.
    fn pass_at(t: &str, dirty: u32, wb_sp: u32, limit: u32, setpoint: u32) -> String {
        format!(
            "dd-1 [000] {t}: balance_dirty_pages: bdi 8:0: limit={limit} setpoint={setpoint} dirty={dirty} \
             wb_setpoint={wb_sp} wb_dirty=800 dirty_ratelimit=102400 task_ratelimit=102400 dirtied=32 \
             dirtied_pause=32 paused=0 pause=4 period=4 think=0 cgroup_ino=1"
        )
    }

    #[test]
    fn a_passes_count_holds_a_second_in_the_mean_and_the_summary_says_what_it_is_of() {
        // balance_dirty_pages alone: 1000 pages at 0 s, 2000 at 0.5 s,
        // nothing for 3.5 s (below freerun: no pass), 1000 at 4 s. Held a
        // second at most: (1000 × 0.5 + 2000 × 1) / 1.5 s, 2.5 s left out.
        let pass = |t: &str, dirty: u32| pass_at(t, dirty, 875, 2000, 1750);
        let s = summary_of(&[pass("1.0", 1000), pass("1.5", 2000), pass("5.0", 1000)]);
        let d = s.global.as_ref().expect("global").dirty_mb;
        let pages = (1000.0 * 0.5 + 2000.0) / 1.5;
        assert_eq!(d.mean.map(|m| (m * 1e6).round()), Some((pages * 4.0 / 1024.0 * 1e6_f64).round()));
        assert_eq!((d.mean_time_s, d.mean_unheld_s), (1.5, 2.5));
        let r = s.report();
        assert!(
            r.contains(
                "  mean 6.5 over 0-4 s, each count held until the next, a pass's for 1.0 s at most (2.5 s left out)  \
                 max 7.8  (dirty + writeback + unstable, 3 balance_dirty_pages `dirty=` alone: no global_dirty_state, \
                 and no pass is printed below freerun)"
            ),
            "{r}"
        );
    }

    /// With global_dirty_state, a pass's count is read by the state the
    /// kernel prints just before it: it holds through a quiet spell as
    /// that one's does (it was cut to a second, the spell left out).
    #[test]
    fn a_passes_count_read_with_its_global_dirty_state_holds_as_that_ones() {
        let gds = |t: &str, dirty: u32| {
            format!(
                "dd-1 [000] {t}: global_dirty_state: dirty={dirty} writeback=0 bg_thresh=1000 thresh=2000 \
                 limit=2000 dirtied=1 written=1"
            )
        };
        let pass = |t: &str, dirty: u32| pass_at(t, dirty, 875, 2000, 1750);
        let s = summary_of(&[gds("1.0", 1000), pass("1.00004", 1000), gds("4.0", 1000), pass("4.00004", 1000)]);
        let d = s.global.as_ref().expect("global").dirty_mb;
        assert_eq!(d.mean_unheld_s, 0.0, "nothing left out");
        assert!((d.mean_time_s - 3.00004).abs() < 1e-9, "{}", d.mean_time_s);
        let (series, _) = {
            let mut dec = Decoder::new();
            let mut s = super::super::series::Series::new(true);
            let lines = [gds("1.0", 1000), pass("1.00004", 1000), gds("4.0", 1000), pass("4.00004", 1000)];
            let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
            super::super::reader::read_all(text.as_bytes(), &mut dec, |e, _| s.add(e)).expect("reads");
            s.finish();
            (s, dec)
        };
        let dirty: Vec<Option<u64>> = series.rows.iter().map(|r| r.global.dirty).collect();
        assert!(dirty.iter().all(|d| *d == Some(1000)), "held through the quiet spell: {dirty:?}");
    }

    #[test]
    fn a_bdis_dirty_is_set_against_its_setpoints_median_and_the_setpoint_is_the_control_laws() {
        // wb_setpoint 87.5 MiB first, then 80.5 twice: the median 80.5,
        // not the first. thresh 25600 pages (100 MiB) above the traced
        // limit 20480 (80 MiB): the control law's limit is thresh, its
        // setpoint (25600 + 19200) / 2 = 22400 (87.5 MiB), where the
        // pass prints (20480 + 19200) / 2 = 19840.
        let gds = "dd-1 [000] 1.0: global_dirty_state: dirty=19000 writeback=0 bg_thresh=12800 thresh=25600 \
                   limit=20480 dirtied=1 written=1";
        let lines = [
            gds.to_string(),
            pass_at("1.1", 19000, 22400, 20480, 19840),
            pass_at("1.2", 19000, 20608, 20480, 19840),
            pass_at("1.3", 19000, 20608, 20480, 19840),
        ];
        let s = summary_of(&lines);
        let p = s.bdis[0].balance_dirty_pages.as_ref().expect("bdp");
        assert_eq!((p.bdi_setpoint_mb_median, p.bdi_setpoint_mb.first), (Some(80.5), Some(87.5)));
        assert_eq!((p.setpoint_mb.first, p.limit_mb.first), (Some(87.5), Some(100.0)));
        assert_eq!(s.global.as_ref().and_then(|g| g.setpoint_mb), Some(87.5), "the same setpoint");
        let r = s.report();
        // By the names a 6.15 trace prints.
        assert!(r.contains("wb_dirty 3.1 vs wb_setpoint 80.5 MiB (medians; wb_setpoint 80.5 to 87.5)\n"), "{r}");
        assert!(r.contains("\n  limits    limit 100.0 MiB  setpoint 87.5 MiB\n"), "{r}");
    }

    /// The three events and a writeback_* line as each release prints
    /// them (the fields and their order from each one's
    /// include/trace/events/writeback.h), with the same numbers.
    #[test]
    fn every_releases_lines_give_the_same_numbers() {
        let bdp_3_2 = "limit=51200 setpoint=44800 dirty=40000 bdi_setpoint=44799 bdi_dirty=39000 \
                       dirty_ratelimit=102400 task_ratelimit=51200 dirtied=32 dirtied_pause=32 paused=4 pause=12";
        let bdr = "write_bw=204800 awrite_bw=204800 dirty_rate=153600 dirty_ratelimit=102400 task_ratelimit=51200 \
                   balanced_dirty_ratelimit=102400";
        let gds = |unstable: bool| {
            format!(
                "dirty=30000 writeback=10000 {}bg_thresh=25600 thresh=51200 limit=51200 dirtied=100 written=90",
                if unstable { "unstable=0 " } else { "" }
            )
        };
        let wb_written =
            "bdi 8:0: sb_dev 0:0 nr_pages=1024 sync_mode=0 kupdate=0 range_cyclic=1 background=1 reason=background";
        let inode = "bdi 8:0: ino=12 state=I_DIRTY_PAGES dirtied_when=4295 age=0 index=0 to_write=1024 wrote=1024";
        let with_period = format!("{bdp_3_2} period=12 think=0");
        let releases: [(&str, String, &str, bool, &str, &str); 7] = [
            ("3.2", bdp_3_2.to_string(), "", true, "", "3.2 (no period, think)"),
            ("3.10", with_period.clone(), "", true, "", "3.3 to 4.2 (period, think; no cgroup)"),
            ("4.4", with_period.clone(), " cgroup=/", true, "", "4.3 to 5.7 (cgroup=<path>)"),
            ("4.19", with_period.clone(), " cgroup_ino=1", true, " cgroup_ino=1", "4.x to 5.7 (cgroup_ino, unstable=)"),
            ("5.4", with_period.clone(), " cgroup_ino=1", true, " cgroup_ino=1", "4.x to 5.7 (cgroup_ino, unstable=)"),
            (
                "6.1",
                with_period.clone(),
                " cgroup_ino=1",
                false,
                " cgroup_ino=1",
                "5.8 to 6.14 (bdi_setpoint, no unstable=)",
            ),
            (
                "6.15",
                with_period.replace("bdi_setpoint", "wb_setpoint").replace("bdi_dirty", "wb_dirty"),
                " cgroup_ino=1",
                false,
                " cgroup_ino=1",
                "6.15 or later (wb_setpoint, wb_dirty)",
            ),
        ];
        for (release, bdp, cgroup, unstable, inode_cgroup, generation) in releases {
            let lines = [
                format!("dd-7 [001] 10.000000: global_dirty_state: {}", gds(unstable)),
                format!("dd-7 [001] 10.010000: balance_dirty_pages: bdi 8:0: {bdp}{cgroup}"),
                format!("kworker/u8:1-9 [000] 10.200000: bdi_dirty_ratelimit: bdi 8:0: {bdr}{cgroup}"),
                format!("kworker/u8:1-9 [000] 10.300000: writeback_written: {wb_written}"),
                format!("kworker/u8:1-9 [000] 10.300001: writeback_single_inode: {inode}{inode_cgroup}"),
            ];
            let s = summary_of(&lines);
            let why = format!("{release}: {s:?}");
            assert_eq!(s.kernel.generation, generation, "{why}");
            assert_eq!(
                (s.events.balance_dirty_pages, s.events.bdi_dirty_ratelimit, s.events.global_dirty_state),
                (1, 1, 1),
                "{why}"
            );
            assert_eq!((s.skipped.other_events, s.skipped.malformed, s.skipped.unreadable), (2, 0, 0), "{why}");
            let b = &s.bdis[0];
            assert_eq!(b.bdi, "8:0", "{why}");
            let p = b.balance_dirty_pages.as_ref().expect("balance_dirty_pages");
            // KB/s as MiB/s; pages of 4 KiB as MiB.
            assert_eq!((p.dirty_ratelimit_mbps, p.task_ratelimit_mbps), (Some(100.0), Some(50.0)), "{why}");
            assert_eq!((p.bdi_dirty_mb_median, p.limit_mb.first), (Some(39000.0 / 256.0), Some(200.0)), "{why}");
            assert_eq!((p.pause_ms.p50, p.pause_ms.sleeps), (Some(12), 1), "{why}");
            let r = b.bdi_dirty_ratelimit.as_ref().expect("bdi_dirty_ratelimit");
            assert_eq!(
                (r.write_bw_mbps, r.dirty_rate_mbps, r.balanced_dirty_ratelimit_mbps),
                (Some(200.0), Some(150.0), Some(100.0)),
                "{why}"
            );
            let g = s.global.as_ref().expect("global_dirty_state");
            assert_eq!(
                (g.thresh_pages, g.bg_thresh_pages, g.dirty_mb.max),
                (Some(51200), Some(25600), Some(40000.0 / 256.0)),
                "{why}"
            );
        }
    }

    /// A global_dirty_state event at `t` with NR_WRITTEN at `written`.
    fn written_at(t: f64, written: u64) -> String {
        format!(
            "dd-1 [000] {t:.6}: global_dirty_state: dirty=100 writeback=10 bg_thresh=2560 thresh=5120 \
             limit=5120 dirtied={written} written={written}"
        )
    }

    #[test]
    fn the_written_rate_while_writing_leaves_out_the_idle_time() {
        // 2 s writing 25600 pages/s (100 MiB/s) in events 50 ms apart,
        // then 8 s of a page or two, as a dd that stops leaves it.
        let mut lines: Vec<String> = (0..=40).map(|k| written_at(1.0 + k as f64 * 0.05, k * 1280)).collect();
        lines.push(written_at(5.0, 40 * 1280 + 10));
        lines.push(written_at(9.0, 40 * 1280 + 20));
        lines.push(written_at(11.0, 40 * 1280 + 20));
        let g = summary_of(&lines).global.expect("global");
        // Over the whole span: 200 MiB in 10 s.
        assert_eq!(g.written_mbps.map(|r| (r * 10.0).round() / 10.0), Some(20.0));
        assert_eq!(g.written_busy_mbps.map(|r| (r * 10.0).round() / 10.0), Some(100.0));
        assert_eq!(g.written_busy_s.map(|s| (s * 10.0).round() / 10.0), Some(2.0));
        // No counter that grows: nothing to tell.
        let flat = summary_of(&[written_at(1.0, 7), written_at(2.0, 7)]).global.expect("global");
        assert_eq!((flat.written_busy_mbps, flat.written_busy_s), (None, None));
    }

    #[test]
    fn the_dirtied_rate_when_free_leaves_out_the_throttled_time() {
        // freerun (5120 + 2560) / 2 = 3840 pages. 1 s under it dirtying
        // 51200 pages/s (200 MiB/s) in events 50 ms apart, then 2 s at
        // 3840 and over, throttled to 12800 pages/s (50 MiB/s).
        let at = |t: f64, dirty: u64, dirtied: u64| {
            format!(
                "dd-1 [000] {t:.6}: global_dirty_state: dirty={dirty} writeback=0 bg_thresh=2560 thresh=5120 \
                 limit=5120 dirtied={dirtied} written=0"
            )
        };
        let mut lines: Vec<String> = (0..=20).map(|k| at(1.0 + k as f64 * 0.05, 1000 + k * 100, k * 2560)).collect();
        lines.extend((1..=40).map(|k| at(2.0 + k as f64 * 0.05, 3840 + k, 20 * 2560 + k * 640)));
        let g = summary_of(&lines).global.expect("global");
        // Over the whole span: 76800 pages (300 MiB) in 3 s.
        assert_eq!(g.dirtied_mbps.map(|r| (r * 10.0).round() / 10.0), Some(100.0));
        assert_eq!(g.dirtied_free_mbps.map(|r| (r * 10.0).round() / 10.0), Some(200.0));
        assert_eq!(g.dirtied_free_s.map(|s| (s * 10.0).round() / 10.0), Some(1.0));
        // Always over freerun: nothing to tell.
        let over: Vec<String> = (0..=4).map(|k| at(1.0 + k as f64, 4000, k * 100)).collect();
        let g = summary_of(&over).global.expect("global");
        assert_eq!((g.dirtied_free_mbps, g.dirtied_free_s), (None, None));
    }

    /// A balance_dirty_pages pass of `dirtied` pages at `kbps`, printing
    /// `ms` as its period, pause and think time.
    fn pass(dirtied: u64, kbps: u64, ms: i64) -> String {
        format!(
            "dd-1 [000] 1.0: balance_dirty_pages: bdi 8:0: limit=102400 setpoint=89600 dirty=80000 \
             wb_setpoint=89599 wb_dirty=80000 dirty_ratelimit=102400 task_ratelimit={kbps} dirtied={dirtied} \
             dirtied_pause=128 paused=0 pause={ms} period={ms} think=-{ms} cgroup_ino=1"
        )
    }

    #[test]
    fn hz_from_the_periods_where_the_granularity_cannot_tell() {
        // Every time 8 ms: two jiffies at HZ 250, eight at HZ 1000. 256
        // pages at 23272 pages/s (93088 KB/s) are 11.0 ms: HZ 250 rounds
        // them down to 2 jiffies, 8 ms; HZ 1000 would print 11.
        let told = summary_of(&vec![pass(256, 93088, 8); 25]).kernel;
        assert_eq!(told.hz, Some(250), "{}", told.hz_note);
        assert_eq!(
            told.hz_note,
            "period = HZ × dirtied / task_ratelimit of 25 throttling passes: only HZ 250 gives them"
        );
        // 256 pages at 32000 pages/s are exactly 8 ms: both give them.
        let untold = summary_of(&vec![pass(256, 128000, 8); 25]).kernel;
        assert_eq!(untold.hz, None);
        assert_eq!(
            untold.hz_note,
            "every time is a multiple of 8 ms, which HZ 250 or HZ 1000 give, as they give the \
             period = HZ × dirtied / task_ratelimit of 25 throttling passes"
        );
        let report = summary_of(&vec![pass(256, 128000, 8); 25]).report();
        let head = report.lines().next().expect("a first line");
        assert_eq!(
            head,
            "trace t: ftrace (trace_pipe), kernel 6.15 or later (wb_setpoint, wb_dirty), at least 1 CPU, HZ 250 or 1000 (the times fit each)"
        );
        // 11 ms periods: HZ 1000 (HZ 250 prints 8, HZ 100 10, HZ 300 10).
        assert_eq!(summary_of(&vec![pass(256, 93088, 11); 25]).kernel.hz, Some(1000));
    }

    #[test]
    fn hz_from_the_granularity_of_times() {
        let infer = |values: &[i64]| {
            let mut h = HzAcc::default();
            for _ in 0..5 {
                values.iter().for_each(|&v| h.add(v));
            }
            h.infer(None).0
        };
        assert_eq!(infer(&[16, 20, -4, 24]), Some(250));
        // Two jiffies at HZ 250 are eight at HZ 1000: either clock prints them.
        assert_eq!(infer(&[16, 8, -8, 24]), None, "HZ 250 or 1000");
        assert_eq!(infer(&[2, 4, 6, 10]), Some(1000), "no other HZ gives 2 ms");
        assert_eq!(infer(&[10, 30, 50, -10]), Some(100));
        assert_eq!(infer(&[7, 1, 12, 3]), Some(1000));
        assert_eq!(infer(&[3, 6, 10, 13]), None, "HZ 300 or 1000");
        assert_eq!(infer(&[20, 40, 60, 100]), None, "HZ 100, 250 or 1000");
        assert_eq!(infer(&[0, 0, 16]), None, "too few");
    }
}
