//! Table kinds: everything a search builds before its first query, as one
//! type, [`Table`], whose variants are the kinds of
//! [`TableKind`](crate::saved::TableKind).
//!
//! A spec says which kinds it needs ([`SearchSpec::table_kinds`]);
//! [`SearchSpec::prepare_with`] takes the tables given (saved files read
//! with [`Table::load_for`]) and builds the missing ones here.

use std::io::{self, Read, Write};
use std::sync::Arc;
use std::time::Duration;

use super::error::{SpecError, SpecErrorKind};
use super::names::{
    Algorithm, HeuristicSpec, LandmarkMode, PLACEMENT_SEED, PlacementKind, SearchSpec, check_keep,
};
use crate::graph::{Graph, NodeId};
use crate::grid::GridGraph;
use crate::landmarks::research::{CompressedTable, Compression};
use crate::landmarks::{Directedness, LandmarkTable, Placement, place};
use crate::saved::{FileError, FileErrorKind, TableKind, read_array};
use crate::search::{Budgeted, GoalBounds, JumpTable, SubgoalGraph};

/// One table built before the first query: a variant per
/// [`TableKind`], each behind an [`Arc`] so that preparations, engines
/// and caches share it without copying.
///
/// ```
/// use cairns::grid::{Grid, GridGraph, Neighborhood};
/// use cairns::saved::{TableKind, grid_hash};
/// use cairns::spec::{SearchSpec, Table};
///
/// let graph = GridGraph::new(Grid::from_ascii("....\n.@@.\n....").unwrap(), Neighborhood::Octile);
/// let prepared = "jps+/dh:2".parse::<SearchSpec>().unwrap().prepare(&graph).unwrap();
/// let hash = grid_hash(graph.grid(), graph.neighborhood());
/// for table in prepared.tables() {
///     let mut bytes = Vec::new();
///     table.save(&mut bytes, hash).unwrap();
///     let back = Table::load_for(&bytes[..], &graph, hash).unwrap();
///     assert_eq!(back.kind(), table.kind());
/// }
/// let kinds: Vec<TableKind> = prepared.tables().iter().map(Table::kind).collect();
/// assert_eq!(kinds, [TableKind::Landmarks, TableKind::Jumps]);
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Table {
    /// A landmark table, for a `dh` heuristic.
    Landmarks(Arc<LandmarkTable>),
    /// A compressed landmark table, for `dh:K:keepM`.
    CompressedLandmarks(Arc<CompressedTable>),
    /// A jump table, for `jps+`.
    Jumps(Arc<JumpTable>),
    /// A subgoal graph, for `sub`.
    Subgoals(Arc<SubgoalGraph>),
    /// A goal-bounding table (with its jump table), for `jps+bb`.
    Bounds(Arc<GoalBounds>),
}

impl Table {
    /// The kind.
    pub fn kind(&self) -> TableKind {
        match self {
            Table::Landmarks(_) => TableKind::Landmarks,
            Table::CompressedLandmarks(_) => TableKind::CompressedLandmarks,
            Table::Jumps(_) => TableKind::Jumps,
            Table::Subgoals(_) => TableKind::Subgoals,
            Table::Bounds(_) => TableKind::Bounds,
        }
    }

    /// This table brought to `graph` after the cells `edited` changed, for
    /// the kinds repaired where the cells changed: a jump table repaired
    /// ([`JumpTable::repair`]), a goal-bounding table's jump table
    /// repaired and its boxes dropped ([`GoalBounds::edited`]), a subgoal
    /// graph's subgoals and edges repaired and its hierarchy made flat
    /// ([`SubgoalGraph::edited`]). `None` for the kinds repaired by the
    /// engine itself (landmark tables, [`IncrementalTable`](crate::landmarks::IncrementalTable)).
    pub(super) fn repaired(&self, graph: &GridGraph, edited: &[NodeId]) -> Option<Table> {
        match self {
            Table::Jumps(jumps) => {
                let mut jumps = JumpTable::clone(jumps);
                jumps.repair(graph, edited);
                Some(Table::from(jumps))
            }
            Table::Bounds(bounds) => Some(Table::from(bounds.edited(graph, edited))),
            Table::Subgoals(subgoals) => Some(Table::from(subgoals.edited(graph, edited))),
            Table::Landmarks(_) | Table::CompressedLandmarks(_) => None,
        }
    }

    /// Whether the table has all it can hold: every jump point of a
    /// goal-bounding table with its boxes, a subgoal graph ranked over its
    /// edges ([`SubgoalGraph::is_contracted`]) with its whole core boxed
    /// (a build its budget cut boxes part of it, or none); always for the other
    /// kinds. A table that is not answers optimally, more slowly, until
    /// [`Engine::filled_within`](super::Engine::filled_within).
    pub fn is_filled(&self) -> bool {
        match self {
            Table::Bounds(b) => b.boxed() == b.jump_points(),
            Table::Subgoals(s) => s.is_contracted() && s.core_boxed() == s.core(),
            Table::Landmarks(_) | Table::CompressedLandmarks(_) | Table::Jumps(_) => true,
        }
    }

    /// This table with more of what it lacks built on `graph` (its map)
    /// within `budget`: a goal-bounding table's missing boxes
    /// ([`GoalBounds::fill_within`]), a subgoal graph's hierarchy
    /// ([`SubgoalGraph::contract_within`], cut at `budget` as a build
    /// within it is, the subgoals left in the core). `None` when it
    /// [`is_filled`](Self::is_filled).
    pub(super) fn filled_within(&self, graph: &GridGraph, budget: Duration) -> Option<Table> {
        if self.is_filled() {
            return None;
        }
        match self {
            Table::Bounds(bounds) => {
                let mut bounds = GoalBounds::clone(bounds);
                bounds.fill_within(graph, budget);
                Some(Table::from(bounds))
            }
            Table::Subgoals(subgoals) => {
                let mut subgoals = SubgoalGraph::clone(subgoals);
                subgoals.contract_within(graph, Some(budget));
                Some(Table::from(subgoals))
            }
            Table::Landmarks(_) | Table::CompressedLandmarks(_) | Table::Jumps(_) => None,
        }
    }

    /// The search that answers for this table while the table is partial
    /// (a build cut at its budget) or behind its map (an edit left it of
    /// the older one), and the kind of table that search runs over: `jps+`
    /// over a jump table for a subgoal graph, which JPS+ stands under, and
    /// for a goal-bounding table, whose own jump table serves. `None` for
    /// the kinds that are always whole and of their map (landmark tables
    /// follow edits through their repair instead).
    pub(super) fn stand_in(&self) -> Option<(Algorithm, TableKind)> {
        match self {
            Table::Subgoals(_) | Table::Bounds(_) => Some((Algorithm::JpsPlus, TableKind::Jumps)),
            Table::Landmarks(_) | Table::CompressedLandmarks(_) | Table::Jumps(_) => None,
        }
    }

    /// Whether this table, as it is, would answer more slowly than its
    /// [`stand_in`](Self::stand_in), so that the stand-in answers until it
    /// is filled: a goal-bounding table with fewer than half of its jump
    /// points boxed (a jump point without boxes prunes nothing, and the
    /// checks of the few boxes a short budget builds on a large map cost
    /// more than they prune), and a subgoal graph whose unboxed core
    /// ([`SubgoalGraph::core`] less [`SubgoalGraph::core_boxed`]) holds
    /// more than a quarter of its subgoals: a graph made flat by an edit, or a
    /// build whose contraction its budget cut, where every query searches
    /// that core with the octile estimate alone. A whole contraction
    /// leaves a smaller core, which answers sooner than JPS+ even
    /// unboxed. The measurements behind both halves are in
    /// `docs/notes/2026-12-01-stand-ins.md`.
    pub(super) fn defers_to_stand_in(&self) -> bool {
        match self {
            Table::Bounds(b) => 2 * b.boxed() < b.jump_points(),
            Table::Subgoals(s) => {
                !s.is_contracted() || 4 * (s.core() - s.core_boxed()) > s.subgoals().len()
            }
            Table::Landmarks(_) | Table::CompressedLandmarks(_) | Table::Jumps(_) => false,
        }
    }

    /// The table the stand-in searches over, built on `graph`, for the
    /// kinds that do not carry it: a subgoal graph's jump table. `None`
    /// for the others (goal bounding keeps its jump table inside).
    pub(super) fn build_stand_in(&self, graph: &GridGraph) -> Option<Table> {
        match self {
            Table::Subgoals(_) => Some(JumpTable::build(graph).into()),
            _ => None,
        }
    }

    /// Whether a wall edit leaves this table as it was, behind its map,
    /// while its stand-in (repaired at once, far sooner) answers: a subgoal
    /// graph, whose repair costs many times a jump table's. The table
    /// [`caught_up`](Self::caught_up) is made when it is asked for, or
    /// filled by [`Engine::filled_within`](super::Engine::filled_within).
    pub(super) fn waits_at_edits(&self) -> bool {
        matches!(self, Table::Subgoals(_))
    }

    /// This table, left behind its map by edits of the cells `behind`,
    /// brought to `graph`: a subgoal graph repaired near the cells and
    /// flat ([`SubgoalGraph::edited`]); the others as
    /// [`repaired`](Self::repaired) brings them, or as they are.
    pub(super) fn caught_up(&self, graph: &GridGraph, behind: &[NodeId]) -> Table {
        self.repaired(graph, behind).unwrap_or_else(|| self.clone())
    }

    /// Builds the table of `kind` on `graph` within `budget`, for the
    /// kinds whose build a budget cuts: goal bounding's boxes
    /// ([`GoalBounds::build_within`]: the jump points left get none) and
    /// the subgoal graph's hierarchy ([`SubgoalGraph::build_within`]: the
    /// subgoals left stay in the core). Queries over a cut table stay
    /// optimal. `None` for the kinds built whole.
    pub fn build_within(kind: TableKind, graph: &GridGraph, budget: Duration) -> Option<Table> {
        match kind {
            TableKind::Bounds => Some(GoalBounds::build_within(graph, Some(budget)).into()),
            TableKind::Subgoals => Some(SubgoalGraph::build_within(graph, Some(budget)).into()),
            TableKind::Landmarks
            | TableKind::CompressedLandmarks
            | TableKind::Jumps
            | TableKind::Hierarchy
            | TableKind::HubLabels => None,
        }
    }

    /// Whether a budget cuts the build of tables of `kind`
    /// ([`build_within`](Self::build_within) builds them).
    pub fn is_budgeted(kind: TableKind) -> bool {
        matches!(kind, TableKind::Bounds | TableKind::Subgoals)
    }

    /// What the table holds beyond its kind and bytes, as `(label, value)`
    /// rows for reports: how much of a goal-bounding table is boxed, how
    /// much of a subgoal graph is left in its core and boxed there (none
    /// for the kinds always whole).
    pub fn details(&self) -> Vec<(&'static str, String)> {
        match self {
            Table::Bounds(b) => vec![(
                "boxes",
                format!("{} of {} jump points", b.boxed(), b.jump_points()),
            )],
            Table::Subgoals(t) => vec![(
                "core",
                format!(
                    "{} of {} subgoals, {} boxed",
                    t.core(),
                    t.subgoals().len(),
                    t.core_boxed()
                ),
            )],
            Table::Landmarks(_) | Table::CompressedLandmarks(_) | Table::Jumps(_) => Vec::new(),
        }
    }

    /// The bytes its data takes in memory.
    pub fn memory_bytes(&self) -> usize {
        match self {
            Table::Landmarks(t) => t.memory_bytes(),
            Table::CompressedLandmarks(t) => t.memory_bytes(),
            Table::Jumps(t) => t.memory_bytes(),
            Table::Subgoals(t) => t.memory_bytes(),
            Table::Bounds(t) => t.memory_bytes(),
        }
    }

    /// Writes the table in its saved format ([`crate::saved`]), tagged
    /// with `map_hash` (for a grid, [`grid_hash`](crate::saved::grid_hash)).
    ///
    /// # Errors
    ///
    /// Any error of `w`.
    pub fn save(&self, w: impl Write, map_hash: u64) -> io::Result<()> {
        match self {
            Table::Landmarks(t) => t.save(w, map_hash),
            Table::CompressedLandmarks(t) => t.save(w, map_hash),
            Table::Jumps(t) => t.save(w, map_hash),
            Table::Subgoals(t) => t.save(w, map_hash),
            Table::Bounds(t) => t.save(w, map_hash),
        }
    }

    /// Writes the table as [`save`](Self::save) does, tagged with the
    /// hash of `graph`'s map (the one [`Given::read`] checks).
    ///
    /// # Errors
    ///
    /// Any error of `w`.
    pub fn save_for(&self, w: impl Write, graph: &GridGraph) -> io::Result<()> {
        self.save(
            w,
            crate::saved::grid_hash(graph.grid(), graph.neighborhood()),
        )
    }

    /// Reads a saved table of any kind, told apart by its magic bytes, with
    /// the checks of its kind's loader: saved with `expected_map_hash`, and
    /// covering exactly the nodes (or cells) of `graph`.
    ///
    /// # Errors
    ///
    /// A [`FileError`]: [`BadMagic`](FileErrorKind::BadMagic) for a file
    /// cairns does not write, else the first problem the kind's loader
    /// finds.
    pub fn load_for(
        r: impl Read, graph: &GridGraph, expected_map_hash: u64,
    ) -> Result<Table, FileError> {
        let mut r = r;
        let magic = read_array::<8>(&mut r)?;
        let whole = (&magic[..]).chain(r);
        Ok(match TableKind::of(magic) {
            Some(TableKind::Landmarks) => {
                LandmarkTable::load_for(whole, graph, expected_map_hash)?.into()
            }
            Some(TableKind::CompressedLandmarks) => {
                CompressedTable::load_for(whole, graph, expected_map_hash)?.into()
            }
            Some(TableKind::Jumps) => JumpTable::load_for(whole, graph, expected_map_hash)?.into(),
            Some(TableKind::Subgoals) => {
                SubgoalGraph::load_for(whole, graph, expected_map_hash)?.into()
            }
            Some(TableKind::Bounds) => {
                GoalBounds::load_for(whole, graph, expected_map_hash)?.into()
            }
            // A road graph's tables: `GraphEngine::load` reads them.
            Some(found @ (TableKind::Hierarchy | TableKind::HubLabels)) => {
                return Err(FileErrorKind::WrongKind { found }.into());
            }
            None => return Err(FileErrorKind::BadMagic.into()),
        })
    }

    /// The landmark table, if this is one.
    pub fn landmarks(&self) -> Option<&LandmarkTable> {
        match self {
            Table::Landmarks(t) => Some(t),
            _ => None,
        }
    }

    /// The compressed landmark table, if this is one.
    pub fn compressed(&self) -> Option<&CompressedTable> {
        match self {
            Table::CompressedLandmarks(t) => Some(t),
            _ => None,
        }
    }

    /// The jump table, if this is one.
    pub fn jumps(&self) -> Option<&JumpTable> {
        match self {
            Table::Jumps(t) => Some(t),
            _ => None,
        }
    }

    /// The subgoal graph, if this is one.
    pub fn subgoals(&self) -> Option<&SubgoalGraph> {
        match self {
            Table::Subgoals(t) => Some(t),
            _ => None,
        }
    }

    /// The goal-bounding table, if this is one.
    pub fn bounds(&self) -> Option<&GoalBounds> {
        match self {
            Table::Bounds(t) => Some(t),
            _ => None,
        }
    }

    /// Refuses a table built for a graph of another size than `graph`, and
    /// a jump table built under another movement rule.
    pub(super) fn check_fits(&self, graph: &GridGraph) -> Result<(), SpecError> {
        let nodes = match self {
            Table::Landmarks(t) => t.node_count(),
            Table::CompressedLandmarks(t) => t.node_count(),
            Table::Jumps(t) => {
                grid_fits(self.kind(), (t.width(), t.height()), graph)?;
                if t.neighborhood() != graph.neighborhood() {
                    return Err(table_error(format!(
                        "the {} is for {} movement, the map moves by {}",
                        self.kind(),
                        t.neighborhood().name(),
                        graph.neighborhood().name()
                    )));
                }
                return Ok(());
            }
            Table::Subgoals(t) => return grid_fits(self.kind(), (t.width(), t.height()), graph),
            Table::Bounds(t) => {
                let t = t.jumps();
                return grid_fits(self.kind(), (t.width(), t.height()), graph);
            }
        };
        if nodes == graph.node_bound() {
            return Ok(());
        }
        Err(table_error(format!(
            "the {} covers {nodes} nodes, the map has {}",
            self.kind(),
            graph.node_bound()
        )))
    }

    /// `spec` with what this table, given, implies: a landmark table makes
    /// the heuristic `dh` with its landmark count (`dh:K:keepM` for a
    /// compressed one); a table an algorithm builds must be given to that
    /// algorithm.
    pub(super) fn adopt(&self, spec: SearchSpec) -> Result<SearchSpec, SpecError> {
        match self {
            Table::Landmarks(t) => Ok(spec.with_heuristic(spec.heuristic_of_table(t)?)),
            Table::CompressedLandmarks(t) => {
                Ok(spec.with_heuristic(spec.heuristic_of_compressed(t)?))
            }
            Table::Jumps(_) | Table::Subgoals(_) | Table::Bounds(_) => {
                let kind = self.kind();
                if spec.algorithm.tables().contains(&kind) {
                    return Ok(spec);
                }
                let wants: Vec<&str> = Algorithm::ALL
                    .into_iter()
                    .filter(|a| a.tables().contains(&kind))
                    .map(Algorithm::name)
                    .collect();
                Err(table_error(format!(
                    "a {kind} is for the {} search, not {}",
                    wants.join(" or "),
                    spec.algorithm
                )))
            }
        }
    }

    /// Builds the table of `kind` that the resolved `spec` needs on
    /// `graph`; `have` holds the tables built or given before it (the full
    /// landmark table a compressed one is made from).
    pub(super) fn build(
        kind: TableKind, spec: &SearchSpec, graph: &GridGraph, have: &[Table],
    ) -> Result<Table, SpecError> {
        let heuristic = spec.heuristic_for(graph.neighborhood());
        Ok(match kind {
            TableKind::Landmarks => match heuristic {
                HeuristicSpec::Landmarks {
                    count: Some(k),
                    placement,
                    ..
                } => build_table(graph, k, placement.with_seed(PLACEMENT_SEED))?.into(),
                _ => {
                    return Err(table_error(
                        "a bare dh needs a saved landmark table; give the landmark count as dh:K to build one"
                            .to_string(),
                    ));
                }
            },
            TableKind::CompressedLandmarks => {
                let full = have.iter().find_map(Table::landmarks);
                match compressed_for(heuristic, full)? {
                    Some(c) => c.into(),
                    None => {
                        return Err(table_error(format!(
                            "{heuristic} compresses a landmark table, and there is none"
                        )));
                    }
                }
            }
            TableKind::Jumps => JumpTable::build(graph).into(),
            TableKind::Subgoals => SubgoalGraph::build_for_spec(graph).into(),
            TableKind::Bounds => GoalBounds::build_for_spec(graph).into(),
            TableKind::Hierarchy | TableKind::HubLabels => {
                return Err(table_error(format!(
                    "a {kind} is a road graph's table, not a map's"
                )));
            }
        })
    }
}

impl Algorithm {
    /// The kinds of table the algorithm itself builds before its first
    /// query (its heuristic may add a landmark table,
    /// [`SearchSpec::table_kinds`]): the one row that ties a search to its
    /// tables.
    pub fn tables(self) -> &'static [TableKind] {
        match self {
            Algorithm::JpsPlus => &[TableKind::Jumps],
            Algorithm::Subgoals => &[TableKind::Subgoals],
            Algorithm::JpsBounds => &[TableKind::Bounds],
            _ => &[],
        }
    }

    /// The search that builds `kind` itself ([`Algorithm::tables`]), if
    /// one does: a table of that kind implies it (`--table FILE` with a
    /// jump table runs `jps+`).
    pub fn using(kind: TableKind) -> Option<Algorithm> {
        Algorithm::ALL
            .into_iter()
            .find(|a| a.tables().contains(&kind))
    }
}

/// `From` each kind's table type into its [`Table`] variant.
macro_rules! table_from {
    ($($variant:ident($t:ty)),* $(,)?) => {$(
        impl From<$t> for Table {
            fn from(t: $t) -> Table {
                Table::$variant(Arc::new(t))
            }
        }
    )*};
}

table_from!(
    Landmarks(LandmarkTable),
    CompressedLandmarks(CompressedTable),
    Jumps(JumpTable),
    Subgoals(SubgoalGraph),
);

impl From<GoalBounds> for Table {
    fn from(t: GoalBounds) -> Table {
        Table::Bounds(Arc::new(t))
    }
}

/// A table built or loaded before preparation (a saved file), with the
/// seconds that took, for [`SearchSpec::prepare_with`].
#[derive(Clone, Debug)]
pub struct Given {
    /// The table.
    pub table: Table,
    /// Seconds spent loading (or building) it, counted in
    /// [`Prepared::preprocess_s`](super::Prepared::preprocess_s).
    pub seconds: f64,
}

impl Given {
    /// Reads a saved table of any kind for `graph` ([`Table::load_for`],
    /// checked against the hash of `graph`'s map,
    /// [`grid_hash`](crate::saved::grid_hash)), timed: what every front
    /// end's `--table FILE` does.
    ///
    /// # Errors
    ///
    /// Those of [`Table::load_for`].
    pub fn read(r: impl Read, graph: &GridGraph) -> Result<Given, FileError> {
        let t0 = std::time::Instant::now();
        let hash = crate::saved::grid_hash(graph.grid(), graph.neighborhood());
        let table = Table::load_for(r, graph, hash)?;
        Ok(Given {
            table,
            seconds: t0.elapsed().as_secs_f64(),
        })
    }
}

impl From<Table> for Given {
    fn from(table: Table) -> Given {
        Given {
            table,
            seconds: 0.0,
        }
    }
}

/// What preparation made of one table: its kind, the seconds it took to
/// build (or load), its bytes, and whether it was given. The CLI, the
/// JSON summaries and the web page print these.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TableReport {
    /// The kind.
    pub kind: TableKind,
    /// Seconds spent building it, or loading it when given.
    pub seconds: f64,
    /// Bytes of its data in memory.
    pub bytes: usize,
    /// Whether it was given (loaded from a file) rather than built.
    pub given: bool,
}

impl std::fmt::Display for TableReport {
    /// `jumps built in 0.012 s, 2097152 bytes`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let how = if self.given { "loaded" } else { "built" };
        write!(
            f,
            "{} {how} in {:.3} s, {} bytes",
            self.kind.name(),
            self.seconds,
            self.bytes
        )
    }
}

/// Refuses a table of `kind` built for a grid of another size than
/// `graph`'s.
fn grid_fits(
    kind: TableKind, (width, height): (u32, u32), graph: &GridGraph,
) -> Result<(), SpecError> {
    if (width, height) == (graph.width(), graph.height()) {
        return Ok(());
    }
    Err(table_error(format!(
        "the {kind} is for a {width}x{height} grid, the map is {}x{}",
        graph.width(),
        graph.height()
    )))
}

fn table_error(message: String) -> SpecError {
    SpecErrorKind::Table(message).into()
}

/// Places `k` landmarks on `graph` and builds their symmetric table (in
/// parallel).
///
/// # Errors
///
/// [`SpecErrorKind::Table`] when the map has fewer than `k` cells with a
/// legal move.
pub fn build_table(
    graph: &GridGraph, k: usize, placement: Placement,
) -> Result<LandmarkTable, SpecError> {
    let landmarks = place(graph, k, placement);
    if landmarks.len() < k {
        return Err(table_error(format!(
            "cannot place {k} landmarks: the map has only {} cells with a legal move",
            landmarks.len()
        )));
    }
    Ok(LandmarkTable::build(
        graph,
        &landmarks,
        Directedness::Symmetric,
    ))
}

/// The compressed copy of `table` that `heuristic` searches when it is
/// `dh:K:keepM` (the `M` nearest landmarks of each cell), `None` for every
/// other heuristic or without a table.
///
/// # Errors
///
/// [`SpecErrorKind::Table`] where [`CompressedTable::new`] cannot
/// compress: more kept than the table has, a directed table, or too many
/// landmarks.
pub(super) fn compressed_for(
    heuristic: HeuristicSpec, table: Option<&LandmarkTable>,
) -> Result<Option<CompressedTable>, SpecError> {
    let (
        HeuristicSpec::Landmarks {
            mode: LandmarkMode::Keep(keep),
            ..
        },
        Some(table),
    ) = (heuristic, table)
    else {
        return Ok(None);
    };
    check_keep(keep, table.landmark_count())?;
    if table.directedness() != Directedness::Symmetric {
        return Err(SpecErrorKind::Table(
            "a directed landmark table cannot be compressed (keepM needs a symmetric one)"
                .to_string(),
        )
        .into());
    }
    if table.landmark_count() > CompressedTable::MAX_LANDMARKS {
        return Err(SpecErrorKind::Table(format!(
            "a table of {} landmarks cannot be compressed (at most {})",
            table.landmark_count(),
            CompressedTable::MAX_LANDMARKS
        ))
        .into());
    }
    Ok(Some(CompressedTable::new(
        table,
        keep,
        Compression::Nearest,
    )))
}

impl SearchSpec {
    /// The heuristic of this spec with a given landmark `table`: `dh` with
    /// the table's landmark count.
    pub(super) fn heuristic_of_table(
        &self, table: &LandmarkTable,
    ) -> Result<HeuristicSpec, SpecError> {
        self.heuristic_of_table_count(table.landmark_count())
    }

    /// [`heuristic_of_table`](Self::heuristic_of_table) for a table of
    /// `found` landmarks.
    pub(super) fn heuristic_of_table_count(
        &self, found: usize,
    ) -> Result<HeuristicSpec, SpecError> {
        match self.heuristic {
            None => Ok(HeuristicSpec::Landmarks {
                count: Some(found),
                placement: PlacementKind::default(),
                mode: LandmarkMode::All,
            }),
            Some(HeuristicSpec::Landmarks {
                count,
                placement,
                mode,
            }) => {
                if let Some(k) = count.filter(|&k| k != found) {
                    return Err(SpecErrorKind::Table(format!(
                        "dh:{k} asks for {k} landmarks, but the table has {found}"
                    ))
                    .into());
                }
                Ok(HeuristicSpec::Landmarks {
                    count: Some(found),
                    placement,
                    mode,
                })
            }
            Some(other) => Err(SpecErrorKind::Table(format!(
                "a landmark table gives a differential heuristic, but the heuristic is {other} (use dh)"
            ))
            .into()),
        }
    }

    /// The heuristic of this spec with a given compressed table:
    /// `dh:K:keepM` with the table's `K` and `M`; a bare `dh` (or none)
    /// becomes it.
    pub(super) fn heuristic_of_compressed(
        &self, table: &CompressedTable,
    ) -> Result<HeuristicSpec, SpecError> {
        let (k, m) = (table.landmark_count(), table.kept());
        // The count and a heuristic other than dh are checked as for a
        // full table.
        let spec = self.heuristic_of_table_count(k)?;
        let HeuristicSpec::Landmarks {
            count,
            placement,
            mode,
        } = spec
        else {
            return Ok(spec);
        };
        let refuse = |what: String| Err(SpecErrorKind::Table(what).into());
        let mode = match mode {
            LandmarkMode::All => LandmarkMode::Keep(m),
            LandmarkMode::Keep(asked) if asked == m => mode,
            LandmarkMode::Keep(asked) => {
                return refuse(format!(
                    "keep{asked} asks to keep {asked} landmarks per cell, but the compressed table keeps {m}"
                ));
            }
            LandmarkMode::Best(_) | LandmarkMode::Adapt => {
                return refuse(format!(
                    "a compressed landmark table gives dh:{k}:keep{m}, not dh:{k}{mode}"
                ));
            }
        };
        Ok(HeuristicSpec::Landmarks {
            count,
            placement,
            mode,
        })
    }
}

/// The suite every saved table kind runs, through [`Table`] and through
/// its own loader: damaged files are refused without a panic, I/O errors
/// come through `source`, and a table of another map is named as such.
#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::graph::{CsrGraph, NodeId};
    use crate::saved::testing::{Broken, small_map};
    use crate::search::{ContractionHierarchy, HubLabels};

    /// A kind's own loader, on bytes, with the map hash expected.
    type Loader = fn(&[u8], u64) -> Result<(), FileError>;

    /// The subgoal graph's loader, which reads a file for a map: the small
    /// map.
    fn load_subgoals(b: &[u8], hash: u64) -> Result<(), FileError> {
        SubgoalGraph::load_for(b, &small_map().0, hash).map(drop)
    }

    /// The goal-bounding table's loader, which reads a file for a map: the
    /// small map.
    fn load_bounds(b: &[u8], hash: u64) -> Result<(), FileError> {
        GoalBounds::load_for(b, &small_map().0, hash).map(drop)
    }

    /// One saved table of each kind on the small map (and a directed
    /// landmark table, on a graph of its own), each with its bytes and its
    /// kind's own loader.
    fn saved() -> Vec<(TableKind, Vec<u8>, Loader)> {
        let (graph, hash) = small_map();
        let full = build_table(&graph, 3, Placement::Farthest { seed: 1 }).unwrap();
        let tables: Vec<Table> = vec![
            CompressedTable::new(&full, 2, Compression::Nearest).into(),
            full.into(),
            JumpTable::build(&graph).into(),
            SubgoalGraph::build(&graph).into(),
            GoalBounds::build(&graph).into(),
        ];
        let mut out: Vec<(TableKind, Vec<u8>, Loader)> = tables
            .iter()
            .map(|t| {
                let mut bytes = Vec::new();
                t.save(&mut bytes, hash).unwrap();
                let load: Loader = match t.kind() {
                    TableKind::Landmarks => |b, h| LandmarkTable::load(b, h).map(drop),
                    TableKind::CompressedLandmarks => |b, h| CompressedTable::load(b, h).map(drop),
                    TableKind::Jumps => |b, h| JumpTable::load(b, h).map(drop),
                    TableKind::Subgoals => load_subgoals,
                    TableKind::Bounds => load_bounds,
                    TableKind::Hierarchy | TableKind::HubLabels => {
                        unreachable!("a grid's tables only")
                    }
                };
                (t.kind(), bytes, load)
            })
            .collect();
        let g = CsrGraph::from_edges(4, &[(0, 1, 0.1), (1, 2, 2.5), (2, 0, 1e30)]).unwrap();
        let directed = LandmarkTable::build(&g, &[NodeId(2), NodeId(0)], Directedness::Directed);
        let mut bytes = Vec::new();
        directed.save(&mut bytes, hash).unwrap();
        out.push((TableKind::Landmarks, bytes, |b, h| {
            LandmarkTable::load(b, h).map(drop)
        }));
        // A road graph's two kinds, of the same small graph (tagged with
        // the map's hash: the caller chooses it).
        let ch = ContractionHierarchy::build(&g);
        let mut bytes = Vec::new();
        ch.save(&mut bytes, hash).unwrap();
        out.push((TableKind::Hierarchy, bytes, |b, h| {
            ContractionHierarchy::load(b, h).map(drop)
        }));
        let mut bytes = Vec::new();
        HubLabels::build(&ch).save(&mut bytes, &ch, hash).unwrap();
        out.push((TableKind::HubLabels, bytes, |b, h| {
            HubLabels::load(b, h).map(drop)
        }));
        out
    }

    #[test]
    fn every_kind_loads_back_and_names_another_map_and_io_errors() {
        let (graph, hash) = small_map();
        for (kind, bytes, load) in saved() {
            assert!(load(&bytes, hash).is_ok(), "{kind}");
            let mut longer = bytes.clone();
            longer.extend_from_slice(b"more");
            assert!(
                load(&longer, hash).is_ok(),
                "{kind}: bytes after the checksum"
            );
            let err = load(&bytes, hash ^ 1).unwrap_err();
            assert!(
                matches!(
                    (err.kind(), kind.info().for_graphs),
                    (FileErrorKind::MapHashMismatch { .. }, false)
                        | (FileErrorKind::GraphHashMismatch { .. }, true)
                ),
                "{kind}: {err}"
            );
            assert_eq!(err.table(), Some(kind));
            if kind.info().for_graphs {
                // A road graph's table given for a map says what it is.
                let err = Table::load_for(&bytes[..], &graph, hash).unwrap_err();
                assert_eq!(err.kind(), &FileErrorKind::WrongKind { found: kind });
                assert!(err.to_string().contains("cairns graph build"), "{err}");
            } else if kind != TableKind::Landmarks || bytes.len() > 100 {
                let err = Table::load_for(&bytes[..], &graph, hash ^ 1).unwrap_err();
                assert_eq!(err.table(), Some(kind), "{err}");
            }
        }
        for kind in TableKind::ALL {
            let err = match kind {
                TableKind::Landmarks => LandmarkTable::load(Broken, 0).map(drop),
                TableKind::CompressedLandmarks => CompressedTable::load(Broken, 0).map(drop),
                TableKind::Jumps => JumpTable::load(Broken, 0).map(drop),
                TableKind::Subgoals => SubgoalGraph::load_for(Broken, &graph, 0).map(drop),
                TableKind::Bounds => GoalBounds::load_for(Broken, &graph, 0).map(drop),
                TableKind::Hierarchy => ContractionHierarchy::load(Broken, 0).map(drop),
                TableKind::HubLabels => HubLabels::load(Broken, 0).map(drop),
            }
            .unwrap_err();
            assert_eq!(err.kind(), &FileErrorKind::Io, "{kind}");
            let source = std::error::Error::source(&err).unwrap();
            assert_eq!(source.to_string(), "disk on fire");
        }
        let err = Table::load_for(Broken, &graph, 0).unwrap_err();
        assert_eq!(err.kind(), &FileErrorKind::Io);
    }

    /// The header and trailer every kind shares: a magic that names no
    /// table, the magic of each other kind, a changed byte under the
    /// checksum, and a version this library does not read (with the
    /// command that builds the table again) are each named.
    #[test]
    fn every_kind_names_bad_magic_another_kind_and_another_version() {
        let (graph, hash) = small_map();
        for (kind, good, load) in saved() {
            let mut b = good.clone();
            b[7] = b'X';
            assert_eq!(load(&b, hash).unwrap_err().kind(), &FileErrorKind::BadMagic);
            let err = Table::load_for(&b[..], &graph, hash).unwrap_err();
            assert_eq!(err.kind(), &FileErrorKind::BadMagic);
            for other in TableKind::ALL.into_iter().filter(|&k| k != kind) {
                let mut b = good.clone();
                b[..8].copy_from_slice(&other.magic());
                let err = load(&b, hash).unwrap_err();
                assert_eq!(err.kind(), &FileErrorKind::WrongKind { found: other });
                assert_eq!(err.table(), Some(kind), "{err}");
                assert!(err.to_string().contains(other.info().command), "{err}");
            }
            // A changed byte of the body: the checksum says so.
            let mut b = good.clone();
            b[good.len() - 9] ^= 0x10;
            let err = load(&b, hash).unwrap_err();
            assert!(
                matches!(err.kind(), FileErrorKind::ChecksumMismatch { .. }),
                "{kind}: {err}"
            );
            let mut b = good.clone();
            b[8] = 9;
            let err = load(&b, hash).unwrap_err();
            assert!(
                matches!(err.kind(), FileErrorKind::UnsupportedVersion { found: 9, command, .. } if *command == kind.info().command),
                "{err}"
            );
        }
    }

    /// The grid kinds read the grid's size after the header: a file for
    /// a grid of another size is named as such, and so is a count of
    /// cells (in the kinds that list cells) that no grid of the size
    /// holds, or of jump points the map does not have, before anything is
    /// allocated.
    #[test]
    fn grid_kinds_name_another_size_and_more_cells_than_the_grid() {
        let (graph, hash) = small_map();
        let other = crate::grid::testing::open_map(3, 6, crate::grid::Neighborhood::Octile);
        let grid_kinds = [TableKind::Jumps, TableKind::Subgoals, TableKind::Bounds];
        for (kind, good, _) in saved().into_iter().filter(|s| grid_kinds.contains(&s.0)) {
            let err = Table::load_for(&good[..], &other, hash).unwrap_err();
            let size = FileErrorKind::SizeMismatch {
                width: 3,
                height: 6,
                found_width: 6,
                found_height: 3,
            };
            assert_eq!((err.kind(), err.table()), (&size, Some(kind)));
            if kind != TableKind::Jumps {
                let mut b = good[..28].to_vec();
                b.extend_from_slice(&u32::MAX.to_le_bytes());
                let err = Table::load_for(&b[..], &graph, hash).unwrap_err();
                // Goal bounding counts the map's jump points, which it
                // knows before reading any, where the subgoal graph lists
                // cells.
                let bad = if kind == TableKind::Bounds {
                    let expected = crate::search::GoalBounds::build(&graph).jump_points() as u64;
                    FileErrorKind::JumpPointCount {
                        expected,
                        found: u64::from(u32::MAX),
                    }
                } else {
                    FileErrorKind::BadSize {
                        width: 6,
                        height: 3,
                    }
                };
                assert_eq!(err.kind(), &bad, "{kind}");
            }
        }
    }

    proptest! {
        /// Random bytes after a valid header, and every truncation and
        /// one-bit flip of a valid file of each kind, are refused without a
        /// panic, by the kind's loader and by `Table::load_for`.
        #[test]
        fn damaged_files_of_every_kind_are_refused(
            input in prop::collection::vec(any::<u8>(), 0..200),
            cut in any::<prop::sample::Index>(),
            flip in any::<prop::sample::Index>(),
            bit in 0u8..8,
        ) {
            let (graph, hash) = small_map();
            for (kind, good, load) in saved() {
                let mut head = good[..12].to_vec();
                head.extend_from_slice(&hash.to_le_bytes());
                head.extend_from_slice(&input);
                prop_assert!(load(&head, hash).is_err(), "{}", kind);
                prop_assert!(Table::load_for(&head[..], &graph, hash).is_err());
                let n = cut.index(good.len());
                let err = load(&good[..n], hash).unwrap_err();
                prop_assert_eq!(err.kind(), &FileErrorKind::Truncated, "{}", kind);
                let mut b = good.clone();
                b[flip.index(good.len())] ^= 1 << bit;
                prop_assert!(load(&b, hash).is_err(), "{}", kind);
                prop_assert!(Table::load_for(&b[..], &graph, hash).is_err());
            }
        }
    }
}
