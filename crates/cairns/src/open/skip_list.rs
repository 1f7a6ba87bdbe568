//! An OPEN set kept as a skip list.

use super::slots::Slots;
use super::{Key, OpenSet};
use crate::graph::NodeId;

/// No tower: the end of a level.
const NIL: u32 = u32::MAX;
/// The head of the list, as a predecessor.
const HEAD: u32 = u32::MAX - 1;
/// The most levels a tower can have. With `p = 1/4` a tower reaches this
/// height with probability `4^-23`; lists of up to `4^24` entries (far more
/// than there are `u32` node ids) keep the expected `O(log n)` bounds.
const MAX_LEVEL: usize = 24;
/// The seed of the level generator, restored by every `clear`.
const SEED: u64 = 0x9e37_79b9_7f4a_7c15;

/// A skip list of `(node, key)` entries sorted by key, with towers in an
/// index-based arena and each node's tower tracked in a dense array.
///
/// | operation | cost |
/// |---|---|
/// | `push` | `O(log n)` expected |
/// | `pop` | `O(1)` expected |
/// | `key` (membership) | `O(1)` |
/// | `decrease_key` | `O(log n)` expected (remove and reinsert) |
/// | `clear` | `O(1)` |
///
/// A skip list (Pugh, 1990) keeps its entries fully sorted, like a balanced
/// search tree but with simpler updates: each entry sits in the bottom
/// list and, with probability `p` per level, in the sparser lists above,
/// which let a search skip ahead. As an OPEN set it pops the best entry in
/// expected constant time from the front and removes or reinserts any
/// entry in expected `O(log n)`. The A* literature uses such ordered
/// structures where a plain heap falls short: when entries must be
/// enumerated in key order, as for the focal list of bounded-suboptimal
/// searches (A*ε), or removed from the middle. For plain A* a binary heap
/// does the same work with less memory traffic.
///
/// # Levels
///
/// A tower's height is drawn with `p = 1/4`, as Pugh recommends: the
/// expected number of comparisons per search, `(1/p) log_{1/p} n`, is the
/// same as with `p = 1/2`, while a tower holds 1.33 links on average
/// instead of 2, so the arena is smaller and a search touches fewer cache
/// lines. Heights come from a private xorshift generator seeded with a
/// constant, and the seed is restored by [`clear`](OpenSet::clear), so a
/// search's shape and timing do not depend on the searches before it.
/// [`decrease_key`](OpenSet::decrease_key) keeps the tower's height.
///
/// Entries with equal keys are ordered by node id, so every entry's place
/// is unique and removal finds it in one descent; among equal keys, `pop`
/// returns the smallest node id.
#[derive(Clone, Debug, Default)]
pub struct SkipList {
    towers: Vec<Tower>,
    /// The forward links of every tower, `towers[t].height` of them from
    /// `towers[t].offset`.
    links: Vec<u32>,
    /// The first tower of each level; meaningful below `level` only, so
    /// that the derived `Default` is an empty list.
    head: [u32; MAX_LEVEL],
    /// The number of levels in use.
    level: usize,
    /// Free towers of each height, reused by the next pushes.
    free: [Vec<u32>; MAX_LEVEL],
    len: usize,
    /// The xorshift state; 0 means "not seeded yet".
    rng: u64,
    /// The tower of each node, trusted only when that tower holds the node.
    slot: Slots,
}

#[derive(Clone, Copy, Debug)]
struct Tower {
    /// The node, or [`NodeId::NONE`] in a free tower.
    node: NodeId,
    key: Key,
    offset: u32,
    height: u8,
}

super::slots::node_field_holder!(Tower);

/// Whether `(a, an)` comes before `(b, bn)`: by key, then by node id.
#[inline]
fn before(a: Key, an: NodeId, b: Key, bn: NodeId) -> bool {
    a.precedes(b) || (a == b && an < bn)
}

impl SkipList {
    /// An empty skip list.
    pub fn new() -> Self {
        Self::default()
    }

    #[inline]
    fn slot(&self, node: NodeId) -> Option<u32> {
        self.slot.find(node, &self.towers).map(|i| i as u32)
    }

    #[inline]
    fn next(&self, x: u32, level: usize) -> u32 {
        if x == HEAD {
            self.head[level]
        } else {
            self.links[self.towers[x as usize].offset as usize + level]
        }
    }

    #[inline]
    fn set_next(&mut self, x: u32, level: usize, to: u32) {
        if x == HEAD {
            self.head[level] = to;
        } else {
            self.links[self.towers[x as usize].offset as usize + level] = to;
        }
    }

    /// A random height in `1..=MAX_LEVEL`, `k + 1` with probability
    /// `(3/4) 4^-k`.
    fn random_height(&mut self) -> usize {
        if self.rng == 0 {
            self.rng = SEED;
        }
        // xorshift64 (Marsaglia, 2003): never 0 from a non-zero state.
        let mut x = self.rng;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.rng = x;
        // Each pair of trailing zero bits is one more level: p = 1/4.
        (1 + x.trailing_zeros() as usize / 2).min(MAX_LEVEL)
    }

    /// The last tower (or the head) before tower `t`'s place on each level
    /// in use.
    fn predecessors(&self, t: u32) -> [u32; MAX_LEVEL] {
        let Tower { key, node, .. } = self.towers[t as usize];
        let mut update = [HEAD; MAX_LEVEL];
        let mut x = HEAD;
        for level in (0..self.level).rev() {
            loop {
                let n = self.next(x, level);
                if n == NIL {
                    break;
                }
                let tn = self.towers[n as usize];
                if !before(tn.key, tn.node, key, node) {
                    break;
                }
                x = n;
            }
            update[level] = x;
        }
        update
    }

    /// Links tower `t`, holding its key, at its place.
    fn link(&mut self, t: u32) {
        let height = usize::from(self.towers[t as usize].height);
        let update = self.predecessors(t);
        if height > self.level {
            // New levels start empty; `update` already names the head there.
            self.head[self.level..height].fill(NIL);
            self.level = height;
        }
        for (level, &x) in update.iter().enumerate().take(height) {
            let n = self.next(x, level);
            self.set_next(t, level, n);
            self.set_next(x, level, t);
        }
        self.len += 1;
    }

    /// Unlinks tower `t` from every level, leaving it in the arena.
    fn unlink(&mut self, t: u32) {
        let height = usize::from(self.towers[t as usize].height);
        let update = self.predecessors(t);
        for (level, &x) in update.iter().enumerate().take(height) {
            debug_assert_eq!(self.next(x, level), t, "tower out of place");
            let n = self.next(t, level);
            self.set_next(x, level, n);
        }
        self.shrink_levels();
        self.len -= 1;
    }

    fn shrink_levels(&mut self) {
        while self.level > 0 && self.head[self.level - 1] == NIL {
            self.level -= 1;
        }
    }

    /// Returns tower `t` to the free lists.
    fn release(&mut self, t: u32) {
        let tower = &mut self.towers[t as usize];
        tower.node = NodeId::NONE;
        self.free[usize::from(tower.height) - 1].push(t);
    }
}

impl OpenSet for SkipList {
    fn prepare(&mut self, node_bound: usize) {
        self.slot.prepare(node_bound);
    }

    fn push(&mut self, node: NodeId, key: Key) {
        self.slot.claim(node, &self.towers);
        let height = self.random_height();
        let t = if let Some(t) = self.free[height - 1].pop() {
            let tower = &mut self.towers[t as usize];
            tower.node = node;
            tower.key = key;
            t
        } else {
            let offset = self.links.len() as u32;
            self.links.resize(self.links.len() + height, NIL);
            self.towers.push(Tower {
                node,
                key,
                offset,
                height: height as u8,
            });
            (self.towers.len() - 1) as u32
        };
        self.slot.set(node, t);
        self.link(t);
    }

    fn pop(&mut self) -> Option<(NodeId, Key)> {
        if self.len == 0 {
            return None;
        }
        // The first tower is first on each of its levels.
        let t = self.head[0];
        let Tower { node, key, .. } = self.towers[t as usize];
        for level in 0..usize::from(self.towers[t as usize].height) {
            self.head[level] = self.next(t, level);
        }
        self.shrink_levels();
        self.len -= 1;
        self.release(t);
        Some((node, key))
    }

    fn key(&self, node: NodeId) -> Option<Key> {
        self.slot(node).map(|t| self.towers[t as usize].key)
    }

    fn decrease_key(&mut self, node: NodeId, key: Key) {
        let Some(t) = self.slot(node) else {
            self.push(node, key);
            return;
        };
        self.towers[t as usize].key.debug_assert_lowered_to(key);
        self.unlink(t);
        self.towers[t as usize].key = key;
        self.link(t);
    }

    const PEEKS: bool = true;

    #[inline]
    fn precedes_all(&self, key: Key) -> bool {
        self.len == 0 || key.precedes(self.towers[self.head[0] as usize].key)
    }

    fn clear(&mut self) {
        self.towers.clear();
        self.links.clear();
        for f in &mut self.free {
            f.clear();
        }
        self.level = 0;
        self.len = 0;
        self.rng = 0;
    }

    #[inline]
    fn len(&self) -> usize {
        self.len
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Checks that every level is sorted and a sublist of the one below,
    /// and returns the nodes of the bottom level.
    fn nodes(s: &SkipList) -> Vec<u32> {
        let mut below: Vec<u32> = Vec::new();
        for level in (0..s.level).rev() {
            let mut towers = Vec::new();
            let mut x = s.head[level];
            while x != NIL {
                towers.push(x);
                x = s.next(x, level);
            }
            assert!(!towers.is_empty(), "level {level} in use but empty");
            for w in towers.windows(2) {
                let (a, b) = (s.towers[w[0] as usize], s.towers[w[1] as usize]);
                assert!(before(a.key, a.node, b.key, b.node));
            }
            assert!(below.iter().all(|t| towers.contains(t)));
            below = towers;
        }
        assert_eq!(below.len(), s.len());
        below.iter().map(|&t| s.towers[t as usize].node.0).collect()
    }

    #[test]
    fn pops_in_key_order_with_deeper_first_on_ties() {
        let mut s = SkipList::new();
        let want = crate::open::tests::push_tied(&mut s);
        // Every level sorted, and no level left in use once empty.
        assert_eq!(nodes(&s), want);
        assert_eq!(crate::open::conformance::pop_order(&mut s), want);
        assert_eq!(s.level, 0);
    }

    #[test]
    fn decreasing_to_the_same_key_keeps_the_place() {
        // Decreasing to the same key keeps the place (the order among
        // equal keys is checked with the other structures' in `open`).
        let mut s = SkipList::new();
        let k = Key { f: 2.0, g: 1.0 };
        s.push(NodeId(500), k);
        s.push(NodeId(70), k);
        s.decrease_key(NodeId(500), k);
        assert_eq!(crate::open::conformance::pop_order(&mut s), [70, 500]);
    }

    #[test]
    fn stays_sorted_through_many_updates() {
        let mut s = SkipList::new();
        let n = 2000u32;
        for i in 0..n {
            s.push(NodeId(i), Key::new(f64::from((i * 7919) % 1000), 0.0));
        }
        assert!(s.level > 3, "{} levels for {n} entries", s.level);
        // About 4/3 links per tower.
        assert!(s.links.len() < 2 * n as usize, "{} links", s.links.len());
        for i in (0..n).step_by(3) {
            let old = s.key(NodeId(i)).unwrap();
            s.decrease_key(NodeId(i), Key::new(old.g / 2.0, 0.0));
        }
        nodes(&s);
        let mut last = None;
        while let Some((node, key)) = s.pop() {
            if let Some((ln, lk)) = last {
                assert!(before(lk, ln, key, node));
            }
            last = Some((node, key));
        }
    }

    #[test]
    fn heights_are_reproducible_after_clear() {
        let fill = |s: &mut SkipList| {
            for i in 0..200 {
                s.push(NodeId(i), Key::new(f64::from(i % 17), 0.0));
            }
            s.towers.iter().map(|t| t.height).collect::<Vec<_>>()
        };
        let mut s = SkipList::new();
        let first = fill(&mut s);
        s.clear();
        assert_eq!(fill(&mut s), first);
        assert!(first.iter().any(|&h| h > 1));
    }

    #[test]
    fn popped_towers_are_reused() {
        let mut s = SkipList::new();
        for round in 0..50u32 {
            for n in 0..8 {
                s.push(NodeId(n), Key::new(f64::from(n + round), 0.0));
            }
            while s.pop().is_some() {}
        }
        // At most eight towers of each height drawn, not one per push.
        let heights: std::collections::HashSet<u8> = s.towers.iter().map(|t| t.height).collect();
        assert!(
            s.towers.len() <= 8 * heights.len(),
            "{} towers",
            s.towers.len()
        );
    }
}
