//! A grid's passable cells as rows of bits, scanned 64 cells at a time.

use super::Grid;

/// Blocked cells left of every row (one word), so that a window starting one
/// cell before the first column still reads inside the row.
const PAD: usize = 64;

/// One orientation of a grid: row `r`, column `c` is bit `PAD + c` of row
/// `r + 1` (a blocked row above and below), 1 for passable. Every row ends
/// in at least one whole blocked word.
#[derive(Clone, Debug)]
struct Rows {
    /// Words per row.
    stride: usize,
    words: Vec<u64>,
}

impl Rows {
    /// `rows` rows of `cols` cells, every cell blocked.
    fn blocked(rows: u32, cols: u32) -> Rows {
        // Room for the left pad, the columns and a blocked word after the
        // last column (read by a window starting at that column).
        let stride = (PAD + cols as usize) / 64 + 2;
        Rows {
            stride,
            words: vec![0u64; (rows as usize + 2) * stride],
        }
    }

    /// 64 cells of padded row `row` from padded bit `bit`: bit `i` is the
    /// cell at `bit + i`. The caller keeps `row` at most `rows + 1` and
    /// `bit` at most `PAD + cols`.
    #[inline]
    fn window(&self, row: usize, bit: usize) -> u64 {
        let i = row * self.stride + bit / 64;
        let s = bit % 64;
        debug_assert!(bit / 64 + 1 < self.stride);
        debug_assert!(i + 1 < self.words.len());
        // SAFETY: `bit <= PAD + cols` gives `bit / 64 + 1 < stride` (the
        // stride leaves a whole word after the last column), so `i + 1`
        // stays in row `row`, which is in `words` for `row <= rows + 1`.
        // Callers keep both bounds (see `BitGrid::jump` and `clear`); the
        // debug assertions above check them in the scan tests, which run
        // scans to every border at widths around word boundaries.
        let (lo, hi) = unsafe {
            (
                *self.words.get_unchecked(i),
                *self.words.get_unchecked(i + 1),
            )
        };
        // Two shifts so that s = 0 shifts the high word out entirely
        // instead of by 64, which would overflow.
        (lo >> s) | ((hi << 1) << (63 - s))
    }
}

/// The passable cells of a [`Grid`] as rows of bits, in four orientations
/// (as is, mirrored, transposed, transposed and mirrored), so that a run in
/// any of the four straight directions is a scan towards higher bits of one
/// row: 64 cells per step, walls and forced neighbours found with trailing
/// zero counts. Every row has blocked cells on both sides and there is a
/// blocked row above and below, so scans need no bounds checks of their own.
///
/// Building takes `O(cells)` time and about four bits per cell (plus padding
/// of two words per row and two rows per orientation). It is a snapshot:
/// changes to the grid afterwards are not seen.
///
/// ```
/// use cairns::grid::{BitGrid, Grid};
///
/// let grid = Grid::from_ascii("
///     ...
///     .@.
/// ").unwrap();
/// let bits = BitGrid::new(&grid);
/// assert!(bits.is_passable(0, 0));
/// assert!(!bits.is_passable(1, 1));
/// ```
#[derive(Clone, Debug)]
pub struct BitGrid {
    width: u32,
    height: u32,
    /// By the straight direction scanned (north, east, south, west): rows
    /// of the orientation where that direction points to higher bits.
    frames: [Rows; 4],
}

impl BitGrid {
    /// The bit grid of `grid`'s passable cells.
    pub fn new(grid: &Grid) -> BitGrid {
        BitGrid::from_fn(grid.width(), grid.height(), |x, y| grid.is_passable(x, y))
    }

    /// The bit grid of a `w x h` grid whose cell `(x, y)` is set when
    /// `open(x, y)` (subgoal graphs scan the passable cells that are not
    /// subgoals).
    ///
    /// `open` is asked once per cell, row by row, and each open cell set in
    /// the four orientations ([`place`](Self::place)): asking it four
    /// times, down the columns for two of the orientations, made the first
    /// query of a jump point searcher on a 512x512 map take milliseconds.
    pub(crate) fn from_fn(w: u32, h: u32, open: impl Fn(u32, u32) -> bool) -> BitGrid {
        let mut bits = BitGrid {
            width: w,
            height: h,
            frames: [
                // North: row x, column h - 1 - y; east: row y, column x;
                // south: row x, column y; west: row y, column w - 1 - x.
                Rows::blocked(w, h),
                Rows::blocked(h, w),
                Rows::blocked(w, h),
                Rows::blocked(h, w),
            ],
        };
        for y in 0..h {
            for x in 0..w {
                if open(x, y) {
                    bits.set(x, y, true);
                }
            }
        }
        bits
    }

    /// Sets cell `(x, y)` (on the grid) open or not, in every orientation.
    pub(crate) fn set(&mut self, x: u32, y: u32, open: bool) {
        for d in 0..4 {
            let (row, bit) = self.place(d, x, y);
            let rows = &mut self.frames[d];
            let word = &mut rows.words[row * rows.stride + bit / 64];
            if open {
                *word |= 1 << (bit % 64);
            } else {
                *word &= !(1 << (bit % 64));
            }
        }
    }

    /// Width of the grid.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height of the grid.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// Whether `(x, y)` is a passable cell (`false` off the grid).
    pub fn is_passable(&self, x: u32, y: u32) -> bool {
        if x >= self.width || y >= self.height {
            return false;
        }
        let bit = PAD + x as usize;
        self.frames[1].window(y as usize + 1, bit) & 1 == 1
    }

    /// The padded row and bit of `(x, y)` in the orientation of straight
    /// direction `d`.
    #[inline]
    fn place(&self, d: usize, x: u32, y: u32) -> (usize, usize) {
        let (row, col) = match d {
            0 => (x, self.height - 1 - y),
            1 => (y, x),
            2 => (x, y),
            _ => (y, self.width - 1 - x),
        };
        (row as usize + 1, PAD + col as usize)
    }

    /// The number of moves from `(x, y)` in straight direction `d` (0..4:
    /// north, east, south, west) to the first cell with a forced neighbour,
    /// or `None` when a blocked cell comes first. A cell has a forced
    /// neighbour when a cell beside it (across the run) is passable while
    /// the one beside the previous cell is blocked: the rule of movement
    /// without corner cutting. `(x, y)` must be on the grid.
    #[inline]
    pub(crate) fn jump(&self, d: usize, x: u32, y: u32) -> Option<u32> {
        self.scan::<false>(d, x, y)
    }

    /// Like [`jump`](Self::jump), under the rules of movement with corner
    /// cutting (Harabor and Grastien 2011): a cell has a forced neighbour
    /// when a cell beside it (across the run) is blocked while the one
    /// beside the next cell is passable, so that the diagonal past the
    /// blocked one's corner leads where no straight path from behind does.
    #[inline]
    pub(crate) fn jump_cut(&self, d: usize, x: u32, y: u32) -> Option<u32> {
        self.scan::<true>(d, x, y)
    }

    /// [`jump`](Self::jump), or with `CUT` [`jump_cut`](Self::jump_cut):
    /// one word scan under either forced-neighbour rule.
    #[inline]
    fn scan<const CUT: bool>(&self, d: usize, x: u32, y: u32) -> Option<u32> {
        // The cells after a window's first one whose stop each step
        // decides: without corner cutting a cell's rule reads the cell
        // before it (63 cells), with it the cell after it too (62).
        let step: usize = if CUT { 62 } else { 63 };
        let decided: u64 = u64::MAX >> (64 - step);
        let rows = &self.frames[d];
        let (row, at) = self.place(d, x, y);
        // Each step reads three windows from the cell before the next
        // ones: bit 0 is the cell behind. Bit k of `here` is the cell
        // k + 1; the bits past `decided` are set so that they never read
        // as walls: the next step starts there.
        let mut bit = at;
        loop {
            let here = (rows.window(row, bit) >> 1) | !decided;
            let above = rows.window(row - 1, bit);
            let below = rows.window(row + 1, bit);
            let forced = if CUT {
                // Beside cell k + 1 blocked, beside cell k + 2 open.
                let (up, down) = (above >> 1, below >> 1);
                (!up & (up >> 1)) | (!down & (down >> 1))
            } else {
                // Beside cell k + 1 open, beside cell k blocked.
                ((above >> 1) & !above) | ((below >> 1) & !below)
            } & decided;
            let stop = !here | forced;
            if stop != 0 {
                // The first stop is a jump point if its cell is passable,
                // else the wall that ends the run.
                let k = stop.trailing_zeros();
                return ((here >> k) & 1 == 1).then(|| (bit - at) as u32 + k + 1);
            }
            // `step` passable cells, none forced: the blocked border
            // guarantees a stop before the row ends, so `bit` stays below
            // `PAD + cols`.
            bit += step;
        }
    }

    /// The number of set cells in a row after `(x, y)` in straight
    /// direction `d` (0..4), counting at most `cap`. `(x, y)` must be on
    /// the grid.
    #[inline]
    pub(crate) fn run(&self, d: usize, x: u32, y: u32, cap: u32) -> u32 {
        let rows = &self.frames[d];
        let (row, at) = self.place(d, x, y);
        let mut bit = at + 1;
        let mut seen = 0u32;
        while seen < cap {
            // A window of 64 set cells ends before the blocked word after
            // the last column, so `bit` stays at most `PAD + cols`.
            let k = (!rows.window(row, bit)).trailing_zeros();
            if k < 64 {
                return (seen + k).min(cap);
            }
            seen = seen.saturating_add(64);
            bit += 64;
        }
        cap
    }

    /// Bytes of the four orientations' words.
    pub(crate) fn memory_bytes(&self) -> usize {
        self.frames.iter().map(|f| f.words.len() * 8).sum()
    }

    /// Whether the `len` cells after `(x, y)` in straight direction `d` are
    /// all passable. `(x, y)` must be on the grid.
    #[inline]
    pub(crate) fn clear(&self, d: usize, x: u32, y: u32, len: u32) -> bool {
        let rows = &self.frames[d];
        let (row, at) = self.place(d, x, y);
        let mut bit = at + 1;
        let mut left = len;
        while left > 0 {
            let n = left.min(64);
            let want = u64::MAX >> (64 - n);
            if rows.window(row, bit) & want != want {
                return false;
            }
            left -= n;
            bit += 64;
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Tile;

    /// The cell-by-cell rule that [`BitGrid::jump`] computes by words, or
    /// with `cut` the one of [`BitGrid::jump_cut`].
    fn jump_by_cells(grid: &Grid, d: usize, x: u32, y: u32, cut: bool) -> Option<u32> {
        let (dx, dy): (i64, i64) = [(0, -1), (1, 0), (0, 1), (-1, 0)][d];
        let open = |x: i64, y: i64| x >= 0 && y >= 0 && grid.is_passable(x as u32, y as u32);
        let (mut cx, mut cy) = (i64::from(x), i64::from(y));
        let mut steps = 0;
        loop {
            let (nx, ny) = (cx + dx, cy + dy);
            if !open(nx, ny) {
                return None;
            }
            steps += 1;
            // The two cells across the run: (dy, dx) and (-dy, -dx).
            for s in [1, -1] {
                let (sx, sy) = (s * dy, s * dx);
                let forced = if cut {
                    !open(nx + sx, ny + sy) && open(nx + dx + sx, ny + dy + sy)
                } else {
                    open(nx + sx, ny + sy) && !open(cx + sx, cy + sy)
                };
                if forced {
                    return Some(steps);
                }
            }
            (cx, cy) = (nx, ny);
        }
    }

    /// The passable cells in a row after `(x, y)` in direction `d`, one
    /// by one: what [`BitGrid::run`] counts by words.
    fn run_by_cells(grid: &Grid, d: usize, x: u32, y: u32) -> u32 {
        let (dx, dy): (i64, i64) = [(0, -1), (1, 0), (0, 1), (-1, 0)][d];
        let open = |x: i64, y: i64| x >= 0 && y >= 0 && grid.is_passable(x as u32, y as u32);
        let mut k = 0;
        while open(i64::from(x) + dx * (k + 1), i64::from(y) + dy * (k + 1)) {
            k += 1;
        }
        k as u32
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]
        /// Word scans agree with the cell-by-cell rule from every cell in
        /// every direction, on widths and heights around one and two words
        /// so that runs cross word boundaries and end at the border.
        #[test]
        fn jump_matches_cell_by_cell(
            w in prop_oneof_sizes(),
            h in prop_oneof_sizes(),
            density in 0u64..400,
            seed in proptest::prelude::any::<u64>(),
        ) {
            let mut rng = crate::rng::SplitMix64::new(seed);
            let tiles = (0..(w * h) as usize)
                .map(|_| if rng.below(1000) < density { Tile::Tree } else { Tile::Ground })
                .collect();
            let grid = Grid::from_tiles(w, h, tiles).unwrap();
            let bits = BitGrid::new(&grid);
            for y in 0..h {
                for x in 0..w {
                    proptest::prop_assert_eq!(bits.is_passable(x, y), grid.is_passable(x, y));
                    for d in 0..4 {
                        proptest::prop_assert_eq!(
                            bits.jump(d, x, y),
                            jump_by_cells(&grid, d, x, y, false),
                            "({}, {}) direction {}", x, y, d
                        );
                        proptest::prop_assert_eq!(
                            bits.jump_cut(d, x, y),
                            jump_by_cells(&grid, d, x, y, true),
                            "corner cutting: ({}, {}) direction {}", x, y, d
                        );
                        let run = run_by_cells(&grid, d, x, y);
                        proptest::prop_assert_eq!(bits.run(d, x, y, u32::MAX), run);
                        proptest::prop_assert_eq!(bits.run(d, x, y, 3), run.min(3));
                    }
                }
            }
        }
    }

    fn prop_oneof_sizes() -> impl proptest::strategy::Strategy<Value = u32> {
        proptest::prop_oneof![1u32..5, 60u32..70, 126u32..131]
    }

    #[test]
    fn clear_sees_walls_across_words() {
        let mut grid = Grid::filled(200, 3, Tile::Ground).unwrap();
        let bits = BitGrid::new(&grid);
        assert!(bits.clear(1, 0, 1, 199));
        assert!(!bits.clear(1, 0, 1, 200));
        assert!(bits.clear(3, 199, 1, 199));
        assert!(bits.clear(2, 5, 0, 2));
        assert!(!bits.clear(0, 5, 0, 1));
        grid.set(130, 1, Tile::Tree);
        let bits = BitGrid::new(&grid);
        assert!(bits.clear(1, 0, 1, 129));
        assert!(!bits.clear(1, 0, 1, 130));
        assert!(!bits.clear(3, 199, 1, 69));
        assert!(bits.clear(3, 199, 1, 68));
    }

    #[test]
    fn cells_set_one_by_one_scan_as_a_grid_built_so() {
        let mut rng = crate::rng::SplitMix64::new(7);
        let (w, h) = (67, 130);
        let mut grid = Grid::filled(w, h, Tile::Ground).unwrap();
        let mut bits = BitGrid::new(&grid);
        for _ in 0..2000 {
            let (x, y) = (
                rng.below(u64::from(w)) as u32,
                rng.below(u64::from(h)) as u32,
            );
            let open = rng.below(3) == 0;
            grid.set(x, y, if open { Tile::Ground } else { Tile::Tree });
            bits.set(x, y, open);
        }
        let built = BitGrid::new(&grid);
        for y in 0..h {
            for x in 0..w {
                assert_eq!(bits.is_passable(x, y), grid.is_passable(x, y));
                for d in 0..4 {
                    assert_eq!(bits.run(d, x, y, u32::MAX), built.run(d, x, y, u32::MAX));
                }
            }
        }
    }

    #[test]
    fn open_rows_run_to_the_border() {
        let grid = Grid::filled(130, 130, Tile::Ground).unwrap();
        let bits = BitGrid::new(&grid);
        for d in 0..4 {
            assert_eq!(bits.jump(d, 64, 64), None);
        }
    }
}
