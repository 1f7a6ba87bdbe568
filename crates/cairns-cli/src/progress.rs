//! Progress on a terminal for the builds that can take more than a second
//! (the tables built before a search's first query, landmark tables): a
//! spinner with the phase's name and the time so far on stderr, drawn only
//! when stderr is a terminal, so that pipes and tests see nothing.
//!
//! The library's builds have no progress hook (and the library takes no
//! terminal dependency), so the spinner turns on its own while the build
//! runs.

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};

/// A spinner shown on stderr from [`Spinner::new`] until dropped (hidden
/// when stderr is not a terminal).
#[derive(Debug)]
pub struct Spinner(ProgressBar);

impl Spinner {
    /// Starts a spinner labelled `phase`.
    pub fn new(phase: &str) -> Spinner {
        if !std::io::stderr().is_terminal() {
            return Spinner(ProgressBar::hidden());
        }
        let bar = ProgressBar::new_spinner();
        bar.set_style(
            ProgressStyle::with_template("{spinner} {msg} {elapsed}").expect("static template"),
        );
        bar.set_message(phase.to_string());
        bar.enable_steady_tick(Duration::from_millis(100));
        Spinner(bar)
    }
}

impl Drop for Spinner {
    fn drop(&mut self) {
        self.0.finish_and_clear();
    }
}

/// Runs `work` with a spinner labelled `phase`.
pub fn during<T>(phase: &str, work: impl FnOnce() -> T) -> T {
    let _spinner = Spinner::new(phase);
    work()
}
