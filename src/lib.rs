//! dirtyviz teaches how Linux throttles tasks that dirty page-cache pages.
//!
//! It simulates the kernel's dirty throttling control loops, exactly as
//! Wu Fengguang's "IO-less dirty throttling v12" series computes them, on
//! modelled disks, and shows them live in a terminal or writes traces and
//! time series headless.
//!
//! - [`sim`]: the deterministic world (no terminal, no files, no clock).
//! - [`scenario`]: scenario files, presets and command-line overrides.
//! - [`session`]: one or two worlds in lockstep, driven by inputs.
//! - [`pauses`]: throttling pauses binned by time, for the pause chart.
//! - [`lesson`]: guided lessons, their checks and the headless checker.
//! - [`run`]: headless runs (trace, CSV, summary).
//! - [`app`]: the dashboard's model (state, messages, update), no terminal.
//! - [`record`]: recording a dashboard session and replaying it.
//! - [`cases`]: the seed's result tables beside this model's numbers.
//! - [`ui`]: the live terminal dashboard: keys, pacing, drawing.

pub mod app;
pub mod cases;
pub mod cli;
pub mod lesson;
pub mod pauses;
pub mod record;
pub mod run;
pub mod scenario;
pub mod session;
pub mod sim;
pub mod ui;
