//! The `sudoku` binary: parses arguments, runs the library, maps the outcome to an exit code
//! (0 all fine, 1 some records failed, 2 usage or fatal error).

mod cli;
mod human_cli;

use std::process::ExitCode;

use clap::Parser;
use sudoku_batch::batch::{self, InputSpec, Options, Solve, Summary};
use sudoku_batch::generate;
use sudoku_batch::output::Target;

fn main() -> ExitCode {
    watch_signals();
    let args = match cli::Cli::try_parse() {
        Ok(args) => args,
        Err(e) => return cli::usage_error(e),
    };
    match run(args) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("sudoku: {e}");
            ExitCode::from(2)
        }
    }
}

/// On SIGINT, SIGTERM or SIGHUP: remove this run's temporary output files, keep any output from being put in
/// place, and exit with the conventional status 128+N. (Unnamed temporary files need nothing: see
/// `sudoku_batch::output::Sink`.) The signals are taken by `signal-hook` on a thread of their own, so the clean-up
/// runs as ordinary code, not inside a signal handler.
fn watch_signals() {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
        return;
    };
    let _ = std::thread::Builder::new()
        .name("sudoku-signals".into())
        .spawn(move || {
            if let Some(signal) = signals.forever().next() {
                let _held = sudoku_batch::output::abandon_all();
                std::process::exit(128 + signal);
            }
        });
}

fn run(args: cli::Cli) -> anyhow::Result<ExitCode> {
    let quiet = args.quiet;
    if let (None, Some(n)) = (&args.command, args.count) {
        return generate(args.classic(n), quiet);
    }
    match (args.command, args.solve_file) {
        (Some(cli::Command::Generate(g)), _) => match g.puzzle_run() {
            Some((target, run)) => human_cli::generate_puzzles(&run, &target, quiet),
            None => generate(g.run(quiet), quiet),
        },
        (Some(cli::Command::Rate(a)), _) => human_cli::rate(&a, quiet),
        (Some(cli::Command::Explain { puzzle, candidates }), _) => {
            human_cli::explain(&puzzle, candidates)
        }
        (Some(cli::Command::Solve(a)), _) => {
            let report = Report {
                quiet,
                json: a.stats == Some(cli::StatsArg::Json),
            };
            solve(
                a.batch.input_specs(),
                a.batch.target(),
                a.unique,
                &a.options(quiet),
                report,
            )
        }
        (
            Some(cli::Command::Bench {
                files,
                seconds,
                unique,
            }),
            _,
        ) => bench(&files, seconds, unique),
        (None, Some(file)) => solve(
            vec![InputSpec::from_arg(&file)],
            Target::File(cli::CLASSIC_FILE.into()),
            false,
            &cli::classic_options(quiet),
            Report { quiet, json: false },
        ),
        (None, None) => {
            use clap::CommandFactory;
            cli::Cli::command().print_help()?;
            Ok(ExitCode::from(2))
        }
    }
}

/// How the summary is shown.
struct Report {
    quiet: bool,
    json: bool,
}

fn solve(
    inputs: Vec<InputSpec>,
    target: Target,
    unique: bool,
    opts: &Options,
    report: Report,
) -> anyhow::Result<ExitCode> {
    let job = Solve { unique };
    match batch::run(inputs, &target, &job, opts, &mut std::io::stderr()) {
        Ok(summary) => {
            show(&summary, &report);
            Ok(if summary.counts.failures() > 0 {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            })
        }
        Err(e) if e.is_broken_pipe() => Ok(ExitCode::SUCCESS),
        Err(e) => Err(e.into()),
    }
}

fn show(summary: &Summary, report: &Report) {
    if report.json {
        eprintln!("{}", summary.to_json());
    } else if !report.quiet {
        eprintln!("sudoku: {}", summary.to_text());
    }
}

/// `sudoku bench`: one table row per file; unreadable files and bad records are reported, the others still run.
fn bench(files: &[std::path::PathBuf], seconds: f64, unique: bool) -> anyhow::Result<ExitCode> {
    use sudoku_batch::bench::{self, BenchConfig, BenchReport, Dataset};
    anyhow::ensure!(
        seconds.is_finite() && seconds >= 0.0,
        "--seconds must be a number >= 0, got {seconds}"
    );
    let config = BenchConfig { seconds, unique };
    let mut failed = false;
    println!(
        "{} search, {seconds} s of timed passes per file, parse + solve per puzzle, 1 thread",
        if unique {
            "uniqueness (limit 2)"
        } else {
            "first-solution"
        }
    );
    println!("{}", BenchReport::header());
    for path in files {
        let data = match Dataset::load(path) {
            Ok(d) => d,
            Err(e) => {
                eprintln!("sudoku: {}: {e}", path.display());
                failed = true;
                continue;
            }
        };
        for bad in data.bad.iter().take(5) {
            eprintln!("sudoku: {}:{}: {}", path.display(), bad.line, bad.reason);
        }
        if data.bad.len() > 5 {
            eprintln!(
                "sudoku: {}: {} more bad records",
                path.display(),
                data.bad.len() - 5
            );
        }
        failed |= !data.bad.is_empty();
        if data.is_empty() {
            eprintln!("sudoku: {}: no puzzles to time", path.display());
            failed = true;
            continue;
        }
        println!("{}", bench::run(&data, &config));
    }
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Generates boards; a closed pipe on standard output ends the run quietly.
fn generate((target, opts): (Target, generate::Options), quiet: bool) -> anyhow::Result<ExitCode> {
    match generate::generate(&opts, &target) {
        Ok(_) if quiet => Ok(ExitCode::SUCCESS),
        Ok(s) => {
            let secs = s.elapsed.as_secs_f64();
            let retried = if opts.method == generate::Method::Random {
                format!(", {} made again by the repeat check", s.retries)
            } else {
                String::new()
            };
            eprintln!(
                "sudoku: generated {} boards ({} bytes) in {secs:.3} s, {:.0} boards/s{retried}",
                s.boards,
                s.bytes,
                s.boards as f64 / secs.max(1e-9)
            );
            Ok(ExitCode::SUCCESS)
        }
        Err(generate::GenerateError::Output(e)) if e.is_broken_pipe() => Ok(ExitCode::SUCCESS),
        Err(e) => Err(e.into()),
    }
}
