//! What is wrong with a name or a combination: [`SpecError`].

/// What is wrong with a name or a combination.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{kind}")]
pub struct SpecError {
    kind: SpecErrorKind,
}

impl SpecError {
    /// What went wrong.
    pub fn kind(&self) -> &SpecErrorKind {
        &self.kind
    }
}

impl From<SpecErrorKind> for SpecError {
    fn from(kind: SpecErrorKind) -> Self {
        SpecError { kind }
    }
}

/// The kinds of [`SpecError`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SpecErrorKind {
    /// A name that is not in the vocabulary; `expected` lists the valid ones.
    #[error("unknown {what} {name:?} (expected {expected})")]
    UnknownName {
        /// What the name was for: "search", "heuristic", "OPEN set", ...
        what: &'static str,
        /// The name given (at most 60 characters of it).
        name: String,
        /// The valid names.
        expected: String,
    },
    /// A landmark count out of range or not a number.
    #[error("the landmark count must be a number from 1 to {max}, got {found:?}")]
    LandmarkCount {
        /// What was given.
        found: String,
        /// The most a spec may ask for
        /// ([`MAX_LANDMARKS`](super::MAX_LANDMARKS)).
        max: usize,
    },
    /// A weight that is not a finite number of at least 1.
    #[error("the weight must be a number of at least 1, got {found:?}")]
    Weight {
        /// What was given.
        found: String,
    },
    /// A combination the algorithm cannot run.
    #[error("{algorithm} {reason}")]
    Unsupported {
        /// The algorithm's name.
        algorithm: &'static str,
        /// Why, in a few words.
        reason: String,
    },
    /// A heuristic that overestimates under the graph's movement rule: the
    /// search would not be optimal.
    #[error(
        "{heuristic} is not admissible with {movement} movement (it overestimates; use {instead})"
    )]
    Inadmissible {
        /// The heuristic's name.
        heuristic: String,
        /// `octile` or `4-connected`.
        movement: &'static str,
        /// The admissible default.
        instead: String,
    },
    /// A landmark heuristic without its table (a bare `dh` needs a saved
    /// table), or a table with another number of landmarks.
    #[error("{0}")]
    Table(String),
}

/// The first 60 characters of a name, for messages.
pub(super) fn clip(s: &str) -> String {
    const MAX: usize = 60;
    match s.char_indices().nth(MAX) {
        Some((i, _)) => format!("{}...", &s[..i]),
        None => s.to_string(),
    }
}

pub(super) fn unknown(what: &'static str, name: &str, expected: String) -> SpecError {
    SpecErrorKind::UnknownName {
        what,
        name: clip(name),
        expected,
    }
    .into()
}

pub(super) fn one_of<'a>(names: impl IntoIterator<Item = &'a str>) -> String {
    format!(
        "one of: {}",
        names.into_iter().collect::<Vec<_>>().join(", ")
    )
}
