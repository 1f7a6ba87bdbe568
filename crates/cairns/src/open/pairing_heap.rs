//! A pairing heap in an index-based arena.

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
/// Nodes live in an arena of slots linked by `u32` indices; freed slots are
/// reused, so the arena stops growing once it holds the largest OPEN set.
/// A node's slot is recorded in a dense array that is never cleared: it is
/// trusted only when the slot holds that node. Among equal keys, the entry
/// already at a root stays the root of a meld.
#[derive(Clone, Debug)]
pub struct PairingHeap {
    arena: Vec<Slot>,
    free: Vec<u32>,
    position: Vec<u32>,
    root: u32,
    len: usize,
    /// Reused list of subtrees during two-pass pairing.
    pairs: Vec<u32>,
}

#[derive(Clone, Copy, Debug)]
struct Slot {
    key: Key,
    /// `NodeId::NONE` when the slot is free.
    node: NodeId,
    child: u32,
    next: u32,
    /// The previous sibling, or the parent for a first child, or `NIL` for
    /// the root.
    prev: u32,
}

impl Default for PairingHeap {
    fn default() -> Self {
        PairingHeap {
            arena: Vec::new(),
            free: Vec::new(),
            position: Vec::new(),
            root: NIL,
            len: 0,
            pairs: Vec::new(),
        }
    }
}

impl PairingHeap {
    /// An empty heap.
    pub fn new() -> Self {
        Self::default()
    }

    #[inline]
    fn slot(&self, node: NodeId) -> Option<usize> {
        let i = *self.position.get(node.index())? as usize;
        (i < self.arena.len() && self.arena[i].node == node).then_some(i)
    }

    /// Links two roots and returns the root of the result. `a` stays the
    /// root unless `b` strictly precedes it.
    #[inline]
    fn meld(&mut self, a: u32, b: u32) -> u32 {
        if a == NIL {
            return b;
        }
        if b == NIL {
            return a;
        }
        let (parent, child) = if self.arena[b as usize]
            .key
            .precedes(self.arena[a as usize].key)
        {
            (b, a)
        } else {
            (a, b)
        };
        let first = self.arena[parent as usize].child;
        {
            let c = &mut self.arena[child as usize];
            c.next = first;
            c.prev = parent;
        }
        if first != NIL {
            self.arena[first as usize].prev = child;
        }
        let p = &mut self.arena[parent as usize];
        p.child = child;
        p.next = NIL;
        p.prev = NIL;
        parent
    }

    /// Melds a list of sibling subtrees starting at `first`: left to right in
    /// pairs, then the pairs right to left.
    fn pair_up(&mut self, mut first: u32) -> u32 {
        self.pairs.clear();
        while first != NIL {
            let a = first;
            let b = self.arena[a as usize].next;
            if b == NIL {
                self.arena[a as usize].prev = NIL;
                self.pairs.push(a);
                break;
            }
            first = self.arena[b as usize].next;
            for x in [a, b] {
                let s = &mut self.arena[x as usize];
                s.next = NIL;
                s.prev = NIL;
            }
            let m = self.meld(a, b);
            self.pairs.push(m);
        }
        let mut root = NIL;
        while let Some(t) = self.pairs.pop() {
            root = self.meld(t, root);
        }
        root
    }
}

impl OpenSet for PairingHeap {
    fn prepare(&mut self, node_bound: usize) {
        if self.position.len() < node_bound {
            self.position.resize(node_bound, NIL);
        }
    }

    #[inline]
    fn push(&mut self, node: NodeId, key: Key) {
        debug_assert!(self.slot(node).is_none(), "node {node} pushed twice");
        if self.position.len() <= node.index() {
            self.prepare(node.index() + 1);
        }
        let slot = Slot {
            key,
            node,
            child: NIL,
            next: NIL,
            prev: NIL,
        };
        let i = if let Some(i) = self.free.pop() {
            self.arena[i as usize] = slot;
            i
        } else {
            self.arena.push(slot);
            (self.arena.len() - 1) as u32
        };
        self.position[node.index()] = i;
        self.root = self.meld(self.root, i);
        self.len += 1;
    }

    fn pop(&mut self) -> Option<(NodeId, Key)> {
        if self.root == NIL {
            return None;
        }
        let r = self.root as usize;
        let Slot {
            key, node, child, ..
        } = self.arena[r];
        self.arena[r].node = NodeId::NONE;
        self.free.push(r as u32);
        self.root = self.pair_up(child);
        self.len -= 1;
        Some((node, key))
    }

    fn key(&self, node: NodeId) -> Option<Key> {
        self.slot(node).map(|i| self.arena[i].key)
    }

    fn decrease_key(&mut self, node: NodeId, key: Key) {
        let Some(i) = self.slot(node) else {
            self.push(node, key);
            return;
        };
        debug_assert!(
            !self.arena[i].key.precedes(key),
            "decrease_key raised a key"
        );
        self.arena[i].key = key;
        let i = i as u32;
        if i == self.root {
            return;
        }
        // Cut the subtree of `i` out of its sibling list.
        let Slot { prev, next, .. } = self.arena[i as usize];
        if self.arena[prev as usize].child == i {
            self.arena[prev as usize].child = next;
        } else {
            self.arena[prev as usize].next = next;
        }
        if next != NIL {
            self.arena[next as usize].prev = prev;
        }
        let s = &mut self.arena[i as usize];
        s.next = NIL;
        s.prev = NIL;
        self.root = self.meld(self.root, i);
    }

    fn clear(&mut self) {
        self.arena.clear();
        self.free.clear();
        self.root = NIL;
        self.len = 0;
    }

    #[inline]
    fn len(&self) -> usize {
        self.len
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::open::model_test::model_test;

    #[test]
    fn pops_in_key_order_with_deeper_first_on_ties() {
        crate::open::model_test::check_tie_order(PairingHeap::new());
    }

    #[test]
    fn decrease_key_deep_in_the_tree() {
        let mut h = PairingHeap::new();
        h.prepare(100);
        for n in 0..100 {
            h.push(NodeId(n), Key::new(f64::from(n), 0.0));
        }
        // One pop pairs the 99 children into a deeper tree.
        assert_eq!(h.pop().map(|(n, _)| n), Some(NodeId(0)));
        for n in (50..100).step_by(7) {
            h.decrease_key(NodeId(n), Key::new(f64::from(n) - 49.5, 0.0));
        }
        let mut last = f64::NEG_INFINITY;
        let mut count = 0;
        while let Some((_, k)) = h.pop() {
            assert!(k.f >= last);
            last = k.f;
            count += 1;
        }
        assert_eq!(count, 99);
        // The arena was reused, not grown.
        h.push(NodeId(5), Key::new(1.0, 0.0));
        assert_eq!(h.arena.len(), 100);
    }

    #[test]
    fn clear_forgets_membership() {
        let mut h = PairingHeap::new();
        h.prepare(4);
        h.push(NodeId(0), Key::new(1.0, 0.0));
        h.push(NodeId(1), Key::new(2.0, 0.0));
        h.clear();
        assert_eq!(h.key(NodeId(0)), None);
        h.push(NodeId(1), Key::new(3.0, 0.0));
        assert_eq!(h.key(NodeId(0)), None);
        assert_eq!(h.len(), 1);
    }

    #[test]
    fn astar_costs_match_the_default_heap() {
        crate::open::astar_test::check(PairingHeap::new());
    }

    model_test!(pairing_heap_matches_model, PairingHeap::new());
}
