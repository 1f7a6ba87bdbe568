//! Goal bounding after one-cell wall edits: what the edit costs
//! (`Engine::edited`: the jump table repaired, the boxes dropped), how the
//! queries answer while the boxes are missing and while they fill in again
//! (`Engine::filled_within`, in slices of an eighth of the spec's budget),
//! and how long the whole table takes to fill, beside `jps+` on the edited
//! map in the same run.
//!
//! ```text
//! cargo bench -p cairns-bench --bench bounds_refill -- [MAP...] [--edits N] [--seed S]
//! ```
//!
//! MAP is a map of the data directory with its `.scen` beside it; the
//! default is den520d and two 512x512 maps. Each of `--edits` (40) edits
//! closes a random passable cell of the engine with every jump point's
//! boxes. Queries: every 5th scenario whose ends stay open, each round's
//! mean (one query after the other on one searcher), `jps+` and
//! `jps+bb` in turn; every answer of `jps+bb` is checked equal to the
//! `jps+` engine's on the edited map, and the filled table equal to one
//! built whole on it.

use std::time::{Duration, Instant};

use cairns::graph::NodeId;
use cairns::grid::{GridGraph, Tile};
use cairns::search::{Budgeted, GoalBounds};
use cairns::spec::{Engine, SearchSpec};
use cairns_bench::{
    close_cell, edit_args, edit_medians, edit_set, jps_plus_engine, least_us, least_us_in_turn,
    open_queries, print_table_head,
};

/// The engine's goal-bounding table: boxed jump points and all of them.
fn boxed(engine: &Engine) -> (usize, usize) {
    let b = engine
        .tables()
        .iter()
        .find_map(|t| t.bounds())
        .expect("jps+bb");
    (b.boxed(), b.jump_points())
}

/// One edit's figures: `Engine::edited` ms, then us per query of `jps+`,
/// of `jps+bb` without boxes, after the first fill slice, and filled;
/// the share boxed after the first slice; the seconds to fill whole.
type Figures = [f64; 7];

/// Closes `cell` of `whole`'s map (`graph`, closed here and opened again),
/// and measures the edit, the queries and the fill in slices of `slice`.
fn one_edit(
    whole: &Engine, graph: &mut GridGraph, cell: NodeId, queries: &[(NodeId, NodeId)],
    slice: Duration,
) -> Figures {
    let (edited, edit_ms, (x, y)) = close_cell(whole, graph, cell);
    let exact = jps_plus_engine(graph);
    let mut plus = exact.searcher();
    let (queries, want) = open_queries(&mut plus, queries, cell);
    // jps+ and jps+bb without boxes, in turn.
    let (plus_us, none_us) = least_us_in_turn([&mut plus, &mut edited.searcher()], &queries, &want);
    // Fill in slices; the queries after the first slice (their rounds not
    // counted as fill time), and once whole.
    let t0 = Instant::now();
    let mut querying = Duration::ZERO;
    let mut now = edited;
    let mut first = None;
    while let Some(next) = now.filled_within(slice).expect("a fill") {
        now = next;
        if first.is_none() {
            let t1 = Instant::now();
            let us = least_us(&mut now.searcher(), &queries, &want);
            let (with_boxes, all) = boxed(&now);
            first = Some((us, with_boxes as f64 / all as f64));
            querying = t1.elapsed();
        }
    }
    let fill_s = t0.elapsed().saturating_sub(querying).as_secs_f64();
    let (slice_us, share) = first.unwrap_or((none_us, 0.0));
    let filled_us = least_us(&mut now.searcher(), &queries, &want);
    assert!(
        now.tables().iter().find_map(|t| t.bounds()) == Some(&GoalBounds::build(graph)),
        "the table filled after the edit at ({x}, {y}) differs from a whole build"
    );
    graph.set_tile(x, y, Tile::Ground);
    [
        edit_ms, plus_us, none_us, slice_us, filled_us, share, fill_s,
    ]
}

fn main() {
    let (maps, edits, seed) = edit_args(&[
        "dao/den520d.map",
        "street/Berlin_0_512.map",
        "room/32room_000.map",
    ]);
    let bb: SearchSpec = "jps+bb".parse().expect("a spec");
    println!(
        "one-cell edits on goal bounding, {edits} per map, seed {seed}; fill slices of 1/8 of the spec's budget"
    );
    println!(
        "every jps+bb answer checked equal to jps+'s on the edited map; each filled table equal to a whole build"
    );
    println!();
    print_table_head(&[
        "map",
        "jump points",
        "Engine::edited median ms",
        "jps+ us",
        "no boxes us",
        "after one slice us (boxed)",
        "filled us",
        "fill to whole median s",
    ]);
    for map in maps {
        let (mut graph, queries, cells) = edit_set(&map, edits, seed);
        let built = Engine::new(graph.clone(), &bb).expect("jps+bb on an octile map");
        let whole = built
            .filled_within(Duration::from_hours(1))
            .expect("a fill")
            .unwrap_or(built);
        let points = boxed(&whole).1;
        let slice = GoalBounds::spec_budget(&graph) / 8;
        let m = edit_medians(cells, |cell| {
            one_edit(&whole, &mut graph, cell, &queries, slice)
        });
        println!(
            "| {map} | {points} | {:.2} | {:.2} | {:.2} | {:.2} ({:.0}%) | {:.2} | {:.2} |",
            m[0],
            m[1],
            m[2],
            m[3],
            100.0 * m[5],
            m[4],
            m[6],
        );
    }
}
