//! Seeded map generators.

/// Placeholder.
#[derive(Debug)]
pub struct GenerateOptions;
/// Placeholder.
#[derive(Debug)]
pub enum MapKind {}
/// Placeholder.
pub fn generate() {}
