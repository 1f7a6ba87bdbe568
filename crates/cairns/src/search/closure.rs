//! A* for ad-hoc graphs described by closures.

use std::cmp::Ordering;
use std::collections::hash_map::Entry;
use std::collections::{BinaryHeap, HashMap};
use std::hash::Hash;
use std::ops::Add;

use super::Path;

/// A* on a graph given by closures, for nodes of any hashable type and any
/// cost type with addition and a zero (`Default`), as in the `pathfinding`
/// crate's `astar`.
///
/// - `successors(&n)` lists the neighbours of `n` with the cost of each edge;
/// - `heuristic(&n)` is a lower bound on the cost from `n` to a goal;
/// - `is_goal(&n)` says whether `n` is a goal.
///
/// Returns the path to the first goal expanded and its cost, or `None` when
/// no goal is reachable.
///
/// # Contract
///
/// Costs are non-negative and the heuristic admissible; then the path is a
/// shortest one. Costs whose comparison is partial (floats) must not be NaN.
/// Ties among equal `f` go to the larger `g`, as in [`AStar`](super::AStar).
///
/// # Complexity
///
/// `O((V + E) log V)` time plus hashing. This is the convenient tier: it
/// allocates per call. For speed use [`AStar`](super::AStar) over the
/// [`Graph`](crate::graph::Graph) trait.
///
/// # Example
///
/// ```
/// use cairns::search::astar_fn;
///
/// // A knight's moves on an unbounded board, from (0, 0) to (4, 6).
/// let goal = (4i32, 6i32);
/// let path = astar_fn(
///     &(0i32, 0i32),
///     |&(x, y)| {
///         [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]
///             .map(|(dx, dy)| ((x + dx, y + dy), 1u32))
///     },
///     |&(x, y)| (goal.0.abs_diff(x) + goal.1.abs_diff(y)) / 3,
///     |&n| n == goal,
/// )
/// .unwrap();
/// assert_eq!(path.cost, 4);
/// assert_eq!(path.nodes.len(), 5);
/// ```
pub fn astar_fn<N, C, FN, IN, FH, FG>(
    start: &N, mut successors: FN, mut heuristic: FH, mut is_goal: FG,
) -> Option<Path<N, C>>
where
    N: Eq + Hash + Clone,
    C: Copy + PartialOrd + Add<Output = C> + Default,
    FN: FnMut(&N) -> IN,
    IN: IntoIterator<Item = (N, C)>,
    FH: FnMut(&N) -> C,
    FG: FnMut(&N) -> bool,
{
    struct Item<C> {
        f: C,
        g: C,
        index: usize,
    }
    impl<C: PartialOrd> PartialEq for Item<C> {
        fn eq(&self, other: &Self) -> bool {
            self.cmp(other) == Ordering::Equal
        }
    }
    impl<C: PartialOrd> Eq for Item<C> {}
    impl<C: PartialOrd> PartialOrd for Item<C> {
        fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
            Some(self.cmp(other))
        }
    }
    impl<C: PartialOrd> Ord for Item<C> {
        // BinaryHeap is a max-heap: "greater" pops first.
        fn cmp(&self, other: &Self) -> Ordering {
            other
                .f
                .partial_cmp(&self.f)
                .unwrap_or(Ordering::Equal)
                .then_with(|| self.g.partial_cmp(&other.g).unwrap_or(Ordering::Equal))
        }
    }

    // Dense records for the nodes seen so far: (node, parent index, g, closed).
    let mut nodes: Vec<(N, usize, C, bool)> =
        vec![(start.clone(), usize::MAX, C::default(), false)];
    let mut index: HashMap<N, usize> = HashMap::new();
    index.insert(start.clone(), 0);
    let mut open = BinaryHeap::new();
    open.push(Item {
        f: heuristic(start),
        g: C::default(),
        index: 0,
    });
    while let Some(Item { g, index: u, .. }) = open.pop() {
        let (_, _, gu, closed) = nodes[u];
        if closed || g > gu {
            continue;
        }
        nodes[u].3 = true;
        if is_goal(&nodes[u].0) {
            let mut path = Vec::new();
            let mut i = u;
            while i != usize::MAX {
                path.push(nodes[i].0.clone());
                i = nodes[i].1;
            }
            path.reverse();
            return Some(Path {
                nodes: path,
                cost: gu,
            });
        }
        let current = nodes[u].0.clone();
        for (v, cost) in successors(&current) {
            let gv = gu + cost;
            let i = match index.entry(v) {
                Entry::Vacant(e) => {
                    let i = nodes.len();
                    nodes.push((e.key().clone(), u, gv, false));
                    let f = gv + heuristic(e.key());
                    e.insert(i);
                    open.push(Item { f, g: gv, index: i });
                    continue;
                }
                Entry::Occupied(e) => *e.get(),
            };
            if gv < nodes[i].2 {
                let f = gv + heuristic(&nodes[i].0);
                nodes[i].1 = u;
                nodes[i].2 = gv;
                nodes[i].3 = false;
                open.push(Item { f, g: gv, index: i });
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unreachable_and_trivial() {
        let none: Option<Path<u32, u32>> = astar_fn(
            &0u32,
            |&n| (n < 5).then_some((n + 1, 1u32)),
            |_| 0,
            |&n| n == 9,
        );
        assert_eq!(none, None);
        let p = astar_fn(&3u32, |&n| [(n + 1, 1.5f64)], |_| 0.0, |&n| n == 3).unwrap();
        assert_eq!(p.cost, 0.0);
        assert_eq!(p.nodes, [3]);
    }

    #[test]
    fn finds_cheaper_longer_route() {
        // 0 -> 3 directly costs 10; 0 -> 1 -> 2 -> 3 costs 3.
        let edges = |n: &u8| -> Vec<(u8, f64)> {
            match n {
                0 => vec![(3, 10.0), (1, 1.0)],
                1 => vec![(2, 1.0)],
                2 => vec![(3, 1.0)],
                _ => vec![],
            }
        };
        let p = astar_fn(&0u8, edges, |_| 0.0, |&n| n == 3).unwrap();
        assert_eq!(p.nodes, [0, 1, 2, 3]);
        assert_eq!(p.cost, 3.0);
    }
}
