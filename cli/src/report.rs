//! What the binary shows on standard error while a run goes on: per-record failure messages
//! `sudoku: FILE:LINE: REASON` (limited by `--max-errors`), the progress (a bar on a terminal, a status line every
//! few seconds on a log), and the hint of how many messages were held back. The library reports to it through
//! its `Observer` trait.

use std::io::{BufWriter, Stderr, Write};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use sudoku_batch::batch::BatchSummary;
use sudoku_batch::{Failure, FailureKind, Observer, Position, Progress};

/// Delay before a progress bar appears, so short runs never show one.
const PROGRESS_DELAY: Duration = Duration::from_millis(500);

/// Time between two status lines on a standard error that is not a terminal (and before the first), unless the
/// environment variable [`STATUS_INTERVAL_VAR`] says otherwise.
pub const STATUS_EVERY: Duration = Duration::from_secs(5);

/// The environment variable that sets the seconds between status lines on a log (`0` or `off`: none).
pub const STATUS_INTERVAL_VAR: &str = "SUDOKU_STATUS_INTERVAL";

/// The time between status lines: [`STATUS_EVERY`], or what [`STATUS_INTERVAL_VAR`] says; `None` for none.
pub fn status_interval() -> Option<Duration> {
    let Some(value) = std::env::var_os(STATUS_INTERVAL_VAR) else {
        return Some(STATUS_EVERY);
    };
    let seconds = value.to_str().and_then(|v| v.trim().parse::<f64>().ok());
    match seconds {
        // Beyond what a `Duration` holds (1e30) is never: no status line, as for 0.
        Some(s) if s > 0.0 => Duration::try_from_secs_f64(s).ok(),
        Some(_) => None,
        None if value == "off" => None,
        None => Some(STATUS_EVERY),
    }
}

/// Bytes of per-record messages held before a write (a chunk's worth of messages usually fits).
const DIAG_BUFFER: usize = 64 * 1024;

/// Columns of the bar; with the longest status text the line stays within 80 columns.
const BAR_WIDTH: usize = 30;

/// How the progress of a run is shown on standard error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Show {
    /// Not at all (`-q`, or the output itself goes to the terminal).
    Off,
    /// A bar redrawn in place (standard error is a terminal).
    Bar,
    /// A status line at this interval (standard error is a file or a pipe: a log).
    Lines(Duration),
}

/// The observer of a run in the binary. Messages are buffered and flushed once per chunk (and at the end), so
/// that a file of failed records costs one `write(2)` per chunk rather than one per record.
pub struct Reporter {
    diag: BufWriter<Stderr>,
    max_errors: Option<u64>,
    quiet: bool,
    shown: u64,
    hidden: u64,
    show: Show,
    /// What the run counts: "records", "boards", "puzzles".
    noun: &'static str,
    bar: Option<ProgressBar>,
    started: Instant,
    /// When the last status line was written (`Show::Lines`).
    last_line: Instant,
}

impl Reporter {
    /// `show`: how to show progress; `max_errors`: at most this many failure messages; `quiet`: no note about the
    /// ones held back; `noun`: what the run counts.
    pub fn new(show: Show, max_errors: Option<u64>, quiet: bool, noun: &'static str) -> Reporter {
        let now = Instant::now();
        Reporter {
            diag: BufWriter::with_capacity(DIAG_BUFFER, std::io::stderr()),
            max_errors,
            quiet,
            shown: 0,
            hidden: 0,
            show,
            noun,
            bar: None,
            started: now,
            last_line: now,
        }
    }

    /// Clears the bar and tells how many messages `--max-errors` held back: unless quiet, or quiet when some were
    /// shown (the list is cut short; under `-q --max-errors 0` nothing is said).
    pub fn finish(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
        if self.hidden > 0 && (!self.quiet || self.shown > 0) {
            let _ = writeln!(
                self.diag,
                "sudoku: {} more failed records not shown (--max-errors {}; --max-errors all shows every one)",
                self.hidden,
                self.max_errors.unwrap_or(0)
            );
        }
        let _ = self.diag.flush();
    }

    fn new_bar(&self, total: Option<u64>) -> ProgressBar {
        let bar = ProgressBar::with_draw_target(total, ProgressDrawTarget::stderr());
        let template = match total {
            Some(_) => format!("{{bar:{BAR_WIDTH}}} {{msg}}"),
            None => "{spinner} {msg}".to_string(),
        };
        if let Ok(style) = ProgressStyle::with_template(&template) {
            bar.set_style(style);
        }
        bar
    }
}

/// The status of a run in at most 48 columns: `1.23M records, 512k/s, 45%, 1m 12s left`; without a known total,
/// `1.23M records, 512k/s, 2m 03s`. The rate is the mean since the start; the time left assumes the rest of the
/// work (input bytes, or items) goes at the mean speed so far.
pub fn status(p: Progress, elapsed: Duration, noun: &str) -> String {
    let secs = elapsed.as_secs_f64();
    let rate = if secs > 0.0 {
        p.items as f64 / secs
    } else {
        0.0
    };
    let head = format!("{} {noun}, {}/s", count(p.items as f64), count(rate));
    match p.total {
        Some(total) if total > 0 => {
            let fraction = (p.done as f64 / total as f64).min(1.0);
            let left = if p.done > 0 {
                format!(
                    "{} left",
                    duration(secs * (total.saturating_sub(p.done)) as f64 / p.done as f64)
                )
            } else {
                "? left".to_string()
            };
            format!("{head}, {:.0}%, {left}", (fraction * 100.0).floor())
        }
        _ => format!("{head}, {}", duration(secs)),
    }
}

/// A count in at most 5 characters: exact below 10,000 (one decimal below 10 for a rate), else three digits and
/// k, M, G or T.
pub fn count(n: f64) -> String {
    if n < 9.95 && n.fract() != 0.0 {
        return format!("{n:.1}");
    }
    if n < 9_999.5 {
        return format!("{n:.0}");
    }
    let (value, unit) = [(1e3, "k"), (1e6, "M"), (1e9, "G"), (1e12, "T")]
        .into_iter()
        .map(|(scale, unit)| (n / scale, unit))
        .find(|(v, _)| *v < 999.5)
        .unwrap_or((n / 1e12, "T"));
    if value < 9.995 {
        format!("{value:.2}{unit}")
    } else if value < 99.95 {
        format!("{value:.1}{unit}")
    } else {
        format!("{value:.0}{unit}")
    }
}

/// A duration in at most 7 characters: `42s`, `3m 05s`, `2h 10m`, `31d 04h`, `>99d`.
pub fn duration(secs: f64) -> String {
    let s = secs.max(0.0).round() as u64;
    match s {
        0..=59 => format!("{s}s"),
        60..=3599 => format!("{}m {:02}s", s / 60, s % 60),
        3600..=86_399 => format!("{}h {:02}m", s / 3600, s % 3600 / 60),
        86_400..=8_639_999 => format!("{}d {:02}h", s / 86_400, s % 86_400 / 3600),
        _ => ">99d".to_string(),
    }
}

impl Observer for Reporter {
    fn failure(&mut self, input: &str, at: Position, failure: &Failure) {
        if self.max_errors.is_some_and(|m| self.shown >= m) {
            self.hidden += 1;
            return;
        }
        self.shown += 1;
        let _ = writeln!(self.diag, "sudoku: {}: {failure}", at.within(input));
    }

    fn progress(&mut self, progress: Progress) {
        let text = || status(progress, self.started.elapsed(), self.noun);
        match (&self.bar, self.show) {
            // A drawn bar must not overwrite the messages: they go out while the bar is cleared.
            (Some(bar), _) => {
                let diag = &mut self.diag;
                bar.suspend(|| {
                    let _ = diag.flush();
                });
                bar.set_position(progress.done);
                bar.set_message(text());
            }
            (None, Show::Bar) if self.started.elapsed() >= PROGRESS_DELAY => {
                let _ = self.diag.flush();
                let bar = self.new_bar(progress.total);
                bar.set_position(progress.done);
                bar.set_message(text());
                self.bar = Some(bar);
            }
            (None, Show::Lines(every)) if self.last_line.elapsed() >= every => {
                let line = text();
                let _ = writeln!(self.diag, "sudoku: {line}");
                let _ = self.diag.flush();
                self.last_line = Instant::now();
            }
            _ => {
                let _ = self.diag.flush();
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

/// The summary of a batch run for people, on one line: `N records, N <answered>, N <kind>...; S s, R puzzles/s`,
/// `answered` naming what a good record got ("solved", "ok", ...); failure kinds without records are left out.
pub fn summary_text(summary: &BatchSummary, answered: &str) -> String {
    let c = &summary.counts;
    let noun = if c.records == 1 { "record" } else { "records" };
    let mut s = format!("{} {noun}, {} {answered}", c.records, c.solved());
    for (kind, &n) in FailureKind::ALL.iter().zip(&c.failed) {
        if n > 0 {
            // The JSON key in words: "clashing givens", "no solution", ...
            s.push_str(&format!(", {n} {}", kind.key().replace('_', " ")));
        }
    }
    if c.dropped > 0 {
        s.push_str(&format!(", {} repeats dropped", c.dropped));
    }
    let per_second = if summary.seconds > 0.0 {
        c.records as f64 / summary.seconds
    } else {
        0.0
    };
    s.push_str(&format!(
        "; {:.3} s, {per_second:.0} puzzles/s",
        summary.seconds
    ));
    if summary.stopped {
        s.push_str("; stopped at the first failed record");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_summary_names_nonzero_kinds() {
        let summary = BatchSummary {
            counts: sudoku_batch::batch::Counts {
                records: 10,
                failed: [1, 0, 2, 0, 0],
                dropped: 0,
            },
            seconds: 2.0,
            ..BatchSummary::default()
        };
        assert_eq!(
            summary_text(&summary, "solved"),
            "10 records, 7 solved, 1 malformed, 2 no solution; 2.000 s, 5 puzzles/s"
        );
    }

    fn at(items: u64, done: u64, total: Option<u64>) -> Progress {
        Progress { items, done, total }
    }

    #[test]
    fn status_counts_items_with_their_rate_and_the_time_left() {
        // 2 s in, 1,000,000 records from a quarter of the bytes: 500k/s, 6 s left.
        let s = status(
            at(1_000_000, 250, Some(1000)),
            Duration::from_secs(2),
            "records",
        );
        assert_eq!(s, "1.00M records, 500k/s, 25%, 6s left");
        let s = status(at(12, 12, Some(100)), Duration::from_secs(150), "puzzles");
        assert_eq!(s, "12 puzzles, 0.1/s, 12%, 18m 20s left");
        let s = status(at(123_456, 9, None), Duration::from_secs(61), "records");
        assert_eq!(s, "123k records, 2024/s, 1m 01s");
        assert_eq!(
            status(at(0, 0, Some(5)), Duration::ZERO, "boards"),
            "0 boards, 0/s, 0%, ? left"
        );
    }

    #[test]
    fn the_bar_line_fits_80_columns() {
        let worst = status(
            at(999_999_999_999, 1, Some(u64::MAX)),
            Duration::from_secs(1),
            "puzzles",
        );
        assert!(BAR_WIDTH + 1 + worst.len() <= 80, "{worst}");
        assert_eq!(count(9_999.0), "9999");
        assert_eq!(count(10_000.0), "10.0k");
        assert_eq!(count(999_600.0), "1.00M");
        assert_eq!(duration(3600.0), "1h 00m");
    }
}
