//! Choosing the search for a map from what may be spent before its first
//! query: [`choose`] weighs the preprocessed tiers (none, the jump table,
//! goal bounding, the subgoal graph's hierarchy) against an [`Allowance`]
//! of seconds and bytes, and says what it picked and why.
//!
//! The rule follows what `docs/performance.md` and the runs it lists in
//! `docs/notes/` measured (JPS+, goal bounding, subgoal graphs): `jps+` answers ahead of every
//! online search, on a table built in milliseconds; goal bounding, after
//! up to [`GoalBounds::spec_budget`] of building, lets JPS+ skip every move
//! whose box leaves the goal out, and prunes nothing at a jump point the
//! budget did not reach. On maps dense in jump points (mazes, random
//! obstacles) goal bounding boxes few of them within its budget, while the
//! subgoal graph's contraction hierarchy (`sub`) contracts most subgoals
//! and a query searches few nodes; on sparser maps (dao, street) `sub`
//! keeps a large core and is slower than `jps+`, so it is chosen only on
//! maps dense in jump points.

use std::fmt;

use super::names::{Algorithm, SearchSpec};
use crate::graph::Graph as _;
use crate::grid::{GridGraph, Neighborhood};
use crate::search::{Budgeted, GoalBounds, SubgoalGraph};

/// A map with at least one jump point in this many passable cells is
/// dense: `maze512-1-0` has one in 3.6, `random512-10-0` one in 3.5,
/// `Berlin_0_512` one in 40 and `32room_000` one in 296.
const DENSE: usize = 10;

/// What may be spent before a map's first query.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Allowance {
    /// Seconds of building (on every core).
    pub seconds: f64,
    /// Bytes of tables kept in memory.
    pub bytes: u64,
}

impl Default for Allowance {
    /// Issue 32's budget for a 512x512 map: 8 seconds, and any memory.
    fn default() -> Self {
        Allowance {
            seconds: 8.0,
            bytes: u64::MAX,
        }
    }
}

/// The search [`choose`] picked for a map, what it costs before the first
/// query, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    /// The search to run.
    pub spec: SearchSpec,
    /// The most seconds its preparation takes: the build's budget for goal
    /// bounding, 0 for the searches that build in milliseconds or not at
    /// all.
    pub seconds: f64,
    /// The most bytes its tables hold.
    pub bytes: u64,
    /// Why this search and not the faster tiers.
    pub why: String,
}

impl fmt::Display for Choice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} (up to {:.1} s and {} bytes before the first query): {}",
            self.spec, self.seconds, self.bytes, self.why
        )
    }
}

/// The landmarks of the table [`choose`] offers A* on maps the jump point
/// searches refuse.
const LANDMARKS: usize = 16;

/// [`choose`] on a map the jump point searches refuse: A* over
/// [`LANDMARKS`] landmarks when its table, built here, fits in
/// `allowance`, else A* with nothing built.
fn without_jump_points(graph: &GridGraph, allowance: Allowance) -> Choice {
    let refused = "no jump point search takes terrain costs";
    // One distance a landmark and cell (a grid's table is symmetric).
    let estimate = (LANDMARKS * graph.node_bound() * std::mem::size_of::<f64>()) as u64;
    let over = if estimate > allowance.bytes {
        format!(
            "a table of {LANDMARKS} landmarks ({estimate} bytes) is over the {} bytes allowed",
            allowance.bytes
        )
    } else {
        let spec: SearchSpec = format!("astar/dh:{LANDMARKS}")
            .parse()
            .expect("a valid spec");
        match spec.prepare(graph) {
            Ok(prepared) => {
                let (seconds, bytes) = (prepared.preprocess_s(), prepared.table_bytes());
                if seconds <= allowance.seconds && bytes as u64 <= allowance.bytes {
                    return Choice {
                        spec,
                        seconds,
                        bytes: bytes as u64,
                        why: format!(
                            "{refused}; A* over {LANDMARKS} landmarks (a table of {bytes} bytes, \
                             built here in {seconds:.1} s) expands far fewer nodes than with the \
                             grid distance alone"
                        ),
                    };
                }
                format!(
                    "the table of {LANDMARKS} landmarks ({bytes} bytes, {seconds:.1} s to build) \
                     is over the allowance"
                )
            }
            Err(e) => format!("A* over landmarks is refused here ({e})"),
        }
    };
    Choice {
        spec: SearchSpec::new(Algorithm::AStar),
        seconds: 0.0,
        bytes: 0,
        why: format!("{refused}; {over}; A* needs no table"),
    }
}

/// [`choose`] under a movement rule other than octile, without terrain
/// costs: JPS+ over the rule's jump table when it fits, else jump point
/// search, which needs nothing.
fn under_another_rule(graph: &GridGraph, allowance: Allowance) -> Choice {
    let choice = |algorithm: Algorithm, bytes: usize, why: String| Choice {
        spec: SearchSpec::new(algorithm),
        seconds: 0.0,
        bytes: bytes as u64,
        why,
    };
    // JPS+ over the rule's jump table: built in milliseconds, its size
    // known without building it.
    let rule = graph.neighborhood().name();
    let jumps = crate::search::JumpTable::bytes_for(graph);
    if jumps as u64 <= allowance.bytes {
        return choice(
            Algorithm::JpsPlus,
            jumps,
            format!(
                "goal bounding and subgoal graphs need octile movement without corner \
                 cutting; under {rule} jump points skip every cell of a run but those where \
                 a turn is forced, which prunes more than A* over landmarks does, and JPS+ \
                 reads each jump from its table ({jumps} bytes) instead of scanning it"
            ),
        );
    }
    choice(
        Algorithm::Jps,
        0,
        format!(
            "goal bounding and subgoal graphs need octile movement without corner cutting, \
             and the jump table of JPS+ ({jumps} bytes) is over the {} bytes allowed; under \
             {rule} jump point search needs no table and skips every cell of a run but \
             those where a turn is forced",
            allowance.bytes
        ),
    )
}

/// Picks the fastest search for `graph` whose preparation fits in
/// `allowance`: on a map with at least one jump point in ten passable
/// cells (mazes, random obstacles), the subgoal graph (`sub`) when its
/// contraction budget ([`SubgoalGraph::spec_budget`]) and its table fit;
/// else goal bounding (`jps+bb`) when its build budget and its whole table
/// fit, else JPS+ (`jps+`) when its jump table fits, else jump point
/// search (`jps`), which needs nothing. Under the other movement rules,
/// without terrain costs, JPS+ over the rule's jump table when it fits
/// (JPS4's rules on 4-connected maps), else jump point search. On a map with terrain costs, which no jump
/// point search takes, A* over a table of 16 landmarks (`astar/dh:16`)
/// when its table fits (it is built here, to time it), else A* with the
/// map's default heuristic. Every choice is optimal.
///
/// It builds the jump table once, to count the jump points: a few
/// milliseconds on a 512x512 map. On a map dense in jump points it also
/// builds the subgoal graph, within its budget, to count its bytes.
///
/// ```
/// use cairns::grid::{Grid, GridGraph, Neighborhood};
/// use cairns::spec::{Allowance, choose};
///
/// // One wall in an open room: few jump points.
/// let mut text = String::new();
/// for y in 0..10 {
///     for x in 0..20 {
///         text.push(if (x, y) == (5, 5) { '@' } else { '.' });
///     }
///     text.push('\n');
/// }
/// let graph = GridGraph::new(Grid::from_ascii(&text).unwrap(), Neighborhood::Octile);
/// let roomy = choose(&graph, Allowance::default());
/// assert_eq!(roomy.spec.to_string(), "jps+bb");
/// let tight = choose(&graph, Allowance { seconds: 0.0, bytes: 1 << 20 });
/// assert_eq!(tight.spec.to_string(), "jps+");
/// ```
pub fn choose(graph: &GridGraph, allowance: Allowance) -> Choice {
    let pick = |algorithm: Algorithm, seconds: f64, bytes: usize, why: String| Choice {
        spec: SearchSpec::new(algorithm),
        seconds,
        bytes: bytes as u64,
        why,
    };
    if graph.neighborhood() != Neighborhood::Octile && !graph.has_terrain() {
        return under_another_rule(graph, allowance);
    }
    let jump_points = graph.neighborhood() == Neighborhood::Octile && !graph.has_terrain();
    if !jump_points {
        return without_jump_points(graph, allowance);
    }
    // Goal bounding's table with no boxes yet: its jump table and jump
    // points, built in milliseconds, give both tiers' bytes.
    let empty = GoalBounds::build_within(graph, Some(std::time::Duration::ZERO));
    let jumps = empty.jumps().memory_bytes();
    if (jumps as u64) > allowance.bytes {
        return pick(
            Algorithm::Jps,
            0.0,
            0,
            format!(
                "the jump table of JPS+ ({jumps} bytes) is over the {} bytes allowed; jump \
                 point search needs no table",
                allowance.bytes
            ),
        );
    }
    // Dense in jump points (mazes, random obstacles): goal bounding boxes
    // few of them within its budget, and the subgoal graph's hierarchy
    // contracts well.
    let passable = graph.grid().passable_count();
    let expanded = empty.expanded_jump_points();
    if expanded * DENSE >= passable {
        let budget = SubgoalGraph::spec_budget(graph);
        if budget.as_secs_f64() <= allowance.seconds {
            // An engine keeps the jump table too, which its edits repair
            // and answer over until the graph is repaired.
            let bytes = SubgoalGraph::build_for_spec(graph).memory_bytes() + jumps;
            if bytes as u64 <= allowance.bytes {
                return pick(
                    Algorithm::Subgoals,
                    budget.as_secs_f64(),
                    bytes,
                    format!(
                        "{expanded} jump points in {passable} passable cells, at least one in \
                         {DENSE}: goal bounding would box few of them within its budget, and \
                         the subgoal graph's hierarchy ({bytes} bytes with the jump table \
                         kept for edits, contracted and its core boxed for up to {:.1} s) \
                         contracts most subgoals on such maps, so a query searches few nodes",
                        budget.as_secs_f64()
                    ),
                );
            }
        }
    }
    let budget = GoalBounds::spec_budget(graph).as_secs_f64();
    let bounds = empty.full_bytes();
    let over: Vec<String> = [
        (budget > allowance.seconds).then(|| format!("{:.1} s", allowance.seconds)),
        (bounds as u64 > allowance.bytes).then(|| format!("{} bytes", allowance.bytes)),
    ]
    .into_iter()
    .flatten()
    .collect();
    if over.is_empty() {
        return pick(
            Algorithm::JpsBounds,
            budget,
            bounds,
            format!(
                "goal bounding fits: its boxes build for up to {budget:.1} s into at most \
                 {bounds} bytes; JPS+ then skips every move whose box leaves the goal \
                 out, and a jump point the budget did not reach prunes nothing"
            ),
        );
    }
    pick(
        Algorithm::JpsPlus,
        0.0,
        jumps,
        format!(
            "goal bounding would take up to {budget:.1} s and {bounds} bytes, over the {} \
             allowed; JPS+'s jump table builds in milliseconds",
            over.join(" and ")
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::testing::open_map;
    use crate::search::testing::walled;

    #[test]
    fn each_tier_is_picked_when_it_fits_and_its_costs_are_the_tables() {
        let graph = walled(40, 30, |x, y| x % 7 == 3 && y % 5 != 0);
        let jumps = crate::search::JumpTable::build(&graph).memory_bytes() as u64;
        let full = GoalBounds::build(&graph);
        assert_eq!(full.boxed(), full.jump_points());
        let bounds = full.memory_bytes() as u64;

        let roomy = choose(&graph, Allowance::default());
        assert_eq!(roomy.spec.to_string(), "jps+bb");
        assert_eq!(roomy.bytes, bounds, "{roomy}");
        assert_eq!(roomy.seconds, 0.5);
        assert!(roomy.why.contains("box leaves the goal out"), "{roomy}");

        let short = choose(
            &graph,
            Allowance {
                seconds: 0.4,
                bytes: u64::MAX,
            },
        );
        assert_eq!(short.spec.to_string(), "jps+");
        assert_eq!((short.seconds, short.bytes), (0.0, jumps));
        assert!(short.why.contains("0.5 s"), "{short}");
        let small = choose(
            &graph,
            Allowance {
                seconds: 60.0,
                bytes: bounds - 1,
            },
        );
        assert_eq!(small.spec, short.spec);

        let tiny = choose(
            &graph,
            Allowance {
                seconds: 60.0,
                bytes: jumps - 1,
            },
        );
        assert_eq!(tiny.spec.to_string(), "jps");
        assert_eq!((tiny.seconds, tiny.bytes), (0.0, 0));
    }

    /// A map of one-wide corridors has a jump point at every turn: the
    /// subgoal graph is picked, with its bytes, unless its budget or its
    /// bytes do not fit.
    #[test]
    fn maps_dense_in_jump_points_get_the_subgoal_graph() {
        let graph = walled(41, 41, |x, y| {
            (x % 2 == 1 && y % 2 == 1) || (x % 4 == 1 && y % 8 != 0) || (y % 4 == 3 && x % 6 == 5)
        });
        let choice = choose(&graph, Allowance::default());
        assert_eq!(choice.spec.to_string(), "sub", "{choice}");
        // The graph and the jump table the engine keeps for edits.
        let bytes = SubgoalGraph::build_for_spec(&graph).memory_bytes()
            + crate::search::JumpTable::build(&graph).memory_bytes();
        assert_eq!((choice.seconds, choice.bytes), (0.5, bytes as u64));
        assert!(choice.why.contains("jump points in"), "{choice}");
        for allowance in [
            Allowance {
                seconds: 0.4,
                bytes: u64::MAX,
            },
            Allowance {
                seconds: 60.0,
                bytes: bytes as u64 - 1,
            },
        ] {
            let other = choose(&graph, allowance);
            assert_ne!(other.spec.to_string(), "sub", "{other}");
        }
    }

    #[test]
    fn other_rules_get_jump_points_and_terrain_astar_over_landmarks_when_they_fit() {
        for nb in [
            Neighborhood::Four,
            Neighborhood::OctileCornerCutting,
            Neighborhood::OctileSqueeze,
        ] {
            let graph = open_map(5, 4, nb);
            let choice = choose(&graph, Allowance::default());
            assert_eq!(choice.spec.to_string(), "jps+", "{nb:?}: {choice}");
            let bytes = crate::search::JumpTable::build(&graph).memory_bytes() as u64;
            assert_eq!((choice.seconds, choice.bytes), (0.0, bytes));
            assert!(choice.why.contains(nb.name()), "{choice}");
            let tight = Allowance {
                seconds: 60.0,
                bytes: bytes - 1,
            };
            let choice = choose(&graph, tight);
            assert_eq!(choice.spec.to_string(), "jps", "{nb:?}: {choice}");
            assert_eq!((choice.seconds, choice.bytes), (0.0, 0));
            assert!(choice.why.contains("over the"), "{choice}");
        }
        let grid = crate::grid::Grid::from_walls(5, 4, [false; 20]).unwrap();
        let costs = (0..20)
            .map(|i| if i % 3 == 0 { 2.0 } else { 1.0 })
            .collect();
        let graph = GridGraph::with_cell_costs(grid, Neighborhood::Four, costs).unwrap();
        let choice = choose(&graph, Allowance::default());
        assert_eq!(choice.spec.to_string(), "astar/dh:16:sampled", "{choice}");
        assert!(choice.why.contains("terrain costs"), "{choice}");
        assert!(choice.bytes > 0, "{choice}");
        let no_room = Allowance {
            seconds: 60.0,
            bytes: choice.bytes - 1,
        };
        let plain = choose(&graph, no_room);
        assert_eq!(plain.spec.to_string(), "astar", "{plain}");
        assert!(plain.why.contains("over the"), "{plain}");
        assert_eq!((plain.seconds, plain.bytes), (0.0, 0));
    }
}
