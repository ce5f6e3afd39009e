//! Whole-file runs on all cores: `rate` over files of puzzles and the generation of many puzzles. Work is cut into
//! numbered chunks, a window of chunks at a time runs on rayon, and each chunk's preformatted buffer goes to the
//! one [`OrderedWriter`], so output keeps input (or index) order and memory stays flat.
//!
//! (The general record pipeline of `src/batch/` takes over the file reading once it lands; this module keeps the
//! per-record work.)

use std::io;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::grid::{Grid, ParseError};
use crate::output::{OrderedWriter, OutputError, Sink};

use super::puzzle::{self, GenerateError, PuzzleOptions};
use super::rating::{rate, Histogram, RateError};

/// Records per chunk for `rate`.
const RATE_CHUNK: usize = 256;

/// What went wrong with one record.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecordProblem {
    /// The line is not a puzzle.
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// The puzzle cannot be rated.
    #[error(transparent)]
    Rate(#[from] RateError),
}

/// A record-level or file-level failure of a `rate` run; the run goes on.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// One record could not be rated.
    #[error("{}:{line}: {problem}", path.display())]
    Record {
        /// The input file.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
        /// What was wrong.
        problem: RecordProblem,
    },
    /// A whole input could not be read.
    #[error("{}: {source}", path.display())]
    Read {
        /// The input file.
        path: PathBuf,
        /// The cause.
        source: io::Error,
    },
}

/// Totals of a `rate` run.
#[derive(Debug, Clone, Default)]
pub struct RateSummary {
    /// Ratings and failures.
    pub histogram: Histogram,
    /// Records seen.
    pub records: u64,
    /// Inputs that could not be read.
    pub unreadable: u64,
}

/// Rates every puzzle of every file, files in the given order, records in file order, using the current rayon
/// pool. Each record gives one output line: `PUZZLE LEVEL SCORE GUESSES HARDEST` (puzzle with `.` blanks; see
/// [`super::Rating`]'s `Display`) or `error: REASON`. Failures go to `on_error` in order as well, and the run goes
/// on. `-` reads standard input.
pub fn rate_files(
    paths: &[PathBuf],
    sink: Sink,
    on_error: &mut dyn FnMut(&RunError),
) -> Result<RateSummary, OutputError> {
    let writer = OrderedWriter::spawn(sink, 2 * window());
    let mut summary = RateSummary::default();
    let mut next_index = 0u64;
    let mut stopped = false;
    for path in paths {
        let text = match read_input(path) {
            Ok(t) => t,
            Err(source) => {
                summary.unreadable += 1;
                on_error(&RunError::Read {
                    path: path.clone(),
                    source,
                });
                continue;
            }
        };
        let records = records(&text);
        summary.records += records.len() as u64;
        for window_records in records.chunks(RATE_CHUNK * window()) {
            let done: Vec<(Vec<u8>, Histogram, Vec<RunError>)> = window_records
                .par_chunks(RATE_CHUNK)
                .map(|chunk| rate_chunk(path, chunk))
                .collect();
            for (buf, hist, errors) in done {
                summary.histogram.merge(&hist);
                errors.iter().for_each(&mut *on_error);
                if writer.send(next_index, buf).is_err() {
                    stopped = true;
                    break;
                }
                next_index += 1;
            }
            if stopped {
                break;
            }
        }
        if stopped {
            break;
        }
    }
    writer.finish()?;
    Ok(summary)
}

/// Chunks in flight at once: a few per thread keeps every core busy without holding much output.
fn window() -> usize {
    4 * rayon::current_num_threads()
}

fn read_input(path: &Path) -> io::Result<Vec<u8>> {
    if path.as_os_str() == "-" {
        let mut v = Vec::new();
        io::Read::read_to_end(&mut io::stdin().lock(), &mut v)?;
        Ok(v)
    } else {
        std::fs::read(path)
    }
}

/// The puzzle lines of a text with their 1-based line numbers; blank and `#` lines are skipped.
fn records(text: &[u8]) -> Vec<(usize, &[u8])> {
    text.split(|&b| b == b'\n')
        .enumerate()
        .map(|(n, l)| (n + 1, l.strip_suffix(b"\r").unwrap_or(l)))
        .filter(|(_, l)| !l.trim_ascii().is_empty() && !l.starts_with(b"#"))
        .collect()
}

fn rate_chunk(path: &Path, chunk: &[(usize, &[u8])]) -> (Vec<u8>, Histogram, Vec<RunError>) {
    let mut buf = Vec::with_capacity(chunk.len() * 120);
    let mut hist = Histogram::default();
    let mut errors = Vec::new();
    for &(line, text) in chunk {
        let parsed = Grid::parse_line(text).map_err(RecordProblem::from);
        let rated = parsed.and_then(|g| rate(&g).map(|r| (g, r)).map_err(RecordProblem::from));
        match rated {
            Ok((g, r)) => {
                let mut cells = [0u8; 81];
                g.write_line(&mut cells, b'.');
                buf.extend_from_slice(&cells);
                buf.extend_from_slice(format!(" {r}\n").as_bytes());
                hist.add(&Ok(r));
            }
            Err(problem) => {
                buf.extend_from_slice(format!("error: {problem}\n").as_bytes());
                hist.failed += 1;
                errors.push(RunError::Record {
                    path: path.to_path_buf(),
                    line,
                    problem,
                });
            }
        }
    }
    (buf, hist, errors)
}

/// Totals of a puzzle-generation run.
#[derive(Debug, Clone, Default)]
pub struct GenerateSummary {
    /// Puzzles written.
    pub puzzles: u64,
    /// Candidate puzzles made and thrown away (wrong clue count or level) before those kept.
    pub rejected: u64,
    /// Clues summed over the puzzles written.
    pub clues: u64,
}

/// Puzzles per chunk for generation.
const GENERATE_CHUNK: u64 = 16;

/// Generates `count` puzzles (puzzle `i` from `seed` and `i` alone, so the output does not depend on the thread
/// count), one line each with `.` blanks, in index order, using the current rayon pool.
pub fn generate_puzzles(
    count: u64,
    options: &PuzzleOptions,
    seed: u64,
    sink: Sink,
) -> Result<GenerateSummary, GenerateRunError> {
    options.check()?;
    let writer = OrderedWriter::spawn(sink, 2 * window());
    let chunks = count.div_ceil(GENERATE_CHUNK);
    let mut summary = GenerateSummary::default();
    let mut first = 0u64;
    let mut failure = None;
    'windows: while first < chunks {
        let last = (first + window() as u64).min(chunks);
        let done: Vec<Result<(Vec<u8>, GenerateSummary), GenerateError>> = (first..last)
            .into_par_iter()
            .map(|chunk| {
                let mut buf = Vec::with_capacity(GENERATE_CHUNK as usize * 82);
                let mut s = GenerateSummary::default();
                let end = ((chunk + 1) * GENERATE_CHUNK).min(count);
                for index in chunk * GENERATE_CHUNK..end {
                    let p = puzzle::generate(options, seed, index)?;
                    let mut cells = [0u8; 81];
                    p.puzzle.write_line(&mut cells, b'.');
                    buf.extend_from_slice(&cells);
                    buf.push(b'\n');
                    s.puzzles += 1;
                    s.rejected += u64::from(p.attempts - 1);
                    s.clues += p.puzzle.clue_count() as u64;
                }
                Ok((buf, s))
            })
            .collect();
        for (chunk, r) in (first..last).zip(done) {
            match r {
                Ok((buf, s)) => {
                    summary.puzzles += s.puzzles;
                    summary.rejected += s.rejected;
                    summary.clues += s.clues;
                    if writer.send(chunk, buf).is_err() {
                        break 'windows;
                    }
                }
                Err(e) => {
                    failure = Some(e);
                    break 'windows;
                }
            }
        }
        first = last;
    }
    if let Some(e) = failure {
        // Leave no partial file: a buffer past a gap makes the writer refuse to complete the output, and an
        // output that is not completed is removed (see `OrderedWriter`).
        let _ = writer.send(u64::MAX, Vec::new());
        let _ = writer.finish();
        return Err(e.into());
    }
    writer.finish()?;
    Ok(summary)
}

/// Why a generation run stopped.
#[derive(Debug, thiserror::Error)]
pub enum GenerateRunError {
    /// The options cannot be met, or a puzzle could not be made.
    #[error(transparent)]
    Generate(#[from] GenerateError),
    /// Writing failed.
    #[error(transparent)]
    Output(#[from] OutputError),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_skip_comments_and_blanks_and_keep_line_numbers() {
        let text = b"# head\n\nabc\r\n  \nxyz";
        let r = records(text);
        assert_eq!(r, vec![(3, &b"abc"[..]), (5, &b"xyz"[..])]);
    }
}
