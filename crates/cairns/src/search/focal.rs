//! Focal search (A*_epsilon): bounded-suboptimal search with a focal list.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use super::{NodeRecord, Observer, Search, SearchCache, negligible_gain};
use crate::graph::{Graph, NodeId};
use crate::heuristic::Heuristic;
use crate::open::order::encode;
use crate::open::{Key, OpenSet};

/// Focal search, A*_epsilon (Pearl and Kim 1982): among the OPEN nodes whose
/// `f = g + h` is at most `w` times the smallest `f` on OPEN (the *focal
/// list*), expand the one that looks nearest the goal (smallest `h`, then
/// largest `g`). The cost it returns is at most `w` times the optimal one.
///
/// Weighted A* ([`Weighted`](crate::heuristic::Weighted)) reaches the same
/// bound by inflating `h` in one ordering; focal search keeps the optimal
/// order's lower bound `f_min` beside a second ordering, so it can also pick
/// by another measure. It needs its own loop: the node it expands is not
/// the front of one priority order, so it keeps three lists (every OPEN node
/// by `f`, for `f_min`; the focal list by `h`; the rest by `f`, waiting for
/// `f_min` to rise) instead of the cache's OPEN set.
///
/// # Contract
///
/// Non-negative edge costs and an admissible heuristic. A closed node that
/// gets a cheaper path is not reopened at once: it keeps the cheaper `g`
/// and parent and waits on a fourth list, of *inconsistent* nodes, which
/// counts towards the lower bound (`f_min` is the least `f` on OPEN and
/// on that list). Along a shortest path, the first node not yet closed
/// with its optimal `g` is always OPEN or inconsistent with that `g`, so
/// `f_min` never exceeds the optimal cost, and the goal, taken from the
/// focal list, costs at most `w * f_min`. An inconsistent node is reopened
/// only when the focal list runs empty (the lower bound is its own): each
/// node is then expanded far fewer times than when every cheaper path
/// reopens it at once (the `h`-greedy focal order reaches many nodes by
/// poor paths first). With `w = 1` and a consistent heuristic the search
/// is A* with ties broken towards the goal.
///
/// # Complexity
///
/// `O(log n)` per list operation, each node entering at most two lists per
/// improvement of its `g`; the lists live in the [`SearchCache`] and are
/// reused. Reopening can expand a node more than once.
///
/// # Example
///
/// ```
/// use cairns::grid::{Grid, GridGraph, Neighborhood};
/// use cairns::heuristic::Octile;
/// use cairns::search::{AStar, Focal, Search, SearchCache};
///
/// let graph = GridGraph::new(Grid::from_ascii("
///     ..........
///     .@@@@@@@@.
///     .........@
///     @@@@@@@@..
///     ..........
/// ").unwrap(), Neighborhood::Octile);
/// let focal = Focal::new(&graph, Octile::new(&graph), 1.5).unwrap();
/// let (start, goal) = (graph.node(0, 0).unwrap(), graph.node(0, 4).unwrap());
/// let mut cache = SearchCache::new();
/// let cost = focal.search_cost(start, goal, &mut cache).unwrap();
/// let optimal = AStar::new(&graph, Octile::new(&graph)).search_cost(start, goal, &mut SearchCache::new()).unwrap();
/// assert!(cost >= optimal && cost <= 1.5 * optimal);
/// ```
#[derive(Clone, Debug)]
pub struct Focal<G, H> {
    graph: G,
    heuristic: H,
    weight: f64,
}

impl<G: Graph, H: Heuristic> Focal<G, H> {
    /// Focal search on `graph` with `heuristic`, returning costs at most
    /// `weight` times the optimal ones; `None` unless `weight` is finite and
    /// at least 1.
    pub fn new(graph: G, heuristic: H, weight: f64) -> Option<Self> {
        (weight.is_finite() && weight >= 1.0).then_some(Focal {
            graph,
            heuristic,
            weight,
        })
    }

    /// The weight `w`.
    pub fn weight(&self) -> f64 {
        self.weight
    }
}

/// An entry of one of the focal search's lists: a node with the `g` it had
/// when pushed (stale once the node's `g` changes or it is closed), ordered
/// by `order` (smallest first), then by node id.
#[derive(Clone, Copy, Debug)]
struct Entry {
    order: u128,
    node: NodeId,
    g: f64,
}

impl PartialEq for Entry {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Entry {}

impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Entry {
    /// Reversed, so that [`BinaryHeap`] (a max-heap) pops the smallest.
    fn cmp(&self, other: &Self) -> Ordering {
        (other.order, other.node.0).cmp(&(self.order, self.node.0))
    }
}

/// The four lists of a focal search, kept in the [`SearchCache`] so that
/// their memory is reused across queries.
#[derive(Clone, Debug, Default)]
pub(super) struct FocalLists {
    /// Every OPEN node by `(f, larger g)`: the front is `f_min`.
    by_f: BinaryHeap<Entry>,
    /// OPEN nodes with `f <= w * f_min` by `(h, larger g)`.
    focal: BinaryHeap<Entry>,
    /// The other OPEN nodes by `(f, larger g)`, until `w * f_min` reaches them.
    waiting: BinaryHeap<Entry>,
    /// Closed nodes that got a cheaper `g` after their expansion, by
    /// `(f, larger g)`: part of the lower bound, reopened from the front
    /// when the focal list runs empty.
    inconsistent: BinaryHeap<Entry>,
}

impl FocalLists {
    fn clear(&mut self) {
        self.by_f.clear();
        self.focal.clear();
        self.waiting.clear();
        self.inconsistent.clear();
    }

    /// Files an OPEN node with `g` and `h` under the current `threshold`.
    fn push(&mut self, node: NodeId, g: f64, h: f64, threshold: f64) {
        let by_f = Entry {
            order: encode(Key::new(g, h)),
            node,
            g,
        };
        self.by_f.push(by_f);
        if g + h <= threshold {
            self.push_focal(node, g, h);
        } else {
            self.waiting.push(by_f);
        }
    }

    fn push_focal(&mut self, node: NodeId, g: f64, h: f64) {
        self.focal.push(Entry {
            order: encode(Key { f: h, g }),
            node,
            g,
        });
    }
}

/// The cost of the path the parent links give from the start to `node`,
/// move by move. After a reopening it can be below `node`'s `g`: a node on
/// the path was reached more cheaply after the search went through it, and
/// the links already take the cheaper way while the `g` below it were not
/// lowered (a bounded-suboptimal search expands the goal without waiting
/// for them). Edge costs are not negative, so the links form no cycle.
fn linked_cost<G: Graph>(graph: &G, records: &[NodeRecord], node: NodeId) -> f64 {
    let mut steps = Vec::new();
    let mut n = node;
    loop {
        let p = records[n.index()].parent;
        if p == NodeId::NONE {
            break;
        }
        let step = graph
            .successors(p)
            .filter(|&(v, _)| v == n)
            .map(|(_, c)| c)
            .fold(f64::INFINITY, f64::min);
        steps.push(step);
        n = p;
    }
    // Summed from the start, as the path is walked.
    steps.iter().rev().sum()
}

/// Whether an entry still stands for its node: OPEN (or, for the list of
/// inconsistent nodes, closed) with the same `g`. An inconsistent node
/// leaves its list only from the front, when it is reopened, and a `g`
/// never returns once lowered, so a closed node with an entry's `g` is
/// still waiting there.
#[inline]
fn live(records: &[NodeRecord], e: &Entry, stamp: u32) -> bool {
    let r = &records[e.node.index()];
    r.stamp == stamp && r.g == e.g
}

/// The `f` of the front of `list` once its stale entries are dropped.
fn front_f(list: &mut BinaryHeap<Entry>, records: &[NodeRecord], stamp: u32) -> Option<f64> {
    while let Some(e) = list.peek() {
        if live(records, e, stamp) {
            let r = &records[e.node.index()];
            return Some(r.g + r.h);
        }
        list.pop();
    }
    None
}

impl<G: Graph, H: Heuristic> Search for Focal<G, H> {
    fn bound(&self) -> f64 {
        self.weight * self.heuristic.bound()
    }

    // The focal loop reads best whole: its three lists change together.
    #[allow(clippy::too_many_lines, clippy::many_single_char_names)]
    fn search_observed<Q: OpenSet, O: Observer + ?Sized>(
        &self, start: NodeId, goal: NodeId, cache: &mut SearchCache<Q>, observer: &mut O,
    ) -> Option<f64> {
        let bound = self.graph.node_bound();
        if cache.off_graph(start, bound) || cache.no_path_known(&self.graph, start, goal) {
            return None;
        }
        cache.begin(bound);
        let open_stamp = cache.open_stamp();
        let closed_stamp = cache.closed_stamp();
        let SearchCache {
            records,
            focal: lists,
            stats,
            ..
        } = cache;
        lists.clear();
        let target = self.heuristic.goal_for(start, goal);
        let h = |n| self.heuristic.estimate(n, &target);
        let w = self.weight;

        let h0 = h(start);
        if h0 == f64::INFINITY {
            return None;
        }
        records[start.index()] = NodeRecord {
            g: 0.0,
            h: h0,
            parent: NodeId::NONE,
            stamp: open_stamp,
        };
        let mut threshold = w * h0;
        lists.push(start, 0.0, h0, threshold);
        observer.open(start, NodeId::NONE, 0.0);
        let mut open_count = 1usize;
        let mut max_open = 1usize;

        // Whether a closed node got a cheaper path: the parent links then
        // may cost less than the goal's `g`.
        let mut improved_closed = false;
        let found = loop {
            // With OPEN empty every node the start reaches is closed: the
            // goal is not among them.
            let Some(f_open) = front_f(&mut lists.by_f, records, open_stamp) else {
                break None;
            };
            let f_min = front_f(&mut lists.inconsistent, records, closed_stamp)
                .map_or(f_open, |f| f.min(f_open));
            threshold = w * f_min;
            while let Some(e) = lists.waiting.peek().copied() {
                if !live(records, &e, open_stamp) {
                    lists.waiting.pop();
                    continue;
                }
                let r = records[e.node.index()];
                if r.g + r.h > threshold {
                    break;
                }
                lists.waiting.pop();
                lists.push_focal(e.node, r.g, r.h);
            }
            // The node of f_min is on the focal list, unless f_min is an
            // inconsistent node's: then that node is reopened.
            let Some(e) = lists.focal.pop() else {
                let Some(e) = lists.inconsistent.pop() else {
                    break None;
                };
                let r = &mut records[e.node.index()];
                r.stamp = open_stamp;
                stats.reopened += 1;
                open_count += 1;
                lists.push(e.node, r.g, r.h, threshold);
                observer.open(e.node, r.parent, r.g);
                continue;
            };
            if !live(records, &e, open_stamp) {
                continue;
            }
            let u = e.node;
            let ru = records[u.index()];
            if ru.g + ru.h > threshold {
                // Filed under a higher threshold (f_min fell: a node
                // became inconsistent, or the heuristic is): wait again.
                lists.waiting.push(Entry {
                    order: encode(Key::new(ru.g, ru.h)),
                    ..e
                });
                continue;
            }
            records[u.index()].stamp = closed_stamp;
            open_count -= 1;
            if u == goal {
                // `begin` zeroed the statistics: a count is this search's.
                if improved_closed {
                    break Some(linked_cost(&self.graph, records, u));
                }
                break Some(ru.g);
            }
            stats.expanded += 1;
            observer.expand(u, ru.g, ru.h);
            for (v, cost) in self.graph.successors_from(u, ru.parent) {
                stats.generated += 1;
                let g = ru.g + cost;
                let rv = &mut records[v.index()];
                let hv = if rv.stamp < open_stamp {
                    let hv = h(v);
                    if hv == f64::INFINITY {
                        *rv = NodeRecord::dead_end(u, closed_stamp);
                        continue;
                    }
                    open_count += 1;
                    hv
                } else if g < rv.g {
                    if rv.stamp == closed_stamp {
                        // Tiny gains from summing in another order are
                        // not worth a second expansion.
                        if negligible_gain(g, rv.g) {
                            continue;
                        }
                        rv.g = g;
                        rv.parent = u;
                        improved_closed = true;
                        lists.inconsistent.push(Entry {
                            order: encode(Key::new(g, rv.h)),
                            node: v,
                            g,
                        });
                        continue;
                    }
                    stats.updated += 1;
                    rv.h
                } else {
                    continue;
                };
                *rv = NodeRecord {
                    g,
                    h: hv,
                    parent: u,
                    stamp: open_stamp,
                };
                lists.push(v, g, hv, threshold);
                observer.open(v, u, g);
            }
            max_open = max_open.max(open_count);
        };
        stats.max_open = max_open as u64;
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{GridGraph, MapKind, Neighborhood};
    use crate::heuristic::Octile;
    use crate::search::Dijkstra;

    #[test]
    fn weights_below_one_are_refused() {
        let g = crate::grid::testing::open_map(3, 3, Neighborhood::Octile);
        assert!(Focal::new(&g, Octile::new(&g), 0.9).is_none());
        assert!(Focal::new(&g, Octile::new(&g), f64::NAN).is_none());
        let f = Focal::new(&g, Octile::new(&g), 1.0).unwrap();
        let mut cache = SearchCache::new();
        assert_eq!(f.search_cost(NodeId(0), NodeId(0), &mut cache), Some(0.0));
        assert_eq!(f.search_cost(NodeId(0), NodeId(99), &mut cache), None);
        assert_eq!(f.search_cost(NodeId(99), NodeId(0), &mut cache), None);
    }

    #[test]
    #[allow(clippy::many_single_char_names)]
    fn bounded_and_expands_less_than_optimal_a_star_on_rooms() {
        let grid = MapKind::Rooms { room_size: 12 }
            .generate(96, 96, 3)
            .unwrap();
        let g = GridGraph::new(grid, Neighborhood::Octile);
        let mut cache = SearchCache::new();
        let mut reference = SearchCache::new();
        let (mut exp1, mut exp2) = (0, 0);
        for (s, t) in crate::grid::random_queries(&g, 60, 7) {
            let optimal = Dijkstra::new(&g).search_cost(s, t, &mut reference);
            for w in [1.0, 1.5] {
                let f = Focal::new(&g, Octile::new(&g), w).unwrap();
                let cost = f.search_cost(s, t, &mut cache);
                match (cost, optimal) {
                    (Some(c), Some(o)) => {
                        assert!(c >= o - 1e-9 && c <= w * o + 1e-9, "w {w}: {c} vs {o}");
                        let mut path = Vec::new();
                        assert!(f.path_into(&cache, t, &mut path));
                        assert_eq!((path[0], *path.last().unwrap()), (s, t));
                    }
                    (c, o) => assert_eq!(c, o),
                }
                if w == 1.0 {
                    exp1 += cache.stats().expanded;
                } else {
                    exp2 += cache.stats().expanded;
                }
            }
        }
        assert!(exp2 < exp1, "{exp2} vs {exp1}");
    }
}
