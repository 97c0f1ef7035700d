//! The deterministic world: tasks dirty pages in the page cache, flusher
//! threads write them to modelled devices, and balance_dirty_pages()
//! throttles the tasks. No terminal, no files, no wall clock: time is
//! simulated and the only randomness is one seeded generator.
//!
//! ```text
//!   dd tasks (CPUs, run queue)
//!      |  write(): one page at a time
//!      v
//!   balance_dirty_pages_ratelimited_nr() --every nr_dirtied_pause pages-->
//!   balance_dirty_pages(): pos_ratio x dirty_ratelimit -> pause (sleep)
//!      |                                   ^            ^
//!      v                                   |            |
//!   page cache: dirty pages per inode   bandwidth    floating
//!      |       (NR_FILE_DIRTY)          estimates    proportions
//!      v                                   |            |
//!   flusher (one per bdi): background / kupdate writeback, chunks
//!      |       dirty -> writeback                       |
//!      v                                                |
//!   device queue (128 requests) -> disk -> completion: writeback -> clean
//! ```
//!
//! Advance it with [`World::step_until`]; change it with its setters;
//! read it through its samples, statistics and trace events.

pub mod config;
pub mod device;
pub mod engine;
pub mod flusher;
pub mod kernel;
pub mod metrics;
pub mod nfs;
pub mod page_writeback;
pub mod proportions;
pub mod queue;
pub mod rng;
pub mod task;
pub mod trace;

pub use config::{
    ControllerConfig, DeviceConfig, DeviceKind, FsKind, NS_PER_SEC, NfsConfig, TaskConfig, TaskKind, WorldConfig,
};
pub use engine::{Bdi, ConfigError, Input, Vm, World};
