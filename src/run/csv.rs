//! The time series file (`--csv`): one row per sample interval, global
//! columns then each bdi's, in MiB and MiB/s. Fields are quoted as RFC 4180
//! says (a bdi name holding a comma, a quote or a line break is quoted,
//! its quotes doubled). Rows end with a line feed, as Unix tools expect;
//! RFC 4180 readers accept it. A quantity the run's kernel does not
//! compute ([`KernelHas`]) has an empty cell.

use std::borrow::Cow;
use std::path::Path;

use super::digits::{push_fixed, push_u64};
use super::summary::KernelHas;
use crate::error::Result;
use crate::output::AtomicFile;
use crate::sim::NS_PER_SEC;
use crate::sim::metrics::Sample;
use crate::units::mib;

/// Global columns, in order.
pub const GLOBAL_COLUMNS: &[&str] = &[
    "time_s",
    "dirty_mb",
    "writeback_mb",
    "unstable_mb",
    "thresh_mb",
    "bg_thresh_mb",
    "freerun_mb",
    "setpoint_mb",
    "limit_mb",
    "dirtyable_mb",
    "dirty_pct",
];

/// Per-bdi columns after the bdi name, in order.
pub const BDI_COLUMNS: &[&str] = &[
    "dirty_mb",
    "writeback_mb",
    "thresh_mb",
    "setpoint_mb",
    "write_bw_mbps",
    "avg_write_bw_mbps",
    "dirty_ratelimit_mbps",
    "balanced_ratelimit_mbps",
    "dirtied_mbps",
    "written_mbps",
    "task_ratelimit_mbps",
    "pos_ratio",
    "tasks",
];

/// A field as RFC 4180 writes it: quoted when it holds a comma, a quote or
/// a line break, with its quotes doubled.
pub fn field(text: &str) -> Cow<'_, str> {
    if text.contains([',', '"', '\r', '\n']) {
        Cow::Owned(format!("\"{}\"", text.replace('"', "\"\"")))
    } else {
        Cow::Borrowed(text)
    }
}

/// Appends a sample's time in seconds: one decimal on the 100 ms grid; a
/// sample off it (taken when a setting changed) at least three, and as many
/// more as it takes to write the instant exactly, so that a change 50 µs
/// after a sample is `0.00005`, never a second `0.000` beside `0.0`.
fn push_time(out: &mut Vec<u8>, t_ns: u64) {
    let (secs, frac_ns) = (t_ns / NS_PER_SEC, t_ns % NS_PER_SEC);
    push_u64(out, secs);
    out.push(b'.');
    let fewest = if frac_ns.is_multiple_of(NS_PER_SEC / 10) { 1 } else { 3 };
    let mut digits = 9;
    let mut frac = frac_ns;
    while digits > fewest && frac.is_multiple_of(10) {
        frac /= 10;
        digits -= 1;
    }
    // Zero-padded to `digits`: the digits of 10^digits + frac, without
    // the leading 1.
    let start = out.len();
    push_u64(out, 10u64.pow(digits) + frac);
    out.remove(start);
}

/// Writes a CSV time series.
pub struct CsvFile {
    out: AtomicFile,
    /// The row being written, kept from row to row.
    buf: Vec<u8>,
}

impl CsvFile {
    /// Starts a CSV file at `path` with the header for `bdis`.
    pub fn create(path: &Path, bdis: &[String]) -> Result<CsvFile> {
        let mut f = CsvFile { out: AtomicFile::create(path)?, buf: Vec::with_capacity(1 << 12) };
        let mut header = GLOBAL_COLUMNS.join(",");
        for b in bdis {
            for c in BDI_COLUMNS {
                header.push(',');
                header.push_str(&field(&format!("{b}.{c}")));
            }
        }
        header.push('\n');
        f.out.put(header.as_bytes())?;
        Ok(f)
    }

    /// The path as the user gave it.
    pub fn path(&self) -> &Path {
        self.out.path()
    }

    /// Writes the row of `s`, taken on a kernel that computes what `has`
    /// says (the cells of the rest are empty); rates are over the time
    /// since `prev` (0 without one), the latest row at least
    /// [`RATE_SPAN_NS`](crate::sim::metrics::RATE_SPAN_NS) earlier. Times: one decimal on the 100 ms grid, else exact.
    pub fn row(&mut self, s: &Sample, prev: Option<&Sample>, has: KernelHas) -> Result<()> {
        let b = &mut self.buf;
        b.clear();
        push_time(b, s.t_ns);
        // A cell of `pages` in MiB, empty where the kernel has no such value.
        let cell = |b: &mut Vec<u8>, known: bool, mb: f64| {
            b.push(b',');
            if known {
                push_fixed(b, mb, 3);
            }
        };
        for (known, pages) in [
            (true, s.dirty),
            (true, s.writeback),
            (true, s.unstable),
            (true, s.thresh),
            (true, s.bg_thresh),
            (true, s.freerun),
            (has.setpoint, s.setpoint),
            (has.smoothed_limit, s.limit),
            (true, s.dirtyable),
        ] {
            cell(b, known, mib(pages));
        }
        b.push(b',');
        push_fixed(b, 100.0 * s.dirty as f64 / s.dirtyable.max(1) as f64, 3);
        let interval_s = prev.map_or(0.0, |p| s.t_ns.saturating_sub(p.t_ns) as f64 / 1e9);
        for (i, bdi) in s.bdis.iter().enumerate() {
            let (dirtied, written) = match prev.and_then(|p| p.bdis.get(i)) {
                Some(p) if interval_s > 0.0 => {
                    (mib(bdi.dirtied - p.dirtied) / interval_s, mib(bdi.written - p.written) / interval_s)
                }
                _ => (0.0, 0.0),
            };
            for (known, mb) in [
                (true, mib(bdi.dirty)),
                (true, mib(bdi.writeback)),
                (true, mib(bdi.thresh)),
                (has.setpoint, mib(bdi.setpoint)),
                (has.bandwidth, mib(bdi.write_bw)),
                (has.bandwidth, mib(bdi.avg_write_bw)),
                (has.dirty_ratelimit, mib(bdi.dirty_ratelimit)),
                (has.dirty_ratelimit, mib(bdi.balanced_ratelimit)),
                (true, dirtied),
                (true, written),
                (has.dirty_ratelimit && bdi.task_ratelimit_now().is_some(), mib(bdi.task_ratelimit)),
            ] {
                cell(b, known, mb);
            }
            b.push(b',');
            // Empty where the kernel computes no pos_ratio.
            if let Some(p) = bdi.pos_ratio {
                push_fixed(b, p as f64 / 1024.0, 4);
            }
            b.push(b',');
            push_u64(b, u64::from(bdi.tasks));
        }
        b.push(b'\n');
        self.out.put(&self.buf)
    }

    /// Completes the file: it replaces the file at its path.
    pub fn commit(self) -> Result<()> {
        self.out.commit()
    }

    /// The file, to commit with other outputs.
    pub fn into_output(self) -> AtomicFile {
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_quoted_as_rfc_4180_says() {
        assert_eq!(field("sda.dirty_mb"), "sda.dirty_mb");
        assert_eq!(field("sd\"a,b\\.dirty_mb"), "\"sd\"\"a,b\\.dirty_mb\"");
        assert_eq!(field("two\nlines"), "\"two\nlines\"");
    }

    #[test]
    fn times_are_exact_and_one_decimal_on_the_grid() {
        let time = |t_ns: u64| {
            let mut b = Vec::new();
            push_time(&mut b, t_ns);
            String::from_utf8(b).unwrap()
        };
        assert_eq!(time(0), "0.0");
        assert_eq!(time(100_000_000), "0.1");
        assert_eq!(time(12_300_000_000), "12.3");
        assert_eq!(time(50_000), "0.00005");
        assert_eq!(time(100_400_000), "0.1004");
        assert_eq!(time(250_000_000), "0.250");
        assert_eq!(time(7_000_000_001), "7.000000001");
        assert_eq!(time(1_000_000 * NS_PER_SEC + 5_000_000), "1000000.005");
    }
}
