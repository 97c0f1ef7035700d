//! The data behind the five charts, in display units (MiB, MiB/s, ms,
//! seconds), thinned to about two points per column so that drawing stays
//! cheap however many samples, tasks and pauses there are.

use std::collections::VecDeque;

use crate::pauses::{BIN_NS, Bin, PauseBins};
use crate::sim::World;
use crate::sim::metrics::Sample;

/// Pages as MiB.
pub fn mib(pages: u64) -> f64 {
    pages as f64 / 256.0
}

/// One named series of (x, y) points.
pub struct Series {
    /// Legend label.
    pub name: &'static str,
    /// Legend label when space is short.
    pub short: &'static str,
    /// Points.
    pub points: Vec<(f64, f64)>,
    /// Index into the theme's series colours.
    pub color: usize,
    /// Drawn as separate points rather than a line.
    pub scatter: bool,
}

/// A chart's data: its series and axis ranges.
pub struct ChartData {
    /// The series, back to front.
    pub series: Vec<Series>,
    /// x range.
    pub x: [f64; 2],
    /// y range.
    pub y: [f64; 2],
    /// Unit of the y axis.
    pub y_unit: &'static str,
    /// Extra text for the title (live values).
    pub note: String,
}

/// The samples in the time window ending now, thinned to at most
/// `2 * width` (the last sample always kept).
pub fn window(samples: &VecDeque<Sample>, window_s: Option<u64>, width: u16) -> (Vec<&Sample>, [f64; 2]) {
    let Some(last) = samples.back() else {
        return (Vec::new(), [0.0, 1.0]);
    };
    let end = last.t_ns as f64 / 1e9;
    let start = match window_s {
        Some(w) => (end - w as f64).max(0.0),
        None => samples.front().map_or(0.0, |s| s.t_ns as f64 / 1e9),
    };
    let first = samples.partition_point(|s| (s.t_ns as f64 / 1e9) < start);
    let n = samples.len() - first;
    let keep = (2 * width as usize).max(2);
    let stride = n.div_ceil(keep).max(1);
    let mut picked: Vec<&Sample> = samples.range(first..).step_by(stride).collect();
    if picked.last().map(|s| s.t_ns) != Some(last.t_ns) {
        picked.push(last);
    }
    let span = match window_s {
        Some(w) => [end - w as f64, end].map(|x| x.max(0.0)),
        None => [start, end],
    };
    let span = if span[1] - span[0] < 1.0 { [span[0], span[0] + 1.0] } else { span };
    (picked, span)
}

fn series(
    (name, short): (&'static str, &'static str),
    color: usize,
    picked: &[&Sample],
    f: impl Fn(&Sample) -> f64,
) -> Series {
    Series { name, short, points: picked.iter().map(|s| (s.t_ns as f64 / 1e9, f(s))).collect(), color, scatter: false }
}

fn y_max(series: &[Series]) -> f64 {
    let m = series.iter().flat_map(|s| s.points.iter().map(|p| p.1)).fold(0.0, f64::max);
    if m <= 0.0 { 1.0 } else { m * 1.08 }
}

/// Chart 1: global dirty pages against the thresholds.
pub fn global_dirty(w: &World, window_s: Option<u64>, width: u16) -> ChartData {
    let (p, x) = window(w.samples(), window_s, width);
    let series = vec![
        series(("bg", "bg"), 7, &p, |s| mib(s.bg_thresh)),
        series(("freerun", "free"), 2, &p, |s| mib(s.freerun)),
        series(("setpoint", "set"), 3, &p, |s| mib(s.setpoint)),
        series(("limit", "lim"), 5, &p, |s| mib(s.limit)),
        series(("thresh", "thr"), 6, &p, |s| mib(s.thresh)),
        series(("wb+unstable", "wb"), 1, &p, |s| mib(s.writeback + s.unstable)),
        series(("dirty", "dirty"), 0, &p, |s| mib(s.dirty)),
    ];
    let note = p.last().map_or(String::new(), |s| {
        format!(" dirty {:.0} MiB, {:.1}% of dirtyable", mib(s.dirty), 100.0 * s.dirty as f64 / s.dirtyable as f64)
    });
    let y = [0.0, y_max(&series)];
    ChartData { series, x, y, y_unit: "MiB", note }
}

/// Chart 2: one bdi's dirty pages against its setpoint and threshold.
pub fn bdi_dirty(w: &World, bdi: usize, window_s: Option<u64>, width: u16) -> ChartData {
    let (p, x) = window(w.samples(), window_s, width);
    let series = vec![
        series(("bdi_thresh", "thr"), 5, &p, |s| mib(s.bdis[bdi].thresh)),
        series(("bdi_setpoint", "set"), 3, &p, |s| mib(s.bdis[bdi].setpoint)),
        series(("writeback", "wb"), 1, &p, |s| mib(s.bdis[bdi].writeback)),
        series(("bdi_dirty", "dirty"), 0, &p, |s| mib(s.bdis[bdi].dirty)),
    ];
    let note = p.last().map_or(String::new(), |s| {
        let b = &s.bdis[bdi];
        format!(" {:.0} of {:.0} MiB", mib(b.dirty), mib(b.thresh))
    });
    let y = [0.0, y_max(&series)];
    ChartData { series, x, y, y_unit: "MiB", note }
}

/// Chart 4: one bdi's rates.
pub fn rates(w: &World, bdi: usize, window_s: Option<u64>, width: u16) -> ChartData {
    let (p, x) = window(w.samples(), window_s, width);
    let all = w.samples();
    // The bdi's dirty rate over the second before each point.
    let dirty_rate = |s: &Sample| {
        let i = all.partition_point(|a| a.t_ns + crate::sim::NS_PER_SEC < s.t_ns);
        let a = &all[i.min(all.len() - 1)];
        let dt = s.t_ns.saturating_sub(a.t_ns) as f64 / 1e9;
        if dt > 0.0 { mib(s.bdis[bdi].dirtied - a.bdis[bdi].dirtied) / dt } else { 0.0 }
    };
    let series = vec![
        series(("dirty_rate", "dirtied"), 2, &p, dirty_rate),
        series(("write_bw/N", "bw/N"), 7, &p, |s| {
            let b = &s.bdis[bdi];
            if b.tasks == 0 { 0.0 } else { mib(b.avg_write_bw) / b.tasks as f64 }
        }),
        series(("write_bw", "bw"), 1, &p, |s| mib(s.bdis[bdi].write_bw)),
        series(("avg_write_bw", "avg"), 4, &p, |s| mib(s.bdis[bdi].avg_write_bw)),
        series(("balanced", "bal"), 3, &p, |s| mib(s.bdis[bdi].balanced_ratelimit)),
        series(("task_ratelimit", "task"), 6, &p, |s| mib(s.bdis[bdi].task_ratelimit)),
        series(("dirty_ratelimit", "rate"), 0, &p, |s| mib(s.bdis[bdi].dirty_ratelimit)),
    ];
    let note = p.last().map_or(String::new(), |s| {
        let b = &s.bdis[bdi];
        let target = if b.tasks == 0 { 0.0 } else { mib(b.avg_write_bw) / b.tasks as f64 };
        format!(" dirty_ratelimit {:.2} vs write_bw/N {:.2} MiB/s", mib(b.dirty_ratelimit), target)
    });
    // Keep the balanced estimate's spikes and free-running dirtiers from
    // flattening the rest.
    let top = series
        .iter()
        .filter(|s| s.name != "balanced" && s.name != "dirty_rate")
        .flat_map(|s| s.points.iter().map(|p| p.1))
        .fold(0.0, f64::max)
        .max(0.1)
        * 1.3;
    ChartData { series, x, y: [0.0, top], y_unit: "MiB/s", note }
}

/// Chart 5: throttling pauses of the bdi's tasks (each sleep, and whole
/// calls), and the bdi's max_pause. The pauses come from `bins`, filled
/// as they happened: the headline is exact and drawing costs the same
/// however many tasks there are.
pub fn pauses(w: &World, bins: &PauseBins, bdi: usize, window_s: Option<u64>, width: u16) -> ChartData {
    let (p, x) = window(w.samples(), window_s, width);
    let ms = |j: u32| j as f64 * 1000.0 / w.hz() as f64;
    let max_pause = series(("max_pause", "max"), 5, &p, |s| ms(s.bdis[bdi].max_pause as u32));
    let (from, to) = ((x[0] * 1e9) as u64, w.samples().back().map_or(0, |s| s.t_ns));
    let all: Vec<(u64, &Bin)> = bins.range(bdi, from, to).collect();
    let groups = (2 * width as usize).max(1);
    let per_group = all.len().div_ceil(groups).max(1);
    let (mut sleeps, mut calls) = (Vec::new(), Vec::new());
    let mut total = Bin::default();
    for chunk in all.chunks(per_group) {
        let mut g = Bin::default();
        for (_, b) in chunk {
            g.merge(b);
        }
        total.merge(&g);
        let t = (chunk[0].0 + chunk[chunk.len() - 1].0 + BIN_NS) as f64 / 2e9;
        if g.sleeps > 0 {
            sleeps.extend([(t, ms(g.sleep_min)), (t, ms(g.sleep_max))]);
        }
        if g.calls > 0 {
            calls.extend([(t, ms(g.call_min)), (t, ms(g.call_max))]);
        }
    }
    let note = format!(" longest sleep {:.0} ms, longest call {:.0} ms", ms(total.sleep_max), ms(total.call_max));
    let series = vec![
        max_pause,
        Series { name: "in call", short: "call", points: calls, color: 4, scatter: true },
        Series { name: "pause", short: "pause", points: sleeps, color: 0, scatter: true },
    ];
    let y = [0.0, y_max(&series).max(25.0)];
    ChartData { series, x, y, y_unit: "ms", note }
}

/// Chart 3's curves and the live operating point, in pos_ratio units
/// (1.0 = the balanced rate) against pages.
pub struct PosRatio {
    /// Curves and markers.
    pub data: ChartData,
    /// The exact pos_ratio now, 1.0 = 1024, and its parts.
    pub value: f64,
}

/// Chart 3: the global cubic control line over [freerun, limit], the bdi
/// control line with its 1/4 floor and reserve area, their product, and
/// where the system is on them now.
pub fn pos_ratio(w: &World, bdi: usize, width: u16) -> PosRatio {
    let (bdi_thresh, pos) = w.bdi_position(bdi);
    let vm = w.vm();
    let l = vm.limits;
    let (thresh, freerun, limit) = (l.dirty as f64, ((l.dirty + l.background) / 2) as f64, vm.limit() as f64);
    let setpoint = (freerun + limit) / 2.0;
    let dirty = vm.nr_dirty() as f64;
    let b = &w.bdis()[bdi];
    let bdi_dirty = (b.reclaimable + b.writeback) as f64;
    let write_bw = b.avg_write_bandwidth as f64;
    let reserve = w.patches() >= 10;

    // The formulas of bdi_position_ratio(), in floating point, for the curves.
    let global = |x: f64| {
        if x >= limit { 0.0 } else { (1.0 + ((setpoint - x) / (limit - setpoint + 1.0)).powi(3)).max(0.0) }
    };
    let mut bt = (bdi_thresh as f64).min(thresh);
    if reserve {
        bt = bt.max((limit - dirty) / 8.0);
    }
    let share = bt / (thresh + 1.0);
    let bdi_setpoint = setpoint * share;
    let span = (thresh - bt + 8.0 * write_bw) * share;
    let x_intercept = bdi_setpoint + span;
    let bdi_line = |x: f64| {
        let mut f =
            if x < x_intercept - span / 4.0 { (x_intercept - x) / (x_intercept - bdi_setpoint + 1.0) } else { 0.25 };
        if reserve && x < bt / 2.0 {
            f *= if x > bt / 16.0 { (bt / 2.0) / x } else { 8.0 };
        }
        f
    };
    let ratio = if dirty > 0.0 { bdi_dirty / dirty } else { 1.0 };

    let x_hi = limit * 1.04;
    let x_lo = 0.0;
    let n = (2 * width as usize).max(8);
    let xs = |lo: f64, hi: f64| (0..=n).map(move |i| lo + (hi - lo) * i as f64 / n as f64);
    let y_top = 2.5;
    let clip = |y: f64| y.min(y_top);
    let g: Vec<(f64, f64)> = xs(freerun, x_hi).map(|x| (mib(x as u64), global(x))).collect();
    let bl: Vec<(f64, f64)> = xs(x_lo, x_hi).map(|x| (mib(x as u64), clip(bdi_line(x)))).collect();
    let prod: Vec<(f64, f64)> =
        xs(freerun, x_hi).map(|x| (mib(x as u64), clip(global(x) * bdi_line(x * ratio)))).collect();
    let floor: Vec<(f64, f64)> = vec![(mib(x_lo as u64), 0.25), (mib(x_hi as u64), 0.25)];
    let value = pos.pos_ratio as f64 / 1024.0;
    let mut series = vec![
        Series { name: "1/4 floor", short: "1/4", points: floor, color: 7, scatter: false },
        Series { name: "bdi line", short: "bdi", points: bl, color: 1, scatter: false },
        Series { name: "global", short: "global", points: g, color: 2, scatter: false },
        Series { name: "product", short: "prod", points: prod, color: 0, scatter: false },
        Series {
            name: "now",
            short: "now",
            points: vec![(mib(dirty as u64), clip(value)), (mib(bdi_dirty as u64), clip(bdi_line(bdi_dirty)))],
            color: 3,
            scatter: true,
        },
    ];
    if reserve {
        let area: Vec<(f64, f64)> = xs(0.0, bt / 2.0).map(|x| (mib(x as u64), clip(bdi_line(x)))).collect();
        series.insert(1, Series { name: "reserve", short: "res", points: area, color: 6, scatter: false });
    }
    let shadow = if w.patches() < 7 { " (shadow: not used before patch 07)" } else { "" };
    let note = format!(
        " pos_ratio {:.3} at dirty {:.0} MiB, bdi_dirty {:.0} MiB{shadow}",
        value,
        mib(dirty as u64),
        mib(bdi_dirty as u64)
    );
    PosRatio {
        data: ChartData { series, x: [mib(x_lo as u64), mib(x_hi as u64)], y: [0.0, y_top], y_unit: "ratio", note },
        value,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::presets;

    #[test]
    fn windows_are_thinned_to_twice_the_width_and_keep_the_last_sample() {
        let mut cfg = presets::get("default").expect("preset").expect("valid").to_world().expect("world");
        cfg.sample_ns = crate::sim::NS_PER_SEC / 100;
        let mut w = World::new(&cfg).expect("world");
        w.step_until(20 * crate::sim::NS_PER_SEC);
        let (picked, x) = window(w.samples(), None, 50);
        assert!(picked.len() <= 101, "{}", picked.len());
        assert_eq!(picked.last().map(|s| s.t_ns), w.samples().back().map(|s| s.t_ns));
        assert_eq!(x, [0.0, 20.0]);
        let (picked, x) = window(w.samples(), Some(5), 50);
        assert_eq!(x, [15.0, 20.0]);
        assert!(picked.iter().all(|s| s.t_ns >= 15 * crate::sim::NS_PER_SEC));
    }

    #[test]
    fn the_operating_point_sits_on_the_curves() {
        let mut w = World::new(&presets::get("default").expect("preset").expect("valid").to_world().expect("world"))
            .expect("world");
        w.step_until(20 * crate::sim::NS_PER_SEC);
        let p = pos_ratio(&w, 0, 80);
        assert!(p.value > 0.3 && p.value < 2.5, "{}", p.value);
        assert!(p.data.note.contains("pos_ratio"));
        // The product at the operating point is close to the exact value.
        let now = &p.data.series.last().expect("points").points[0];
        assert!((now.1 - p.value).abs() < 1e-9);
    }
}
