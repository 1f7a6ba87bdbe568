//! A splay tree used as a priority queue, in an index-based arena.

use std::cmp::Ordering;

use super::slots::{Holder, Slots};
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
    arena: Vec<Slot>,
    free: Vec<u32>,
    position: Slots,
    root: u32,
    len: usize,
}

#[derive(Clone, Copy, Debug)]
struct Slot {
    key: Key,
    /// `NodeId::NONE` when the slot is free.
    node: NodeId,
    left: u32,
    right: u32,
}

impl Holder for Slot {
    #[inline]
    fn node(&self) -> NodeId {
        self.node
    }
}

impl Default for SplayTree {
    fn default() -> Self {
        SplayTree {
            arena: Vec::new(),
            free: Vec::new(),
            position: Slots::default(),
            root: NIL,
            len: 0,
        }
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
        // The left tree collects entries smaller than the target, hung off
        // its rightmost node; the right tree the larger ones.
        let (mut left_root, mut left_tail) = (NIL, NIL);
        let (mut right_root, mut right_tail) = (NIL, NIL);
        loop {
            match target(self, t) {
                Ordering::Less => {
                    let mut l = self.arena[t as usize].left;
                    if l == NIL {
                        break;
                    }
                    if target(self, l) == Ordering::Less {
                        // Rotate right.
                        self.arena[t as usize].left = self.arena[l as usize].right;
                        self.arena[l as usize].right = t;
                        t = l;
                        l = self.arena[t as usize].left;
                        if l == NIL {
                            break;
                        }
                    }
                    // Link right.
                    if right_tail == NIL {
                        right_root = t;
                    } else {
                        self.arena[right_tail as usize].left = t;
                    }
                    right_tail = t;
                    t = l;
                }
                Ordering::Greater => {
                    let mut r = self.arena[t as usize].right;
                    if r == NIL {
                        break;
                    }
                    if target(self, r) == Ordering::Greater {
                        // Rotate left.
                        self.arena[t as usize].right = self.arena[r as usize].left;
                        self.arena[r as usize].left = t;
                        t = r;
                        r = self.arena[t as usize].right;
                        if r == NIL {
                            break;
                        }
                    }
                    // Link left.
                    if left_tail == NIL {
                        left_root = t;
                    } else {
                        self.arena[left_tail as usize].right = t;
                    }
                    left_tail = t;
                    t = r;
                }
                Ordering::Equal => break,
            }
        }
        // Assemble.
        let Slot { left, right, .. } = self.arena[t as usize];
        if left_tail != NIL {
            self.arena[left_tail as usize].right = left;
            self.arena[t as usize].left = left_root;
        }
        if right_tail != NIL {
            self.arena[right_tail as usize].left = right;
            self.arena[t as usize].right = right_root;
        }
        t
    }

    /// Splays around the entry `(key, node)`.
    fn splay_at(&mut self, t: u32, key: Key, node: NodeId) -> u32 {
        self.splay(t, |s, x| order((key, node), s.at(x)))
    }

    /// Links slot `i`, whose key is set, into the tree.
    fn insert(&mut self, i: u32) {
        {
            let s = &mut self.arena[i as usize];
            s.left = NIL;
            s.right = NIL;
        }
        if self.root != NIL {
            let (key, node) = self.at(i);
            let t = self.splay_at(self.root, key, node);
            if order((key, node), self.at(t)) == Ordering::Less {
                self.arena[i as usize].left = self.arena[t as usize].left;
                self.arena[i as usize].right = t;
                self.arena[t as usize].left = NIL;
            } else {
                self.arena[i as usize].right = self.arena[t as usize].right;
                self.arena[i as usize].left = t;
                self.arena[t as usize].right = NIL;
            }
        }
        self.root = i;
    }

    /// Unlinks slot `i` from the tree.
    fn remove(&mut self, i: u32) {
        let (key, node) = self.at(i);
        let t = self.splay_at(self.root, key, node);
        debug_assert_eq!(t, i);
        let Slot { left, right, .. } = self.arena[t as usize];
        self.root = if left == NIL {
            right
        } else {
            // Everything on the left is smaller: splaying for `i` brings
            // the largest to the top, with no right child.
            let m = self.splay_at(left, key, node);
            self.arena[m as usize].right = right;
            m
        };
    }
}

impl OpenSet for SplayTree {
    fn prepare(&mut self, node_bound: usize) {
        self.position.prepare(node_bound);
    }

    fn push(&mut self, node: NodeId, key: Key) {
        self.position.claim(node, &self.arena);
        let slot = Slot {
            key,
            node,
            left: NIL,
            right: NIL,
        };
        let i = self.position.store(&mut self.arena, &mut self.free, slot);
        self.insert(i);
        self.len += 1;
    }

    fn pop(&mut self) -> Option<(NodeId, Key)> {
        if self.root == NIL {
            return None;
        }
        let t = self.splay(self.root, |_, _| Ordering::Less);
        let Slot {
            key, node, right, ..
        } = self.arena[t as usize];
        self.root = right;
        self.arena[t as usize].node = NodeId::NONE;
        self.free.push(t);
        self.len -= 1;
        Some((node, key))
    }

    fn key(&self, node: NodeId) -> Option<Key> {
        self.position
            .find(node, &self.arena)
            .map(|i| self.arena[i].key)
    }

    fn decrease_key(&mut self, node: NodeId, key: Key) {
        let Some(i) = self.position.find(node, &self.arena) else {
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
        self.free.clear();
        self.root = NIL;
        self.len = 0;
    }

    #[inline]
    fn len(&self) -> usize {
        self.len
    }
}
