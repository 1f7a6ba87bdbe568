//! A splay tree used as a priority queue, in an index-based arena.

use std::cmp::Ordering;

use super::slots::Arena;
use super::{Key, OpenSet};
use crate::graph::NodeId;

/// No arena slot.
const NIL: u32 = u32::MAX;

/// A splay tree (Sleator and Tarjan, 1985) of OPEN entries ordered by
/// [`Key`] and then by node id, so that every entry has a distinct place.
/// Pop splays the minimum to the root and removes it; decrease-key removes
/// the entry and inserts it again with its new key.
///
/// | operation | cost |
/// |---|---|
/// | push | `O(log n)` amortised |
/// | pop | `O(log n)` amortised |
/// | key (membership) | `O(1)` |
/// | `decrease_key` | `O(log n)` amortised (delete + insert) |
/// | clear | `O(1)` |
///
/// Splay trees were among the fastest priority queues in Jones's (1986)
/// comparison of event-set implementations, and they adapt to access
/// patterns: by the sequential access theorem (Tarjan, 1985; Elmasry,
/// 2004) removing every entry in order costs `O(n)` in all, and with
/// A*'s mostly monotone keys new entries land near the minimum. Splaying is
/// top-down (Sleator and Tarjan's "simple top-down splay"), so the tree
/// needs no parent links.
///
/// Nodes live in an arena of slots linked by `u32` indices; freed slots are
/// reused. A node's slot is recorded in a dense array that is never
/// cleared: it is trusted only when the slot holds that node. Among equal
/// keys, the smaller node id comes out first.
#[derive(Clone, Debug)]
pub struct SplayTree {
    arena: Arena<Slot>,
    root: u32,
}

#[derive(Clone, Copy, Debug)]
struct Slot {
    key: Key,
    /// `NodeId::NONE` when the slot is free.
    node: NodeId,
    /// The slots of the `LEFT` (smaller) and `RIGHT` (larger) children.
    child: [u32; 2],
}

super::slots::node_field_holder!(Slot);

impl Default for SplayTree {
    fn default() -> Self {
        SplayTree {
            arena: Arena::default(),
            root: NIL,
        }
    }
}

/// The index in [`Slot::child`] of the smaller entries' side.
const LEFT: usize = 0;
/// The index of the larger entries' side.
const RIGHT: usize = 1;

/// The side of an entry on which a sought position lies, by the order of
/// the position against the entry: none when it is the entry's own.
#[inline]
fn side(o: Ordering) -> Option<usize> {
    match o {
        Ordering::Less => Some(LEFT),
        Ordering::Greater => Some(RIGHT),
        Ordering::Equal => None,
    }
}

/// The total order of the tree: [`Key::precedes`], then node id.
#[inline]
fn order(a: (Key, NodeId), b: (Key, NodeId)) -> Ordering {
    if a.0.precedes(b.0) {
        Ordering::Less
    } else if b.0.precedes(a.0) {
        Ordering::Greater
    } else {
        a.1.cmp(&b.1)
    }
}

impl SplayTree {
    /// An empty tree.
    pub fn new() -> Self {
        Self::default()
    }

    #[inline]
    fn at(&self, i: u32) -> (Key, NodeId) {
        let s = &self.arena[i as usize];
        (s.key, s.node)
    }

    /// Top-down splay of the tree rooted at `t` (not `NIL`) around `target`,
    /// where `target(x)` says whether the sought position is left of
    /// (`Less`), right of (`Greater`) or at (`Equal`) the entry in slot `x`.
    /// Returns the new root: the entry found, or the last one on the search
    /// path.
    fn splay(&mut self, mut t: u32, target: impl Fn(&Self, u32) -> Ordering) -> u32 {
        // The tree on each side collects the entries on that side of the
        // target, hung off its tail's child toward the target.
        let (mut roots, mut tails) = ([NIL; 2], [NIL; 2]);
        while let Some(d) = side(target(self, t)) {
            let o = 1 - d;
            let mut c = self.arena[t as usize].child[d];
            if c == NIL {
                break;
            }
            if side(target(self, c)) == Some(d) {
                // Rotate away from the target's side.
                self.arena[t as usize].child[d] = self.arena[c as usize].child[o];
                self.arena[c as usize].child[o] = t;
                t = c;
                c = self.arena[t as usize].child[d];
                if c == NIL {
                    break;
                }
            }
            // Link `t` into the tree on the other side.
            if tails[o] == NIL {
                roots[o] = t;
            } else {
                self.arena[tails[o] as usize].child[d] = t;
            }
            tails[o] = t;
            t = c;
        }
        // Assemble.
        for s in [LEFT, RIGHT] {
            if tails[s] != NIL {
                self.arena[tails[s] as usize].child[1 - s] = self.arena[t as usize].child[s];
                self.arena[t as usize].child[s] = roots[s];
            }
        }
        t
    }

    /// Splays around the entry `(key, node)`.
    fn splay_at(&mut self, t: u32, key: Key, node: NodeId) -> u32 {
        self.splay(t, |s, x| order((key, node), s.at(x)))
    }

    /// Links slot `i`, whose key is set, into the tree.
    fn insert(&mut self, i: u32) {
        self.arena[i as usize].child = [NIL; 2];
        if self.root != NIL {
            let (key, node) = self.at(i);
            let t = self.splay_at(self.root, key, node);
            // `i` takes the root's subtree on its side, and the root on
            // the other.
            let d = side(order((key, node), self.at(t))).unwrap_or(RIGHT);
            self.arena[i as usize].child[d] = self.arena[t as usize].child[d];
            self.arena[i as usize].child[1 - d] = t;
            self.arena[t as usize].child[d] = NIL;
        }
        self.root = i;
    }

    /// Unlinks slot `i` from the tree.
    fn remove(&mut self, i: u32) {
        let (key, node) = self.at(i);
        let t = self.splay_at(self.root, key, node);
        debug_assert_eq!(t, i);
        let [left, right] = self.arena[t as usize].child;
        self.root = if left == NIL {
            right
        } else {
            // Everything on the left is smaller: splaying for `i` brings
            // the largest to the top, with no right child.
            let m = self.splay_at(left, key, node);
            self.arena[m as usize].child[RIGHT] = right;
            m
        };
    }
}

impl OpenSet for SplayTree {
    fn prepare(&mut self, node_bound: usize) {
        self.arena.prepare(node_bound);
    }

    fn push(&mut self, node: NodeId, key: Key) {
        self.arena.claim(node);
        let slot = Slot {
            key,
            node,
            child: [NIL; 2],
        };
        let i = self.arena.store(slot);
        self.insert(i);
    }

    fn pop(&mut self) -> Option<(NodeId, Key)> {
        if self.root == NIL {
            return None;
        }
        let t = self.splay(self.root, |_, _| Ordering::Less);
        let Slot {
            key,
            node,
            child: [_, right],
        } = self.arena[t as usize];
        self.root = right;
        self.arena[t as usize].node = NodeId::NONE;
        self.arena.release(t);
        Some((node, key))
    }

    fn key(&self, node: NodeId) -> Option<Key> {
        self.arena.find(node).map(|i| self.arena[i].key)
    }

    fn decrease_key(&mut self, node: NodeId, key: Key) {
        let Some(i) = self.arena.find(node) else {
            self.push(node, key);
            return;
        };
        self.arena[i].key.debug_assert_lowered_to(key);
        let i = i as u32;
        self.remove(i);
        self.arena[i as usize].key = key;
        self.insert(i);
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
