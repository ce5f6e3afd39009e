//! The `explain`, `rate` and `generate-puzzles` commands: set up threads and output, run the library's
//! `human` module, print the summary, map the outcome to an exit code.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;
use sudoku_batch::human::{self, Ending, Goal, Level, PuzzleOptions, Symmetry};
use sudoku_batch::output::{Sink, Target};
use sudoku_batch::Grid;

/// `sudoku explain PUZZLE [--candidates]`: 0 when solved (unique), 1 for no or several solutions or clashing
/// givens, 2 for an unreadable puzzle.
pub fn explain(input: &str, candidates: bool) -> anyhow::Result<ExitCode> {
    let path = Path::new(input);
    let (name, text) = if path.is_file() {
        let text = std::fs::read(path).with_context(|| input.to_string())?;
        (input, text)
    } else {
        ("<argument>", input.as_bytes().to_vec())
    };
    let puzzle = first_puzzle(&text).with_context(|| name.to_string())?;
    if let Err(c) = puzzle.check_givens() {
        eprintln!("sudoku: {name}: clashing givens: {c}");
        return Ok(ExitCode::from(1));
    }
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let ending = human::write_explanation(&puzzle, candidates, &mut out)
        .and_then(|e| std::io::Write::flush(&mut out).map(|_| e));
    let ending = match ending {
        Ok(e) => e,
        // A closed pipe (`sudoku explain ... | head`) ends the run quietly.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(ExitCode::SUCCESS),
        Err(e) => return Err(e.into()),
    };
    Ok(match ending {
        Ending::Solved(_) => ExitCode::SUCCESS,
        Ending::SolvedOneOfMany(_) => {
            eprintln!("sudoku: {name}: more than one solution");
            ExitCode::from(1)
        }
        Ending::NoSolution => {
            eprintln!("sudoku: {name}: no solution");
            ExitCode::from(1)
        }
    })
}

/// The first puzzle of a text (`#` lines skipped): an 81-character line, or the first block of the 9-line grid
/// notation (up to a blank line).
fn first_puzzle(text: &[u8]) -> Result<Grid, sudoku_batch::ParseError> {
    let lines = text
        .split(|&b| b == b'\n')
        .filter(|l| !l.starts_with(b"#"))
        .skip_while(|l| l.trim_ascii().is_empty());
    let block: Vec<&[u8]> = lines.take_while(|l| !l.trim_ascii().is_empty()).collect();
    match block.first() {
        Some(l) if l.trim_ascii().len() >= 81 || block.len() == 1 => Grid::parse_line(l),
        _ => Grid::parse_grid(&block.join(&b'\n')),
    }
}

/// `sudoku rate FILE... [-j N] [-o OUT]`: 0 all rated, 1 some records failed, 2 an input could not be read.
pub fn rate(
    files: &[PathBuf],
    jobs: Option<usize>,
    output: Option<&Path>,
) -> anyhow::Result<ExitCode> {
    let pool = thread_pool(jobs)?;
    let sink = Sink::create(&Target::from_arg(output))?;
    let start = Instant::now();
    let mut print = |e: &human::RunError| eprintln!("sudoku: {e}");
    let summary = match pool.install(|| human::rate_files(files, sink, &mut print)) {
        Ok(s) => s,
        Err(e) if e.is_broken_pipe() => return Ok(ExitCode::SUCCESS),
        Err(e) => return Err(e.into()),
    };
    let secs = start.elapsed().as_secs_f64();
    let h = &summary.histogram;
    eprintln!(
        "rate: {} records, {} rated, {} failed, {secs:.3} s, {:.0} puzzles/s on {} threads",
        summary.records,
        h.rated(),
        h.failed,
        summary.records as f64 / secs.max(1e-9),
        pool.current_num_threads()
    );
    eprintln!("{h}");
    Ok(if summary.unreadable > 0 {
        ExitCode::from(2)
    } else if h.failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// `sudoku generate-puzzles --puzzles N ...`: 0 when all were made, 2 when the options cannot be met.
pub fn generate_puzzles(
    count: u64,
    clues: Option<usize>,
    difficulty: Option<Level>,
    symmetry: Symmetry,
    seed: Option<u64>,
    jobs: Option<usize>,
    output: Option<&Path>,
) -> anyhow::Result<ExitCode> {
    let goal = match (clues, difficulty) {
        (Some(k), _) => Goal::Clues(k),
        (None, Some(l)) => Goal::Level(l),
        (None, None) => Goal::Minimal,
    };
    let options = PuzzleOptions {
        goal,
        symmetry,
        ..PuzzleOptions::default()
    };
    options.check()?;
    let seed = seed.unwrap_or_else(clock_seed);
    let pool = thread_pool(jobs)?;
    let sink = Sink::create(&Target::from_arg(output))?;
    let start = Instant::now();
    let summary = match pool.install(|| human::generate_puzzles(count, &options, seed, sink)) {
        Ok(s) => s,
        Err(human::GenerateRunError::Output(e)) if e.is_broken_pipe() => {
            return Ok(ExitCode::SUCCESS)
        }
        Err(e) => return Err(e.into()),
    };
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "generate-puzzles: seed {seed}, {} puzzles ({} boards rejected), mean {:.1} clues, {secs:.3} s, \
         {:.1} puzzles/s on {} threads",
        summary.puzzles,
        summary.rejected,
        summary.clues as f64 / summary.puzzles.max(1) as f64,
        summary.puzzles as f64 / secs.max(1e-9),
        pool.current_num_threads()
    );
    Ok(ExitCode::SUCCESS)
}

fn thread_pool(jobs: Option<usize>) -> anyhow::Result<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.unwrap_or(0))
        .build()
        .context("cannot start worker threads")
}

fn clock_seed() -> u64 {
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    t ^ u64::from(std::process::id()).rotate_left(32)
}
