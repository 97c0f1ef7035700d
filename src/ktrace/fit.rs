//! `--fit`: the scenario a kernel trace implies, run headless beside it.
//!
//! What a trace tells: the thresholds exactly (global_dirty_state prints
//! them in pages), each bdi's write bandwidth (bdi_dirty_ratelimit), the
//! tasks throttled on each bdi (balance_dirty_pages), the CPUs (header or
//! CPU column), HZ (the granularity of the millisecond fields) and the
//! kernel generation (the fields printed). What it does not: memory, the
//! device's kind, block sizes, when tasks started; those are assumed and
//! the summary says so; each task runs from its first throttling pass to
//! the tenth of a second after its last.

use serde::Serialize;

use super::Error;
use super::series::{BIN_S, Series};
use super::summary::{TraceSummary, mib_of};
use crate::run::{RunOptions, Summary};
use crate::scenario::Scenario;
use crate::units::trimmed;

/// At most this many bdis become devices (the model's limit).
const MAX_DEVICES: usize = 64;
/// Longest model run \[s\].
const MAX_DURATION_S: f64 = 3600.0;
/// The shortest model run of a fit \[s\]: a trace under it is a moment
/// of a run the model cannot start from.
const MIN_DURATION_S: f64 = 1.0;

/// Something read off the trace.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Inferred {
    pub what: String,
    pub value: String,
    /// The events or fields it was read from.
    pub from: String,
}

/// Something the trace does not show, and what the model assumes.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Assumed {
    pub what: String,
    pub assumed: String,
    pub why: String,
}

/// One quantity of the trace beside the model's.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Compared {
    pub quantity: String,
    pub unit: &'static str,
    pub trace: Option<f64>,
    pub model: Option<f64>,
    /// A mean's span on either side's clock from its start \[s\], and
    /// how often it is sampled \[ms\]: both sides alike.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from_s: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to_s: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub every_ms: Option<f64>,
    /// Of that span, the trace's silences (no event for over a minute),
    /// which both means leave out: the trace knows no count there, and
    /// the model's dd rest \[s\].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trace_silent_s: Option<f64>,
}

/// The model's side.
#[derive(Clone, Debug, Serialize)]
pub struct ModelSide {
    /// The fitted scenario, as `dirtyviz run --scenario` reads it.
    pub scenario: Scenario,
    /// What running it headless gave.
    pub summary: Summary,
}

/// `view --fit --summary-json`: the trace, the model, and how they compare.
#[derive(Clone, Debug, Serialize)]
pub struct FitSummary {
    pub trace: TraceSummary,
    pub model: ModelSide,
    pub inferred: Vec<Inferred>,
    pub not_inferred: Vec<Assumed>,
    pub compare: Vec<Compared>,
    /// Where the two behave unlike, so that a row is no comparison: one
    /// side's tasks slept and the other's never did.
    pub differs: Vec<String>,
}

/// The fitted scenario and the notes on how it was fitted.
#[derive(Clone, Debug)]
pub struct Fit {
    pub scenario: Scenario,
    pub inferred: Vec<Inferred>,
    pub not_inferred: Vec<Assumed>,
}

fn ron_string(s: &str) -> String {
    ron::to_string(s).unwrap_or_else(|_| format!("{s:?}"))
}

/// Where a bdi's dd rest: the trace's silences before `stop` (or its
/// end), each from the tenth of a second after its last event to the
/// tenth before its next, on the trace's clock from its first event \[s\].
fn rests(silences: &[super::summary::Silence], stop: Option<f64>) -> Vec<(f64, f64)> {
    let tenths = |s: f64| (s * 10.0 + 1e-6).floor() / 10.0;
    silences
        .iter()
        .filter(|q| stop.is_none_or(|stop| q.to_s < stop))
        .map(|q| (tenths(q.from_s) + 0.1, tenths(q.to_s)))
        .filter(|(from, to)| to > from)
        .collect()
}

/// Why the model's loop may not be the traced kernel's, for a kernel
/// generation as [`super::summary::generation`] names it: none for 3.2,
/// which merged the series; a maybe for a span that starts at 3.2.
fn later_kernel_note(generation: &str) -> Option<&'static str> {
    const LATER: &str = "later kernels changed the loop (3.3's think time, cgroup writeback domains, ...); \
                         the model runs the series', which 3.2 merged";
    const MAYBE: &str = "the fields printed are 3.2's and later kernels' alike; if it ran 3.3 or later, its loop \
                         changed (think time, cgroup writeback domains, ...), and the model runs the series', which 3.2 merged";
    match generation {
        g if g.starts_with("3.2 (") => None,
        g if g.starts_with("3.2 ") => Some(MAYBE),
        _ => Some(LATER),
    }
}

/// Builds the scenario `t` implies.
pub fn scenario(t: &TraceSummary) -> Result<Fit, Error> {
    let mut inferred = Vec::new();
    let mut assumed = Vec::new();
    let mut inf = |what: &str, value: String, from: &str| {
        inferred.push(Inferred { what: what.into(), value, from: from.into() });
    };
    let mut not = |what: &str, value: String, why: &str| {
        assumed.push(Assumed { what: what.into(), assumed: value, why: why.into() });
    };
    let mut fields = vec![format!("name: {}", ron_string(&format!("fit of {}", t.source)))];
    fields.push(format!(
        "description: {}",
        ron_string("The world a kernel trace implies: its thresholds, bdis, their write bandwidth and tasks.")
    ));

    let (thresh, bg) = thresholds(t, &mut inf, &mut not);
    if let (Some(th), Some(bg)) = (thresh, bg) {
        check_thresholds(&t.source, th, bg)?;
        fields.push(format!("dirty_ratio: 0, dirty_bytes: {}", th * 4096));
        // A bg_thresh of 0 is a background ratio of 0 (the kernel takes
        // no dirty_background_bytes of 0).
        match bg {
            0 => fields.push("dirty_background_ratio: 0".into()),
            _ => fields.push(format!("dirty_background_ratio: 0, dirty_background_bytes: {}", bg * 4096)),
        }
    }
    let thresh_mb = thresh.map_or(0, |p| p.div_ceil(256));
    let memory_mb = (4 * thresh_mb).next_power_of_two().clamp(4096, crate::scenario::ranges::MEMORY_MB.hi);
    fields.push(format!("memory_mb: {memory_mb}"));
    let ratio_hint = match (thresh, bg) {
        (Some(th), Some(bg)) if (2 * bg).abs_diff(th) <= 2 => {
            format!("; if they came from the default ratios (20 %, 10 %), about {} MiB were dirtyable", th * 5 / 256)
        }
        _ => String::new(),
    };
    not(
        "memory",
        format!("{memory_mb} MiB"),
        &format!("the thresholds are modelled as vm.dirty_bytes, exact in pages whatever the memory{ratio_hint}"),
    );

    match t.kernel.cpus {
        Some(c) => {
            fields.push(format!("cpus: {c}"));
            inf("cpus", c.to_string(), t.kernel.cpus_note);
        }
        None => not("cpus", "8".into(), t.kernel.cpus_note),
    }
    match t.kernel.hz {
        Some(h) => {
            fields.push(format!("hz: {h}"));
            inf("HZ", h.to_string(), &t.kernel.hz_note);
        }
        None => not("HZ", "1000".into(), &t.kernel.hz_note),
    }
    inf("kernel", t.kernel.generation.clone(), "the fields printed");
    if let Some(why) = later_kernel_note(&t.kernel.generation) {
        not("kernel", "the v12 series as posted (patch level 11)".into(), why);
    }

    let (devices, tasks, at_once) = devices_and_tasks(t, &mut inf, &mut not);
    let own_limits = throttled_under_freerun(t);
    copy_speed(t, at_once, !own_limits.is_empty(), &mut fields, &mut inf, &mut not);
    if devices.is_empty() {
        return Err(Error::invalid(format!(
            "{}: --fit needs balance_dirty_pages or bdi_dirty_ratelimit events to know the bdis",
            t.source
        )));
    }
    fields.push(format!("devices: [{}]", devices.join(", ")));
    fields.push(format!("tasks: [{}]", tasks.join(", ")));
    not(
        "device kind",
        "a seekless disk (Ssd) at the bandwidth fitted".into(),
        "a trace names bdis by device number only",
    );
    // A pass at or below the global freerun ceiling got past a limit of
    // the bdi's own (strict_limit, max_bytes: BDI_CAP_STRICTLIMIT) or its
    // cgroup's: neither is printed, and the model throttles against the
    // global limits alone.
    for (bdi, dirty, freerun) in own_limits {
        not(
            &format!("bdi {bdi} own limit"),
            "none: the model throttles against the global limits alone".into(),
            &format!(
                "its throttling passes came at global dirty {dirty:.1} MiB (median), under the global freerun \
                 {freerun:.1} MiB: past a limit of its own (strict_limit, max_bytes) or its cgroup's, which the \
                 trace does not print; the model's tasks on it run free there"
            ),
        );
    }
    not("block size", "4k writes".into(), "balance_dirty_pages counts pages, not write() calls");
    not(
        "task start",
        format!(
            "each task from its first throttling event to its last (one seen within {STOP_GAP_S} s of the trace's \
             start or end from the start or to the end)"
        ),
        "a task dirties freely before its first throttling event, and leaves no pass below freerun after its last",
    );

    let span = (t.span.duration_s * 10.0).ceil() / 10.0;
    let duration = span.clamp(MIN_DURATION_S, MAX_DURATION_S);
    fields.push(format!("duration_s: {duration}"));
    let lasts = super::summary::duration_text(t.span.duration_s);
    if span < MIN_DURATION_S {
        not(
            "duration",
            format!("{duration} s"),
            &format!(
                "the trace lasts {lasts}, less than the model's shortest run; the model starts with no dirty \
                 pages, so it cannot show the moment the trace caught (the dashboard plays its first {lasts})"
            ),
        );
    } else if span > MAX_DURATION_S {
        not("duration", format!("{duration} s"), &format!("the model's longest run; the trace lasts {lasts}"));
    } else {
        inf("duration", format!("{duration} s"), "the trace's span");
    }

    let text = format!("Scenario({})", fields.join(", "));
    // Its text is never shown: an error names the trace, not a place in it.
    let scenario = Scenario::from_ron(&text, "").map_err(|e| {
        let why = e.to_string();
        let why = why.trim_start_matches(|c: char| c == ':' || c.is_ascii_digit()).trim_start();
        Error::invalid(format!("{}: no scenario can be fitted to it: {why}", t.source))
    })?;
    Ok(Fit { scenario, inferred, not_inferred: assumed })
}

/// The bdis whose throttling passes came at a global dirty count (the
/// median) at or under the global freerun ceiling \[MiB\]: each with the
/// count and the ceiling.
fn throttled_under_freerun(t: &TraceSummary) -> Vec<(&str, f64, f64)> {
    let freerun = t.global.as_ref().and_then(|g| g.freerun_mb);
    let passes = |b: &super::summary::BdiTraceSummary| b.balance_dirty_pages.as_ref().and_then(|p| p.dirty_mb_median);
    t.bdis
        .iter()
        .filter_map(|b| passes(b).zip(freerun).filter(|(d, f)| d <= f).map(|(d, f)| (b.bdi.as_str(), d, f)))
        .collect()
}

/// Refuses thresholds no scenario can have: thresh 0 or over 4 TiB, and a
/// bg_thresh not below thresh (the kernel halves thresh for it, so no
/// kernel prints one) \[pages of 4 KiB\].
fn check_thresholds(source: &str, thresh: u64, bg: u64) -> Result<(), Error> {
    let most = crate::scenario::ranges::DIRTY_BYTES.hi / 4096;
    let why = if thresh == 0 {
        "its dirty threshold (thresh) is 0 pages: every write would be throttled at once".to_string()
    } else if thresh > most {
        format!("its dirty threshold (thresh) is {thresh} pages, over the {most} (4 TiB) a scenario can have")
    } else if bg >= thresh {
        format!(
            "its background threshold (bg_thresh, {bg} pages) is not below thresh ({thresh} pages), \
             which no kernel prints: it halves thresh instead"
        )
    } else {
        return Ok(());
    };
    Err(Error::invalid(format!("{source}: {why}, so no scenario can be fitted")))
}

/// thresh and bg_thresh \[pages\]: global_dirty_state's, else rebuilt from
/// balance_dirty_pages' limit and setpoint.
fn thresholds(
    t: &TraceSummary,
    inf: &mut impl FnMut(&str, String, &str),
    not: &mut impl FnMut(&str, String, &str),
) -> (Option<u64>, Option<u64>) {
    let g = t.global.as_ref();
    if let Some((th, bg)) = g.and_then(|g| g.thresh_pages.zip(g.bg_thresh_pages)) {
        // The model's pages are 4 KiB.
        let k = t.kernel.page_kb.unwrap_or(4) / 4;
        let (th, bg) = ((th.max(0) as u64).saturating_mul(k), (bg.max(0) as u64).saturating_mul(k));
        let of = if k > 1 { format!(" in {} KiB pages", t.kernel.page_kb.unwrap_or(4)) } else { String::new() };
        inf("thresh", format!("{th} pages"), &format!("global_dirty_state thresh={of} (the most frequent value)"));
        inf("bg_thresh", format!("{bg} pages"), &format!("global_dirty_state bg_thresh={of}"));
        return (Some(th), Some(bg));
    }
    let bdp = t.bdis.iter().find_map(|b| b.balance_dirty_pages.as_ref());
    if let Some((limit, setpoint)) = bdp.and_then(|p| p.limit_mb.first.zip(p.setpoint_mb.first)) {
        let (limit, setpoint) = ((limit * 256.0) as u64, (setpoint * 256.0) as u64);
        // setpoint = (limit + freerun) / 2 and freerun = (thresh + bg) / 2,
        // with thresh = limit once the limit has settled.
        let freerun = (2 * setpoint).saturating_sub(limit);
        let bg = (2 * freerun).saturating_sub(limit);
        inf("thresh", format!("{limit} pages (approximately)"), "balance_dirty_pages limit= (no global_dirty_state)");
        inf("bg_thresh", format!("{bg} pages (approximately)"), "balance_dirty_pages setpoint= and limit=");
        return (Some(limit), Some(bg));
    }
    not(
        "thresholds",
        "dirty_ratio 20, dirty_background_ratio 10".into(),
        "no global_dirty_state and no balance_dirty_pages events",
    );
    (None, None)
}

/// A bdi with its writeback contexts (one per cgroup) taken together.
struct Device<'a> {
    bdi: &'a str,
    events: u64,
    /// Each context's median write_bw, summed \[MiB/s\].
    write_bw_mbps: Option<f64>,
    /// Its tasks: their balance_dirty_pages passes, and their first and
    /// last \[s, the trace's clock\].
    tasks: std::collections::BTreeMap<&'a str, (u64, f64, f64)>,
    /// Its writeback contexts in the trace.
    contexts: usize,
    /// Its last event \[s, the trace's clock\].
    last_s: Option<f64>,
}

/// The trace's bdis, in the order first seen, each writeback context of
/// one added to it: the model has no cgroups, one device per bdi.
fn devices(t: &TraceSummary) -> Vec<Device<'_>> {
    let mut out: Vec<Device> = Vec::new();
    for b in &t.bdis {
        let i = match out.iter().position(|d| d.bdi == b.bdi) {
            Some(i) => i,
            None => {
                let d = Device {
                    bdi: &b.bdi,
                    events: 0,
                    write_bw_mbps: None,
                    tasks: Default::default(),
                    contexts: 0,
                    last_s: None,
                };
                out.push(d);
                out.len() - 1
            }
        };
        let d = &mut out[i];
        d.contexts += 1;
        d.last_s = match (d.last_s, b.span.last_s) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        };
        d.events += b.events.balance_dirty_pages + b.events.bdi_dirty_ratelimit;
        if let Some(bw) = b.bdi_dirty_ratelimit.as_ref().and_then(|r| r.write_bw_mbps) {
            d.write_bw_mbps = Some(d.write_bw_mbps.unwrap_or(0.0) + bw);
        }
        for t in &b.tasks {
            let e = d.tasks.entry(t.task.as_str()).or_insert((0, t.first_s, t.last_s));
            *e = (e.0 + t.events, e.1.min(t.first_s), e.2.max(t.last_s));
        }
    }
    out
}

/// A bdi whose events end this long before the trace's \[s\] has its dd
/// stop there.
const STOP_GAP_S: f64 = 1.0;

/// A task passing balance_dirty_pages() fewer times than this share of
/// the busiest task on its bdi dirtied in passing (a compiler writing its
/// output, the tracer saving the trace), not as a steady writer.
const WRITER_SHARE: u64 = 10;

impl Device<'_> {
    /// Its steady writers: the tasks with at least a tenth of the busiest
    /// one's passes, the model's dd; each with its first and last pass
    /// \[s, the trace's clock\].
    fn writers(&self) -> Vec<(&str, f64, f64)> {
        let most = self.tasks.values().map(|t| t.0).max().unwrap_or(0);
        self.tasks.iter().filter(|&(_, t)| t.0 * WRITER_SHARE >= most).map(|(&n, t)| (n, t.1, t.2)).collect()
    }
}

/// The writers' turns: each task from the tenth of a second of its first
/// pass to the tenth after its last, one within [`STOP_GAP_S`] of the
/// trace's start (`first_s`) or end (`last_s`) from 0 or to the end
/// (`None`); tasks of one window together, `(start, stop, n)`, by start
/// \[s, from the trace's first event\].
fn turns(writers: &[(&str, f64, f64)], first_s: f64, last_s: f64) -> Vec<(f64, Option<f64>, u32)> {
    let mut groups = std::collections::BTreeMap::<(i64, Option<i64>), u32>::new();
    for &(_, first, last) in writers {
        let start = if first - first_s >= STOP_GAP_S { ((first - first_s) * 10.0 + 1e-6).floor() as i64 } else { 0 };
        let stop = (last_s - last >= STOP_GAP_S).then(|| ((last - first_s) * 10.0 + 1e-6).floor() as i64 + 1);
        *groups.entry((start, stop)).or_default() += 1;
    }
    groups.into_iter().map(|((start, stop), n)| (start as f64 / 10.0, stop.map(|s| s as f64 / 10.0), n)).collect()
}

/// The task groups of bdi `name` (a RON string): each group of `turns`
/// where its window and the stretches between `rests` meet. Its dd rest
/// through the trace's silences: no task called balance_dirty_pages
/// there, so none dirtied its ratelimit's worth of pages \[s\].
fn dd_groups(name: &str, groups: &[(f64, Option<f64>, u32)], rests: &[(f64, f64)]) -> Vec<String> {
    let mut stretches = Vec::new();
    let mut from = 0.0;
    for &(rest_from, rest_to) in rests {
        stretches.push((from, Some(rest_from)));
        from = rest_to;
    }
    stretches.push((from, None));
    let mut out = Vec::new();
    for &(start, end, n) in groups {
        for &(from, to) in &stretches {
            let lo = f64::max(start, from);
            let hi = match (end, to) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
            if hi.is_some_and(|hi| hi <= lo + 1e-9) {
                continue;
            }
            let start = if lo > 0.0 { format!(", start_s: {}", trimmed(lo, 1)) } else { String::new() };
            let stop = hi.map_or(String::new(), |hi| format!(", stop_s: {}", trimmed(hi, 1)));
            out.push(format!("Dd(bdi: {name}, n: {n}{start}{stop})"));
        }
    }
    out
}

/// The most groups of `turns` write at once \[tasks\].
fn most_at_once(groups: &[(f64, Option<f64>, u32)]) -> u32 {
    groups
        .iter()
        .map(|&(at, _, _)| {
            groups.iter().filter(|&&(start, stop, _)| start <= at && stop.is_none_or(|s| s > at)).map(|g| g.2).sum()
        })
        .max()
        .unwrap_or(0)
}

/// Readings this long at least tell a pace: the writers' under freerun,
/// the disk's while writing \[s\].
const MIN_PACE_S: f64 = 1.0;

/// A CPU's copying speed (`copy_mbps`): the one that has `at_once`
/// writers of the model's 4 KiB on the trace's CPUs dirty pages as fast
/// as the trace's did while nothing throttled them. A dd the model runs
/// at its default speed dirties about 1 GB/s a CPU, faster than many a
/// traced one (a VM's CPU, a slower copy): under freerun the kernel kept
/// up and the model would sit at its setpoint. Not where a bdi throttled
/// its tasks under freerun (`own_limit`): their pace there was its.
fn copy_speed(
    t: &TraceSummary,
    at_once: u32,
    own_limit: bool,
    fields: &mut Vec<String>,
    inf: &mut impl FnMut(&str, String, &str),
    not: &mut impl FnMut(&str, String, &str),
) {
    use crate::scenario::{COPY_PAGE_NS, SYSCALL_NS, ranges::COPY_MBPS};
    let g = t.global.as_ref();
    let free = g.and_then(|g| g.dirtied_free_mbps.zip(g.dirtied_free_s));
    let why_not = match free {
        _ if at_once == 0 => Some("no task was throttled, so none is known to have written".to_string()),
        _ if own_limit => Some("a bdi throttled its tasks under freerun (its own limit): their pace was its".into()),
        None if g.is_none_or(|g| g.rates_time_s.is_none()) => {
            Some("the trace has no global_dirty_state counters (dirtied=) to tell it".into())
        }
        None => Some("no page was dirtied between two readings under freerun".into()),
        Some((_, s)) if s < MIN_PACE_S => Some(format!(
            "the counters read under freerun for {} only, under {MIN_PACE_S} s",
            super::summary::duration_text(s)
        )),
        Some(_) => None,
    };
    let Some((rate, free_s)) = free.filter(|_| why_not.is_none()) else {
        let default = crate::units::trimmed(crate::scenario::copy_mbps(COPY_PAGE_NS as f64), 1);
        let why = why_not.unwrap_or_default();
        not("copy speed", format!("{default} MiB/s a CPU"), &format!("the model's own: {why}"));
        return;
    };
    let cpus = t.kernel.cpus.unwrap_or(crate::scenario::Scenario::default().cpus as u32).max(1);
    let busy = at_once.min(cpus);
    // A page of a 4 KiB write costs a call and a copy.
    let page_ns = crate::scenario::copy_page_time_ns(rate / busy as f64);
    let copy_ns = page_ns - SYSCALL_NS as f64;
    let mbps = match copy_ns > 0.0 {
        true => crate::scenario::copy_mbps(copy_ns).clamp(COPY_MBPS.lo, COPY_MBPS.hi),
        false => COPY_MBPS.hi,
    };
    let mbps = (mbps * 10.0).round() / 10.0;
    fields.push(format!("copy_mbps: {mbps}"));
    let writers = if at_once == 1 { "1 writer".to_string() } else { format!("{at_once} writers") };
    inf(
        "copy speed",
        format!("{mbps} MiB/s a CPU"),
        &format!(
            "global_dirty_state's dirtied= grew at {rate:.1} MiB/s under freerun (over {}): {writers} on {busy} of \
             {cpus} CPUs, each 4 KiB write() of the model's dd also costing {SYSCALL_NS} ns",
            super::summary::duration_text(free_s)
        ),
    );
    if copy_ns <= 0.0 {
        not(
            "copy speed",
            format!("{mbps} MiB/s a CPU, the fastest"),
            &format!("the trace's {rate:.1} MiB/s is more than the model's write() calls alone let its dd dirty"),
        );
    }
}

/// The scenario's devices and tasks, one device per bdi, and how many of
/// its tasks write at once at most.
fn devices_and_tasks(
    t: &TraceSummary,
    inf: &mut impl FnMut(&str, String, &str),
    not: &mut impl FnMut(&str, String, &str),
) -> (Vec<String>, Vec<String>, u32) {
    let mut bdis = devices(t);
    if bdis.len() > MAX_DEVICES {
        bdis.sort_by_key(|b| std::cmp::Reverse(b.events));
        bdis.truncate(MAX_DEVICES);
        not("bdis", format!("the {MAX_DEVICES} with most events"), "the model has at most 64 devices");
    }
    // With one bdi, the pages written while writing are its own.
    let written = match bdis.len() {
        1 => t.global.as_ref().and_then(|g| g.written_busy_mbps.zip(g.written_busy_s)),
        _ => None,
    };
    // A second of writing at least tells the disk's pace.
    let written = written.map(|(r, s)| ((r * 10.0).round() / 10.0, s)).filter(|&(r, s)| r > 0.001 && s >= MIN_PACE_S);
    let mut devices = Vec::new();
    let mut tasks = Vec::new();
    let mut at_once = 0;
    for b in bdis {
        let name = ron_string(b.bdi);
        let what = format!("bdi {} write bandwidth", b.bdi);
        let bw = match (b.write_bw_mbps.filter(|&bw| bw > 0.001), written) {
            (Some(bw), Some((busy, busy_s))) if busy > bw => {
                inf(
                    &what,
                    format!("{busy:.1} MiB/s"),
                    &format!(
                        "global_dirty_state's written= grew at it in the {} of writing, faster than the median \
                         of bdi_dirty_ratelimit's write_bw, {bw:.1}: the kernel's estimate counts the time the disk waited",
                        super::summary::duration_text(busy_s)
                    ),
                );
                Some(busy)
            }
            (Some(bw), _) => {
                inf(&what, format!("{bw:.1} MiB/s"), "the median of bdi_dirty_ratelimit's write_bw");
                Some(bw)
            }
            (None, Some((bw, busy_s))) => {
                not(
                    &what,
                    format!("{bw:.1} MiB/s"),
                    &format!(
                        "global_dirty_state's written= grew at it in the {} of writing \
                         (no bdi_dirty_ratelimit event of this bdi)",
                        super::summary::duration_text(busy_s)
                    ),
                );
                Some(bw)
            }
            (None, None) => {
                not(&what, "400 MiB/s".into(), "no bdi_dirty_ratelimit event of this bdi");
                None
            }
        };
        if b.contexts > 1 {
            not(
                &format!("bdi {} cgroups", b.bdi),
                format!("its {} writeback contexts as one device", b.contexts),
                "the model has no cgroup writeback; write_bw and tasks are their sums, dirty_ratelimit is each context's own",
            );
        }
        let most = crate::scenario::ranges::BANDWIDTH_MBPS.hi;
        let bw = match bw {
            Some(bw) if bw > most => {
                not(
                    &what,
                    format!("{most:.0} MiB/s"),
                    &format!("traced at {bw:.1} MiB/s, over what a model device runs"),
                );
                most
            }
            bw => bw.unwrap_or(400.0),
        };
        devices.push(format!("(name: {name}, kind: Ssd, bandwidth_mbps: {bw})"));
        let writers = b.writers();
        let n = writers.len();
        // Its dd stop where its events do, a second or more before the
        // trace's end: nothing was throttled on it after.
        let stop = match (b.last_s, t.span.first_s, t.span.last_s) {
            (Some(last), Some(first), Some(end)) if end - last >= STOP_GAP_S => {
                Some(((last - first) * 10.0).ceil() / 10.0).filter(|&s| s > 0.0)
            }
            _ => None,
        };
        if n > 0 {
            let groups = turns(&writers, t.span.first_s.unwrap_or(0.0), t.span.last_s.unwrap_or(0.0));
            at_once += most_at_once(&groups);
            let rests = rests(&t.silences, stop);
            tasks.extend(dd_groups(&name, &groups, &rests));
            if let Some(stop) = stop {
                not(
                    &format!("bdi {} tasks stop", b.bdi),
                    format!("at {stop:.1} s, the bdi's last event"),
                    "none was throttled on it after; a task writing below freerun leaves no event",
                );
            }
            if groups.len() > 1 || groups[0].0 > 0.0 {
                not(
                    &format!("bdi {} tasks in turns", b.bdi),
                    format!("{n} dd in {} groups, at most {} at once", groups.len(), most_at_once(&groups)),
                    "each from its first balance_dirty_pages event to its last",
                );
            }
            for (rest_from, rest_to) in rests {
                not(
                    &format!("bdi {} tasks rest", b.bdi),
                    format!("from {rest_from:.1} to {rest_to:.1} s, the trace's silence"),
                    "no event: no task dirtied its ratelimit's worth of pages; after it the model starts new dd",
                );
            }
            let passing = b.tasks.len() - n;
            let why = match passing {
                0 => "the tasks of its balance_dirty_pages events".to_string(),
                _ => format!(
                    "the tasks of its balance_dirty_pages events, but for {passing} with under a tenth of the \
                     busiest one's passes, dirtying in passing"
                ),
            };
            inf(&format!("bdi {} tasks", b.bdi), format!("{n} dd"), &why);
        } else {
            not(&format!("bdi {} tasks", b.bdi), "none".into(), "no task was throttled on it");
        }
    }
    (devices, tasks, at_once)
}

/// Fits a scenario to `t`, runs it for the trace's span and sets the two
/// side by side; `rows` are the trace's (every 100 ms), for what the
/// model takes over part of its run.
pub fn fit_and_run(t: &TraceSummary, rows: &Series) -> Result<FitSummary, Error> {
    let fit = scenario(t)?;
    // The model's means leave out the trace's silences, as the trace's do.
    let opts = RunOptions {
        duration_ns: (fit.scenario.duration_s * 1e9) as u64,
        left_out_s: rests(&t.silences, None),
        ..RunOptions::default()
    };
    let summary = crate::run::run(&fit.scenario, &opts, &mut |_| {})?;
    let compare = compare(t, rows, &summary, fit.scenario.duration_s);
    let differs = differs(t, &summary);
    Ok(FitSummary {
        trace: t.clone(),
        model: ModelSide { scenario: fit.scenario, summary },
        inferred: fit.inferred,
        not_inferred: fit.not_inferred,
        compare,
        differs,
    })
}

/// Where trace `t` and the model's run `m` behave unlike: one side's
/// tasks slept in balance_dirty_pages() and the other's never did, with
/// how high each side's dirty count went against its freerun ceiling.
fn differs(t: &TraceSummary, m: &Summary) -> Vec<String> {
    let (trace, model) = (t.pause_ms.sleeps, m.pauses_ms.count);
    let (slept, never, n) = match (trace, model) {
        (1.., 0) => ("the trace", "the model", trace),
        (0, 1..) => ("the model", "the trace", model),
        _ => return Vec::new(),
    };
    let sleeps = |n: u64| if n == 1 { "once".to_string() } else { format!("{n} times") };
    let peak = |side: &str, max: Option<f64>, freerun: Option<f64>| match (max, freerun) {
        (Some(max), Some(freerun)) => {
            let at = match max.total_cmp(&freerun) {
                std::cmp::Ordering::Greater => "over",
                std::cmp::Ordering::Equal => "at",
                std::cmp::Ordering::Less => "under",
            };
            format!("{side}'s dirty count peaked at {max:.1} MiB, {at} its freerun {freerun:.1}")
        }
        (Some(max), None) => format!("{side}'s dirty count peaked at {max:.1} MiB"),
        _ => format!("{side} read no dirty count"),
    };
    let g = t.global.as_ref();
    let mut peaks = format!(
        "{}; {}",
        peak("the trace", g.and_then(|g| g.dirty_mb.max), g.and_then(|g| g.freerun_mb)),
        peak("the model", Some(m.global.dirty_max_mb), Some(m.global.freerun_mb))
    );
    if trace > 0 {
        for (bdi, _, _) in throttled_under_freerun(t) {
            peaks += &format!(
                "; bdi {bdi}'s throttling passes came under the global freerun, past a limit of its own (assumed: \
                 `bdi {bdi} own limit`)"
            );
        }
    }
    vec![format!("{slept}'s tasks slept {}, {never}'s never (its pause rows are empty): {peaks}", sleeps(n))]
}

/// The trace's mean global dirty count over `[from_s, to_s]` of its clock
/// from its first event, as the model takes its own: the count held at
/// each of its rows, every 100 ms (the model's sample interval) \[MiB\].
fn dirty_mean(rows: &Series, from_s: f64, to_s: f64, page_kb: Option<u64>) -> Option<f64> {
    let t0 = rows.t0?;
    // A row's time is t0 plus tenths, a hair off: the model's sample at
    // 10 s is at 10 s exactly.
    let within = |t: f64| t - t0 >= from_s - 1e-6 && t - t0 <= to_s + 1e-6;
    let held: Vec<f64> =
        rows.rows.iter().filter(|r| within(r.t_s)).filter_map(|r| r.global.dirty).map(|d| d as f64).collect();
    (!held.is_empty()).then(|| mib_of(held.iter().sum::<f64>() / held.len() as f64, page_kb))
}

/// The quantities both sides have; the model ran `duration_s`.
fn compare(t: &TraceSummary, series: &Series, m: &Summary, duration_s: f64) -> Vec<Compared> {
    let mut rows = Vec::new();
    let mut row = |quantity: String, unit: &'static str, trace: Option<f64>, model: Option<f64>| {
        rows.push(Compared {
            quantity,
            unit,
            trace,
            model,
            from_s: None,
            to_s: None,
            every_ms: None,
            trace_silent_s: None,
        });
    };
    let g = t.global.as_ref();
    let pages = |mb: f64| (mb * 256.0).round();
    // In the model's 4 KiB pages.
    let pg = |v: Option<i64>| v.map(|p| (p * (t.kernel.page_kb.unwrap_or(4) / 4) as i64) as f64);
    row("thresh".into(), "pages", g.and_then(|g| pg(g.thresh_pages)), Some(pages(m.global.thresh_mb)));
    row("bg_thresh".into(), "pages", g.and_then(|g| pg(g.bg_thresh_pages)), Some(pages(m.global.bg_thresh_mb)));
    let hard = g.and_then(|g| g.limit_pages.map(|l| super::hard_dirty_limit(l, g.thresh_pages)));
    row("limit".into(), "pages", pg(hard), m.global.limit_mb.map(pages));
    row("freerun".into(), "MiB", g.and_then(|g| g.freerun_mb), Some(m.global.freerun_mb));
    row("setpoint".into(), "MiB", g.and_then(|g| g.setpoint_mb), m.global.setpoint_mb);
    // The model's mean leaves out its start (the first half, or 10 s of a
    // long run) and reads a sample every 100 ms: the trace's the same.
    let settle = m.global.settle_s;
    // The trace's silences within it hold no count: left out of its mean,
    // and of the model's (see `fit_and_run`).
    // (+ 0.0: a sum of nothing is -0.0.)
    let silent_s: f64 = rests(&t.silences, None)
        .iter()
        .map(|&(from, to)| (to.min(duration_s) - from.max(settle)).max(0.0))
        .sum::<f64>()
        + 0.0;
    let mut mean_name = format!("dirty, mean over {}-{} s, every 100 ms", trimmed(settle, 2), trimmed(duration_s, 2));
    if silent_s > 0.0 {
        mean_name += &format!(", less {} of the trace's silence", super::summary::duration_text(silent_s));
    }
    row(mean_name.clone(), "MiB", dirty_mean(series, settle, duration_s, t.kernel.page_kb), m.global.dirty_mean_mb);
    row("dirty, max".into(), "MiB", g.and_then(|g| g.dirty_mb.max), Some(m.global.dirty_max_mb));
    // A bdi's writeback contexts (cgroups) make one model device: the
    // sums beside it, and each context's own controller beside nothing.
    for d in devices(t) {
        let Some(mb) = m.bdis.iter().find(|x| x.name == d.bdi) else { continue };
        row(format!("{} write_bw", d.bdi), "MiB/s", d.write_bw_mbps, mb.write_bw_mbps);
        for b in t.bdis.iter().filter(|b| b.bdi == d.bdi) {
            let trace = b.bdi_dirty_ratelimit.as_ref().and_then(|r| r.dirty_ratelimit_mbps);
            let trace = trace.or(b.balance_dirty_pages.as_ref().and_then(|p| p.dirty_ratelimit_mbps));
            let (name, model) = match (&b.cgroup, d.contexts) {
                (Some(cgroup), 2..) => (format!("{} {cgroup}", b.bdi), None),
                _ => (b.bdi.clone(), mb.dirty_ratelimit_mbps),
            };
            row(format!("{name} dirty_ratelimit"), "MiB/s", trace, model);
        }
        row(format!("{} tasks", d.bdi), "", Some(d.writers().len() as f64), Some(mb.tasks as f64));
    }
    let p = &t.pause_ms;
    let ms = |v: Option<i64>| v.map(|x| x as f64);
    row("pauses".into(), "sleeps", Some(p.sleeps as f64), Some(m.pauses_ms.count as f64));
    row("pause p50".into(), "ms", ms(p.p50), m.pauses_ms.p50);
    row("pause p90".into(), "ms", ms(p.p90), m.pauses_ms.p90);
    row("pause p99".into(), "ms", ms(p.p99), m.pauses_ms.p99);
    row("pause max".into(), "ms", ms(p.max), m.pauses_ms.max);
    if let Some(mean) = rows.iter_mut().find(|r| r.quantity == mean_name) {
        (mean.from_s, mean.to_s, mean.every_ms) = (Some(settle), Some(duration_s), Some(BIN_S * 1000.0));
        mean.trace_silent_s = Some(silent_s);
    }
    rows
}

impl FitSummary {
    /// The text `view --fit` prints after the trace's report.
    pub fn report(&self) -> String {
        use std::fmt::Write as _;
        let mut s = String::new();
        let sc = &self.model.scenario;
        let bytes = |b: Option<u64>, ratio: u64| match b {
            Some(b) => format!("{:.1} MiB ({} pages)", b as f64 / 1048576.0, b / 4096),
            None => format!("{ratio} %"),
        };
        let _ = writeln!(
            s,
            "fit         {} CPUs, HZ {}, dirty {}, background {}, memory {} MiB, {}; {}",
            sc.cpus,
            sc.hz,
            bytes(sc.dirty_bytes, sc.dirty_ratio),
            bytes(sc.dirty_background_bytes, sc.dirty_background_ratio),
            sc.memory_mb,
            super::summary::duration_text(sc.duration_s),
            sc.devices
                .iter()
                .map(|d| format!("bdi {} at {:.1} MiB/s", d.name, d.bandwidth_mbps.unwrap_or(0.0)))
                .collect::<Vec<_>>()
                .join(", ")
        );
        // The speeds read off the trace's counters, and where from.
        for i in self.inferred.iter().filter(|i| i.what == "copy speed" || i.what.ends_with(" write bandwidth")) {
            let _ = writeln!(s, "measured    {}: {}; {}", i.what, i.value, i.from);
        }
        for a in &self.not_inferred {
            let _ = writeln!(s, "assumed     {}: {}; {}", a.what, a.assumed, a.why);
        }
        let name = |c: &Compared| {
            if c.unit.is_empty() { c.quantity.clone() } else { format!("{} [{}]", c.quantity, c.unit) }
        };
        let width = self.compare.iter().map(|c| name(c).chars().count()).max().unwrap_or(0).max(40);
        let _ = writeln!(s, "{:<width$} {:>12} {:>12}", "side by side", "trace", "model");
        let cell = |v: Option<f64>| {
            v.map_or(crate::run::summary::NOT_KNOWN.to_string(), |x| {
                if x.fract() == 0.0 { format!("{x:.0}") } else { format!("{x:.1}") }
            })
        };
        for c in &self.compare {
            let _ = writeln!(s, "{:<width$} {:>12} {:>12}", name(c), cell(c.trace), cell(c.model));
        }
        for d in &self.differs {
            let _ = writeln!(s, "differs     {d}");
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_kernel_that_printed_3_2s_own_fields_is_taken_for_the_series() {
        assert_eq!(later_kernel_note("3.2 (no period, think)"), None);
        let maybe = later_kernel_note("3.2 to 4.2 (bdi_dirty_ratelimit without cgroup)").expect("a maybe");
        assert!(maybe.contains("if it ran 3.3 or later"), "{maybe}");
        let later = later_kernel_note("3.3 to 4.2 (period, think; no cgroup)").expect("later");
        assert!(later.starts_with("later kernels changed the loop"), "{later}");
        assert!(later_kernel_note("6.15 or later (wb_setpoint, wb_dirty)").is_some());
    }

    #[test]
    fn each_task_runs_from_its_first_pass_to_its_last_resting_through_silences() {
        // Trace from 100 s to 130 s: one seen throughout, two in turns,
        // one that came within a second of the start and left within a
        // second of the end (throughout, too).
        let writers = [("a-1", 100.0, 130.0), ("b-2", 100.0, 109.93), ("c-3", 110.02, 130.0), ("d-4", 100.9, 129.2)];
        let groups = turns(&writers, 100.0, 130.0);
        assert_eq!(groups, [(0.0, None, 2), (0.0, Some(10.0), 1), (10.0, None, 1)]);
        assert_eq!(most_at_once(&groups), 3);
        let name = ron_string("8:0");
        let dd = |rests: &[(f64, f64)]| dd_groups(&name, &groups, rests);
        assert_eq!(
            dd(&[]),
            [r#"Dd(bdi: "8:0", n: 2)"#, r#"Dd(bdi: "8:0", n: 1, stop_s: 10)"#, r#"Dd(bdi: "8:0", n: 1, start_s: 10)"#]
        );
        // A silence from 4.1 to 20 s: each group runs either side of it.
        assert_eq!(
            dd(&[(4.1, 20.0)]),
            [
                r#"Dd(bdi: "8:0", n: 2, stop_s: 4.1)"#,
                r#"Dd(bdi: "8:0", n: 2, start_s: 20)"#,
                r#"Dd(bdi: "8:0", n: 1, stop_s: 4.1)"#,
                r#"Dd(bdi: "8:0", n: 1, start_s: 20)"#,
            ]
        );
    }
}
