//! Strategies for choosing landmark nodes.

use rayon::prelude::*;

use super::distances_from;
use crate::graph::{Graph, NodeId, Reversed, Reversible};
use crate::grid::{Components, GridGraph};
use crate::rng::SplitMix64;
use crate::search::SearchCache;

/// How [`place`] chooses landmarks. Every strategy is deterministic for a
/// given seed and graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Placement {
    /// Distinct candidate nodes drawn uniformly at random. `O(V)`.
    Random {
        /// Seed of the random number generator.
        seed: u64,
    },
    /// Farthest-first: from a random node `r`, the first landmark is the
    /// node farthest from `r`; each next one is the node whose distance
    /// from the nearest chosen landmark is largest. A node that no chosen
    /// landmark reaches (another component) counts as farthest: the next
    /// landmark is then the node farthest from a random such node. Landmarks
    /// end up on the periphery, spread out. `O(k)` searches.
    Farthest {
        /// Seed of the random number generator.
        seed: u64,
    },
    /// "Avoid" (Goldberg and Werneck, 2005): for each landmark, grow a
    /// shortest-path tree from a random root `r`, weight each node `v` by
    /// how badly the landmarks so far bound it,
    /// `d(r, v) - h(r, v)`, sum the weights of each subtree (zero for a
    /// subtree that holds a landmark), and walk from `r` down into the
    /// heaviest child until a leaf: that leaf is the new landmark. It aims
    /// at the regions the current landmarks serve worst, and usually gives
    /// the smallest searches. `O(k)` searches and `O(k V)` memory while
    /// placing.
    Avoid {
        /// Seed of the random number generator.
        seed: u64,
    },
    /// Farthest-first over a larger pool, then a greedy choice by measured
    /// gain: place `4k` landmarks farthest-first (the same ones
    /// `Farthest` with this seed places), draw [`SAMPLE_PAIRS`] random
    /// pairs of candidates, and choose `k` of the pool one at a time, each
    /// time the one that raises the landmark bound summed over the pairs
    /// (both orders, `d(L, t) - d(L, s)`, at least the bound so far) the
    /// most. The landmarks are those that bound typical queries best
    /// together, not merely those far apart. `O(4k)` searches, one at a
    /// time, plus `O(k * 4k * pairs)` arithmetic: about four times the
    /// placing time of `Farthest`.
    Sampled {
        /// Seed of the random number generator.
        seed: u64,
    },
}

/// The number of random node pairs [`Placement::Sampled`] scores the pool
/// on.
pub const SAMPLE_PAIRS: usize = 4096;

/// Chooses `k` distinct landmark nodes of `graph` with a [`Placement`]
/// strategy.
///
/// Only *candidates* are chosen: nodes with at least one incoming or
/// outgoing edge, such as grid cells with at least one legal move (walls
/// and walled-in cells are never chosen; neither are isolated nodes of a
/// [`CsrGraph`](crate::graph::CsrGraph), which could bound nothing but
/// queries to themselves). When there are fewer than `k` candidates, all of
/// them are returned; on a graph without edges, none.
///
/// # Components
///
/// Landmarks are shared among the graph's (weakly) connected
/// [`Components`] in proportion to their numbers of candidates, by largest
/// remainder, and each strategy then places its share inside one
/// component. A component too small for half a landmark's share
/// (`size * 2k < candidates`) gets none, unless the larger ones cannot
/// take all `k`: a landmark there would bound only the queries inside it.
/// Street maps have many sealed courtyards; without the shares,
/// farthest-first placement spent most landmarks on them (see
/// `docs/differential-heuristics.md`). The largest component is placed with
/// the strategy's seed; the others with seeds derived from it.
///
/// The searches are breadth-first when every edge costs 1 and Dijkstra's
/// otherwise, one or two per landmark (see [`Placement`]).
///
/// # Example
///
/// ```
/// use cairns::grid::{Grid, GridGraph, Neighborhood};
/// use cairns::landmarks::{Placement, place};
///
/// let grid = Grid::from_ascii("
///     ........
///     .@@@@@@.
///     ........
/// ").unwrap();
/// let graph = GridGraph::new(grid, Neighborhood::Four);
/// let landmarks = place(&graph, 2, Placement::Farthest { seed: 1 });
/// assert_eq!(landmarks.len(), 2);
/// // Opposite corners of the ring: 9 steps apart either way round.
/// let (a, b) = (graph.coords(landmarks[0]), graph.coords(landmarks[1]));
/// assert_eq!(a.0.abs_diff(b.0) + a.1.abs_diff(b.1), 9);
/// ```
pub fn place<G: Reversible + Sync>(graph: &G, k: usize, placement: Placement) -> Vec<NodeId> {
    let components = Components::of_graph(graph);
    let mut group_of = vec![u32::MAX; components.label_bound()];
    let mut groups: Vec<Vec<NodeId>> = Vec::new();
    for v in (0..graph.node_bound() as u32).map(NodeId) {
        let candidate =
            graph.successors(v).next().is_some() || graph.predecessors(v).next().is_some();
        if let (true, Some(l)) = (candidate, components.label(v)) {
            let g = &mut group_of[l as usize];
            if *g == u32::MAX {
                *g = groups.len() as u32;
                groups.push(Vec::new());
            }
            groups[*g as usize].push(v);
        }
    }
    // Largest first (ties to the lowest node), so that the largest
    // component is placed with the strategy's own seed.
    groups.sort_by_key(|g| (std::cmp::Reverse(g.len()), g[0]));
    let sizes: Vec<usize> = groups.iter().map(Vec::len).collect();
    let quotas = share(&sizes, k);
    let mut chosen = Vec::with_capacity(quotas.iter().sum());
    for (i, (candidates, &q)) in groups.into_iter().zip(&quotas).enumerate() {
        if q == 0 {
            continue;
        }
        // Each further component gets its own stream of random numbers.
        let seed = placement.seed() ^ (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let rng = &mut SplitMix64::new(seed);
        chosen.extend(match placement {
            Placement::Random { .. } => random(candidates, q, rng),
            Placement::Farthest { .. } => farthest(graph, &candidates, q, rng),
            Placement::Avoid { .. } => avoid(graph, &candidates, q, rng),
            Placement::Sampled { .. } => sampled(graph, &candidates, q, seed),
        });
    }
    chosen
}

impl Placement {
    /// The seed of the strategy.
    fn seed(self) -> u64 {
        match self {
            Placement::Random { seed }
            | Placement::Farthest { seed }
            | Placement::Avoid { seed }
            | Placement::Sampled { seed } => seed,
        }
    }
}

/// How many of `k` landmarks each component gets, by its number of
/// candidates in `sizes` (largest first): in proportion to its size, by
/// largest remainder, among the components that would get at least half a
/// landmark (`size * 2k >= total`; the largest always counts), and never
/// more than its size. Landmarks left over when the counted components are
/// too small to take them go to the others, largest first, so that
/// `min(k, total)` are placed in all.
fn share(sizes: &[usize], k: usize) -> Vec<usize> {
    let total: usize = sizes.iter().sum();
    let k = k.min(total);
    let mut quotas = vec![0usize; sizes.len()];
    if k == 0 {
        return quotas;
    }
    let counted = sizes
        .iter()
        .enumerate()
        .take_while(|&(i, &s)| i == 0 || s as u128 * 2 * k as u128 >= total as u128)
        .count();
    let weight: u128 = sizes[..counted].iter().map(|&s| s as u128).sum();
    let mut remainders = Vec::with_capacity(counted);
    for i in 0..counted {
        let exact = k as u128 * sizes[i] as u128;
        quotas[i] = ((exact / weight) as usize).min(sizes[i]);
        remainders.push((exact % weight, i));
    }
    // Largest remainder first; ties to the larger component.
    remainders.sort_by_key(|&(r, i)| (std::cmp::Reverse(r), i));
    let mut left = k - quotas.iter().sum::<usize>();
    for &(_, i) in &remainders {
        if left > 0 && quotas[i] < sizes[i] {
            quotas[i] += 1;
            left -= 1;
        }
    }
    // What the caps left over: largest first.
    for i in 0..sizes.len() {
        let more = (sizes[i] - quotas[i]).min(left);
        quotas[i] += more;
        left -= more;
    }
    quotas
}

/// Landmarks where recent queries went, on a grid: the cells nearest the
/// centroids of `k` clusters of `goals` (the "Centroid" placement).
///
/// The clusters come from a few rounds of k-means (Lloyd's algorithm) on
/// the goals' coordinates, seeded by farthest-first: the first centre is a
/// random goal, each next one the goal farthest (in straight-line
/// distance) from the centres so far; then 8 rounds of "assign each goal to
/// its nearest centre, move each centre to its cluster's mean". Each final
/// centre is snapped to the nearest candidate cell (a cell with a legal
/// move) not already chosen, in straight-line distance, ties to the lower
/// row then column. Straight-line rather than path distance keeps it to
/// `O(8 k G)` for `G` goals plus a local scan per landmark, with no search;
/// a centre inside a wall block may snap to a cell on the wrong side of
/// the wall, which costs tightness, never admissibility.
///
/// Goals that are not candidates are ignored. When there are at most `k`
/// distinct candidate goals they are returned themselves, in first-seen
/// order, so the result may hold fewer than `k` landmarks.
///
/// Why it can help: a landmark at distance `r` from the goal `z` bounds
/// every node within `2 r` of the truth, `h(a, z) >= d(a, z) - 2 r` on a
/// symmetric graph. When goals concentrate in a few places, landmarks among
/// them beat landmarks on the periphery. When goals are spread evenly,
/// centroids sit in the interior, where the farthest-first periphery does
/// better; see `docs/differential-heuristics.md` for measurements.
///
/// # Example
///
/// ```
/// use cairns::grid::{Grid, GridGraph, Neighborhood};
/// use cairns::landmarks::research::place_centroid;
///
/// let grid = Grid::from_ascii("
///     ..........
///     ..........
///     ..........
/// ").unwrap();
/// let graph = GridGraph::new(grid, Neighborhood::Octile);
/// // Goals in two clumps, around (1, 1) and (8, 1).
/// let goals: Vec<_> = [(0, 1), (1, 0), (2, 1), (1, 2), (8, 0), (8, 2), (7, 1), (9, 1)]
///     .iter()
///     .map(|&(x, y)| graph.node(x, y).unwrap())
///     .collect();
/// let mut lms: Vec<_> = place_centroid(&graph, 2, &goals, 3).iter().map(|&l| graph.coords(l)).collect();
/// lms.sort();
/// assert_eq!(lms, [(1, 1), (8, 1)]);
/// ```
pub fn place_centroid(graph: &GridGraph, k: usize, goals: &[NodeId], seed: u64) -> Vec<NodeId> {
    let is_candidate = |v: NodeId| graph.is_passable(v) && graph.moves(v) != 0;
    let mut seen = vec![false; graph.node_bound()];
    let mut distinct = Vec::new();
    for &g in goals {
        if g.index() < seen.len() && is_candidate(g) && !seen[g.index()] {
            seen[g.index()] = true;
            distinct.push(g);
        }
    }
    if distinct.len() <= k {
        return distinct;
    }
    let points: Vec<(f64, f64)> = goals
        .iter()
        .filter(|&&g| g.index() < seen.len() && is_candidate(g))
        .map(|&g| {
            let (x, y) = graph.coords(g);
            (f64::from(x), f64::from(y))
        })
        .collect();
    let dist2 = |a: (f64, f64), b: (f64, f64)| (a.0 - b.0).powi(2) + (a.1 - b.1).powi(2);
    let nearest = |centres: &[(f64, f64)], p: (f64, f64)| {
        (0..centres.len())
            .min_by(|&i, &j| dist2(centres[i], p).total_cmp(&dist2(centres[j], p)))
            .unwrap_or(0)
    };
    // Farthest-first seeding.
    let mut rng = SplitMix64::new(seed);
    let mut centres = vec![points[rng.index(points.len())]];
    let mut gap: Vec<f64> = points.iter().map(|&p| dist2(p, centres[0])).collect();
    while centres.len() < k {
        let far = (0..points.len())
            .max_by(|&i, &j| gap[i].total_cmp(&gap[j]).then(j.cmp(&i)))
            .unwrap_or(0);
        let c = points[far];
        centres.push(c);
        for (g, &p) in gap.iter_mut().zip(&points) {
            *g = g.min(dist2(p, c));
        }
    }
    // Lloyd rounds.
    for _ in 0..8 {
        let mut sums = vec![(0.0, 0.0, 0usize); k];
        for &p in &points {
            let s = &mut sums[nearest(&centres, p)];
            s.0 += p.0;
            s.1 += p.1;
            s.2 += 1;
        }
        for (c, &(sx, sy, n)) in centres.iter_mut().zip(&sums) {
            if n > 0 {
                *c = (sx / n as f64, sy / n as f64);
            }
        }
    }
    // Snap each centre to the nearest free candidate cell, scanning square
    // rings around it until no closer cell can remain.
    let (width, height) = (i64::from(graph.width()), i64::from(graph.height()));
    let mut chosen = Vec::with_capacity(k);
    let mut taken = vec![false; graph.node_bound()];
    for &(cx, cy) in &centres {
        let (x0, y0) = (cx.round() as i64, cy.round() as i64);
        let mut best: Option<(f64, NodeId)> = None;
        for r in 0..=width.max(height) {
            if best.is_some_and(|(d, _)| d.sqrt() < r as f64 - 1.0) {
                break;
            }
            for y in (y0 - r)..=(y0 + r) {
                for x in (x0 - r)..=(x0 + r) {
                    let on_ring = (y - y0).abs() == r || (x - x0).abs() == r;
                    if !on_ring || x < 0 || y < 0 || x >= width || y >= height {
                        continue;
                    }
                    let Some(v) = graph.node(x as u32, y as u32) else {
                        continue;
                    };
                    if !is_candidate(v) || taken[v.index()] {
                        continue;
                    }
                    let d = dist2((x as f64, y as f64), (cx, cy));
                    if best.is_none_or(|(b, bv)| d < b || (d == b && v < bv)) {
                        best = Some((d, v));
                    }
                }
            }
        }
        if let Some((_, v)) = best {
            taken[v.index()] = true;
            chosen.push(v);
        }
    }
    chosen
}

/// Landmarks among recent goals on any graph (no coordinates needed):
/// farthest-first restricted to `goals`, the general-graph form of the
/// "Centroid" placement. The first landmark is a random candidate goal,
/// each next one the goal farthest, by shortest-path distance, from the
/// landmarks so far (a goal none of them reaches counts as farthest, as in
/// [`Placement::Farthest`]). The chosen goals are the centres of a
/// 2-approximate `k`-centre clustering of the goals (Gonzalez, 1985), so
/// every goal lies within twice the best possible radius of a landmark.
/// `k` searches. Goals without edges are ignored; with at most `k`
/// distinct candidate goals, they are all returned, in first-seen order.
pub fn place_among_goals<G: Reversible>(
    graph: &G, k: usize, goals: &[NodeId], seed: u64,
) -> Vec<NodeId> {
    let n = graph.node_bound();
    let mut seen = vec![false; n];
    let mut distinct = Vec::new();
    for &g in goals {
        let edge = |g: NodeId| {
            graph.successors(g).next().is_some() || graph.predecessors(g).next().is_some()
        };
        if g.index() < n && !seen[g.index()] && edge(g) {
            seen[g.index()] = true;
            distinct.push(g);
        }
    }
    if distinct.len() <= k {
        return distinct;
    }
    let mut rng = SplitMix64::new(seed);
    let mut cache = SearchCache::new();
    let mut dist = vec![0f64; n];
    let mut nearest = vec![f64::INFINITY; distinct.len()];
    let first = rng.index(distinct.len());
    let mut is_chosen = vec![false; distinct.len()];
    is_chosen[first] = true;
    let mut chosen = vec![distinct[first]];
    loop {
        distances_from(graph, chosen[chosen.len() - 1], &mut cache, &mut dist);
        for (m, g) in nearest.iter_mut().zip(&distinct) {
            *m = m.min(dist[g.index()]);
        }
        if chosen.len() == k {
            break;
        }
        // Farthest from the landmarks so far, ties to the first seen.
        let Some(next) = (0..distinct.len())
            .filter(|&i| !is_chosen[i])
            .max_by(|&i, &j| nearest[i].total_cmp(&nearest[j]).then(j.cmp(&i)))
        else {
            break;
        };
        is_chosen[next] = true;
        chosen.push(distinct[next]);
    }
    chosen
}

/// A partial Fisher-Yates shuffle: the first `k` of a random permutation.
fn random(mut candidates: Vec<NodeId>, k: usize, rng: &mut SplitMix64) -> Vec<NodeId> {
    for i in 0..k {
        let j = i + rng.index(candidates.len() - i);
        candidates.swap(i, j);
    }
    candidates.truncate(k);
    candidates
}

/// The candidate with the largest `key` among those `eligible`, ties to the
/// lowest id; `None` when none is eligible.
fn argmax(
    candidates: &[NodeId], eligible: impl Fn(NodeId) -> bool, key: impl Fn(NodeId) -> f64,
) -> Option<NodeId> {
    let mut best: Option<(NodeId, f64)> = None;
    for &v in candidates {
        if eligible(v) && best.is_none_or(|(_, b)| key(v) > b) {
            best = Some((v, key(v)));
        }
    }
    best.map(|b| b.0)
}

fn farthest<G: Graph>(
    graph: &G, candidates: &[NodeId], k: usize, rng: &mut SplitMix64,
) -> Vec<NodeId> {
    let mut spread = Spread::new(graph);
    let mut nearest = vec![f64::INFINITY; graph.node_bound()];
    let mut chosen = Vec::with_capacity(k);
    let mut is_chosen = vec![false; graph.node_bound()];
    while chosen.len() < k {
        let uncovered: Vec<NodeId> = candidates
            .iter()
            .copied()
            .filter(|v| nearest[v.index()] == f64::INFINITY)
            .collect();
        let next = if uncovered.is_empty() {
            argmax(
                candidates,
                |v| !is_chosen[v.index()],
                |v| nearest[v.index()],
            )
        } else {
            let root = rng.pick(&uncovered);
            let dist = spread.all(graph, root);
            argmax(
                &uncovered,
                |v| dist[v.index()].is_finite(),
                |v| dist[v.index()],
            )
        };
        // `k` is at most the number of candidates, so one is left.
        let Some(next) = next else { break };
        chosen.push(next);
        is_chosen[next.index()] = true;
        spread.lower(graph, next, &mut nearest);
    }
    chosen
}

/// The one-to-all searches of placement: Dial's algorithm where every edge
/// costs at least some `w > 0` (every grid: `w = 1`), Dijkstra's otherwise.
///
/// Dial's algorithm keeps OPEN as a ring of buckets of width `w`: a node
/// of the current bucket `[b w, (b + 1) w)` only reaches later buckets (an
/// edge adds at least `w`), so the nodes of a bucket are final in any
/// order, and a push and a pop are `O(1)`. The ring needs
/// `max cost / w + 2` buckets.
struct Spread {
    /// `(w, buckets)` when every edge costs between `w > 0` and a bounded
    /// multiple of it.
    dial: Option<(f64, super::Ring)>,
    cache: SearchCache,
    dist: Vec<f64>,
    scratch: Vec<f64>,
}

impl Spread {
    fn new<G: Graph>(graph: &G) -> Spread {
        let (lo, hi) = graph.cost_bounds().unwrap_or_else(|| {
            let (mut lo, mut hi) = (f64::INFINITY, 0f64);
            for v in (0..graph.node_bound() as u32).map(NodeId) {
                for (_, c) in graph.successors(v) {
                    lo = lo.min(c);
                    hi = hi.max(c);
                }
            }
            (lo, hi)
        });
        let dial = super::dial_shape(lo, hi).map(|(w, slots)| (w, vec![Vec::new(); slots]));
        let n = graph.node_bound();
        Spread {
            dial,
            cache: SearchCache::new(),
            dist: vec![f64::INFINITY; n],
            scratch: vec![0.0; n],
        }
    }

    /// The distances from `source` to every node (`f64::INFINITY` where
    /// unreachable).
    fn all<G: Graph>(&mut self, graph: &G, source: NodeId) -> &[f64] {
        let mut dist = std::mem::take(&mut self.dist);
        dist.fill(f64::INFINITY);
        self.lower(graph, source, &mut dist);
        self.dist = dist;
        &self.dist
    }

    /// Lowers `bound[v]` to `d(source, v)` wherever that is smaller. With
    /// Dial's algorithm it visits only those nodes: `bound`, a minimum of
    /// distances from other sources, obeys the triangle inequality, so a
    /// node whose bound holds is never on a shortest path from `source` to
    /// a node whose bound falls. Farthest-first placement thus searches
    /// only the region each new landmark takes over.
    fn lower<G: Graph>(&mut self, graph: &G, source: NodeId, bound: &mut [f64]) {
        let Some((w, ring)) = &mut self.dial else {
            distances_from(graph, source, &mut self.cache, &mut self.scratch);
            for (b, &d) in bound.iter_mut().zip(&self.scratch) {
                *b = b.min(d);
            }
            return;
        };
        super::dial(graph, source, *w, ring, bound);
    }
}

/// The [`Placement::Sampled`] strategy. The pool is placed farthest-first
/// (one search at a time, each only over the region its landmark takes
/// over), then the pool's distances to the sampled nodes are computed in
/// parallel, and the greedy choice scores the candidates in parallel.
fn sampled<G: Graph + Sync>(graph: &G, candidates: &[NodeId], k: usize, seed: u64) -> Vec<NodeId> {
    if k == 0 || candidates.is_empty() {
        return Vec::new();
    }
    // The pairs come from their own generator, so that the pool is exactly
    // what `Farthest` places with this seed.
    let mut pair_rng = SplitMix64::new(seed ^ 0x5A4D_504C_4544_5041);
    let mut sample_of = vec![u32::MAX; graph.node_bound()];
    let mut sample_nodes: Vec<NodeId> = Vec::new();
    let mut index = |v: NodeId| {
        if sample_of[v.index()] == u32::MAX {
            sample_of[v.index()] = sample_nodes.len() as u32;
            sample_nodes.push(v);
        }
        sample_of[v.index()] as usize
    };
    let pairs: Vec<(usize, usize)> = (0..SAMPLE_PAIRS)
        .map(|_| {
            let s = index(pair_rng.pick(candidates));
            (s, index(pair_rng.pick(candidates)))
        })
        .collect();
    let pool_size = k.saturating_mul(4).min(candidates.len());
    let pool = farthest(graph, candidates, pool_size, &mut SplitMix64::new(seed));
    // Each pool landmark's distances to the sampled nodes only.
    // One `Spread` (two arrays of the map's size) per core, not per task.
    let per_core = pool.len().div_ceil(rayon::current_num_threads()).max(1);
    let columns: Vec<Vec<f32>> = pool
        .par_chunks(per_core)
        .flat_map_iter(|chunk| {
            let mut spread = Spread::new(graph);
            chunk
                .iter()
                .map(|&l| {
                    let dist = spread.all(graph, l);
                    sample_nodes
                        .iter()
                        .map(|v| dist[v.index()] as f32)
                        .collect::<Vec<f32>>()
                })
                .collect::<Vec<_>>()
        })
        .collect();
    // The bound of pool landmark `c` on `d(s, t)` for each pair, both
    // orders; pairs a landmark cannot judge (an infinite distance) gain 0.
    let bound = |c: usize, i: usize| -> f32 {
        let (s, t) = pairs[i / 2];
        let (s, t) = if i.is_multiple_of(2) { (s, t) } else { (t, s) };
        let d = columns[c][t] - columns[c][s];
        if d.is_finite() { d } else { 0.0 }
    };
    let mut best_so_far = vec![0f32; 2 * pairs.len()];
    let mut taken = vec![false; pool.len()];
    let mut chosen = Vec::with_capacity(k);
    while chosen.len() < k.min(pool.len()) {
        let gains: Vec<(usize, f64)> = (0..pool.len())
            .into_par_iter()
            .filter(|&c| !taken[c])
            .map(|c| {
                let gain: f64 = best_so_far
                    .iter()
                    .enumerate()
                    .map(|(i, &b)| f64::from((bound(c, i) - b).max(0.0)))
                    .sum();
                (c, gain)
            })
            .collect();
        // Ties go to the earlier (farther-placed) pool member.
        let mut best: Option<(usize, f64)> = None;
        for (c, gain) in gains {
            if best.is_none_or(|(_, g)| gain > g) {
                best = Some((c, gain));
            }
        }
        let Some((c, _)) = best else { break };
        taken[c] = true;
        chosen.push(pool[c]);
        for (i, b) in best_so_far.iter_mut().enumerate() {
            *b = b.max(bound(c, i));
        }
    }
    chosen
}

fn avoid<G: Reversible>(
    graph: &G, candidates: &[NodeId], k: usize, rng: &mut SplitMix64,
) -> Vec<NodeId> {
    let n = graph.node_bound();
    let mut cache = SearchCache::new();
    let mut chosen: Vec<NodeId> = Vec::with_capacity(k);
    let mut is_chosen = vec![false; n];
    // d(L, v) and d(v, L) for each chosen landmark, rounded to f32: they
    // only steer the choice, so precision does not matter here.
    let mut from_l: Vec<Vec<f32>> = Vec::with_capacity(k);
    let mut to_l: Vec<Vec<f32>> = Vec::with_capacity(k);
    let mut dist = vec![0f64; n];
    let mut parent = vec![NodeId::NONE; n];
    let mut size = vec![0f64; n];
    let mut holds_landmark = vec![false; n];
    let mut child_start = vec![0u32; n + 1];
    let mut children = vec![NodeId::NONE; n];
    let mut order: Vec<NodeId> = Vec::with_capacity(n);
    while chosen.len() < k {
        let free: Vec<NodeId> = candidates
            .iter()
            .copied()
            .filter(|v| !is_chosen[v.index()])
            .collect();
        let root = rng.pick(&free);
        let ri = root.index();
        distances_from(graph, root, &mut cache, &mut dist);

        // The shortest-path tree as child lists (counting sort by parent).
        child_start.fill(0);
        for (v, p) in parent.iter_mut().enumerate() {
            *p = if v == ri || !dist[v].is_finite() {
                NodeId::NONE
            } else {
                cache.parent(NodeId(v as u32)).unwrap_or(NodeId::NONE)
            };
            if *p != NodeId::NONE {
                child_start[p.index() + 1] += 1;
            }
        }
        for v in 0..n {
            child_start[v + 1] += child_start[v];
        }
        let mut fill = child_start.clone();
        for (v, &p) in parent.iter().enumerate() {
            if p != NodeId::NONE {
                children[fill[p.index()] as usize] = NodeId(v as u32);
                fill[p.index()] += 1;
            }
        }
        let kids = |v: NodeId| {
            &children[child_start[v.index()] as usize..child_start[v.index() + 1] as usize]
        };

        // Pre-order from the root: parents before their children.
        order.clear();
        order.push(root);
        let mut head = 0;
        while let Some(&v) = order.get(head) {
            head += 1;
            order.extend_from_slice(kids(v));
        }
        // Weights, then subtree sums from the leaves up.
        for &v in &order {
            let vi = v.index();
            let mut lower = 0f64;
            for (f, t) in from_l.iter().zip(&to_l) {
                let a = f64::from(f[vi]) - f64::from(f[ri]);
                let b = f64::from(t[ri]) - f64::from(t[vi]);
                // `max` drops the NaN of "both infinite".
                lower = lower.max(a).max(b);
            }
            size[vi] = if lower.is_finite() {
                (dist[vi] - lower).max(0.0)
            } else {
                0.0
            };
            holds_landmark[vi] = is_chosen[vi];
        }
        for &v in order.iter().rev() {
            let vi = v.index();
            if holds_landmark[vi] {
                size[vi] = 0.0;
            }
            let p = parent[vi];
            if p != NodeId::NONE {
                size[p.index()] += size[vi];
                holds_landmark[p.index()] |= holds_landmark[vi];
            }
        }
        // Down the heaviest subtrees. A subtree of positive size holds no
        // landmark, so the node reached is new.
        let mut at = root;
        while let Some(c) = argmax(kids(at), |c| size[c.index()] > 0.0, |c| size[c.index()]) {
            at = c;
        }
        chosen.push(at);
        is_chosen[at.index()] = true;
        distances_from(graph, at, &mut cache, &mut dist);
        from_l.push(dist.iter().map(|&d| d as f32).collect());
        distances_from(&Reversed(graph), at, &mut cache, &mut dist);
        to_l.push(dist.iter().map(|&d| d as f32).collect());
    }
    chosen
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::CsrGraph;
    use crate::grid::{Grid, GridGraph, Neighborhood};

    const ALL: [fn(u64) -> Placement; 4] = [
        |seed| Placement::Random { seed },
        |seed| Placement::Farthest { seed },
        |seed| Placement::Avoid { seed },
        |seed| Placement::Sampled { seed },
    ];

    fn maze() -> GridGraph {
        let grid = Grid::from_ascii(
            "
            ....@.....@...
            .@@.@.@@@.@.@.
            .@..@...@...@.
            .@.@@@@.@@@@@.
            ...@.........@
            @@@@.@@@.....@
            ..@@..........
            ",
        )
        .unwrap();
        GridGraph::new(grid, Neighborhood::Octile)
    }

    #[test]
    fn landmarks_are_distinct_candidates_and_seeded() {
        let g = maze();
        for strategy in ALL {
            for seed in 0..10 {
                let lms = place(&g, 6, strategy(seed));
                assert_eq!(lms.len(), 6, "{:?}", strategy(seed));
                let mut sorted = lms.clone();
                sorted.sort();
                sorted.dedup();
                assert_eq!(sorted.len(), 6, "duplicates in {lms:?}");
                for &l in &lms {
                    assert!(g.is_passable(l) && g.moves(l) != 0, "{l}");
                }
                assert_eq!(place(&g, 6, strategy(seed)), lms);
            }
        }
    }

    #[test]
    fn walled_in_cells_are_never_chosen_and_k_is_capped() {
        // Two usable cells; the lone cell at the right has no move.
        let grid = Grid::from_ascii(
            "
            ..@.
            ",
        )
        .unwrap();
        let g = GridGraph::new(grid, Neighborhood::Four);
        for strategy in ALL {
            let mut lms = place(&g, 5, strategy(3));
            lms.sort();
            assert_eq!(lms, [NodeId(0), NodeId(1)], "{:?}", strategy(3));
        }
        let empty = CsrGraph::from_edges(3, &[]).unwrap();
        assert!(place(&empty, 2, Placement::Avoid { seed: 0 }).is_empty());
    }

    #[test]
    fn farthest_covers_every_component() {
        // Three separate rooms: three landmarks, one in each.
        let grid = Grid::from_ascii(
            "
            ..@...@..
            ..@...@..
            ",
        )
        .unwrap();
        let g = GridGraph::new(grid, Neighborhood::Octile);
        for seed in 0..5 {
            let mut xs: Vec<u32> = place(&g, 3, Placement::Farthest { seed })
                .iter()
                .map(|&l| g.coords(l).0 / 3)
                .collect();
            xs.sort_unstable();
            assert_eq!(xs, [0, 1, 2], "seed {seed}");
        }
    }

    #[test]
    fn shares_follow_component_sizes() {
        assert_eq!(share(&[100, 50, 50], 4), [2, 1, 1]);
        // Pockets below half a landmark's share get none.
        assert_eq!(share(&[1000, 30, 20, 10], 8), [8, 0, 0, 0]);
        assert_eq!(share(&[1000, 90, 20], 8), [7, 1, 0]);
        // Caps: a component never gets more landmarks than candidates, and
        // what is left goes to the others.
        assert_eq!(share(&[3, 2, 1], 5), [2, 2, 1]);
        assert_eq!(share(&[3, 2, 1], 9), [3, 2, 1]);
        let mut crumbs = vec![3];
        crumbs.extend([1; 20]);
        let mut expected = vec![3];
        expected.extend([1; 7]);
        expected.extend([0; 13]);
        assert_eq!(share(&crumbs, 10), expected);
        assert_eq!(share(&[6, 4, 4], 3), [1, 1, 1]);
        assert_eq!(share(&[5], 0), [0]);
        assert!(share(&[], 3).is_empty());
    }

    #[test]
    fn sealed_pockets_get_no_landmarks() {
        // A street (the ring) and three small courtyards inside it.
        let grid = Grid::from_ascii(
            "
            ....................
            .@@@@@@@@@@@@@@@@@@.
            .@..@@..@@@@@@@@@@@.
            .@..@@..@@@@@@@...@.
            .@@@@@@@@@@@@@@@@@@.
            ....................
            ",
        )
        .unwrap();
        let g = GridGraph::new(grid, Neighborhood::Octile);
        let street = g.components().label(NodeId(0)).unwrap();
        for strategy in ALL {
            for seed in 0..4 {
                let lms = place(&g, 4, strategy(seed));
                assert_eq!(lms.len(), 4);
                for l in lms {
                    assert_eq!(
                        g.components().label(l),
                        Some(street),
                        "{:?}",
                        strategy(seed)
                    );
                }
            }
        }
    }

    #[test]
    fn sampled_chooses_from_the_farthest_pool() {
        // One component, so that both placements take all `k` there.
        let grid = Grid::from_ascii(
            "
            ....@.....@...
            .@@.@.@@@.@.@.
            .@..@...@...@.
            .@.@@@@.@@.@@.
            ...@..........
            .@@@.@@@.....@
            ..............
            ",
        )
        .unwrap();
        let g = GridGraph::new(grid, Neighborhood::Octile);
        assert_eq!(g.components().count(), 1);
        for seed in 0..5 {
            let pool = place(&g, 12, Placement::Farthest { seed });
            let lms = place(&g, 3, Placement::Sampled { seed });
            assert_eq!(lms.len(), 3);
            for l in &lms {
                assert!(pool.contains(l), "seed {seed}: {l} not in {pool:?}");
            }
        }
    }

    /// On a corridor of `moves` unit edges, the one landmark `placement`
    /// places (for seeds 0 to 7) is at one of its ends.
    fn assert_first_at_an_end(moves: u32, placement: impl Fn(u64) -> Placement) {
        let g = crate::graph::testing::corridor(moves);
        for seed in 0..8 {
            let first = place(&g, 1, placement(seed))[0];
            assert!([NodeId(0), NodeId(moves)].contains(&first), "{first}");
        }
    }

    #[test]
    fn sampled_prefers_the_landmark_that_bounds_more_pairs() {
        // A corridor: a landmark at either end bounds every pair exactly,
        // one inside it only the pairs on one side of it. With one
        // landmark to choose, the gain picks an end.
        assert_first_at_an_end(30, |seed| Placement::Sampled { seed });
        // A star of three arms from node 0: the pool of 8 holds the three
        // tips and five inner nodes; two tips bound pairs on their arms
        // and between them exactly, which no inner node does as well.
        let mut star = Vec::new();
        for arm in 0..3u32 {
            let mut prev = 0;
            for i in 1..=10 {
                let v = arm * 10 + i;
                star.push((prev, v, 1.0));
                prev = v;
            }
        }
        let g = CsrGraph::from_undirected_edges(31, &star).unwrap();
        let tips = [NodeId(10), NodeId(20), NodeId(30)];
        for seed in 0..8 {
            let lms = place(&g, 2, Placement::Sampled { seed });
            assert!(lms.iter().all(|l| tips.contains(l)), "seed {seed}: {lms:?}");
        }
    }

    #[test]
    fn avoid_starts_at_the_end_of_a_corridor() {
        // With no landmarks every node weighs its distance from the root,
        // so the heaviest branch of any root's tree leads to an end.
        assert_first_at_an_end(20, |seed| Placement::Avoid { seed });
    }

    #[test]
    fn centroid_places_near_goal_clumps_and_is_seeded() {
        let g = maze();
        // Goals in the bottom-right room and the top-left corner.
        let goals: Vec<NodeId> = [(10, 6), (11, 6), (12, 5), (11, 5), (0, 0), (1, 0), (0, 1)]
            .iter()
            .map(|&(x, y)| g.node(x, y).unwrap())
            .collect();
        for seed in 0..6 {
            let lms = place_centroid(&g, 2, &goals, seed);
            assert_eq!(lms, place_centroid(&g, 2, &goals, seed));
            let mut at: Vec<_> = lms.iter().map(|&l| g.coords(l)).collect();
            at.sort_unstable();
            // Means (0.33, 0.33) and (11, 5.5): nearest free cells.
            assert_eq!(at, [(0, 0), (11, 5)], "seed {seed}");
            for &l in &lms {
                assert!(g.is_passable(l) && g.moves(l) != 0);
            }
        }
        // Few goals: the goals themselves; walls ignored.
        let wall = g.node(4, 0).unwrap();
        assert_eq!(
            place_centroid(&g, 4, &[goals[0], wall, goals[0]], 1),
            [goals[0]]
        );
    }

    #[test]
    fn centroid_snaps_out_of_walls_to_distinct_cells() {
        // The mean of goals on both sides of a wall block lies in the wall.
        let grid = Grid::from_ascii(
            "
            ..@@@..
            ..@@@..
            ",
        )
        .unwrap();
        let g = GridGraph::new(grid, Neighborhood::Four);
        let goals: Vec<NodeId> = [(0, 0), (6, 0), (1, 1), (5, 1), (0, 1)]
            .iter()
            .map(|&(x, y)| g.node(x, y).unwrap())
            .collect();
        let lms = place_centroid(&g, 1, &goals, 0);
        assert_eq!(lms.len(), 1);
        assert!(g.is_passable(lms[0]));
    }

    #[test]
    fn among_goals_spreads_over_the_goals() {
        let g = crate::graph::testing::corridor(20);
        let goals: Vec<NodeId> = [2, 3, 4, 10, 11, 17, 18, 19].map(NodeId).to_vec();
        for seed in 0..8 {
            let lms = place_among_goals(&g, 3, &goals, seed);
            assert_eq!(lms, place_among_goals(&g, 3, &goals, seed));
            assert_eq!(lms.len(), 3);
            // One in each clump: 2..=4, 10..=11, 17..=19.
            let mut clumps: Vec<u32> = lms.iter().map(|l| l.0 / 7).collect();
            clumps.sort_unstable();
            assert_eq!(clumps, [0, 1, 2], "{lms:?}");
        }
        assert_eq!(place_among_goals(&g, 5, &goals[..2], 0), goals[..2]);
    }

    #[test]
    fn splitmix_matches_the_reference_sequence() {
        // First outputs of SplitMix64 seeded with 1234567, from the
        // reference implementation by Vigna.
        let mut rng = SplitMix64::new(1_234_567);
        assert_eq!(rng.next_u64(), 6_457_827_717_110_365_317);
        assert_eq!(rng.next_u64(), 3_203_168_211_198_807_973);
    }
}
