//! The world change a message asks for, as a pure function of the message
//! and the world it applies to: the same key gives each side of a
//! comparison the change that fits it.

use crate::sim::config::{Legacy, TaskConfig};
use crate::sim::engine::MAX_MEMORY_BYTES;
use crate::sim::kernel::PAGE_SIZE;
use crate::sim::{Input, World};

use super::msg::Msg;

/// The least memory a world may have, as the engine and `--memory` take it \[bytes\].
pub(crate) const MIN_MEMORY_BYTES: u64 = 16 << 20;

/// The input `msg` asks of `world`, with `bdi` the selected bdi; `None`
/// when the message changes no world (or this one cannot go further,
/// e.g. patch level 11 up).
pub fn input_for(msg: Msg, bdi: usize, w: &World) -> Option<Input> {
    let t = w.vm().tunables;
    match msg {
        Msg::AddDd => Some(Input::AddTask(TaskConfig::dd(bdi))),
        Msg::RemoveDd => Some(Input::RemoveDd(bdi)),
        Msg::DirtyRatio(delta) => {
            let now = if t.dirty_bytes > 0 { ratio_of_bytes(w, t.dirty_bytes) } else { t.dirty_ratio };
            Some(Input::DirtyRatio(now.saturating_add_signed(delta as i64).min(100)))
        }
        Msg::BackgroundRatio(delta) => {
            let now = if t.dirty_background_bytes > 0 {
                ratio_of_bytes(w, t.dirty_background_bytes)
            } else {
                t.dirty_background_ratio
            };
            Some(Input::DirtyBackgroundRatio(now.saturating_add_signed(delta as i64).clamp(0, 100)))
        }
        Msg::Memory(up) => {
            let vm = w.vm();
            let (least, most) = (MIN_MEMORY_BYTES / PAGE_SIZE, MAX_MEMORY_BYTES / PAGE_SIZE);
            let memory = if up { vm.memory_pages.saturating_mul(2) } else { vm.memory_pages / 2 }.clamp(least, most);
            if memory == vm.memory_pages {
                return None;
            }
            // The reserved pages keep their share of memory: at a limit,
            // neither moves.
            let reserved = (u128::from(vm.reserved_pages) * u128::from(memory) / u128::from(vm.memory_pages)) as u64;
            // Half a memory that its dirty pages would not fit in is not
            // taken (only writeback frees them).
            (memory >= vm.nr_dirty() + reserved).then_some(Input::Memory { memory, reserved })
        }
        // Below patch level 0 (3.1) comes Linux 2.6.38.
        Msg::Patches(up) => match (w.patches(), w.legacy(), up) {
            (0, Legacy::Linux2638, true) => Some(Input::Legacy(Legacy::Linux31)),
            (0, Legacy::Linux2638, false) | (11, _, true) => None,
            (0, Legacy::Linux31, false) => Some(Input::Legacy(Legacy::Linux2638)),
            (p, _, true) => Some(Input::Patches(p + 1)),
            (p, _, false) => Some(Input::Patches(p - 1)),
        },
        _ => None,
    }
}

/// The dirty ratio closest to a byte setting, for the ratio keys.
fn ratio_of_bytes(w: &World, bytes: u64) -> u64 {
    (bytes / PAGE_SIZE * 100 / w.vm().dirtyable().max(1)).clamp(1, 100)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::presets;

    fn world(patches: u8, legacy: Legacy) -> World {
        let mut cfg = presets::get("default").expect("preset").expect("valid").to_world().expect("world");
        cfg.patches = patches;
        cfg.legacy = legacy;
        World::new(&cfg).expect("world")
    }

    #[test]
    fn each_key_asks_the_change_its_help_names() {
        let w = world(11, Legacy::Linux31);
        assert_eq!(input_for(Msg::DirtyRatio(-1), 0, &w), Some(Input::DirtyRatio(19)));
        assert_eq!(input_for(Msg::BackgroundRatio(1), 0, &w), Some(Input::DirtyBackgroundRatio(11)));
        assert_eq!(input_for(Msg::RemoveDd, 0, &w), Some(Input::RemoveDd(0)));
        let vm = w.vm();
        assert_eq!(
            input_for(Msg::Memory(true), 0, &w),
            Some(Input::Memory { memory: 2 * vm.memory_pages, reserved: 2 * vm.reserved_pages })
        );
        assert_eq!(input_for(Msg::Patches(true), 0, &w), None, "11 is the top");
        assert_eq!(input_for(Msg::Patches(false), 0, &w), Some(Input::Patches(10)));
        assert_eq!(input_for(Msg::Help, 0, &w), None);
    }

    #[test]
    fn memory_keys_stop_at_the_limits_with_the_reserve_in_proportion() {
        for (up, limit) in [(true, MAX_MEMORY_BYTES / PAGE_SIZE), (false, MIN_MEMORY_BYTES / PAGE_SIZE)] {
            let mut w = world(11, Legacy::Linux31);
            let share = w.vm().reserved_pages as f64 / w.vm().memory_pages as f64;
            // Past the limit (4T up from 4G is 10 presses, 16M down 8).
            for _ in 0..80 {
                if let Some(input) = input_for(Msg::Memory(up), 0, &w) {
                    w.apply(input);
                }
            }
            let vm = w.vm();
            assert_eq!(vm.memory_pages, limit, "up {up}");
            let now = vm.reserved_pages as f64 / vm.memory_pages as f64;
            assert!((now - share).abs() < 0.01, "up {up}: reserved share {share} became {now}");
            assert_eq!(input_for(Msg::Memory(up), 0, &w), None, "up {up}: nothing left to change");
        }
    }

    #[test]
    fn memory_is_not_halved_below_its_dirty_pages_nor_shrunk_below_them() {
        let mut w = world(11, Legacy::Linux31);
        w.step_until(20 * crate::sim::config::NS_PER_SEC);
        // The 4 GiB box holds some 660 MiB dirty by 20 s: two halvings
        // go (1 GiB), the third would leave 512 MiB.
        let dirty = w.vm().nr_dirty();
        assert!(dirty > (512 << 20) / PAGE_SIZE && dirty < (1 << 30) / PAGE_SIZE, "{dirty} pages dirty");
        for _ in 0..2 {
            let input = input_for(Msg::Memory(false), 0, &w).expect("half holds the dirty pages");
            w.apply(input);
        }
        assert_eq!(w.vm().memory_pages, (1 << 30) / PAGE_SIZE);
        assert_eq!(input_for(Msg::Memory(false), 0, &w), None);
        // Asked directly (a lesson's MemoryMb), memory stops where the
        // dirty and reserved pages fill it.
        w.apply(Input::Memory { memory: (16 << 20) / PAGE_SIZE, reserved: 0 });
        assert_eq!(w.vm().memory_pages, w.vm().nr_dirty());
    }

    #[test]
    fn below_legacy_3_1_comes_2_6_38_and_nothing_below_it() {
        let w = world(0, Legacy::Linux31);
        assert_eq!(input_for(Msg::Patches(false), 0, &w), Some(Input::Legacy(Legacy::Linux2638)));
        let w = world(0, Legacy::Linux2638);
        assert_eq!(input_for(Msg::Patches(false), 0, &w), None);
        assert_eq!(input_for(Msg::Patches(true), 0, &w), Some(Input::Legacy(Legacy::Linux31)));
    }

    #[test]
    fn ratio_keys_start_from_the_ratio_a_byte_setting_amounts_to() {
        let mut cfg = presets::get("nfs-1dd").expect("preset").expect("valid").to_world().expect("world");
        cfg.tunables.dirty_bytes = 1 << 30;
        let w = World::new(&cfg).expect("world");
        let pct = (1u64 << 30) / PAGE_SIZE * 100 / w.vm().dirtyable();
        assert_eq!(input_for(Msg::DirtyRatio(1), 0, &w), Some(Input::DirtyRatio(pct + 1)));
    }
}
