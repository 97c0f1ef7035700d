//! The range of every number and the rules for every name read from a
//! file (scenario, lesson, recording): the same as the command line's, so
//! that a file can ask for nothing the command line refuses. Values are
//! checked as they are read, so an error points at the value
//! (`path:line:col: memory_mb must be between 16 and 4194304 MiB, got 0`).

use std::fmt::Display;

use serde::de::Error as _;
use serde::{Deserialize, Deserializer};

use crate::error::{Error, Result};

/// An inclusive range of acceptable values and their unit.
#[derive(Clone, Copy, Debug)]
pub struct Range<T> {
    /// Smallest acceptable value.
    pub lo: T,
    /// Largest acceptable value.
    pub hi: T,
    /// Unit shown after the bounds ("MiB", "s"; empty for counts).
    pub unit: &'static str,
}

/// Numbers a range can bound.
pub trait Bounded: Copy + PartialOrd + Display {
    /// A number that can be compared (not NaN, not infinite).
    fn is_number(self) -> bool;

    /// As a message shows it (huge and tiny floats in scientific notation).
    fn shown(self) -> String {
        self.to_string()
    }
}

macro_rules! integers_are_bounded {
    ($($t:ty)*) => { $(impl Bounded for $t { fn is_number(self) -> bool { true } })* };
}
integers_are_bounded!(u8 u32 u64 i32 usize);

impl Bounded for f64 {
    fn is_number(self) -> bool {
        self.is_finite()
    }

    fn shown(self) -> String {
        if self != 0.0 && !(1e-3..1e9).contains(&self.abs()) { format!("{self:e}") } else { self.to_string() }
    }
}

impl<T: Bounded> Range<T> {
    /// `v` if it lies in the range, else a message naming `field` and the range.
    pub fn check(&self, field: &str, v: T) -> Result<T> {
        if v.is_number() && v >= self.lo && v <= self.hi { Ok(v) } else { Err(self.refusal(field, &v.shown())) }
    }

    /// The message for a value of `field`, shown as `got`, outside the range.
    fn refusal(&self, field: &str, got: &str) -> Error {
        let unit = if self.unit.is_empty() { String::new() } else { format!(" {}", self.unit) };
        Error::invalid(format!("{field} must be between {} and {}{unit}, got {got}", self.lo.shown(), self.hi.shown()))
    }

    /// True when `v` lies in the range.
    pub fn contains(&self, v: T) -> bool {
        v.is_number() && v >= self.lo && v <= self.hi
    }
}

/// Memory \[MiB\]: 16 MiB to 4 TiB, as `--memory`.
pub const MEMORY_MB: Range<u64> = Range { lo: 16, hi: 4 << 20, unit: "MiB" };
/// Memory set aside from the page cache \[MiB\].
pub const RESERVED_MB: Range<u64> = Range { lo: 0, hi: 4 << 20, unit: "MiB" };
/// CPUs, as `--cpus`.
pub const CPUS: Range<usize> = Range { lo: 1, hi: 4096, unit: "" };
/// Ratios \[%\], as `--dirty-ratio`.
pub const PERCENT: Range<u64> = Range { lo: 0, hi: 100, unit: "%" };
/// `vm.dirty_bytes` \[bytes\]: a page to 4 TiB, as `--dirty-bytes`.
pub const DIRTY_BYTES: Range<u64> = Range { lo: 4096, hi: 4 << 40, unit: "bytes" };
/// `vm.dirty_background_bytes` \[bytes\], as `--dirty-background-bytes`
/// (the kernel refuses 0: the ratio is set by writing the ratio).
pub const BACKGROUND_BYTES: Range<u64> = Range { lo: 1, hi: 4 << 40, unit: "bytes" };
/// `vm.dirty_bytes` in a lesson \[MiB\].
pub const DIRTY_MB: Range<u64> = Range { lo: 1, hi: 4 << 20, unit: "MiB" };
/// `vm.dirty_background_bytes` in a lesson \[MiB\] (not 0, as above).
pub const BACKGROUND_MB: Range<u64> = Range { lo: 1, hi: 4 << 20, unit: "MiB" };
/// Floating-proportion period shift, as `--period-shift`: at most 32.
/// The kernel derives at most 31 (4 TiB of memory); above 32 (up to its
/// PROP_MAX_SHIFT, 48) the proportions' denominator, 2^(shift-1) and
/// more, overflows do_div()'s 32-bit divisor in bdi_dirty_limit() and
/// every bdi would get the whole threshold.
pub const PERIOD_SHIFT: Range<i32> = Range { lo: 2, hi: 32, unit: "" };
/// Patch level, as `--patches`.
pub const PATCHES: Range<u8> = Range { lo: 0, hi: 11, unit: "" };
/// Length of a run \[s\]: at least a jiffy at HZ 1000, at most `--duration`'s cap.
pub const DURATION_S: Range<f64> = Range { lo: 0.001, hi: 1e6, unit: "s" };
/// Times within a run: starts, stops, spreads \[s\].
pub const TIME_S: Range<f64> = Range { lo: 0.0, hi: 1e6, unit: "s" };
/// A light writer's period \[s\].
pub const PERIOD_S: Range<f64> = Range { lo: 0.001, hi: 1e6, unit: "s" };
/// Tasks of one group per bdi, as `--dd`.
pub const TASKS_PER_BDI: Range<u32> = Range { lo: 0, hi: crate::scenario::MAX_DD_PER_BDI, unit: "" };
/// Tasks a lesson step starts or stops per bdi.
pub const TASKS_ADDED: Range<u32> = Range { lo: 1, hi: crate::scenario::MAX_DD_PER_BDI, unit: "" };
/// Disks of a RAID0 or JBOD (named `a` to `z`).
pub const DISKS: Range<u32> = Range { lo: 1, hi: 26, unit: "" };
/// One disk's or link's bandwidth \[MiB/s\]; 26 of them stay under the
/// engine's 1 TB/s.
pub const BANDWIDTH_MBPS: Range<f64> = Range { lo: 0.001, hi: 30_000.0, unit: "MiB/s" };
/// How fast a CPU copies written data into the page cache \[MiB/s\].
pub const COPY_MBPS: Range<f64> = Range { lo: 1.0, hi: 100_000.0, unit: "MiB/s" };
/// Seek time \[ms\].
pub const SEEK_MS: Range<f64> = Range { lo: 0.0, hi: 1000.0, unit: "ms" };
/// Request slots of a device.
pub const QUEUE_DEPTH: Range<usize> = Range { lo: 1, hi: 100_000, unit: "requests" };
/// Relative spread of transfer times.
pub const NOISE: Range<f64> = Range { lo: 0.0, hi: 0.89, unit: "" };
/// Journal commits, round trips, COMMIT costs \[ms\].
pub const DELAY_MS: Range<f64> = Range { lo: 0.0, hi: 10_000.0, unit: "ms" };
/// Share of recent writeouts at time 0.
pub const SHARE: Range<f64> = Range { lo: 0.0, hi: 1e6, unit: "" };
/// A dd's total \[MiB\].
pub const COUNT_MB: Range<u64> = Range { lo: 1, hi: 1 << 30, unit: "MiB" };
/// A pipeline's buffer \[MiB\]: a page to 64 GiB.
pub const BUFFER_MB: Range<f64> = Range { lo: 1.0 / 256.0, hi: 65_536.0, unit: "MiB" };
/// A light writer's burst \[KiB\]: a byte's worth to 1 GiB.
pub const BURST_KB: Range<u64> = Range { lo: 1, hi: 1 << 20, unit: "KiB" };
/// How long a lesson step runs, and check windows \[s\].
pub const STEP_S: Range<f64> = Range { lo: 0.001, hi: 3600.0, unit: "s" };
/// The IO-less side of a comparison: patches 1 to 11.
pub const COMPARED_PATCHES: Range<u8> = Range { lo: 1, hi: 11, unit: "" };
/// The other side's dirty ratio in a comparison \[%\], as `--compare dirty-ratio=N`.
pub const COMPARED_RATIO: Range<u64> = Range { lo: 1, hi: 100, unit: "%" };
/// A chart number (0: all).
pub const CHART: Range<u8> = Range { lo: 0, hi: 5, unit: "" };
/// A question's tolerance (relative error): at least 0.1%, as an answer
/// is typed and the simulation's value shown rounded; at most 100% (a
/// teacher's `10` meant 10%, and would count any answer up to 11 times
/// the value).
pub const TOLERANCE: Range<f64> = Range { lo: 0.001, hi: 1.0, unit: "(a fraction: 0.1 is 10%)" };
/// A check's bounds.
pub const BOUND: Range<f64> = Range { lo: -1e18, hi: 1e18, unit: "" };
/// Longest name of a scenario, device or lesson \[characters\].
pub const MAX_NAME_CHARS: usize = 200;

/// The timer frequencies the kernel offers, as `--hz`.
pub const HZ: [u64; 4] = [100, 250, 300, 1000];
/// A seed of the random generator: any 64-bit number.
pub const SEED: Range<u64> = Range { lo: 0, hi: u64::MAX, unit: "" };

/// Checks a name: printable characters only, none of them unseen (a
/// zero-width space made two devices both shown as `a`), at most
/// [`MAX_NAME_CHARS`]. `what` names it in the message.
pub fn check_name(what: &str, name: &str) -> Result<()> {
    if let Some(c) = name.chars().find(|&c| crate::error::unseen(c)) {
        let kind = if c.is_control() { "a control character" } else { "an invisible or reordering character" };
        return Err(Error::invalid(format!(
            "{what} `{}` holds {kind} ({}): names are printable text",
            crate::error::printable(name),
            c.escape_unicode()
        )));
    }
    if name.chars().count() > MAX_NAME_CHARS {
        return Err(Error::invalid(format!("{what} is longer than {MAX_NAME_CHARS} characters")));
    }
    // Something to see: not only joiners and lone accents among blanks
    // (blanks alone, its reader calls empty in its own words).
    let blank =
        |c: char| c.is_whitespace() || matches!(c, '\u{200c}' | '\u{200d}' | '\u{2800}' | '\u{300}'..='\u{36f}');
    if !name.trim().is_empty() && name.chars().all(blank) {
        return Err(Error::invalid(format!(
            "{what} `{}` shows nothing: names hold a visible character",
            name.escape_unicode()
        )));
    }
    Ok(())
}

/// Checks text shown on screen: printable characters, line breaks and tabs.
pub fn check_text(what: &str, text: &str) -> Result<()> {
    match text.chars().find(|&c| c.is_control() && c != '\n' && c != '\t') {
        Some(c) => {
            Err(Error::invalid(format!("{what} holds a control character ({}): text is printable", c.escape_unicode())))
        }
        None => Ok(()),
    }
}

/// Numbers a file holds, read and checked against a range.
pub trait Readable: Bounded {
    /// Reads the value of `field` and checks it against `range`.
    fn read<'de, D: Deserializer<'de>>(d: D, field: &str, range: &Range<Self>) -> std::result::Result<Self, D::Error>;
}

impl Readable for f64 {
    fn read<'de, D: Deserializer<'de>>(d: D, field: &str, range: &Range<f64>) -> std::result::Result<f64, D::Error> {
        let v = match d.deserialize_any(WideVisitor { field, float: true })? {
            Wide::Integer(v) => v as f64,
            Wide::Float(v) => v,
        };
        range.check(field, v).map_err(D::Error::custom)
    }
}

/// An integer as a file writes it, whatever its size: RON reads one past
/// 64 bits as a float.
enum Wide {
    Integer(i128),
    Float(f64),
}

/// Reads a [`Wide`] of a field (named where a value of another kind is
/// refused), a whole number unless `float`.
struct WideVisitor<'a> {
    field: &'a str,
    float: bool,
}

impl serde::de::Visitor<'_> for WideVisitor<'_> {
    type Value = Wide;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        let number = if self.float { "a number" } else { "a whole number" };
        // A size is written in bytes: `104857600`, not `"100M"`.
        let bytes = if self.field.ends_with("_bytes") { " of bytes" } else { "" };
        write!(f, "{number}{bytes} for {}", self.field)
    }

    fn visit_i64<E>(self, v: i64) -> std::result::Result<Wide, E> {
        Ok(Wide::Integer(v.into()))
    }

    fn visit_u64<E>(self, v: u64) -> std::result::Result<Wide, E> {
        Ok(Wide::Integer(v.into()))
    }

    fn visit_i128<E>(self, v: i128) -> std::result::Result<Wide, E> {
        Ok(Wide::Integer(v))
    }

    fn visit_u128<E>(self, v: u128) -> std::result::Result<Wide, E> {
        Ok(i128::try_from(v).map_or(Wide::Float(v as f64), Wide::Integer))
    }

    fn visit_f64<E>(self, v: f64) -> std::result::Result<Wide, E> {
        Ok(Wide::Float(v))
    }
}

/// Reads a whole number of `field` of any size: `Ok(Err(shown))` for
/// one past 128 bits, as a message shows it.
fn wide<'de, D: Deserializer<'de>>(
    d: D,
    field: &str,
) -> std::result::Result<std::result::Result<i128, String>, D::Error> {
    match d.deserialize_any(WideVisitor { field, float: false })? {
        Wide::Integer(v) => Ok(Ok(v)),
        // A whole float within 64 bits is that integer (4096.0 is 4096);
        // past them it may be an integer RON could not hold, and is shown
        // as a float (1e20), not as digits it was not written with.
        Wide::Float(v) if v.fract() == 0.0 && v.abs() < 9.2e18 => Ok(Ok(v as i128)),
        Wide::Float(v) if v.is_finite() && v.fract() == 0.0 => Ok(Err(v.shown())),
        Wide::Float(v) => Err(D::Error::custom(format!("{field} must be a whole number, got {}", v.shown()))),
    }
}

/// Reads a whole number of any size: one past `T`'s range is refused
/// with the range of `field`, as one past the range itself is.
fn whole<'de, T, D>(d: D, field: &str, range: &Range<T>) -> std::result::Result<T, D::Error>
where
    T: Bounded + TryFrom<i128>,
    D: Deserializer<'de>,
{
    let v = wide(d, field)?.map_err(|shown| D::Error::custom(range.refusal(field, &shown)))?;
    match T::try_from(v) {
        Ok(v) => range.check(field, v).map_err(D::Error::custom),
        Err(_) => Err(D::Error::custom(range.refusal(field, &v.to_string()))),
    }
}

macro_rules! integers_are_readable {
    ($($t:ty)*) => {$(
        impl Readable for $t {
            fn read<'de, D: Deserializer<'de>>(
                d: D,
                field: &str,
                range: &Range<$t>,
            ) -> std::result::Result<$t, D::Error> {
                whole(d, field, range)
            }
        }
    )*};
}
integers_are_readable!(u8 u32 u64 i32 usize);

/// Reads an optional value of `field` (`None`, `Some(v)` or `v`) and
/// checks a given one against `range`.
fn optional<'de, T: Readable, D: Deserializer<'de>>(
    d: D,
    field: &str,
    range: &Range<T>,
) -> std::result::Result<Option<T>, D::Error> {
    struct Optional<'a, T> {
        field: &'a str,
        range: &'a Range<T>,
    }

    impl<'de, T: Readable> serde::de::Visitor<'de> for Optional<'_, T> {
        type Value = Option<T>;

        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            write!(f, "a value of {} or none", self.field)
        }

        fn visit_none<E>(self) -> std::result::Result<Option<T>, E> {
            Ok(None)
        }

        fn visit_unit<E>(self) -> std::result::Result<Option<T>, E> {
            Ok(None)
        }

        fn visit_some<D: Deserializer<'de>>(self, d: D) -> std::result::Result<Option<T>, D::Error> {
            T::read(d, self.field, self.range).map(Some)
        }
    }

    d.deserialize_option(Optional { field, range })
}

/// Deserializers for scenario, lesson and recording fields, each
/// checking its range as it reads.
macro_rules! ranged {
    ($($name:ident: $t:ty = $range:expr, $field:literal;)*) => {$(
        #[doc = concat!("Reads `", $field, "` and checks its range.")]
        pub fn $name<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<$t, D::Error> {
            <$t>::read(d, $field, &$range)
        }
    )*};
}

/// Deserializers of optional fields, checking the range of a given value.
macro_rules! ranged_option {
    ($($name:ident: $t:ty = $range:expr, $field:literal;)*) => {$(
        #[doc = concat!("Reads an optional `", $field, "` and checks its range.")]
        pub fn $name<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<Option<$t>, D::Error> {
            optional(d, $field, &$range)
        }
    )*};
}

ranged! {
    memory_mb: u64 = MEMORY_MB, "memory_mb";
    cpus: usize = CPUS, "cpus";
    dirty_ratio: u64 = PERCENT, "dirty_ratio";
    dirty_background_ratio: u64 = PERCENT, "dirty_background_ratio";
    patches: u8 = PATCHES, "patches";
    duration_s: f64 = DURATION_S, "duration_s";
    tasks_per_bdi: u32 = TASKS_PER_BDI, "n";
    tasks_added: u32 = TASKS_ADDED, "n";
    start_s: f64 = TIME_S, "start_s";
    spread_s: f64 = TIME_S, "spread_s";
    net_mbps: f64 = BANDWIDTH_MBPS, "net_mbps";
    buffer_mb: f64 = BUFFER_MB, "buffer_mb";
    burst_kb: u64 = BURST_KB, "burst_kb";
    period_s: f64 = PERIOD_S, "period_s";
    run_s: f64 = STEP_S, "run_s";
    window_s: f64 = STEP_S, "window_s";
    tolerance: f64 = TOLERANCE, "tolerance";
    lesson_ratio: u64 = PERCENT, "the ratio";
    lesson_dirty_mb: u64 = DIRTY_MB, "DirtyBytesMb";
    lesson_background_mb: u64 = BACKGROUND_MB, "DirtyBackgroundBytesMb";
    lesson_memory_mb: u64 = MEMORY_MB, "MemoryMb";
    lesson_patches: u8 = PATCHES, "the patch level";
    chart: u8 = CHART, "the chart";
    compared_patches: u8 = COMPARED_PATCHES, "the compared patch level";
    compared_ratio: u64 = COMPARED_RATIO, "the compared dirty ratio";
    seed: u64 = SEED, "seed";
}

ranged_option! {
    opt_reserved_mb: u64 = RESERVED_MB, "reserved_mb";
    opt_dirty_bytes: u64 = DIRTY_BYTES, "dirty_bytes";
    opt_background_bytes: u64 = BACKGROUND_BYTES, "dirty_background_bytes";
    opt_period_shift: i32 = PERIOD_SHIFT, "period_shift";
    opt_disks: u32 = DISKS, "disks";
    opt_bandwidth_mbps: f64 = BANDWIDTH_MBPS, "bandwidth_mbps";
    opt_copy_mbps: f64 = COPY_MBPS, "copy_mbps";
    opt_seek_ms: f64 = SEEK_MS, "seek_ms";
    opt_queue_depth: usize = QUEUE_DEPTH, "queue_depth";
    opt_noise: f64 = NOISE, "noise";
    opt_flush_ms: f64 = DELAY_MS, "flush_ms";
    opt_rtt_ms: f64 = DELAY_MS, "rtt_ms";
    opt_server_mbps: f64 = BANDWIDTH_MBPS, "server_mbps";
    opt_server_cache_mb: u64 = RESERVED_MB, "server_cache_mb";
    opt_server_commit_ms: f64 = DELAY_MS, "server_commit_ms";
    opt_server_seek_ms: f64 = SEEK_MS, "server_seek_ms";
    opt_server_background_mb: u64 = RESERVED_MB, "server_background_mb";
    opt_share: f64 = SHARE, "initial_share";
    opt_count_mb: u64 = COUNT_MB, "count_mb";
    opt_stop_s: f64 = TIME_S, "stop_s";
    opt_dirty_ratio: u64 = PERCENT, "dirty_ratio";
    opt_dirty_background_ratio: u64 = PERCENT, "dirty_background_ratio";
    opt_memory_mb: u64 = MEMORY_MB, "memory_mb";
    opt_cpus: usize = CPUS, "cpus";
    opt_dd: u32 = TASKS_PER_BDI, "dd";
    opt_patches: u8 = PATCHES, "patches";
    opt_bound: f64 = BOUND, "a bound";
    opt_seed: u64 = SEED, "seed";
}

/// Reads `hz`: one of [`HZ`].
pub fn hz<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<u64, D::Error> {
    let shown = match wide(d, "hz")? {
        Ok(v) => match u64::try_from(v) {
            Ok(v) => return check_hz(v).map_err(D::Error::custom),
            Err(_) => v.to_string(),
        },
        Err(shown) => shown,
    };
    Err(D::Error::custom(format!("hz must be 100, 250, 300 or 1000, got {shown}")))
}

/// Reads an optional `hz`.
pub fn opt_hz<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<Option<u64>, D::Error> {
    struct Hz(u64);

    impl<'de> Deserialize<'de> for Hz {
        fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Hz, D::Error> {
            hz(d).map(Hz)
        }
    }

    Ok(Option::<Hz>::deserialize(d)?.map(|Hz(v)| v))
}

/// `hz` if the kernel offers it.
pub fn check_hz(hz: u64) -> Result<u64> {
    if HZ.contains(&hz) { Ok(hz) } else { Err(Error::invalid(format!("hz must be 100, 250, 300 or 1000, got {hz}"))) }
}

/// Reads a task's block size (`4k`, `1M`, `512`): a divisor of the page
/// of at least 512 bytes, or a multiple of the page up to 1 GiB.
pub fn block_size<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<String, D::Error> {
    let s = String::deserialize(d)?;
    check_block_size(&s).map_err(D::Error::custom)?;
    Ok(s)
}

/// `bs` if it is a block size a task may write with.
pub fn check_block_size(bs: &str) -> Result<u64> {
    let shown = crate::error::printable(bs);
    let bytes = super::size(bs).map_err(|e| {
        Error::invalid(match e {
            super::SizeError::Malformed => format!("block size `{shown}` is not a size like 4k or 1M"),
            super::SizeError::PartByte => {
                format!("block size must be 512, 1k, 2k or a multiple of 4k up to 1G, got `{shown}` (a part of a byte)")
            }
            super::SizeError::TooLarge => format!("block size `{shown}` is too large: at most 1G"),
        })
    })?;
    if !crate::sim::engine::block_size_ok(bytes) {
        return Err(Error::invalid(format!(
            "block size must be 512, 1k, 2k or a multiple of 4k up to 1G, got `{shown}` ({bytes} bytes)"
        )));
    }
    Ok(bytes)
}

/// Reads a name: printable, not too long.
pub fn name<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<String, D::Error> {
    let s = String::deserialize(d)?;
    check_name("the name", &s).map_err(D::Error::custom)?;
    Ok(s)
}

/// Reads text shown on screen: printable, line breaks allowed.
pub fn text<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<String, D::Error> {
    let s = String::deserialize(d)?;
    check_text("the text", &s).map_err(D::Error::custom)?;
    Ok(s)
}

/// Reads optional text shown on screen.
pub fn opt_text<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<Option<String>, D::Error> {
    let s = Option::<String>::deserialize(d)?;
    if let Some(s) = &s {
        check_text("the text", s).map_err(D::Error::custom)?;
    }
    Ok(s)
}

/// Reads an optional name.
pub fn opt_name<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<Option<String>, D::Error> {
    let s = Option::<String>::deserialize(d)?;
    if let Some(s) = &s {
        check_name("the name", s).map_err(D::Error::custom)?;
    }
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_name_the_field_and_the_bounds() {
        assert_eq!(MEMORY_MB.check("memory_mb", 16).ok(), Some(16));
        assert_eq!(
            MEMORY_MB.check("memory_mb", 0).unwrap_err().to_string(),
            "memory_mb must be between 16 and 4194304 MiB, got 0"
        );
        assert_eq!(
            TOLERANCE.check("tolerance", 10.0).unwrap_err().to_string(),
            "tolerance must be between 0.001 and 1 (a fraction: 0.1 is 10%), got 10"
        );
        assert!(DURATION_S.check("duration_s", 1e300).is_err());
        assert!(DURATION_S.check("duration_s", f64::NAN).is_err());
        assert!(DURATION_S.check("duration_s", 1e-10).is_err());
        assert_eq!(
            TASKS_ADDED.check("n", 4294967295).unwrap_err().to_string(),
            "n must be between 1 and 10000, got 4294967295"
        );
        assert!(check_hz(7).is_err() && check_hz(250).is_ok());
    }

    #[test]
    fn block_sizes_are_those_a_task_can_write() {
        assert_eq!(check_block_size("4k").ok(), Some(4096));
        assert_eq!(check_block_size("512").ok(), Some(512));
        assert_eq!(check_block_size("1G").ok(), Some(1 << 30));
        for bad in ["0", "0.5", "3k", "256", "2G", "16T"] {
            assert!(check_block_size(bad).unwrap_err().to_string().starts_with("block size must be"), "{bad}");
        }
        assert_eq!(
            check_block_size("0.5").unwrap_err().to_string(),
            "block size must be 512, 1k, 2k or a multiple of 4k up to 1G, got `0.5` (a part of a byte)"
        );
        assert!(check_block_size("-4k").unwrap_err().to_string().contains("is not a size like 4k or 1M"));
        assert_eq!(
            check_block_size("99999999999T").unwrap_err().to_string(),
            "block size `99999999999T` is too large: at most 1G"
        );
    }

    #[test]
    fn names_are_printable() {
        assert!(check_name("name", "sd\"a,b\\").is_ok());
        let e = check_name("name", "x\u{1b}]0;owned\u{7}").unwrap_err().to_string();
        assert!(e.contains("\\u{1b}") && !e.contains('\u{1b}'), "{e}");
        let e = check_name("device name", "a\u{200b}").unwrap_err().to_string();
        assert_eq!(
            e,
            "device name `a\\u{200b}` holds an invisible or reordering character (\\u{200b}): names are printable text"
        );
        for c in ['\u{2028}', '\u{202e}', '\u{feff}', '\u{2066}'] {
            assert!(check_name("name", &format!("a{c}b")).is_err(), "{}", c.escape_unicode());
        }
        for c in ['\u{e0061}', '\u{fe0f}', '\u{34f}', '\u{3164}'] {
            assert!(check_name("name", &format!("a{c}")).is_err(), "{}", c.escape_unicode());
        }
        assert!(
            check_name("name", "disque à café 硬盘 می\u{200c}خواهم").is_ok(),
            "a zero-width non-joiner spells Persian"
        );
        for blank in [" \u{200c}", "\u{200c}", "\u{200d}\u{200c}", "\u{301}", "\u{2800}"] {
            let e = check_name("the name", blank).unwrap_err().to_string();
            assert!(e.ends_with("shows nothing: names hold a visible character"), "{e}");
        }
        assert!(check_text("text", "two\nlines\tand a tab").is_ok());
        assert!(check_text("text", "bell\u{7}").is_err());
    }
}
