//! OPEN sets: the priority queues that hold A*'s frontier.
//!
//! Every structure implements [`OpenSet`], the handful of operations A*
//! performs on its frontier, and is a type parameter of
//! [`SearchCache`](crate::search::SearchCache) with [`IndexedBinaryHeap`] as
//! the default.
//!
//! # Order
//!
//! Entries are ordered by [`Key`]: smaller `f` first and, among equal `f`,
//! larger `g` first (the node deeper along its path, which is closer to the
//! goal under a consistent heuristic). Entries with equal `f` and `g` come
//! out in an order that depends on the structure but is deterministic.

#[cfg(test)]
pub(crate) mod astar_test;
mod bucket_queue;
mod classic_binary_heap;
mod hash_table;
mod hot_queue;
mod indexed_array;
mod indexed_binary_heap;
mod lazy_binary_heap;
#[cfg(test)]
pub(crate) mod model_test;
mod pairing_heap;
mod placed;
mod quaternary_heap;
mod radix_heap;
mod skip_list;
mod sorted_array;
mod sorted_list;
mod splay_tree;
mod two_level_queue;
mod unsorted_array;

pub use bucket_queue::BucketQueue;
pub use classic_binary_heap::ClassicBinaryHeap;
pub use hash_table::HashTable;
pub use hot_queue::HotQueue;
pub use indexed_array::IndexedArray;
pub use indexed_binary_heap::IndexedBinaryHeap;
pub use lazy_binary_heap::LazyBinaryHeap;
pub use pairing_heap::PairingHeap;
pub use quaternary_heap::QuaternaryHeap;
pub use radix_heap::RadixHeap;
pub use skip_list::SkipList;
pub use sorted_array::SortedArray;
pub use sorted_list::SortedList;
pub use splay_tree::SplayTree;
pub use two_level_queue::TwoLevelQueue;
pub use unsorted_array::UnsortedArray;

use crate::graph::NodeId;

/// The priority of an OPEN entry: `f = g + h`, with `g` to break ties.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Key {
    /// Estimated cost of a path through the node: `g + h`.
    pub f: f64,
    /// Cost of the best known path from the start to the node.
    pub g: f64,
}

impl Key {
    /// A key from `g` and `h`.
    #[inline]
    pub fn new(g: f64, h: f64) -> Key {
        Key { f: g + h, g }
    }

    /// Whether `self` comes out of OPEN before `other`: smaller `f`, then
    /// larger `g`.
    #[inline]
    pub fn precedes(self, other: Key) -> bool {
        self.f < other.f || (self.f == other.f && self.g > other.g)
    }
}

/// The operations A* performs on its OPEN set.
///
/// Node ids are dense (below the bound given to [`prepare`](OpenSet::prepare)),
/// and a node is in the set at most once, except in structures that say
/// otherwise (see [`decrease_key`](OpenSet::decrease_key)).
pub trait OpenSet {
    /// Makes room for nodes `0..node_bound`. Called at the start of every
    /// search; must be cheap when the bound has not grown.
    fn prepare(&mut self, node_bound: usize);

    /// Adds a node that is not in the set.
    fn push(&mut self, node: NodeId, key: Key);

    /// Removes and returns the entry that [precedes](Key::precedes) all
    /// others.
    fn pop(&mut self) -> Option<(NodeId, Key)>;

    /// The key of `node` if it is in the set (membership).
    fn key(&self, node: NodeId) -> Option<Key>;

    /// Gives `node`, which is in the set, a key that precedes its current one
    /// (the "re-sort an existing item" step).
    ///
    /// A structure without decrease-key may instead push a second entry and
    /// later return the stale one from `pop`; A* recognises and skips stale
    /// entries, since their `g` is worse than the node's recorded `g`.
    fn decrease_key(&mut self, node: NodeId, key: Key);

    /// Removes every entry.
    fn clear(&mut self);

    /// Number of entries.
    fn len(&self) -> usize;

    /// Whether there are no entries.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
