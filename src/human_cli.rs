//! The `explain` and `rate` commands and `generate --puzzles`: run the library's `human` and `generate::puzzle`
//! modules, print the summary, map the outcome to an exit code.

use std::path::Path;
use std::process::ExitCode;

use sudoku_batch::generate::puzzle::{self, PuzzleRun, PuzzleRunError};
use sudoku_batch::human::{self, Ending};
use sudoku_batch::output::Target;
use sudoku_batch::{batch, format};

use crate::cli::RateArgs;

/// The most `explain` reads from a file or standard input.
const EXPLAIN_MAX_INPUT: u64 = 64 << 20;

/// `sudoku explain INPUT [--candidates]`: explains every puzzle of INPUT (a puzzle, a file, or `-` for standard
/// input), a blank line between them. 0 when every puzzle was solved with one solution; 1 when any record was
/// malformed, clashing, unsolvable or had several solutions; 2 for an input that cannot be read.
pub fn explain(input: &str, candidates: bool) -> anyhow::Result<ExitCode> {
    use std::io::Read;
    let path = Path::new(input);
    let read = |r: &mut dyn Read, name: &str| -> anyhow::Result<Vec<u8>> {
        let mut text = Vec::new();
        r.take(EXPLAIN_MAX_INPUT + 1)
            .read_to_end(&mut text)
            .map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
        anyhow::ensure!(
            text.len() as u64 <= EXPLAIN_MAX_INPUT,
            "{name}: explain reads at most {} MiB; use `sudoku rate` for large files",
            EXPLAIN_MAX_INPUT >> 20
        );
        Ok(text)
    };
    let (name, text) = if input == "-" {
        ("<stdin>", read(&mut std::io::stdin().lock(), "<stdin>")?)
    } else if path.exists() {
        let mut f = std::fs::File::open(path).map_err(|e| anyhow::anyhow!("{input}: {e}"))?;
        (input, read(&mut f, input)?)
    } else {
        ("<argument>", input.as_bytes().to_vec())
    };
    let records = format::read_all(&text, None).map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
    anyhow::ensure!(!records.is_empty(), "{name}: no puzzle to explain");
    let many = records.len() > 1;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut failed = false;
    for (i, record) in records.iter().enumerate() {
        let which = if many {
            format!("{name}: puzzle {}", i + 1)
        } else {
            name.to_string()
        };
        let puzzle = match record {
            Ok(p) => p,
            Err((line, failure)) => {
                eprintln!("sudoku: {name}:{line}: {failure}");
                failed = true;
                continue;
            }
        };
        if let Err(c) = puzzle.check_givens() {
            eprintln!("sudoku: {which}: clashing givens: {c}");
            failed = true;
            continue;
        }
        let ending = (|| {
            if i > 0 {
                std::io::Write::write_all(&mut out, b"\n")?;
            }
            let e = human::write_explanation(puzzle, candidates, &mut out)?;
            std::io::Write::flush(&mut out).map(|_| e)
        })();
        match ending {
            Ok(Ending::Solved(_)) => {}
            Ok(Ending::SolvedOneOfMany(_)) => {
                eprintln!("sudoku: {which}: more than one solution");
                failed = true;
            }
            Ok(Ending::NoSolution) => {
                eprintln!("sudoku: {which}: no solution");
                failed = true;
            }
            // A closed pipe (`sudoku explain ... | head`) ends the run quietly.
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(ExitCode::SUCCESS),
            Err(e) => return Err(e.into()),
        }
    }
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// `sudoku rate`: the batch pipeline with the [`human::Rater`] job; 0 all rated, 1 some records failed, 2 an input
/// or the output failed.
pub fn rate(args: &RateArgs, quiet: bool) -> anyhow::Result<ExitCode> {
    let rater = human::Rater::new();
    let summary = match batch::run(
        args.batch.input_specs(),
        &args.batch.target(),
        &rater,
        &args.options(quiet),
        &mut std::io::stderr(),
    ) {
        Ok(s) => s,
        Err(e) if e.is_broken_pipe() => return Ok(ExitCode::SUCCESS),
        Err(e) => return Err(e.into()),
    };
    if !quiet {
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
pub fn generate_puzzles(run: &PuzzleRun, target: &Target, quiet: bool) -> anyhow::Result<ExitCode> {
    let s = match puzzle::run(run, target) {
        Ok(_) if quiet => return Ok(ExitCode::SUCCESS),
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
