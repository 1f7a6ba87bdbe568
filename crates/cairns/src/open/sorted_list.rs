//! An OPEN set kept as a sorted doubly linked list.

use super::slots::Arena;
use super::{Key, OpenSet};
use crate::graph::NodeId;

/// The end of a list, or no cell.
const NIL: u32 = u32::MAX;
/// The direction toward the head, as an index of [`Cell::link`] and of
/// [`SortedList::ends`] (the head is the end that way).
const PREV: usize = 0;
/// The direction toward the tail.
const NEXT: usize = 1;

/// A doubly linked list of `(node, key)` cells sorted from best to worst,
/// with the cells in an arena (a `Vec`, linked by `u32` indices) and each
/// node's cell tracked in a dense array.
///
/// | operation | cost |
/// |---|---|
/// | `push` | `O(n)` walk, `O(1)` link |
/// | `pop` | `O(1)` |
/// | `key` (membership) | `O(1)` |
/// | `decrease_key` | `O(1)` unlink + `O(n)` walk |
/// | `clear` | `O(1)` |
///
/// This is the sorted "OPEN list" of the early A* literature (Hart, Nilsson
/// and Raphael; Nilsson's textbook): the best node is always at the head,
/// so expansion is free, and removing a node whose key improves is an
/// `O(1)` unlink, with no entries shifted as in a
/// [`SortedArray`](super::SortedArray). The price is a linear walk to find
/// each insertion point. It suits small frontiers, and searches where most
/// new keys land near one end: under a consistent heuristic a successor's
/// `f` is at least its parent's, and on maps with many ties it often equals
/// the smallest `f`, so it belongs near the head.
///
/// # Walking from the nearer end
///
/// The list keeps a running sum of the `f` of its entries. A new key whose
/// `f` is at most the average walks forward from the head; one above it
/// walks backward from the tail. The average stands in for the median, so
/// the walk starts from the end that is probably nearer. A key lowered by
/// [`decrease_key`](OpenSet::decrease_key) can only move toward the head, so
/// a backward walk starts from the node's old place instead of the tail.
/// The sum is only a guide: rounding in it can pick the farther end, never
/// a wrong place.
///
/// Among entries with equal keys, the one pushed (or decreased) last is
/// popped first: a new entry goes before the entries with its key.
#[derive(Clone, Debug, Default)]
pub struct SortedList {
    cells: Arena<Cell>,
    /// The head and the tail, the ends toward [`PREV`] and [`NEXT`];
    /// meaningful only when `len > 0`, so that the derived `Default` is an
    /// empty list.
    ends: [u32; 2],
    len: usize,
    /// The sum of `f` over the entries.
    f_sum: f64,
}

#[derive(Clone, Copy, Debug)]
struct Cell {
    /// The node, or [`NodeId::NONE`] in a free cell.
    node: NodeId,
    key: Key,
    /// The neighbours toward [`PREV`] and [`NEXT`], or `NIL` at the ends.
    link: [u32; 2],
}

super::slots::node_field_holder!(Cell);

impl SortedList {
    /// An empty list.
    pub fn new() -> Self {
        Self::default()
    }

    #[inline]
    fn slot(&self, node: NodeId) -> Option<u32> {
        self.cells.find(node).map(|i| i as u32)
    }

    /// Makes `to` the neighbour of cell `from` toward `d`; where `from` is
    /// `NIL`, beyond the end toward `1 - d`, `to` becomes that end.
    #[inline]
    fn set_link(&mut self, from: u32, d: usize, to: u32) {
        match from {
            NIL => self.ends[1 - d] = to,
            f => self.cells[f as usize].link[d] = to,
        }
    }

    /// Removes cell `i` from the list, leaving it in the arena.
    fn unlink(&mut self, i: u32) {
        let Cell { link, key, .. } = self.cells[i as usize];
        let [prev, next] = link;
        self.set_link(prev, NEXT, next);
        self.set_link(next, PREV, prev);
        self.len -= 1;
        self.f_sum = if self.len == 0 {
            0.0
        } else {
            self.f_sum - key.f
        };
    }

    /// Links cell `i`, holding its key, at its place in the list. A walk
    /// from the back starts at `back` (the tail, or a cell at or after the
    /// place).
    fn link(&mut self, i: u32, back: u32) {
        let key = self.cells[i as usize].key;
        let link = if self.len == 0 {
            [NIL, NIL]
        } else if key.f <= self.f_sum / self.len as f64 {
            self.walk::<NEXT>(self.ends[PREV], key)
        } else {
            self.walk::<PREV>(back, key)
        };
        self.cells[i as usize].link = link;
        let [prev, next] = link;
        self.set_link(prev, NEXT, i);
        self.set_link(next, PREV, i);
        self.len += 1;
        self.f_sum += key.f;
    }

    /// The neighbours `[prev, next]` of a new cell with `key`, walking from
    /// cell `from` toward `D`. The new cell goes after every entry that
    /// precedes its key and before the entries equal to it, so a walk
    /// toward the tail passes the entries that precede `key`, and one
    /// toward the head those that do not. (`D` is a constant, so that each
    /// walk's loop is compiled for its direction.)
    #[inline]
    fn walk<const D: usize>(&self, from: u32, key: Key) -> [u32; 2] {
        let mut x = from;
        while x != NIL && self.cells[x as usize].key.precedes(key) == (D == NEXT) {
            x = self.cells[x as usize].link[D];
        }
        // `x` is the neighbour toward `D`; the other is its neighbour back,
        // or the end of the list that way.
        let y = if x == NIL {
            self.ends[D]
        } else {
            self.cells[x as usize].link[1 - D]
        };
        let mut link = [NIL; 2];
        link[D] = x;
        link[1 - D] = y;
        link
    }
}

impl OpenSet for SortedList {
    fn prepare(&mut self, node_bound: usize) {
        self.cells.prepare(node_bound);
    }

    #[inline]
    fn push(&mut self, node: NodeId, key: Key) {
        self.cells.claim(node);
        let cell = Cell {
            node,
            key,
            link: [NIL; 2],
        };
        let i = self.cells.store(cell);
        self.link(i, self.ends[NEXT]);
    }

    #[inline]
    fn pop(&mut self) -> Option<(NodeId, Key)> {
        if self.len == 0 {
            return None;
        }
        let i = self.ends[PREV];
        self.unlink(i);
        let cell = &mut self.cells[i as usize];
        let top = (cell.node, cell.key);
        cell.node = NodeId::NONE;
        self.cells.release(i);
        Some(top)
    }

    fn key(&self, node: NodeId) -> Option<Key> {
        self.slot(node).map(|i| self.cells[i as usize].key)
    }

    fn decrease_key(&mut self, node: NodeId, key: Key) {
        let Some(i) = self.slot(node) else {
            self.push(node, key);
            return;
        };
        let cell = &mut self.cells[i as usize];
        cell.key.debug_assert_lowered_to(key);
        let back = cell.link[PREV];
        self.unlink(i);
        self.cells[i as usize].key = key;
        self.link(i, back);
    }

    const PEEKS: bool = true;

    #[inline]
    fn precedes_all(&self, key: Key) -> bool {
        self.len == 0 || key.precedes(self.cells[self.ends[PREV] as usize].key)
    }

    fn clear(&mut self) {
        self.cells.clear();
        self.len = 0;
        self.f_sum = 0.0;
    }

    #[inline]
    fn len(&self) -> usize {
        self.len
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The nodes from head to tail, checking the back links on the way.
    fn nodes(l: &SortedList) -> Vec<u32> {
        let mut out = Vec::new();
        if l.len == 0 {
            return Vec::new();
        }
        let (mut i, mut prev) = (l.ends[PREV], NIL);
        while i != NIL {
            let c = l.cells[i as usize];
            assert_eq!(c.link[PREV], prev);
            out.push(c.node.0);
            (prev, i) = (i, c.link[NEXT]);
        }
        assert_eq!(l.ends[NEXT], prev);
        assert_eq!(out.len(), l.len());
        out
    }

    #[test]
    fn pops_in_key_order_with_deeper_first_on_ties() {
        let mut l = SortedList::new();
        let want = crate::open::tests::push_tied(&mut l);
        // Linked in the order they pop, and the running sum of f back at 0.
        assert_eq!(nodes(&l), want);
        assert_eq!(crate::open::conformance::pop_order(&mut l), want);
        assert_eq!(l.f_sum, 0.0);
    }

    #[test]
    fn walks_from_either_end_to_the_same_place() {
        // Ten keys with f from 0 to 4, twice: the low ones walk from the head
        // and the high ones from the tail, and each lands before its equals.
        let mut l = SortedList::new();
        for n in 0..10 {
            let f = f64::from(n % 5);
            l.push(NodeId(n), Key { f, g: 0.0 });
        }
        assert_eq!(nodes(&l), [5, 0, 6, 1, 7, 2, 8, 3, 9, 4]);
        // Lowered from the tail end: the backward walk starts at 4's old
        // neighbour.
        l.decrease_key(NodeId(4), Key { f: 3.0, g: 0.0 });
        assert_eq!(nodes(&l), [5, 0, 6, 1, 7, 2, 4, 8, 3, 9]);
        l.decrease_key(NodeId(9), Key { f: 0.0, g: 1.0 });
        assert_eq!(nodes(&l), [9, 5, 0, 6, 1, 7, 2, 4, 8, 3]);
        assert_eq!(l.f_sum, 15.0);
    }

    #[test]
    fn popped_cells_are_reused() {
        let mut l = SortedList::new();
        for round in 0..5u32 {
            for n in 0..4 {
                l.push(NodeId(n), Key::new(f64::from(n + round), 0.0));
            }
            while l.pop().is_some() {}
        }
        assert_eq!(l.cells.len(), 4);
    }

    #[test]
    fn default_is_an_empty_list() {
        // `Default` leaves the ends at 0, not NIL: the list must not read
        // them while it is empty.
        let mut l = SortedList::default();
        assert_eq!(l.pop(), None);
        l.push(NodeId(2), Key::new(1.0, 0.0));
        l.push(NodeId(1), Key::new(0.5, 0.0));
        assert_eq!(l.pop(), Some((NodeId(1), Key::new(0.5, 0.0))));
    }
}
