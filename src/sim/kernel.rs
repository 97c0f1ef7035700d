//! The kernel's integer helpers (`ilog2`, `div_u64`, `do_div`, ...) with
//! the exact semantics of a 64-bit build, so that the control law ported
//! from mm/page-writeback.c computes bit for bit what the C code computes.
//!
//! `unsigned long` is `u64` and `long` is `i64`; unsigned arithmetic wraps
//! as in C. The kernel's 64-by-32 divisions take a 32-bit divisor: the
//! divisor is truncated exactly as the C call truncates it.

/// Number of bits in a page offset: pages are 4 KiB.
pub const PAGE_SHIFT: u32 = 12;

/// Bytes in a page.
pub const PAGE_SIZE: u64 = 1 << PAGE_SHIFT;

/// Mirrors the runtime `ilog2()` (`fls_long(n) - 1`): `-1` for 0.
pub fn ilog2(n: u64) -> i32 {
    63 - n.leading_zeros() as i32
}

/// `ilog2()` assigned to an `unsigned long`, as `bdi_max_pause()` does:
/// `ilog2(0)` becomes `ULONG_MAX`.
pub fn ilog2_ul(n: u64) -> u64 {
    ilog2(n) as i64 as u64
}

/// Mirrors `roundup_pow_of_two()` for non-zero arguments.
pub fn roundup_pow_of_two(n: u64) -> u64 {
    n.max(1).next_power_of_two()
}

/// Mirrors `div_u64(dividend, u32 divisor)`.
///
/// A divisor that truncates to zero would trap in the kernel; here the
/// dividend is returned unchanged so that the simulation never panics.
/// No valid scenario reaches it (memory and dirty bytes are capped).
pub fn div_u64(dividend: u64, divisor: u64) -> u64 {
    match divisor as u32 {
        0 => dividend,
        d => dividend / d as u64,
    }
}

/// Mirrors `div_s64(s64 dividend, s32 divisor)`: truncating division with
/// a divisor truncated to 32 bits and read as signed.
pub fn div_s64(dividend: i64, divisor: u64) -> i64 {
    match divisor as u32 as i32 {
        0 => dividend,
        d => dividend.wrapping_div(d as i64),
    }
}

/// Mirrors `do_div(n, base)` on a 64-bit build: `n` is read as `u64` and
/// `base` is truncated to `u32`. Returns the new value of `n`.
pub fn do_div(n: u64, base: u64) -> u64 {
    match base as u32 {
        0 => n,
        b => n / b as u64,
    }
}

/// Mirrors `clamp_val(val, lo, hi)`: `min(max(val, lo), hi)` in the type
/// of `val`; when `lo > hi` the upper bound wins, as in the macro.
pub fn clamp_val(val: u64, lo: u64, hi: u64) -> u64 {
    val.max(lo).min(hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ilog2_matches_fls_minus_one() {
        for (n, want) in [(0, -1), (1, 0), (2, 1), (3, 1), (4, 2), (25600, 14), (u64::MAX, 63)] {
            assert_eq!(ilog2(n), want, "ilog2({n})");
        }
        assert_eq!(ilog2_ul(0), u64::MAX);
        assert_eq!(ilog2_ul(256), 8);
    }

    #[test]
    fn divisions_truncate_their_divisor_to_32_bits() {
        // 2^32 + 3 truncates to 3.
        assert_eq!(div_u64(30, (1 << 32) + 3), 10);
        assert_eq!(do_div(30, (1 << 32) + 3), 10);
        // div_s64 rounds toward zero.
        assert_eq!(div_s64(-7, 2), -3);
        assert_eq!(div_s64(7, 2), 3);
        // A divisor of 2^31 reads as i32::MIN.
        assert_eq!(div_s64(1 << 40, 1 << 31), -(1 << 9));
    }

    #[test]
    fn roundup_and_clamp() {
        assert_eq!(roundup_pow_of_two(3000), 4096);
        assert_eq!(roundup_pow_of_two(4096), 4096);
        assert_eq!(roundup_pow_of_two(300), 512);
        assert_eq!(clamp_val(5, 1, 10), 5);
        assert_eq!(clamp_val(0, 1, 10), 1);
        assert_eq!(clamp_val(50, 1, 10), 10);
        // lo > hi: hi wins, as min(max(v, lo), hi) does.
        assert_eq!(clamp_val(5, 8, 2), 2);
    }
}
