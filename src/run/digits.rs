//! Numbers as text, fast: integers for the trace and fixed-point decimals
//! for the CSV, written straight into the caller's buffer without going
//! through `fmt`. The text is what `format!("{v}")` and `format!("{v:.N}")`
//! write, to the byte (the tests compare them over millions of values).

/// Longest integer text: `u64::MAX` has 20 digits, `i64::MIN` a sign and 19.
pub const MAX_INTEGER_BYTES: usize = 20;

/// "00" to "99", two bytes each.
const PAIRS: &[u8; 200] = b"\
0001020304050607080910111213141516171819\
2021222324252627282930313233343536373839\
4041424344454647484950515253545556575859\
6061626364656667686970717273747576777879\
8081828384858687888990919293949596979899";

/// Writes the decimal digits of `v` at `out[at..]`; returns where they
/// end. Panics if `out` has no room for them. The length comes first (a
/// few instructions), so that where the next number goes does not wait for
/// this one's digits.
#[inline(always)]
pub fn put_u64(out: &mut [u8], at: usize, mut v: u64) -> usize {
    let len = v.checked_ilog10().map_or(1, |d| d as usize + 1);
    let digits = &mut out[at..at + len];
    let mut i = len;
    while v >= 100 {
        let pair = (v % 100) as usize * 2;
        v /= 100;
        i -= 2;
        digits[i..i + 2].copy_from_slice(&PAIRS[pair..pair + 2]);
    }
    if v >= 10 {
        let pair = v as usize * 2;
        digits[..2].copy_from_slice(&PAIRS[pair..pair + 2]);
    } else {
        digits[0] = b'0' + v as u8;
    }
    at + len
}

/// Writes `v` (with a `-` when negative) at `out[at..]`; returns where it ends.
#[inline]
pub fn put_i64(out: &mut [u8], at: usize, v: i64) -> usize {
    if v < 0 {
        out[at] = b'-';
        put_u64(out, at + 1, v.unsigned_abs())
    } else {
        put_u64(out, at, v as u64)
    }
}

/// Appends the decimal digits of `v`.
pub fn push_u64(out: &mut Vec<u8>, v: u64) {
    let mut text = [0u8; MAX_INTEGER_BYTES];
    let end = put_u64(&mut text, 0, v);
    out.extend_from_slice(&text[..end]);
}

/// Appends `v` with `decimals` digits after the point (at most 9), as
/// `format!("{v:.decimals$}")` does: the exact binary value rounded to
/// the nearest, ties to even.
pub fn push_fixed(out: &mut Vec<u8>, v: f64, decimals: u32) {
    debug_assert!(decimals <= 9);
    match fixed_units(v, decimals) {
        Some(units) => {
            let scale = 10u64.pow(decimals);
            let mut text = [0u8; 2 * MAX_INTEGER_BYTES + 1];
            let mut end = put_u64(&mut text, 0, units / scale);
            if decimals > 0 {
                let frac = units % scale;
                // Zero-padded to `decimals` digits: the digits of
                // scale + frac, without the leading 1.
                let start = end;
                end = put_u64(&mut text, start, scale + frac);
                text[start] = b'.';
            }
            out.extend_from_slice(&text[..end]);
        }
        None => {
            use std::io::Write as _;
            write!(out, "{v:.*}", decimals as usize).expect("writing to memory");
        }
    }
}

/// `v` × 10^`decimals`, rounded to the nearest integer (ties to even),
/// for a value that is not negative and below 2^64 / 10^`decimals`;
/// `None` for anything else (left to `fmt`).
fn fixed_units(v: f64, decimals: u32) -> Option<u64> {
    if !(v.is_finite() && v.is_sign_positive()) {
        return None;
    }
    let scale = 10u128.pow(decimals);
    let bits = v.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i32;
    let fraction = bits & ((1 << 52) - 1);
    // v = mantissa × 2^power, exactly.
    let (mantissa, power) = if exp == 0 { (fraction, -1074) } else { (fraction | (1 << 52), exp - 1075) };
    let scaled = u128::from(mantissa) * scale;
    let units = if power >= 0 {
        if power > 64 {
            return None;
        }
        scaled.checked_shl(power as u32).filter(|u| u >> power == scaled)?
    } else {
        let shift = power.unsigned_abs();
        if shift >= 127 {
            // At most 2^83 × 2^-127: far below a half.
            0
        } else {
            let whole = scaled >> shift;
            let rest = scaled & ((1u128 << shift) - 1);
            let half = 1u128 << (shift - 1);
            whole + u128::from(rest > half || (rest == half && whole & 1 == 1))
        }
    };
    u64::try_from(units).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int(v: u64) -> String {
        let mut b = [0u8; MAX_INTEGER_BYTES];
        let end = put_u64(&mut b, 0, v);
        String::from_utf8(b[..end].to_vec()).expect("digits")
    }

    fn fixed(v: f64, d: u32) -> String {
        let mut out = Vec::new();
        push_fixed(&mut out, v, d);
        String::from_utf8(out).expect("text")
    }

    #[test]
    fn integers_are_what_fmt_writes() {
        let mut values: Vec<u64> = vec![0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, u64::MAX, u64::MAX - 1];
        values.extend((0..64).flat_map(|s| [1u64 << s, (1u64 << s) - 1, (1u64 << s) + 1]));
        values.extend((0..20).flat_map(|p| [10u64.pow(p), 10u64.pow(p) - 1, 10u64.pow(p) + 7]));
        values.extend((0..200_000u64).map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (i % 64)));
        for v in values {
            assert_eq!(int(v), v.to_string());
        }
        for v in [0i64, -1, 1, i64::MIN, i64::MAX, -10, -99, -100, i32::MIN as i64] {
            let mut b = [0u8; MAX_INTEGER_BYTES + 1];
            let end = put_i64(&mut b, 0, v);
            assert_eq!(std::str::from_utf8(&b[..end]).expect("digits"), v.to_string());
        }
    }

    #[test]
    fn fixed_point_is_what_fmt_writes_ties_to_even() {
        assert_eq!(fixed(0.0625, 3), "0.062");
        assert_eq!(fixed(0.1875, 3), "0.188");
        assert_eq!(fixed(0.25, 1), "0.2");
        assert_eq!(fixed(2.5, 0), "2");
        assert_eq!(fixed(0.0005, 3), "0.001");
        assert_eq!(fixed(0.0, 3), "0.000");
        assert_eq!(fixed(-0.0, 3), "-0.000");
        assert_eq!(fixed(-1.25, 1), "-1.2");
        assert_eq!(fixed(f64::NAN, 3), "NaN");
        assert_eq!(fixed(1e300, 3), format!("{:.3}", 1e300));
        assert_eq!(fixed(5e-324, 3), "0.000");
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for d in [0, 1, 3, 4] {
            // Pages as MiB (k/256, with its ties), rates over 100 ms,
            // percentages, fractions of 1024, and any bits at all.
            for k in 0..40_000u64 {
                for v in [k as f64 / 256.0, k as f64 / 256.0 / 0.1, 100.0 * k as f64 / 1_048_577.0, k as f64 / 1024.0] {
                    assert_eq!(fixed(v, d), format!("{v:.*}", d as usize), "{v:e} to {d} places");
                }
                if k % 8 != 0 {
                    continue;
                }
                let bits = f64::from_bits(next());
                let big = (next() >> (next() % 64)) as f64 / 256.0;
                for v in [bits, big] {
                    assert_eq!(fixed(v, d), format!("{v:.*}", d as usize), "{v:e} to {d} places");
                }
            }
        }
    }
}
