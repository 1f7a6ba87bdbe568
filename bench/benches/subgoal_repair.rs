//! Subgoal graphs (`sub`) after one-cell wall edits: what the edit costs
//! (`Engine::edited`: the jump table the engine keeps repaired near the
//! cell, the subgoal graph left of the older map, and queries meanwhile
//! run as `jps+` over that jump table), how the queries answer until the
//! graph is repaired, how long repairing and ranking it again takes
//! (`Engine::filled_within` with the spec's budget: the subgoals and
//! edges repaired near the cell, then the hierarchy ranked again), of
//! which the repair alone (`SubgoalGraph::edited`), and the queries
//! after, beside `jps+` on the edited map in the same run; and what
//! `jps+`'s `Engine::edited` costs for the same cell (the map copied,
//! its components updated, the jump table repaired).
//!
//! ```text
//! cargo bench -p cairns-bench --bench subgoal_repair -- [MAP...] [--edits N] [--seed S]
//! ```
//!
//! MAP is a map of the data directory with its `.scen` beside it; the
//! default is a maze, a random map, a street map and den520d. Each of
//! `--edits` (40) edits closes a random passable cell of the engine built
//! whole. Queries: every 5th scenario whose ends stay open, the least of
//! 3 rounds' means (one query after the other on one searcher), `jps+`
//! and `sub` in turn; every answer of `sub` is checked equal to `jps+`'s
//! on the edited map, and every repaired graph's subgoals and edges equal
//! to those of a build of the edited map.

use std::time::Instant;

use cairns::graph::NodeId;
use cairns::grid::{GridGraph, Tile};
use cairns::search::{Budgeted, SubgoalGraph};
use cairns::spec::{Engine, SearchSpec};
use cairns_bench::{
    close_cell, edit_args, edit_medians, edit_set, jps_plus_engine, least_us, least_us_in_turn,
    open_queries, print_table_head, timed_ms,
};

/// The engine's subgoal graph.
fn subgoals(engine: &Engine) -> &SubgoalGraph {
    engine
        .tables()
        .iter()
        .find_map(|t| t.subgoals())
        .expect("sub")
}

/// Whether `a` and `b` have the same subgoals and edges.
fn same_edges(a: &SubgoalGraph, b: &SubgoalGraph) -> bool {
    a.subgoals() == b.subgoals() && a.subgoals().iter().all(|&s| a.edges(s) == b.edges(s))
}

/// One edit's figures: `Engine::edited` ms, then us per query of `jps+`,
/// of the engine behind its map and of the one ranked again, the seconds
/// to repair and rank, the ms of `jps+`'s `Engine::edited` for the same
/// cell, and the ms of the subgoal graph's repair alone.
type Figures = [f64; 7];

/// Closes `cell` of `whole`'s map (`graph`, closed here and opened again),
/// and measures the edit, the queries and the ranking.
fn one_edit(
    whole: &Engine, plus_whole: &Engine, graph: &mut GridGraph, cell: NodeId,
    queries: &[(NodeId, NodeId)],
) -> Figures {
    let (edited, edit_ms, (x, y)) = close_cell(whole, graph, cell);
    assert!(edited.is_behind());
    let (plus_edited, plus_edit_ms) =
        timed_ms(|| plus_whole.edited(&[(x, y, Tile::Tree)]).expect("an edit"));
    let mut plus = plus_edited.searcher();
    let (queries, want) = open_queries(&mut plus, queries, cell);
    // jps+ and the engine behind its map, in turn.
    let (plus_us, behind_us) =
        least_us_in_turn([&mut plus, &mut edited.searcher()], &queries, &want);
    let t0 = Instant::now();
    let ranked = edited
        .filled_within(SubgoalGraph::spec_budget(graph))
        .expect("a ranking")
        .expect("an edited graph to rank");
    let rank_s = t0.elapsed().as_secs_f64();
    assert!(
        same_edges(subgoals(&ranked), &SubgoalGraph::build(graph)),
        "the graph repaired after the edit at ({x}, {y}) differs from a build"
    );
    let ranked_us = least_us(&mut ranked.searcher(), &queries, &want);
    let (repaired, repair_ms) = timed_ms(|| subgoals(whole).edited(graph, &[cell]));
    drop(repaired);
    graph.set_tile(x, y, Tile::Ground);
    [
        edit_ms,
        plus_us,
        behind_us,
        ranked_us,
        rank_s,
        plus_edit_ms,
        repair_ms,
    ]
}

fn main() {
    let (maps, edits, seed) = edit_args(&[
        "maze/maze512-1-0.map",
        "random/random512-10-0.map",
        "street/Berlin_0_512.map",
        "dao/den520d.map",
    ]);
    let sub: SearchSpec = "sub".parse().expect("a spec");
    println!("one-cell edits on subgoal graphs, {edits} per map, seed {seed}");
    println!(
        "every sub answer checked equal to jps+'s on the edited map; each repaired graph's subgoals and edges equal to a build's"
    );
    println!();
    print_table_head(&[
        "map",
        "subgoals",
        "build s",
        "Engine::edited median ms",
        "jps+ Engine::edited ms",
        "jps+ us",
        "behind us",
        "repair ms",
        "repair and rank s",
        "ranked us",
    ]);
    for map in maps {
        let (mut graph, queries, cells) = edit_set(&map, edits, seed);
        let t0 = Instant::now();
        let whole = Engine::new(graph.clone(), &sub).expect("sub on an octile map");
        let build_s = t0.elapsed().as_secs_f64();
        let plus_whole = jps_plus_engine(&graph);
        let count = subgoals(&whole).subgoals().len();
        let m = edit_medians(cells, |cell| {
            one_edit(&whole, &plus_whole, &mut graph, cell, &queries)
        });
        println!(
            "| {map} | {count} | {build_s:.2} | {:.2} | {:.2} | {:.1} | {:.1} | {:.2} | {:.2} | {:.1} |",
            m[0], m[5], m[1], m[2], m[6], m[4], m[3],
        );
    }
}
