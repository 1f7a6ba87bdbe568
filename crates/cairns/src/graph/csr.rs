//! A directed weighted graph in compressed sparse row form.

use super::{Graph, NodeId, Reversible};

/// An edge list that [`CsrGraph::from_edges`] refuses: what is wrong is its
/// [`kind`](Self::kind).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{kind}")]
pub struct EdgeError {
    kind: EdgeErrorKind,
}

impl EdgeError {
    /// What is wrong.
    pub fn kind(&self) -> &EdgeErrorKind {
        &self.kind
    }
}

impl From<EdgeErrorKind> for EdgeError {
    fn from(kind: EdgeErrorKind) -> Self {
        EdgeError { kind }
    }
}

/// What is wrong with an edge list.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum EdgeErrorKind {
    /// An endpoint is not below the node count.
    #[error("edge {index}: node {node} is out of range (the graph has {nodes} nodes)")]
    NodeOutOfRange {
        /// Position of the edge in the list.
        index: usize,
        /// The offending endpoint.
        node: u32,
        /// The graph's node count.
        nodes: u32,
    },
    /// A cost is negative, infinite or NaN.
    #[error("edge {index}: cost {cost} is not a finite non-negative number")]
    BadCost {
        /// Position of the edge in the list.
        index: usize,
        /// The offending cost.
        cost: f64,
    },
    /// The graph would have more edges or nodes than `u32` offsets can hold.
    #[error("graph too large: {nodes} nodes and {edges} edges (at most {max} of each)")]
    TooLarge {
        /// Requested nodes.
        nodes: usize,
        /// Requested edges.
        edges: usize,
        /// The limit.
        max: u32,
    },
}

/// A directed graph with non-negative edge costs, stored as compressed
/// sparse rows: the outgoing edges of node `u` are
/// `targets[offsets[u]..offsets[u + 1]]`, and the same for incoming edges in
/// a second, reversed copy built alongside.
///
/// Building from `m` edges on `n` nodes takes `O(n + m)` time and memory;
/// listing a node's successors or predecessors is `O(1)` plus the degree.
///
/// ```
/// use cairns::graph::{CsrGraph, NodeId};
/// use cairns::heuristic::Zero;
/// use cairns::search::{AStar, Search, SearchCache};
///
/// let g = CsrGraph::from_edges(4, &[(0, 1, 1.0), (1, 3, 1.0), (0, 2, 0.5), (2, 3, 2.0)]).unwrap();
/// let mut cache = SearchCache::new();
/// let path = AStar::new(&g, Zero).search(NodeId(0), NodeId(3), &mut cache).unwrap();
/// assert_eq!(path.cost, 2.0);
/// assert_eq!(path.nodes, [NodeId(0), NodeId(1), NodeId(3)]);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct CsrGraph {
    forward: Csr,
    backward: Csr,
    unit: bool,
}

#[derive(Clone, Debug, PartialEq)]
struct Csr {
    offsets: Vec<u32>,
    targets: Vec<u32>,
    costs: Vec<f64>,
}

impl Csr {
    /// Counting sort of the edges by their `key` endpoint.
    fn build(nodes: usize, edges: &[(u32, u32, f64)], reverse: bool) -> Csr {
        let mut offsets = vec![0u32; nodes + 1];
        for &(u, v, _) in edges {
            let key = if reverse { v } else { u };
            offsets[key as usize + 1] += 1;
        }
        for i in 0..nodes {
            offsets[i + 1] += offsets[i];
        }
        let mut fill = offsets.clone();
        let mut targets = vec![0u32; edges.len()];
        let mut costs = vec![0f64; edges.len()];
        for &(u, v, c) in edges {
            let (key, other) = if reverse { (v, u) } else { (u, v) };
            let slot = &mut fill[key as usize];
            targets[*slot as usize] = other;
            costs[*slot as usize] = c;
            *slot += 1;
        }
        Csr {
            offsets,
            targets,
            costs,
        }
    }

    #[inline]
    fn edges(&self, node: NodeId) -> CsrSuccessors<'_> {
        let i = node.index();
        let (lo, hi) = (self.offsets[i] as usize, self.offsets[i + 1] as usize);
        CsrSuccessors {
            targets: self.targets[lo..hi].iter(),
            costs: self.costs[lo..hi].iter(),
        }
    }
}

impl CsrGraph {
    /// Builds a graph on nodes `0..nodes` from directed edges
    /// `(source, target, cost)`. Parallel edges and self-loops are kept.
    ///
    /// # Errors
    ///
    /// [`EdgeError`] names the first edge whose endpoint is out of range or
    /// whose cost is negative or not finite, or reports a graph too large for
    /// `u32` ids.
    pub fn from_edges(nodes: u32, edges: &[(u32, u32, f64)]) -> Result<CsrGraph, EdgeError> {
        let max = u32::MAX - 1;
        if nodes > max || edges.len() > max as usize {
            return Err(EdgeErrorKind::TooLarge {
                nodes: nodes as usize,
                edges: edges.len(),
                max,
            }
            .into());
        }
        for (index, &(u, v, cost)) in edges.iter().enumerate() {
            for node in [u, v] {
                if node >= nodes {
                    return Err(EdgeErrorKind::NodeOutOfRange { index, node, nodes }.into());
                }
            }
            if !(cost.is_finite() && cost >= 0.0) {
                return Err(EdgeErrorKind::BadCost { index, cost }.into());
            }
        }
        let n = nodes as usize;
        Ok(CsrGraph {
            forward: Csr::build(n, edges, false),
            backward: Csr::build(n, edges, true),
            unit: edges.iter().all(|e| e.2 == 1.0),
        })
    }

    /// Builds an undirected graph: each `(a, b, cost)` becomes the two edges
    /// `a -> b` and `b -> a`.
    ///
    /// # Errors
    ///
    /// As [`from_edges`](CsrGraph::from_edges).
    pub fn from_undirected_edges(
        nodes: u32, edges: &[(u32, u32, f64)],
    ) -> Result<CsrGraph, EdgeError> {
        let both: Vec<_> = edges
            .iter()
            .flat_map(|&(a, b, c)| [(a, b, c), (b, a, c)])
            .collect();
        Self::from_edges(nodes, &both)
    }

    /// Number of nodes.
    pub fn node_count(&self) -> usize {
        self.forward.offsets.len() - 1
    }

    /// Number of directed edges.
    pub fn edge_count(&self) -> usize {
        self.forward.targets.len()
    }
}

impl Graph for CsrGraph {
    type Successors<'a> = CsrSuccessors<'a>;

    #[inline]
    fn node_bound(&self) -> usize {
        self.node_count()
    }

    #[inline]
    fn successors(&self, node: NodeId) -> CsrSuccessors<'_> {
        self.forward.edges(node)
    }

    fn unit_costs(&self) -> bool {
        self.unit
    }
}

impl Reversible for CsrGraph {
    type Predecessors<'a> = CsrSuccessors<'a>;

    #[inline]
    fn predecessors(&self, node: NodeId) -> CsrSuccessors<'_> {
        self.backward.edges(node)
    }
}

/// The edges of one node of a [`CsrGraph`], as `(other end, cost)`.
#[derive(Clone, Debug)]
pub struct CsrSuccessors<'a> {
    targets: std::slice::Iter<'a, u32>,
    costs: std::slice::Iter<'a, f64>,
}

impl Iterator for CsrSuccessors<'_> {
    type Item = (NodeId, f64);

    #[inline]
    fn next(&mut self) -> Option<(NodeId, f64)> {
        Some((NodeId(*self.targets.next()?), *self.costs.next()?))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.targets.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forward_and_reverse_adjacency() {
        let g = CsrGraph::from_edges(3, &[(0, 1, 2.0), (0, 2, 3.0), (2, 1, 1.0)]).unwrap();
        let out: Vec<_> = g.successors(NodeId(0)).collect();
        assert_eq!(out, [(NodeId(1), 2.0), (NodeId(2), 3.0)]);
        let inc: Vec<_> = g.predecessors(NodeId(1)).collect();
        assert_eq!(inc, [(NodeId(0), 2.0), (NodeId(2), 1.0)]);
        assert_eq!(g.successors(NodeId(1)).count(), 0);
        assert_eq!(g.edge_count(), 3);
        assert!(!g.unit_costs());
    }

    #[test]
    fn rejects_bad_edges() {
        let e = CsrGraph::from_edges(2, &[(0, 1, 1.0), (0, 2, 1.0)]).unwrap_err();
        assert_eq!(
            e.kind(),
            &EdgeErrorKind::NodeOutOfRange {
                index: 1,
                node: 2,
                nodes: 2
            }
        );
        assert_eq!(
            e.to_string(),
            "edge 1: node 2 is out of range (the graph has 2 nodes)"
        );
        let e = CsrGraph::from_edges(2, &[(0, 1, -1.0)]).unwrap_err();
        assert!(matches!(e.kind(), EdgeErrorKind::BadCost { index: 0, .. }));
        assert!(CsrGraph::from_edges(2, &[(0, 1, f64::NAN)]).is_err());
        assert!(CsrGraph::from_edges(2, &[(0, 1, f64::INFINITY)]).is_err());
    }

    #[test]
    fn undirected_edges_go_both_ways() {
        let g = CsrGraph::from_undirected_edges(2, &[(0, 1, 1.0)]).unwrap();
        assert_eq!(
            g.successors(NodeId(1)).collect::<Vec<_>>(),
            [(NodeId(0), 1.0)]
        );
        assert!(g.unit_costs());
    }
}
