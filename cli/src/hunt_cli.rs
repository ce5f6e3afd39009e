//! `sudoku hunt`: its flags, the seed and known files read into puzzles (each bad record named by file and
//! line), the library's [`hunt`] run with Ctrl-C as a request to stop, every find written at once, the progress
//! line and the summary.

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use sudoku_batch::batch::{self, InputSpec};
use sudoku_batch::human::Tenths;
use sudoku_batch::hunt::{
    hunt, Ending, HuntError, HuntEvent, HuntOptions, HuntProgress, HuntSummary, Move, Seed,
};
use sudoku_batch::output::{OutputError, Sink, Target};
use sudoku_batch::{Grid, Threads};

use crate::interrupt;
use crate::report::{count, duration, Show};
use crate::value::{parse_se_rating, threads_parser};

/// `Examples:` of `sudoku hunt --help` (run as written by tests/readme.rs).
pub const HUNT_EXAMPLES: &str = "\
Examples:
  sudoku hunt data/se_sample_hard.txt --min-er 9.0 --limit 3      three new puzzles, ER 9.0+
  sudoku hunt data/se_sample_hard.txt --min-er 9.0 --limit 2 --moves=-1+1,-2+2 -o finds.txt";

/// The most bytes read from one seed or known file.
const MAX_INPUT: u64 = 1 << 30;

/// `sudoku hunt SEEDS... --min-er X`.
#[derive(Debug, Args)]
pub struct HuntArgs {
    /// Files of seed puzzles, in any format `rate` reads (81-character lines, with or without fields after the
    /// puzzle such as `rate --scale se` writes; 9-line grids; CSV), plain or compressed; `-` is standard input.
    #[arg(required = true, value_name = "SEEDS")]
    pub seeds: Vec<PathBuf>,

    /// Keep puzzles rated X or more (ER, 1.0 to 25.5, one decimal).
    #[arg(long, value_name = "X", value_parser = parse_se_rating)]
    pub min_er: u8,

    /// The moves around each puzzle, in order, separated by commas: -R+A removes R clues and adds A on blank
    /// cells, each 1 or 2 (-1+1, -2+2, -1+2, -2+1); +A only adds, -R only removes (both need --not-minimal to
    /// keep anything from a minimal puzzle). Write --moves=-2+2 or --moves -1+1,-2+2.
    #[arg(
        long,
        value_name = "MOVES",
        value_delimiter = ',',
        allow_hyphen_values = true,
        default_value = "-1+1"
    )]
    pub moves: Vec<Move>,

    /// Keep candidates that are not minimal (a clue could go without a second solution).
    #[arg(long)]
    pub not_minimal: bool,

    /// Stop after SECONDS (a number above 0); finds rated by then are all written.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub time: Option<f64>,

    /// Stop after N finds.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub limit: Option<u64>,

    /// Files of puzzles whose classes are not new (a catalogue already known); read as SEEDS are.
    #[arg(long, value_name = "FILE", num_args = 1..)]
    pub known: Vec<PathBuf>,

    /// Write the finds to FILE (it appears when the hunt ends, whatever ends it) instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Worker threads, 1 to 1024 (default: all cores); with 1 and no --time, the same seeds give the same finds.
    #[arg(short = 'j', long = "threads", value_name = "N", value_parser = threads_parser(),
          allow_negative_numbers = true)]
    pub threads: Option<Threads>,

    /// The order in which each puzzle's clues are tried is drawn from S.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
}

fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(t) if t.is_finite() && t > 0.0 && Duration::try_from_secs_f64(t).is_ok() => Ok(t),
        _ => Err(format!(
            "SECONDS must be a number above 0 and below 1.8e19, not {s:?}"
        )),
    }
}

/// `text` with every line longer than a puzzle whose 82nd character is a space or a tab cut to its first 81
/// characters: the fields a rating (`rate --scale se`) or a catalogue writes after a puzzle are left out. Lines
/// keep their numbers; 9-line grids and CSV rows are left as they are. Also gives the ER of each line whose first
/// field after the puzzle is an SE rating (1-based line numbers).
fn puzzle_fields(text: &[u8]) -> (Vec<u8>, HashMap<u64, Tenths>) {
    let mut out = Vec::with_capacity(text.len());
    let mut ratings = HashMap::new();
    for (n, line) in text.split_inclusive(|&b| b == b'\n').enumerate() {
        match line.get(81) {
            Some(b' ' | b'\t') => {
                out.extend_from_slice(&line[..81]);
                out.push(b'\n');
                let field = line[82..].split(|b| b.is_ascii_whitespace()).next();
                let er = field
                    .and_then(|f| std::str::from_utf8(f).ok())
                    .and_then(|f| parse_se_rating(f).ok());
                if let Some(er) = er {
                    ratings.insert(n as u64 + 1, Tenths(er));
                }
            }
            _ => out.extend_from_slice(line),
        }
    }
    (out, ratings)
}

/// The puzzles of `paths`, each with its ER if its line gives one and where it was read (`FILE:LINE`); the first
/// bad record is an error naming its file and line.
fn read_puzzles(paths: &[PathBuf]) -> anyhow::Result<Vec<(Seed, String)>> {
    let mut out = Vec::new();
    for path in paths {
        let (name, text) = InputSpec::from_arg(path).read_text(MAX_INPUT)?;
        anyhow::ensure!(
            text.len() as u64 <= MAX_INPUT,
            "{name}: hunt reads at most {} MiB from a file",
            MAX_INPUT >> 20
        );
        let (text, ratings) = puzzle_fields(&text);
        let records = batch::read_all(&text, None).map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
        anyhow::ensure!(!records.is_empty(), "{name}: no puzzle in it");
        for (line, record) in records {
            match record {
                Ok(puzzle) => out.push((
                    Seed {
                        puzzle,
                        er: ratings.get(&line).copied(),
                    },
                    format!("{name}:{line}"),
                )),
                Err(failure) => anyhow::bail!("{name}:{line}: {failure}"),
            }
        }
    }
    Ok(out)
}

/// The progress line: a spinner redrawn in place on a terminal, a status line every few seconds on a log.
struct Status {
    show: Show,
    bar: Option<ProgressBar>,
    last: Instant,
}

impl Status {
    fn new(show: Show) -> Status {
        let bar = (show == Show::Bar).then(|| {
            let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
            if let Ok(style) = ProgressStyle::with_template("{spinner} {msg}") {
                bar.set_style(style);
            }
            bar
        });
        Status {
            show,
            bar,
            last: Instant::now(),
        }
    }

    fn text(p: &HuntProgress) -> String {
        format!(
            "{} tried, {} unique, {} rated, {} found, {} to go on from, {}",
            count(p.tried as f64),
            count(p.unique as f64),
            count(p.rated as f64),
            p.found,
            p.frontier,
            duration(p.elapsed.as_secs_f64())
        )
    }

    fn update(&mut self, p: &HuntProgress) {
        match (&self.bar, self.show) {
            (Some(bar), _) => {
                bar.set_message(Status::text(p));
                bar.tick();
            }
            (None, Show::Lines(every)) if self.last.elapsed() >= every => {
                say!("sudoku: {}", Status::text(p));
                self.last = Instant::now();
            }
            _ => {}
        }
    }

    /// Writes a line above the bar.
    fn above(&self, f: impl FnOnce()) {
        match &self.bar {
            Some(bar) => bar.suspend(f),
            None => f(),
        }
    }

    fn finish(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}

/// Runs `sudoku hunt`: 0 when it ended by --time, --limit or an empty frontier, 128+N after signal N (the finds
/// written all the same).
pub fn run(args: &HuntArgs, quiet: bool) -> anyhow::Result<ExitCode> {
    let seeds = read_puzzles(&args.seeds)?;
    let known = read_puzzles(&args.known)?;
    let options = options(args);
    let target = Target::from_arg(args.output.as_deref());
    let mut sink = Sink::create(&target)?;
    let stop = interrupt::arm();
    let mut status = Status::new(crate::cli::show_progress(&target, quiet));
    let mut failed: Option<OutputError> = None;
    let mut line = Vec::new();
    let seed_list: Vec<Seed> = seeds.iter().map(|(s, _)| *s).collect();
    let known_grids: Vec<Grid> = known.iter().map(|(s, _)| s.puzzle).collect();
    let summary = hunt(
        &seed_list,
        &known_grids,
        &options,
        stop,
        |event| match event {
            HuntEvent::Found(find) => {
                if failed.is_some() {
                    return;
                }
                line.clear();
                find.write_line(&mut line);
                line.push(b'\n');
                let mut written = Ok(());
                status.above(|| written = sink.write_all(&line));
                if let Err(e) = written {
                    failed = Some(e);
                    stop.store(true, Ordering::SeqCst);
                }
            }
            HuntEvent::Progress(p) => status.update(&p),
        },
    );
    status.finish();
    let summary = summary.map_err(|e| match e {
        HuntError::Seed { index, error } => anyhow::anyhow!("{}: {error}", seeds[index].1),
        HuntError::Known { index, conflict } => {
            anyhow::anyhow!("{}: clashing givens: {conflict}", known[index].1)
        }
        e => e.into(),
    })?;
    if let Some(e) = failed {
        return Err(e.into());
    }
    sink.finish()?;
    if !quiet {
        say_summary(&summary, args, &target);
    }
    Ok(match interrupt::caught() {
        Some(signal) => ExitCode::from((128 + signal).clamp(0, 255) as u8),
        None => ExitCode::SUCCESS,
    })
}

/// The hunt's options from its arguments.
fn options(args: &HuntArgs) -> HuntOptions {
    HuntOptions {
        moves: args.moves.clone(),
        minimal: !args.not_minimal,
        time: args.time.map(Duration::from_secs_f64),
        limit: args.limit,
        threads: args.threads.unwrap_or_default(),
        seed: args.seed,
        ..HuntOptions::new(Tenths(args.min_er))
    }
}

/// The summary line on standard error: what was found and tried, and what ended the hunt.
fn say_summary(summary: &HuntSummary, args: &HuntArgs, target: &Target) {
    let p = summary.progress;
    let why = match (summary.ending, interrupt::caught()) {
        (_, Some(_)) => "interrupted".to_string(),
        (Ending::Limit, _) => format!("--limit {}", p.found),
        (Ending::Time, _) => "--time".to_string(),
        (Ending::Exhausted, _) => "nothing left to try".to_string(),
        _ => "stopped".to_string(),
    };
    say!(
        "sudoku: hunt found {} new puzzles rated {} or more ({} candidates tried, {} unique, {} rated) in \
         {:.1} s on {} thread{}; ended by {why}{}",
        p.found,
        Tenths(args.min_er),
        p.tried,
        p.unique,
        p.rated,
        p.elapsed.as_secs_f64(),
        summary.threads,
        if summary.threads == 1 { "" } else { "s" },
        crate::written_to(target)
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_after_a_puzzle_are_left_out_and_lines_kept() {
        let p = "7.8...3.....2.1...5.........4.....263...8.......1...9..9.6....4....7.5...........";
        let text = format!("# a comment\n{p} 9.5 1.2 1.2 Hardest\n{p}\tx\n{p}\n1,2\n{p}x");
        let (cut, ratings) = puzzle_fields(text.as_bytes());
        assert_eq!(
            String::from_utf8(cut).unwrap(),
            format!("# a comment\n{p}\n{p}\n{p}\n1,2\n{p}x")
        );
        assert_eq!(ratings, HashMap::from([(2, Tenths(95))]));
    }

    #[test]
    fn seconds_must_be_above_zero() {
        assert_eq!(parse_seconds("2.5"), Ok(2.5));
        for bad in ["0", "-1", "nan", "inf", "x", ""] {
            assert!(parse_seconds(bad).is_err(), "{bad}");
        }
    }
}
