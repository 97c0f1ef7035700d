//! Command-line types (clap derive) of `dirtyviz view` and `dirtyviz live`.

use std::path::PathBuf;

use clap::Args;

/// `dirtyviz view`.
#[derive(Debug, Args)]
pub struct TraceViewArgs {
    /// A kernel trace of the writeback events: the output of
    /// /sys/kernel/tracing/trace or trace_pipe, `trace-cmd report` or
    /// `perf script`; `-` reads standard input.
    #[arg(value_name = "FILE|-", required_unless_present = "example")]
    pub file: Option<String>,
    /// Open the trace shipped with dirtyviz instead of a file: four dd on
    /// a Linux 6.18 VM with vm.dirty_bytes 400 MiB.
    #[arg(long, conflicts_with = "file")]
    pub example: bool,
    /// Write the summary as JSON (with --fit: the trace, the model and
    /// both side by side).
    #[arg(long, value_name = "FILE")]
    pub summary_json: Option<PathBuf>,
    /// Write the trace as a time series (one row per 100 ms of its clock) as CSV.
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Build the scenario the trace implies (thresholds, bdis, their
    /// bandwidth and tasks, CPUs, HZ, how fast its tasks dirtied when
    /// free), run it for the trace's span, and report the two side by side.
    #[arg(long)]
    pub fit: bool,
    /// Print nothing but errors.
    #[arg(long, short)]
    pub quiet: bool,
    /// Print the dashboard's screen as text instead of opening it (for
    /// scripts and tests); see --at, --size and --keys.
    #[arg(long, conflicts_with_all = ["summary_json", "csv"])]
    pub snapshot: bool,
    /// The playhead of --snapshot on the trace's clock from its first
    /// event, e.g. 12s, 0 (the first event) to the end (the default).
    #[arg(long, value_name = "TIME", requires = "snapshot", allow_hyphen_values = true, value_parser = crate::cli::trace_time)]
    pub at: Option<u64>,
    /// The terminal size of --snapshot, WIDTHxHEIGHT.
    #[arg(long, value_name = "WxH", default_value = "160x48", requires = "snapshot", value_parser = crate::cli::screen_size)]
    pub size: (u16, u16),
    /// Keys pressed before --snapshot, space-separated as `dirtyviz
    /// snapshot --keys` takes them (left and right seek), after --at
    /// (which takes the place of its `@TIME`).
    #[arg(long, value_name = "KEYS", requires = "snapshot", allow_hyphen_values = true)]
    pub keys: Option<String>,
    /// The palette of the dashboard (default: dark; NO_COLOR, or a TERM
    /// without colours, forces mono); the summary and --snapshot's text
    /// have no colours (with --snapshot, only mono is taken).
    #[arg(long, value_enum)]
    pub theme: Option<crate::app::ThemeKind>,
    /// How chart points are drawn: braille (finest), dot or block (for
    /// fonts without braille).
    #[arg(long, value_enum, default_value_t = crate::app::Marker::Braille)]
    pub marker: crate::app::Marker,
}

/// `dirtyviz live`.
#[derive(Debug, Args)]
pub struct LiveArgs {
    /// Read headless for this long, e.g. 10s or 2m, then report (without
    /// it, on a terminal: the dashboard until q).
    #[arg(long, value_name = "TIME", allow_hyphen_values = true, value_parser = crate::cli::duration)]
    pub duration: Option<u64>,
    /// Write the summary as JSON.
    #[arg(long, value_name = "FILE")]
    pub summary_json: Option<PathBuf>,
    /// Write the time series (one row per 100 ms) as CSV.
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Keep the trace's lines in FILE, to open later with `dirtyviz view`.
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
    /// Use the tracefs mounted at DIR (default: find one, or mount tracefs
    /// on /sys/kernel/tracing and unmount it at the end).
    #[arg(long, value_name = "DIR")]
    pub tracefs: Option<PathBuf>,
    /// Print nothing but errors.
    #[arg(long, short)]
    pub quiet: bool,
    /// The palette of the dashboard (default: dark; NO_COLOR, or a TERM
    /// without colours, forces mono); the report read headless has no
    /// colours.
    #[arg(long, value_enum)]
    pub theme: Option<crate::app::ThemeKind>,
    /// How chart points are drawn: braille (finest), dot or block (for
    /// fonts without braille).
    #[arg(long, value_enum, default_value_t = crate::app::Marker::Braille)]
    pub marker: crate::app::Marker,
}
