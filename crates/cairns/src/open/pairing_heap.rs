//! A pairing heap in an index-based arena.

use super::order::{decode, encode};
use super::slots::Arena;
use super::{Key, OpenSet};
use crate::graph::NodeId;

/// No arena slot.
const NIL: u32 = u32::MAX;

/// A pairing heap (Fredman, Sedgewick, Sleator and Tarjan, 1986): a
/// heap-ordered multiway tree kept as first-child / next-sibling links, with
/// two-pass pairing on delete-min and decrease-key by cutting the node's
/// subtree and melding it with the root.
///
/// | operation | cost |
/// |---|---|
/// | push | `O(1)` |
/// | pop | `O(log n)` amortised |
/// | key (membership) | `O(1)` |
/// | `decrease_key` | `O(1)` actual; amortised `O(2^(2 sqrt(log log n)))` |
/// | clear | `O(1)` |
///
/// The pairing heap was proposed as a simple self-adjusting alternative to
/// the Fibonacci heap. Its decrease-key bound is still open: Fredman showed
/// an amortised `Omega(log log n)` lower bound (1999) and Pettie the upper
/// bound in the table (2005). Experiments (Stasko and Vitter, 1987; Moret and Shapiro,
/// 1991; Larkin, Sen and Tarjan, 2014) find it among the fastest heaps when
/// decrease-keys are frequent, though pointer chasing makes it slower than
/// array heaps when they are rare, as in A* on grids.
///
/// Entries live in a compact arena of 32-byte slots linked by `u32`
/// indices, each holding its key as a 128-bit integer (see
/// [`IndexedBinaryHeap`](super::IndexedBinaryHeap)) so a comparison is one
/// integer compare. Freed slots are reused last-in first-out, so the slots
/// in use stay few and warm in the cache; the arena stops growing once it
/// holds the largest OPEN set. A node's slot is recorded in a dense array
/// that is never cleared: it is trusted only when the slot holds that node.
/// Among equal keys, the entry already at a root stays the root of a meld.
///
/// Under a landmark heuristic, where A* pushes many entries that will
/// never be popped and performs more decrease-keys than expansions, this
/// is the fastest OPEN set in the catalogue (see
/// `docs/differential-heuristics.md`); under the octile heuristic it is
/// slower than the default heap.
#[derive(Clone, Debug)]
pub struct PairingHeap {
    arena: Arena<Slot>,
    root: u32,
}

/// An entry and its links: 32 bytes, two to a cache line.
#[derive(Clone, Copy, Debug)]
struct Slot {
    /// The key, encoded by [`encode`].
    order: u128,
    /// The node, or [`NodeId::NONE`] in a free slot.
    node: NodeId,
    /// The first child, or `NIL`.
    child: u32,
    /// The next sibling, or `NIL`; a chain link during pairing.
    next: u32,
    /// The previous sibling, or the parent for a first child; `NIL` at the
    /// root.
    prev: u32,
}

super::slots::node_field_holder!(Slot);

impl Default for PairingHeap {
    fn default() -> Self {
        PairingHeap {
            arena: Arena::default(),
            root: NIL,
        }
    }
}

impl PairingHeap {
    /// An empty heap.
    pub fn new() -> Self {
        Self::default()
    }

    /// The slot at arena index `i`, which must be a link read from the heap
    /// (not `NIL`).
    #[inline]
    fn at(&self, i: u32) -> &Slot {
        debug_assert!((i as usize) < self.arena.len());
        // SAFETY: links and free-list entries are `NIL` (never followed)
        // or indices of slots pushed since the last `clear`, and the arena
        // only shrinks in `clear`, which also drops the root and the free
        // list; every other index comes from `Slots::find`, which
        // bounds-checks it.
        unsafe { self.arena.get_unchecked(i as usize) }
    }

    /// [`at`](Self::at), mutably.
    #[inline]
    fn at_mut(&mut self, i: u32) -> &mut Slot {
        debug_assert!((i as usize) < self.arena.len());
        // SAFETY: as in `at`.
        unsafe { self.arena.get_unchecked_mut(i as usize) }
    }

    /// Makes the heap-ordered trees rooted at `a` and `b` one, returning its
    /// root: the loser becomes the winner's first child. The winner's own
    /// `next` and `prev` are left for the caller; on a tie `a` wins.
    #[inline]
    fn link(&mut self, a: u32, b: u32) -> u32 {
        let (winner, loser) = if self.at(b).order < self.at(a).order {
            (b, a)
        } else {
            (a, b)
        };
        let first = self.at(winner).child;
        let l = self.at_mut(loser);
        l.next = first;
        l.prev = winner;
        if first != NIL {
            self.at_mut(first).prev = loser;
        }
        self.at_mut(winner).child = loser;
        winner
    }

    /// Two-pass pairing of the sibling list starting at `first`: link
    /// neighbours left to right, then fold the results right to left.
    /// The first pass keeps its results on a stack threaded through `next`,
    /// so no buffer is needed. Returns the new root (or `NIL`).
    fn pair_up(&mut self, first: u32) -> u32 {
        if first == NIL {
            return NIL;
        }
        let mut stack = NIL;
        let mut cur = first;
        while cur != NIL {
            let a = cur;
            let b = self.at(a).next;
            if b == NIL {
                self.at_mut(a).next = stack;
                stack = a;
                break;
            }
            cur = self.at(b).next;
            let m = self.link(a, b);
            self.at_mut(m).next = stack;
            stack = m;
        }
        let mut root = stack;
        let mut rest = self.at(root).next;
        while rest != NIL {
            let t = rest;
            rest = self.at(t).next;
            root = self.link(t, root);
        }
        let r = self.at_mut(root);
        r.next = NIL;
        r.prev = NIL;
        root
    }
}

impl OpenSet for PairingHeap {
    fn prepare(&mut self, node_bound: usize) {
        // Room for every node, so that no later search allocates (as the
        // default heap does).
        self.arena.reserve(node_bound);
    }

    #[inline]
    fn push(&mut self, node: NodeId, key: Key) {
        if self.arena.lacks_room(node) {
            self.prepare(node.index() + 1);
        }
        let slot = Slot {
            order: encode(key),
            node,
            child: NIL,
            next: NIL,
            prev: NIL,
        };
        let i = self.arena.store(slot);
        self.root = if self.root == NIL {
            i
        } else {
            self.link(self.root, i)
        };
    }

    #[inline]
    fn pop(&mut self) -> Option<(NodeId, Key)> {
        if self.root == NIL {
            return None;
        }
        let r = self.root;
        let slot = self.at_mut(r);
        let (order, node, child) = (slot.order, slot.node, slot.child);
        slot.node = NodeId::NONE;
        self.arena.release(r);
        self.root = self.pair_up(child);
        Some((node, decode(order)))
    }

    fn key(&self, node: NodeId) -> Option<Key> {
        self.arena.find(node).map(|i| decode(self.arena[i].order))
    }

    #[inline]
    fn decrease_key(&mut self, node: NodeId, key: Key) {
        let Some(i) = self.arena.find(node) else {
            self.push(node, key);
            return;
        };
        let order = encode(key);
        let slot = &mut self.arena[i];
        debug_assert!(order <= slot.order, "decrease_key raised a key");
        slot.order = order;
        let i = i as u32;
        if i == self.root {
            return;
        }
        // Cut the subtree at `i` out of its sibling list and meld it with
        // the root.
        let (prev, next) = (slot.prev, slot.next);
        slot.prev = NIL;
        slot.next = NIL;
        if self.at(prev).child == i {
            self.at_mut(prev).child = next;
        } else {
            self.at_mut(prev).next = next;
        }
        if next != NIL {
            self.at_mut(next).prev = prev;
        }
        self.root = self.link(self.root, i);
    }

    const PEEKS: bool = true;

    #[inline]
    fn precedes_all(&self, key: Key) -> bool {
        self.root == NIL || encode(key) < self.at(self.root).order
    }

    fn clear(&mut self) {
        self.arena.clear();
        self.root = NIL;
    }

    #[inline]
    fn len(&self) -> usize {
        self.arena.live()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decrease_key_deep_in_the_tree_then_reuse_the_arena() {
        let mut h = PairingHeap::new();
        // The first pop pairs the 199 children into a deeper tree.
        crate::open::conformance::deep_decrease_key(&mut h);
        // The arena was reused, not grown.
        h.push(NodeId(5), Key::new(1.0, 0.0));
        assert_eq!(h.arena.len(), 200);
        assert_eq!(h.key(NodeId(5)), Some(Key::new(1.0, 0.0)));
        assert_eq!(h.key(NodeId(6)), None);
    }
}
