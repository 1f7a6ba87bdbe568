//! Dijkstra's algorithm, one-to-one and one-to-all.

use super::core::{Guide, Unlimited, run, seed};
use super::{Edges, Exhaust, Observer, Reopen, SearchCache, TowardGoal};
use crate::graph::{Graph, NodeId};
use crate::heuristic::Zero;
use crate::open::OpenSet;

/// Dijkstra's algorithm: A* without a heuristic.
///
/// # Contract
///
/// Edge costs are non-negative; every node is expanded at most once, in
/// order of its distance from the source.
///
/// # Complexity
///
/// `O((V + E) log V)` with a heap-based OPEN set; `O(V)` memory in the
/// reusable [`SearchCache`].
///
/// # Example
///
/// ```
/// use cairns::graph::{CsrGraph, NodeId};
/// use cairns::search::{Dijkstra, Search, SearchCache};
///
/// let g = CsrGraph::from_edges(4, &[(0, 1, 4.0), (0, 2, 1.0), (2, 1, 2.0)]).unwrap();
/// let mut cache = SearchCache::new();
/// Dijkstra::new(&g).all(NodeId(0), &mut cache);
/// assert_eq!(cache.g(NodeId(1)), Some(3.0));
/// assert_eq!(cache.g(NodeId(3)), None); // unreachable
/// ```
#[derive(Clone, Debug)]
pub struct Dijkstra<G> {
    graph: G,
}

impl<G: Graph> Dijkstra<G> {
    /// Dijkstra's algorithm on `graph`.
    pub fn new(graph: G) -> Self {
        Dijkstra { graph }
    }

    /// Computes the distance from `source` to every node it reaches; read
    /// them afterwards with [`SearchCache::g`] (or the paths with
    /// [`SearchCache::path_into`]). Does nothing for a source off the graph.
    pub fn all<Q: OpenSet>(&self, source: NodeId, cache: &mut SearchCache<Q>) {
        self.all_from_observed(&[source], cache, &mut ());
    }

    /// Like [`all`](Dijkstra::all), reporting events to `observer`.
    pub fn all_observed<Q: OpenSet, O: Observer + ?Sized>(
        &self, source: NodeId, cache: &mut SearchCache<Q>, observer: &mut O,
    ) {
        self.all_from_observed(&[source], cache, observer);
    }

    /// Computes the distance from the nearest of `sources` (all at distance
    /// 0) to every node; sources off the graph are ignored. A node's path
    /// ([`SearchCache::path_into`]) starts at its nearest source. On a
    /// [`Reversed`](crate::graph::Reversed) graph this is the distance *to*
    /// the nearest source: see [`DistanceField`](super::DistanceField).
    ///
    /// ```
    /// use cairns::graph::{CsrGraph, NodeId};
    /// use cairns::search::{Dijkstra, SearchCache};
    ///
    /// let g = CsrGraph::from_edges(4, &[(0, 1, 4.0), (2, 1, 1.0), (1, 3, 1.0)]).unwrap();
    /// let mut cache = SearchCache::new();
    /// Dijkstra::new(&g).all_from(&[NodeId(0), NodeId(2)], &mut cache);
    /// assert_eq!(cache.g(NodeId(3)), Some(2.0)); // from 2
    /// ```
    pub fn all_from<Q: OpenSet>(&self, sources: &[NodeId], cache: &mut SearchCache<Q>) {
        self.all_from_observed(sources, cache, &mut ());
    }

    /// Like [`all_from`](Dijkstra::all_from), reporting events to
    /// `observer`.
    pub fn all_from_observed<Q: OpenSet, O: Observer + ?Sized>(
        &self, sources: &[NodeId], cache: &mut SearchCache<Q>, observer: &mut O,
    ) {
        let bound = self.graph.node_bound();
        cache.begin(bound);
        let h = Guide {
            h: |_| 0.0,
            upper: |_| f64::INFINITY,
        };
        for &source in sources {
            seed(cache, bound, source, &h, observer);
        }
        run(
            &Edges(&self.graph),
            &h,
            &Exhaust,
            cache,
            observer,
            Reopen::Yes,
            &mut Unlimited,
        );
    }
}

/// Dijkstra is A* guided by [`Zero`].
impl<G: Graph> TowardGoal for Dijkstra<G> {
    along_edges!(Zero, |self| &Zero);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::{CsrGraph, Reversed};
    use crate::search::Search;

    #[test]
    fn one_to_all_and_reverse() {
        let g =
            CsrGraph::from_edges(4, &[(0, 1, 1.0), (1, 2, 2.0), (0, 2, 5.0), (3, 0, 1.0)]).unwrap();
        let mut cache = SearchCache::new();
        Dijkstra::new(&g).all(NodeId(0), &mut cache);
        let d: Vec<_> = (0..4).map(|i| cache.g(NodeId(i))).collect();
        assert_eq!(d, [Some(0.0), Some(1.0), Some(3.0), None]);
        // Distances *to* node 2.
        Dijkstra::new(Reversed(&g)).all(NodeId(2), &mut cache);
        let d: Vec<_> = (0..4).map(|i| cache.g(NodeId(i))).collect();
        assert_eq!(d, [Some(3.0), Some(2.0), Some(0.0), Some(4.0)]);
        assert_eq!(
            Dijkstra::new(&g)
                .search(NodeId(3), NodeId(2), &mut cache)
                .unwrap()
                .nodes,
            [NodeId(3), NodeId(0), NodeId(1), NodeId(2)]
        );
    }
}
