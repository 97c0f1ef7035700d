/*
 * Recomputes dirtyviz trace events with the control-law code of the
 * "IO-less dirty throttling v12" series (mm/page-writeback.c), as printed
 * in the seed document, adapted only to take its inputs as arguments
 * instead of reading struct backing_dev_info and the globals.
 *
 * Input (stdin), one event per line, produced by tests/exact.rs:
 *   H <hz> <patches>
 *   B <thresh> <bg_thresh> <limit> <freerun> <setpoint> <dirty> <bdi_thresh>
 *     <bdi_dirty> <bdi_setpoint> <write_bw> <dirty_ratelimit> <pos_ratio>
 *     <task_ratelimit> <pages_dirtied> <nr_dirtied_pause_before>
 *     <nr_dirtied_pause> <max_pause> <pause>
 *   R <thresh> <bg_thresh> <limit> <dirty> <bdi_thresh> <bdi_dirty> <write_bw>
 *     <dirtied> <elapsed> <dirty_rate> <pos_ratio> <task_ratelimit>
 *     <balanced_dirty_ratelimit> <prev_balanced_dirty_ratelimit>
 *     <dirty_ratelimit_before> <dirty_ratelimit>
 * Output: one line per mismatch, then "checked <B> <R> mismatches <n>".
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>

typedef uint64_t u64;
typedef int64_t s64;
typedef uint32_t u32;
typedef int32_t s32;

#define BITS_PER_LONG 64
#define RATELIMIT_CALC_SHIFT 10

static unsigned long HZ;
static int patches;
static unsigned long global_dirty_limit;

/* include/linux/math64.h, 64-bit */
static inline u64 div_u64(u64 dividend, u32 divisor) { return dividend / divisor; }
static inline s64 div_s64(s64 dividend, s32 divisor) { return dividend / divisor; }
/* asm-generic/div64.h, 64-bit */
#define do_div(n, base) ({ uint32_t __base = (base); uint32_t __rem; \
	__rem = ((uint64_t)(n)) % __base; (n) = ((uint64_t)(n)) / __base; __rem; })
static inline int ilog2(unsigned long n) { return n ? 63 - __builtin_clzl(n) : -1; }
#define min(x, y) ((x) < (y) ? (x) : (y))
#define max(x, y) ((x) > (y) ? (x) : (y))
#define min_t(type, x, y) min((type)(x), (type)(y))
#define clamp_val(val, lo, hi) min_t(typeof(val), max_t(typeof(val), val, lo), hi)
#define max_t(type, x, y) max((type)(x), (type)(y))
#define unlikely(x) (x)
#define MAX_PAUSE max(HZ / 5, 1)

static unsigned long dirty_freerun_ceiling(unsigned long thresh,
					   unsigned long bg_thresh)
{
	return (thresh + bg_thresh) / 2;
}

static unsigned long hard_dirty_limit(unsigned long thresh)
{
	return max(thresh, global_dirty_limit);
}

/* patch 02, with patch 10's reserve area; bdi->avg_write_bandwidth is write_bw */
static unsigned long bdi_setpoint_out;
static unsigned long bdi_position_ratio(unsigned long write_bw,
					unsigned long thresh,
					unsigned long bg_thresh,
					unsigned long dirty,
					unsigned long bdi_thresh,
					unsigned long bdi_dirty)
{
	unsigned long freerun = dirty_freerun_ceiling(thresh, bg_thresh);
	unsigned long limit = hard_dirty_limit(thresh);
	unsigned long x_intercept;
	unsigned long setpoint;		/* dirty pages' target balance point */
	unsigned long bdi_setpoint;
	unsigned long span;
	long long pos_ratio;		/* for scaling up/down the rate limit */
	long x;

	bdi_setpoint_out = 0;
	if (unlikely(dirty >= limit))
		return 0;

	setpoint = (freerun + limit) / 2;
	x = div_s64((setpoint - dirty) << RATELIMIT_CALC_SHIFT,
		    limit - setpoint + 1);
	pos_ratio = x;
	pos_ratio = pos_ratio * x >> RATELIMIT_CALC_SHIFT;
	pos_ratio = pos_ratio * x >> RATELIMIT_CALC_SHIFT;
	pos_ratio += 1 << RATELIMIT_CALC_SHIFT;

	if (unlikely(bdi_thresh > thresh))
		bdi_thresh = thresh;
	if (patches >= 10)
		bdi_thresh = max(bdi_thresh, (limit - dirty) / 8);
	x = div_u64((u64)bdi_thresh << 16, thresh + 1);
	bdi_setpoint = setpoint * (u64)x >> 16;
	bdi_setpoint_out = bdi_setpoint;
	span = (thresh - bdi_thresh + 8 * write_bw) * (u64)x >> 16;
	x_intercept = bdi_setpoint + span;

	if (bdi_dirty < x_intercept - span / 4) {
		pos_ratio *= x_intercept - bdi_dirty;
		do_div(pos_ratio, x_intercept - bdi_setpoint + 1);
	} else
		pos_ratio /= 4;

	if (patches >= 10) {
		x_intercept = bdi_thresh / 2;
		if (bdi_dirty < x_intercept) {
			if (bdi_dirty > x_intercept / 8) {
				pos_ratio *= x_intercept;
				do_div(pos_ratio, bdi_dirty);
			} else
				pos_ratio *= 8;
		}
	}

	return pos_ratio;
}

/* patch 04 (patches == 4) and patch 05; the bdi fields become arguments */
struct ratelimit_out {
	unsigned long dirty_rate, pos_ratio, task_ratelimit, balanced, dirty_ratelimit;
};

static struct ratelimit_out bdi_update_dirty_ratelimit(unsigned long write_bw,
				       unsigned long prev_balanced_dirty_ratelimit,
				       unsigned long bdi_dirty_ratelimit,
				       unsigned long thresh,
				       unsigned long bg_thresh,
				       unsigned long dirty,
				       unsigned long bdi_thresh,
				       unsigned long bdi_dirty,
				       unsigned long dirtied,
				       unsigned long elapsed)
{
	struct ratelimit_out out;
	unsigned long freerun = dirty_freerun_ceiling(thresh, bg_thresh);
	unsigned long limit = hard_dirty_limit(thresh);
	unsigned long setpoint = (freerun + limit) / 2;
	unsigned long dirty_ratelimit = bdi_dirty_ratelimit;
	unsigned long dirty_rate;
	unsigned long task_ratelimit;
	unsigned long balanced_dirty_ratelimit;
	unsigned long pos_ratio;
	unsigned long step;
	unsigned long x;
	unsigned long shift;

	dirty_rate = dirtied * HZ / elapsed;	/* dirtied_stamp is 0 here */

	pos_ratio = bdi_position_ratio(write_bw, thresh, bg_thresh, dirty,
				       bdi_thresh, bdi_dirty);
	task_ratelimit = (u64)dirty_ratelimit *
					pos_ratio >> RATELIMIT_CALC_SHIFT;
	task_ratelimit++; /* it helps rampup dirty_ratelimit from tiny values */

	balanced_dirty_ratelimit = div_u64((u64)task_ratelimit * write_bw,
					   dirty_rate | 1);
	out.dirty_rate = dirty_rate;
	out.pos_ratio = pos_ratio;
	out.task_ratelimit = task_ratelimit;
	out.balanced = balanced_dirty_ratelimit;

	if (patches < 5) {
		out.dirty_ratelimit = max(balanced_dirty_ratelimit, 1UL);
		return out;
	}

	step = 0;
	if (dirty < setpoint) {
		x = min(prev_balanced_dirty_ratelimit,
			 min(balanced_dirty_ratelimit, task_ratelimit));
		if (dirty_ratelimit < x)
			step = x - dirty_ratelimit;
	} else {
		x = max(prev_balanced_dirty_ratelimit,
			 max(balanced_dirty_ratelimit, task_ratelimit));
		if (dirty_ratelimit > x)
			step = dirty_ratelimit - x;
	}

	/* step >>= dirty_ratelimit / (2 * step + 1), with mainline's fix for
	 * shifts of BITS_PER_LONG or more */
	shift = dirty_ratelimit / (2 * step + 1);
	if (shift < BITS_PER_LONG)
		step >>= shift;
	else
		step = 0;
	step = (step + 7) / 8;

	if (dirty_ratelimit < balanced_dirty_ratelimit)
		dirty_ratelimit += step;
	else
		dirty_ratelimit -= step;

	out.dirty_ratelimit = max(dirty_ratelimit, 1UL);
	return out;
}

/* patch 06 */
static unsigned long dirty_poll_interval(unsigned long dirty,
					 unsigned long thresh)
{
	if (thresh > dirty)
		return 1UL << (ilog2(thresh - dirty) >> 1);

	return 1;
}

/* patch 08; bdi->avg_write_bandwidth and bdi->dirty_ratelimit are arguments */
static unsigned long bdi_max_pause(unsigned long avg_write_bandwidth,
				   unsigned long bdi_dirty_ratelimit,
				   unsigned long bdi_dirty)
{
	unsigned long bw = avg_write_bandwidth;
	unsigned long hi = ilog2(bw);
	unsigned long lo = ilog2(bdi_dirty_ratelimit);
	unsigned long t;

	t = HZ / 50;
	if (hi > lo)
		t += (hi - lo) * (20 * HZ) / 1024;
	if (bdi_dirty)
		t = min(t, bdi_dirty * HZ / (8 * bw + 1));
	return clamp_val(t, 4, MAX_PAUSE);
}

static unsigned long n_b, n_r, n_bad;

#define CHECK(kind, line, name, got, want) do { \
	if ((got) != (want)) { \
		n_bad++; \
		if (n_bad <= 20) \
			printf("%s line %lu: %s logged %lld, code gives %lld\n", kind, line, name, \
			       (long long)(got), (long long)(want)); \
	} } while (0)

/* One iteration of balance_dirty_pages() (patches 07-11) after
 * bdi_update_bandwidth(), and the nr_dirtied_pause the call sets when it
 * ends after this iteration. */
static void check_bdp(unsigned long line, unsigned long *v)
{
	unsigned long thresh = v[0], bg_thresh = v[1], limit = v[2];
	unsigned long nr_dirty = v[5], bdi_thresh = v[6], bdi_dirty = v[7];
	unsigned long write_bw = v[9], dirty_ratelimit = v[10];
	unsigned long pages_dirtied = v[13];
	int nr_dirtied_pause = (int)(long)v[14];
	unsigned long freerun, pos_ratio, task_ratelimit = 0;
	long pause, max_pause, traced_pause;
	int new_pause;

	global_dirty_limit = limit;
	freerun = dirty_freerun_ceiling(thresh, bg_thresh);
	CHECK("balance_dirty_pages", line, "freerun", v[3], freerun);
	CHECK("balance_dirty_pages", line, "limit", v[2], hard_dirty_limit(thresh));
	CHECK("balance_dirty_pages", line, "setpoint", v[4], (freerun + hard_dirty_limit(thresh)) / 2);

	max_pause = patches >= 8 ? bdi_max_pause(write_bw, dirty_ratelimit, bdi_dirty) : MAX_PAUSE;
	pos_ratio = bdi_position_ratio(write_bw, thresh, bg_thresh, nr_dirty,
				       bdi_thresh, bdi_dirty);
	CHECK("balance_dirty_pages", line, "bdi_setpoint", v[8], bdi_setpoint_out);
	if (unlikely(pos_ratio == 0)) {
		pause = max_pause;
		goto pause;
	}
	task_ratelimit = (u64)dirty_ratelimit *
				pos_ratio >> RATELIMIT_CALC_SHIFT;
	pause = (HZ * pages_dirtied) / (task_ratelimit | 1);
	if (patches >= 9 && unlikely(pause <= 0)) {
		/* the tracepoint shows the pause computed, as Linux 3.2's does */
		traced_pause = pause;
		pause = 1; /* avoid resetting nr_dirtied_pause below */
		goto end;
	}
	pause = min(pause, max_pause);
pause:
	traced_pause = pause;
	/* io_schedule_timeout(pause); then dirty_thresh = hard_dirty_limit(dirty_thresh) */
	thresh = hard_dirty_limit(thresh);
end:
	if (patches < 9 || pause == 0) {
		new_pause = dirty_poll_interval(nr_dirty, thresh);
	} else if (pause <= max_pause / 4 &&
		   pages_dirtied >= nr_dirtied_pause) {
		new_pause = clamp_val(
				dirty_ratelimit * (max_pause / 2) / HZ,
				pages_dirtied + pages_dirtied / 8,
				pages_dirtied * 4);
	} else if (pause >= max_pause) {
		new_pause = 1 | clamp_val(
				dirty_ratelimit * (max_pause / 2) / HZ,
				pages_dirtied / 4,
				pages_dirtied - pages_dirtied / 8);
	} else
		new_pause = nr_dirtied_pause;

	CHECK("balance_dirty_pages", line, "max_pause", (long)v[16], max_pause);
	CHECK("balance_dirty_pages", line, "pos_ratio", v[11], pos_ratio);
	CHECK("balance_dirty_pages", line, "task_ratelimit", v[12], task_ratelimit);
	CHECK("balance_dirty_pages", line, "pause", (long)v[17], traced_pause);
	CHECK("balance_dirty_pages", line, "nr_dirtied_pause", (int)(long)v[15], new_pause);
	n_b++;
}

static void check_ratelimit(unsigned long line, unsigned long *v)
{
	struct ratelimit_out o;

	global_dirty_limit = v[2];
	CHECK("bdi_dirty_ratelimit", line, "limit", v[2], hard_dirty_limit(v[0]));
	o = bdi_update_dirty_ratelimit(v[6], v[13], v[14], v[0], v[1], v[3],
				       v[4], v[5], v[7], v[8]);
	CHECK("bdi_dirty_ratelimit", line, "dirty_rate", v[9], o.dirty_rate);
	CHECK("bdi_dirty_ratelimit", line, "pos_ratio", v[10], o.pos_ratio);
	CHECK("bdi_dirty_ratelimit", line, "task_ratelimit", v[11], o.task_ratelimit);
	CHECK("bdi_dirty_ratelimit", line, "balanced_dirty_ratelimit", v[12], o.balanced);
	CHECK("bdi_dirty_ratelimit", line, "dirty_ratelimit", v[15], o.dirty_ratelimit);
	n_r++;
}

int main(void)
{
	char buf[4096];
	unsigned long line = 0;

	while (fgets(buf, sizeof buf, stdin)) {
		unsigned long v[32];
		int n = 0;
		char *p = buf + 1, *end;

		line++;
		while (n < 32) {
			long long x = strtoll(p, &end, 10);
			if (end == p)
				break;
			v[n++] = (unsigned long)x;
			p = end;
		}
		if (buf[0] == 'H' && n == 2) {
			HZ = v[0];
			patches = (int)v[1];
		} else if (buf[0] == 'B' && n == 18) {
			check_bdp(line, v);
		} else if (buf[0] == 'R' && n == 16) {
			check_ratelimit(line, v);
		} else {
			if (++n_bad <= 20)
				printf("line %lu: cannot parse\n", line);
		}
	}
	printf("checked %lu %lu mismatches %lu\n", n_b, n_r, n_bad);
	return n_bad != 0;
}
