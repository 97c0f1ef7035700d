//! Command-line types (clap derive) and the value parsers that reject
//! absurd input with a clear message.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::scenario::{LegacySpec, MAX_DD_PER_BDI, Overrides, SizeError};

/// Watch Linux throttle tasks that dirty page-cache pages.
///
/// With no command, opens the live dashboard on the default scenario.
#[derive(Debug, Parser)]
#[command(name = "dirtyviz", version, args_conflicts_with_subcommands = true)]
pub struct Cli {
    /// What to do; without one, the dashboard opens.
    #[command(subcommand)]
    pub command: Option<Command>,
    /// The world the dashboard opens on.
    #[command(flatten)]
    pub world: WorldArgs,
    /// Start in A/B compare mode: legacy (3.1 vs IO-less), 2.6.38 (2.6.38 vs
    /// IO-less), patches=N (N-1 vs N) or dirty-ratio=N (the scenario's vs N);
    /// legacy=N and 2.6.38=N set IO-less at patch N.
    #[arg(long, value_name = "WHAT", value_parser = crate::session::Compare::parse)]
    pub compare: Option<crate::session::Compare>,
    /// How the dashboard looks.
    #[command(flatten)]
    pub view: ViewArgs,
}

/// Dashboard options.
#[derive(Clone, Debug, Default, Args)]
pub struct ViewArgs {
    /// How chart points are drawn: braille (finest), dot or block (for
    /// fonts without braille).
    #[arg(long, value_enum, default_value_t = crate::app::Marker::Braille)]
    pub marker: crate::app::Marker,
    /// Palette: dark (colour-blind safe), light, or mono (default: dark;
    /// mono where NO_COLOR is set, or where TERM names a terminal without
    /// colours, vt100 or xterm-mono, and COLORTERM is not set).
    #[arg(long, value_enum)]
    pub theme: Option<crate::app::ThemeKind>,
    /// Show developer figures: the time each frame takes to draw.
    #[arg(long)]
    pub debug: bool,
    /// Record the session (every key and time step) to FILE, for `dirtyviz
    /// replay`. By default it goes to the data directory's
    /// `dirtyviz/sessions/<start time>-<pid>.jsonl` (the last 20 are kept,
    /// and those of sessions still running).
    /// Either way dirtyviz/last-session.jsonl is made a link to the
    /// recording when the session ends.
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// Do not record the session.
    #[arg(long, conflicts_with = "record")]
    pub no_record: bool,
    /// Write side A's trace (as `run --trace` does) to FILE.
    #[arg(long, value_name = "FILE")]
    pub trace: Option<PathBuf>,
    /// Stop the trace before it grows past SIZE (e.g. 500M, 2G; at least 4K); its last
    /// line says where it stopped.
    #[arg(long, value_name = "SIZE", value_parser = trace_size, requires = "trace")]
    pub max_trace_size: Option<u64>,
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run a scenario headless: write a trace and time series, print a summary.
    Run(Box<RunArgs>),
    /// Open a lesson in the dashboard (no argument: pick one).
    Lesson(LessonArgs),
    /// List the shipped lessons, one line each.
    Lessons,
    /// Validate lesson and scenario files and run each lesson headless,
    /// verifying its checks (no argument: every shipped lesson and preset).
    Check(CheckArgs),
    /// Replay a recorded session headless (see --record), writing its trace.
    Replay(ReplayArgs),
    /// Run the test cases of the patch series' result tables on 3.1 and on the
    /// whole series, and print the series' rates beside the model's (with
    /// --table, a change's gain in the patch series beside the model's).
    ///
    /// The machine profiles' fitted numbers are chosen on the cases of even
    /// line number in assets/seed-table.txt (the fitted half); the other
    /// half is held out to test them.
    Cases(CasesArgs),
    /// List the patch series' test machines the cases run on, with where
    /// each of their numbers comes from.
    Machines,
    /// Open a real kernel's trace of the writeback events (ftrace,
    /// trace-cmd report, perf script) on the dashboard, playing on its own
    /// clock; with --summary-json or --csv, or not on a terminal, summarise
    /// it instead.
    View(crate::ktrace::cli::TraceViewArgs),
    /// Show the running kernel's writeback events live on the dashboard
    /// (root); headless with --duration, --summary-json or --csv.
    Live(crate::ktrace::cli::LiveArgs),
    /// Run a world (or a lesson's step) headless, or read a recorded kernel
    /// trace, and write the five charts as figures for slides and papers
    /// (SVG or PNG).
    Plot(Box<PlotArgs>),
    /// Draw what the dashboard shows, without a terminal: as text, ANSI or
    /// SVG (for tests, docs and slides).
    Snapshot(Box<SnapshotArgs>),
    /// Print a shell completion script (e.g. `dirtyviz completions bash >
    /// ~/.local/share/bash-completion/completions/dirtyviz`).
    Completions(CompletionsArgs),
    /// Print the man page (roff) on standard output (e.g. `dirtyviz man |
    /// man -l -`).
    Man,
}

/// `dirtyviz plot`.
#[derive(Debug, Args)]
pub struct PlotArgs {
    /// A recorded kernel trace to plot instead of a simulation: an ftrace
    /// `trace` file, `trace-cmd report` or `perf script` output, as
    /// `dirtyviz view` reads it (or - for standard input). The figures show
    /// the whole trace, on its time from its first event; not with the
    /// world options, --lesson, --compare or --duration.
    #[arg(
        value_name = "TRACE",
        conflicts_with_all = WORLD_OPTIONS,
        conflicts_with_all = ["lesson", "step", "compare", "duration"]
    )]
    pub trace: Option<String>,
    /// The world (not with --lesson, whose step sets up its own; --seed
    /// alone applies to a lesson too).
    #[command(flatten)]
    pub world: WorldArgs,
    /// Plot a step of this lesson (a shipped id such as 07, or a lesson
    /// file): the lesson runs up to the step as `dirtyviz check` does, and
    /// the figures show the step's own time. With --seed, the lesson runs
    /// that seed instead of its own, as `lesson --seed` does.
    #[arg(long, value_name = "ID|FILE", conflicts_with_all = &WORLD_OPTIONS[1..], conflicts_with = "compare")]
    pub lesson: Option<String>,
    /// The lesson's step to plot, from 1 (default 1).
    #[arg(long, value_name = "N", requires = "lesson", value_parser = step)]
    pub step: Option<u32>,
    /// Simulated time to plot, e.g. 60s, 5m or 2500j (jiffies at the
    /// world's HZ) (default: the scenario's, or the lesson step's).
    #[arg(long, value_name = "TIME", allow_hyphen_values = true, value_parser = sim_time)]
    pub duration: Option<SimTime>,
    /// Directory the figures go to (made if missing; its parent must exist).
    #[arg(short = 'o', long, value_name = "DIR", default_value = ".")]
    pub out: PathBuf,
    /// svg (vector, for papers and slides) or png (1920x1080 pixels).
    #[arg(long, value_enum, default_value_t = PlotFormat::Svg)]
    pub format: PlotFormat,
    /// Plot both sides of an A/B comparison on shared axes, as the
    /// dashboard's --compare: legacy, 2.6.38, patches=N or dirty-ratio=N.
    #[arg(long, value_name = "WHAT", value_parser = crate::session::Compare::parse)]
    pub compare: Option<crate::session::Compare>,
    /// The bdi of charts 2 to 5, by name or number from 0 (default: the
    /// first, or the one the lesson selects); of a trace, as it names it
    /// (e.g. 8:16).
    #[arg(long, value_name = "NAME|N")]
    pub bdi: Option<String>,
}

/// Figure file formats.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum PlotFormat {
    /// Scalable vector graphics.
    #[default]
    Svg,
    /// Portable network graphics, drawn with an embedded font.
    Png,
}

/// The patch series' tables `dirtyviz cases` compares with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum CasesTable {
    /// 3.1 against the IO-less series, every test case.
    #[default]
    Main,
    /// Patch 11 (per-bdi background threshold): pages written without and
    /// with it.
    Patch11,
    /// The NFS writeback wait queue: MiB/s without and with it.
    NfsWq,
}

/// `dirtyviz completions`.
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to complete in.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// `dirtyviz snapshot`.
#[derive(Debug, Args)]
pub struct SnapshotArgs {
    /// The world (not with --lesson).
    #[command(flatten)]
    pub world: WorldArgs,
    /// Show a lesson instead: an id (00-16) or a lesson file.
    #[arg(long, value_name = "ID|FILE", conflicts_with_all = ["scenario", "case", "compare"])]
    pub lesson: Option<String>,
    /// The lesson's step (1 is the first).
    #[arg(long, value_name = "N", requires = "lesson", value_parser = step)]
    pub step: Option<u32>,
    /// Start in A/B compare mode, as the dashboard's --compare.
    #[arg(long, value_name = "WHAT", value_parser = crate::session::Compare::parse)]
    pub compare: Option<crate::session::Compare>,
    /// Keys pressed at the start, space-separated: single characters,
    /// space, esc, enter, tab, backtab, up, down, pgup, pgdn, left, right,
    /// home, end, backspace, delete, insert, f1-f12, `ctrl-<character>` (names in any case: PgDn); pgup and
    /// pgdn scroll a lesson's text on the screen shown, as if pressed
    /// there; `@TIME` (e.g. @20s) first runs the
    /// world on to TIME (in a lesson, that long into the open step), so
    /// the keys after it are pressed then, e.g. `@20s a 2 9 enter` (with
    /// --lesson 07: 29 answers the step's question at 20 s). Keys
    /// that leave the world paused (space; `.` steps it 100 ms) leave it
    /// there: without --at the snapshot is taken where it stopped.
    #[arg(long, value_name = "KEYS", allow_hyphen_values = true)]
    pub keys: Option<String>,
    /// Simulated time of the snapshot, e.g. 30s or 2500j (jiffies at the
    /// world's HZ) (default: the scenario's duration); with --lesson, the
    /// time into the step (default: the step's run_s, where its checks are
    /// judged); 0 is the world before anything ran, a time under one jiffy
    /// the first jiffy (with a note).
    #[arg(long, value_name = "TIME", allow_hyphen_values = true, value_parser = sim_moment)]
    pub at: Option<SimTime>,
    /// Terminal size, WIDTHxHEIGHT.
    #[arg(long, value_name = "WxH", default_value = "160x48", value_parser = screen_size)]
    pub size: (u16, u16),
    /// text, ansi (colours for a terminal) or svg (an image for slides);
    /// default: svg for an --output ending in .svg, else text.
    #[arg(long, value_enum)]
    pub format: Option<crate::ui::snapshot::Format>,
    /// Palette: dark, light or mono (NO_COLOR forces mono; the terminal's
    /// TERM does not matter to a file).
    #[arg(long, value_enum, default_value_t = crate::app::ThemeKind::Dark)]
    pub theme: crate::app::ThemeKind,
    /// How chart points are drawn: braille, dot or block.
    #[arg(long, value_enum, default_value_t = crate::app::Marker::Braille)]
    pub marker: crate::app::Marker,
    /// Write to FILE (through a temporary file, renamed) instead of
    /// standard output (`-`: standard output).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// Parses a terminal size, `160x48`.
pub fn screen_size(s: &str) -> Result<(u16, u16), String> {
    let bad = || "must be WIDTHxHEIGHT, e.g. 160x48, each from 1 to 1000".to_string();
    let (w, h) = s.split_once(['x', 'X']).ok_or_else(bad)?;
    let (w, h): (u16, u16) = (w.trim().parse().map_err(|_| bad())?, h.trim().parse().map_err(|_| bad())?);
    if !(1..=1000).contains(&w) || !(1..=1000).contains(&h) {
        return Err(bad());
    }
    Ok((w, h))
}

/// A `cases` filter: text with something in it besides blanks.
fn case_filter(s: &str) -> Result<String, String> {
    if s.trim().is_empty() {
        return Err("an empty filter: leave it out to run every case".into());
    }
    Ok(s.to_string())
}

/// `dirtyviz cases`.
#[derive(Debug, Args)]
pub struct CasesArgs {
    /// Only the cases whose name, or kind of world, contains this, in any
    /// case (e.g. JBOD, thresh=1M/, usb).
    #[arg(value_name = "FILTER", value_parser = case_filter)]
    pub filter: Option<String>,
    /// Which of the patch series' tables: `main` (3.1 against the IO-less series,
    /// 119 cases), `patch11` (patch 11's gain on the JBOD box, level 10
    /// against 11) or `nfs-wq` (the NFS writeback wait queue's gain).
    #[arg(long, value_enum, default_value_t = CasesTable::Main)]
    pub table: CasesTable,
    /// Simulated time per run, e.g. 60s or 60000j (jiffies at the cases'
    /// HZ, 1000).
    #[arg(long, value_name = "TIME", default_value = "60s", allow_hyphen_values = true, value_parser = sim_time)]
    pub duration: SimTime,
    /// Exit 1 when the mean |model − seed| of the IO-less/3.1 ratio over
    /// the held-out cases exceeds this.
    #[arg(long, value_name = "ERROR", value_parser = max_error, allow_hyphen_values = true)]
    pub max_error: Option<f64>,
    /// Exit 1 when the mean |model/series - 1| of the rates over the
    /// held-out cases exceeds this.
    #[arg(long, value_name = "ERROR", value_parser = max_error, allow_hyphen_values = true)]
    pub max_rate_error: Option<f64>,
    /// Exit 1 when that error over the held-out cases of any one kind of
    /// world (single disk, JBOD, RAID0, USB key, NFS) exceeds this.
    #[arg(long, value_name = "ERROR", value_parser = max_error, allow_hyphen_values = true)]
    pub max_kind_error: Option<f64>,
    /// Choose a machine profile's fitted numbers again (`dirtyviz
    /// machines` lists the profiles): every combination of their candidates
    /// on the profile's cases of the fitted half, seeds 1-5. Exit 1 when
    /// the fit chooses other numbers than the profile holds.
    #[arg(
        long,
        value_name = "PROFILE",
        conflicts_with_all = ["filter", "max_error", "max_rate_error", "max_kind_error"]
    )]
    pub fit: Option<String>,
    /// With --fit: decide only whether the profile's numbers stand. A
    /// combination stops running a seed's cases once it cannot score lower
    /// than the profile's numbers: the choice is the same, but the report
    /// has no scores to rank the losers by.
    #[arg(long, requires = "fit")]
    pub quick: bool,
}

/// `dirtyviz replay`.
#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// The recording.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Write side A's trace to FILE.
    #[arg(long, value_name = "FILE")]
    pub trace: Option<PathBuf>,
    /// Stop the trace before it grows past SIZE (e.g. 500M, 2G; at least 4K).
    #[arg(long, value_name = "SIZE", value_parser = trace_size, requires = "trace")]
    pub max_trace_size: Option<u64>,
    /// Write side A's time series (one row per 100 ms, and one at each
    /// change) as CSV, as `run --csv` does, from its last restart on.
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Write side A's summary as JSON, as `run --summary-json` does, of
    /// the world it ran at the end (from its last restart on).
    #[arg(long, value_name = "FILE")]
    pub summary_json: Option<PathBuf>,
}

/// `dirtyviz lesson`. It takes no `--compare`: a lesson's steps open
/// their own comparisons.
#[derive(Debug, Args)]
pub struct LessonArgs {
    /// A lesson id (00-16) or a lesson file.
    #[arg(value_name = "ID|FILE")]
    pub lesson: Option<String>,
    /// Run the lesson (and any opened from the lesson list) with this seed
    /// of the random generator instead of its own, so that a class sees the
    /// same numbers (`dirtyviz check --seed N` checks it)
    #[arg(long, value_parser = seed)]
    pub seed: Option<u64>,
    /// How the dashboard looks.
    #[command(flatten)]
    pub view: ViewArgs,
}

/// `dirtyviz check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Lesson or scenario files (RON), shipped lesson ids or preset names.
    #[arg(value_name = "FILE|ID")]
    pub files: Vec<String>,
    /// Print every check with the value it measured, and every question
    /// with its answer.
    #[arg(short, long)]
    pub verbose: bool,
    /// Also draw every step of every lesson, at its end, at 160x48 and
    /// 120x40, and fail when a chart, table or panel the step names, or a
    /// question's answer, is not on the screen, or when at 160x48 the
    /// step's text, checks and questions need PgDn, also with the hint
    /// shown and every question answered.
    #[arg(long)]
    pub screens: bool,
    /// Run every lesson with this seed of the random generator instead of
    /// its own (a lesson's checks should hold whatever the seed).
    #[arg(long, value_parser = seed)]
    pub seed: Option<u64>,
}

/// The ids of [`WorldArgs`]' options, one by one: a conflict with them
/// names the one given (clap names a group's first, `--scenario`, whatever
/// option of the group was given). The seed comes first: the rest,
/// `WORLD_OPTIONS[1..]`, are those a lesson does not take.
const WORLD_OPTIONS: [&str; 15] = [
    "seed",
    "scenario",
    "case",
    "dirty_ratio",
    "dirty_background_ratio",
    "dirty_bytes",
    "dirty_background_bytes",
    "memory",
    "cpus",
    "hz",
    "dd",
    "patches",
    "nfs_wait_queue",
    "nfs_congestion_scaled",
    "period_shift",
];

/// Which world to build and what to change in it.
#[derive(Clone, Debug, Default, Args)]
pub struct WorldArgs {
    /// Preset name (default, hdd-10dd, hdd-100dd, hdd-1000dd, ssd-10dd,
    /// ukey-hdd, jbod-10hdd, raid0-10hdd, nfs-1dd, nfs-10dd, switch-disk,
    /// rsync) or a scenario file (default: default).
    #[arg(long, value_name = "NAME|FILE")]
    pub scenario: Option<String>,
    /// One of the patch series' test-case names, e.g.
    /// thresh=100M/xfs-10dd-4k-8p-4096M-100M:10-X or
    /// JBOD-10HDD-16G/xfs-100dd-1M-24p-16384M-20:10-X.
    #[arg(long, value_name = "NAME", conflicts_with = "scenario")]
    pub case: Option<String>,
    /// Seed of the random generator (device noise: bandwidth, seek and
    /// journal-commit times, a USB key's stalls), 0 to 2^64-1 (default:
    /// the scenario's, 1 in every preset).
    #[arg(long, value_parser = seed)]
    pub seed: Option<u64>,
    /// vm.dirty_ratio [%], 0 to 100; not with --dirty-bytes; replaces the
    /// scenario's dirty_bytes (default: the scenario's).
    #[arg(long, value_parser = percent, conflicts_with = "dirty_bytes")]
    pub dirty_ratio: Option<u64>,
    /// vm.dirty_background_ratio [%], 0 to 100; not with
    /// --dirty-background-bytes; replaces the scenario's
    /// dirty_background_bytes (default: the scenario's; one at or above
    /// the dirty threshold is halved, as the kernel does).
    #[arg(long, value_parser = percent, conflicts_with = "dirty_background_bytes")]
    pub dirty_background_ratio: Option<u64>,
    /// vm.dirty_bytes, e.g. 100M, up to 4T (plain numbers are bytes; K, M,
    /// G, T, also KiB or KB, are binary: 2^10, 2^20, ...; the kernel refuses
    /// less than two pages, dirtyviz goes down to one); not with
    /// --dirty-ratio; replaces the scenario's dirty_ratio (default: the
    /// scenario's).
    #[arg(long, value_name = "SIZE", value_parser = dirty_bytes)]
    pub dirty_bytes: Option<u64>,
    /// vm.dirty_background_bytes, e.g. 50M, up to 4T (plain numbers are
    /// bytes; sizes are binary: M is 2^20); not with
    /// --dirty-background-ratio; replaces the scenario's
    /// dirty_background_ratio (default: the scenario's).
    #[arg(long, value_name = "SIZE", value_parser = background_bytes)]
    pub dirty_background_bytes: Option<u64>,
    /// Memory size, e.g. 4G or 16384M, 16M to 4T (plain numbers are bytes;
    /// sizes are binary: G is 2^30; default: the scenario's).
    #[arg(long, value_name = "SIZE", value_parser = memory)]
    pub memory: Option<u64>,
    /// Number of CPUs, 1 to 4096 (default: the scenario's).
    #[arg(long, value_parser = cpus)]
    pub cpus: Option<u32>,
    /// Timer frequency in Hz: 100, 250, 300 or 1000 (default: the scenario's).
    #[arg(long, value_parser = hz)]
    pub hz: Option<u64>,
    /// dd tasks per bdi, 0 to 10000, at most 20000 tasks in all (replaces the
    /// scenario's dd: each bdi gets N like those of the first dd group aimed
    /// at it, plain dd where none is).
    #[arg(long, value_parser = dd)]
    pub dd: Option<u32>,
    /// Patch level: `legacy` (or 0) is Linux 3.1's IO-full throttling, 1..11
    /// applies the v12 series up to that patch (default 11); `2.6.38` is
    /// the IO-full throttling before 3.1's 200 ms max-pause area.
    #[arg(long, value_name = "LEVEL", value_parser = PatchLevels)]
    pub patches: Option<Level>,
    /// NFS: the patch series' writeback wait queue patch (writers wait above
    /// nfs_congestion_kb of writeback pages).
    #[arg(long)]
    pub nfs_wait_queue: bool,
    /// NFS: the patch series' patch scaling nfs_congestion_kb to (dirty_thresh + 1 MiB)/8 (with its fix of Oct 2011, so that a tiny threshold leaves at least 128 KiB).
    #[arg(long)]
    pub nfs_congestion_scaled: bool,
    /// Fixed floating-proportion period shift, 2 to 32 (default: derived
    /// from the dirty threshold, as the kernel does; 12 adapts much faster).
    #[arg(long, value_parser = period_shift)]
    pub period_shift: Option<i32>,
}

impl WorldArgs {
    /// The scenario overrides these arguments ask for.
    pub fn overrides(&self) -> Overrides {
        Overrides {
            dirty_ratio: self.dirty_ratio,
            dirty_background_ratio: self.dirty_background_ratio,
            dirty_bytes: self.dirty_bytes,
            dirty_background_bytes: self.dirty_background_bytes,
            memory_mb: self.memory.map(|b| b >> 20),
            cpus: self.cpus.map(|c| c as usize),
            hz: self.hz,
            dd: self.dd,
            period_shift: self.period_shift,
            seed: self.seed,
            patches: self.patches.map(|l| l.patches),
            legacy: self.patches.map(|l| l.legacy),
            nfs_wait_queue: self.nfs_wait_queue.then_some(true),
            nfs_congestion_scaled: self.nfs_congestion_scaled.then_some(true),
        }
    }
}

/// `dirtyviz run`.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// The world.
    #[command(flatten)]
    pub world: WorldArgs,
    /// Simulated time to run, e.g. 60s, 500ms, 10m or 2500j (jiffies at the
    /// world's HZ) (default: the scenario's).
    #[arg(long, value_name = "TIME", allow_hyphen_values = true, value_parser = sim_time)]
    pub duration: Option<SimTime>,
    /// Run both sides of an A/B comparison in lockstep, as the dashboard's
    /// --compare: legacy, 2.6.38 (legacy=N, 2.6.38=N: against patch N),
    /// patches=N or dirty-ratio=N. The report
    /// sets their figures side by side; --trace and --csv then take two
    /// files, A,B, or one name with {side} (a, b); --summary-json holds
    /// both sides as "a" and "b".
    #[arg(long, value_name = "WHAT", value_parser = crate::session::Compare::parse)]
    pub compare: Option<crate::session::Compare>,
    /// Write every throttling decision as JSON Lines.
    #[arg(long, value_name = "FILE")]
    pub trace: Option<PathBuf>,
    /// Stop the trace before it grows past SIZE (e.g. 500M, 2G; at least 4K); its last
    /// line and the summary say where it stopped. Default: no limit.
    #[arg(long, value_name = "SIZE", value_parser = trace_size, requires = "trace")]
    pub max_trace_size: Option<u64>,
    /// Write the time series (one row per 100 ms) as CSV.
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Write the summary as JSON.
    #[arg(long, value_name = "FILE")]
    pub summary_json: Option<PathBuf>,
    /// Print nothing but errors, and the note that a trace will pass 1 GiB
    /// (a disk filled unasked is worse than a line on stderr).
    #[arg(long, short)]
    pub quiet: bool,
    /// Check after every simulation event that pages are conserved and the
    /// counters agree (slower; exits with an error naming the broken rule).
    #[arg(long)]
    pub check_invariants: bool,
}

/// A patch level as `--patches` reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    /// Patches of the series applied.
    pub patches: u8,
    /// The kernel under them.
    pub legacy: LegacySpec,
}

/// `--patches`' parser: [`patches`], its levels listed for shell
/// completion.
#[derive(Clone, Copy, Debug)]
pub struct PatchLevels;

impl clap::builder::TypedValueParser for PatchLevels {
    type Value = Level;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<Level, clap::Error> {
        (patches as fn(&str) -> Result<Level, String>).parse_ref(cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        const LEVELS: [&str; 13] = ["legacy", "2.6.38", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11"];
        Some(Box::new(LEVELS.into_iter().map(clap::builder::PossibleValue::new)))
    }
}

/// Parses a patch level: `legacy`, 0 to 11, or `2.6.38`.
pub fn patches(s: &str) -> Result<Level, String> {
    let level = |patches, legacy| Ok(Level { patches, legacy });
    match s {
        "legacy" => level(0, LegacySpec::Linux31),
        "2.6.38" => level(0, LegacySpec::Linux2638),
        _ => match s.parse::<u8>() {
            Ok(v) if v <= 11 => level(v, LegacySpec::Linux31),
            _ => Err("must be `legacy`, a patch number from 0 to 11, or `2.6.38`".into()),
        },
    }
}

/// A whole number from `lo` to `hi`, or a message that names what it
/// counts (`what`) and the range: `must be a whole number of CPUs from 1
/// to 4096`.
fn whole(s: &str, lo: u64, hi: u64, what: &str) -> Result<u64, String> {
    match whole_number(s) {
        Some(v) if (lo..=hi).contains(&v) => Ok(v),
        _ => Err(format!("must be a whole number{what} from {lo} to {hi}")),
    }
}

/// A whole number written as digits, or as any number that is whole
/// (`1e3`, `10.0`, as --duration takes numbers); `None` otherwise.
fn whole_number(s: &str) -> Option<u64> {
    let t = s.trim();
    if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) {
        return t.parse().ok();
    }
    // Past 2^53 a float is not every whole number: digits only there.
    let v = t.parse::<f64>().ok().filter(|v| v.fract() == 0.0 && (0.0..=9.0e15).contains(v))?;
    Some(v as u64)
}

fn cpus(s: &str) -> Result<u32, String> {
    whole(s, 1, 4096, " of CPUs").map(|v| v as u32)
}

fn dd(s: &str) -> Result<u32, String> {
    whole(s, 0, MAX_DD_PER_BDI.into(), " of dd tasks per bdi").map(|v| v as u32)
}

fn period_shift(s: &str) -> Result<i32, String> {
    whole(s, 2, 32, "").map(|v| v as i32)
}

/// A lesson's step, from 1; how many it has is known once the lesson is.
fn step(s: &str) -> Result<u32, String> {
    let t = s.trim();
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) || t.bytes().all(|b| b == b'0') {
        return Err("must be a step's number: 1 (the first), 2, ...".into());
    }
    t.parse().map_err(|_| "too large: no lesson has that many steps".into())
}

fn percent(s: &str) -> Result<u64, String> {
    // `50%` as `50`: the sysctl's unit, written as a reader writes it.
    let s = s.trim();
    let s = s.strip_suffix('%').unwrap_or(s).trim_end();
    match whole_number(s) {
        Some(v) if v <= 100 => Ok(v),
        _ => Err("must be a whole percentage from 0 to 100".into()),
    }
}

/// Largest `vm.dirty_bytes`, `vm.dirty_background_bytes` and memory
/// \[bytes\]: 4 TiB.
const MAX_BYTES: u64 = 4 << 40;

/// What the suffixes of a size mean.
const BINARY_SIZES: &str = "sizes are binary: K, M, G, T (also KiB or KB, any case) = 2^10, 2^20, 2^30, 2^40 bytes";

/// A size of at most `max` bytes, which a message too large shows as
/// `max_shown`.
fn size(s: &str, max: u64, max_shown: &str) -> Result<u64, String> {
    match crate::scenario::size(s) {
        Ok(v) if v <= max => Ok(v),
        Ok(_) | Err(SizeError::TooLarge) => Err(format!("too large: at most {max_shown}")),
        Err(SizeError::Malformed) => Err(format!("must be a size such as 4096, 100M or 4G; {BINARY_SIZES}")),
        Err(SizeError::PartByte) => Err("must be a whole number of bytes (or a size such as 1.5M)".into()),
    }
}

fn dirty_bytes(s: &str) -> Result<u64, String> {
    match size(s, MAX_BYTES, "4T")? {
        v if v < 4096 => Err("must be at least 4096 (one page)".into()),
        v => Ok(v),
    }
}

fn background_bytes(s: &str) -> Result<u64, String> {
    match size(s, MAX_BYTES, "4T")? {
        0 => Err("must be at least 1: the kernel refuses 0 (give --dirty-background-ratio to use the ratio)".into()),
        v => Ok(v),
    }
}

fn memory(s: &str) -> Result<u64, String> {
    match size(s, MAX_BYTES, "4T")? {
        v if v < 16 << 20 => Err("memory must be at least 16M".into()),
        v => Ok(v),
    }
}

fn trace_size(s: &str) -> Result<u64, String> {
    let min = crate::run::trace::MIN_MAX_TRACE_BYTES;
    match size(s, u64::MAX, &format!("{} bytes", u64::MAX))? {
        v if v < min => Err(format!("must be at least {min} bytes")),
        v => Ok(v),
    }
}

/// Parses a seed: any 64-bit number.
fn seed(s: &str) -> Result<u64, String> {
    let digits = s.trim();
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err("must be a whole number from 0 to 18446744073709551615".into());
    }
    digits.parse().map_err(|_| format!("too large: at most {}", u64::MAX))
}

fn max_error(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
        _ => Err("must be a finite number of 0 or more, e.g. 0.15".into()),
    }
}

fn hz(s: &str) -> Result<u64, String> {
    match s.parse::<u64>() {
        Ok(v @ (100 | 250 | 300 | 1000)) => Ok(v),
        _ => Err("HZ must be 100, 250, 300 or 1000".into()),
    }
}

/// A simulated time as `--duration` and `--at` take it: a time (`60s`,
/// `500ms`) or a number of jiffies (`250j`), whose length depends on the
/// HZ of the world it is for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SimTime {
    /// A time \[s\].
    Seconds(f64),
    /// Jiffies, as many as written (maybe not a whole number).
    Jiffies(f64),
}

impl SimTime {
    /// The time \[ns\] in a world of `hz`, or why it is not one, naming
    /// the option `flag` and the HZ: jiffies must be whole, and the time at
    /// most [`MAX_SIM_S`].
    pub fn ns(self, flag: &str, hz: u64) -> crate::error::Result<u64> {
        let ns = match self {
            SimTime::Jiffies(j) if j.fract() != 0.0 => {
                return Err(crate::error::Error::invalid(format!(
                    "{flag} must be a whole number of jiffies (a jiffy is {}), got {j}",
                    crate::units::jiffy(hz)
                )));
            }
            SimTime::Jiffies(j) => j * 1e9 / hz as f64,
            SimTime::Seconds(s) => s * 1e9,
        };
        if ns > MAX_SIM_S * 1e9 {
            let given = match self {
                SimTime::Jiffies(j) => format!("{j} jiffies at HZ {hz}"),
                SimTime::Seconds(s) => format!("{} s", crate::units::seconds(s)),
            };
            return Err(crate::error::Error::invalid(format!("{flag} must be at most {MAX_SIM_S} s, got {given}")));
        }
        Ok(ns.round() as u64)
    }

    /// [`SimTime::ns`], refused also when shorter than one jiffy at `hz`.
    pub fn ns_of_a_jiffy_or_more(self, flag: &str, hz: u64) -> crate::error::Result<u64> {
        crate::units::at_least_one_jiffy(&format!("{flag} must be"), self.ns(flag, hz)?, hz)
    }
}

/// Longest simulated time the command line takes \[s\].
pub const MAX_SIM_S: f64 = 1e6;

/// Parses a simulated time: `60s`, `500ms`, `2m`, `1h`, plain seconds, or
/// jiffies (`250j`, `250 jiffies`), which stay jiffies until the world's
/// HZ is known.
pub fn sim_time(s: &str) -> Result<SimTime, String> {
    simulated(s, false)
}

/// Parses a moment of a simulated world as [`sim_time`] does, 0 (before
/// anything ran) included: where a snapshot is taken.
pub fn sim_moment(s: &str) -> Result<SimTime, String> {
    simulated(s, true)
}

/// [`sim_time`], and with `from_zero` [`sim_moment`].
fn simulated(s: &str, from_zero: bool) -> Result<SimTime, String> {
    let bad = || "must be a time such as 60s, 500ms or 10m, or jiffies such as 250j".to_string();
    let (value, unit) = number_and_unit(s).ok_or_else(bad)?;
    // A unit first: `0x10s` is no time, not one too short.
    let jiffies = matches!(unit.trim(), "j" | "jiffy" | "jiffies");
    let ns_per_unit = if jiffies { 0.0 } else { ns_per(unit.trim()).ok_or_else(bad)? };
    if value == f64::INFINITY {
        return Err(format!("must be at most {MAX_SIM_S}s"));
    }
    if !(value.is_finite() && (value > 0.0 || from_zero && value == 0.0)) {
        return Err(if from_zero { "must be 0 (before anything ran) or later" } else { "must be positive" }.into());
    }
    if jiffies {
        return Ok(SimTime::Jiffies(value));
    }
    let s = value * ns_per_unit / 1e9;
    if s > MAX_SIM_S { Err(format!("must be at most {MAX_SIM_S}s")) } else { Ok(SimTime::Seconds(s)) }
}

/// A time's number and what follows it (`60s` is 60 and `s`, `1e3s` is
/// 1000 and `s`, as a scenario file's numbers may have exponents).
fn number_and_unit(s: &str) -> Option<(f64, &str)> {
    let t = s.trim();
    let split = t.find(|c: char| !c.is_ascii_digit() && !matches!(c, '.' | '-' | '+' | 'e' | 'E')).unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    Some((num.parse().ok()?, unit))
}

/// Nanoseconds in one `unit` of time: `s` (or none), `ms`, `m`/`min`, `h`.
fn ns_per(unit: &str) -> Option<f64> {
    match unit {
        "" | "s" => Some(1e9),
        "ms" => Some(1e6),
        "m" | "min" => Some(60e9),
        "h" => Some(3600e9),
        _ => None,
    }
}

/// Parses `60s`, `500ms`, `2m`, `1h` or plain seconds into nanoseconds.
pub fn duration(s: &str) -> Result<u64, String> {
    let bad = || "must be a time such as 60s, 500ms or 10m".to_string();
    let (value, unit) = number_and_unit(s).ok_or_else(bad)?;
    let ns = value * ns_per(unit).ok_or_else(bad)?;
    // First: a number past f64's range (1e400) is too large.
    if ns > MAX_SIM_S * 1e9 {
        return Err(format!("must be at most {MAX_SIM_S}s"));
    }
    if !(ns.is_finite() && ns > 0.0) {
        return Err("must be positive".into());
    }
    if ns < 1e6 {
        return Err("must be at least 1ms (a jiffy at HZ 1000)".into());
    }
    Ok(ns as u64)
}

/// Parses a moment on a trace's clock from its first event: `12s`,
/// `500ms`, `2m`, plain seconds, into nanoseconds. Unlike a
/// [`duration`], 0 (the first event) and times below a millisecond are
/// moments of a trace.
pub fn trace_time(s: &str) -> Result<u64, String> {
    let bad = || "must be a time such as 12s, 500ms or 2m from the trace's first event".to_string();
    let (value, unit) = number_and_unit(s).ok_or_else(bad)?;
    let ns = value * ns_per(unit).ok_or_else(bad)?;
    // Checked first: a number past f64's range (1e400) is too large.
    if ns > MAX_SIM_S * 1e9 {
        return Err(format!("must be at most {MAX_SIM_S}s"));
    }
    if !ns.is_finite() || ns < 0.0 {
        return Err("must be 0 (the trace's first event) or later".into());
    }
    Ok(ns.round() as u64)
}

/// The command line with a negative number after a long option joined to
/// it (`--hz -100` as `--hz=-100`), so that clap reads it as the option's
/// value and refuses it by name, where it would take `-1` for a flag
/// (`unexpected argument '-1' found`). No option of ours is a `-` and a
/// digit; an option that takes no value then says so. Nothing after `--`
/// is touched.
pub fn negative_values_joined(args: impl IntoIterator<Item = std::ffi::OsString>) -> Vec<std::ffi::OsString> {
    let mut joined: Vec<std::ffi::OsString> = Vec::new();
    let mut options_end = false;
    for arg in args {
        let negative =
            arg.to_str().is_some_and(|a| a.starts_with('-') && a[1..].starts_with(|c: char| c.is_ascii_digit()));
        let after_option = joined
            .last()
            .and_then(|o| o.to_str())
            .is_some_and(|o| o.starts_with("--") && o.len() > 2 && !o.contains('='));
        if negative && after_option && !options_end {
            let mut option = joined.pop().expect("after an option");
            option.push("=");
            option.push(&arg);
            joined.push(option);
            continue;
        }
        options_end |= arg == "--";
        joined.push(arg);
    }
    joined
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn cli_is_well_formed() {
        Cli::command().debug_assert();
    }

    #[test]
    fn durations() {
        assert_eq!(duration("60s"), Ok(60_000_000_000));
        assert_eq!(duration("500ms"), Ok(500_000_000));
        assert_eq!(duration("2m"), Ok(120_000_000_000));
        assert_eq!(duration("1.5"), Ok(1_500_000_000));
        assert!(duration("-1s").is_err());
        assert!(duration("0s").is_err());
        assert!(duration("0.0000000001s").is_err());
        assert_eq!(duration("1ms"), Ok(1_000_000));
        assert!(duration("soon").is_err());
    }

    #[test]
    fn trace_times_start_at_0() {
        assert_eq!(trace_time("0"), Ok(0));
        assert_eq!(trace_time("0s"), Ok(0));
        assert_eq!(trace_time("0ms"), Ok(0));
        assert_eq!(trace_time("0.5ms"), Ok(500_000));
        assert_eq!(trace_time("19.996375s"), Ok(19_996_375_000));
        assert_eq!(trace_time("2m"), Ok(120_000_000_000));
        assert_eq!(trace_time("-1s"), Err("must be 0 (the trace's first event) or later".into()));
        assert!(trace_time("250j").is_err());
        assert!(trace_time("2000000s").is_err());
    }

    #[test]
    fn times_take_exponents_as_scenario_files_do() {
        assert_eq!(duration("1e3s"), Ok(1_000_000_000_000));
        assert_eq!(duration("2.5E2ms"), Ok(250_000_000));
        assert_eq!(sim_time("1e+2s"), Ok(SimTime::Seconds(100.0)));
        assert_eq!(trace_time("1.5e1s"), Ok(15_000_000_000));
        assert_eq!(duration("1e7s"), Err("must be at most 1000000s".into()));
        assert!(duration("1es").expect_err("no exponent").contains("60s"));
    }

    #[test]
    fn simulated_times_keep_jiffies_until_the_hz_is_known() {
        assert_eq!(sim_time("60s"), Ok(SimTime::Seconds(60.0)));
        assert_eq!(sim_time("250j"), Ok(SimTime::Jiffies(250.0)));
        assert_eq!(sim_time("3 jiffies"), Ok(SimTime::Jiffies(3.0)));
        assert_eq!(sim_time("0j"), Err("must be positive".into()));
        // A number past f64's range is too large, not negative.
        assert_eq!(sim_time("1e400"), Err("must be at most 1000000s".into()));
        assert_eq!(sim_time("1e400j"), Err("must be at most 1000000s".into()));
        assert_eq!(duration("1e400ms"), Err("must be at most 1000000s".into()));
        assert_eq!(sim_time("-1e400"), Err("must be positive".into()));
        assert_eq!(sim_time("0ms"), Err("must be positive".into()));
        let no_time = Err("must be a time such as 60s, 500ms or 10m, or jiffies such as 250j".into());
        assert_eq!(sim_time("0x10s"), no_time, "a unit that is none, not a time too short");
        assert_eq!(sim_moment("0x10"), no_time);
        assert_eq!(sim_moment("0"), Ok(SimTime::Seconds(0.0)));
        assert_eq!(sim_moment("0ms"), Ok(SimTime::Seconds(0.0)));
        assert_eq!(sim_moment("0j"), Ok(SimTime::Jiffies(0.0)));
        assert_eq!(sim_moment("-1s"), Err("must be 0 (before anything ran) or later".into()));
        assert!(sim_time("3q").expect_err("no unit").contains("250j"));
        assert_eq!(sim_time("250j").expect("parses").ns("--at", 250).expect("whole"), 1_000_000_000);
        assert_eq!(sim_time("1j").expect("parses").ns("--at", 300).expect("whole"), 3_333_333);
        assert_eq!(sim_time("500ms").expect("parses").ns("--at", 100).expect("a time"), 500_000_000);
        assert_eq!(
            sim_time("2.5j").expect("parses").ns("--at", 300).expect_err("half a jiffy").to_string(),
            "--at must be a whole number of jiffies (a jiffy is 3.333 ms at HZ 300), got 2.5"
        );
        assert_eq!(
            sim_time("1000000000j").expect("parses").ns("--duration", 100).expect_err("too long").to_string(),
            "--duration must be at most 1000000 s, got 1000000000 jiffies at HZ 100"
        );
    }

    #[test]
    fn screen_sizes() {
        assert_eq!(screen_size("160x48"), Ok((160, 48)));
        assert_eq!(screen_size("80X24"), Ok((80, 24)));
        assert!(screen_size("0x10").is_err());
        assert!(screen_size("160").is_err());
        assert!(screen_size("axb").is_err());
    }

    #[test]
    fn absurd_values_are_refused() {
        assert!(memory("0").is_err());
        assert!(memory("16M").is_ok());
        assert_eq!(memory("4T"), Ok(4 << 40));
        assert_eq!(memory("5T"), Err("too large: at most 4T".into()));
        assert_eq!(memory("99999999999T"), Err("too large: at most 4T".into()));
        assert_eq!(trace_size("18446744073709551615"), Ok(u64::MAX));
        assert_eq!(trace_size("16777216T"), Err("too large: at most 18446744073709551615 bytes".into()));
        assert_eq!(seed("18446744073709551615"), Ok(u64::MAX));
        assert_eq!(seed("18446744073709551616"), Err("too large: at most 18446744073709551615".into()));
        assert!(seed("-1").is_err() && seed("x").is_err());
        assert!(hz("7").is_err());
        assert!(dirty_bytes("4095").is_err());
        assert!(dirty_bytes("4096").is_ok());
        // Binary in any case and spelling.
        for spelled in ["100M", "100m", "100MiB", "100mib", "100MB", "100mb", "100 MiB"] {
            assert_eq!(dirty_bytes(spelled), Ok(100 << 20), "{spelled}");
        }
        assert!(dirty_bytes("100x").expect_err("no unit").contains("sizes are binary: K, M, G, T"));
        assert!(percent("101").is_err() && percent("50%%").is_err());
        assert_eq!(percent("50%"), Ok(50), "the sysctl's unit");
        // A whole number in e-notation, as --duration takes numbers.
        assert_eq!(cpus("1e3"), Ok(1000));
        assert!(cpus("1e4").is_err() && cpus("2.5").is_err() && cpus("1e-1").is_err() && cpus("-1e1").is_err());
        assert_eq!((cpus("8.0"), percent("2e1"), percent("20.0%")), (Ok(8), Ok(20), Ok(20)));
        assert!(cpus("inf").is_err() && cpus("NaN").is_err() && percent("20.5").is_err());
        assert!(dirty_bytes("5000.5").expect_err("a part of a byte").contains("whole number of bytes"));
        assert_eq!(dirty_bytes("5000.0"), Ok(5000));
        assert!(max_error("NaN").is_err() && max_error("-1").is_err() && max_error("inf").is_err());
        assert_eq!(max_error("0.15"), Ok(0.15));
        let e = Cli::try_parse_from(["dirtyviz", "run", "--dd", "100000"]).expect_err("too many");
        assert_eq!(e.kind(), clap::error::ErrorKind::ValueValidation);
    }

    #[test]
    fn the_scenario_help_names_every_preset() {
        use clap::CommandFactory;
        let help = Cli::command().render_long_help().to_string();
        for name in crate::scenario::presets::names() {
            assert!(help.contains(name), "--scenario's help names {name}");
        }
    }

    fn joined(args: &[&str]) -> Vec<String> {
        negative_values_joined(args.iter().map(std::ffi::OsString::from))
            .into_iter()
            .map(|a| a.into_string().expect("utf-8"))
            .collect()
    }

    #[test]
    fn negative_values_join_their_option() {
        assert_eq!(joined(&["dirtyviz", "run", "--hz", "-100"]), ["dirtyviz", "run", "--hz=-100"]);
        assert_eq!(joined(&["dirtyviz", "run", "--memory", "-1G", "-q"]), ["dirtyviz", "run", "--memory=-1G", "-q"]);
        // A value given with `=`, a flag's neighbour and a short option
        // stay as typed, as does anything after `--`.
        assert_eq!(joined(&["run", "--hz=-1", "-5"]), ["run", "--hz=-1", "-5"]);
        assert_eq!(joined(&["run", "-q", "-5"]), ["run", "-q", "-5"]);
        assert_eq!(joined(&["run", "--", "--hz", "-5"]), ["run", "--", "--hz", "-5"]);
        assert_eq!(joined(&["run", "--memory", "--dd", "3"]), ["run", "--memory", "--dd", "3"]);
        assert_eq!(joined(&["run", "--duration", "-x"]), ["run", "--duration", "-x"]);
    }
}
