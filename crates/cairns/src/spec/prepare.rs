//! Preparation: a resolved spec with the tables it searches with on one
//! graph, built once and borrowed by every searcher.

use std::time::Instant;

use super::construct::{BoxedSearcher, build_searcher};
use super::error::{SpecError, SpecErrorKind};
use super::names::{HeuristicSpec, SearchSpec};
use super::tables::{Given, Table, TableReport, compressed_for};
use crate::graph::NodeId;
use crate::grid::GridGraph;
use crate::landmarks::LandmarkTable;
use crate::landmarks::research::CompressedTable;
use crate::saved::TableKind;
use crate::search::SearchMemory;

impl SearchSpec {
    /// Builds what the spec needs before its first query on `graph` (every
    /// kind of [`table_kinds`](Self::table_kinds): the landmark table of
    /// `dh:K`, placed with [`PLACEMENT_SEED`](super::PLACEMENT_SEED) and
    /// built in parallel, the jump table of `jps+`), timed: the same as
    /// [`prepare_with`](Self::prepare_with) with no table given.
    ///
    /// # Errors
    ///
    /// Those of [`prepare_with`](Self::prepare_with).
    pub fn prepare<'g>(&self, graph: &'g GridGraph) -> Result<Prepared<'g>, SpecError> {
        self.prepare_with(graph, Vec::<Given>::new())
    }

    /// Resolves the spec for `graph`, takes the tables `given` (saved
    /// files, [`Table::load_for`]) and builds the kinds it needs that were
    /// not given, each timed ([`Prepared::report`]). A given landmark table
    /// makes the heuristic `dh` with the table's landmark count (a
    /// compressed one `dh:K:keepM`); a given jump table must be for `jps+`.
    /// An inadmissible heuristic is let through and reported by
    /// [`Prepared::inadmissible`], for tools to warn about.
    ///
    /// # Errors
    ///
    /// Those of [`resolve_inadmissible`](Self::resolve_inadmissible) and
    /// [`check_terrain`](Self::check_terrain); a given table for another
    /// search or heuristic, of another landmark count, or for a graph of
    /// another size; two tables of one kind, or a full and a compressed
    /// landmark table; a bare `dh` without a table; a map with fewer cells
    /// with a legal move than landmarks asked for.
    pub fn prepare_with<'g>(
        &self, graph: &'g GridGraph, given: impl IntoIterator<Item = Given>,
    ) -> Result<Prepared<'g>, SpecError> {
        self.prepare_keeping(graph, given, Vec::new(), false)
    }

    /// [`prepare_with`](Self::prepare_with), with the stand-in tables
    /// `stand_ins` kept (an edited engine's, repaired): a table that needs
    /// a stand-in its kind does not carry, and that `stand_ins` lacks, gets
    /// one built. A table needs one when it defers to it, and, for an
    /// `editable` plan (an engine's), when it waits at edits.
    pub(super) fn prepare_keeping<'g>(
        &self, graph: &'g GridGraph, given: impl IntoIterator<Item = Given>,
        mut stand_ins: Vec<Table>, editable: bool,
    ) -> Result<Prepared<'g>, SpecError> {
        // A full and a compressed landmark table are two kinds that one
        // heuristic reads: at most one of them may be given.
        let landmarks =
            |kind| matches!(kind, TableKind::Landmarks | TableKind::CompressedLandmarks);
        let given: Vec<Given> = given.into_iter().collect();
        let mut spec = *self;
        for (i, g) in given.iter().enumerate() {
            let kind = g.table.kind();
            if given[..i].iter().any(|h| {
                let other = h.table.kind();
                other == kind || (landmarks(kind) && landmarks(other))
            }) {
                return Err(SpecErrorKind::Table(format!(
                    "give one table of each kind: a second {kind}, or a full and a compressed landmark table (not both)"
                ))
                .into());
            }
            g.table.check_fits(graph)?;
            spec = g.table.adopt(spec)?;
        }
        let spec = spec.resolve_inadmissible(graph.neighborhood())?;
        spec.check_terrain(graph)?;
        let landmarks_given = given.iter().any(|g| landmarks(g.table.kind()));
        // A compressed table given alone is searched without the full one
        // it was made from.
        let compressed_given = given
            .iter()
            .any(|g| g.table.kind() == TableKind::CompressedLandmarks);
        let mut tables = Vec::new();
        let mut report = Vec::new();
        for kind in spec.table_kinds(graph.neighborhood()) {
            if let Some(g) = given.iter().find(|g| g.table.kind() == kind) {
                report.push(TableReport {
                    kind,
                    seconds: g.seconds,
                    bytes: g.table.memory_bytes(),
                    given: true,
                });
                tables.push(g.table.clone());
                continue;
            }
            if kind == TableKind::Landmarks && compressed_given {
                continue;
            }
            let t0 = Instant::now();
            let table = Table::build(kind, &spec, graph, &tables)?;
            report.push(TableReport {
                kind,
                seconds: t0.elapsed().as_secs_f64(),
                bytes: table.memory_bytes(),
                given: false,
            });
            tables.push(table);
        }
        // A table cut at its budget answers through its stand-in, built
        // now unless kept (a jump table: a fraction of a second).
        for table in &tables {
            let needs = table.defers_to_stand_in() || (editable && table.waits_at_edits());
            let missing = table
                .stand_in()
                .is_some_and(|(_, kind)| stand_ins.iter().all(|t| t.kind() != kind));
            if needs && missing {
                stand_ins.extend(table.build_stand_in(graph));
            }
        }
        Ok(Prepared {
            graph,
            plan: Plan {
                spec,
                tables,
                report,
                landmarks_given,
                stand_ins,
            },
        })
    }

    /// A ready searcher for `graph` over `tables`, borrowed (a borrowed
    /// view of tables kept elsewhere, such as the web page's cache): the
    /// spec is resolved and checked against the graph and the tables. A
    /// kind the spec needs and `tables` lacks is built for this searcher
    /// alone where that is cheap (the jump table of `jps+`); a landmark
    /// heuristic must find its table. Use [`prepare`](Self::prepare) to
    /// build tables once for many searchers.
    ///
    /// # Errors
    ///
    /// Those of [`resolve`](Self::resolve) and
    /// [`check_terrain`](Self::check_terrain); a landmark heuristic without
    /// a table or with a table of another landmark count; a table for a
    /// graph of another size.
    pub fn searcher<'a>(
        &self, graph: &'a GridGraph, tables: &'a [Table],
    ) -> Result<BoxedSearcher<'a>, SpecError> {
        for t in tables {
            t.check_fits(graph)?;
        }
        let spec = self.resolve_inadmissible(graph.neighborhood())?;
        spec.check_terrain(graph)?;
        let heuristic = spec.heuristic_for(graph.neighborhood());
        let landmarks = tables.iter().find_map(Table::landmarks);
        if let HeuristicSpec::Landmarks { count, .. } = heuristic {
            let compressed = tables.iter().find_map(Table::compressed);
            let found = landmarks
                .map(LandmarkTable::landmark_count)
                .or(compressed.map(CompressedTable::landmark_count));
            match found {
                None => {
                    return Err(SpecErrorKind::Table(format!(
                        "{heuristic} needs its landmark table"
                    ))
                    .into());
                }
                Some(k) if count.is_some_and(|c| c != k) => {
                    return Err(SpecErrorKind::Table(format!(
                        "{heuristic} does not match a table of {k} landmarks"
                    ))
                    .into());
                }
                Some(_) => {}
            }
        }
        // `dh:K:keepM` over a full table only: compress it for this
        // searcher.
        let compressed = match tables.iter().find_map(Table::compressed) {
            Some(_) => None,
            None => compressed_for(heuristic, landmarks)?,
        };
        Ok(build_searcher(
            spec,
            graph,
            tables,
            &[],
            compressed,
            SearchMemory::default(),
        ))
    }
}

/// What preparation made, apart from the graph: the resolved spec, its
/// tables and the report of them.
#[derive(Clone, Debug)]
pub(super) struct Plan {
    pub(super) spec: SearchSpec,
    pub(super) tables: Vec<Table>,
    pub(super) report: Vec<TableReport>,
    /// Whether a landmark table was given (a saved file) rather than built.
    pub(super) landmarks_given: bool,
    /// The tables the stand-in searches run over ([`Table::stand_in`]),
    /// for the tables that do not carry theirs: built when a table is
    /// partial, and kept by an engine that may be edited.
    pub(super) stand_ins: Vec<Table>,
}

impl Plan {
    /// A searcher of this plan on `graph` (its map), its cache in
    /// `memory`: the spec's own search, or, while one of its tables is
    /// partial or `behind` its map, the stand-in search over that
    /// table's stand-in ([`Table::stand_in`]), which answers the same
    /// costs at the speed of the tier the table stands on.
    pub(super) fn searcher<'a>(
        &'a self, graph: &'a GridGraph, behind: bool, memory: SearchMemory,
    ) -> BoxedSearcher<'a> {
        let waiting = |t: &&Table| t.defers_to_stand_in() || (behind && t.waits_at_edits());
        let spec = match self.tables.iter().filter(waiting).find_map(Table::stand_in) {
            Some((algorithm, _)) => SearchSpec {
                algorithm,
                ..self.spec
            },
            None => self.spec,
        };
        build_searcher(spec, graph, &self.tables, &self.stand_ins, None, memory)
    }
}

/// A resolved spec with the tables it needs on one graph, ready to hand
/// out searchers. [`Engine`](super::Engine) is the same, owning its graph.
#[derive(Clone, Debug)]
pub struct Prepared<'g> {
    pub(super) graph: &'g GridGraph,
    pub(super) plan: Plan,
}

impl<'g> Prepared<'g> {
    /// The resolved spec (every part filled in).
    pub fn spec(&self) -> SearchSpec {
        self.plan.spec
    }

    /// The graph.
    pub fn graph(&self) -> &'g GridGraph {
        self.graph
    }

    /// The heuristic as reports name it: its spec name, or `dh:K` (with
    /// the mode, as in `dh:K:keepM`) for a table given by the caller, whose
    /// placement is not known.
    pub fn heuristic_label(&self) -> String {
        match self.plan.spec.heuristic_for(self.graph.neighborhood()) {
            HeuristicSpec::Landmarks {
                count: Some(k),
                mode,
                ..
            } if self.plan.landmarks_given => {
                format!("dh:{k}{mode}")
            }
            h => h.to_string(),
        }
    }

    /// Why the heuristic is not admissible on this graph (the search may
    /// then return paths that are not shortest), or `None` when it is.
    pub fn inadmissible(&self) -> Option<SpecError> {
        self.plan.spec.resolve(self.graph.neighborhood()).err()
    }

    /// The tables, in the order of [`SearchSpec::table_kinds`].
    pub fn tables(&self) -> &[Table] {
        &self.plan.tables
    }

    /// What preparation built or took, per table: kind, seconds, bytes.
    pub fn report(&self) -> &[TableReport] {
        &self.plan.report
    }

    /// The landmark table, for a landmark heuristic (not for a compressed
    /// table given alone).
    pub fn table(&self) -> Option<&LandmarkTable> {
        self.plan.tables.iter().find_map(Table::landmarks)
    }

    /// The landmark nodes of the landmark table or, for a compressed
    /// table given alone, of that one.
    pub fn landmark_nodes(&self) -> Option<&[NodeId]> {
        let tables = &self.plan.tables;
        match (
            tables.iter().find_map(Table::landmarks),
            tables.iter().find_map(Table::compressed),
        ) {
            (Some(t), _) => Some(t.landmarks()),
            (None, Some(c)) => Some(c.landmarks()),
            (None, None) => None,
        }
    }

    /// Seconds spent building (or loading) every table; 0 without tables.
    pub fn preprocess_s(&self) -> f64 {
        // Folded from 0.0: an empty `sum` of floats is -0.0.
        self.plan.report.iter().fold(0.0, |s, r| s + r.seconds)
    }

    /// Bytes of every table's data; 0 without tables.
    pub fn table_bytes(&self) -> usize {
        self.plan.report.iter().map(|r| r.bytes).sum()
    }

    /// A new searcher with a cache of its own (one per thread).
    pub fn searcher(&self) -> BoxedSearcher<'_> {
        self.plan
            .searcher(self.graph, false, SearchMemory::default())
    }
}
