//! Command-line types (clap derive) of `dirtyviz view`.

use std::path::PathBuf;

use clap::Args;

/// `dirtyviz view`.
#[derive(Debug, Args)]
pub struct TraceViewArgs {
    /// A kernel trace of the writeback events: the output of
    /// /sys/kernel/tracing/trace or trace_pipe, `trace-cmd report` or
    /// `perf script`; `-` reads standard input.
    #[arg(value_name = "FILE|-")]
    pub file: String,
    /// Write the summary as JSON (with --fit: the trace, the model and
    /// both side by side).
    #[arg(long, value_name = "FILE")]
    pub summary_json: Option<PathBuf>,
    /// Write the trace as a time series (one row per 100 ms of its clock) as CSV.
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Build the scenario the trace implies (thresholds, bdis, their
    /// bandwidth and tasks, CPUs, HZ), run it for the trace's span, and
    /// report the two side by side.
    #[arg(long)]
    pub fit: bool,
    /// Print nothing but errors.
    #[arg(long, short)]
    pub quiet: bool,
}
