//! What the binary shows on standard error while a run goes on: per-record failure messages
//! `sudoku: FILE:LINE: REASON` (limited by `--max-errors`), a progress bar when standard error is a terminal, and
//! the hint of how many messages were held back. The library reports to it through its `Observer` trait.

use std::io::{BufWriter, Stderr, Write};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use sudoku_batch::record::{Failure, Observer};

/// Delay before a progress bar appears, so short runs never show one.
const PROGRESS_DELAY: Duration = Duration::from_millis(500);

/// Bytes of per-record messages held before a write (a chunk's worth of messages usually fits).
const DIAG_BUFFER: usize = 64 * 1024;

/// What the progress of a run counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// Input bytes (batch runs).
    Bytes,
    /// Boards or puzzles made (generation runs).
    Items(&'static str),
}

/// The observer of a run in the binary. Messages are buffered and flushed once per chunk (and at the end), so
/// that a file of failed records costs one `write(2)` per chunk rather than one per record.
pub struct Reporter {
    diag: BufWriter<Stderr>,
    max_errors: Option<u64>,
    quiet: bool,
    shown: u64,
    hidden: u64,
    progress: bool,
    unit: Unit,
    bar: Option<ProgressBar>,
    started: Instant,
}

impl Reporter {
    /// `progress`: draw a bar once the run is long (the caller checks that standard error is a terminal);
    /// `max_errors`: at most this many failure messages; `quiet`: no note about the ones held back.
    pub fn new(progress: bool, max_errors: Option<u64>, quiet: bool, unit: Unit) -> Reporter {
        Reporter {
            diag: BufWriter::with_capacity(DIAG_BUFFER, std::io::stderr()),
            max_errors,
            quiet,
            shown: 0,
            hidden: 0,
            progress,
            unit,
            bar: None,
            started: Instant::now(),
        }
    }

    /// Clears the bar and tells how many messages `--max-errors` held back (unless quiet).
    pub fn finish(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
        if self.hidden > 0 && !self.quiet {
            let _ = writeln!(
                self.diag,
                "sudoku: {} more failed records not shown (--max-errors {})",
                self.hidden,
                self.max_errors.unwrap_or(0)
            );
        }
        let _ = self.diag.flush();
    }

    fn new_bar(&self, total: Option<u64>) -> ProgressBar {
        let bar = ProgressBar::with_draw_target(total, ProgressDrawTarget::stderr());
        let template = match (self.unit, total.is_some()) {
            (Unit::Bytes, true) => {
                "{bar:40} {bytes}/{total_bytes} {bytes_per_sec} eta {eta}".to_string()
            }
            (Unit::Bytes, false) => "{spinner} {bytes} {bytes_per_sec}".to_string(),
            (Unit::Items(what), _) => {
                format!("{{bar:40}} {{human_pos}}/{{human_len}} {what}, {{elapsed}} elapsed, {{eta}} left")
            }
        };
        if let Ok(style) = ProgressStyle::with_template(&template) {
            bar.set_style(style);
        }
        bar
    }
}

impl Observer for Reporter {
    fn failure(&mut self, input: &str, line: u64, failure: &Failure) {
        if self.max_errors.is_some_and(|m| self.shown >= m) {
            self.hidden += 1;
            return;
        }
        self.shown += 1;
        let _ = writeln!(self.diag, "sudoku: {input}:{line}: {failure}");
    }

    fn progress(&mut self, done: u64, total: Option<u64>) {
        match &self.bar {
            // A drawn bar must not overwrite the messages: they go out while the bar is cleared.
            Some(bar) => {
                let diag = &mut self.diag;
                bar.suspend(|| {
                    let _ = diag.flush();
                });
                bar.set_position(done);
            }
            None => {
                let _ = self.diag.flush();
                if self.progress && self.started.elapsed() >= PROGRESS_DELAY {
                    let bar = self.new_bar(total);
                    bar.set_position(done);
                    self.bar = Some(bar);
                }
            }
        }
    }
}

impl Drop for Reporter {
    fn drop(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
        let _ = self.diag.flush();
    }
}
