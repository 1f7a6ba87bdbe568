//! The one best-first loop under A*, Dijkstra and jump point search.
//!
//! What differs between those searches is a type parameter of
//! [`best_first`]: how an expanded node's successors are produced
//! ([`Expand`]: a graph's edges, or jump points), the heuristic (a closure),
//! the OPEN set (the cache's `Q`), the observer and when to stop
//! ([`Stop`]). The loop is monomorphised for each combination, so a search
//! pays only for what it uses.

use super::{NodeRecord, Observer, SearchCache, SearchStats, negligible_gain};
use crate::graph::{Graph, NodeId};
use crate::open::{Key, OpenSet};

/// How a best-first search produces the successors of the node it expands.
///
/// An expander is built for one query (it may hold the goal, as jump point
/// search's does) and borrowed by [`best_first`].
pub trait Expand {
    /// One more than the largest node id the expander produces.
    fn node_bound(&self) -> usize;

    /// Calls `visit(successor, cost)` for each successor of `node`, which
    /// the search reached from `parent` ([`NodeId::NONE`] at the start).
    fn expand(&self, node: NodeId, parent: NodeId, visit: impl FnMut(NodeId, f64));

    /// Like [`expand`](Expand::expand), but each successor may be reached
    /// through another node than `node`: `visit(via, successor, cost)`
    /// offers the successor a path through `via` (which the search has
    /// reached) costing `g(via) + cost`, with `via` as its parent. Theta*
    /// offers a successor of `node` a straight line from `node`'s parent.
    ///
    /// The default offers every successor of [`expand`](Expand::expand)
    /// through `node`, which the loop compiles to the plain relaxation.
    #[inline]
    fn expand_via(&self, node: NodeId, parent: NodeId, mut visit: impl FnMut(NodeId, NodeId, f64)) {
        self.expand(node, parent, |v, cost| visit(node, v, cost));
    }
}

/// The edges of a [`Graph`] as an [`Expand`]: what A* and Dijkstra search.
/// It calls [`Graph::successors_from`], so a graph's own pruning (canonical
/// ordering) applies.
#[derive(Clone, Copy, Debug)]
pub struct Edges<G>(pub G);

impl<G: Graph> Expand for Edges<G> {
    #[inline]
    fn node_bound(&self) -> usize {
        self.0.node_bound()
    }

    #[inline]
    fn expand(&self, node: NodeId, parent: NodeId, mut visit: impl FnMut(NodeId, f64)) {
        for (v, cost) in self.0.successors_from(node, parent) {
            visit(v, cost);
        }
    }
}

/// When a best-first search stops: at the first goal it removes from OPEN,
/// or when OPEN is empty.
pub trait Stop {
    /// Whether `node`, just removed from OPEN with its exact distance, ends
    /// the search.
    fn is_goal(&self, node: NodeId) -> bool;
}

/// Stop at one goal node.
impl Stop for NodeId {
    #[inline]
    fn is_goal(&self, node: NodeId) -> bool {
        node == *self
    }
}

/// Never stop early: expand everything reachable (one-to-all).
#[derive(Clone, Copy, Debug, Default)]
pub struct Exhaust;

impl Stop for Exhaust {
    #[inline]
    fn is_goal(&self, _: NodeId) -> bool {
        false
    }
}

/// Whether [`best_first`] puts a closed node back on OPEN when it
/// finds a cheaper path to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reopen {
    /// Reopen: optimal with any admissible heuristic, consistent or not.
    Yes,
    /// Never reopen: each node is expanded at most once. With a consistent
    /// heuristic nothing changes (no closed node is ever improved); with a
    /// consistent heuristic times `w >= 1` (weighted A*) the cost stays
    /// within `w` of the optimal one (Likhachev, Gordon and Thrun 2003),
    /// and the search expands far fewer nodes than with reopening.
    No,
}

/// The best-first loop: starts a new search in `cache` (sized for
/// `expand.node_bound()`), puts `start` on OPEN and repeatedly expands the
/// entry with the smallest `f = g + h(n)` (ties to the smaller middle of
/// `[h(n), upper(n)]`, or to the larger `g` without a bound: see [`Guide`]
/// and [`Key::tied`]) until `stop`
/// accepts a node, whose `g` it returns, or OPEN runs empty (`None`). A
/// start off the graph gives `None` at once.
///
/// `guide.h` may return `f64::INFINITY` for a node it proves cannot reach the goal:
/// such nodes are never put on OPEN. A closed node reached more cheaply
/// (inconsistent heuristic) goes back on OPEN when `reopen` says so.
/// Statistics are in [`SearchCache::stats`] afterwards; paths in
/// [`SearchCache::path_into`].
#[inline]
pub fn best_first<E, Q, O, S>(
    expand: &E, guide: &Guide<impl Fn(NodeId) -> f64, impl Fn(NodeId) -> f64>, start: NodeId,
    stop: &S, cache: &mut SearchCache<Q>, observer: &mut O, reopen: Reopen,
) -> Option<f64>
where
    E: Expand + ?Sized,
    Q: OpenSet,
    O: Observer + ?Sized,
    S: Stop + ?Sized,
{
    let bound = expand.node_bound();
    cache.begin(bound);
    // A start off the graph, or one the heuristic proves cannot reach the
    // goal, ends the search at once.
    seed(cache, bound, start, guide, observer)?;
    match run(expand, guide, stop, cache, observer, reopen, &mut Unlimited) {
        Ended::Goal(_, g) => Some(g),
        Ended::Empty | Ended::Paused => None,
    }
}

/// What guides [`best_first`]: two closures of a node, usually a
/// heuristic's [`estimate`](crate::heuristic::Heuristic::estimate) and
/// [`upper_bound`](crate::heuristic::Heuristic::upper_bound) towards one
/// goal.
#[derive(Clone, Copy, Debug)]
pub struct Guide<H, T> {
    /// The estimate of the cost to the goal; `f64::INFINITY` for a node
    /// proven not to reach it.
    pub h: H,
    /// An upper bound on the cost to the goal, which breaks the ties
    /// among nodes of equal `f` ([`Key::tied`]); `|_| f64::INFINITY` for
    /// none.
    pub upper: T,
}

/// How a run of the loop ended.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Ended {
    /// `stop` accepted this node, at this distance.
    Goal(NodeId, f64),
    /// OPEN ran empty.
    Empty,
    /// The [`Limit`] stopped the run; OPEN and the records are as they were
    /// before the next expansion, so a new run goes on from there.
    Paused,
}

/// A cap on one run of the loop, and what it keeps track of. [`Unlimited`]
/// answers with constants, so the plain searches compile to the loop
/// without any of it.
pub(crate) trait Limit {
    /// Whether the run may pause. A run that may does not hold the next
    /// node out of OPEN: putting it back at a pause would order ties
    /// another way than an unpaused run, and a search run in chunks must
    /// expand what it expands in one go.
    const MAY_PAUSE: bool = true;
    /// Whether the run must pause before the next pop, after `expanded`
    /// expansions in this run.
    fn spent(&self, expanded: u64) -> bool;
    /// Whether the run must pause instead of expanding a node of this `f`.
    fn over(&self, f: f64) -> bool;
    /// `node` is being expanded with this `g` and heuristic value.
    fn note(&mut self, node: NodeId, g: f64, h: f64);
}

/// No cap: the loop runs until `stop` or an empty OPEN.
pub(crate) struct Unlimited;

impl Limit for Unlimited {
    const MAY_PAUSE: bool = false;

    #[inline]
    fn spent(&self, _: u64) -> bool {
        false
    }

    #[inline]
    fn over(&self, _: f64) -> bool {
        false
    }

    #[inline]
    fn note(&mut self, _: NodeId, _: f64, _: f64) {}
}

/// Puts `source` on OPEN at `g = 0` in the search `cache` has begun on a
/// graph of `bound` nodes, unless it is off the graph, already there, or the heuristic proves it a dead
/// end. Returns its heuristic value when it was put on OPEN.
#[inline]
pub(crate) fn seed<Q, O>(
    cache: &mut SearchCache<Q>, bound: usize, source: NodeId,
    guide: &Guide<impl Fn(NodeId) -> f64, impl Fn(NodeId) -> f64>, observer: &mut O,
) -> Option<f64>
where
    Q: OpenSet,
    O: Observer + ?Sized,
{
    if source.index() >= bound {
        return None;
    }
    let open_stamp = cache.open_stamp();
    let record = cache.records.get_mut(source.index())?;
    if record.stamp >= open_stamp {
        // A source given twice.
        return None;
    }
    let h0 = (guide.h)(source);
    if h0 == f64::INFINITY {
        // The heuristic proves the goal unreachable.
        return None;
    }
    *record = NodeRecord {
        g: 0.0,
        h: h0,
        parent: NodeId::NONE,
        stamp: open_stamp,
    };
    cache
        .open
        .push(source, Key::tied(0.0, h0, (guide.upper)(source)));
    observer.open(source, NodeId::NONE, 0.0);
    Some(h0)
}

/// The loop: repeatedly expands the entry of OPEN with the smallest `f`
/// (ties as [`Key::tied`] orders them) until `stop` accepts a node, OPEN runs empty or
/// `limit` pauses it. Goes on from whatever the search in `cache` left on
/// OPEN, and adds its counts to the cache's statistics.
#[inline]
pub(crate) fn run<E, Q, O, S, L>(
    expand: &E, guide: &Guide<impl Fn(NodeId) -> f64, impl Fn(NodeId) -> f64>, stop: &S,
    cache: &mut SearchCache<Q>, observer: &mut O, reopen: Reopen, limit: &mut L,
) -> Ended
where
    E: Expand + ?Sized,
    Q: OpenSet,
    O: Observer + ?Sized,
    S: Stop + ?Sized,
    L: Limit,
{
    let open_stamp = cache.open_stamp();
    let closed_stamp = cache.closed_stamp();
    let SearchCache {
        records,
        open,
        stats,
        ..
    } = cache;

    let mut max_open = open.len().max(stats.max_open as usize);
    // Counted in locals (registers) and stored once at the end.
    let mut expanded = 0u64;
    let mut generated = 0u64;

    // The best successor of the last expansion when it precedes every
    // entry of OPEN (only for structures that can tell, `Q::PEEKS`, in
    // runs that cannot pause, `!L::MAY_PAUSE`): the
    // next node to expand, kept out of OPEN instead of pushed and popped
    // right back. The order of expansions is the same up to ties (entries
    // with equal keys, which OPEN returns in an order of its own).
    let mut next: Option<(NodeId, Key)> = None;
    let ended = loop {
        if limit.spent(expanded) && !open.is_empty() {
            break Ended::Paused;
        }
        let Some((u, key)) = next.take().or_else(|| open.pop()) else {
            break Ended::Empty;
        };
        let ru = records[u.index()];
        if Q::STALE && (ru.stamp == closed_stamp || key.f > ru.g + ru.h) {
            // A stale duplicate from an OPEN set without decrease-key.
            continue;
        }
        debug_assert!(
            ru.stamp != closed_stamp && key.f <= ru.g + ru.h,
            "an OPEN set that says it holds no stale entries returned one"
        );
        if limit.over(key.f) {
            open.push(u, key);
            break Ended::Paused;
        }
        records[u.index()].stamp = closed_stamp;
        if stop.is_goal(u) {
            break Ended::Goal(u, ru.g);
        }
        expanded += 1;
        limit.note(u, ru.g, ru.h);
        observer.expand(u, ru.g, ru.h);
        let mut best = None;
        expand.expand_via(u, ru.parent, |via, v, cost| {
            generated += 1;
            // `via == u` except for Theta*'s lines of sight; for every other
            // expander the comparison folds away.
            let g = if via == u {
                ru.g
            } else {
                records[via.index()].g
            } + cost;
            let mut offered = Offered {
                open: &mut *open,
                best: &mut best,
                hold: !L::MAY_PAUSE,
            };
            if relax(
                records,
                &mut offered,
                stats,
                guide,
                via,
                v,
                g,
                open_stamp,
                reopen,
            ) {
                observer.open(v, via, g);
            }
        });
        if let Some((v, key)) = best {
            if open.precedes_all(key) {
                next = Some((v, key));
            } else {
                open.push(v, key);
            }
        }
        max_open = max_open.max(open.len() + usize::from(next.is_some()));
    };
    stats.expanded += expanded;
    stats.generated += generated;
    stats.max_open = max_open as u64;
    ended
}

/// OPEN during one expansion, with the best new entry held aside when the
/// structure [peeks](OpenSet::PEEKS).
struct Offered<'a, Q> {
    open: &'a mut Q,
    best: &'a mut Option<(NodeId, Key)>,
    /// Whether the run holds the next node at all (a constant per run).
    hold: bool,
}

impl<Q: OpenSet> Offered<'_, Q> {
    /// Adds `node`, which is in neither OPEN nor the held entry.
    #[inline]
    fn push(&mut self, node: NodeId, key: Key) {
        if !Q::PEEKS || !self.hold {
            self.open.push(node, key);
            return;
        }
        match *self.best {
            Some((_, bk)) if !key.precedes(bk) => self.open.push(node, key),
            Some((b, bk)) => {
                self.open.push(b, bk);
                *self.best = Some((node, key));
            }
            None => *self.best = Some((node, key)),
        }
    }

    /// Lowers the key of `node`, which is in OPEN or held.
    #[inline]
    fn decrease_key(&mut self, node: NodeId, key: Key) {
        match self.best {
            Some((b, bk)) if Q::PEEKS && self.hold && *b == node => *bk = key,
            _ => self.open.decrease_key(node, key),
        }
    }
}

/// Offers `v` a path of cost `g` through `u`, as A* does for each
/// successor: a first visit records it and puts it on OPEN (unless the
/// heuristic proves it a dead end), a cheaper path decreases its key or, for
/// a closed node under an inconsistent heuristic, reopens it. Returns whether
/// `v`'s record changed. `open_stamp + 1` is the closed stamp.
#[inline]
#[expect(
    clippy::too_many_arguments,
    reason = "the hot loop's state, passed apart to keep borrows disjoint"
)]
fn relax<Q: OpenSet>(
    records: &mut [NodeRecord], open: &mut Offered<'_, Q>, stats: &mut SearchStats,
    guide: &Guide<impl Fn(NodeId) -> f64, impl Fn(NodeId) -> f64>, u: NodeId, v: NodeId, g: f64,
    open_stamp: u32, reopen: Reopen,
) -> bool {
    let closed_stamp = open_stamp + 1;
    let rv = &mut records[v.index()];
    if rv.stamp < open_stamp {
        let hv = (guide.h)(v);
        if hv == f64::INFINITY {
            // No path from v to the goal: record it, never expand it.
            *rv = NodeRecord::dead_end(u, closed_stamp);
            return false;
        }
        *rv = NodeRecord {
            g,
            h: hv,
            parent: u,
            stamp: open_stamp,
        };
        open.push(v, Key::tied(g, hv, (guide.upper)(v)));
        return true;
    }
    if g >= rv.g {
        return false;
    }
    if rv.stamp == closed_stamp {
        // Only an inconsistent heuristic gets here; tiny gains from summing
        // the same costs in another order are not worth reopening for.
        if reopen == Reopen::No || negligible_gain(g, rv.g) {
            return false;
        }
        stats.reopened += 1;
        rv.stamp = open_stamp;
        open.push(v, Key::tied(g, rv.h, (guide.upper)(v)));
    } else {
        let (hv, upper) = (rv.h, (guide.upper)(v));
        let key = Key::tied(g, hv, upper);
        if !key.precedes(Key::tied(rv.g, hv, upper)) {
            // g fell by less than f's rounding, so f = g + h is unchanged
            // and the key does not improve (the smaller g would even lose
            // the tie order without a bound): not worth a decrease-key.
            return false;
        }
        stats.updated += 1;
        open.decrease_key(v, key);
    }
    rv.g = g;
    rv.parent = u;
    true
}

#[cfg(test)]
mod tests {
    use crate::graph::{Graph, NodeId};
    use crate::grid::testing::open_map;
    use crate::grid::{Grid, GridGraph, Neighborhood};
    use crate::heuristic::Octile;
    use crate::open::{IndexedBinaryHeap, Key, OpenSet, PairingHeap};
    use crate::search::{AStar, Search, SearchCache};

    /// `Q` with its pushes counted, peeking as `P` says.
    #[derive(Default)]
    struct Counted<Q, const P: bool> {
        inner: Q,
        pushes: usize,
    }

    impl<Q: OpenSet, const P: bool> OpenSet for Counted<Q, P> {
        const PEEKS: bool = P;
        fn prepare(&mut self, node_bound: usize) {
            self.inner.prepare(node_bound);
        }
        fn push(&mut self, node: NodeId, key: Key) {
            self.pushes += 1;
            self.inner.push(node, key);
        }
        fn pop(&mut self) -> Option<(NodeId, Key)> {
            self.inner.pop()
        }
        fn key(&self, node: NodeId) -> Option<Key> {
            self.inner.key(node)
        }
        fn decrease_key(&mut self, node: NodeId, key: Key) {
            self.inner.decrease_key(node, key);
        }
        fn precedes_all(&self, key: Key) -> bool {
            P && self.inner.precedes_all(key)
        }
        fn clear(&mut self) {
            self.inner.clear();
        }
        fn len(&self) -> usize {
            self.inner.len()
        }
    }

    /// Cost, expansions and pushes of one octile A* query.
    fn pushes<Q: OpenSet + Default, const P: bool>(
        g: &GridGraph, s: NodeId, t: NodeId,
    ) -> (f64, u64, usize) {
        let mut cache = SearchCache::with_open(Counted::<Q, P>::default());
        let astar = AStar::new(g, Octile::new(g));
        let cost = astar.search_cost(s, t, &mut cache).unwrap();
        (cost, cache.stats().expanded, cache.open_set().pushes)
    }

    #[test]
    fn the_next_node_skips_open_and_the_search_is_unchanged() {
        // On an open grid the diagonal towards the goal keeps f, so each
        // expansion's best successor is the next node: with peeking it
        // never enters OPEN.
        let g = open_map(40, 40, Neighborhood::Octile);
        let (start, goal) = (NodeId(0), g.node(39, 25).unwrap());
        let plain = pushes::<IndexedBinaryHeap, false>(&g, start, goal);
        let held = pushes::<IndexedBinaryHeap, true>(&g, start, goal);
        assert_eq!((plain.0, plain.1), (held.0, held.1), "cost and expansions");
        assert_eq!(plain.1, 39, "one expansion per step of the path");
        assert!(
            held.2 + plain.1 as usize <= plain.2,
            "every expansion's next node skipped OPEN: {held:?} against {plain:?}"
        );

        // Around walls the held node must still give way to better entries.
        let grid = Grid::from_ascii(
            "
            ..........
            .@@@@@@@@.
            .@......@.
            .@.@@@@.@.
            ...@..@...
            .@.@@.@.@.
            .@......@.
            .@@@@@@@@.
            ..........
            ",
        )
        .unwrap();
        let g = GridGraph::new(grid, Neighborhood::Octile);
        for from in 0..g.node_bound() as u32 {
            for to in (0..g.node_bound() as u32).step_by(7) {
                let (from, to) = (NodeId(from), NodeId(to));
                let mut cache = SearchCache::with_open(PairingHeap::new());
                let want = AStar::new(&g, Octile::new(&g)).search_cost(from, to, &mut cache);
                if want.is_none() {
                    continue;
                }
                let a = pushes::<IndexedBinaryHeap, false>(&g, from, to);
                let b = pushes::<IndexedBinaryHeap, true>(&g, from, to);
                assert_eq!(a.0, b.0, "{from} to {to}");
                assert!((a.0 - want.unwrap()).abs() < 1e-9, "{from} to {to}");
                assert!(b.2 <= a.2, "{from} to {to}: more pushes with peeking");
            }
        }
    }
}
