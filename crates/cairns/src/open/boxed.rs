//! An OPEN set chosen at run time: any structure behind one pointer, for
//! the places that pick a structure by name ([`crate::spec`]) and should
//! not compile every search once per structure.

use super::{Key, OpenKind, OpenSet};
use crate::graph::NodeId;

/// The operations of [`OpenSet`] as an object (the trait's constants
/// make it no object itself).
trait DynOpenSet: Send {
    fn prepare(&mut self, node_bound: usize);
    fn push(&mut self, node: NodeId, key: Key);
    fn pop(&mut self) -> Option<(NodeId, Key)>;
    fn key(&self, node: NodeId) -> Option<Key>;
    fn decrease_key(&mut self, node: NodeId, key: Key);
    fn precedes_all(&self, key: Key) -> bool;
    fn clear(&mut self);
    fn len(&self) -> usize;
}

impl<Q: OpenSet + Send> DynOpenSet for Q {
    fn prepare(&mut self, node_bound: usize) {
        OpenSet::prepare(self, node_bound);
    }
    fn push(&mut self, node: NodeId, key: Key) {
        OpenSet::push(self, node, key);
    }
    fn pop(&mut self) -> Option<(NodeId, Key)> {
        OpenSet::pop(self)
    }
    fn key(&self, node: NodeId) -> Option<Key> {
        OpenSet::key(self, node)
    }
    fn decrease_key(&mut self, node: NodeId, key: Key) {
        OpenSet::decrease_key(self, node, key);
    }
    fn precedes_all(&self, key: Key) -> bool {
        OpenSet::precedes_all(self, key)
    }
    fn clear(&mut self) {
        OpenSet::clear(self);
    }
    fn len(&self) -> usize {
        OpenSet::len(self)
    }
}

/// An OPEN set of any structure behind one pointer, with the structure's
/// [`PEEKS`](OpenSet::PEEKS) as its own (`P`) and [`STALE`](OpenSet::STALE)
/// always `true`, so that a search over it takes the same steps, and
/// counts the same, as over the structure itself (the loop's check for a
/// stale entry never fires on a structure that holds none); each operation
/// costs one indirect call more. [`BoxedOpen::of`] makes one of the two
/// kinds: two copies of each search, not four.
pub struct DynOpen<const P: bool>(Box<dyn DynOpenSet>);

impl<const P: bool> std::fmt::Debug for DynOpen<P> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DynOpen")
            .field("len", &self.0.len())
            .finish_non_exhaustive()
    }
}

impl<const P: bool> OpenSet for DynOpen<P> {
    const STALE: bool = true;
    const PEEKS: bool = P;

    #[inline]
    fn prepare(&mut self, node_bound: usize) {
        self.0.prepare(node_bound);
    }
    #[inline]
    fn push(&mut self, node: NodeId, key: Key) {
        self.0.push(node, key);
    }
    #[inline]
    fn pop(&mut self) -> Option<(NodeId, Key)> {
        self.0.pop()
    }
    #[inline]
    fn key(&self, node: NodeId) -> Option<Key> {
        self.0.key(node)
    }
    #[inline]
    fn decrease_key(&mut self, node: NodeId, key: Key) {
        self.0.decrease_key(node, key);
    }
    #[inline]
    fn precedes_all(&self, key: Key) -> bool {
        self.0.precedes_all(key)
    }
    #[inline]
    fn clear(&mut self) {
        self.0.clear();
    }
    #[inline]
    fn len(&self) -> usize {
        self.0.len()
    }
}

/// A [`DynOpen`] of one of the two kinds a structure's
/// [`PEEKS`](OpenSet::PEEKS) makes.
#[derive(Debug)]
pub enum BoxedOpen {
    /// Peeks.
    Peeks(DynOpen<true>),
    /// Does not peek.
    Plain(DynOpen<false>),
}

impl BoxedOpen {
    /// A new, empty OPEN set of `kind`, boxed.
    pub fn of(kind: OpenKind) -> BoxedOpen {
        fn boxed<Q: OpenSet + Default + Send + 'static>() -> BoxedOpen {
            let open: Box<dyn DynOpenSet> = Box::new(Q::default());
            if Q::PEEKS {
                BoxedOpen::Peeks(DynOpen(open))
            } else {
                BoxedOpen::Plain(DynOpen(open))
            }
        }
        crate::with_open_set!(kind, |Q| boxed::<Q>())
    }
}

/// Binds `$open` to a new OPEN set of `$kind` and evaluates `$body`: the
/// 4-ary heap (the default) and the pairing heap (the default under a
/// landmark heuristic) as themselves, every other structure as a
/// [`DynOpen`], so that `$body` is compiled four times, not once per
/// structure. A search over a boxed structure takes the same steps as
/// over the structure itself, each OPEN operation through one indirect
/// call; code that compares structures' speed uses
/// [`with_open_set!`](crate::with_open_set) instead.
#[macro_export]
macro_rules! with_boxed_open {
    ($kind:expr, |$open:ident| $body:expr) => {{
        let kind: $crate::open::OpenKind = $kind;
        match kind {
            $crate::open::OpenKind::QuaternaryHeap => {
                let $open = $crate::open::QuaternaryHeap::default();
                $body
            }
            $crate::open::OpenKind::PairingHeap => {
                let $open = $crate::open::PairingHeap::default();
                $body
            }
            other => match $crate::open::BoxedOpen::of(other) {
                $crate::open::BoxedOpen::Peeks($open) => $body,
                $crate::open::BoxedOpen::Plain($open) => $body,
            },
        }
    }};
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{DIAGONAL, Grid, GridGraph, Neighborhood};
    use crate::heuristic::Octile;
    use crate::search::{AStar, Search, SearchCache};

    /// A search over every structure boxed takes the steps it takes over
    /// the structure itself: the same cost and the same statistics.
    #[test]
    fn boxed_structures_search_as_themselves() {
        let grid = Grid::from_ascii(
            "
            ..@.....
            ..@.@@..
            ....@...
            .@@.@.@.
            ........",
        )
        .unwrap();
        let graph = GridGraph::new(grid, Neighborhood::Octile);
        let astar = AStar::new(&graph, Octile::new(&graph));
        let (start, goal) = (graph.node(0, 0).unwrap(), graph.node(7, 0).unwrap());
        for kind in OpenKind::ALL {
            let direct = crate::with_open_set!(kind, |Q| {
                let mut cache = SearchCache::with_open(Q::default());
                (astar.search_cost(start, goal, &mut cache), cache.stats())
            });
            let boxed = with_boxed_open!(kind, |open| {
                let mut cache = SearchCache::with_open(open);
                (astar.search_cost(start, goal, &mut cache), cache.stats())
            });
            assert_eq!(boxed, direct, "{kind}");
            assert!(direct.0.unwrap() >= 7.0 + DIAGONAL - 1e-9);
        }
    }
}
