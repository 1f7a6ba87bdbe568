//! The test oracle of the boxes' build: a Dijkstra search from a jump
//! point that goes through every cell (no runs), following canonical
//! moves, so that [`Sweep`](super::Sweep)'s first moves can be checked
//! against it.

use super::{STEP, value};
use crate::graph::NodeId;
use crate::grid::GridGraph;

/// For each cell of `graph`, the first moves of the shortest canonical
/// paths from `source` to it (0 for the source and the cells it does not
/// reach).
pub(super) fn first_moves(graph: &GridGraph, source: NodeId) -> Vec<u8> {
    let cells = graph.width() as usize * graph.height() as usize;
    let offsets = super::offsets(graph.width());
    // Per cell: cost word, first moves per entering move (byte), settled.
    let mut cost = vec![u64::MAX; cells];
    let mut first = vec![0u64; cells];
    let mut settled = vec![false; cells];
    // Buckets one unit of cost wide: a move leads one or two on.
    let mut buckets: Vec<Vec<usize>> = Vec::new();
    let reach = |buckets: &mut Vec<Vec<usize>>,
                 cost: &mut [u64],
                 first: &mut [u64],
                 settled: &[bool],
                 (n, c, d, f): (usize, u64, usize, u8)| {
        let f = u64::from(f) << (8 * d);
        if settled[n] || (cost[n] != u64::MAX && value(cost[n]) < value(c)) {
            return;
        }
        if cost[n] == c {
            first[n] |= f;
            return;
        }
        cost[n] = c;
        first[n] = f;
        let at = value(c) as usize;
        if buckets.len() <= at {
            buckets.resize(at + 1, Vec::new());
        }
        buckets[at].push(n);
    };
    let from = source.index();
    settled[from] = true;
    let moves = graph.moves(source);
    for d in (0..8).filter(|d| moves & (1 << d) != 0) {
        let next = (from as i64 + offsets[d]) as usize;
        reach(
            &mut buckets,
            &mut cost,
            &mut first,
            &settled,
            (next, STEP[d / 4], d, 1 << d),
        );
    }
    let mut at = 0;
    while at < buckets.len() {
        let bucket = std::mem::take(&mut buckets[at]);
        for v in bucket {
            if settled[v] || value(cost[v]) as usize != at {
                continue;
            }
            settled[v] = true;
            let mut out = [0u8; 8];
            for by in 0..8 {
                let mask = (first[v] >> (8 * by)) as u8;
                if mask == 0 {
                    continue;
                }
                let moves = graph.canonical_moves_after(NodeId(v as u32), by);
                for (d, o) in out.iter_mut().enumerate() {
                    if moves & (1 << d) != 0 {
                        *o |= mask;
                    }
                }
            }
            for (d, &mask) in out.iter().enumerate() {
                if mask != 0 {
                    let next = (v as i64 + offsets[d]) as usize;
                    let c = cost[v] + STEP[d / 4];
                    reach(
                        &mut buckets,
                        &mut cost,
                        &mut first,
                        &settled,
                        (next, c, d, mask),
                    );
                }
            }
        }
        at += 1;
    }
    first.iter().map(|&f| super::union(f)).collect()
}
