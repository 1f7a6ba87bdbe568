//! A grid seen as a graph under a movement rule.

use super::clearance::{AgentSizeError, Clearance, MAX_AGENT_SIZE};
use super::terrain::{Terrain, TerrainError, TerrainErrorKind, TileCosts, cost_error, move_cost};
use super::{Components, DIAGONAL, Grid, Tile};
use crate::graph::{Graph, NodeId, Reversible};
use crate::parse::ParseError;

/// Which moves a unit may make from a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Neighborhood {
    /// North, east, south and west, each costing 1.
    Four,
    /// The four straight moves (cost 1) and the four diagonal moves (cost
    /// [`DIAGONAL`], `sqrt(2)` rounded to `f32` so that ties are exact),
    /// without corner cutting: a diagonal move needs both cells
    /// orthogonally adjacent to it on the way to be passable. This is the
    /// rule that the Moving AI benchmarks' optimal lengths use.
    #[default]
    Octile,
    /// The same eight moves and costs with corner cutting: a diagonal move
    /// needs one of the two cells orthogonally adjacent to it on the way
    /// to be passable, so it may clip a wall's corner but never squeeze
    /// between two walls (Godot's `DIAGONAL_MODE_AT_LEAST_ONE_WALKABLE`,
    /// PathFinding.js's `IfAtMostOneObstacle`). Reachability is the same
    /// as under the other two rules; the searches built on the no-corner
    /// rule (jump point searches, canonical ordering, Theta*) refuse it.
    OctileCornerCutting,
    /// The same eight moves and costs, a diagonal move allowed whatever the
    /// two cells beside it are, so it may squeeze between two walls that
    /// touch at a corner (PathFinding.js's `Always`, Godot's
    /// `DIAGONAL_MODE_ALWAYS`). Cells joined only by such a squeeze are
    /// reachable from each other under this rule alone; the searches built
    /// on the no-corner rule refuse it.
    OctileSqueeze,
}

impl Neighborhood {
    /// Every movement rule.
    pub const ALL: [Neighborhood; 4] = [
        Neighborhood::Four,
        Neighborhood::Octile,
        Neighborhood::OctileCornerCutting,
        Neighborhood::OctileSqueeze,
    ];

    /// The number of directions: 4 or 8.
    pub fn directions(self) -> u32 {
        match self {
            Neighborhood::Four => 4,
            Neighborhood::Octile
            | Neighborhood::OctileCornerCutting
            | Neighborhood::OctileSqueeze => 8,
        }
    }

    /// Whether diagonal moves are made at all (8 directions).
    pub fn diagonal(self) -> bool {
        self.directions() == 8
    }

    /// The rule in words (`octile`, `4-connected`, `octile with corner
    /// cutting`), as errors print it.
    pub fn name(self) -> &'static str {
        match self {
            Neighborhood::Four => "4-connected",
            Neighborhood::Octile => "octile",
            Neighborhood::OctileCornerCutting => "octile with corner cutting",
            Neighborhood::OctileSqueeze => "octile squeezing between walls",
        }
    }

    /// The names [`FromStr`](std::str::FromStr) reads for the rule, the
    /// canonical one (what [`Display`](std::fmt::Display) writes) first:
    /// `4` (or `four`), `octile` (or `8`), `octile-cut` (or `8-cut`,
    /// `corner-cutting`), `octile-squeeze` (or `8-squeeze`, `always`). The
    /// command line and the Python binding read these, so that a rule has
    /// the same names everywhere.
    pub fn names(self) -> &'static [&'static str] {
        match self {
            Neighborhood::Four => &["4", "four"],
            Neighborhood::Octile => &["octile", "8"],
            Neighborhood::OctileCornerCutting => &["octile-cut", "8-cut", "corner-cutting"],
            Neighborhood::OctileSqueeze => &["octile-squeeze", "8-squeeze", "always"],
        }
    }

    /// The canonical name: `4`, `octile`, `octile-cut` or `octile-squeeze`.
    pub fn token(self) -> &'static str {
        self.names()[0]
    }
}

impl std::fmt::Display for Neighborhood {
    /// The canonical name ([`token`](Neighborhood::token)).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.token())
    }
}

impl std::str::FromStr for Neighborhood {
    type Err = UnknownNeighborhood;

    /// Any of the [`names`](Neighborhood::names) of a rule.
    ///
    /// ```
    /// use cairns::grid::Neighborhood;
    ///
    /// assert_eq!("8-cut".parse(), Ok(Neighborhood::OctileCornerCutting));
    /// assert_eq!("octile-cut".parse(), Ok(Neighborhood::OctileCornerCutting));
    /// assert_eq!(Neighborhood::OctileCornerCutting.to_string(), "octile-cut");
    /// assert_eq!(
    ///     "6".parse::<Neighborhood>().unwrap_err().to_string(),
    ///     "unknown movement rule \"6\" (expected 4, octile, octile-cut or octile-squeeze; \
    ///      also four, 8, 8-cut, corner-cutting, 8-squeeze or always)"
    /// );
    /// ```
    fn from_str(s: &str) -> Result<Neighborhood, UnknownNeighborhood> {
        Neighborhood::ALL
            .into_iter()
            .find(|n| n.names().contains(&s))
            .ok_or_else(|| UnknownNeighborhood {
                name: s.chars().take(60).collect(),
            })
    }
}

/// A movement rule name that [`Neighborhood`]'s `FromStr` does not know.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown movement rule {name:?} (expected {})", expected_names())]
pub struct UnknownNeighborhood {
    /// The name given (at most 60 characters of it).
    pub name: String,
}

/// `4, octile or octile-cut; also four, 8, ...`: every rule's names, from
/// [`Neighborhood::names`].
fn expected_names() -> String {
    let or_list = |names: Vec<&str>| match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => names.join(""),
    };
    let canonical = Neighborhood::ALL.map(Neighborhood::token).to_vec();
    let aliases = Neighborhood::ALL
        .iter()
        .flat_map(|n| n.names()[1..].iter().copied())
        .collect();
    format!("{}; also {}", or_list(canonical), or_list(aliases))
}

/// `(dx, dy)` of each direction bit of [`GridGraph::moves`]: north, east,
/// south, west, then the diagonals north-east, south-east, south-west,
/// north-west. The one table of directions of the crate.
pub(crate) const DIRECTIONS: [(i32, i32); 8] = [
    (0, -1),
    (1, 0),
    (0, 1),
    (-1, 0),
    (1, -1),
    (1, 1),
    (-1, 1),
    (-1, -1),
];
/// The two straight directions that a diagonal direction passes between.
pub(crate) const DIAGONAL_SIDES: [(usize, usize); 4] = [(0, 1), (2, 1), (2, 3), (0, 3)];
/// The length of a move in each direction, and its cost on a grid without
/// terrain.
const COSTS: [f64; 8] = [1.0, 1.0, 1.0, 1.0, DIAGONAL, DIAGONAL, DIAGONAL, DIAGONAL];

/// A [`Grid`] under a [`Neighborhood`], as a [`Graph`] whose node ids are
/// `y * width + x`.
///
/// Each cell keeps one byte with a bit per legal move, computed once when the
/// graph is built (and again around a cell that changes), so that listing a
/// node's successors is a loop over set bits with no bounds checks and no
/// division. Moves are symmetric, so a node's predecessors are its
/// successors.
///
/// ```
/// use cairns::graph::{Graph, NodeId};
/// use cairns::grid::{Grid, GridGraph, Neighborhood};
///
/// let grid = Grid::from_ascii("
///     ...
///     .@.
///     ...
/// ").unwrap();
/// let graph = GridGraph::new(grid, Neighborhood::Octile);
/// // From the top-left corner: east and south; the diagonal would cut the wall's corner.
/// let mut succ: Vec<_> = graph.successors(NodeId(0)).map(|(n, _)| n.0).collect();
/// succ.sort();
/// assert_eq!(succ, [1, 3]);
/// ```
#[derive(Clone, Debug)]
pub struct GridGraph {
    grid: Grid,
    neighborhood: Neighborhood,
    masks: Vec<u8>,
    offsets: [u32; 8],
    canonical: bool,
    components: Components,
    /// Cell and move costs, `None` for the uniform grid (see
    /// [`terrain`](super::terrain): why one `Option` and not a second type).
    terrain: Option<Box<Terrain>>,
    /// The tile costs of [`with_terrain`](Self::with_terrain) when they
    /// left every cell at its Moving AI cost, so that the graph was built
    /// without terrain: [`set_tile`](Self::set_tile) still takes a changed
    /// cell's cost from them, and turns the terrain on when a tile's cost
    /// differs. `None` otherwise (with terrain, its own tiles say it).
    dormant: Option<Box<TileCosts>>,
    /// The agent larger than one cell the graph is for
    /// ([`with_size`](Self::with_size)): `grid` is then the map as it sees
    /// it, each cell open where its block is free. `None` for size 1.
    agent: Option<Box<Agent>>,
}

/// Why a point cannot be a start or goal ([`GridGraph::endpoint`]).
#[derive(Clone, Debug, PartialEq)]
pub enum EndpointError {
    /// Off the map.
    Outside {
        /// The point's column.
        x: i64,
        /// The point's row.
        y: i64,
        /// The map's width.
        width: u32,
        /// The map's height.
        height: u32,
    },
    /// On a cell no unit may enter: a blocked tile, or an infinite
    /// terrain cost.
    Blocked {
        /// The point's column.
        x: u32,
        /// The point's row.
        y: u32,
        /// The tile there.
        tile: Tile,
        /// Whether the graph has terrain costs (the cell's is `inf`).
        terrain: bool,
    },
    /// On a passable cell where the agent's block holds a wall or leaves
    /// the map.
    TooTight {
        /// The point's column.
        x: u32,
        /// The point's row.
        y: u32,
        /// The agent's size.
        size: u32,
    },
}

impl EndpointError {
    /// The message a front end refuses the point with, `what` naming the
    /// point (`start`, `goals[2]`) and `map` the map: `start (0, 0) is on a
    /// blocked tile '@' in den520d.map`.
    pub fn describe(&self, what: &str, map: &str) -> String {
        match *self {
            EndpointError::Outside {
                x,
                y,
                width,
                height,
            } => format!("{what} ({x}, {y}) is outside {map} ({width}x{height})"),
            EndpointError::Blocked {
                x,
                y,
                tile,
                terrain,
            } => {
                let rule = if terrain { " (its cost is inf)" } else { "" };
                let tile = tile.to_char();
                format!("{what} ({x}, {y}) is on a blocked tile '{tile}'{rule} in {map}")
            }
            EndpointError::TooTight { x, y, size: k } => format!(
                "{what} ({x}, {y}) is not open to an agent of size {k} in {map}: its {k}x{k} block from there holds a wall or leaves the map"
            ),
        }
    }
}

/// What a graph for an agent larger than one cell keeps beside the map it
/// sees: the map itself and its clearances ([`super::clearance`]).
#[derive(Clone, Debug)]
struct Agent {
    size: u32,
    map: Grid,
    clearance: Clearance,
}

impl Agent {
    /// The tile the agent sees at `(x, y)`: the map's where its block is
    /// free, a wall (`@`) where a passable cell is too tight for it.
    fn seen(&self, x: u32, y: u32) -> Tile {
        let tile = self.map.get(x, y).unwrap_or(Tile::OutOfBounds);
        if !tile.is_passable() || u32::from(self.clearance.get(x, y)) >= self.size {
            tile
        } else {
            Tile::OutOfBounds
        }
    }
}

/// The direction of a move by its 3x3 block position (row-major from the
/// north-west); 8 marks the centre, which is no move.
const ARRIVAL: [u8; 9] = [7, 0, 4, 3, 8, 1, 6, 2, 5];

/// Canonical successors after a diagonal move: it and its two sides.
const DIAGONAL_ALLOWED: [u8; 4] = {
    let mut out = [0u8; 4];
    let mut i = 0;
    while i < 4 {
        let (a, b) = DIAGONAL_SIDES[i];
        out[i] = (1 << (4 + i)) | (1 << a) | (1 << b);
        i += 1;
    }
    out
};

/// Canonical successors after a straight move `d`, by which of the two
/// cells beside the parent are open (bit 0: first side, bit 1: second): the
/// same move, plus a side move and its diagonal where that cell is blocked.
const STRAIGHT_ALLOWED: [[u8; 4]; 4] = {
    let mut out = [[0u8; 4]; 4];
    let mut d = 0;
    while d < 4 {
        let mut open = 0;
        while open < 4 {
            let mut allowed = 1u8 << d;
            let mut k = 0;
            while k < 2 {
                let (side, diagonal) = STRAIGHT_SIDES[d][k];
                if open & (1 << k) == 0 {
                    allowed |= (1 << side) | (1 << diagonal);
                }
                k += 1;
            }
            out[d][open] = allowed;
            open += 1;
        }
        d += 1;
    }
    out
};

/// For each straight direction: the two (perpendicular, diagonal) pairs on
/// its sides, e.g. east: (north, north-east) and (south, south-east).
pub(crate) const STRAIGHT_SIDES: [[(usize, usize); 2]; 4] = [
    [(3, 7), (1, 4)],
    [(0, 4), (2, 5)],
    [(1, 5), (3, 6)],
    [(2, 6), (0, 7)],
];

impl GridGraph {
    /// The graph of the grid drawn in `text` ([`Grid::from_ascii`]) under
    /// `neighborhood`.
    ///
    /// # Errors
    ///
    /// As [`Grid::from_ascii`].
    ///
    /// ```
    /// use cairns::grid::{GridGraph, Neighborhood};
    ///
    /// let graph = GridGraph::from_ascii("..@\n...", Neighborhood::Octile).unwrap();
    /// assert_eq!((graph.width(), graph.height()), (3, 2));
    /// ```
    pub fn from_ascii(text: &str, neighborhood: Neighborhood) -> Result<GridGraph, ParseError> {
        Ok(GridGraph::new(Grid::from_ascii(text)?, neighborhood))
    }

    /// Builds the graph of `grid` under `neighborhood`, with its
    /// [`Components`]. Takes `O(cells)`.
    pub fn new(grid: Grid, neighborhood: Neighborhood) -> GridGraph {
        Self::build(grid, neighborhood, None)
    }

    /// Builds the graph of `grid` under `neighborhood` with the terrain
    /// costs of `costs`, one per tile letter (see
    /// [`terrain`](super::terrain) for the move-cost rule). Where every cell
    /// costs what the Moving AI rule gives it (1, or impassable), the graph
    /// is the plain one of [`new`](Self::new).
    ///
    /// ```
    /// use cairns::grid::{Grid, GridGraph, Neighborhood, TileCosts};
    /// use cairns::heuristic::Octile;
    /// use cairns::search::{AStar, Search, SearchCache};
    ///
    /// let grid = Grid::from_ascii("
    ///     .SSS.
    ///     .SSS.
    ///     .....
    /// ").unwrap();
    /// let costs: TileCosts = "S=3".parse().unwrap();
    /// let graph = GridGraph::with_terrain(grid, Neighborhood::Octile, &costs);
    /// let astar = AStar::new(&graph, Octile::new(&graph));
    /// let (start, goal) = (graph.node(0, 0).unwrap(), graph.node(4, 0).unwrap());
    /// // Across the swamp: 2 + 3 + 3 + 2 = 10 (each move the mean of its two
    /// // cells). Around it: down, a diagonal, 2 along the bottom, a diagonal,
    /// // up: 4 + 2 sqrt(2), the diagonals passing the swamp's corners.
    /// let cost = astar.search_cost(start, goal, &mut SearchCache::new()).unwrap();
    /// assert_eq!(cost, 4.0 + 2.0 * cairns::grid::DIAGONAL);
    /// ```
    pub fn with_terrain(grid: Grid, neighborhood: Neighborhood, costs: &TileCosts) -> GridGraph {
        let cells = grid.tiles().iter().map(|&t| costs.cost(t)).collect();
        Self::build(grid, neighborhood, Some(Terrain::new(costs.clone(), cells)))
    }

    /// Builds the graph of `grid` under `neighborhood` with one cost per
    /// cell, in row-major order: a positive number, or `inf` for a cell no
    /// unit may enter. The costs alone decide passability; the tiles are
    /// kept for drawing, and [`set_tile`](Self::set_tile) gives a changed
    /// cell the Moving AI cost of its new tile (1, or impassable).
    ///
    /// # Errors
    ///
    /// [`TerrainError`] when there are not `width * height` costs, or a cost
    /// is zero, negative, NaN or finite above [`MAX_COST`](crate::grid::MAX_COST)
    /// (the message names the cell).
    pub fn with_cell_costs(
        grid: Grid, neighborhood: Neighborhood, costs: Vec<f64>,
    ) -> Result<GridGraph, TerrainError> {
        if costs.len() != grid.len() {
            return Err(TerrainErrorKind::CostCount {
                cells: grid.len(),
                found: costs.len(),
            }
            .into());
        }
        for (i, &c) in costs.iter().enumerate() {
            let at = || {
                let (x, y) = grid.coords(NodeId(i as u32));
                format!("cell ({x}, {y})")
            };
            if let Some(kind) = cost_error(c, at) {
                return Err(kind.into());
            }
        }
        let terrain = Terrain::new(TileCosts::default(), costs);
        Ok(Self::build(grid, neighborhood, Some(terrain)))
    }

    /// The graph of this map for an agent of `size` x `size` cells, placed
    /// by its top-left cell ([`clearance`](super::clearance) gives the
    /// rules): a cell is open where the agent's block there is free, and
    /// moves follow the movement rule applied to the blocks, so that every
    /// search and table runs on it as on any grid. Node ids, paths and
    /// [`grid`](Self::grid) are the agent's top-left cells and the map as
    /// it sees it; [`map`](Self::map) is the map itself, and
    /// [`set_tile`](Self::set_tile) edits it. Size 1 is the graph itself.
    /// `O(cells)`.
    ///
    /// # Errors
    ///
    /// [`AgentSizeError`] for a size of 0 or above
    /// [`MAX_AGENT_SIZE`](super::MAX_AGENT_SIZE), or a graph with terrain
    /// costs and a size above 1.
    ///
    /// A graph for one size gives the graph for another (or for one cell)
    /// from its map.
    ///
    /// ```
    /// use cairns::grid::{GridGraph, Neighborhood};
    /// use cairns::search::{AStar, Search, SearchCache};
    /// use cairns::heuristic::Octile;
    ///
    /// // The wall down the middle has a gap one cell high (row 1) and
    /// // one two cells high (rows 4 and 5).
    /// let graph = GridGraph::from_ascii("
    ///     ...@...
    ///     .......
    ///     ...@...
    ///     ...@...
    ///     .......
    ///     .......
    /// ", Neighborhood::Octile).unwrap();
    /// let big = graph.clone().with_size(2).unwrap();
    /// let (start, goal) = (big.node(0, 0).unwrap(), big.node(5, 0).unwrap());
    /// let cost = |g: &GridGraph| {
    ///     AStar::new(g, Octile::new(g)).search_cost(start, goal, &mut SearchCache::new())
    /// };
    /// assert_eq!(cost(&graph), Some(3.0 + 2.0 * cairns::grid::DIAGONAL));
    /// // Two cells wide, the agent goes round by the lower gap: down 4,
    /// // across 3 in the gap, up 4.
    /// assert_eq!(cost(&big), Some(9.0 + 2.0 * cairns::grid::DIAGONAL));
    /// assert!(!big.is_passable(big.node(6, 0).unwrap())); // its block would leave the map
    /// ```
    pub fn with_size(self, size: u32) -> Result<GridGraph, AgentSizeError> {
        if size == 0 || size > MAX_AGENT_SIZE {
            return Err(AgentSizeError::OutOfRange(size));
        }
        if size == self.size() {
            return Ok(self);
        }
        // From the map itself, whatever size the graph was for.
        let canonical = self.canonical;
        let graph = match self.agent {
            Some(agent) => {
                Self::build(agent.map, self.neighborhood, None).with_canonical_ordering(canonical)
            }
            None => self,
        };
        if size == 1 {
            return Ok(graph);
        }
        graph.for_agent(size)
    }

    /// [`with_size`](Self::with_size) for a size above 1 of a graph for
    /// one cell.
    fn for_agent(self, size: u32) -> Result<GridGraph, AgentSizeError> {
        // Costs that price no cell yet would price cells edited in later.
        if self.terrain.is_some() || self.dormant.is_some() {
            return Err(AgentSizeError::Terrain);
        }
        let (width, height) = (self.width(), self.height());
        let clearance = Clearance::new(width, height, size as u8, |x, y| self.cell_passable(x, y));
        let canonical = self.canonical;
        let agent = Agent {
            size,
            map: self.grid,
            clearance,
        };
        let mut seen = agent.map.clone();
        for y in 0..height {
            for x in 0..width {
                seen.set(x, y, agent.seen(x, y));
            }
        }
        let mut graph = Self::build(seen, self.neighborhood, None);
        graph.agent = Some(Box::new(agent));
        Ok(graph.with_canonical_ordering(canonical))
    }

    /// The same map, costs and agent size under another movement rule.
    /// `O(cells)`.
    #[must_use]
    pub fn with_neighborhood(self, neighborhood: Neighborhood) -> GridGraph {
        if neighborhood == self.neighborhood {
            return self;
        }
        let canonical = self.canonical;
        let terrain = self.terrain.map(|t| {
            let t = *t;
            Terrain::new(t.tiles, t.cells)
        });
        let mut graph = Self::build(self.grid, neighborhood, terrain);
        graph.dormant = graph.dormant.or(self.dormant);
        graph.agent = self.agent;
        graph.with_canonical_ordering(canonical)
    }

    /// The node of `(x, y)` as a start or goal: on the map and open to the
    /// agent. The front ends refuse an endpoint with this error's
    /// [`describe`](EndpointError::describe).
    ///
    /// # Errors
    ///
    /// [`EndpointError`]: off the map, on a blocked cell, or (for an agent
    /// larger than one cell) where its block does not fit.
    pub fn endpoint(&self, x: i64, y: i64) -> Result<NodeId, EndpointError> {
        let (x32, y32) = (u32::try_from(x), u32::try_from(y));
        let Some(node) = x32.ok().zip(y32.ok()).and_then(|(x, y)| self.node(x, y)) else {
            return Err(EndpointError::Outside {
                x,
                y,
                width: self.width(),
                height: self.height(),
            });
        };
        if self.is_passable(node) {
            return Ok(node);
        }
        let (x, y) = self.coords(node);
        let tile = self.map().tiles()[node.index()];
        if self.size() > 1 && tile.is_passable() {
            return Err(EndpointError::TooTight {
                x,
                y,
                size: self.size(),
            });
        }
        Err(EndpointError::Blocked {
            x,
            y,
            tile,
            terrain: self.has_terrain(),
        })
    }

    /// The agent's size: its side in cells (1 unless built by
    /// [`with_size`](Self::with_size)).
    pub fn size(&self) -> u32 {
        self.agent.as_ref().map_or(1, |a| a.size)
    }

    /// The map itself: for an agent larger than one cell the map before
    /// its clearance closed the cells too tight for it, otherwise
    /// [`grid`](Self::grid).
    pub fn map(&self) -> &Grid {
        self.agent.as_ref().map_or(&self.grid, |a| &a.map)
    }

    /// Sets the map's tile at `(x, y)` and returns the cells of
    /// [`grid`](Self::grid) to set for it, each `(x, y, tile)`, without
    /// setting them: the cell itself at size 1; for a larger agent, the
    /// anchors whose blocks hold the cell and whose tile it sees changed
    /// (its clearances brought along). Nothing off the map. The caller
    /// sets them ([`set_cell`](Self::set_cell)) before the next map edit,
    /// whose cells are found against the grid as set.
    pub(crate) fn map_edit(&mut self, x: u32, y: u32, tile: Tile) -> Vec<(u32, u32, Tile)> {
        let Some(agent) = self.agent.as_deref_mut() else {
            return if self.grid.contains(x, y) {
                vec![(x, y, tile)]
            } else {
                Vec::new()
            };
        };
        if !agent.map.set(x, y, tile) {
            return Vec::new();
        }
        let map = &agent.map;
        let (xs, ys) = agent.clearance.update(x, y, |x, y| map.is_passable(x, y));
        let mut seen = Vec::new();
        for ay in ys {
            for ax in xs.clone() {
                let now = agent.seen(ax, ay);
                if self.grid.get(ax, ay) != Some(now) {
                    seen.push((ax, ay, now));
                }
            }
        }
        seen
    }

    fn build(grid: Grid, neighborhood: Neighborhood, terrain: Option<Terrain>) -> GridGraph {
        // Terrain that changes nothing is dropped, so that the graph keeps
        // the uniform grid's fast paths (jump points, canonical ordering).
        let uniform = |t: &Terrain| {
            let base = TileCosts::default();
            grid.tiles()
                .iter()
                .zip(&t.cells)
                .all(|(&tile, &c)| c == base.cost(tile))
        };
        let (terrain, dormant) = match terrain {
            Some(t) if uniform(&t) => {
                let kept = (t.tiles != TileCosts::default()).then(|| Box::new(t.tiles));
                (None, kept)
            }
            t => (t.map(Box::new), None),
        };
        let w = grid.width() as i32;
        let offsets = DIRECTIONS.map(|(dx, dy)| (dy * w + dx) as u32);
        let mut graph = GridGraph {
            masks: vec![0; grid.len()],
            grid,
            neighborhood,
            offsets,
            canonical: false,
            components: Components::default(),
            terrain,
            dormant,
            agent: None,
        };
        graph.update_masks();
        graph.components = Components::of_grid(&graph);
        graph
    }

    /// Whether `(x, y)` is on the grid and passable: by its tile, or by its
    /// cost where there is terrain.
    pub(crate) fn cell_passable(&self, x: u32, y: u32) -> bool {
        match &self.terrain {
            None => self.grid.is_passable(x, y),
            Some(t) => {
                self.grid.contains(x, y) && t.cells[self.grid.node(x, y).index()].is_finite()
            }
        }
    }

    /// [`update_mask`](Self::update_mask) on every cell.
    fn update_masks(&mut self) {
        for y in 0..self.grid.height() {
            for x in 0..self.grid.width() {
                self.update_mask(x, y);
            }
        }
    }

    fn update_mask(&mut self, x: u32, y: u32) {
        // One branch on the terrain per cell, not one per neighbour looked at.
        let mask = match &self.terrain {
            None => self.legal_moves(x, y, |x, y| self.grid.is_passable(x, y)),
            Some(t) => self.legal_moves(x, y, |x, y| {
                self.grid.contains(x, y) && t.cells[self.grid.node(x, y).index()].is_finite()
            }),
        };
        let i = self.grid.node(x, y).index();
        self.masks[i] = mask;
        if let Some(t) = &mut self.terrain {
            let mut row = [0.0; 8];
            for (d, cost) in row.iter_mut().enumerate() {
                if mask & (1 << d) != 0 {
                    let to = (i as u32).wrapping_add(self.offsets[d]) as usize;
                    *cost = move_cost(COSTS[d], t.cells[i], t.cells[to]);
                }
            }
            t.moves[i] = row;
        }
    }

    /// The legal moves from `(x, y)` as a direction mask, by `passable`.
    #[inline]
    fn legal_moves(&self, x: u32, y: u32, passable: impl Fn(u32, u32) -> bool) -> u8 {
        let mut mask = 0u8;
        if !passable(x, y) {
            return mask;
        }
        let open = |d: usize| {
            let (dx, dy) = DIRECTIONS[d];
            let (nx, ny) = (i64::from(x) + i64::from(dx), i64::from(y) + i64::from(dy));
            nx >= 0 && ny >= 0 && passable(nx as u32, ny as u32)
        };
        for d in 0..4 {
            if open(d) {
                mask |= 1 << d;
            }
        }
        // Without corner cutting both sides of a diagonal must be open,
        // with it one.
        let straight = mask;
        let sides_open = |a: usize, b: usize| match self.neighborhood {
            Neighborhood::Four => false,
            Neighborhood::Octile => straight & (1 << a) != 0 && straight & (1 << b) != 0,
            Neighborhood::OctileCornerCutting => straight & (1 << a | 1 << b) != 0,
            Neighborhood::OctileSqueeze => true,
        };
        for (i, &(a, b)) in DIAGONAL_SIDES.iter().enumerate() {
            let d = 4 + i;
            if sides_open(a, b) && open(d) {
                mask |= 1 << d;
            }
        }
        mask
    }

    /// Turns canonical ordering on or off (off by default).
    ///
    /// With it, [`Graph::successors_from`] prunes the successors of a node
    /// reached from its parent as jump point search does, without jumping:
    /// after a diagonal move only that diagonal and its two straight
    /// components; after a straight move only the same move, plus a
    /// perpendicular move and its diagonal where a blocked cell beside the
    /// parent forces them. Every pruned successor has a path of no greater
    /// cost around the node, diagonal moves first, so A* stays optimal while
    /// generating far fewer successors (Harabor and Grastien 2011; the rules
    /// for movement without corner cutting). It applies to octile movement
    /// on grids at least 3 cells wide without terrain costs (on weighted
    /// grids its pruning is not safe);
    /// plain [`successors`](Graph::successors) are unaffected.
    #[must_use]
    pub fn with_canonical_ordering(mut self, on: bool) -> GridGraph {
        // The direction of a move is read off the id difference, which is
        // unique for each direction only on grids at least 3 wide.
        self.canonical = on && self.canonical_applies();
        self
    }

    /// Whether canonical ordering is on.
    pub fn canonical_ordering(&self) -> bool {
        self.canonical
    }

    /// Whether canonical ordering can apply: octile movement on a grid at
    /// least 3 cells wide.
    fn canonical_applies(&self) -> bool {
        self.neighborhood == Neighborhood::Octile && self.width() >= 3 && self.terrain.is_none()
    }

    /// The successors of `node` reached from `parent` under canonical
    /// ordering, whatever the graph's own setting (all of them where
    /// canonical ordering does not apply).
    #[inline]
    fn canonical_successors(&self, node: NodeId, parent: NodeId) -> GridSuccessors<'_> {
        GridSuccessors {
            node: node.0,
            mask: self.canonical_moves(node, parent),
            offsets: self.offsets,
            costs: &COSTS,
        }
    }

    /// The moves worth making from `node` reached from `parent`, under
    /// canonical ordering.
    #[inline]
    fn canonical_moves(&self, node: NodeId, parent: NodeId) -> u8 {
        let all = self.masks[node.index()];
        if parent == NodeId::NONE {
            return all;
        }
        // The move's direction from the id difference: shifted by w + 1 it
        // is one of 0, 1, 2, w, w + 2, 2w, 2w + 1, 2w + 2 (row and column
        // of a 3x3 block), since the grid is at least 3 wide.
        let w = self.width();
        let t = node.0.wrapping_sub(parent.0).wrapping_add(w + 1);
        let row = u32::from(t >= w) + u32::from(t >= 2 * w);
        let col = t.wrapping_sub(row * w);
        let Some(&d) = ARRIVAL.get((row * 3 + col) as usize) else {
            // Not a grid move (a parent set by someone else): keep all.
            return all;
        };
        if d >= 8 {
            return all;
        }
        self.canonical_moves_after(node, usize::from(d))
    }

    /// The moves worth making from `node`, entered by a move in direction
    /// `d` (0..8, the bit order of [`moves`](Self::moves)), under canonical
    /// ordering: after a diagonal, it and its two straight sides; after a
    /// straight move, the same move plus each side move (and its diagonal)
    /// whose cell beside the previous cell is blocked.
    #[inline]
    pub(crate) fn canonical_moves_after(&self, node: NodeId, d: usize) -> u8 {
        let behind = if d < 4 {
            self.masks[self.step_back(node, d).index()]
        } else {
            0
        };
        GridGraph::canonical_after(self.masks[node.index()], behind, d)
    }

    /// [`canonical_moves_after`](Self::canonical_moves_after) from the
    /// moves `all` of the node and, after a straight move, `behind` of the
    /// node it came from (unread after a diagonal): for callers that know
    /// the moves without the graph (a jump table's entries).
    #[inline]
    pub(crate) fn canonical_after(all: u8, behind: u8, d: usize) -> u8 {
        let allowed = if d < 4 {
            // Which of the two cells beside the previous cell are open.
            let [(a, _), (b, _)] = STRAIGHT_SIDES[d];
            let open = usize::from((behind >> a) & 1) | (usize::from((behind >> b) & 1) << 1);
            STRAIGHT_ALLOWED[d][open]
        } else {
            DIAGONAL_ALLOWED[d - 4]
        };
        all & allowed
    }

    /// The cells within one of `cells` (each cell's 3x3 block, inside the
    /// grid), by index, increasing, each once; an index off the grid is
    /// ignored. What a wall edit can change around it: the moves of its
    /// neighbours, and which of them are corners.
    pub(crate) fn around(&self, cells: impl IntoIterator<Item = usize>) -> Vec<usize> {
        let (cols, rows) = (i64::from(self.width()), i64::from(self.height()));
        let mut near = Vec::new();
        for c in cells.into_iter().filter(|&c| c < self.node_bound()) {
            let (x, y) = (c as i64 % cols, c as i64 / cols);
            for dy in -1..=1 {
                for dx in -1..=1 {
                    let (nx, ny) = (x + dx, y + dy);
                    if (0..cols).contains(&nx) && (0..rows).contains(&ny) {
                        near.push((ny * cols + nx) as usize);
                    }
                }
            }
        }
        near.sort_unstable();
        near.dedup();
        near
    }

    /// The node one move in direction `d` from `node` (which must have that
    /// move).
    #[inline]
    pub(crate) fn step(&self, node: NodeId, d: usize) -> NodeId {
        NodeId(node.0.wrapping_add(self.offsets[d]))
    }

    /// The node one move in direction `d` before `node`: the inverse of
    /// [`step`](Self::step).
    #[inline]
    pub(crate) fn step_back(&self, node: NodeId, d: usize) -> NodeId {
        NodeId(node.0.wrapping_sub(self.offsets[d]))
    }

    /// The underlying grid.
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// Gives the map back ([`map`](Self::map)).
    pub fn into_grid(self) -> Grid {
        match self.agent {
            Some(agent) => agent.map,
            None => self.grid,
        }
    }

    /// The movement rule.
    pub fn neighborhood(&self) -> Neighborhood {
        self.neighborhood
    }

    /// Width of the grid.
    #[inline]
    pub fn width(&self) -> u32 {
        self.grid.width()
    }

    /// Height of the grid.
    #[inline]
    pub fn height(&self) -> u32 {
        self.grid.height()
    }

    /// The node of `(x, y)`, or `None` when it is off the grid.
    pub fn node(&self, x: u32, y: u32) -> Option<NodeId> {
        self.grid.checked_node(x, y)
    }

    /// The `(x, y)` of a node.
    #[inline]
    pub fn coords(&self, node: NodeId) -> (u32, u32) {
        self.grid.coords(node)
    }

    /// The terrain's cost of each cell (infinite on walls), `None` on a
    /// grid without terrain, where the tiles say what is passable.
    pub(super) fn terrain_costs(&self) -> Option<&[f64]> {
        self.terrain.as_deref().map(|t| &t.cells[..])
    }

    /// Whether a node is a passable cell.
    #[inline]
    pub fn is_passable(&self, node: NodeId) -> bool {
        match &self.terrain {
            None => self
                .grid
                .tiles()
                .get(node.index())
                .is_some_and(|t| t.is_passable()),
            Some(t) => t.cells.get(node.index()).is_some_and(|c| c.is_finite()),
        }
    }

    /// Whether the graph has terrain costs (built by
    /// [`with_terrain`](Self::with_terrain) or
    /// [`with_cell_costs`](Self::with_cell_costs) with costs other than the
    /// Moving AI rule's). Without, every straight move costs 1 and every
    /// diagonal `sqrt(2)`.
    #[inline]
    pub fn has_terrain(&self) -> bool {
        self.terrain.is_some()
    }

    /// A lower bound on the cost of every passable cell: the cheapest cell
    /// cost when the graph was built (1 without terrain). Every move costs
    /// at least its length times this, which is what the grid heuristics
    /// scale by. [`set_tile`](Self::set_tile) lowers it when a cheaper cell
    /// appears (heuristics built before then keep the old scale).
    #[inline]
    pub fn min_cost(&self) -> f64 {
        self.terrain.as_ref().map_or(1.0, |t| t.min)
    }

    /// The cost of crossing a node's cell: its terrain cost, or 1 for a
    /// passable cell without terrain; `inf` for an impassable one.
    pub fn cell_cost(&self, node: NodeId) -> f64 {
        match &self.terrain {
            Some(t) => t.cells.get(node.index()).copied().unwrap_or(f64::INFINITY),
            None if self.is_passable(node) => 1.0,
            None => f64::INFINITY,
        }
    }

    /// The tile costs that [`set_tile`](Self::set_tile) gives a changed
    /// cell (the default Moving AI rule without terrain).
    pub fn tile_costs(&self) -> TileCosts {
        match (&self.terrain, &self.dormant) {
            (Some(t), _) => t.tiles.clone(),
            (None, Some(costs)) => (**costs).clone(),
            (None, None) => TileCosts::default(),
        }
    }

    /// The cost of the move from `node` in direction `d` (which must be a
    /// legal move).
    #[inline]
    pub(crate) fn move_cost(&self, node: NodeId, d: usize) -> f64 {
        match &self.terrain {
            None => COSTS[d],
            Some(t) => t.moves[node.index()][d],
        }
    }

    /// Changes the tile at `(x, y)` and updates the moves of that cell and
    /// its eight neighbours, and the [`Components`]: a cell that opens may
    /// merge components (relabelling the smaller ones), a cell that closes
    /// may split one (`O(1)` when its neighbours stay joined around it,
    /// otherwise a flood fill of the pieces). Returns `false` (changing
    /// nothing) when the cell is off the grid.
    ///
    /// The cell takes the cost of its new tile from
    /// [`tile_costs`](Self::tile_costs): on a graph built by
    /// [`with_terrain`](Self::with_terrain) whose costs changed no cell
    /// (so it has no terrain), the first tile they price apart from the
    /// Moving AI rule turns the terrain on, which prices every move once
    /// (`O(cells)`) and turns canonical ordering off.
    ///
    /// For an agent larger than one cell ([`with_size`](Self::with_size))
    /// this edits the map: the cells whose blocks hold `(x, y)` open or
    /// close for the agent, each as a cell of a size-1 grid does.
    pub fn set_tile(&mut self, x: u32, y: u32, tile: Tile) -> bool {
        if self.agent.is_none() {
            return self.set_cell(x, y, tile);
        }
        if !self.map().contains(x, y) {
            return false;
        }
        for (x, y, tile) in self.map_edit(x, y, tile) {
            self.set_cell(x, y, tile);
        }
        true
    }

    /// [`set_tile`](Self::set_tile) of a cell of [`grid`](Self::grid), the
    /// map as the agent sees it: what the tables' repairs call, each for a
    /// cell of [`map_edit`](Self::map_edit).
    pub(crate) fn set_cell(&mut self, x: u32, y: u32, tile: Tile) -> bool {
        let was_passable = self.cell_passable(x, y);
        if !self.grid.set(x, y, tile) {
            return false;
        }
        let node = self.grid.node(x, y);
        if self.terrain.is_none()
            && let Some(costs) = self
                .dormant
                .take_if(|c| c.cost(tile) != TileCosts::default().cost(tile))
        {
            // The first tile the user's costs price apart from the Moving
            // AI rule: the graph gets its terrain, every cell and move
            // priced (the cell itself again below); canonical ordering,
            // which weighted grids do not allow, goes off.
            self.canonical = false;
            let cells = self.grid.tiles().iter().map(|&t| costs.cost(t)).collect();
            self.terrain = Some(Box::new(Terrain::new(*costs, cells)));
            self.update_masks();
        }
        if let Some(t) = &mut self.terrain {
            let cost = t.tiles.cost(tile);
            t.cells[node.index()] = cost;
            if cost < t.min {
                t.min = cost;
            }
        }
        for ny in y.saturating_sub(1)..=(y + 1).min(self.grid.height() - 1) {
            for nx in x.saturating_sub(1)..=(x + 1).min(self.grid.width() - 1) {
                self.update_mask(nx, ny);
            }
        }
        if was_passable != self.cell_passable(x, y) {
            let mut components = std::mem::take(&mut self.components);
            if was_passable {
                components.closed(self, node);
            } else {
                components.opened(self, node);
            }
            self.components = components;
        }
        true
    }

    /// The connected components of the passable cells, kept up to date by
    /// [`set_tile`](Self::set_tile).
    pub fn components(&self) -> &Components {
        &self.components
    }

    /// The bit set of legal moves from `node` (bit `d` for direction `d`:
    /// north, east, south, west, north-east, south-east, south-west,
    /// north-west).
    #[inline]
    pub fn moves(&self, node: NodeId) -> u8 {
        self.masks[node.index()]
    }
}

impl Graph for GridGraph {
    type Successors<'a> = GridSuccessors<'a>;

    #[inline]
    fn node_bound(&self) -> usize {
        self.masks.len()
    }

    #[inline]
    fn successors(&self, node: NodeId) -> GridSuccessors<'_> {
        GridSuccessors {
            node: node.0,
            mask: self.masks[node.index()],
            offsets: self.offsets,
            // One test per call, not per edge.
            costs: match &self.terrain {
                None => &COSTS,
                Some(t) => &t.moves[node.index()],
            },
        }
    }

    #[expect(
        clippy::inline_always,
        reason = "left to itself the compiler calls it from the search loop; inlined, A* runs 1.3% fewer instructions"
    )]
    #[inline(always)]
    fn successors_from(&self, node: NodeId, parent: NodeId) -> GridSuccessors<'_> {
        if !self.canonical {
            return self.successors(node);
        }
        self.canonical_successors(node, parent)
    }

    fn unit_costs(&self) -> bool {
        self.neighborhood == Neighborhood::Four && self.terrain.is_none()
    }

    /// `(1, 1)` straight only, `(1, DIAGONAL)` octile; `None` with terrain
    /// (its bounds would need a scan of the costs).
    fn cost_bounds(&self) -> Option<(f64, f64)> {
        match (&self.terrain, self.neighborhood) {
            (Some(_), _) => None,
            (None, Neighborhood::Four) => Some((1.0, 1.0)),
            (
                None,
                Neighborhood::Octile
                | Neighborhood::OctileCornerCutting
                | Neighborhood::OctileSqueeze,
            ) => Some((1.0, DIAGONAL)),
        }
    }

    /// At once without terrain (1 and [`DIAGONAL`] are on the lattice);
    /// with terrain, a scan of the move costs.
    fn lattice_costs(&self) -> bool {
        match &self.terrain {
            None => true,
            Some(t) => t
                .moves
                .iter()
                .flatten()
                .all(|&c| !c.is_finite() || crate::graph::on_lattice(c)),
        }
    }

    /// `false` when the two cells lie in different [`Components`].
    #[inline]
    fn may_reach(&self, from: NodeId, to: NodeId) -> bool {
        self.components.connected(from, to)
    }
}

/// A borrowed [`GridGraph`] searched under canonical ordering (see
/// [`GridGraph::with_canonical_ordering`]) whatever the graph's own setting:
/// lets one graph serve plain and canonical searches side by side.
#[derive(Clone, Copy, Debug)]
pub struct Canonical<'g>(pub &'g GridGraph);

impl Graph for Canonical<'_> {
    type Successors<'a>
        = GridSuccessors<'a>
    where
        Self: 'a;

    #[inline]
    fn successors(&self, node: NodeId) -> GridSuccessors<'_> {
        self.0.successors(node)
    }

    #[inline]
    fn successors_from(&self, node: NodeId, parent: NodeId) -> GridSuccessors<'_> {
        if self.0.canonical_applies() {
            self.0.canonical_successors(node, parent)
        } else {
            self.0.successors(node)
        }
    }

    crate::graph::forward_view!(self => self.0);

    #[inline]
    fn may_reach(&self, from: NodeId, to: NodeId) -> bool {
        self.0.may_reach(from, to)
    }
}

impl Reversible for GridGraph {
    type Predecessors<'a> = GridSuccessors<'a>;

    /// Grid moves are symmetric (terrain costs too: a move costs the mean
    /// of its two cells), so these are the successors.
    #[inline]
    fn predecessors(&self, node: NodeId) -> GridSuccessors<'_> {
        self.successors(node)
    }
}

/// The moves out of one cell of a [`GridGraph`].
#[derive(Clone, Debug)]
pub struct GridSuccessors<'a> {
    node: u32,
    mask: u8,
    offsets: [u32; 8],
    /// The cost of each direction's move: the constant table, or the
    /// cell's row of terrain move costs.
    costs: &'a [f64; 8],
}

impl Iterator for GridSuccessors<'_> {
    type Item = (NodeId, f64);

    #[inline]
    fn next(&mut self) -> Option<(NodeId, f64)> {
        if self.mask == 0 {
            return None;
        }
        let d = self.mask.trailing_zeros() as usize;
        self.mask &= self.mask - 1;
        Some((
            NodeId(self.node.wrapping_add(self.offsets[d])),
            self.costs[d],
        ))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.mask.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for GridSuccessors<'_> {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::testing::open_map;
    use crate::search::Search;

    fn succ(g: &GridGraph, x: u32, y: u32) -> Vec<(u32, u32, f64)> {
        let mut v: Vec<_> = g
            .successors(g.node(x, y).unwrap())
            .map(|(n, c)| {
                let (x, y) = g.coords(n);
                (x, y, c)
            })
            .collect();
        v.sort_by_key(|&(x, y, _)| (x, y));
        v
    }

    #[test]
    fn octile_moves_do_not_cut_corners() {
        let grid = Grid::from_ascii(
            "
            ...
            .@.
            ...
            ",
        )
        .unwrap();
        let g = GridGraph::new(grid.clone(), Neighborhood::Octile);
        assert_eq!(succ(&g, 0, 0), [(0, 1, 1.0), (1, 0, 1.0)]);
        assert_eq!(succ(&g, 1, 1), []);
        let open = open_map(3, 3, Neighborhood::Octile);
        assert_eq!(succ(&open, 1, 1).len(), 8);
        assert_eq!(
            succ(&open, 0, 0),
            [(0, 1, 1.0), (1, 0, 1.0), (1, 1, DIAGONAL)]
        );
        let four = GridGraph::new(grid, Neighborhood::Four);
        assert_eq!(succ(&four, 1, 0), [(0, 0, 1.0), (2, 0, 1.0)]);
    }

    /// With corner cutting a diagonal may pass one wall's corner, never
    /// between two walls; a set tile updates the diagonals beside it.
    #[test]
    fn corner_cutting_passes_one_wall_not_two() {
        let grid = Grid::from_ascii(
            "
            ...
            .@.
            ..@
            ",
        )
        .unwrap();
        let g = GridGraph::new(grid, Neighborhood::OctileCornerCutting);
        // Past the wall's corner to (1, 0)'s neighbours and on.
        assert_eq!(succ(&g, 0, 0), [(0, 1, 1.0), (1, 0, 1.0)]);
        assert_eq!(
            succ(&g, 0, 1),
            [(0, 0, 1.0), (0, 2, 1.0), (1, 0, DIAGONAL), (1, 2, DIAGONAL)]
        );
        // From (2, 1) the diagonal to (1, 2) passes between the two walls.
        assert_eq!(succ(&g, 2, 1), [(1, 0, DIAGONAL), (2, 0, 1.0)]);
        let mut g = open_map(3, 3, Neighborhood::OctileCornerCutting);
        assert!(g.set_tile(1, 0, Tile::Tree));
        assert_eq!(succ(&g, 0, 0), [(0, 1, 1.0), (1, 1, DIAGONAL)]);
        assert!(g.set_tile(0, 1, Tile::Tree));
        assert_eq!(succ(&g, 0, 0), []);
        assert_eq!(g.cost_bounds(), Some((1.0, DIAGONAL)));
        assert!(!g.unit_costs());
    }

    #[test]
    fn edges_of_the_map_have_no_wraparound() {
        let g = open_map(4, 2, Neighborhood::Octile);
        assert_eq!(succ(&g, 3, 0), [(2, 0, 1.0), (2, 1, DIAGONAL), (3, 1, 1.0)]);
    }

    #[test]
    fn set_tile_updates_neighbours() {
        let mut g = open_map(3, 3, Neighborhood::Octile);
        assert!(g.set_tile(1, 0, Tile::Tree));
        // (0,0) loses its east move and the diagonal that passed next to the tree.
        assert_eq!(succ(&g, 0, 0), [(0, 1, 1.0)]);
        assert_eq!(succ(&g, 1, 1).len(), 5);
        assert!(g.set_tile(1, 0, Tile::Ground));
        assert_eq!(succ(&g, 1, 1).len(), 8);
        assert!(!g.set_tile(3, 0, Tile::Ground));
    }

    #[test]
    fn moves_are_symmetric() {
        let grid = Grid::from_ascii(
            "
            ..@..
            .@...
            ...T.
            ",
        )
        .unwrap();
        for nb in Neighborhood::ALL {
            let g = GridGraph::new(grid.clone(), nb);
            for u in 0..g.node_bound() as u32 {
                for (v, c) in g.successors(NodeId(u)) {
                    assert!(g.successors(v).any(|(w, c2)| w == NodeId(u) && c2 == c));
                }
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(400))]
        /// Canonical ordering keeps a shortest path to every node: A* and
        /// one-to-all Dijkstra on the pruned graph give exactly the plain
        /// graph's distances, on random maps dense with obstacles and ties.
        #[test]
        fn canonical_ordering_keeps_shortest_paths((plain, s) in crate::grid::testing::dense_map()) {
            use crate::heuristic::Octile;
            use crate::search::{AStar, Dijkstra, SearchCache};
            let (w, h) = (plain.grid().width(), plain.grid().height());
            let pruned = plain.clone().with_canonical_ordering(true);
            let (mut a, mut b) = (SearchCache::new(), SearchCache::new());
            Dijkstra::new(&plain).all(s, &mut a);
            let reference: Vec<Option<f64>> = (0..w * h).map(|n| a.g(NodeId(n))).collect();
            Dijkstra::new(&pruned).all(s, &mut b);
            for n in 0..w * h {
                let (want, got) = (reference[n as usize], b.g(NodeId(n)));
                proptest::prop_assert!(
                    match (want, got) { (Some(x), Some(y)) => (x - y).abs() < 1e-9, (None, None) => true, _ => false },
                    "dijkstra to {n}: {want:?} vs {got:?}"
                );
            }
            let astar = AStar::new(&pruned, Octile::new(&pruned));
            for n in 0..w * h {
                let got = astar.search_cost(s, NodeId(n), &mut b);
                let want = reference[n as usize];
                proptest::prop_assert!(
                    match (want, got) { (Some(x), Some(y)) => (x - y).abs() < 1e-9, (None, None) => true, _ => false },
                    "astar to {n}: {want:?} vs {got:?}"
                );
                if got.is_some() {
                    let mut path = Vec::new();
                    b.path_into(NodeId(n), &mut path);
                    let cost: f64 = path.windows(2).map(|e| plain.successors(e[0]).find(|s| s.0 == e[1]).map(|s| s.1).unwrap()).sum();
                    proptest::prop_assert!((cost - got.unwrap()).abs() < 1e-9);
                }
            }
        }
    }

    /// `ALL` holds every movement rule, in the order named here (`assert_all_lists_every!`).
    #[test]
    fn all_holds_every_movement_rule() {
        assert_all_lists_every!(
            Neighborhood: Four, Octile, OctileCornerCutting, OctileSqueeze
        );
    }
}
