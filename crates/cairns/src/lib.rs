//! cairns: optimal pathfinding on grid maps and weighted graphs.
#![deny(missing_docs)]

pub mod graph;
pub mod grid;
pub mod heuristic;
pub mod landmarks;
pub mod movingai;
pub mod open;
pub mod search;
