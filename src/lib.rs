//! dirtyviz teaches how Linux throttles tasks that dirty page-cache pages.
//!
//! It simulates the kernel's dirty throttling control loops, exactly as
//! Wu Fengguang's "IO-less dirty throttling v12" series computes them, on
//! modelled disks, and shows them live in a terminal or writes traces and
//! time series headless.
//!
//! # Module map
//!
//! A world is described, built, advanced by inputs, and its samples and
//! trace records become numbers on a screen, in files or in figures.
//! Only [`sim`] computes the model; it has no terminal, no files and no
//! clock, so the same seed gives the same numbers on every path below.
//!
//! ```text
//!  preset, scenario file, --case ──► scenario ◄── cli (overrides)
//!                                       │ a World per side
//!                                       ▼
//!  lesson file ──► lesson ──► runner ──► session ◄──── app ◄──── ui::keys ◄── keys
//!                  (steps,    (actions,  one or two     (model,    │
//!                   checks)    checks)   worlds in      messages)  └──► record ──► replay
//!                                        lockstep          ▲
//!                                           │              │
//!                                           ▼              │
//!              ┌──────────────────────── sim ─────────────────────────┐
//!              │ engine, queue, task, flusher, device, nfs, rng,      │
//!              │ page_writeback (the control law), proportions        │
//!              └──┬──────────── metrics::Sample, trace::TraceEvent ───┘
//!                 ├──► pauses ──► ui: charts, view, snapshot (the dashboard)
//!                 ├──► run: trace, CSV, summary JSON
//!                 ├──► plot: SVG and PNG figures
//!                 └──► cases: the seed's result tables side by side
//!
//!  kernel tracepoints (ftrace, trace-cmd, perf, trace_pipe) ──► ktrace ──► summary, series;
//!                                                                fit: a scenario ──► run
//! ```
//!
//! - [`sim`]: the deterministic world (no terminal, no files, no clock).
//! - [`scenario`]: scenario files, presets and command-line overrides.
//! - [`session`]: one or two worlds in lockstep, driven by inputs.
//! - [`pauses`]: throttling pauses binned by time, for the pause chart.
//! - [`lesson`]: guided lessons, their checks and the headless checker.
//! - [`run`]: headless runs (trace, CSV, summary).
//! - [`app`]: the dashboard's model (state, messages, update), no terminal.
//! - [`record`]: recording a dashboard session and replaying it.
//! - [`cases`]: the seed's result tables beside this model's numbers;
//!   [`gains`]: its tables of one change's gain (patch 11, the NFS wait
//!   queue) beside the model's; [`fit`]: the machine profiles' fitted
//!   numbers chosen again on the fitted half of the seed's table.
//! - [`ktrace`]: real kernel traces of the writeback tracepoints, read,
//!   summarised, captured live and fitted with a scenario.
//! - [`plot`]: the five charts as figures (SVG, PNG) for slides and papers.
//! - [`shell`]: shell completions and the man page.
//! - [`ui`]: the live terminal dashboard: keys, pacing, drawing.
//! - [`cli`]: the command line's options.
//! - [`error`]: the one error type; [`crash`]: what a panic or an internal
//!   error prints (the terminal restored first); [`input`] and [`output`]:
//!   reading the user's files with limits, writing outputs without
//!   clobbering; [`units`]: MiB, means and medians; [`oom`]: out of memory
//!   as an error; [`interrupt`]: Ctrl-C during a headless run.

pub mod app;
pub mod cases;
pub mod cli;
pub mod crash;
pub mod error;
pub mod fit;
pub mod gains;
pub mod input;
pub mod interrupt;
pub mod ktrace;
pub mod lesson;
pub mod oom;
pub mod output;
pub mod pauses;
pub mod plot;
pub mod record;
pub mod run;
pub mod scenario;
#[cfg(test)]
mod scratch;
pub mod session;
pub mod shell;
pub mod sim;
pub mod ui;
pub mod units;

pub use error::{Error, Result};
