//! The contraction hierarchy over a subgoal graph (Geisberger et al. 2008,
//! on the subgoal graph as Uras and Koenig 2018 do): the subgoals ranked
//! by a contraction order, and shortcut edges that keep every distance
//! between the subgoals left when one is taken out.
//!
//! A query then needs only the edges that climb the ranks from its start
//! and those that descend the ranks into its goal (see
//! [`SubgoalSearch`](super::SubgoalSearch)): on a maze that is a few
//! hundred subgoals where the flat graph has tens of thousands.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::time::Instant;

use rayon::prelude::*;

use super::Marks;

/// No middle subgoal: an edge of the subgoal graph itself.
pub(super) const NO_MIDDLE: u32 = u32::MAX;

/// How many nodes a witness search settles before it gives up and the
/// shortcut is added: more keeps fewer needless shortcuts, and costs more
/// build time. A shortcut added without need is still a path, so the
/// limit never makes a cost wrong.
const SETTLE_LIMIT: usize = 400;

/// Contraction stops, and the subgoals left form the *core*, searched
/// whole by every query, once the next subgoal would need more shortcuts
/// than this, or has more edges than [`MAX_DEGREE`]: on open and random
/// maps the last subgoals would each link all their neighbours to one
/// another, and a query would scan those long lists. Measured on
/// random512-10-0 (every 10th query): at 16 and 16 the build takes 11.5 s
/// and a query 233 us; at 24 and 24, 24 s and 339 us; at 32 and 32, 33 s
/// and 557 us. On the maze all three contract every subgoal.
const MAX_SHORTCUTS: usize = 16;

/// See [`MAX_SHORTCUTS`].
const MAX_DEGREE: usize = 16;

/// One edge of the hierarchy, seen from one end.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Arc {
    /// The other end, a subgoal index.
    pub(super) to: u32,
    /// The subgoal a shortcut was added for (its two halves are the edges
    /// from each end to it), or [`NO_MIDDLE`].
    pub(super) middle: u32,
    /// The length of the path the edge stands for.
    pub(super) cost: f64,
}

/// The ranked subgoals and their edges, each list split into the edges
/// that descend (to a lower rank) and those that climb (to a higher rank,
/// or to another core subgoal).
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct Hierarchy {
    /// The rank of each subgoal: its place in the contraction order, or
    /// [`u32::MAX`] for the core.
    pub(super) rank: Vec<u32>,
    /// Subgoal `i`'s descending edges are `arcs[offsets[i]..splits[i]]`,
    /// its climbing ones `arcs[splits[i]..offsets[i + 1]]`; each part in
    /// the order of the other end.
    offsets: Vec<u32>,
    splits: Vec<u32>,
    arcs: Vec<Arc>,
}

/// A cost as a key that orders like it: the bits of a float that is not
/// negative.
#[inline]
fn key(cost: f64) -> u64 {
    cost.to_bits()
}

/// A shortcut to add: its two ends and its cost.
type Shortcut = (u32, u32, f64);

/// A witness search's scratch: distances (infinite where not reached),
/// the nodes it reached, and its heap.
struct Witness {
    /// The subgoals the current search wants settled.
    wanted: Marks,
    dist: Vec<f64>,
    reached: Vec<u32>,
    heap: BinaryHeap<Reverse<(u64, u32)>>,
}

/// The contraction's working state: the edges among the subgoals left
/// (one per pair and direction, the cheapest), and the climbing edges of
/// those taken out.
struct Graph {
    adjacent: Vec<Vec<Arc>>,
    /// For each subgoal taken out, its edges to the subgoals left then.
    climbing: Vec<Vec<Arc>>,
}

impl Graph {
    /// The graph of `adjacent` (each subgoal's `(other end, cost)`), none
    /// taken out.
    fn new(adjacent: Vec<Vec<(u32, f64)>>) -> Graph {
        let n = adjacent.len();
        let adjacent = adjacent
            .into_iter()
            .map(|l| {
                l.into_iter()
                    .map(|(to, cost)| Arc {
                        to,
                        middle: NO_MIDDLE,
                        cost,
                    })
                    .collect()
            })
            .collect();
        Graph {
            adjacent,
            climbing: vec![Vec::new(); n],
        }
    }

    /// The hierarchy of `rank` once contraction ends: the core's edges
    /// climb both ways.
    fn into_hierarchy(self, rank: Vec<u32>) -> Hierarchy {
        let Graph {
            adjacent,
            mut climbing,
        } = self;
        for (v, core) in adjacent.into_iter().enumerate() {
            if rank[v] == u32::MAX {
                climbing[v] = core;
            }
        }
        Hierarchy::from_lists(rank, climbing)
    }

    /// The order key of `v`: shortcuts added less edges removed, plus the
    /// neighbours already gone (which spreads the contraction evenly);
    /// and the shortcuts taking `v` out needs, `None` when they are more
    /// than [`MAX_SHORTCUTS`] or `v` has more than [`MAX_DEGREE`] edges
    /// (it then stays in the core).
    fn priority(
        &self, v: u32, gone_near: &[u32], scratch: &mut Witness,
    ) -> (i64, Option<Vec<Shortcut>>) {
        let degree = self.adjacent[v as usize].len();
        if degree > MAX_DEGREE {
            return (i64::MAX / 2, None);
        }
        let added = scratch.shortcuts(self, v, MAX_SHORTCUTS);
        let key = 2 * added.len() as i64 - degree as i64 + i64::from(gone_near[v as usize]);
        (key, (added.len() <= MAX_SHORTCUTS).then_some(added))
    }

    /// Takes `v` out, adding `shortcuts`, those its
    /// [`priority`](Self::priority) found on the graph as it is.
    fn contract(&mut self, v: u32, shortcuts: Vec<Shortcut>, gone_near: &mut [u32]) {
        for (u, w, cost) in shortcuts {
            for (a, b) in [(u, w), (w, u)] {
                let list = &mut self.adjacent[a as usize];
                match list.iter_mut().find(|e| e.to == b) {
                    Some(e) if e.cost <= cost => {}
                    Some(e) => {
                        e.cost = cost;
                        e.middle = v;
                    }
                    None => list.push(Arc {
                        to: b,
                        middle: v,
                        cost,
                    }),
                }
            }
        }
        let edges = std::mem::take(&mut self.adjacent[v as usize]);
        for e in &edges {
            gone_near[e.to as usize] += 1;
            self.adjacent[e.to as usize].retain(|x| x.to != v);
        }
        self.climbing[v as usize] = edges;
    }
}

impl Witness {
    fn new(n: usize) -> Witness {
        Witness {
            wanted: Marks::default(),
            dist: vec![f64::INFINITY; n],
            reached: Vec::new(),
            heap: BinaryHeap::new(),
        }
    }

    /// Dijkstra from `from` over the subgoals left in `graph` but `skip`,
    /// up to distance `bound` and at most [`SETTLE_LIMIT`] settled nodes;
    /// the distances are left in `dist` until [`clear`](Self::clear).
    fn search(&mut self, graph: &Graph, from: u32, skip: u32, bound: f64, targets: &[Arc]) {
        self.wanted.reset(self.dist.len());
        for t in targets {
            self.wanted.mark(t.to);
        }
        let mut left = targets.len();
        self.dist[from as usize] = 0.0;
        self.reached.push(from);
        self.heap.push(Reverse((key(0.0), from)));
        let mut settled = 0;
        while let Some(Reverse((k, u))) = self.heap.pop() {
            let d = self.dist[u as usize];
            if k != key(d) {
                continue;
            }
            if d > bound || settled == SETTLE_LIMIT || left == 0 {
                break;
            }
            settled += 1;
            if self.wanted.has(u) {
                left -= 1;
            }
            for a in &graph.adjacent[u as usize] {
                let t = a.to as usize;
                if a.to == skip {
                    continue;
                }
                let nd = d + a.cost;
                if nd < self.dist[t] {
                    if self.dist[t] == f64::INFINITY {
                        self.reached.push(a.to);
                    }
                    self.dist[t] = nd;
                    self.heap.push(Reverse((key(nd), a.to)));
                }
            }
        }
        self.heap.clear();
    }

    fn clear(&mut self) {
        for &r in &self.reached {
            self.dist[r as usize] = f64::INFINITY;
        }
        self.reached.clear();
    }

    /// The shortcuts that taking `v` out of `graph` needs: for each two
    /// neighbours whose shortest path may run through `v`, the pair and
    /// the cost through it. Stops early once there are more than `cap`.
    fn shortcuts(&mut self, graph: &Graph, v: u32, cap: usize) -> Vec<Shortcut> {
        let near = &graph.adjacent[v as usize];
        let mut out = Vec::new();
        for (
            i,
            &Arc {
                to: u, cost: cu, ..
            },
        ) in near.iter().enumerate()
        {
            let rest = &near[i + 1..];
            let Some(longest) = rest.iter().map(|a| cu + a.cost).reduce(f64::max) else {
                break;
            };
            self.search(graph, u, v, longest, rest);
            for &Arc {
                to: w, cost: cw, ..
            } in rest
            {
                let through = cu + cw;
                // A witness no longer than the path through `v` (to a
                // rounding) keeps the distance. A target left unsettled
                // may have a longer distance than its true one: the
                // shortcut is then added.
                if self.dist[w as usize] > through * (1.0 + 1e-12) {
                    out.push((u, w, through));
                }
            }
            self.clear();
            if out.len() > cap {
                break;
            }
        }
        out
    }
}

impl Hierarchy {
    /// Contracts the graph whose edges are `adjacent` (each subgoal's list
    /// of `(other end, cost)`, both directions kept), in an order chosen
    /// by the edge difference with lazy updates, until the next subgoal
    /// would need more than [`MAX_SHORTCUTS`] shortcuts or has more than
    /// [`MAX_DEGREE`] edges.
    ///
    /// Past `deadline` (when given) it contracts no more: the subgoals
    /// left join the core, and queries stay optimal, only slower.
    pub(super) fn build(adjacent: Vec<Vec<(u32, f64)>>, deadline: Option<Instant>) -> Hierarchy {
        let n = adjacent.len();
        let mut graph = Graph::new(adjacent);
        let mut gone_near = vec![0u32; n];
        // The first priorities in parallel, each thread with its own
        // scratch.
        let first: Vec<i64> = (0..n as u32)
            .into_par_iter()
            .map_init(
                || Witness::new(n),
                |scratch, v| graph.priority(v, &gone_near, scratch).0,
            )
            .collect();
        let mut heap: BinaryHeap<Reverse<(i64, u32)>> =
            first.into_iter().zip(0..).map(Reverse).collect();
        let mut scratch = Witness::new(n);
        let mut rank = vec![u32::MAX; n];
        let mut next = 0u32;
        while let Some(Reverse((_, v))) = heap.pop() {
            if next.is_multiple_of(64) && deadline.is_some_and(|d| Instant::now() >= d) {
                break;
            }
            let (p, shortcuts) = graph.priority(v, &gone_near, &mut scratch);
            if let Some(&Reverse((top, _))) = heap.peek()
                && p > top
            {
                heap.push(Reverse((p, v)));
                continue;
            }
            let Some(shortcuts) = shortcuts else {
                break;
            };
            graph.contract(v, shortcuts, &mut gone_near);
            rank[v as usize] = next;
            next += 1;
        }
        graph.into_hierarchy(rank)
    }

    /// Contracts the graph whose edges are `adjacent` (as
    /// [`build`](Self::build) takes them) in the given `order` of its
    /// subgoals, those left out staying in the core: no priorities to
    /// compute, one set of witness searches per subgoal. Meant for a graph
    /// a little different from one [`build`](Self::build) ranked, in its
    /// order. A subgoal that needs more than [`MAX_SHORTCUTS`] shortcuts
    /// or has more than [`MAX_DEGREE`] edges stays in the core (the core
    /// is any set of subgoals left uncontracted); contraction stops past
    /// `deadline`.
    pub(super) fn build_in_order(
        adjacent: Vec<Vec<(u32, f64)>>, order: &[u32], deadline: Option<Instant>,
    ) -> Hierarchy {
        let n = adjacent.len();
        let mut graph = Graph::new(adjacent);
        let mut gone_near = vec![0u32; n];
        let mut scratch = Witness::new(n);
        let mut rank = vec![u32::MAX; n];
        let mut next = 0u32;
        for (k, &v) in order.iter().enumerate() {
            if k % 64 == 0 && deadline.is_some_and(|d| Instant::now() >= d) {
                break;
            }
            // A subgoal listed twice (gone in one edit, back in the next)
            // is contracted once.
            if rank[v as usize] != u32::MAX {
                continue;
            }
            // One that needs too many stays in the core, and the rest go on.
            let Some(shortcuts) = graph.priority(v, &gone_near, &mut scratch).1 else {
                continue;
            };
            graph.contract(v, shortcuts, &mut gone_near);
            rank[v as usize] = next;
            next += 1;
        }
        graph.into_hierarchy(rank)
    }

    /// The order in which the subgoals were contracted (the core left
    /// out).
    pub(super) fn order(&self) -> Vec<u32> {
        let mut order: Vec<u32> = (0..self.rank.len() as u32)
            .filter(|&v| self.rank[v as usize] != u32::MAX)
            .collect();
        order.sort_unstable_by_key(|&v| self.rank[v as usize]);
        order
    }

    /// The hierarchy of `rank` whose subgoals have the edges of
    /// `climbing` to higher ranks (and, in the core, to the rest of the
    /// core), and the reverse of those as their descending edges.
    fn from_lists(rank: Vec<u32>, climbing: Vec<Vec<Arc>>) -> Hierarchy {
        let mut descending: Vec<Vec<Arc>> = vec![Vec::new(); rank.len()];
        for (v, list) in climbing.iter().enumerate() {
            if rank[v] != u32::MAX {
                for a in list {
                    descending[a.to as usize].push(Arc { to: v as u32, ..*a });
                }
            }
        }
        let mut offsets = Vec::with_capacity(rank.len() + 1);
        let mut splits = Vec::with_capacity(rank.len());
        let mut arcs = Vec::new();
        offsets.push(0);
        for (mut down, mut up) in descending.into_iter().zip(climbing) {
            down.sort_unstable_by_key(|a| a.to);
            up.sort_unstable_by_key(|a| a.to);
            arcs.extend_from_slice(&down);
            splits.push(arcs.len() as u32);
            arcs.extend_from_slice(&up);
            offsets.push(arcs.len() as u32);
        }
        Hierarchy {
            rank,
            offsets,
            splits,
            arcs,
        }
    }

    /// The edges of subgoal `i` to lower ranks, by the other end.
    #[inline]
    pub(super) fn down(&self, i: usize) -> &[Arc] {
        &self.arcs[self.offsets[i] as usize..self.splits[i] as usize]
    }

    /// The edges of subgoal `i` to higher ranks (and, in the core, to the
    /// rest of the core), by the other end.
    #[inline]
    pub(super) fn up(&self, i: usize) -> &[Arc] {
        &self.arcs[self.splits[i] as usize..self.offsets[i + 1] as usize]
    }

    /// The edge from `i` to `j`, one of them ranked below the other or both
    /// in the core.
    pub(super) fn arc(&self, i: usize, j: u32) -> Option<&Arc> {
        let find =
            |list: &'_ [Arc]| -> Option<usize> { list.binary_search_by_key(&j, |a| a.to).ok() };
        let (down, up) = (self.down(i), self.up(i));
        find(down)
            .map(|k| &down[k])
            .or_else(|| find(up).map(|k| &up[k]))
    }

    /// Bytes in memory.
    pub(super) fn memory_bytes(&self) -> usize {
        self.rank.len() * 4 + self.offsets.len() * 4 + self.splits.len() * 4 + self.arcs.len() * 16
    }

    /// The number of subgoals left uncontracted.
    pub(super) fn core(&self) -> usize {
        self.rank.iter().filter(|&&r| r == u32::MAX).count()
    }

    /// The number of edges, each direction counted.
    pub(super) fn arc_count(&self) -> usize {
        self.arcs.len()
    }

    /// Appends to `out` the subgoals the edge from `i` to `j` stands for,
    /// `j` last and `i` not at all. Each middle is ranked below both ends
    /// of its shortcut (the build makes it so and a loaded file is checked
    /// for it), so this ends; it keeps its own stack, however deep.
    pub(super) fn unpack(&self, i: u32, j: u32, out: &mut Vec<u32>) {
        // Edges still to unpack, the next one on top.
        let mut todo = vec![(i, j)];
        while let Some((a, b)) = todo.pop() {
            match self.arc(a as usize, b) {
                Some(e) if e.middle != NO_MIDDLE => {
                    todo.push((e.middle, b));
                    todo.push((a, e.middle));
                }
                _ => out.push(b),
            }
        }
    }

    /// The climbing edges of subgoal `i` as saved: the other end and the
    /// middle of each.
    pub(super) fn saved_arcs(&self, i: usize) -> impl Iterator<Item = (u32, u32)> + '_ {
        self.up(i).iter().map(|a| (a.to, a.middle))
    }

    /// The hierarchy of a saved file: each subgoal's `rank`, and its
    /// climbing edges (`(other end, middle)`, by the other end), with
    /// `base(i, j)` the cost of the subgoal graph's edge from `i` to `j`
    /// (`None` if there is none). Every edge is checked to climb, every
    /// shortcut's middle to be ranked below both ends and linked to each,
    /// and every other edge to be the graph's; the costs are computed
    /// again from those. `Err((subgoal, edge))` names the first edge that
    /// fails (`edge` one past the subgoal's last for a bad rank).
    pub(super) fn from_saved(
        rank: Vec<u32>, arcs: &[Vec<(u32, u32)>], base: impl Fn(usize, u32) -> Option<f64>,
    ) -> Result<Hierarchy, (u64, u64)> {
        let count = rank.len();
        if count == 0 {
            // As a build leaves a graph without subgoals.
            return Ok(Hierarchy::default());
        }
        if let Some(i) = rank
            .iter()
            .position(|&r| r != u32::MAX && r as usize >= count)
        {
            return Err((i as u64, arcs[i].len() as u64));
        }
        let mut climbing: Vec<Vec<Arc>> = vec![Vec::new(); count];
        // By rank: a shortcut's halves climb from its middle, which is
        // ranked below it, so their costs are known when it is read.
        let mut order: Vec<u32> = (0..count as u32).collect();
        order.sort_by_key(|&i| rank[i as usize]);
        for &i in &order {
            let i = i as usize;
            let own = rank[i];
            let mut list: Vec<Arc> = Vec::with_capacity(arcs[i].len());
            for (k, &(to, middle)) in arcs[i].iter().enumerate() {
                let bad = Err((i as u64, k as u64));
                let Some(&rt) = rank.get(to as usize) else {
                    return bad;
                };
                let sorted = list.last().is_none_or(|a| a.to < to);
                let climbs = rt > own || (rt == u32::MAX && own == u32::MAX && to as usize != i);
                if !sorted || !climbs {
                    return bad;
                }
                let cost = if middle == NO_MIDDLE {
                    base(i, to)
                } else {
                    let half = |end: u32| -> Option<f64> {
                        let list: &[Arc] = climbing.get(middle as usize)?;
                        let k = list.binary_search_by_key(&end, |a| a.to).ok()?;
                        Some(list[k].cost)
                    };
                    let below = rank
                        .get(middle as usize)
                        .is_some_and(|&m| m < own && m < rt);
                    match (below, half(i as u32), half(to)) {
                        (true, Some(a), Some(b)) => Some(a + b),
                        _ => None,
                    }
                };
                let Some(cost) = cost else {
                    return bad;
                };
                list.push(Arc { to, middle, cost });
            }
            climbing[i] = list;
        }
        Ok(Hierarchy::from_lists(rank, climbing))
    }
}
