//! Goal bounding over the core of a subgoal graph's hierarchy: the boxes
//! of Rabin and Sturtevant (2016), on the graph that open and random maps
//! leave uncontracted.
//!
//! For each core subgoal and each of its edges to the rest of the core,
//! the box holds the core subgoals whose shortest path over the core
//! starts with that edge (one Dijkstra search over the core per core
//! subgoal, the first edge carried along its tree). A query leaves a core
//! edge out when its box misses every core subgoal its goal climbs to:
//! some shortest path leaves the core at one of those (it descends the
//! ranks from there to the goal), and from each core subgoal on it the
//! edge its tree takes toward that exit is kept, so the costs stay
//! optimal. A core subgoal without boxes (the build's deadline passed
//! before its search) leaves nothing out.

use std::time::Instant;

use rayon::prelude::*;

use super::hierarchy::Hierarchy;
use crate::graph::NodeId;
use crate::open::{Key, OpenSet, QuaternaryHeap};
use crate::search::boxes::{Box4, EMPTY, grow};

/// No boxes for a subgoal.
const NONE: u32 = u32::MAX;

/// The boxes of the core's edges.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct CoreBounds {
    /// For each subgoal, where the boxes of its climbing edges
    /// ([`Hierarchy::up`], in that order) start in `boxes`, or [`NONE`].
    first: Vec<u32>,
    boxes: Vec<Box4>,
}

impl CoreBounds {
    /// The boxes of `hierarchy`'s core edges, the subgoals at `at`; the
    /// core subgoals whose search has not started by `deadline` (when
    /// given) get none. On every core.
    pub(super) fn build(
        hierarchy: &Hierarchy, at: &[(u16, u16)], deadline: Option<Instant>,
    ) -> CoreBounds {
        let n = hierarchy.rank.len();
        let core: Vec<u32> = (0..n as u32)
            .filter(|&i| hierarchy.rank[i as usize] == u32::MAX)
            .collect();
        if core.is_empty() {
            return CoreBounds::default();
        }
        let mut local = vec![NONE; n];
        for (k, &i) in core.iter().enumerate() {
            local[i as usize] = k as u32;
        }
        // The core as a graph of its own, by local index.
        let mut offsets = Vec::with_capacity(core.len() + 1);
        let mut arcs: Vec<(u32, f64)> = Vec::new();
        offsets.push(0);
        for &i in &core {
            for a in hierarchy.up(i as usize) {
                // A core subgoal climbs only to the rest of the core.
                debug_assert_ne!(local[a.to as usize], NONE);
                arcs.push((local[a.to as usize], a.cost));
            }
            offsets.push(arcs.len());
        }
        let core_graph = Core {
            offsets,
            arcs,
            at: core.iter().map(|&i| at[i as usize]).collect(),
        };
        let built: Vec<Option<Vec<Box4>>> = (0..core.len() as u32)
            .into_par_iter()
            .map_init(
                || Scratch::new(core.len()),
                |scratch, s| {
                    if deadline.is_some_and(|d| Instant::now() >= d) {
                        None
                    } else {
                        Some(scratch.boxes_from(&core_graph, s))
                    }
                },
            )
            .collect();
        if built.iter().all(Option::is_none) {
            // As a file with no boxes loads.
            return CoreBounds::default();
        }
        let mut first = vec![NONE; n];
        let mut boxes = Vec::new();
        for (&i, b) in core.iter().zip(built) {
            if let Some(b) = b {
                first[i as usize] = boxes.len() as u32;
                boxes.extend(b);
            }
        }
        CoreBounds { first, boxes }
    }

    /// The boxes of subgoal `i`'s `count` climbing edges, when it has them.
    #[inline]
    pub(super) fn of(&self, i: usize, count: usize) -> Option<&[Box4]> {
        let start = *self.first.get(i)?;
        if start == NONE {
            return None;
        }
        self.boxes.get(start as usize..start as usize + count)
    }

    /// The number of core subgoals with boxes.
    pub(super) fn boxed(&self) -> usize {
        self.first.iter().filter(|&&f| f != NONE).count()
    }

    /// Bytes in memory.
    pub(super) fn memory_bytes(&self) -> usize {
        self.first.len() * 4 + self.boxes.len() * size_of::<Box4>()
    }

    /// For saving: where each subgoal's boxes start (or `u32::MAX`), and
    /// the boxes.
    pub(super) fn parts(&self) -> (&[u32], &[Box4]) {
        (&self.first, &self.boxes)
    }

    /// From saved parts, checked against `hierarchy`: each subgoal with
    /// boxes is in the core, and its climbing edges' boxes follow those of
    /// the subgoal before it in `boxes`, which they fill. Else the index
    /// of the first subgoal whose boxes do not fit (the number of
    /// subgoals when `boxes` holds more or fewer).
    pub(super) fn from_parts(
        hierarchy: &Hierarchy, first: Vec<u32>, boxes: Vec<Box4>,
    ) -> Result<CoreBounds, u32> {
        let n = hierarchy.rank.len();
        if first.len() != n {
            return Err(0);
        }
        let mut next = 0usize;
        for (i, &f) in first.iter().enumerate() {
            if f == NONE {
                continue;
            }
            if hierarchy.rank[i] != u32::MAX || f as usize != next {
                return Err(i as u32);
            }
            next += hierarchy.up(i).len();
        }
        if next != boxes.len() {
            return Err(n as u32);
        }
        Ok(CoreBounds { first, boxes })
    }
}

/// The core by local index: each subgoal's edges (other end, cost) and
/// its cell.
struct Core {
    offsets: Vec<usize>,
    arcs: Vec<(u32, f64)>,
    at: Vec<(u16, u16)>,
}

/// One search's scratch: distances, the first edge each subgoal is
/// reached by, and the heap (the 4-ary heap with decrease-key that A*
/// runs on by default).
struct Scratch {
    dist: Vec<f64>,
    first: Vec<u32>,
    heap: QuaternaryHeap,
}

/// A distance as a heap key.
#[inline]
fn key(d: f64) -> Key {
    Key { f: d, g: d }
}

impl Scratch {
    fn new(n: usize) -> Scratch {
        let mut heap = QuaternaryHeap::new();
        heap.prepare(n);
        Scratch {
            dist: vec![f64::INFINITY; n],
            first: vec![NONE; n],
            heap,
        }
    }

    /// The boxes of core subgoal `s`'s edges: Dijkstra's search over the
    /// core from `s`, each subgoal it settles grown into the box of the
    /// first edge of its tree path.
    fn boxes_from(&mut self, core: &Core, s: u32) -> Vec<Box4> {
        self.dist.fill(f64::INFINITY);
        let (lo, hi) = (core.offsets[s as usize], core.offsets[s as usize + 1]);
        let mut boxes = vec![EMPTY; hi - lo];
        self.dist[s as usize] = 0.0;
        for (k, &(to, cost)) in core.arcs[lo..hi].iter().enumerate() {
            if cost < self.dist[to as usize] {
                self.dist[to as usize] = cost;
                self.first[to as usize] = k as u32;
                self.heap.push(NodeId(to), key(cost));
            }
        }
        while let Some((v, at)) = self.heap.pop() {
            let (v, d) = (v.0, at.f);
            let k = self.first[v as usize];
            grow(&mut boxes[k as usize], core.at[v as usize]);
            let (lo, hi) = (core.offsets[v as usize], core.offsets[v as usize + 1]);
            for &(to, cost) in &core.arcs[lo..hi] {
                let next = d + cost;
                let known = self.dist[to as usize];
                if next < known {
                    self.dist[to as usize] = next;
                    self.first[to as usize] = k;
                    if known == f64::INFINITY {
                        self.heap.push(NodeId(to), key(next));
                    } else {
                        self.heap.decrease_key(NodeId(to), key(next));
                    }
                }
            }
        }
        boxes
    }
}
