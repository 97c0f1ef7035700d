//! Integration tests: the real `dirtyviz` executable, run as a user runs it.

mod behaviour;
mod common;
mod crash;
mod dashboard;
mod errors;
mod exact;
mod generations;
mod headless;
mod ktrace;
mod kview;
mod lessons;
mod plot;
mod robust;
mod safety;
mod snapshot;
