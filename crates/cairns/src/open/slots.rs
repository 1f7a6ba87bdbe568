//! The position array of the OPEN sets that find a node's entry by its id:
//! a dense array, indexed by node id, of where each node's entry is in the
//! structure's own storage (a heap slot, an arena cell, a [`Place`]).
//!
//! The array is never cleared: a position is trusted only when the storage
//! it names holds that node there, which makes `clear` free and keeps a
//! batch of searches from touching memory for nodes they never reach.
//! Every reader therefore passes a `holds` check along with the node.
//!
//! [`IndexedBinaryHeap`](super::IndexedBinaryHeap) and
//! [`PairingHeap`](super::PairingHeap) index theirs without bounds checks
//! on their hot paths (through `Deref`), with their own `SAFETY` notes.
//!
//! The sets that link their entries by index (pairing heap, splay tree,
//! sorted list) keep them in an [`Arena`]: the cells, the free list and
//! this array together.
//!
//! [`Place`]: super::placed::Place

use std::ops::{Deref, DerefMut};

use super::Key;
use crate::graph::NodeId;

/// Where each node's entry is, by node id; see the module docs.
#[derive(Clone, Debug, Default)]
pub(super) struct Slots<T = u32>(Vec<T>);

impl<T: Copy + Default> Slots<T> {
    /// Makes room for nodes `0..node_bound`.
    #[inline]
    pub(super) fn prepare(&mut self, node_bound: usize) {
        if self.0.len() < node_bound {
            self.0.resize(node_bound, T::default());
        }
    }

    /// The position recorded for `node`, if `holds` confirms that the
    /// storage holds `node` there.
    #[inline]
    pub(super) fn get(&self, node: NodeId, holds: impl FnOnce(T) -> bool) -> Option<T> {
        let at = *self.0.get(node.index())?;
        holds(at).then_some(at)
    }

    /// What is recorded for `node` (the default when nothing ever was),
    /// for arrays whose values need no `holds` check: the keys of the
    /// array-based sets, `None` for a node not on OPEN.
    #[inline]
    pub(super) fn at(&self, node: NodeId) -> T {
        self.0.get(node.index()).copied().unwrap_or_default()
    }

    /// Records `at` for `node`, making room for it first when it is beyond
    /// the nodes prepared for.
    #[inline]
    pub(super) fn put(&mut self, node: NodeId, at: T) {
        if self.0.len() <= node.index() {
            self.prepare(node.index() + 1);
        }
        self.0[node.index()] = at;
    }

    /// Records `at` as the position of `node`, which has room.
    #[inline]
    pub(super) fn set(&mut self, node: NodeId, at: T) {
        self.0[node.index()] = at;
    }
}

impl Slots<Option<Key>> {
    /// Records the key of `node`, which has none (it is not on OPEN):
    /// the push of the array-based sets.
    #[inline]
    pub(super) fn insert_key(&mut self, node: NodeId, key: Key) {
        debug_assert!(self.at(node).is_none(), "node {node} pushed twice");
        self.put(node, Some(key));
    }
}

impl Slots {
    /// The index of `node`'s element in `storage`, if the position recorded
    /// for it names an element that holds it.
    #[inline]
    pub(super) fn find<E: Holder>(&self, node: NodeId, storage: &[E]) -> Option<usize> {
        let i = *self.0.get(node.index())? as usize;
        storage
            .get(i)
            .is_some_and(|e| e.node() == node)
            .then_some(i)
    }

    /// Before a push of `node`: checks in debug builds that `storage` does
    /// not hold it, and makes room for it.
    #[inline]
    pub(super) fn claim<E: Holder>(&mut self, node: NodeId, storage: &[E]) {
        if self.lacks_room(node, storage) {
            self.prepare(node.index() + 1);
        }
    }

    /// Before a push of `node`: checks in debug builds that `storage` does
    /// not hold it, and says whether the array has no room for it yet, for
    /// a structure that then prepares more than the array.
    #[inline]
    pub(super) fn lacks_room<E: Holder>(&self, node: NodeId, storage: &[E]) -> bool {
        debug_assert!(
            self.find(node, storage).is_none(),
            "node {node} pushed twice"
        );
        self.0.len() <= node.index()
    }
}

/// The storage of the OPEN sets that link their entries by `u32` indices
/// (pairing heap, splay tree, sorted list): the cells, the indices of
/// freed cells (reused last first, so that the cells in use stay few and
/// warm in the cache, and the arena stops growing once it holds the
/// largest OPEN set), and where each node's cell is. Derefs to the cells.
#[derive(Clone, Debug)]
pub(super) struct Arena<E> {
    cells: Vec<E>,
    free: Vec<u32>,
    position: Slots,
}

impl<E> Default for Arena<E> {
    fn default() -> Self {
        Arena {
            cells: Vec::new(),
            free: Vec::new(),
            position: Slots::default(),
        }
    }
}

impl<E: Holder> Arena<E> {
    /// Makes room for the positions of nodes `0..node_bound`.
    #[inline]
    pub(super) fn prepare(&mut self, node_bound: usize) {
        self.position.prepare(node_bound);
    }

    /// [`prepare`](Self::prepare), and room for a cell per node, so that
    /// no later search allocates.
    pub(super) fn reserve(&mut self, node_bound: usize) {
        self.prepare(node_bound);
        reserve_total(&mut self.cells, node_bound);
        reserve_total(&mut self.free, node_bound);
    }

    /// The index of `node`'s cell, if it has one.
    #[inline]
    pub(super) fn find(&self, node: NodeId) -> Option<usize> {
        self.position.find(node, &self.cells)
    }

    /// Before a push of `node`: [`Slots::lacks_room`].
    #[inline]
    pub(super) fn lacks_room(&self, node: NodeId) -> bool {
        self.position.lacks_room(node, &self.cells)
    }

    /// Before a push of `node`: [`Slots::claim`].
    #[inline]
    pub(super) fn claim(&mut self, node: NodeId) {
        self.position.claim(node, &self.cells);
    }

    /// Stores `cell` in the cell that the free list gives back if there is
    /// one, else in a new one; records it as its node's and returns its
    /// index.
    #[inline]
    pub(super) fn store(&mut self, cell: E) -> u32 {
        let node = cell.node();
        let i = if let Some(i) = self.free.pop() {
            self.cells[i as usize] = cell;
            i
        } else {
            self.cells.push(cell);
            (self.cells.len() - 1) as u32
        };
        self.position.set(node, i);
        i
    }

    /// Frees cell `i`, which the caller has marked as holding
    /// [`NodeId::NONE`], for a later [`store`](Self::store).
    #[inline]
    pub(super) fn release(&mut self, i: u32) {
        debug_assert_eq!(self.cells[i as usize].node(), NodeId::NONE);
        self.free.push(i);
    }

    /// How many cells hold a node: those stored and not released.
    #[inline]
    pub(super) fn live(&self) -> usize {
        self.cells.len() - self.free.len()
    }

    /// Drops every cell (the positions stay, untrusted).
    pub(super) fn clear(&mut self) {
        self.cells.clear();
        self.free.clear();
    }
}

impl<E> Deref for Arena<E> {
    type Target = [E];

    #[inline]
    fn deref(&self) -> &[E] {
        &self.cells
    }
}

impl<E> DerefMut for Arena<E> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [E] {
        &mut self.cells
    }
}

/// Reserves room for `total` elements in `v`, so that it grows to that
/// many without allocating.
#[inline]
pub(super) fn reserve_total<T>(v: &mut Vec<T>, total: usize) {
    if v.capacity() < total {
        v.reserve(total - v.len());
    }
}

/// An element of a structure's storage: a heap entry, an arena cell.
pub(super) trait Holder {
    /// The node the element holds ([`NodeId::NONE`] in a free cell).
    fn node(&self) -> NodeId;
}

/// [`Holder`] for element types that keep their node in a field `node`.
macro_rules! node_field_holder {
    ($t:ty) => {
        impl $crate::open::slots::Holder for $t {
            #[inline]
            fn node(&self) -> $crate::graph::NodeId {
                self.node
            }
        }
    };
}
pub(super) use node_field_holder;

node_field_holder!(super::Entry);

impl Holder for NodeId {
    #[inline]
    fn node(&self) -> NodeId {
        *self
    }
}

impl<T> Deref for Slots<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        &self.0
    }
}

impl<T> DerefMut for Slots<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        &mut self.0
    }
}
