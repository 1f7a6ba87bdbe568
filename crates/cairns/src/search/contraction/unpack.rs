//! Every edge of a hierarchy unpacked once, so that a query's path is a
//! copy of its edges' node lists rather than a walk down the shortcuts'
//! halves (a random read of the edge table for each node of the path).

use super::{NO_MIDDLE, Packed};

/// For each edge of a hierarchy, by id, the graph's nodes its path visits
/// after its tail (its head last): one node for an edge of the graph, the
/// nodes of both halves for a shortcut. On a road graph the lists hold
/// three to five nodes an edge (Bremen: 441,353 for 146,945 edges).
///
/// Empty when the lists would hold `2^32` nodes or more; a path is then
/// unpacked through the halves.
#[derive(Clone, Debug, Default)]
pub(super) struct Unpacked {
    /// Where each edge's nodes start in `nodes`, and where the last ends.
    offsets: Vec<u32>,
    nodes: Vec<u32>,
}

impl Unpacked {
    /// The lists of the edges of `packed`, whose ends are ranks (the
    /// nodes of `node_of`), and whose shortcuts' halves end below them
    /// (as the build makes them and a loader checks).
    pub(super) fn new(packed: &[Packed], node_of: &[u32]) -> Unpacked {
        let mut offsets = Vec::with_capacity(packed.len() + 1);
        offsets.push(0u32);
        let mut nodes: Vec<u32> = Vec::with_capacity(packed.len() * 3);
        let mut stack = Vec::new();
        for id in 0..packed.len() as u32 {
            stack.push(id);
            while let Some(e) = stack.pop() {
                if e < id {
                    // Listed already: copied.
                    let (from, to) = (offsets[e as usize], offsets[e as usize + 1]);
                    nodes.extend_from_within(from as usize..to as usize);
                    continue;
                }
                let p = packed[e as usize];
                if p.first == NO_MIDDLE {
                    nodes.push(node_of[p.head as usize]);
                } else {
                    // tail -> middle first: pushed last.
                    stack.push(p.second);
                    stack.push(p.first);
                }
            }
            let Ok(end) = u32::try_from(nodes.len()) else {
                return Unpacked::default();
            };
            offsets.push(end);
        }
        Unpacked { offsets, nodes }
    }

    /// The nodes edge `id`'s path visits after its tail, if listed.
    #[inline]
    pub(super) fn nodes(&self, id: u32) -> Option<&[u32]> {
        let from = *self.offsets.get(id as usize)? as usize;
        let to = *self.offsets.get(id as usize + 1)? as usize;
        Some(&self.nodes[from..to])
    }

    pub(super) fn bytes(&self) -> usize {
        (self.offsets.len() + self.nodes.len()) * 4
    }
}
