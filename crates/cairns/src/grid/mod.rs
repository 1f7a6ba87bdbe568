//! Grid maps: tiles, the passability of each cell and movement rules.
//!
//! A [`Grid`] is the map as read from a Moving AI `.map` file (see
//! [`crate::movingai`]): a `width` x `height` array of [`Tile`]s, row `y` from
//! the top, column `x` from the left. A [`GridGraph`] turns a grid and a
//! [`Neighborhood`] into a [`Graph`](crate::graph::Graph) whose node ids are
//! `y * width + x`.

mod ascii;
mod bits;
mod components;
mod generate;
mod grid_graph;
mod sight;

pub(crate) use ascii::{grid_from_parts, parse_row};

pub use bits::BitGrid;
pub use components::Components;
pub use generate::{GenerateOptions, MapKind, generate};
pub use grid_graph::{Canonical, GridGraph, GridSuccessors, Neighborhood};
pub(crate) use grid_graph::{DIAGONAL_SIDES, DIRECTIONS, STRAIGHT_SIDES};

use crate::graph::NodeId;
use crate::parse::ParseError;

/// One cell of a Moving AI map.
///
/// The format defines seven tile characters. Which ones a unit may enter is
/// fixed by the benchmark's movement model: `.`, `G` and `S` are passable,
/// `@`, `O`, `T` and `W` are blocked (water is traversable only by units that
/// cannot walk on ground, which the benchmarks never model).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
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
}

impl Tile {
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

    /// The character this tile is written as.
    pub fn to_char(self) -> char {
        match self {
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

/// The largest number of cells a grid may have: node ids are `u32` and
/// `u32::MAX` is reserved as "no node".
pub const MAX_CELLS: u64 = u32::MAX as u64;

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tile_chars_round_trip() {
        for tile in Tile::ALL {
            assert_eq!(Tile::from_char(tile.to_char()), Some(tile));
        }
        assert_eq!(Tile::from_char('Q'), None);
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
