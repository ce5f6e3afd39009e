//! The `explain` and `rate` commands and `generate --puzzles`: run the library's `human` and `generate::puzzle`
//! modules and present what they return; `main` maps errors to exit codes.

use std::path::Path;
use std::process::ExitCode;

use sudoku_batch::batch::{self, InputSpec};
use sudoku_batch::format;
use sudoku_batch::generate::puzzle::{self, PuzzleRun};
use sudoku_batch::human::{self, Ending};
use sudoku_batch::output::Target;

use crate::cli::{RateArgs, ScaleArg};
use crate::finished;
use crate::report::{Reporter, Unit};

/// The most `explain` reads from a file or standard input.
const EXPLAIN_MAX_INPUT: u64 = 64 << 20;

/// `sudoku explain INPUT [--candidates] [--scale se]`: explains every puzzle of INPUT (a puzzle, a file, or `-` for
/// standard input), a blank line between them. 0 when every puzzle was solved with one solution; 1 when any record
/// was malformed, clashing, unsolvable or had several solutions; 2 for an input that cannot be read.
pub fn explain(input: &str, candidates: bool, scale: ScaleArg) -> anyhow::Result<ExitCode> {
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
    let (name, text) = match InputSpec::from_arg(path) {
        InputSpec::Stdin => ("<stdin>", read(&mut std::io::stdin().lock(), "<stdin>")?),
        InputSpec::Path(p) => {
            let mut f = std::fs::File::open(&p).map_err(|e| anyhow::anyhow!("{input}: {e}"))?;
            (input, read(&mut f, input)?)
        }
        InputSpec::Bytes { data, .. } => ("<argument>", data),
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
        if scale == ScaleArg::Se {
            if i > 0 {
                std::io::Write::write_all(&mut out, b"\n")?;
            }
            match human::write_se_explanation(puzzle, candidates, &mut out) {
                Ok(_) => std::io::Write::flush(&mut out)?,
                Err(human::SeExplainError::Rate(e)) => {
                    eprintln!("sudoku: {which}: {e}");
                    failed = true;
                }
                Err(human::SeExplainError::Io(e)) => return Err(e.into()),
            }
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
            Err(e) => return Err(e.into()),
        }
    }
    Ok(finished(failed))
}

/// `sudoku rate`: the batch pipeline with the [`human::Rater`] job; 0 all rated, 1 some records failed.
pub fn rate(args: &RateArgs, quiet: bool) -> anyhow::Result<ExitCode> {
    let rater = human::Rater::with_scale(match args.scale {
        ScaleArg::Levels => human::Scale::Levels,
        ScaleArg::Se => human::Scale::Se,
    });
    let mut reporter = args.batch.reporter(quiet);
    let summary = batch::run(
        args.batch.input_specs(),
        &args.batch.target(),
        &rater,
        &args.options(),
        &mut reporter,
    );
    reporter.finish();
    let summary = summary?;
    let json = args.batch.stats == Some(crate::cli::StatsArg::Json);
    crate::show(&summary, "rated", quiet, json);
    if !quiet && !json {
        if args.scale == ScaleArg::Se {
            let mut h = rater.se_histogram();
            h.failed = summary.counts.failures();
            eprintln!("{h}");
        } else {
            let mut h = rater.histogram();
            h.failed = summary.counts.failures();
            eprintln!("{h}");
        }
    }
    Ok(finished(summary.counts.failures() > 0))
}

/// `sudoku generate --puzzles N ...`: 0 when all were made; errors (options that cannot be met, output) go to
/// `main`.
pub fn generate_puzzles(run: &PuzzleRun, target: &Target, quiet: bool) -> anyhow::Result<ExitCode> {
    let mut reporter = Reporter::new(
        crate::cli::show_progress(target, quiet),
        None,
        quiet,
        Unit::Items("puzzles"),
    );
    let s = puzzle::run(run, target, &mut reporter);
    reporter.finish();
    let s = s?;
    if quiet {
        return Ok(ExitCode::SUCCESS);
    }
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
