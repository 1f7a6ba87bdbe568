//! What the page draws besides a search's closed set: the cells the start
//! cannot reach, the default endpoints of a map, and the order in which a
//! search expanded its cells (for step-by-step playback).

use std::path::Path;

use cairns::graph::{Graph, NodeId};
use cairns::grid::GridGraph;
use cairns::movingai::read_scen;
use cairns::search::Observer;

/// Every node reachable from `start`, as one flag per node: the cells of
/// its connected component, which the graph keeps up to date through wall
/// edits ([`GridGraph::components`]). `start` off the graph or on a wall
/// reaches nothing.
pub fn reachable_from(graph: &GridGraph, start: NodeId) -> Vec<bool> {
    let components = graph.components();
    let label = components.label(start);
    (0..graph.node_bound() as u32)
        .map(|i| label.is_some() && components.label(NodeId(i)) == label)
        .collect()
}

/// The node a breadth-first search from `start` reaches last (the farthest
/// in moves), with the number of nodes it reached.
fn farthest(graph: &GridGraph, start: NodeId) -> (NodeId, usize) {
    let mut seen = vec![false; graph.node_bound()];
    let mut queue = vec![start];
    seen[start.index()] = true;
    let mut head = 0;
    while let Some(&n) = queue.get(head) {
        head += 1;
        for (m, _) in graph.successors(n) {
            if !seen[m.index()] {
                seen[m.index()] = true;
                queue.push(m);
            }
        }
    }
    (*queue.last().unwrap_or(&start), queue.len())
}

/// Two far-apart cells of the largest connected area: a double sweep
/// (farthest from a cell of the area, then farthest from that), so the
/// page opens on a long query. `None` on a map without a free cell.
pub(crate) fn far_apart(graph: &GridGraph) -> Option<(NodeId, NodeId)> {
    // A cell of the largest area (the one met first in cell order among
    // equals), from the graph's connected components.
    let components = graph.components();
    let mut met = vec![false; components.label_bound()];
    let mut best: Option<(usize, NodeId)> = None;
    for i in 0..graph.node_bound() as u32 {
        let n = NodeId(i);
        let Some(label) = components.label(n) else {
            continue;
        };
        if met[label as usize] {
            continue;
        }
        met[label as usize] = true;
        let size = components.size(label);
        if best.is_none_or(|(best_size, _)| size > best_size) {
            best = Some((size, n));
        }
    }
    let (_, seed) = best?;
    let (a, _) = farthest(graph, seed);
    let (b, _) = farthest(graph, a);
    Some((a, b))
}

/// The longest query of the scenario file at `path` whose endpoints are
/// free cells of `graph`: `(start, goal, line)`. `None` when the file
/// cannot be read or has no such query.
pub fn longest_scenario(graph: &GridGraph, path: &Path) -> Option<(NodeId, NodeId, usize)> {
    let file = read_scen(path).ok()?;
    file.scenarios
        .iter()
        .filter_map(|s| {
            let a = graph.node(s.start.0, s.start.1)?;
            let b = graph.node(s.goal.0, s.goal.1)?;
            (graph.is_passable(a) && graph.is_passable(b)).then_some((s.optimal, a, b, s.line))
        })
        .max_by(|x, y| x.0.total_cmp(&y.0))
        .map(|(_, a, b, line)| (a, b, line))
}

/// The most events a trace keeps; a longer search's trace is cut there.
pub(crate) const MAX_TRACE: usize = 1 << 21;

/// Flags an `open` event in a trace word; `expand` events are bare ids.
pub(crate) const OPEN_FLAG: u32 = 1 << 31;

/// Records a search's events in order, one `u32` each: the id of an
/// expanded node, or the id of a node put on OPEN with [`OPEN_FLAG`] set.
#[derive(Debug, Default)]
pub(crate) struct Trace {
    pub events: Vec<u32>,
    pub truncated: bool,
}

impl Trace {
    fn push(&mut self, word: u32) {
        if self.events.len() < MAX_TRACE {
            self.events.push(word);
        } else {
            self.truncated = true;
        }
    }

    /// The events as little-endian bytes.
    pub fn bytes(&self) -> Vec<u8> {
        self.events.iter().flat_map(|w| w.to_le_bytes()).collect()
    }
}

impl Observer for Trace {
    fn expand(&mut self, node: NodeId, _g: f64, _h: f64) {
        self.push(node.0);
    }

    fn open(&mut self, node: NodeId, _parent: NodeId, _g: f64) {
        self.push(node.0 | OPEN_FLAG);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cairns::grid::Neighborhood;

    #[test]
    fn a_walled_pocket_is_not_reachable() {
        let g = GridGraph::from_ascii("..@.\n..@.\n@@@.\n....", Neighborhood::Octile).unwrap();
        let seen = reachable_from(&g, g.node(0, 0).unwrap());
        let reached: Vec<(u32, u32)> = (0..16)
            .filter(|&i| seen[i])
            .map(|i| g.coords(NodeId(i as u32)))
            .collect();
        assert_eq!(reached, [(0, 0), (1, 0), (0, 1), (1, 1)]);
        // From a wall, nothing.
        assert!(!reachable_from(&g, g.node(2, 0).unwrap()).contains(&true));
    }

    #[test]
    fn far_apart_picks_the_ends_of_the_largest_area() {
        // A small pocket top-left, a long corridor along the bottom.
        let g = GridGraph::from_ascii("..@....\n@@@@@@.\n.......", Neighborhood::Octile).unwrap();
        let (a, b) = far_apart(&g).unwrap();
        let mut ends = [g.coords(a), g.coords(b)];
        ends.sort_unstable();
        assert_eq!(ends, [(0, 2), (3, 0)]);
        assert_eq!(
            far_apart(&GridGraph::from_ascii("@@\n@@", Neighborhood::Octile).unwrap()),
            None
        );
    }
}
