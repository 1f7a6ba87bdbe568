//! Distance heuristics for grids, from the cells' coordinates.

use super::Heuristic;
use crate::graph::NodeId;
use crate::grid::{DIAGONAL, GridGraph};

/// The zero heuristic: A* with it is Dijkstra's algorithm. Admissible and
/// consistent on every graph with non-negative costs.
#[derive(Clone, Copy, Debug, Default)]
pub struct Zero;

impl Heuristic for Zero {
    type Goal = ();

    #[inline]
    fn goal(&self, _goal: NodeId) {}

    #[inline]
    fn estimate(&self, _node: NodeId, _goal: &()) -> f64 {
        0.0
    }
}

/// Splits node ids of a grid `width` cells wide into coordinates, dividing
/// by multiplication with a precomputed reciprocal (Lemire's `fastdiv`:
/// exact for every 32-bit id and width), since a hardware division would be
/// the most expensive step of an estimate.
#[derive(Clone, Copy, Debug)]
struct Coords {
    width: u32,
    /// `ceil(2^64 / width)`, or 0 for width 1.
    reciprocal: u64,
}

impl Coords {
    fn new(width: u32) -> Coords {
        let reciprocal = if width == 1 {
            0
        } else {
            u64::MAX / u64::from(width) + 1
        };
        Coords { width, reciprocal }
    }

    #[inline]
    fn split(self, id: u32) -> (u32, u32) {
        let y = if self.reciprocal == 0 {
            id
        } else {
            ((u128::from(self.reciprocal) * u128::from(id)) >> 64) as u32
        };
        (id - y * self.width, y)
    }

    #[inline]
    fn of(self, node: NodeId) -> (f64, f64) {
        let (x, y) = self.split(node.0);
        (f64::from(x), f64::from(y))
    }

    #[inline]
    fn deltas(self, node: NodeId, goal: (f64, f64)) -> (f64, f64) {
        let (x, y) = self.of(node);
        ((x - goal.0).abs(), (y - goal.1).abs())
    }
}

macro_rules! grid_heuristic {
    ($(#[$doc:meta])* $name:ident, |$dx:ident, $dy:ident| $body:expr) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug)]
        pub struct $name {
            coords: Coords,
            /// What every unit of distance costs at least: the grid's
            /// cheapest cell cost ([`GridGraph::min_cost`]), 1 without
            /// terrain.
            scale: f64,
        }

        impl $name {
            /// The heuristic for the node ids of `grid`, scaled by its
            /// cheapest cell cost ([`GridGraph::min_cost`]; 1 without
            /// terrain), which keeps it admissible and consistent under
            /// terrain costs (see [`crate::grid::terrain`]).
            pub fn new(grid: &GridGraph) -> Self {
                Self {
                    coords: Coords::new(grid.width()),
                    scale: grid.min_cost(),
                }
            }

            /// The heuristic for node ids `y * width + x`.
            ///
            /// # Panics
            ///
            /// When `width` is zero.
            pub fn for_width(width: u32) -> Self {
                assert!(width > 0, "a grid has a positive width");
                Self { coords: Coords::new(width), scale: 1.0 }
            }

            /// What each unit of distance is multiplied by.
            pub fn scale(&self) -> f64 {
                self.scale
            }
        }

        impl Heuristic for $name {
            type Goal = (f64, f64);

            #[inline]
            fn goal(&self, goal: NodeId) -> (f64, f64) {
                self.coords.of(goal)
            }

            #[inline]
            fn estimate(&self, node: NodeId, goal: &(f64, f64)) -> f64 {
                let ($dx, $dy) = self.coords.deltas(node, *goal);
                self.scale * $body
            }
        }
    };
}

grid_heuristic!(
    /// Manhattan distance `|dx| + |dy|`: the exact cost on an open
    /// 4-connected grid with unit steps, so admissible and consistent there.
    /// It overestimates diagonal movement: do not use it for octile grids.
    Manhattan,
    |dx, dy| dx + dy
);

grid_heuristic!(
    /// Octile distance `max(dx, dy) + (DIAGONAL - 1) * min(dx, dy)`: the exact
    /// cost on an open 8-connected grid with diagonal steps of
    /// [`DIAGONAL`] (`sqrt(2)` rounded to `f32`; the sum is exact, so `g + h`
    /// ties exactly between cells reached with the same moves), so
    /// admissible and consistent for octile movement (with or without corner
    /// cutting) and, being below Manhattan, for 4-connected grids too.
    Octile,
    |dx, dy| dx.max(dy) + (DIAGONAL - 1.0) * dx.min(dy)
);

/// `DIAGONAL / sqrt(2)`, just below 1: the factor that keeps the
/// straight-line distance below a diagonal move's cost of [`DIAGONAL`].
const EUCLIDEAN_SCALE: f64 = DIAGONAL / std::f64::consts::SQRT_2;

grid_heuristic!(
    /// Straight-line distance `sqrt(dx^2 + dy^2)`, scaled by `DIAGONAL /
    /// sqrt(2)` (`1 - 1.7e-8`) since a diagonal move costs [`DIAGONAL`],
    /// a little less than its length: admissible and consistent for every
    /// grid movement whose steps cost at least that share of their length
    /// (4-connected and octile alike), but looser than [`Octile`] on octile
    /// grids and [`Manhattan`] on 4-connected ones.
    Euclidean,
    |dx, dy| dx.hypot(dy) * EUCLIDEAN_SCALE
);

#[cfg(test)]
mod tests {
    use super::*;

    fn h<H: Heuristic>(h: &H, from: u32, to: u32) -> f64 {
        h.estimate(NodeId(from), &h.goal(NodeId(to)))
    }

    #[test]
    fn distances_on_a_10_wide_grid() {
        // (1, 2) -> (4, 6): dx = 3, dy = 4.
        let (a, b) = (21, 64);
        assert_eq!(h(&Manhattan::for_width(10), a, b), 7.0);
        assert_eq!(h(&Euclidean::for_width(10), a, b), 5.0 * EUCLIDEAN_SCALE);
        assert!(5.0 - h(&Euclidean::for_width(10), a, b) < 1e-7);
        let oct = h(&Octile::for_width(10), a, b);
        assert_eq!(oct, 1.0 + 3.0 * DIAGONAL);
        assert_eq!(h(&Zero, a, b), 0.0);
        assert_eq!(h(&Octile::for_width(10), b, b), 0.0);
    }

    #[test]
    fn reciprocal_division_is_exact() {
        for width in [1u32, 2, 3, 7, 49, 256, 257, 1491, 65_535, 1 << 20, u32::MAX] {
            let c = Coords::new(width);
            let ids = [
                0u32,
                1,
                width - 1,
                width,
                width.wrapping_add(1),
                123_456_789,
                u32::MAX - 1,
                u32::MAX,
            ];
            for id in ids {
                assert_eq!(c.split(id), (id % width, id / width), "{id} / {width}");
            }
        }
    }

    #[test]
    fn ordering_between_heuristics() {
        let (m, o, e) = (
            Manhattan::for_width(13),
            Octile::for_width(13),
            Euclidean::for_width(13),
        );
        for a in 0..13 * 9 {
            for b in [0, 17, 55, 116] {
                assert!(h(&e, a, b) <= h(&o, a, b) + 1e-12);
                assert!(h(&o, a, b) <= h(&m, a, b) + 1e-12);
            }
        }
    }
}
