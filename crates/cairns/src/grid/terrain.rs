//! Terrain costs: what it costs to cross each cell of a grid.
//!
//! A grid with terrain gives every cell a cost `c > 0`, or `inf` for a cell
//! no unit may enter. The costs come from a table of one cost per tile
//! letter ([`TileCosts`], written `S=3,W=inf,T=2` on the command line) or
//! from an array of one cost per cell ([`GridGraph::with_cell_costs`]).
//! With terrain, the costs alone decide which cells are passable: `T=2`
//! turns trees into passable terrain, `S=inf` turns swamp into a wall.
//!
//! # The move-cost rule
//!
//! A move goes in a straight line from the centre of one cell to the centre
//! of the next, and its cost is its length times the mean cost of the two
//! cells, half of the line lying in each:
//!
//! | move | cost |
//! |---|---|
//! | straight, `u` to `v` | `(c(u) + c(v)) / 2` |
//! | diagonal, `u` to `v` | `sqrt(2) * (c(u) + c(v)) / 2` |
//!
//! A diagonal move still needs both cells beside it to be passable (no
//! corner cutting), but their costs do not count: the line only touches
//! their corners. We follow this rule because
//!
//! - with every cost 1 it is exactly the uniform octile grid (1 and
//!   `sqrt(2)`), so the Moving AI lengths hold for a map whose terrain is
//!   all 1;
//! - it is symmetric (`u` to `v` costs what `v` to `u` costs), so the grid
//!   stays its own reverse graph and landmark tables stay symmetric;
//! - every move costs at least its length times the cheapest cell cost,
//!   which is what makes the scaled octile heuristic admissible (below).
//!
//! Weighted grid pathfinding in the literature puts costs on cells in the
//! same way (Carlson, Moghadam, Harabor, Stuckey and Ebrahimi 2023,
//! "Optimal pathfinding on weighted grid maps", whose weighted jump point
//! search this crate does not implement); the common alternative charges
//! the cost of the cell entered (`c(v)` times the length), which is not
//! symmetric.
//!
//! # Heuristics
//!
//! Every move costs at least its octile length times `min`, the cheapest
//! cell cost ([`GridGraph::min_cost`]), so the octile distance times `min`
//! is a lower bound on every path's cost (admissible) and changes by at
//! most a move's cost along a move (consistent). The grid heuristics
//! ([`Octile::new`](crate::heuristic::Octile::new) and the others built
//! from a graph) apply this scale themselves.
//!
//! # Speed of the uniform grid
//!
//! A graph without terrain is unchanged: its successors read their costs
//! from one constant table of 8 entries. A graph with terrain keeps, for
//! every cell, the cost of each of its 8 moves (64 bytes per cell), and the
//! successor iterator reads from that cell's row instead; which table to
//! read is decided once per [`successors`](crate::graph::Graph::successors)
//! call, not per edge. Jump point search, JPS+ and canonical ordering rely
//! on uniform costs and refuse grids with terrain.
//!
//! [`GridGraph::with_cell_costs`]: super::GridGraph::with_cell_costs
//! [`GridGraph::min_cost`]: super::GridGraph::min_cost

use std::fmt;
use std::str::FromStr;

use super::Tile;

/// One cost per tile letter, for [`GridGraph::with_terrain`](super::GridGraph::with_terrain).
///
/// The default is the Moving AI rule: `.`, `G` and `S` cost 1, the other
/// letters are impassable. Written as a comma-separated list of
/// `LETTER=COST` changes to the default, where `COST` is a positive number
/// or `inf` (impassable). A letter other than the seven Moving AI ones
/// defines a tile of the user's own ([`Tile::Custom`]), which a map read
/// with these costs may then hold ([`read_map_with`](crate::movingai::read_map_with)):
///
/// ```
/// use cairns::grid::{Tile, TileCosts};
///
/// let costs: TileCosts = "S=3,W=inf,T=2,F=1.5".parse().unwrap();
/// assert_eq!(costs.cost(Tile::Swamp), 3.0);
/// assert_eq!(costs.cost(Tile::Tree), 2.0);          // trees become passable
/// assert_eq!(costs.cost(Tile::Ground), 1.0);        // the default
/// assert!(costs.cost(Tile::OutOfBounds).is_infinite());
/// assert_eq!(costs.cost(Tile::Custom(b'F')), 1.5);  // forest, the user's own letter
/// assert!(costs.defines(Tile::Custom(b'F')) && !costs.defines(Tile::Custom(b'M')));
/// assert_eq!(costs.to_string(), "T=2,S=3,F=1.5");   // only the changes
/// let err = "\u{e9}=2".parse::<TileCosts>().unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "terrain \"\u{e9}=2\": unknown tile '\u{e9}' (expected one of . G @ O T S W, or an ASCII letter or sign of your own)"
/// );
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct TileCosts {
    /// The seven Moving AI tiles, in the order of [`Tile::ALL`].
    costs: [f64; 7],
    /// The custom letters the table defines, sorted by letter.
    custom: Vec<(u8, f64)>,
}

impl Default for TileCosts {
    fn default() -> Self {
        TileCosts {
            costs: Tile::ALL.map(|t| if t.is_passable() { 1.0 } else { f64::INFINITY }),
            custom: Vec::new(),
        }
    }
}

impl TileCosts {
    /// The cost of crossing a cell of `tile` (`inf`: impassable, as is a
    /// custom letter the table does not define).
    pub fn cost(&self, tile: Tile) -> f64 {
        match tile {
            Tile::Custom(c) => self.find(c).map_or(f64::INFINITY, |i| self.custom[i].1),
            _ => self.costs[Self::slot(tile)],
        }
    }

    /// Whether the table gives `tile` a cost: every Moving AI tile, and the
    /// custom letters it was written with.
    pub fn defines(&self, tile: Tile) -> bool {
        match tile {
            Tile::Custom(c) => self.find(c).is_ok(),
            _ => true,
        }
    }

    /// The custom letters the table defines, in ASCII order.
    pub fn custom_tiles(&self) -> impl Iterator<Item = Tile> + '_ {
        self.custom.iter().map(|&(c, _)| Tile::Custom(c))
    }

    fn find(&self, letter: u8) -> Result<usize, usize> {
        self.custom.binary_search_by_key(&letter, |&(c, _)| c)
    }

    /// The index of a Moving AI tile in [`Tile::ALL`].
    fn slot(tile: Tile) -> usize {
        Tile::ALL.iter().position(|&t| t == tile).unwrap_or(0)
    }

    /// The table with `tile` costing `cost`.
    ///
    /// # Errors
    ///
    /// [`TerrainErrorKind::Cost`] unless `cost` is positive (`inf` included),
    /// [`TerrainErrorKind::CostTooLarge`] for a finite cost above
    /// [`MAX_COST`].
    pub fn with(mut self, tile: Tile, cost: f64) -> Result<TileCosts, TerrainError> {
        if let Some(kind) = cost_error(cost, || format!("tile '{}'", tile.to_char())) {
            return Err(kind.into());
        }
        match tile {
            Tile::Custom(c) => match self.find(c) {
                Ok(i) => self.custom[i].1 = cost,
                Err(i) => self.custom.insert(i, (c, cost)),
            },
            _ => self.costs[Self::slot(tile)] = cost,
        }
        Ok(self)
    }

    /// Whether the table is the Moving AI rule ([`TileCosts::default`]).
    pub fn is_default(&self) -> bool {
        *self == TileCosts::default()
    }
}

/// The largest finite cost a cell may have: `1e9`.
///
/// A shortest path enters each cell at most once, so it makes fewer than
/// [`MAX_CELLS`](crate::grid::MAX_CELLS) (`2^32 - 1`) moves, each costing
/// at most `sqrt(2)` times the dearer of its two cells: with every cost at
/// most `1e9`, any path costs below `6.1e18`, a finite number that prints
/// in at most 19 digits before the point. A larger cost (`1e308`) could
/// make the sum of a few moves infinite, which the searches would take for
/// "no path".
pub const MAX_COST: f64 = 1e9;

/// Whether `cost` may be a cell's cost: positive, `inf` allowed.
pub(crate) fn valid_cost(cost: f64) -> bool {
    cost > 0.0
}

/// The error for a cell or tile cost that may not be used, at `at`: not
/// positive (or NaN), or finite and above [`MAX_COST`]; `None` for a cost
/// that may.
pub(crate) fn cost_error(cost: f64, at: impl FnOnce() -> String) -> Option<TerrainErrorKind> {
    if !valid_cost(cost) {
        Some(TerrainErrorKind::Cost {
            at: at(),
            found: cost.to_string(),
        })
    } else if cost.is_finite() && cost > MAX_COST {
        Some(TerrainErrorKind::CostTooLarge {
            at: at(),
            found: format!("{cost:e}"),
        })
    } else {
        None
    }
}

impl FromStr for TileCosts {
    type Err = TerrainError;

    /// `LETTER=COST[,LETTER=COST...]`; `COST` a positive number up to
    /// [`MAX_COST`] or `inf`; each letter at most once.
    fn from_str(s: &str) -> Result<Self, TerrainError> {
        let whole = clip(s);
        let wrap = |kind: TerrainErrorKind| TerrainError {
            spec: Some(whole.clone()),
            kind,
        };
        let mut costs = TileCosts::default();
        let mut seen: Vec<Tile> = Vec::new();
        for item in s.split(',') {
            let item = item.trim();
            let Some((letter, value)) = item.split_once('=') else {
                return Err(wrap(TerrainErrorKind::Malformed { item: clip(item) }));
            };
            let mut chars = letter.trim().chars();
            let tile = match (chars.next(), chars.next()) {
                (Some(ch), None) => Tile::from_char(ch)
                    .or_else(|| Tile::custom(ch))
                    .ok_or_else(|| {
                        wrap(TerrainErrorKind::UnknownTile {
                            found: ch.to_string(),
                        })
                    })?,
                _ => {
                    return Err(wrap(TerrainErrorKind::UnknownTile {
                        found: clip(letter.trim()),
                    }));
                }
            };
            if seen.contains(&tile) {
                return Err(wrap(TerrainErrorKind::Repeated {
                    letter: tile.to_char(),
                }));
            }
            seen.push(tile);
            let value = value.trim();
            let cost = match value {
                "inf" => f64::INFINITY,
                _ => value
                    .parse::<f64>()
                    .ok()
                    .filter(|c| c.is_finite())
                    .ok_or_else(|| {
                        wrap(TerrainErrorKind::Cost {
                            at: format!("tile '{}'", tile.to_char()),
                            found: clip(value),
                        })
                    })?,
            };
            costs = costs.with(tile, cost).map_err(|e| wrap(e.kind))?;
        }
        Ok(costs)
    }
}

impl fmt::Display for TileCosts {
    /// The changes to the default, the Moving AI tiles in the order
    /// `. G @ O T S W`, then the custom letters; the default table is
    /// written as `default`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let base = TileCosts::default();
        let changed: Vec<String> = Tile::ALL
            .iter()
            .copied()
            .filter(|&t| self.cost(t) != base.cost(t))
            .chain(self.custom_tiles())
            .map(|t| format!("{}={}", t.to_char(), self.cost(t)))
            .collect();
        if changed.is_empty() {
            f.write_str("default")
        } else {
            f.write_str(&changed.join(","))
        }
    }
}

/// Terrain costs that cannot be used: what is wrong is its
/// [`kind`](Self::kind).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct TerrainError {
    /// The whole written table, for messages.
    spec: Option<String>,
    kind: TerrainErrorKind,
}

impl fmt::Display for TerrainError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.spec {
            Some(spec) => write!(f, "terrain {spec:?}: {}", self.kind),
            None => write!(f, "{}", self.kind),
        }
    }
}

impl TerrainError {
    /// What is wrong.
    pub fn kind(&self) -> &TerrainErrorKind {
        &self.kind
    }
}

impl From<TerrainErrorKind> for TerrainError {
    fn from(kind: TerrainErrorKind) -> Self {
        TerrainError { spec: None, kind }
    }
}

/// What is wrong with terrain costs.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TerrainErrorKind {
    /// An item of a written table that is not `LETTER=COST`.
    #[error("expected LETTER=COST, got {item:?}")]
    Malformed {
        /// The item (at most 60 characters of it).
        item: String,
    },
    /// A letter that is neither a Moving AI tile nor one a user may
    /// define ([`Tile::custom`]).
    #[error(
        "unknown tile '{found}' (expected one of . G @ O T S W, or an ASCII letter or sign of your own)"
    )]
    UnknownTile {
        /// The letter given.
        found: String,
    },
    /// A cost that is not a positive number or `inf`.
    #[error("{at}: the cost must be a positive number or inf, got {found:?}")]
    Cost {
        /// Which tile or cell.
        at: String,
        /// What was given.
        found: String,
    },
    /// A finite cost above [`MAX_COST`], which could make a path's cost
    /// infinite.
    #[error(
        "{at}: the cost {found} is above the largest finite cost, {MAX_COST:e} \
         (so that every path's cost stays finite); use inf for impassable"
    )]
    CostTooLarge {
        /// Which tile or cell.
        at: String,
        /// The cost given, in scientific notation (`1e308`).
        found: String,
    },
    /// A letter given twice in a written table (`Q=3,Q=4`).
    #[error("tile '{letter}' is given twice")]
    Repeated {
        /// The letter.
        letter: char,
    },
    /// A cost array of the wrong length.
    #[error("the grid has {cells} cells, got {found} costs")]
    CostCount {
        /// `width * height`.
        cells: usize,
        /// The length of the array.
        found: usize,
    },
}

/// The first 60 characters, for messages.
fn clip(s: &str) -> String {
    const MAX: usize = 60;
    match s.char_indices().nth(MAX) {
        Some((i, _)) => format!("{}...", &s[..i]),
        None => s.to_string(),
    }
}

/// Terrain of a [`GridGraph`](super::GridGraph): the costs of its cells and
/// of each cell's moves.
#[derive(Clone, Debug)]
pub(crate) struct Terrain {
    /// Where `set_tile` takes a changed cell's cost from.
    pub(crate) tiles: TileCosts,
    /// The cost of each cell; `inf` for an impassable one.
    pub(crate) cells: Vec<f64>,
    /// The cost of each legal move of each cell, by direction (0 where
    /// there is no move).
    pub(crate) moves: Vec<[f64; 8]>,
    /// A lower bound on every finite cell cost.
    pub(crate) min: f64,
}

impl Terrain {
    /// Terrain with `cells` (valid costs), no moves yet.
    pub(crate) fn new(tiles: TileCosts, cells: Vec<f64>) -> Terrain {
        let min = cells
            .iter()
            .copied()
            .filter(|c| c.is_finite())
            .fold(f64::INFINITY, f64::min);
        Terrain {
            tiles,
            moves: vec![[0.0; 8]; cells.len()],
            cells,
            // Without a passable cell any positive bound will do.
            min: if min.is_finite() { min } else { 1.0 },
        }
    }
}

/// The cost of a move of `length` (1 or `sqrt(2)`) between cells costing
/// `a` and `b`: the move-cost rule of the module docs.
#[inline]
pub(crate) fn move_cost(length: f64, a: f64, b: f64) -> f64 {
    length * (a + b) * 0.5
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn written_tables_parse_and_print_back() {
        let t: TileCosts = " S = 3 , W=inf,T=2.5,.=1".parse().unwrap();
        assert_eq!(t.cost(Tile::Swamp), 3.0);
        assert_eq!(t.cost(Tile::Tree), 2.5);
        assert!(t.cost(Tile::Water).is_infinite());
        assert_eq!(t.to_string(), "T=2.5,S=3");
        assert_eq!(t.to_string().parse::<TileCosts>().as_ref(), Ok(&t));
        assert_eq!(TileCosts::default().to_string(), "default");
        assert!(TileCosts::default().is_default());
        assert!(!t.is_default());
        // Two costs for a letter are refused (they were: the last won).
        assert!("S=2,S=4".parse::<TileCosts>().is_err());
    }

    #[test]
    fn custom_letters_are_defined_by_the_table() {
        let t: TileCosts = "F=3,M=inf,S=2".parse().unwrap();
        let (f, m, x) = (Tile::Custom(b'F'), Tile::Custom(b'M'), Tile::Custom(b'X'));
        assert_eq!(t.cost(f), 3.0);
        assert!(t.cost(m).is_infinite() && t.defines(m));
        assert!(t.cost(x).is_infinite() && !t.defines(x));
        assert_eq!(t.custom_tiles().collect::<Vec<_>>(), [f, m]);
        assert_eq!(t.to_string(), "S=2,F=3,M=inf");
        assert_eq!(t.to_string().parse::<TileCosts>().as_ref(), Ok(&t));
        assert!(!TileCosts::default().defines(f));
    }

    #[test]
    fn maps_with_custom_letters_need_their_costs() {
        use crate::graph::Graph;
        use crate::movingai::{ParseErrorKind, parse_map, parse_map_with};
        use crate::search::{Dijkstra, Search, SearchCache};

        // Forest `F` across the middle row but for a gap of mud `M`.
        let text = "type octile\nheight 3\nwidth 5\nmap\n.....\nFFMFF\n.....\n";
        // Without costs F is unknown; with only F defined, M is, each at
        // its place on line 6.
        let only_f: TileCosts = "F=3".parse().unwrap();
        for (err, ch, x) in [
            (parse_map(text).unwrap_err(), 'F', 0),
            (
                parse_map_with(text.as_bytes(), &only_f).unwrap_err(),
                'M',
                2,
            ),
        ] {
            assert_eq!(err.line(), Some(6));
            let want = ParseErrorKind::UnknownTile { ch, x, y: 1 };
            assert_eq!(err.kind(), &want, "{err}");
        }
        let costs: TileCosts = "F=3,M=1.5".parse().unwrap();
        let grid = parse_map_with(text.as_bytes(), &costs).unwrap();
        assert_eq!(grid.get(2, 1), Some(Tile::Custom(b'M')));
        assert_eq!(
            crate::movingai::write_map(&grid).lines().nth(5),
            Some("FFMFF")
        );
        let g =
            crate::grid::GridGraph::with_terrain(grid, crate::grid::Neighborhood::Octile, &costs);
        let (top, bottom) = (g.node(2, 0).unwrap(), g.node(2, 2).unwrap());
        assert_eq!(g.cell_cost(g.node(0, 1).unwrap()), 3.0);
        // Straight down through the mud: (1 + 1.5) / 2 twice.
        let mut cache = SearchCache::new();
        assert_eq!(
            Dijkstra::new(&g).search_cost(top, bottom, &mut cache),
            Some(2.5)
        );
        // Mud impassable: a step aside (1), down through the forest,
        // (1 + 3) / 2 twice, and back (1); no diagonal, which would touch
        // the mud's corner.
        let walled: TileCosts = "F=3,M=inf".parse().unwrap();
        let grid = parse_map_with(text.as_bytes(), &walled).unwrap();
        let g =
            crate::grid::GridGraph::with_terrain(grid, crate::grid::Neighborhood::Octile, &walled);
        assert!(
            g.successors(g.node(2, 0).unwrap())
                .all(|(v, _)| v != g.node(2, 1).unwrap())
        );
        assert_eq!(
            Dijkstra::new(&g).search_cost(top, bottom, &mut cache),
            Some(6.0)
        );
    }

    /// Regression test: `.=1e308` made A* answer "no path" (the sum of two
    /// moves overflowed to inf) and Dijkstra "cost inf", and `.=1e300`
    /// printed a 300-digit cost. Finite costs stop at `MAX_COST`, so that
    /// every path's cost stays finite.
    #[test]
    fn costs_above_the_bound_are_refused() {
        for big in ["1e308", "1e300", "1.5e9"] {
            let err = format!(".={big}").parse::<TileCosts>().unwrap_err();
            assert!(
                matches!(err.kind(), TerrainErrorKind::CostTooLarge { .. }),
                "{err}"
            );
            let text = err.to_string();
            assert!(text.contains("tile '.'") && text.contains("1e9"), "{text}");
            assert!(text.len() < 200, "{text}");
        }
        let max: TileCosts = format!(".={MAX_COST}").parse().unwrap();
        assert_eq!(max.cost(Tile::Ground), MAX_COST);
        assert!(TileCosts::default().with(Tile::Swamp, 1e10).is_err());
        let grid = crate::grid::Grid::from_ascii("..").unwrap();
        let err = crate::grid::GridGraph::with_cell_costs(
            grid,
            crate::grid::Neighborhood::Octile,
            vec![1.0, 1e12],
        )
        .unwrap_err();
        assert!(
            err.to_string()
                .starts_with("cell (1, 0): the cost 1e12 is above"),
            "{err}"
        );
    }

    /// Regression test: `Q=3,Q=4` silently kept 4.
    #[test]
    fn a_letter_given_twice_is_refused() {
        let err = "Q=3,S=2,Q=4".parse::<TileCosts>().unwrap_err();
        assert_eq!(err.kind(), &TerrainErrorKind::Repeated { letter: 'Q' });
        assert_eq!(
            err.to_string(),
            "terrain \"Q=3,S=2,Q=4\": tile 'Q' is given twice"
        );
        assert!("S=3,S=3".parse::<TileCosts>().is_err());
    }

    #[test]
    fn bad_tables_say_what_is_wrong() {
        for (bad, want) in [
            ("S3", "expected LETTER=COST, got \"S3\""),
            ("", "expected LETTER=COST, got \"\""),
            ("S=3,", "expected LETTER=COST, got \"\""),
            ("\u{e9}=3", "unknown tile '\u{e9}'"),
            (" =3", "unknown tile ''"),
            ("SW=3", "unknown tile 'SW'"),
            (
                "S=0",
                "tile 'S': the cost must be a positive number or inf, got \"0\"",
            ),
            ("S=-1", "got \"-1\""),
            ("S=nan", "got \"nan\""),
            ("S=abc", "got \"abc\""),
            ("S=infinity", "got \"infinity\""),
        ] {
            let err = bad.parse::<TileCosts>().unwrap_err().to_string();
            assert!(err.contains(want), "{bad}: {err}");
            assert!(err.starts_with(&format!("terrain {bad:?}: ")), "{err}");
        }
        // A number too large for f64 is refused, not taken as `inf`; and
        // long input is clipped in messages.
        for long in [format!("S={}", "9".repeat(10_000)), "x".repeat(10_000)] {
            let err = long.parse::<TileCosts>().unwrap_err().to_string();
            assert!(err.len() < 300, "{} bytes", err.len());
        }
    }

    #[test]
    fn the_move_cost_rule() {
        use std::f64::consts::SQRT_2;
        // Uniform cells give the octile grid's costs exactly.
        assert_eq!(move_cost(1.0, 1.0, 1.0), 1.0);
        assert_eq!(move_cost(SQRT_2, 1.0, 1.0), SQRT_2);
        // Half of the line in each cell, both ways alike.
        assert_eq!(move_cost(1.0, 1.0, 3.0), 2.0);
        assert_eq!(move_cost(1.0, 3.0, 1.0), 2.0);
        assert!((move_cost(SQRT_2, 2.0, 4.0) - 3.0 * SQRT_2).abs() < 1e-12);
        // Never below the length times the cheaper cell.
        for (a, b) in [(0.5, 7.0), (2.0, 2.0), (1e-3, 1e3)] {
            for len in [1.0, SQRT_2] {
                assert!(move_cost(len, a, b) >= len * f64::min(a, b));
            }
        }
    }
}
