//! The three writeback tracepoints and their fields, as every kernel since
//! 3.2 prints them: one table of field names (with the names they had in
//! other releases), units and the events they belong to.
//!
//! | release | what changed in the printed fields |
//! | --- | --- |
//! | 3.1 | `global_dirty_state` (with `unstable=`) |
//! | 3.2 | `bdi_dirty_ratelimit`; `balance_dirty_pages` up to `paused= pause=` |
//! | 3.3 | `balance_dirty_pages` gains `period=` and `think=` |
//! | 4.3 | cgroup writeback: `cgroup=<path>` (`/` without it), later `cgroup_ino=<ino>`, appended to both bdi events |
//! | 5.8 | `global_dirty_state` loses `unstable=` (NR_UNSTABLE_NFS is gone) |
//! | 6.15 | `bdi_setpoint=`/`bdi_dirty=` are renamed `wb_setpoint=`/`wb_dirty=` |

/// A writeback tracepoint this reader understands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EventKind {
    /// `writeback:balance_dirty_pages`: one pass of the throttling loop of
    /// one task (`trace_balance_dirty_pages()` in mm/page-writeback.c).
    BalanceDirtyPages,
    /// `writeback:bdi_dirty_ratelimit`: one update of a bdi's rate estimates
    /// (`bdi_update_dirty_ratelimit()`, every 200 ms while tasks dirty).
    BdiDirtyRatelimit,
    /// `writeback:global_dirty_state`: the global counters and thresholds,
    /// traced from `global_dirty_limits()`.
    GlobalDirtyState,
}

impl EventKind {
    /// Every kind, in the order summaries list them.
    pub const ALL: [EventKind; 3] =
        [EventKind::BalanceDirtyPages, EventKind::BdiDirtyRatelimit, EventKind::GlobalDirtyState];

    /// The tracepoint's name as the trace prints it.
    pub fn name(self) -> &'static str {
        match self {
            EventKind::BalanceDirtyPages => "balance_dirty_pages",
            EventKind::BdiDirtyRatelimit => "bdi_dirty_ratelimit",
            EventKind::GlobalDirtyState => "global_dirty_state",
        }
    }

    /// The kind a printed event name (`balance_dirty_pages`, or perf's
    /// `writeback:balance_dirty_pages`) stands for.
    pub fn from_name(name: &str) -> Option<EventKind> {
        let name = name.strip_prefix("writeback:").unwrap_or(name);
        EventKind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// True for the events that name a bdi (`bdi 8:0: ...`).
    pub fn has_bdi(self) -> bool {
        self != EventKind::GlobalDirtyState
    }

    /// Position in [`EventKind::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }
}

/// What a field's number counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// Pages (4 KiB on the machines this reader assumes).
    Pages,
    /// KB/s, the kernel's `KBps()`: pages/s × 4.
    KBps,
    /// Milliseconds (jiffies × 1000 / HZ).
    Ms,
    /// An identifier (cgroup inode), not a quantity.
    Id,
}

/// A field of the writeback tracepoints. Its meaning depends on the event
/// it is read from where the kernel reuses a name (see [`Field::Dirty`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Field {
    /// The global dirty limit, `hard_dirty_limit()` / `dirty_limit` \[pages\].
    Limit,
    /// The global setpoint, (limit + freerun) / 2 \[pages\].
    Setpoint,
    /// balance_dirty_pages: global dirty + writeback (+ unstable), the
    /// count the limits apply to; global_dirty_state: NR_FILE_DIRTY only \[pages\].
    Dirty,
    /// The bdi's setpoint, setpoint × bdi_thresh / (thresh + 1);
    /// `bdi_setpoint` up to 6.14, `wb_setpoint` from 6.15 \[pages\].
    BdiSetpoint,
    /// The bdi's dirty + writeback pages; `bdi_dirty`, then `wb_dirty` \[pages\].
    BdiDirty,
    /// The bdi's base rate, `dirty_ratelimit` \[KB/s\].
    DirtyRatelimit,
    /// dirty_ratelimit × pos_ratio \[KB/s\].
    TaskRatelimit,
    /// balance_dirty_pages: pages the task dirtied since its last call;
    /// global_dirty_state: NR_DIRTIED, a running total \[pages\].
    Dirtied,
    /// The task's `nr_dirtied_pause`: pages it may dirty before the next call \[pages\].
    DirtiedPause,
    /// Time this call has already slept \[ms\].
    Paused,
    /// The sleep this pass decided (0 or negative: no sleep) \[ms\].
    Pause,
    /// The time the task's dirtied pages are worth at task_ratelimit (3.3+) \[ms\].
    Period,
    /// Time since the task's last pause ended (3.3+) \[ms\].
    Think,
    /// The bdi's `write_bandwidth` estimate \[KB/s\].
    WriteBw,
    /// Its smoothed `avg_write_bandwidth` (`awrite_bw`) \[KB/s\].
    AwriteBw,
    /// The bdi's measured dirty rate \[KB/s\].
    DirtyRate,
    /// `balanced_dirty_ratelimit`, the rate estimate of patch 04 \[KB/s\].
    BalancedDirtyRatelimit,
    /// NR_WRITEBACK \[pages\].
    Writeback,
    /// NR_UNSTABLE_NFS, printed up to 5.7 \[pages\].
    Unstable,
    /// `background_thresh` \[pages\].
    BgThresh,
    /// `dirty_thresh` \[pages\].
    Thresh,
    /// NR_WRITTEN, a running total \[pages\].
    Written,
    /// The cgroup's inode number (4.x and later), an identifier.
    CgroupIno,
}

/// How a field appears in one event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Presence {
    /// Not part of this event.
    No,
    /// Printed by every release since the event exists (3.2; 3.1 for
    /// global_dirty_state): an event without it is truncated.
    Always,
    /// Printed by some releases only.
    Sometimes,
}

use Presence::{Always, No, Sometimes};

/// Name, other names, unit, and presence in (balance_dirty_pages,
/// bdi_dirty_ratelimit, global_dirty_state).
const FIELDS: [(Field, &str, &str, Unit, [Presence; 3]); 23] = [
    (Field::Limit, "limit", "", Unit::Pages, [Always, No, Always]),
    (Field::Setpoint, "setpoint", "", Unit::Pages, [Always, No, No]),
    (Field::Dirty, "dirty", "", Unit::Pages, [Always, No, Always]),
    (Field::BdiSetpoint, "bdi_setpoint", "wb_setpoint", Unit::Pages, [Always, No, No]),
    (Field::BdiDirty, "bdi_dirty", "wb_dirty", Unit::Pages, [Always, No, No]),
    (Field::DirtyRatelimit, "dirty_ratelimit", "", Unit::KBps, [Always, Always, No]),
    (Field::TaskRatelimit, "task_ratelimit", "", Unit::KBps, [Always, Always, No]),
    (Field::Dirtied, "dirtied", "", Unit::Pages, [Always, No, Always]),
    (Field::DirtiedPause, "dirtied_pause", "", Unit::Pages, [Always, No, No]),
    (Field::Paused, "paused", "", Unit::Ms, [Always, No, No]),
    (Field::Pause, "pause", "", Unit::Ms, [Always, No, No]),
    (Field::Period, "period", "", Unit::Ms, [Sometimes, No, No]),
    (Field::Think, "think", "", Unit::Ms, [Sometimes, No, No]),
    (Field::WriteBw, "write_bw", "", Unit::KBps, [No, Always, No]),
    (Field::AwriteBw, "awrite_bw", "", Unit::KBps, [No, Always, No]),
    (Field::DirtyRate, "dirty_rate", "", Unit::KBps, [No, Always, No]),
    (Field::BalancedDirtyRatelimit, "balanced_dirty_ratelimit", "", Unit::KBps, [No, Always, No]),
    (Field::Writeback, "writeback", "", Unit::Pages, [No, No, Always]),
    (Field::Unstable, "unstable", "", Unit::Pages, [No, No, Sometimes]),
    (Field::BgThresh, "bg_thresh", "", Unit::Pages, [No, No, Always]),
    (Field::Thresh, "thresh", "", Unit::Pages, [No, No, Always]),
    (Field::Written, "written", "", Unit::Pages, [No, No, Always]),
    (Field::CgroupIno, "cgroup_ino", "", Unit::Id, [Sometimes, Sometimes, No]),
];

/// Number of fields.
pub const FIELD_COUNT: usize = FIELDS.len();

impl Field {
    /// The field's current name as printed.
    pub fn name(self) -> &'static str {
        FIELDS[self as usize].1
    }

    /// The name other releases print it by (`wb_setpoint`), if any.
    pub fn other_name(self) -> Option<&'static str> {
        Some(FIELDS[self as usize].2).filter(|n| !n.is_empty())
    }

    /// Its unit.
    pub fn unit(self) -> Unit {
        FIELDS[self as usize].3
    }

    /// Position in the field table.
    pub fn index(self) -> usize {
        self as usize
    }

    /// Every field of `kind`.
    pub fn of(kind: EventKind) -> impl Iterator<Item = Field> {
        FIELDS.iter().filter(move |f| f.4[kind.index()] != No).map(|f| f.0)
    }

    /// The field a printed key names in an event of `kind`, if any.
    pub fn lookup(kind: EventKind, key: &str) -> Option<Field> {
        FIELDS.iter().find(|f| f.4[kind.index()] != No && (f.1 == key || (!f.2.is_empty() && f.2 == key))).map(|f| f.0)
    }

    /// True when every release prints it in `kind`.
    pub fn required(self, kind: EventKind) -> bool {
        FIELDS[self as usize].4[kind.index()] == Always
    }

    /// True when a printed value cannot be a real one: the kernel computed
    /// it with unsigned arithmetic that wrapped (`pause=-4294824915` in 3.3
    /// traces: 2³² jiffies-times-1000/HZ gone round). A time of 2³¹ ms is
    /// 24 days, a count of 2⁴⁸ pages an exbibyte.
    pub fn is_wrapped(self, value: i128) -> bool {
        match self.unit() {
            Unit::Ms => value.unsigned_abs() >= 1 << 31,
            Unit::Pages | Unit::KBps => !(0..1 << 48).contains(&value),
            Unit::Id => false,
        }
    }
}

/// A task as the trace names it: `comm-pid`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Task {
    /// The command name (up to 15 characters in the kernel; may hold
    /// spaces and dashes).
    pub comm: String,
    /// The thread id, when the line shows one.
    pub pid: Option<u32>,
}

impl std::fmt::Display for Task {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.pid {
            Some(pid) => write!(f, "{}-{pid}", self.comm),
            None => f.write_str(&self.comm),
        }
    }
}

/// Index of a bdi in the reader's list (first seen first).
pub type BdiId = u16;
/// Index of a task in the reader's list (first seen first).
pub type TaskId = u32;

/// One event of the trace, its fields by name.
#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    /// Which tracepoint.
    pub kind: EventKind,
    /// On the trace's clock, a later stretch of time order (after a step
    /// back of more than the reader's window: traces joined) moved to go
    /// on after the one before: the stamp plus `offset_s` \[s\].
    pub time_s: f64,
    /// Its stretch of time order, from 0, and what its stamps are moved by \[s\].
    pub stretch: u32,
    pub offset_s: f64,
    /// The task in whose context it fired.
    pub task: TaskId,
    /// The CPU it fired on, when shown.
    pub cpu: Option<u32>,
    /// The bdi, for balance_dirty_pages and bdi_dirty_ratelimit.
    pub bdi: Option<BdiId>,
    /// Printed values, wrapped ones included.
    values: [Option<i64>; FIELD_COUNT],
    /// Bit `i` set: field `i` was printed wrapped.
    wrapped: u32,
}

impl Event {
    /// An event with no fields yet.
    pub fn new(kind: EventKind, time_s: f64, task: TaskId, cpu: Option<u32>, bdi: Option<BdiId>) -> Event {
        Event { kind, time_s, stretch: 0, offset_s: 0.0, task, cpu, bdi, values: [None; FIELD_COUNT], wrapped: 0 }
    }

    /// Sets a field from its printed value, noting a wrapped one.
    pub fn set(&mut self, field: Field, value: i128) {
        if field.is_wrapped(value) {
            self.wrapped |= 1 << field.index();
        }
        self.values[field.index()] = Some(value.clamp(i64::MIN as i128, i64::MAX as i128) as i64);
    }

    /// The field's value; None when absent or wrapped.
    pub fn get(&self, field: Field) -> Option<i64> {
        if self.wrapped & (1 << field.index()) != 0 { None } else { self.values[field.index()] }
    }

    /// True when the line printed this field (wrapped or not).
    pub fn has(&self, field: Field) -> bool {
        self.values[field.index()].is_some()
    }

    /// The fields printed wrapped.
    pub fn wrapped(&self) -> impl Iterator<Item = Field> + '_ {
        Field::of(self.kind).filter(|f| self.wrapped & (1 << f.index()) != 0)
    }

    /// A page count or rate as f64; None when absent or wrapped.
    pub fn f(&self, field: Field) -> Option<f64> {
        self.get(field).map(|v| v as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_in_field_order() {
        for (i, f) in FIELDS.iter().enumerate() {
            assert_eq!(f.0.index(), i, "{:?}", f.0);
        }
    }

    #[test]
    fn names_of_every_release_find_the_same_field() {
        let bdp = EventKind::BalanceDirtyPages;
        assert_eq!(Field::lookup(bdp, "bdi_setpoint"), Some(Field::BdiSetpoint));
        assert_eq!(Field::lookup(bdp, "wb_setpoint"), Some(Field::BdiSetpoint));
        assert_eq!(Field::lookup(bdp, "wb_dirty"), Some(Field::BdiDirty));
        assert_eq!(Field::lookup(bdp, "write_bw"), None, "not a balance_dirty_pages field");
        assert_eq!(Field::lookup(EventKind::GlobalDirtyState, "unstable"), Some(Field::Unstable));
        assert_eq!(Field::lookup(EventKind::GlobalDirtyState, "cgroup_ino"), None);
        assert_eq!(EventKind::from_name("writeback:bdi_dirty_ratelimit"), Some(EventKind::BdiDirtyRatelimit));
        assert_eq!(EventKind::from_name("writeback_single_inode"), None);
    }

    #[test]
    fn the_3_2_fields_are_required_and_later_ones_are_not() {
        let bdp = EventKind::BalanceDirtyPages;
        assert!(Field::Pause.required(bdp) && Field::Paused.required(bdp));
        assert!(!Field::Period.required(bdp) && !Field::Think.required(bdp) && !Field::CgroupIno.required(bdp));
        assert!(!Field::Unstable.required(EventKind::GlobalDirtyState));
        assert_eq!(Field::of(EventKind::BdiDirtyRatelimit).count(), 7);
    }

    #[test]
    fn wrapped_values_are_told_apart() {
        assert!(Field::Pause.is_wrapped(-4294824915));
        assert!(!Field::Pause.is_wrapped(-12));
        assert!(!Field::Think.is_wrapped(200_000));
        assert!(Field::Dirty.is_wrapped(18446744073709551615));
        assert!(Field::Dirty.is_wrapped(-1));
        assert!(!Field::Dirty.is_wrapped(76812));
        let mut e = Event::new(EventKind::BalanceDirtyPages, 1.0, 0, None, Some(0));
        e.set(Field::Pause, -4294824915);
        e.set(Field::Dirty, 100);
        assert_eq!((e.get(Field::Pause), e.has(Field::Pause)), (None, true));
        assert_eq!(e.get(Field::Dirty), Some(100));
        assert_eq!(e.wrapped().collect::<Vec<_>>(), [Field::Pause]);
    }
}
