//! Keys as 128-bit integers whose unsigned order is the [`Key`] order, so
//! that an array heap compares two entries with one branch-free integer
//! compare.

use super::Key;

/// Maps an `f64` to a `u64` whose unsigned order is the float's total order.
#[inline]
fn ordered_bits(x: f64) -> u64 {
    let b = x.to_bits();
    if b >> 63 == 0 { b | (1 << 63) } else { !b }
}

/// The inverse of [`ordered_bits`].
#[inline]
fn from_ordered_bits(b: u64) -> f64 {
    f64::from_bits(if b >> 63 == 1 { b & !(1 << 63) } else { !b })
}

/// The 128-bit sort key of a [`Key`]: the bits of `f`, then the
/// complemented bits of `g`; smaller means "pops first".
#[inline]
pub(crate) fn encode(key: Key) -> u128 {
    (u128::from(ordered_bits(key.f)) << 64) | u128::from(!ordered_bits(key.g))
}

/// The [`Key`] of a sort key made by [`encode`].
#[inline]
pub(crate) fn decode(order: u128) -> Key {
    Key {
        f: from_ordered_bits((order >> 64) as u64),
        g: from_ordered_bits(!(order as u64)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_order_is_key_order() {
        let values = [
            0.0,
            1e-300,
            0.5,
            1.0,
            1.5,
            std::f64::consts::SQRT_2,
            1e9,
            f64::INFINITY,
        ];
        for &f1 in &values {
            for &g1 in &values {
                for &f2 in &values {
                    for &g2 in &values {
                        let (a, b) = (Key { f: f1, g: g1 }, Key { f: f2, g: g2 });
                        assert_eq!(encode(a) < encode(b), a.precedes(b), "{a:?} {b:?}");
                        assert_eq!(decode(encode(a)), a);
                    }
                }
            }
        }
        assert!(ordered_bits(-1.0) < ordered_bits(0.0));
        assert_eq!(from_ordered_bits(ordered_bits(-2.5)), -2.5);
    }
}
