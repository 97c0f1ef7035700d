//! A kernel trace as time series on its own clock: one row per 100 ms
//! holding the latest value of every traced quantity (as the simulation's
//! samples hold the world at each sample time), per bdi, plus every pause
//! with its task. These are what the charts draw and what `--csv` writes,
//! in `dirtyviz run`'s column names where the quantity is the same.
//!
//! Rows are bounded by the trace's duration, not its length. A silence
//! of more than [`MAX_GAP_S`] (no event at all) has its rows empty: the
//! kernel printed nothing there, so no count is known, not the last one
//! held (the flusher goes on writing); the thresholds and a bdi's
//! dirty_ratelimit, which change only where they are printed or with
//! the memory, hold. At most [`MAX_SILENT_ROWS`] of them: a longer one
//! (two traces joined, the clock jumping) has an empty row either side
//! and the time column jumps.

use std::borrow::Borrow;
use std::collections::HashMap;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::event::{BdiId, Event, EventKind, Field, TaskId};

/// Row interval \[s\].
pub const BIN_S: f64 = 0.1;
/// Longest silence whose rows hold the last values \[s\]; a longer one
/// has its rows empty.
pub const MAX_GAP_S: f64 = 60.0;
/// Most empty rows a silence adds (an hour of them).
pub const MAX_SILENT_ROWS: u64 = 36_000;
/// A task counts as writing to a bdi for this long after its last
/// balance_dirty_pages event, and a bdi's values printed by its events
/// hold for this long after the last event that printed them \[s\].
pub const TASK_LIVE_S: f64 = 1.0;
/// Two passes of one task whose starts (stamp less `paused=`) are this
/// close belong to one throttling call: `paused` is whole jiffies of
/// up to 10 ms (HZ 100), the stamp a clock of its own \[s\].
pub const CALL_SLACK_S: f64 = 0.02;

/// A pass at `t_s` read the global dirty count with its own
/// global_dirty_state, printed last at `state_s`: the kernel prints both
/// each time round its loop, the state a hair before the pass. Such a
/// count holds as the state's does; a pass's alone, a second
/// ([`TASK_LIVE_S`]), the kernel printing none below freerun.
pub fn read_with_state(state_s: Option<f64>, t_s: f64) -> bool {
    state_s.is_some_and(|s| t_s - s <= CALL_SLACK_S)
}

/// The global quantities at a row's time. Pages and pages/s.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct GlobalRow {
    /// Dirty + writeback + unstable, the count the limits apply to \[pages\].
    pub dirty: Option<u64>,
    /// NR_WRITEBACK \[pages\].
    pub writeback: Option<u64>,
    /// NR_UNSTABLE_NFS (kernels before 5.8) \[pages\].
    pub unstable: Option<u64>,
    /// dirty_thresh \[pages\].
    pub thresh: Option<u64>,
    /// background_thresh \[pages\].
    pub bg_thresh: Option<u64>,
    /// The global limit the control law uses, max(thresh, the traced
    /// dirty_limit) as hard_dirty_limit() takes it \[pages\].
    pub limit: Option<u64>,
    /// The global setpoint the control law uses, (limit + freerun) / 2
    /// of the limit above; a balance_dirty_pages pass prints it of the
    /// raw dirty_limit, converted with the last thresh known
    /// ([`super::control_setpoint`]) \[pages\].
    pub setpoint: Option<u64>,
    /// NR_DIRTIED's rate between the last observations up to this row \[pages/s\].
    pub dirtied_rate: Option<f64>,
    /// NR_WRITTEN's rate, likewise \[pages/s\].
    pub written_rate: Option<f64>,
    /// The first global_dirty_state and the first balance_dirty_pages
    /// (of any bdi) in the row's interval \[s\]: where a line of what
    /// they print starts, not at the row's end.
    #[serde(default)]
    pub first_global_s: Option<f64>,
    #[serde(default)]
    pub first_pass_s: Option<f64>,
}

impl GlobalRow {
    /// (thresh + bg_thresh) / 2 \[pages\].
    pub fn freerun(&self) -> Option<u64> {
        self.thresh.zip(self.bg_thresh).map(|(t, b)| (t + b) / 2)
    }
}

/// One bdi at a row's time. Pages and pages/s.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BdiRow {
    /// The bdi's dirty + writeback \[pages\].
    pub dirty: Option<u64>,
    /// Its setpoint \[pages\].
    pub setpoint: Option<u64>,
    /// write_bandwidth \[pages/s\].
    pub write_bw: Option<u64>,
    /// avg_write_bandwidth \[pages/s\].
    pub avg_write_bw: Option<u64>,
    /// dirty_ratelimit \[pages/s\].
    pub dirty_ratelimit: Option<u64>,
    /// balanced_dirty_ratelimit \[pages/s\].
    pub balanced_ratelimit: Option<u64>,
    /// The bdi's dirty rate as the kernel measured it \[pages/s\].
    pub dirty_rate: Option<u64>,
    /// Last task_ratelimit \[pages/s\].
    pub task_ratelimit: Option<u64>,
    /// task_ratelimit / dirty_ratelimit of the same event.
    pub pos_ratio: Option<f64>,
    /// Tasks with a balance_dirty_pages event in the last [`TASK_LIVE_S`].
    pub tasks: u32,
    /// Of those, the tasks their ratelimit held back: a pass at a
    /// task_ratelimit above 0 whose pause (period - think: printed 0
    /// below min_pause) is 0 or more, where the kernel's period (the
    /// pages dirtied at task_ratelimit) is not shorter than the time the
    /// task took to dirty them. These are the N whose shares the
    /// kernel's dirty_ratelimit balances, write_bw/N; a task passing
    /// only over the limit (task_ratelimit 0, where every task sleeps)
    /// or with a negative pause dirties below its ratelimit and is not
    /// one of them, nor is one whose period is 0 (3.2, which prints no
    /// period: a pause of 0).
    #[serde(default)]
    pub ratelimited: u32,
    /// The longest sleep decided within this row's interval (passes
    /// with a pause of 0 or less did not sleep) \[ms\].
    pub pause_max_ms: Option<i64>,
    /// When the bdi's last balance_dirty_pages event was \[s, the
    /// trace's clock\]. Its dirty pages, setpoint and pos_ratio are what
    /// that event printed, for [`TASK_LIVE_S`]; after that they are not
    /// known (`None`): the kernel prints them only while a task is
    /// throttled on the bdi, and its pages go on being written.
    #[serde(default)]
    pub last_pass_s: Option<f64>,
    /// When its last bdi_dirty_ratelimit event was \[s\]: its bandwidths
    /// and dirty rate are not known [`TASK_LIVE_S`] after it (the kernel
    /// goes on estimating them as pages are written), task_ratelimit not
    /// after this and the last pass. dirty_ratelimit and
    /// balanced_ratelimit hold: the kernel changes them only where
    /// bdi_dirty_ratelimit prints them.
    #[serde(default)]
    pub last_ratelimit_s: Option<f64>,
    /// The global dirty count (dirty + writeback + unstable) the bdi's
    /// last balance_dirty_pages event printed \[pages\]. The kernel
    /// prints a pass only past freerun; one at or below the global
    /// freerun ceiling got past its wb's own (BDI_CAP_STRICTLIMIT, 3.16
    /// and later) or its cgroup's, which the trace does not print.
    #[serde(default)]
    pub pass_dirty: Option<u64>,
    /// The bdi's first balance_dirty_pages and bdi_dirty_ratelimit in
    /// the row's interval \[s\]: where a line of what they print starts.
    #[serde(default)]
    pub first_pass_s: Option<f64>,
    #[serde(default)]
    pub first_ratelimit_s: Option<f64>,
}

/// One row: the trace at `t_s`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// End of the row's interval on the trace's clock \[s\].
    pub t_s: f64,
    /// What the stamps of its stretch of time order are moved by: the
    /// stamp at `t_s` is `t_s - offset_s`; `None` between two stretches,
    /// where no stamp is \[s\].
    #[serde(default)]
    pub offset_s: Option<f64>,
    pub global: GlobalRow,
    /// By [`BdiId`]; bdis first seen later are missing from earlier rows.
    pub bdis: Vec<BdiRow>,
}

/// One pass of balance_dirty_pages: the pause it decided and what the
/// task had done.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PausePoint {
    /// When, never before the pass before it \[s, the trace's clock\].
    pub t_s: f64,
    pub bdi: BdiId,
    pub task: TaskId,
    /// The pause (≤ 0: no sleep) \[ms\].
    pub pause_ms: i64,
    /// What this call had already slept \[ms\]; 0 when wrapped or absent.
    pub paused_ms: i64,
    /// Pages the task dirtied since its last call; 0 when absent. Every
    /// pass of one call prints the same count (the kernel reads it once,
    /// on entry): only the call's first pass seen counts it.
    pub dirtied: i64,
    /// This pass is the first seen of its throttling call: the call's
    /// start (`t_s - paused`) is not the one of the task's pass before
    /// (see `Series::call_start`).
    pub starts_call: bool,
    /// A call of the task's was traced before this one's: the pages its
    /// `dirtied=` counts (dirtied since the task's call before) were all
    /// dirtied within the trace. A task's first traced call counts pages
    /// from before the trace began too (a kworker's first said 2031 where
    /// the global counter rose by 300).
    pub after_a_call: bool,
    /// Its nr_dirtied_pause \[pages\], when printed.
    pub dirtied_pause: Option<i64>,
}

/// The trace as rows, built while reading.
#[derive(Debug, Default)]
pub struct Series {
    /// The first event's time: rows start here \[s\].
    pub t0: Option<f64>,
    pub rows: Vec<Row>,
    /// Every pause, when asked for.
    pub pauses: Vec<PausePoint>,
    keep_pauses: bool,
    /// Index of the interval being filled: it ends at t0 + (bin + 1) × BIN_S.
    bin: u64,
    global: GlobalRow,
    bdis: Vec<BdiRow>,
    /// Per bdi, each task's last balance_dirty_pages time \[s\].
    seen: Vec<HashMap<TaskId, f64>>,
    /// Per bdi, each task's last sleep at a task_ratelimit above 0 \[s\].
    held: Vec<HashMap<TaskId, f64>>,
    /// When the global dirty count was last read from a
    /// balance_dirty_pages pass, while no global_dirty_state has read it
    /// since \[s\]: such a count holds [`TASK_LIVE_S`] only, as a bdi's.
    dirty_from_pass_s: Option<f64>,
    /// When global_dirty_state last read the global count \[s\].
    global_state_s: Option<f64>,
    /// Each task's throttling call: when it started (its last pass's
    /// time less what the call had slept) \[s\].
    calls: HashMap<TaskId, f64>,

    /// (time, NR_DIRTIED, NR_WRITTEN) at the last row (or the first
    /// reading since there was none) and the latest.
    counters_at_row: Option<(f64, i64, i64)>,
    counters: Option<(f64, i64, i64)>,
    /// A count of 2^32 or more was read: the counters do not wrap there.
    counters_wide: bool,
    /// The latest event so far \[s\].
    last_event_s: Option<f64>,
    /// Each silence: no event from the first time to the second \[s\].
    pub silences: Vec<(f64, f64)>,
    /// When each stretch of time order after the first (traces joined)
    /// starts: its first event, moved as its stamps are, in order; the
    /// first [`super::reader::MAX_STRETCHES`] \[s\].
    pub stretch_starts: Vec<f64>,
    /// The trace at its first time: what the events stamped with it
    /// told (the first row is 100 ms later).
    pub first: Option<Row>,
    /// The stretch of time order being read and its stamps' offset \[s\].
    stretch: u32,
    offset_s: f64,
    /// The silent rows being added lie between two stretches.
    between: bool,
}

impl Series {
    /// An empty series; `keep_pauses` keeps every pause (for charts).
    pub fn new(keep_pauses: bool) -> Series {
        Series { keep_pauses, ..Series::default() }
    }

    /// Takes one event in. An event earlier than the interval being
    /// filled (clocks of two CPUs a hair apart) counts in it.
    pub fn add(&mut self, e: &Event) {
        let t = e.time_s;
        let t0 = *self.t0.get_or_insert(t);
        // A hair of slack puts an event at a row's time in the next row.
        let k = ((t - t0) / BIN_S + 1e-9).floor().max(0.0) as u64;
        let before = self.last_event_s.filter(|last| t - last > MAX_GAP_S);
        self.last_event_s = Some(self.last_event_s.map_or(t, |last| last.max(t)));
        if let Some(last) = before
            && k > self.bin
        {
            self.silences.push((last, t));
            self.silence(k);
        }
        if e.stretch != self.stretch {
            // A new stretch (traces joined): empty rows between, nothing
            // held across, no rate taken across.
            if k > self.bin {
                self.between = true;
                self.silence(k);
                self.between = false;
            }
            (self.stretch, self.offset_s) = (e.stretch, e.offset_s);
            if self.stretch_starts.len() < super::reader::MAX_STRETCHES {
                self.stretch_starts.push(t);
            }
        }
        while k > self.bin {
            self.push_row(false);
            self.bin += 1;
        }
        match (e.kind, e.bdi) {
            (EventKind::GlobalDirtyState, _) => self.add_global(e),
            (kind, Some(bdi)) => self.add_bdi(kind, bdi, e),
            (_, None) => {}
        }
        if t <= t0 {
            self.first = Some(self.now(t0));
        }
    }

    /// The values as they stand at `t` \[s\], without closing the
    /// interval being filled: no rates (taken between rows).
    fn now(&self, t: f64) -> Row {
        let mut bdis = self.bdis.clone();
        for ((row, seen), held) in bdis.iter_mut().zip(&self.seen).zip(&self.held) {
            row.tasks = seen.len() as u32;
            row.ratelimited = held.len() as u32;
        }
        Row { t_s: t, offset_s: Some(self.offset_s), global: self.global.clone(), bdis }
    }

    /// The latest event so far \[s\].
    pub fn last_event_s(&self) -> Option<f64> {
        self.last_event_s
    }

    fn add_global(&mut self, e: &Event) {
        let g = &mut self.global;
        let page = |f| e.get(f).map(|v| v as u64);
        if let (Some(d), Some(w)) = (page(Field::Dirty), page(Field::Writeback)) {
            g.dirty = Some(d + w + page(Field::Unstable).unwrap_or(0));
            g.writeback = Some(w);
            g.unstable = page(Field::Unstable);
            self.dirty_from_pass_s = None;
            self.global_state_s = Some(e.time_s);
        }
        g.thresh = page(Field::Thresh).or(g.thresh);
        g.bg_thresh = page(Field::BgThresh).or(g.bg_thresh);
        g.limit = page(Field::Limit).map(|l| super::hard_dirty_limit(l, g.thresh)).or(g.limit);
        if let (Some(l), Some(f)) = (g.limit, g.freerun()) {
            g.setpoint = Some((l + f) / 2);
        }
        if let (Some(d), Some(w)) = (e.get(Field::Dirtied), e.get(Field::Written)) {
            self.counters = Some((e.time_s, d, w));
            self.counters_wide |= d.max(w) >= super::COUNTER_WRAP;
            // The first row's rates (and a silence's next) run from the
            // first reading in it.
            self.counters_at_row = self.counters_at_row.or(self.counters);
        }
        self.global.first_global_s.get_or_insert(e.time_s);
    }

    fn add_bdi(&mut self, kind: EventKind, bdi: BdiId, e: &Event) {
        let i = bdi as usize;
        if self.bdis.len() <= i {
            self.bdis.resize_with(i + 1, BdiRow::default);
            self.seen.resize_with(i + 1, HashMap::new);
            self.held.resize_with(i + 1, HashMap::new);
        }
        let after_a_call = self.calls.contains_key(&e.task);
        let starts_call = kind == EventKind::BalanceDirtyPages && self.call_start(e);
        let b = &mut self.bdis[i];
        let page = |f| e.get(f).map(|v| v as u64);
        let rate = |f| e.get(f).map(|v| v as u64 / 4);
        b.dirty_ratelimit = rate(Field::DirtyRatelimit).or(b.dirty_ratelimit);
        b.task_ratelimit = rate(Field::TaskRatelimit).or(b.task_ratelimit);
        if let (Some(t), Some(d)) = (e.f(Field::TaskRatelimit), e.f(Field::DirtyRatelimit))
            && d > 0.0
        {
            b.pos_ratio = Some(t / d);
        }
        if kind == EventKind::BalanceDirtyPages {
            b.first_pass_s.get_or_insert(e.time_s);
            self.global.first_pass_s.get_or_insert(e.time_s);
            b.last_pass_s = Some(b.last_pass_s.map_or(e.time_s, |t| t.max(e.time_s)));
            b.pass_dirty = page(Field::Dirty);
            b.dirty = page(Field::BdiDirty).or(b.dirty);
            b.setpoint = page(Field::BdiSetpoint).or(b.setpoint);
            // balance_dirty_pages also shows the global limit, setpoint and dirty.
            let g = &mut self.global;
            g.limit = page(Field::Limit).map(|l| super::hard_dirty_limit(l, g.thresh)).or(g.limit);
            // The control law's setpoint, as global_dirty_state's is.
            if let (Some(sp), Some(l)) = (page(Field::Setpoint), page(Field::Limit)) {
                g.setpoint = Some(super::control_setpoint(sp, l, g.thresh, g.freerun()));
            }
            if let Some(d) = page(Field::Dirty) {
                g.dirty = Some(d);
                // Held a second only where read without its state.
                self.dirty_from_pass_s = (!read_with_state(self.global_state_s, e.time_s)).then_some(e.time_s);
            }
            if let Some(p) = e.get(Field::Pause) {
                if p > 0 {
                    // A sleep: a pass with a pause of 0 or less did not sleep.
                    b.pause_max_ms = Some(b.pause_max_ms.map_or(p, |m| m.max(p)));
                }
                if self.keep_pauses {
                    // Per-CPU clocks merged a hair apart: kept in order.
                    let t_s = self.pauses.last().map_or(e.time_s, |p| p.t_s.max(e.time_s));
                    self.pauses.push(PausePoint {
                        t_s,
                        bdi,
                        task: e.task,
                        pause_ms: p,
                        paused_ms: e.get(Field::Paused).unwrap_or(0).max(0),
                        dirtied: e.get(Field::Dirtied).unwrap_or(0).max(0),
                        dirtied_pause: e.get(Field::DirtiedPause),
                        starts_call,
                        after_a_call,
                    });
                }
            }
            self.seen[i].insert(e.task, e.time_s);
            // pause = period - think, printed as 0 when below min_pause
            // (not slept): at 0 or more the task dirtied at least as fast
            // as task_ratelimit lets it. A period of 0 (a few pages at a
            // high rate) holds nobody back. 3.2 prints no period: its
            // pause is the period (HZ × dirtied / task_ratelimit, capped),
            // printed 0 where that is under a jiffy, so a pause of 0
            // there is a period of 0.
            let held = e.get(Field::TaskRatelimit).is_some_and(|r| r > 0)
                && match (e.has(Field::Period), e.get(Field::Pause)) {
                    (true, Some(p)) => p >= 0 && e.get(Field::Period).is_none_or(|p| p > 0),
                    (false, Some(p)) => p > 0,
                    (_, None) => false,
                };
            if held {
                self.held[i].insert(e.task, e.time_s);
            }
        } else {
            b.first_ratelimit_s.get_or_insert(e.time_s);
            b.last_ratelimit_s = Some(b.last_ratelimit_s.map_or(e.time_s, |t| t.max(e.time_s)));
            b.write_bw = rate(Field::WriteBw).or(b.write_bw);
            b.avg_write_bw = rate(Field::AwriteBw).or(b.avg_write_bw);
            b.balanced_ratelimit = rate(Field::BalancedDirtyRatelimit).or(b.balanced_ratelimit);
            b.dirty_rate = rate(Field::DirtyRate).or(b.dirty_rate);
        }
    }

    /// Whether balance_dirty_pages pass `e` is the first seen of its
    /// task's throttling call, noting the call. Within one call the
    /// kernel loops while the task is over the limit, printing a pass per
    /// sleep with the same `dirtied=` (read once, on entry) and what the
    /// call has slept so far, `paused=` (0 on its first pass): a pass
    /// whose start, its stamp less `paused`, lies within [`CALL_SLACK_S`]
    /// of the start of the task's call before is that call's. A pass with
    /// `paused=0` (or none readable) starts one; so does a later pass
    /// whose call's first was not traced (lost events).
    fn call_start(&mut self, e: &Event) -> bool {
        let paused_s = e.get(Field::Paused).unwrap_or(0) as f64 / 1000.0;
        let start = e.time_s - paused_s;
        match self.calls.get(&e.task) {
            // The call's start stays the first pass's.
            Some(&known) if paused_s > 0.0 && (start - known).abs() <= CALL_SLACK_S => false,
            _ => {
                self.calls.insert(e.task, start);
                true
            }
        }
    }

    /// Closes the interval being filled, of the last event before a
    /// silence, and adds the silence's rows up to interval `k`, where the
    /// events go on: empty but for what holds (see the module's notes).
    fn silence(&mut self, k: u64) {
        self.push_row(false);
        self.bin += 1;
        let g = &mut self.global;
        (g.dirty, g.writeback, g.unstable) = (None, None, None);
        // Rates are taken between observations after it.
        (self.counters_at_row, self.counters) = (None, None);
        if k - self.bin > MAX_SILENT_ROWS {
            self.push_row(true);
            self.bin = k - 1;
        }
        while k > self.bin {
            self.push_row(true);
            self.bin += 1;
        }
    }

    /// Closes the interval being filled into a row; `silent`: an
    /// interval of a silence, where nothing printed by events is current.
    fn push_row(&mut self, silent: bool) {
        let t = self.t0.unwrap_or(0.0) + (self.bin + 1) as f64 * BIN_S;
        if self.dirty_from_pass_s.is_some_and(|at| at < t - TASK_LIVE_S) {
            // Read last from a pass: the kernel prints none below
            // freerun, so holding it would hold the count high.
            self.global.dirty = None;
            self.dirty_from_pass_s = None;
        }
        let mut global = self.global.clone();
        match (self.counters_at_row, self.counters) {
            (Some(a), Some(b)) if b.0 > a.0 => {
                // A counter that went down (a reboot) gives no rate.
                let wide = self.counters_wide;
                if let (Some(dirtied), Some(written)) =
                    (super::counter_growth(a.1, b.1, wide), super::counter_growth(a.2, b.2, wide))
                {
                    global.dirtied_rate = Some(dirtied as f64 / (b.0 - a.0));
                    global.written_rate = Some(written as f64 / (b.0 - a.0));
                }
                self.counters_at_row = Some(b);
            }
            (None, Some(b)) => self.counters_at_row = Some(b),
            _ => {}
        }
        let mut bdis = self.bdis.clone();
        for ((row, seen), held) in bdis.iter_mut().zip(&mut self.seen).zip(&mut self.held) {
            seen.retain(|_, last| *last >= t - TASK_LIVE_S);
            held.retain(|_, last| *last >= t - TASK_LIVE_S);
            if silent {
                seen.clear();
                held.clear();
            }
            row.tasks = seen.len() as u32;
            row.ratelimited = held.len() as u32;
            // What the bdi's events printed, no longer current.
            let recent = |at: Option<f64>| !silent && at.is_some_and(|at| at >= t - TASK_LIVE_S);
            if !recent(row.last_pass_s) {
                row.dirty = None;
                row.setpoint = None;
                row.pos_ratio = None;
            }
            if !recent(row.last_ratelimit_s) {
                row.write_bw = None;
                row.avg_write_bw = None;
                row.dirty_rate = None;
                if !recent(row.last_pass_s) {
                    row.task_ratelimit = None;
                }
            }
        }
        for b in &mut self.bdis {
            (b.pause_max_ms, b.first_pass_s, b.first_ratelimit_s) = (None, None, None);
        }
        (self.global.first_global_s, self.global.first_pass_s) = (None, None);
        let offset_s = Some(self.offset_s).filter(|_| !(silent && self.between));
        self.rows.push(Row { t_s: t, offset_s, global, bdis });
    }

    /// Takes out the rows closed so far (to keep them elsewhere).
    pub fn take_rows(&mut self) -> Vec<Row> {
        std::mem::take(&mut self.rows)
    }

    /// Drops the oldest `rows` rows and `pauses` pauses (a live trace
    /// keeps only its recent past).
    pub fn forget(&mut self, rows: usize, pauses: usize) {
        self.rows.drain(..rows.min(self.rows.len()));
        self.pauses.drain(..pauses.min(self.pauses.len()));
    }

    /// Closes the last interval; call once, after the last event.
    pub fn finish(&mut self) {
        if self.t0.is_some() {
            self.push_row(false);
            self.bin += 1;
        }
    }
}

/// Per-bdi CSV columns after `<bdi>.`: `run`'s names where the quantity
/// is the same, then the trace's own.
const BDI_COLUMNS: &[&str] = &[
    "dirty_mb",
    "setpoint_mb",
    "write_bw_mbps",
    "avg_write_bw_mbps",
    "dirty_ratelimit_mbps",
    "balanced_ratelimit_mbps",
    "dirtied_mbps",
    "task_ratelimit_mbps",
    "pos_ratio",
    "tasks",
    "ratelimited",
    "pause_max_ms",
];

/// Global CSV columns.
const GLOBAL_COLUMNS: &[&str] = &[
    "time_s",
    "trace_time_s",
    "dirty_mb",
    "writeback_mb",
    "unstable_mb",
    "thresh_mb",
    "bg_thresh_mb",
    "freerun_mb",
    "setpoint_mb",
    "limit_mb",
    "dirtied_mbps",
    "written_mbps",
];

/// A cell: empty when the trace has no value yet.
fn cell<T>(v: Option<T>, f: impl Fn(T) -> String) -> String {
    v.map_or(String::new(), f)
}

/// A rate read from KB/s, held in 4 KiB units, as MiB/s.
fn mb(pages: u64) -> String {
    format!("{:.3}", crate::units::mib(pages))
}

/// Writes the rows as CSV: MiB and MiB/s, one row per 100 ms; page counts
/// are pages of `page_kb` KiB (4 when not told).
pub fn write_csv(w: &mut impl Write, series: &Series, bdis: &[String], page_kb: Option<u64>) -> std::io::Result<()> {
    write_csv_rows(w, series.t0.unwrap_or(0.0), series.rows.iter().map(Ok), bdis, page_kb)
}

/// Writes `rows` as [`write_csv`] does, the trace starting at `t0` \[s\].
pub fn write_csv_rows<R: Borrow<Row>>(
    w: &mut impl Write,
    t0: f64,
    rows: impl Iterator<Item = std::io::Result<R>>,
    bdis: &[String],
    page_kb: Option<u64>,
) -> std::io::Result<()> {
    let pages = |p: u64| format!("{:.3}", super::summary::mib_of(p as f64, page_kb));
    let mbps = |p: f64| format!("{:.3}", super::summary::mib_of(p, page_kb));
    let quote = |s: String| if s.contains([',', '"', '\n']) { format!("\"{}\"", s.replace('"', "\"\"")) } else { s };
    let mut header: Vec<String> = GLOBAL_COLUMNS.iter().map(|c| c.to_string()).collect();
    for b in bdis {
        header.extend(BDI_COLUMNS.iter().map(|c| quote(format!("{b}.{c}"))));
    }
    writeln!(w, "{}", header.join(","))?;
    let empty = BdiRow::default();
    for r in rows {
        let r = r?;
        let r = r.borrow();
        let g = &r.global;
        let mut cells = vec![
            format!("{:.1}", r.t_s - t0),
            cell(r.offset_s, |o| format!("{:.6}", r.t_s - o)),
            cell(g.dirty, pages),
            cell(g.writeback, pages),
            cell(g.unstable, pages),
            cell(g.thresh, pages),
            cell(g.bg_thresh, pages),
            cell(g.freerun(), pages),
            cell(g.setpoint, pages),
            cell(g.limit, pages),
            cell(g.dirtied_rate, mbps),
            cell(g.written_rate, mbps),
        ];
        for i in 0..bdis.len() {
            let b = r.bdis.get(i).unwrap_or(&empty);
            cells.extend([
                cell(b.dirty, pages),
                cell(b.setpoint, pages),
                cell(b.write_bw, mb),
                cell(b.avg_write_bw, mb),
                cell(b.dirty_ratelimit, mb),
                cell(b.balanced_ratelimit, mb),
                cell(b.dirty_rate, mb),
                cell(b.task_ratelimit, mb),
                cell(b.pos_ratio, |p| format!("{p:.4}")),
                b.tasks.to_string(),
                b.ratelimited.to_string(),
                cell(b.pause_max_ms, |p| p.to_string()),
            ]);
        }
        writeln!(w, "{}", cells.join(","))?;
    }
    Ok(())
}

/// Rows kept in a file beside an output instead of in memory (a live
/// trace written as CSV at its end, however long it ran). The file is
/// unlinked as soon as it is made: it is read back through its open
/// descriptor, and nothing is left behind however dirtyviz ends (even
/// killed with SIGKILL).
#[derive(Debug)]
pub struct RowSpool {
    file: std::fs::File,
    out: Option<BufWriter<std::fs::File>>,
}

impl RowSpool {
    /// A spool in the directory of `output`, or in the temporary directory
    /// when `output` is a device or a pipe (`/dev/stdout`).
    pub fn beside(output: &Path) -> std::io::Result<RowSpool> {
        // Beside the file a link leads to (`/dev/stdout` into a file).
        let real = std::fs::canonicalize(output).ok();
        let special = std::fs::metadata(output).is_ok_and(|m| !m.is_file());
        let dir = match real.as_deref().unwrap_or(output).parent() {
            _ if special => std::env::temp_dir(),
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let name = output.file_name().map_or("rows".into(), |n| n.to_string_lossy().into_owned());
        let path = dir.join(format!(".{name}.rows.dirtyviz-{}.tmp", std::process::id()));
        // Created new, never through a link; one left by a crashed process
        // of the same id is stale and goes first.
        let create = || std::fs::OpenOptions::new().read(true).write(true).create_new(true).open(&path);
        let file = match create() {
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                std::fs::remove_file(&path)?;
                create()?
            }
            other => other?,
        };
        // Read back through its descriptor: its name can go at once (were
        // that refused, the rows would still be kept; the name is left).
        let _ = std::fs::remove_file(&path);
        let out = BufWriter::new(file.try_clone()?);
        Ok(RowSpool { file, out: Some(out) })
    }

    /// Appends `rows`.
    pub fn push(&mut self, rows: &[Row]) -> std::io::Result<()> {
        let Some(out) = &mut self.out else { return Ok(()) };
        for r in rows {
            serde_json::to_writer(&mut *out, r)?;
            out.write_all(b"\n")?;
        }
        Ok(())
    }

    /// The rows pushed, in order, read back one at a time.
    pub fn rows(&mut self) -> std::io::Result<impl Iterator<Item = std::io::Result<Row>> + '_> {
        use std::io::Seek;
        if let Some(out) = self.out.take() {
            out.into_inner().map_err(|e| e.into_error())?;
        }
        self.file.seek(std::io::SeekFrom::Start(0))?;
        let lines = BufReader::new(&self.file).lines();
        Ok(lines.map(|l| l.and_then(|l| serde_json::from_str(&l).map_err(std::io::Error::other))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ktrace::reader::{Decoder, read_all};
    use crate::scratch::Scratch;

    #[test]
    fn spooled_rows_come_back_in_order_and_their_file_goes() {
        let dir = Scratch::new("spool");
        let output = dir.join("out.csv");
        let spool_path = dir.join(format!(".out.csv.rows.dirtyviz-{}.tmp", std::process::id()));
        // A stale file of this process id, here a link to a file of the
        // user's: the link goes, the file is not written through it.
        let victim = dir.join("victim.txt");
        std::fs::write(&victim, "mine").expect("victim");
        std::os::unix::fs::symlink(&victim, &spool_path).expect("link");
        let mut spool = RowSpool::beside(&output).expect("a spool");
        assert!(std::fs::symlink_metadata(&spool_path).is_err(), "made and unlinked at once");
        let row = |t_s: f64, dirty: u64| Row {
            t_s,
            offset_s: Some(0.0),
            global: GlobalRow { dirty: Some(dirty), dirtied_rate: Some(0.5), ..GlobalRow::default() },
            bdis: vec![BdiRow { pos_ratio: Some(1.25), tasks: 3, ..BdiRow::default() }],
        };
        let rows = [row(0.1, 7), row(0.2, u64::MAX)];
        spool.push(&rows[..1]).expect("pushed");
        spool.push(&rows[1..]).expect("pushed");
        let back: Vec<Row> = spool.rows().expect("readable").collect::<std::io::Result<_>>().expect("rows");
        assert_eq!(back, rows);
        drop(spool);
        assert_eq!(std::fs::read_dir(&dir).expect("listed").count(), 1, "only the victim is left");
        assert_eq!(std::fs::read_to_string(&victim).expect("victim"), "mine");
    }

    fn series(text: &str) -> (Series, Decoder) {
        let mut d = Decoder::new();
        let mut s = Series::new(true);
        read_all(text.as_bytes(), &mut d, |e, _| s.add(e)).expect("reads");
        s.finish();
        (s, d)
    }

    const GDS: &str = "dirty=100 writeback=20 bg_thresh=1000 thresh=2000 limit=2000";

    #[test]
    fn rows_hold_the_latest_values_every_100_ms() {
        let text = format!(
            "a-1 [000] 10.00: global_dirty_state: {GDS} dirtied=1000 written=0\n\
             a-1 [000] 10.05: balance_dirty_pages: bdi 8:0: limit=2000 setpoint=1750 dirty=130 bdi_setpoint=1700 bdi_dirty=120 dirty_ratelimit=4096 task_ratelimit=2048 dirtied=32 dirtied_pause=32 paused=0 pause=12\n\
             a-1 [000] 10.31: global_dirty_state: {GDS} dirtied=1256 written=128\n"
        );
        let (s, d) = series(&text);
        assert_eq!(d.bdis, ["8:0"]);
        let times: Vec<String> = s.rows.iter().map(|r| format!("{:.2}", r.t_s - 10.0)).collect();
        assert_eq!(times, ["0.10", "0.20", "0.30", "0.40"]);
        let r0 = &s.rows[0];
        assert_eq!((r0.global.dirty, r0.global.freerun(), r0.global.setpoint), (Some(130), Some(1500), Some(1750)));
        let b = &r0.bdis[0];
        assert_eq!(
            (b.dirty, b.setpoint, b.dirty_ratelimit, b.task_ratelimit),
            (Some(120), Some(1700), Some(1024), Some(512))
        );
        assert_eq!((b.pos_ratio, b.tasks, b.pause_max_ms), (Some(0.5), 1, Some(12)));
        // The next rows hold the values; the pause belongs to its own row only.
        assert_eq!((s.rows[2].bdis[0].dirty, s.rows[2].bdis[0].pause_max_ms), (Some(120), None));
        // 256 pages dirtied and 128 written in 0.31 s.
        let g = &s.rows[3].global;
        assert_eq!(g.dirtied_rate.map(|r| (r * 0.31).round()), Some(256.0));
        assert_eq!(g.written_rate.map(|r| (r * 0.31).round()), Some(128.0));
        assert_eq!(s.rows[1].global.dirtied_rate, None, "no new observation");
        assert_eq!(s.pauses.len(), 1);
    }

    /// Each row's dirtied and written rates, rounded \[pages/s\].
    fn rounded_rates(s: &Series) -> Vec<(Option<f64>, Option<f64>)> {
        let round = |v: Option<f64>| v.map(|r| r.round());
        s.rows.iter().map(|r| (round(r.global.dirtied_rate), round(r.global.written_rate))).collect()
    }

    #[test]
    fn the_first_row_has_rates_from_its_first_reading() {
        let text = format!(
            "a-1 [000] 10.00: global_dirty_state: {GDS} dirtied=1000 written=0\n\
             a-1 [000] 10.08: global_dirty_state: {GDS} dirtied=1400 written=40\n\
             a-1 [000] 10.18: global_dirty_state: {GDS} dirtied=1500 written=140\n"
        );
        let (s, _) = series(&text);
        // 400 pages dirtied and 40 written from 10.00 to 10.08 s, then
        // 100 and 100 to 10.18 s.
        assert_eq!(rounded_rates(&s), [(Some(5000.0), Some(500.0)), (Some(1000.0), Some(1000.0))]);
    }

    #[test]
    fn a_row_across_a_reboot_has_no_rates() {
        let text = format!(
            "a-1 [000] 10.00: global_dirty_state: {GDS} dirtied=900000 written=800000\n\
             a-1 [000] 10.05: global_dirty_state: {GDS} dirtied=901000 written=800500\n\
             a-1 [000] 10.15: global_dirty_state: {GDS} dirtied=100 written=50\n\
             a-1 [000] 10.25: global_dirty_state: {GDS} dirtied=400 written=150\n"
        );
        let (s, _) = series(&text);
        // 1000 and 500 pages in 0.05 s; the counters restarted (not
        // -900900 pages in 0.1 s); 300 and 100 pages in 0.1 s.
        assert_eq!(rounded_rates(&s), [(Some(20000.0), Some(10000.0)), (None, None), (Some(3000.0), Some(1000.0))]);
    }

    #[test]
    fn n_counts_the_tasks_their_ratelimit_held_back_not_every_task_throttled() {
        // Two dd pass at a task_ratelimit above 0 with a pause of 0 or
        // more (period ≥ think: their dirtying kept up with it); a
        // compiler passes at task_ratelimit 0 (over the limit, where every
        // task sleeps), with a negative pause and with a period of 0. The
        // kernel's dirty_rate counts the compiler's few pages, its N does
        // not: write_bw/N is write_bw/2.
        let bdp = |task: &str, t: &str, tr: u32, pause: i32, period: u32| {
            format!(
                "{task} [000] {t}: balance_dirty_pages: bdi 8:0: limit=2000 setpoint=1750 dirty=1600 bdi_setpoint=875 \
                 bdi_dirty=800 dirty_ratelimit=4096 task_ratelimit={tr} dirtied=32 dirtied_pause=32 paused=0 \
                 pause={pause} period={period} think=0\n"
            )
        };
        let text = [
            format!("a-1 [000] 10.00: global_dirty_state: {GDS} dirtied=0 written=0\n"),
            bdp("dd-2", "10.01", 2048, 12, 12),
            // 8 ms below min_pause: printed 0, not slept, still held.
            bdp("dd-3", "10.02", 2048, 0, 8),
            bdp("cc1-4", "10.03", 0, 20, 20),
            bdp("cc1-4", "10.04", 2048, -4, 4),
            // A few pages at a high rate: a period of 0.
            bdp("cc1-4", "10.05", 2048, 0, 0),
            bdp("dd-2", "10.60", 0, 20, 20),
            bdp("cc1-4", "11.50", 2048, 0, 0),
        ]
        .concat();
        let (s, _) = series(&text);
        let at = |t: f64| &s.rows[((t - 10.0) / BIN_S).round() as usize - 1].bdis[0];
        assert_eq!((at(10.1).tasks, at(10.1).ratelimited), (3, 2));
        // A second on, only dd-2 has passed within the second; it sleeping
        // over the limit (10.60) does not count.
        assert_eq!((at(11.1).tasks, at(11.1).ratelimited), (1, 0));
        assert_eq!((at(10.9).tasks, at(10.9).ratelimited), (3, 2));
        // The CSV gives both: tasks seen, and chart 4's N.
        let mut csv = Vec::new();
        write_csv(&mut csv, &s, &["8:0".to_string()], None).expect("written");
        let csv = String::from_utf8(csv).expect("text");
        let mut lines = csv.lines().map(|l| l.split(',').collect::<Vec<_>>());
        let header = lines.next().expect("a header");
        let col = |name: &str| header.iter().position(|c| *c == name).expect(name);
        let row = lines.next().expect("the row at 10.1 s");
        assert_eq!((row[col("8:0.tasks")], row[col("8:0.ratelimited")]), ("3", "2"));
    }

    #[test]
    fn in_3_2_a_pause_of_0_is_a_period_of_0_and_holds_nobody_back() {
        // 3.2 prints no period: its pause is HZ × dirtied / task_ratelimit,
        // 0 where that is under a jiffy. dd-2 sleeps 11 ms, dd-1 passes
        // with pause=0: N is 1, as 3.3's period=0 gives it.
        let bdp = |task: &str, t: &str, pause: u32, tail: &str| {
            format!(
                "{task} [000] {t}: balance_dirty_pages: bdi 8:0: limit=2000 setpoint=1750 dirty=1600 bdi_setpoint=875 \
                 bdi_dirty=800 dirty_ratelimit=4096 task_ratelimit=8192 dirtied=8 dirtied_pause=8 paused=0 \
                 pause={pause}{tail}\n"
            )
        };
        for (tail0, tail11) in [("", ""), (" period=0 think=0", " period=11 think=0")] {
            let text = [bdp("dd-1", "10.01", 0, tail0), bdp("dd-2", "10.02", 11, tail11)].concat();
            let (s, _) = series(&text);
            assert_eq!((s.rows[0].bdis[0].tasks, s.rows[0].bdis[0].ratelimited), (2, 1), "{tail0:?}");
        }
    }

    #[test]
    fn a_passes_setpoint_is_the_control_laws_as_global_dirty_states_is() {
        // dirty_limit 1600 lags below thresh 2000: the control law takes
        // limit 2000 and setpoint (2000 + 1500) / 2 = 1750; the pass
        // prints (1600 + 1500) / 2 = 1550 of the raw dirty_limit.
        let gds = "dirty=100 writeback=20 bg_thresh=1000 thresh=2000 limit=1600";
        let text = format!(
            "a-1 [000] 10.00: global_dirty_state: {gds} dirtied=0 written=0\n\
             a-1 [000] 10.15: balance_dirty_pages: bdi 8:0: limit=1600 setpoint=1550 dirty=1600 bdi_setpoint=875 bdi_dirty=800 dirty_ratelimit=4096 task_ratelimit=2048 dirtied=32 dirtied_pause=32 paused=0 pause=12\n\
             a-1 [000] 10.25: global_dirty_state: {gds} dirtied=0 written=0\n"
        );
        let (s, _) = series(&text);
        let sp: Vec<_> = s.rows.iter().map(|r| (r.global.setpoint, r.global.limit)).collect();
        assert_eq!(sp, vec![(Some(1750), Some(2000)); 3], "no flip between 1750 and 1550");
        // Without a thresh known, the printed one as it is.
        let (s, _) = series(&format!("{}\n", text.lines().nth(1).expect("the pass")));
        assert_eq!((s.rows[0].global.setpoint, s.rows[0].global.limit), (Some(1550), Some(1600)));
    }

    #[test]
    fn a_global_count_read_from_a_pass_ends_a_second_after_it_as_a_bdis() {
        // balance_dirty_pages alone: its dirty= is the global count, and
        // below freerun no pass is printed, so it is not held past 1 s.
        let bdp = |t: &str, dirty: u32| {
            format!(
                "a-1 [000] {t}: balance_dirty_pages: bdi 8:0: limit=2000 setpoint=1750 dirty={dirty} bdi_setpoint=875 \
                 bdi_dirty=800 dirty_ratelimit=4096 task_ratelimit=2048 dirtied=32 dirtied_pause=32 paused=0 pause=12\n"
            )
        };
        let (s, _) = series(&[bdp("10.05", 1600), bdp("10.30", 1700), bdp("12.05", 1650)].concat());
        let at = |t: f64| &s.rows[((t - 10.05) / BIN_S).round() as usize - 1];
        let dirty = |t| (at(t).global.dirty, at(t).bdis[0].dirty);
        assert_eq!(dirty(11.25), (Some(1700), Some(800)), "within a second of 10.30");
        assert_eq!(dirty(11.35), (None, None), "past it: not known, for both");
        assert_eq!(dirty(12.15), (Some(1650), Some(800)));
        // A global_dirty_state count holds, as before.
        let gds = format!("a-1 [000] 10.35: global_dirty_state: {GDS} dirtied=0 written=0\n");
        let (s, _) = series(&[bdp("10.05", 1600), bdp("10.30", 1700), gds, bdp("12.05", 1650)].concat());
        assert_eq!(s.rows[((11.95 - 10.05) / BIN_S).round() as usize - 1].global.dirty, Some(120));
    }

    #[test]
    fn a_bdis_values_end_a_second_after_the_last_event_that_printed_them() {
        // One pass and one ratelimit update at 10.05, then only
        // global_dirty_state for 3 s: the bdi's dirty pages, setpoint,
        // bandwidths and task_ratelimit were what the kernel printed then,
        // not what it had at 13 s; its dirty_ratelimit is (the kernel
        // changes it only where it prints it).
        let mut text = format!(
            "a-1 [000] 10.00: global_dirty_state: {GDS} dirtied=0 written=0\n\
             a-1 [000] 10.05: balance_dirty_pages: bdi 8:0: limit=2000 setpoint=1750 dirty=1600 bdi_setpoint=875 bdi_dirty=800 dirty_ratelimit=4096 task_ratelimit=2048 dirtied=32 dirtied_pause=32 paused=0 pause=12\n\
             a-1 [000] 10.05: bdi_dirty_ratelimit: bdi 8:0: write_bw=40960 awrite_bw=40960 dirty_rate=40960 dirty_ratelimit=4096 task_ratelimit=2048 balanced_dirty_ratelimit=4096\n"
        );
        for i in 1..=30 {
            text += &format!("a-1 [000] {}.{}0: global_dirty_state: {GDS} dirtied=0 written=0\n", 10 + i / 10, i % 10);
        }
        let (s, _) = series(&text);
        let at = |t: f64| &s.rows[((t - 10.0) / BIN_S).round() as usize - 1].bdis[0];
        let b = at(11.0);
        assert_eq!(
            (b.dirty, b.setpoint, b.avg_write_bw, b.task_ratelimit),
            (Some(800), Some(875), Some(10240), Some(512))
        );
        let b = at(11.1);
        assert_eq!((b.dirty, b.setpoint, b.pos_ratio), (None, None, None), "{b:?}");
        assert_eq!((b.write_bw, b.avg_write_bw, b.dirty_rate, b.task_ratelimit), (None, None, None, None));
        assert_eq!((b.dirty_ratelimit, b.balanced_ratelimit), (Some(1024), Some(1024)));
        assert_eq!(b.last_pass_s, Some(10.05));
        assert_eq!(at(13.0).dirty, None);
        // The CSV leaves them empty too.
        let mut out = Vec::new();
        write_csv(&mut out, &s, &["8:0".to_string()], None).expect("writes");
        let text = String::from_utf8(out).expect("utf-8");
        let last = text.lines().last().expect("a row");
        assert!(last.ends_with(",,,,,4.000,4.000,,,,0,0,"), "{last}");
    }

    #[test]
    fn a_silence_has_rows_without_counts_and_a_short_one_holds_them() {
        let gds = |t: &str| format!("a-1 [000] {t}: global_dirty_state: {GDS} dirtied=0 written=0\n");
        let bdp = "a-1 [000] 1.05: balance_dirty_pages: bdi 8:0: limit=2000 setpoint=1750 dirty=130 bdi_setpoint=1700 bdi_dirty=120 dirty_ratelimit=4096 task_ratelimit=2048 dirtied=32 dirtied_pause=32 paused=0 pause=12\n";
        // 61 s without an event: a row every 100 ms, none with a count.
        let (s, _) = series(&[gds("1.0"), bdp.to_string(), gds("62.1")].concat());
        assert_eq!(s.rows.len(), 612);
        assert_eq!(s.silences, [(1.05, 62.1)]);
        assert_eq!((s.rows[0].global.dirty, s.rows[0].bdis[0].dirty), (Some(130), Some(120)));
        for r in &s.rows[1..611] {
            let (g, b) = (&r.global, &r.bdis[0]);
            assert_eq!(
                (g.dirty, g.writeback, b.dirty, b.setpoint, b.task_ratelimit, b.tasks),
                (None, None, None, None, None, 0)
            );
            // What changes only where it is printed holds.
            assert_eq!((g.thresh, g.limit, b.dirty_ratelimit), (Some(2000), Some(2000), Some(1024)));
        }
        assert_eq!(s.rows[611].global.dirty, Some(120));
        // 59 s: the last values hold, as between any two events.
        let (s, _) = series(&[gds("1.0"), gds("60.0")].concat());
        assert!(s.silences.is_empty() && s.rows.iter().all(|r| r.global.dirty == Some(120)));
        // Two traces an age apart: an empty row either side of the jump.
        let (s, _) = series(&[gds("1.0"), gds("86401.0")].concat());
        assert_eq!(s.rows.len(), 4);
        let dirty: Vec<Option<u64>> = s.rows.iter().map(|r| r.global.dirty).collect();
        assert_eq!(dirty, [Some(120), None, None, Some(120)]);
        assert!((s.rows[2].t_s - 86401.0).abs() < 1e-6, "{}", s.rows[2].t_s);
    }

    #[test]
    fn csv_uses_runs_names_and_leaves_unknowns_empty() {
        let (s, d) = series(&format!("a-1 [000] 5.0: global_dirty_state: {GDS} dirtied=0 written=0\n"));
        let mut out = Vec::new();
        write_csv(&mut out, &s, &d.bdis, None).expect("writes");
        let text = String::from_utf8(out).expect("utf-8");
        let mut lines = text.lines();
        assert_eq!(
            lines.next(),
            Some(
                "time_s,trace_time_s,dirty_mb,writeback_mb,unstable_mb,thresh_mb,bg_thresh_mb,freerun_mb,setpoint_mb,limit_mb,dirtied_mbps,written_mbps"
            )
        );
        assert_eq!(lines.next(), Some("0.1,5.100000,0.469,0.078,,7.812,3.906,5.859,6.836,7.812,,"));
    }
}
