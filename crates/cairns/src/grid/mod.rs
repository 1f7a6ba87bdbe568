//! Grid maps: tiles, the passability of each cell and movement rules.
//!
//! A [`Grid`] is the map as read from a Moving AI `.map` file (see
//! [`crate::movingai`]): a `width` x `height` array of [`Tile`]s, row `y` from
//! the top, column `x` from the left. A [`GridGraph`] turns a grid and a
//! [`Neighborhood`] into a [`Graph`](crate::graph::Graph) whose node ids are
//! `y * width + x`.

mod ascii;
mod bits;
pub mod clearance;
mod components;
mod generate;
mod grid_graph;
mod sight;
pub mod terrain;

pub(crate) use ascii::{grid_from_parts, parse_row};

pub use bits::BitGrid;
pub use clearance::{AgentSizeError, MAX_AGENT_SIZE};
pub use components::Components;
pub use generate::{GenerateOptions, MapKind, generate, paint_terrain, random_queries};
pub use grid_graph::{
    Canonical, EndpointError, GridGraph, GridSuccessors, Neighborhood, UnknownNeighborhood,
};
pub(crate) use grid_graph::{DIAGONAL_SIDES, DIRECTIONS, STRAIGHT_SIDES};
pub use terrain::{MAX_COST, TerrainError, TerrainErrorKind, TileCosts};

pub use crate::parse::MAX_CELLS;

use crate::graph::NodeId;
use crate::parse::ParseError;

/// The cost of a diagonal move on an octile grid: `sqrt(2)` rounded to
/// `f32` precision (`1.41421353816986083984375`, `2.42e-8` below
/// `sqrt(2)`) and widened to `f64`. Every part of the crate that prices a
/// diagonal move uses it: [`GridGraph`], the octile heuristic, jump point
/// search and JPS+.
///
/// # Why not `std::f64::consts::SQRT_2`
///
/// Ties. The constant is a multiple of `2^-23` below 2, so `a + b *
/// DIAGONAL` is computed exactly in `f64` (no rounding at all) for any `a`
/// straight and `b` diagonal moves with `a + 2b < 2^30`: two paths, or a
/// `g` plus an octile `h`, with the same numbers of straight and diagonal
/// moves give bit-equal costs, whatever the order of the additions. With
/// `SQRT_2` every sum is rounded, so equal `f` values differ in their last
/// bits and the tie order (larger `g` first) is decided by rounding noise:
/// A* expanded up to twice as many nodes on open maps.
///
/// # Why shortest paths stay shortest
///
/// Let two paths between the same cells have `a1, b1` and `a2, b2`
/// straight and diagonal moves, `A = a1 - a2`, `B = b1 - b2`, and `d =
/// sqrt(2) - DIAGONAL`. Their exact costs differ by `A + B sqrt(2)`, their
/// costs here by `A + B sqrt(2) - B d`. `A + B sqrt(2)` is zero only when
/// `A = B = 0` (`sqrt(2)` is irrational), so exact ties stay ties; otherwise
/// the order of the two paths can only change if `|A + B sqrt(2)| <= |B|
/// d`. The smallest `|A + B sqrt(2)|` over `1 <= |B| <= N` is reached at
/// the denominators of the continued fraction of `sqrt(2)` (Pell numbers:
/// 2378 gives `1.49e-4`, 5741 gives `6.16e-5`), and `|B| d` stays below it
/// for every `|B| <= 5740` (at 5740, `1.39e-4`). So whenever both paths
/// have at most 5740 diagonal moves (true whenever a path costs less than
/// 8,117: every published length of the Moving AI sets is below 4,800),
/// the shorter path under these costs is a shorter path under exact
/// `sqrt(2)` costs, and a search that is optimal here is optimal there.
/// The cost it reports is below the exact one by `b d`: `2.4e-5` for 1,000
/// diagonal moves, far inside the published lengths' rounding (the runner
/// accepts `1e-5` relative, see [`crate::movingai::lengths_match`]).
#[expect(
    clippy::cast_possible_truncation,
    reason = "the rounding to f32 is the point: it makes sums of moves exact"
)]
pub const DIAGONAL: f64 = std::f64::consts::SQRT_2 as f32 as f64;

/// One cell of a Moving AI map.
///
/// The format defines seven tile characters. Which ones a unit may enter is
/// fixed by the benchmark's movement model: `.`, `G` and `S` are passable,
/// `@`, `O`, `T` and `W` are blocked (water is traversable only by units that
/// cannot walk on ground, which the benchmarks never model).
///
/// A map may also hold letters of its own ([`Tile::Custom`]) when it is
/// read with terrain costs that define them (`F=3`:
/// [`read_map_with`](crate::movingai::read_map_with)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tile {
    /// `.`: passable terrain.
    Ground,
    /// `G`: passable terrain (a synonym of `.`).
    GroundG,
    /// `@`: out of bounds, blocked.
    OutOfBounds,
    /// `O`: out of bounds, blocked (a synonym of `@`).
    OutOfBoundsO,
    /// `T`: trees, blocked.
    Tree,
    /// `S`: swamp, passable from regular terrain.
    Swamp,
    /// `W`: water, blocked for ground movement.
    Water,
    /// A letter of the user's own (`F` for forest, say), for terrain costs
    /// ([`TileCosts`]): any ASCII graphic character but the seven above and
    /// `,` and `=`. Blocked under the Moving AI rule; passable where the
    /// terrain costs give it a finite cost. Made by [`Tile::custom`].
    Custom(u8),
}

impl Tile {
    /// A wall (`@`, out of bounds) for `true`, open ground (`.`) for
    /// `false`: what a wall mask or an edit of one cell means.
    pub fn wall_if(wall: bool) -> Tile {
        if wall {
            Tile::OutOfBounds
        } else {
            Tile::Ground
        }
    }

    /// Every tile, in the order of their characters `. G @ O T S W`.
    pub const ALL: [Tile; 7] = [
        Tile::Ground,
        Tile::GroundG,
        Tile::OutOfBounds,
        Tile::OutOfBoundsO,
        Tile::Tree,
        Tile::Swamp,
        Tile::Water,
    ];

    /// The tile for a map character, or `None` for a character the format
    /// does not define.
    pub fn from_char(ch: char) -> Option<Tile> {
        Some(match ch {
            '.' => Tile::Ground,
            'G' => Tile::GroundG,
            '@' => Tile::OutOfBounds,
            'O' => Tile::OutOfBoundsO,
            'T' => Tile::Tree,
            'S' => Tile::Swamp,
            'W' => Tile::Water,
            _ => return None,
        })
    }

    /// The tile of a user's own letter `ch` ([`Tile::Custom`]), or `None`
    /// for a character that is not ASCII graphic, is one of the seven
    /// Moving AI characters, or is `,` or `=` (the separators of
    /// [`TileCosts`]' text).
    ///
    /// ```
    /// use cairns::grid::Tile;
    ///
    /// assert_eq!(Tile::custom('F'), Some(Tile::Custom(b'F')));
    /// assert_eq!(Tile::custom('S'), None); // a Moving AI letter: Tile::Swamp
    /// assert_eq!(Tile::custom(' '), None);
    /// ```
    pub fn custom(ch: char) -> Option<Tile> {
        (ch.is_ascii_graphic() && !matches!(ch, ',' | '=') && Tile::from_char(ch).is_none())
            .then_some(Tile::Custom(ch as u8))
    }

    /// The character this tile is written as.
    pub fn to_char(self) -> char {
        match self {
            Tile::Custom(c) => char::from(c),
            Tile::Ground => '.',
            Tile::GroundG => 'G',
            Tile::OutOfBounds => '@',
            Tile::OutOfBoundsO => 'O',
            Tile::Tree => 'T',
            Tile::Swamp => 'S',
            Tile::Water => 'W',
        }
    }

    /// Whether a unit may stand on this tile.
    pub fn is_passable(self) -> bool {
        matches!(self, Tile::Ground | Tile::GroundG | Tile::Swamp)
    }
}

/// A rectangular map of tiles.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    width: u32,
    height: u32,
    tiles: Vec<Tile>,
}

/// A grid size that [`Grid`]'s constructors refuse: what is wrong is its
/// [`kind`](Self::kind).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{kind}")]
pub struct GridSizeError {
    kind: GridSizeErrorKind,
}

impl GridSizeError {
    /// What is wrong.
    pub fn kind(&self) -> &GridSizeErrorKind {
        &self.kind
    }
}

impl From<GridSizeErrorKind> for GridSizeError {
    fn from(kind: GridSizeErrorKind) -> Self {
        GridSizeError { kind }
    }
}

/// What is wrong with a grid size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GridSizeErrorKind {
    /// The width or the height is zero.
    #[error("grid size {width}x{height} has no cells")]
    Empty {
        /// The requested width.
        width: u64,
        /// The requested height.
        height: u64,
    },
    /// More than [`MAX_CELLS`] cells.
    #[error("grid size {width}x{height} exceeds {MAX_CELLS} cells")]
    TooLarge {
        /// The requested width.
        width: u64,
        /// The requested height.
        height: u64,
    },
    /// [`Grid::from_tiles`] was given a number of tiles other than
    /// `width * height`.
    #[error("grid size {width}x{height} needs {} tiles, got {tiles}", u64::from(*width) * u64::from(*height))]
    TileCount {
        /// The requested width.
        width: u32,
        /// The requested height.
        height: u32,
        /// The number of tiles given.
        tiles: usize,
    },
}

impl Grid {
    /// Checks that a `width` x `height` grid is non-empty and small enough for
    /// `u32` node ids.
    ///
    /// # Errors
    ///
    /// [`GridSizeError`] when either side is zero or there are more than
    /// [`MAX_CELLS`] cells.
    pub fn check_size(width: u64, height: u64) -> Result<(), GridSizeError> {
        if width == 0 || height == 0 {
            return Err(GridSizeErrorKind::Empty { width, height }.into());
        }
        match width.checked_mul(height) {
            Some(cells) if cells <= MAX_CELLS => Ok(()),
            _ => Err(GridSizeErrorKind::TooLarge { width, height }.into()),
        }
    }

    /// A grid of one tile everywhere.
    ///
    /// # Errors
    ///
    /// [`GridSizeError`] when the size is empty or too large.
    pub fn filled(width: u32, height: u32, tile: Tile) -> Result<Grid, GridSizeError> {
        Self::check_size(width.into(), height.into())?;
        Ok(Grid {
            width,
            height,
            tiles: vec![tile; width as usize * height as usize],
        })
    }

    /// A grid of ground cells and walls (`true`, the `@` of a map file), in
    /// row-major order.
    ///
    /// ```
    /// use cairns::grid::{Grid, Tile};
    ///
    /// let grid = Grid::from_walls(2, 1, [false, true]).unwrap();
    /// assert_eq!(grid.get(1, 0), Some(Tile::OutOfBounds));
    /// ```
    ///
    /// # Errors
    ///
    /// [`GridSizeError`] when the size is empty or too large, or when there
    /// are not `width * height` cells.
    pub fn from_walls(
        width: u32, height: u32, walls: impl IntoIterator<Item = bool>,
    ) -> Result<Grid, GridSizeError> {
        let tiles = walls.into_iter().map(Tile::wall_if).collect();
        Grid::from_tiles(width, height, tiles)
    }

    /// A grid from its tiles in row-major order.
    ///
    /// # Errors
    ///
    /// [`GridSizeError`] when the size is empty or too large, or when
    /// `tiles.len()` is not `width * height`.
    pub fn from_tiles(width: u32, height: u32, tiles: Vec<Tile>) -> Result<Grid, GridSizeError> {
        Self::check_size(width.into(), height.into())?;
        if tiles.len() as u64 != u64::from(width) * u64::from(height) {
            return Err(GridSizeErrorKind::TileCount {
                width,
                height,
                tiles: tiles.len(),
            }
            .into());
        }
        Ok(Grid {
            width,
            height,
            tiles,
        })
    }

    /// A grid drawn as text in map characters, one row per line. Each line is
    /// trimmed of surrounding whitespace and blank lines before the first row
    /// and after the last are ignored, which makes it convenient for examples
    /// and tests (rows may be indented). All rows must have the same width.
    ///
    /// # Errors
    ///
    /// A [`ParseError`] naming the line of an unknown character or a row
    /// of the wrong width.
    pub fn from_ascii(text: &str) -> Result<Grid, ParseError> {
        ascii::parse_ascii(text)
    }

    /// Width in cells.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height in cells.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// Number of cells, `width * height`.
    pub fn len(&self) -> usize {
        self.tiles.len()
    }

    /// Always `false`: a grid has at least one cell.
    pub fn is_empty(&self) -> bool {
        self.tiles.is_empty()
    }

    /// The tiles in row-major order.
    pub fn tiles(&self) -> &[Tile] {
        &self.tiles
    }

    /// Whether `(x, y)` lies on the grid.
    pub fn contains(&self, x: u32, y: u32) -> bool {
        x < self.width && y < self.height
    }

    /// `(x, y)`, given as signed numbers (from a binding), as a cell of the
    /// grid, or `None` when it lies off the grid.
    ///
    /// ```
    /// use cairns::grid::Grid;
    ///
    /// let grid = Grid::from_walls(3, 2, [false; 6]).unwrap();
    /// assert_eq!(grid.cell(2, 1), Some((2, 1)));
    /// assert_eq!(grid.cell(-1, 0), None);
    /// assert_eq!(grid.cell(3, 0), None);
    /// ```
    pub fn cell(&self, x: i64, y: i64) -> Option<(u32, u32)> {
        let cell = u32::try_from(x).ok().zip(u32::try_from(y).ok());
        cell.filter(|&(x, y)| self.contains(x, y))
    }

    /// The tile at `(x, y)`, or `None` outside the grid.
    pub fn get(&self, x: u32, y: u32) -> Option<Tile> {
        if self.contains(x, y) {
            Some(self.tiles[self.index(x, y)])
        } else {
            None
        }
    }

    /// Sets the tile at `(x, y)`; returns `false` (and changes nothing) when
    /// the cell is outside the grid.
    pub fn set(&mut self, x: u32, y: u32, tile: Tile) -> bool {
        if self.contains(x, y) {
            let i = self.index(x, y);
            self.tiles[i] = tile;
            true
        } else {
            false
        }
    }

    /// Whether `(x, y)` is on the grid and passable.
    pub fn is_passable(&self, x: u32, y: u32) -> bool {
        self.get(x, y).is_some_and(Tile::is_passable)
    }

    /// Number of passable cells.
    pub fn passable_count(&self) -> usize {
        self.tiles.iter().filter(|t| t.is_passable()).count()
    }

    /// The node id of `(x, y)`: `y * width + x`. The cell must be on the grid.
    pub fn node(&self, x: u32, y: u32) -> NodeId {
        debug_assert!(self.contains(x, y));
        NodeId(y * self.width + x)
    }

    /// The node id of `(x, y)`, or `None` outside the grid.
    pub fn checked_node(&self, x: u32, y: u32) -> Option<NodeId> {
        self.contains(x, y).then(|| self.node(x, y))
    }

    /// The coordinates `(x, y)` of a node id.
    pub fn coords(&self, node: NodeId) -> (u32, u32) {
        (node.0 % self.width, node.0 / self.width)
    }

    fn index(&self, x: u32, y: u32) -> usize {
        y as usize * self.width as usize + x as usize
    }

    /// The map as text in map characters, one line per row, each ending in
    /// `\n` (the body of a `.map` file, without its header).
    pub fn to_ascii(&self) -> String {
        let mut out = String::with_capacity(self.tiles.len() + self.height as usize);
        for row in self.tiles.chunks(self.width as usize) {
            out.extend(row.iter().map(|t| t.to_char()));
            out.push('\n');
        }
        out
    }
}

/// Maps for the library's property tests.
#[cfg(test)]
pub(crate) mod testing {
    use proptest::prelude::*;

    use super::{Grid, GridGraph, Neighborhood, Tile};
    use crate::graph::NodeId;

    /// A `width` x `height` map with no walls.
    pub(crate) fn open_map(width: u32, height: u32, neighborhood: Neighborhood) -> GridGraph {
        GridGraph::new(
            Grid::filled(width, height, Tile::Ground).unwrap(),
            neighborhood,
        )
    }

    /// A random 8-way map of 1 to 13 cells a side, 30% walls (dense with
    /// obstacles and ties), and a start cell on it.
    pub(crate) fn dense_map() -> impl Strategy<Value = (GridGraph, NodeId)> {
        (
            1u32..14,
            1u32..14,
            prop::collection::vec(prop::bool::weighted(0.3), 196),
            0u32..196,
        )
            .prop_map(|(w, h, walls, start)| {
                let grid =
                    Grid::from_walls(w, h, walls[..(w * h) as usize].iter().copied()).unwrap();
                (
                    GridGraph::new(grid, Neighborhood::Octile),
                    NodeId(start % (w * h)),
                )
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Guards the tie argument of [`DIAGONAL`]: sums of moves are exact, so
    /// equal move counts give bit-equal costs in any order of addition.
    #[test]
    fn sums_of_diagonal_moves_are_exact() {
        let mut seed = 7u64;
        for _ in 0..1000 {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            let (a, b) = ((seed >> 40) % 5000, (seed >> 20) % 5000);
            // One move at a time, diagonals first, against straights first
            // and against the closed form.
            let mut first = 0.0;
            for _ in 0..b {
                first += DIAGONAL;
            }
            for _ in 0..a {
                first += 1.0;
            }
            let mut second = a as f64;
            for _ in 0..b {
                second += DIAGONAL;
            }
            assert_eq!(first, second, "{a} straight, {b} diagonal");
            assert_eq!(first, a as f64 + b as f64 * DIAGONAL);
        }
        // With the exact constant the order of the additions shows.
        let sqrt2 = std::f64::consts::SQRT_2;
        assert_ne!(sqrt2 + sqrt2 + 1.0, 1.0 + sqrt2 + sqrt2);
        assert_eq!(DIAGONAL + DIAGONAL + 1.0, 1.0 + DIAGONAL + DIAGONAL);
    }

    /// Guards the optimality argument of [`DIAGONAL`]: for every difference
    /// `B` of diagonal moves up to 5740 and the nearest difference `A` of
    /// straight moves, `A + B * DIAGONAL` has the sign of `A + B * sqrt(2)`;
    /// at 5741 (a Pell number) it does not, so the bound in the docs is
    /// the true one.
    #[test]
    fn diagonal_keeps_the_order_of_path_costs_up_to_5740_diagonals() {
        let exact = |a: f64, b: f64| a + b * std::f64::consts::SQRT_2;
        let rounded = |a: f64, b: f64| a + b * DIAGONAL;
        for b in 1..=5740u32 {
            let b = f64::from(b);
            let nearest = (b * std::f64::consts::SQRT_2).round();
            for a in [-nearest - 1.0, -nearest, -nearest + 1.0] {
                let (e, r) = (exact(a, b), rounded(a, b));
                assert!(e != 0.0 && e.signum() == r.signum(), "A = {a}, B = {b}");
            }
        }
        assert!(exact(-8119.0, 5741.0) > 0.0 && rounded(-8119.0, 5741.0) < 0.0);
    }

    #[test]
    fn tile_chars_round_trip() {
        for tile in Tile::ALL {
            assert_eq!(Tile::from_char(tile.to_char()), Some(tile));
        }
        assert_eq!(Tile::from_char('Q'), None);
        let f = Tile::custom('F').unwrap();
        assert_eq!((f.to_char(), f.is_passable()), ('F', false));
        for ch in ['.', 'G', '@', 'O', 'T', 'S', 'W', ',', '=', ' ', 'é', '\n'] {
            assert_eq!(Tile::custom(ch), None, "{ch:?}");
        }
        let passable: String = Tile::ALL
            .iter()
            .filter(|t| t.is_passable())
            .map(|t| t.to_char())
            .collect();
        assert_eq!(passable, ".GS");
    }

    #[test]
    fn size_limits() {
        let e = Grid::check_size(0, 5).unwrap_err();
        assert_eq!(
            e.kind(),
            &GridSizeErrorKind::Empty {
                width: 0,
                height: 5
            }
        );
        assert_eq!(e.to_string(), "grid size 0x5 has no cells");
        let e = Grid::check_size(65_536, 65_536).unwrap_err();
        assert_eq!(
            e.to_string(),
            "grid size 65536x65536 exceeds 4294967295 cells"
        );
        let e = Grid::from_tiles(2, 2, vec![Tile::Ground; 3]).unwrap_err();
        assert_eq!(e.to_string(), "grid size 2x2 needs 4 tiles, got 3");
        assert!(Grid::check_size(5, 0).is_err());
        assert!(Grid::check_size(65_536, 65_536).is_err());
        assert!(Grid::check_size(u64::MAX, 2).is_err());
        assert!(Grid::check_size(1024, 1024).is_ok());
    }

    #[test]
    fn node_ids_are_row_major() {
        let g = Grid::filled(7, 3, Tile::Ground).unwrap();
        assert_eq!(g.node(2, 1), NodeId(9));
        assert_eq!(g.coords(NodeId(9)), (2, 1));
        assert_eq!(g.checked_node(7, 0), None);
        assert!(!g.is_passable(7, 0));
    }
}
