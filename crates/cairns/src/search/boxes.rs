//! Bounding boxes of cells, the one form both goal-bounding tables keep:
//! goal bounding on JPS+ ([`GoalBounds`](super::GoalBounds), a box per jump
//! point and move) and on a subgoal graph's core (a box per core edge).
//! A query leaves out a move or an edge whose box misses its goal.

/// A box of cells: the least and greatest column and row,
/// `[min_x, min_y, max_x, max_y]`.
pub(crate) type Box4 = [u16; 4];

/// The box that holds no cell (the form a build leaves a box no shortest
/// path reaches, and loading gives it); [`grow`] makes it hold its first.
pub(crate) const EMPTY: Box4 = [u16::MAX, u16::MAX, 0, 0];

/// Whether `b` holds the cell `(x, y)`.
#[inline]
pub(crate) fn holds(b: Box4, x: u16, y: u16) -> bool {
    let [x0, y0, x1, y1] = b;
    x0 <= x && x <= x1 && y0 <= y && y <= y1
}

/// Whether two boxes share a cell.
#[inline]
pub(crate) fn meet(a: Box4, b: Box4) -> bool {
    a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3]
}

/// `b` grown to hold `(x, y)`.
#[inline]
pub(crate) fn grow(b: &mut Box4, (x, y): (u16, u16)) {
    b[0] = b[0].min(x);
    b[1] = b[1].min(y);
    b[2] = b[2].max(x);
    b[3] = b[3].max(y);
}

/// A box as the saved tables write it: its four values, little-endian.
pub(crate) fn box_bytes(b: Box4) -> [u8; 8] {
    let mut out = [0u8; 8];
    for (k, v) in b.iter().enumerate() {
        out[2 * k..2 * k + 2].copy_from_slice(&v.to_le_bytes());
    }
    out
}

/// A box read back from [`box_bytes`].
pub(crate) fn box_from_bytes(b: [u8; 8]) -> Box4 {
    std::array::from_fn(|k| u16::from_le_bytes([b[2 * k], b[2 * k + 1]]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_box_grows_to_hold_exactly_its_cells() {
        let mut b = EMPTY;
        assert!(!holds(b, 0, 0) && !meet(b, [0, 0, 1000, 1000]));
        grow(&mut b, (3, 5));
        grow(&mut b, (1, 7));
        assert_eq!(b, [1, 5, 3, 7]);
        assert!(holds(b, 2, 6) && !holds(b, 0, 6) && !holds(b, 2, 8));
        assert!(meet(b, [3, 7, 9, 9]) && !meet(b, [4, 0, 9, 9]));
        assert_eq!(box_from_bytes(box_bytes(b)), b);
        assert_eq!(box_from_bytes(box_bytes(EMPTY)), EMPTY);
    }
}
