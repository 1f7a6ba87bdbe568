//! How much each landmark raises the estimates: the numbers under the
//! page's "landmark help" and "goals landmark helps" shadings and its
//! hover, shared by the search route and `POST /api/landmark-help`.

use std::time::Instant;

use cairns::graph::NodeId;
use cairns::grid::GridGraph;
use cairns::heuristic::{Heuristic, Octile};
use cairns::landmarks::LandmarkTable;
use cairns::spec::HeuristicSpec;

use crate::wire::{ApiError, HelpResponse, bad, base64};

/// How much landmark `l` raises the estimate of `d(n, goal)` above `base`
/// (the octile distance): its triangle bound minus the base, at least 0;
/// `None` where the bound says nothing (an infinite or missing distance).
///
/// Symmetric: `|d(L, goal) - d(L, n)|`. Directed: the larger of
/// `d(n, L) - d(goal, L)` and `d(L, goal) - d(L, n)`.
pub(crate) fn gain(
    table: &LandmarkTable, l: usize, n: NodeId, goal: NodeId, base: f64,
) -> Option<f64> {
    let end = |v| Ends {
        to: table.to_landmark(v, l),
        from: table.from_landmark(l, v),
    };
    end(n).gain(end(goal), table.margin(), base)
}

/// A cell's distances to and from one landmark: one end of its bound.
#[derive(Clone, Copy)]
struct Ends {
    /// `d(cell, L)`.
    to: f64,
    /// `d(L, cell)`.
    from: f64,
}

impl Ends {
    /// The gain of the bound from this cell to `goal` (see [`gain`]), the
    /// table's `margin` taken off.
    #[inline]
    fn gain(self, goal: Ends, margin: f64, base: f64) -> Option<f64> {
        let bound = (self.to - goal.to).max(goal.from - self.from);
        if bound.is_nan() || !self.to.is_finite() || !goal.to.is_finite() {
            return None;
        }
        Some((bound - margin - base).max(0.0))
    }
}

/// The gains of every cell as bytes, the largest gain and how many cells
/// gain (see [`HelpResponse`]); `gain_at` gives a passable cell's gain.
///
/// Two passes over one `f64` per cell (`NaN` for none): a drag under the
/// shading pays this on every move.
fn gains(
    graph: &GridGraph, mut gain_at: impl FnMut(NodeId) -> Option<f64>,
) -> (Vec<u8>, f64, usize, usize) {
    let mut max = 0.0f64;
    let (mut helped, mut cells) = (0, 0);
    let values: Vec<f64> = (0..graph.grid().len() as u32)
        .map(NodeId)
        .map(
            |n| match graph.is_passable(n).then(|| gain_at(n)).flatten() {
                Some(g) => {
                    max = max.max(g);
                    helped += usize::from(g > 0.0);
                    cells += 1;
                    g
                }
                None => f64::NAN,
            },
        )
        .collect();
    let bytes = values
        .iter()
        .map(|&g| match g {
            g if g.is_nan() => 255,
            _ if max <= 0.0 => 0,
            g => (g / max * 254.0).round().clamp(0.0, 254.0) as u8,
        })
        .collect();
    (bytes, max, helped, cells)
}

/// Refuses a landmark index that the request does not place.
pub(crate) fn check_landmark(landmark: usize, count: usize) -> Result<(), ApiError> {
    if landmark >= count {
        return Err(bad(format!(
            "landmark {landmark} does not exist: the request places {count}"
        )));
    }
    Ok(())
}

/// The gains of landmark `l` of `count` (of `table`) on `graph`: towards the goal `fixed` for every cell, or, with `goals`,
/// from the start `fixed` to every cell taken as the goal (which goals
/// the landmark helps).
pub(crate) fn help_of(
    graph: &GridGraph, table: &LandmarkTable, count: usize, l: usize, fixed: NodeId, goals: bool,
) -> Result<HelpResponse, ApiError> {
    let t0 = Instant::now();
    check_landmark(l, count)?;
    // The octile distance is symmetric: from every cell to `fixed`.
    let octile = Octile::new(graph);
    let target = octile.goal(fixed);
    let margin = table.margin();
    let end = |v| Ends {
        to: table.to_landmark(v, l),
        from: table.from_landmark(l, v),
    };
    let at = end(fixed);
    let (bytes, max, helped, cells) = gains(graph, |v| {
        let base = octile.estimate(v, &target);
        if goals {
            at.gain(end(v), margin, base)
        } else {
            end(v).gain(at, margin, base)
        }
    });
    Ok(HelpResponse {
        width: graph.width(),
        height: graph.height(),
        gain: base64(&bytes),
        max,
        helped,
        cells,
        millis: t0.elapsed().as_secs_f64() * 1e3,
    })
}

/// For every cell, the landmark whose bound towards `goal` is the largest
/// (see [`SearchResponse::owners`](crate::SearchResponse::owners)), as
/// base64.
pub(crate) fn owners_of(
    graph: &GridGraph, table: &LandmarkTable, goal: NodeId,
) -> Result<String, ApiError> {
    let base = HeuristicSpec::Octile
        .estimates(graph, None, None, goal)
        .map_err(|e| bad(e.to_string()))?;
    let bytes: Vec<u8> = (0..graph.grid().len() as u32)
        .map(NodeId)
        .map(|n| {
            if !graph.is_passable(n) {
                return 255;
            }
            let mut best: Option<(usize, f64)> = None;
            for l in 0..table.landmarks().len() {
                if let Some(g) = gain(table, l, n, goal, base[n.index()])
                    && best.is_none_or(|(_, b)| g > b)
                {
                    best = Some((l, g));
                }
            }
            match best {
                None => 255,
                Some((_, g)) if g <= 0.0 => 254,
                Some((l, _)) => l.min(253) as u8,
            }
        })
        .collect();
    Ok(base64(&bytes))
}

#[cfg(test)]
mod tests {
    use super::*;
    use cairns::grid::{Grid, Neighborhood};
    use cairns::landmarks::{DifferentialHeuristic, Directedness};

    /// The gain plus the octile distance is the landmark's own bound, so
    /// with one landmark it is what the differential heuristic estimates,
    /// for both kinds of table.
    #[test]
    fn gain_plus_octile_is_the_one_landmark_heuristic() {
        let grid = Grid::from_ascii(
            "
            ..........
            .@@@@@@@@.
            .........@
            @@@@@@@@.@
            ..........",
        )
        .unwrap();
        let graph = GridGraph::new(grid, Neighborhood::Octile);
        let goal = graph.node(0, 2).unwrap();
        let landmark = graph.node(0, 4).unwrap();
        let octile = Octile::new(&graph);
        let mut some_gain = false;
        for directedness in [Directedness::Symmetric, Directedness::Directed] {
            let table = LandmarkTable::build(&graph, &[landmark], directedness);
            let dh = DifferentialHeuristic::new(&table, Octile::new(&graph));
            let target = dh.goal(goal);
            let base_goal = octile.goal(goal);
            for i in 0..graph.grid().len() as u32 {
                let n = NodeId(i);
                if !graph.is_passable(n) {
                    continue;
                }
                let base = octile.estimate(n, &base_goal);
                let g = gain(&table, 0, n, goal, base).unwrap();
                assert!(g >= 0.0);
                some_gain |= g > 0.0;
                let h = dh.estimate(n, &target);
                assert!((base + g - h).abs() < 1e-6, "{n}: {base} + {g} != {h}");
            }
        }
        assert!(some_gain, "the wall makes the landmark help somewhere");
    }

    #[test]
    fn gains_scale_to_the_largest_and_mark_walls() {
        let grid = Grid::from_ascii("....\n.@@.\n....").unwrap();
        let graph = GridGraph::new(grid, Neighborhood::Octile);
        let table = LandmarkTable::build(&graph, &[NodeId(0)], Directedness::Symmetric);
        let goal = graph.node(3, 2).unwrap();
        let base = vec![0.0; graph.grid().len()];
        let (bytes, max, helped, cells) =
            gains(&graph, |n| gain(&table, 0, n, goal, base[n.index()]));
        assert_eq!(bytes[5], 255, "a wall has no gain");
        assert_eq!(cells, 10);
        // With a zero base the gain is |d(L, goal) - d(L, n)|: largest at
        // the landmark itself (d(L, goal) away) and 0 at the goal.
        assert_eq!(bytes[0], 254);
        assert_eq!(bytes[goal.index()], 0);
        assert!((max - table.to_landmark(goal, 0)).abs() < 1e-4);
        // Only the goal is as far from L as the goal is.
        assert_eq!(helped, cells - 1, "every cell but the goal gains");
    }
}
