//! The `explain` and `rate` commands and `generate --puzzles`: run the library's `human` and `generate::puzzle`
//! modules, print the summary, map the outcome to an exit code.

use std::path::Path;
use std::process::ExitCode;

use sudoku_batch::batch;
use sudoku_batch::generate::puzzle::{self, PuzzleRun, PuzzleRunError};
use sudoku_batch::human::{self, Ending};
use sudoku_batch::output::Target;
use sudoku_batch::Grid;

use crate::cli::RateArgs;

/// `sudoku explain PUZZLE [--candidates]`: 0 when solved (unique), 1 for no or several solutions or clashing
/// givens, 2 for an unreadable puzzle.
pub fn explain(input: &str, candidates: bool) -> anyhow::Result<ExitCode> {
    let path = Path::new(input);
    let (name, text) = if path.is_file() {
        let text = std::fs::read(path).map_err(|e| anyhow::anyhow!("{input}: {e}"))?;
        (input, text)
    } else {
        ("<argument>", input.as_bytes().to_vec())
    };
    let puzzle = first_puzzle(&text).map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
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

/// `sudoku rate`: the batch pipeline with the [`human::Rater`] job; 0 all rated, 1 some records failed, 2 an input
/// or the output failed.
pub fn rate(args: &RateArgs) -> anyhow::Result<ExitCode> {
    let rater = human::Rater::new();
    let summary = match batch::run(
        args.batch.input_specs(),
        &args.batch.target(),
        &rater,
        &args.options(),
        &mut std::io::stderr(),
    ) {
        Ok(s) => s,
        Err(e) if e.is_broken_pipe() => return Ok(ExitCode::SUCCESS),
        Err(e) => return Err(e.into()),
    };
    if !args.batch.quiet {
        let mut h = rater.histogram();
        h.failed = summary.counts.failures();
        eprintln!("sudoku: {}", summary.to_text());
        eprintln!("{h}");
    }
    Ok(if summary.counts.failures() > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// `sudoku generate --puzzles N ...`: 0 when all were made, 2 when the options cannot be met or output failed.
pub fn generate_puzzles(run: &PuzzleRun, target: &Target) -> anyhow::Result<ExitCode> {
    let s = match puzzle::run(run, target) {
        Ok(s) => s,
        Err(PuzzleRunError::Output(e)) if e.is_broken_pipe() => return Ok(ExitCode::SUCCESS),
        Err(e) => return Err(e.into()),
    };
    let secs = s.elapsed.as_secs_f64();
    eprintln!(
        "sudoku: generated {} puzzles (seed {}, {} boards rejected, mean {:.1} clues) in {secs:.3} s, \
         {:.1} puzzles/s on {} thread{}",
        s.puzzles,
        run.seed,
        s.rejected,
        s.clues as f64 / s.puzzles.max(1) as f64,
        s.puzzles as f64 / secs.max(1e-9),
        s.threads,
        if s.threads == 1 { "" } else { "s" }
    );
    Ok(ExitCode::SUCCESS)
}
