//! The built-in scenarios, compiled into the binary from
//! `assets/scenarios/*.ron` and addressed by name.

use super::Scenario;
use crate::error::Result;

/// Name and RON text of every preset, in the order `--help` lists them.
pub const PRESETS: &[(&str, &str)] = &[
    ("default", include_str!("../../assets/scenarios/default.ron")),
    ("hdd-10dd", include_str!("../../assets/scenarios/hdd-10dd.ron")),
    ("hdd-100dd", include_str!("../../assets/scenarios/hdd-100dd.ron")),
    ("hdd-1000dd", include_str!("../../assets/scenarios/hdd-1000dd.ron")),
    ("ssd-10dd", include_str!("../../assets/scenarios/ssd-10dd.ron")),
    ("jbod-10hdd", include_str!("../../assets/scenarios/jbod-10hdd.ron")),
    ("raid0-10hdd", include_str!("../../assets/scenarios/raid0-10hdd.ron")),
    ("ukey-hdd", include_str!("../../assets/scenarios/ukey-hdd.ron")),
    ("nfs-1dd", include_str!("../../assets/scenarios/nfs-1dd.ron")),
    ("nfs-10dd", include_str!("../../assets/scenarios/nfs-10dd.ron")),
    ("switch-disk", include_str!("../../assets/scenarios/switch-disk.ron")),
    ("rsync", include_str!("../../assets/scenarios/rsync.ron")),
];

/// Preset names.
pub fn names() -> Vec<&'static str> {
    PRESETS.iter().map(|(n, _)| *n).collect()
}

/// The preset called `name`, parsed; `None` when there is none.
pub fn get(name: &str) -> Option<Result<Scenario>> {
    let (_, text) = PRESETS.iter().find(|(n, _)| *n == name)?;
    Some(Scenario::from_ron(text, &format!("assets/scenarios/{name}.ron")).map(|mut s| {
        if s.name.is_empty() {
            s.name = name.to_string();
        }
        s
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_parses_and_builds_a_world() {
        for name in names() {
            let s = get(name).expect("listed").unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(s.name, name);
            s.to_world().unwrap_or_else(|e| panic!("{name}: {e}"));
        }
        assert!(get("nope").is_none());
    }
}
