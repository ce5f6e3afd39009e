//! The `explain` and `rate` commands and `generate --puzzles`: run the library's `human` and `generate::puzzle`
//! modules and present what they return; `main` maps errors to exit codes.

use std::path::Path;
use std::process::ExitCode;

use sudoku_batch::batch::{self, InputSpec};

use sudoku_batch::generate::{self, PuzzleRun};
use sudoku_batch::human::{self, Ending};
use sudoku_batch::output::Target;
use sudoku_batch::{Failure, Grid};

use crate::cli::{RateArgs, ScaleArg};
use crate::finished;
use crate::report::Reporter;

/// The most `explain` reads from a file or standard input.
const EXPLAIN_MAX_INPUT: u64 = 64 << 20;

/// The records of the one INPUT `explain` reads as text or draws (a puzzle, a file, or `-`), each with its line.
pub struct ExplainInput {
    /// The input as messages name it.
    pub name: String,
    /// Each record's 1-based line and its puzzle, or why it has none.
    pub records: Vec<(u64, Result<Grid, Failure>)>,
}

impl ExplainInput {
    /// Reads INPUT whole (at most 64 MiB; a gzip, zstd, xz or bzip2 input, told by its first bytes as for the batch
    /// subcommands, is decompressed); an input without any record is an error.
    pub fn read(input: &Path) -> anyhow::Result<ExplainInput> {
        let (name, text) = InputSpec::from_arg(input).read_text(EXPLAIN_MAX_INPUT)?;
        anyhow::ensure!(
            text.len() as u64 <= EXPLAIN_MAX_INPUT,
            "{name}: explain reads at most {} MiB; use `sudoku rate` for large files",
            EXPLAIN_MAX_INPUT >> 20
        );
        let records = batch::read_all(&text, None).map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
        anyhow::ensure!(!records.is_empty(), "{name}: no puzzle to explain");
        Ok(ExplainInput { name, records })
    }

    /// The record at `line` as messages name it: FILE:LINE as in every other message; a lone puzzle given as an
    /// argument is named alone.
    pub fn name_of(&self, line: u64) -> String {
        if self.records.len() > 1 || self.name != "<argument>" {
            format!("{}:{line}", self.name)
        } else {
            self.name.clone()
        }
    }
}

/// `sudoku explain INPUT [--candidates] [--brief] [--scale se]`: explains every puzzle of INPUT (a puzzle, a file,
/// or `-` for standard input), a blank line between them; on SE's scale each chain step is followed by its chains
/// unless `brief`. 0 when every puzzle was solved with one solution; 1 when any record
/// was malformed, clashing, unsolvable or had several solutions; 2 for an input that cannot be read.
pub fn explain(
    input: &Path,
    (candidates, brief): (bool, bool),
    scale: ScaleArg,
    max_se: Option<u8>,
) -> anyhow::Result<ExitCode> {
    anyhow::ensure!(
        max_se.is_none() || scale == ScaleArg::Se,
        "--max-se explains on SE's scale: add --scale se"
    );
    let records = ExplainInput::read(input)?;
    let mut out = crate::console::Stdout::open()?;
    let mut failed = false;
    let mut text = Vec::new();
    for (i, (line, record)) in records.records.iter().enumerate() {
        let which = records.name_of(*line);
        let puzzle = match record {
            Ok(p) => p,
            Err(failure) => {
                say!("sudoku: {which}: {failure}");
                failed = true;
                continue;
            }
        };
        if let Err(c) = puzzle.check_givens() {
            say!("sudoku: {which}: clashing givens: {c}");
            failed = true;
            continue;
        }
        // One puzzle's explanation is made in memory, then written: a write error names <stdout>.
        text.clear();
        if i > 0 {
            text.push(b'\n');
        }
        if scale == ScaleArg::Se {
            match human::write_se_explanation(
                puzzle,
                candidates,
                !brief,
                max_se.map(human::Tenths),
                &mut text,
            ) {
                Ok(_) => out.write(&text)?,
                Err(human::SeExplainError::Rate(e)) => {
                    say!("sudoku: {which}: {e}");
                    failed = true;
                }
                Err(human::SeExplainError::Io(e)) => return Err(e.into()),
                // A kind of error this binary does not know yet: fatal, reported with the library's own message.
                Err(e) => return Err(e.into()),
            }
            continue;
        }
        let ending = human::write_explanation(puzzle, candidates, &mut text)?;
        out.write(&text)?;
        match ending {
            Ending::Solved(_) => {}
            Ending::SolvedOneOfMany(_) => {
                say!("sudoku: {which}: more than one solution");
                failed = true;
            }
            Ending::NoSolution => {
                say!("sudoku: {which}: no solution");
                failed = true;
            }
        }
    }
    out.finish()?;
    Ok(finished(failed))
}

/// The library's scale for a `--scale` value.
pub fn scale_of(arg: ScaleArg) -> human::Scale {
    match arg {
        ScaleArg::Levels => human::Scale::Levels,
        ScaleArg::Se => human::Scale::Se,
    }
}

/// `sudoku rate`: the batch pipeline with the [`human::Rater`] job; 0 all rated, 1 some records failed.
pub fn rate(args: &RateArgs, quiet: bool) -> anyhow::Result<ExitCode> {
    let mut rater = human::Rater::with_scale(scale_of(args.scale));
    if let Some(max) = args.max_se {
        anyhow::ensure!(
            args.scale == ScaleArg::Se,
            "--max-se rates on SE's scale: add --scale se"
        );
        rater = rater.with_se_max(human::Tenths(max));
    }
    let mut reporter = args.batch.reporter(quiet);
    let inputs = args.batch.input_specs();
    crate::cli::note_terminal_stdin(&inputs, quiet);
    let target = args.batch.target();
    let chart = args.plot.open(&target)?;
    let summary = batch::run_batch(inputs, &target, &rater, &args.options(), &mut reporter);
    reporter.finish();
    let summary = summary?;
    let json = args.batch.stats == Some(crate::cli::StatsArg::Json);
    let scale = scale_of(args.scale);
    crate::rate_report::show(&rater, scale, &summary, chart, json, quiet, &target)?;
    Ok(finished(summary.counts.failures() > 0))
}

/// `sudoku generate --puzzles N ...`: 0 when all were made; errors (options that cannot be met, output) go to
/// `main`.
pub fn generate_puzzles(run: &PuzzleRun, target: &Target, quiet: bool) -> anyhow::Result<ExitCode> {
    let mut reporter = Reporter::new(
        crate::cli::show_progress(target, quiet),
        None,
        quiet,
        "puzzles",
    );
    let s = generate::run_puzzles(run, target, &mut reporter);
    reporter.finish();
    let s = s?;
    if quiet {
        return Ok(ExitCode::SUCCESS);
    }
    let secs = s.elapsed.as_secs_f64();
    say!(
        "sudoku: generated {} puzzles (seed {}, {} boards rejected, mean {:.1} clues) in {secs:.3} s, \
         {:.1} puzzles/s on {} thread{}{}",
        s.puzzles,
        run.seed,
        s.rejected,
        s.clues as f64 / s.puzzles.max(1) as f64,
        s.puzzles as f64 / secs.max(1e-9),
        s.threads,
        if s.threads == 1 { "" } else { "s" },
        crate::written_to(target)
    );
    Ok(ExitCode::SUCCESS)
}
