//! The `sudoku` binary: parses arguments, runs the library, presents what it tells (messages, progress bars,
//! summaries), and maps the outcome to an exit code in one place, [`main`]: 0 all fine, 1 some records failed,
//! 2 usage or fatal error, 128+N after signal N; a closed pipe on standard output ends a run quietly with 0.

#[macro_use]
mod console;
mod bench_cli;
mod cli;
mod dataset_args;
mod explain_args;
mod explain_cli;
mod export_cli;
mod human_cli;
mod hunt_cli;
mod interrupt;
mod manual;
mod page_cli;
mod puzzle_filters;
mod rate_report;
mod report;
mod shuffle_cli;
mod split_cli;
mod usage;
mod value;

use std::process::ExitCode;

use clap::Parser;
use sudoku_batch::batch::Job;
use sudoku_batch::batch::{self, BatchError, BatchOptions, BatchSummary, InputSpec};
use sudoku_batch::generate::{self, GenerateError};
use sudoku_batch::output::Target;
use sudoku_batch::tools;
use sudoku_batch::tools::Solve;

use report::{Reporter, Show};

fn main() -> ExitCode {
    sudoku_batch::share_allocator_arenas();
    watch_signals();
    let args = match cli::Cli::try_parse() {
        Ok(args) => args,
        Err(e) => return usage::usage_error(e),
    };
    match run(args) {
        Ok(code) => code,
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            say!("sudoku: {e}{}", hint(&e));
            ExitCode::from(2)
        }
    }
}

/// The status of a run that finished: 0 when every record was fine, 1 when some failed.
fn finished(failed: bool) -> ExitCode {
    if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// True when the error is standard output closed by its reader (`sudoku ... | head`): one walk of the error's
/// `source()` chain for an I/O error of kind `BrokenPipe`. The library gives a closed pipe on standard output as
/// `OutputError::BrokenPipe`, whose source is that I/O error (and the run errors that wrap an `OutputError` are
/// transparent, so it shows through them).
fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// The flag that helps with an error, if any (the library knows no flags).
fn hint(e: &anyhow::Error) -> &'static str {
    match (
        e.downcast_ref::<BatchError>(),
        e.downcast_ref::<GenerateError>(),
    ) {
        (Some(BatchError::Map { .. }), _) => " (try --no-mmap)",
        (_, Some(GenerateError::OverCapacity { .. })) => " (use --random for more)",
        _ => "",
    }
}

/// On SIGINT, SIGTERM or SIGHUP: remove this run's temporary output files, keep any output from being put in
/// place, and exit with the conventional status 128+N. (Unnamed temporary files need nothing: see
/// `sudoku_batch::output::Sink`.) The signals are taken by `signal-hook` on a thread of their own, so the clean-up
/// runs as ordinary code, not inside a signal handler. A run that armed `interrupt` takes the first signal as a
/// request to stop instead, and keeps its output.
fn watch_signals() {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
        return;
    };
    let _ = std::thread::Builder::new()
        .name("sudoku-signals".into())
        .spawn(move || {
            for signal in signals.forever() {
                if interrupt::take(signal) {
                    continue;
                }
                let _held = sudoku_batch::output::abandon_all();
                std::process::exit(128 + signal);
            }
        });
}

fn run(args: cli::Cli) -> anyhow::Result<ExitCode> {
    let quiet = args.quiet;
    if let (None, Some(n)) = (&args.command, args.count) {
        let (target, opts) = args.classic(n);
        return generate(&target, &opts, cli::show_progress(&target, quiet), quiet);
    }
    match (args.command, args.solve_file) {
        (Some(command), _) => subcommand(command, quiet),
        (None, Some(file)) => solve_classic(&file, quiet),
        (None, None) => {
            say!("{}", usage::SHORT_USAGE.trim_end());
            Ok(ExitCode::from(2))
        }
    }
}

/// Runs one subcommand.
fn subcommand(command: cli::Command, quiet: bool) -> anyhow::Result<ExitCode> {
    match command {
        cli::Command::Generate(g) => generate_command(&g, quiet),
        cli::Command::Rate(a) => human_cli::rate(&a, quiet),
        cli::Command::Explain {
            batch,
            json,
            scale,
            explain: e,
        } => match &e.html {
            Some(page) => page_cli::run(&batch, scale, e.max_se, page),
            None => explain_cli::run(
                &batch,
                json.json,
                (e.candidates, e.brief),
                scale,
                e.max_se,
                quiet,
            ),
        },
        cli::Command::Solve(a) => batch_job(
            &a.batch,
            &Solve { unique: a.unique },
            &a.options(),
            "solved",
            quiet,
        ),
        cli::Command::Check(a) => batch_job(
            &a.batch,
            &tools::Check { unique: a.unique },
            &a.batch.options(false, None, a.json.json),
            "ok",
            quiet,
        ),
        cli::Command::Count(a) => batch_job(
            &a.batch,
            &tools::Count { limit: a.limit },
            &a.batch.options(false, None, a.json.json),
            "counted",
            quiet,
        ),
        cli::Command::Canon(a) => batch_job(
            &a.batch,
            &tools::Canon { form: a.form() },
            &a.batch.options(false, None, a.json.json),
            "in canonical form",
            quiet,
        ),
        cli::Command::Dedupe(a) => batch_job(
            &a.batch,
            &tools::Dedupe,
            &a.batch.options(false, None, false),
            "kept",
            quiet,
        ),
        cli::Command::Shuffle(a) => batch_job(
            &a.batch,
            &*shuffle_cli::job(a.seed, &a.copies),
            &a.batch.options(false, None, false),
            "shuffled",
            quiet,
        ),
        cli::Command::Split { batch, split } => split_cli::run(&batch, &split, quiet),
        cli::Command::Export { batch, export } => export_cli::run(&batch, &export, quiet),
        cli::Command::Completions { shell } => completions(shell),
        cli::Command::Man { command, dir } => man(command.as_deref(), dir.as_deref(), quiet),
        cli::Command::Bench(args) => bench_cli::run(&args),
        cli::Command::Hunt(args) => hunt_cli::run(&args, quiet),
    }
}

/// `sudoku generate`: puzzles with `--puzzles`, boards otherwise.
fn generate_command(g: &cli::GenerateArgs, quiet: bool) -> anyhow::Result<ExitCode> {
    if let Some((target, run)) = g.puzzle_run() {
        return human_cli::generate_puzzles(&run, &target, quiet);
    }
    if let Some(flag) = g.puzzle_option() {
        anyhow::bail!("{flag} makes puzzles: add --puzzles COUNT");
    }
    let (target, opts) = g.run();
    generate(&target, &opts, cli::show_progress(&target, quiet), quiet)
}

/// `sudoku completions SHELL`: the shell's completion script on standard output.
fn completions(shell: clap_complete::Shell) -> anyhow::Result<ExitCode> {
    use clap::CommandFactory;
    let mut cmd = cli::Cli::command();
    let mut text = Vec::new();
    clap_complete::generate(shell, &mut cmd, "sudoku", &mut text);
    console::print(&text)?;
    Ok(ExitCode::SUCCESS)
}

/// `sudoku man [COMMAND] [--dir DIR]`: every manual page written into `dir`, or one page on standard output.
fn man(
    command: Option<&str>,
    dir: Option<&std::path::Path>,
    quiet: bool,
) -> anyhow::Result<ExitCode> {
    match dir {
        Some(dir) => {
            for path in manual::write_all(dir)? {
                if !quiet {
                    say!("sudoku: wrote {}", console::escaped(&path));
                }
            }
        }
        None => {
            let mut text = Vec::new();
            manual::write_page(command, &mut text)?;
            console::print(&text)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The classic `sudoku -s FILE`: solves the file into the classic output file.
fn solve_classic(file: &std::path::Path, quiet: bool) -> anyhow::Result<ExitCode> {
    let target = Target::File(cli::CLASSIC_FILE.into());
    let mut reporter = Reporter::new(
        cli::show_progress(&target, quiet),
        value::default_max_errors(),
        quiet,
        "records",
    );
    let summary = batch::run_batch(
        vec![InputSpec::from_arg(file)],
        &target,
        &Solve::default(),
        &cli::classic_options(),
        &mut reporter,
    );
    reporter.finish();
    let summary = summary?;
    show(&summary, "solved", quiet, false, &target);
    Ok(finished(summary.counts.failures() > 0))
}

/// A batch subcommand: `job` on every record of the inputs, the summary (`answered` names what a good record got),
/// 0 when every record was fine, 1 when some failed.
pub(crate) fn batch_job<J: Job + ?Sized>(
    args: &cli::BatchArgs,
    job: &J,
    opts: &BatchOptions,
    answered: &str,
    quiet: bool,
) -> anyhow::Result<ExitCode> {
    let mut reporter = args.reporter(quiet);
    let inputs = args.input_specs();
    cli::note_terminal_stdin(&inputs, quiet);
    let target = args.target();
    let summary = batch::run_batch(inputs, &target, job, opts, &mut reporter);
    reporter.finish();
    let summary = summary?;
    show(
        &summary,
        answered,
        quiet,
        args.stats == Some(cli::StatsArg::Json),
        &target,
    );
    Ok(finished(summary.counts.failures() > 0))
}

/// The summary on stderr: JSON with `--stats json`, else one line unless quiet, naming the output file if any.
pub(crate) fn show(
    summary: &BatchSummary,
    answered: &str,
    quiet: bool,
    json: bool,
    target: &Target,
) {
    if json {
        say!("{}", summary.to_json());
    } else if !quiet {
        let fail_fast = if summary.stopped {
            " (--fail-fast)"
        } else {
            ""
        };
        // Under --fail-fast a stopped run leaves no output file: none is named.
        let output = if summary.stopped {
            String::new()
        } else {
            written_to(target)
        };
        say!(
            "sudoku: {}{fail_fast}{output}",
            report::summary_text(summary, answered),
        );
    }
}

/// The end of a summary line that names the output file: `; output in FILE`, or nothing for standard output.
pub(crate) fn written_to(target: &Target) -> String {
    match target {
        Target::File(path) => format!("; output in {}", console::escaped(path)),
        Target::Stdout | Target::CompressedStdout(_) => String::new(),
    }
}

/// Generates boards, with a progress bar on a terminal and a summary line unless quiet.
fn generate(
    target: &Target,
    opts: &generate::BoardOptions,
    progress: Show,
    quiet: bool,
) -> anyhow::Result<ExitCode> {
    let mut reporter = Reporter::new(progress, None, quiet, "boards");
    let s = generate::generate(opts, target, &mut reporter);
    reporter.finish();
    let s = s?;
    if !quiet {
        let secs = s.elapsed.as_secs_f64();
        let retried = if opts.method == generate::Method::Random {
            format!(", {} made again by the repeat check", s.retries)
        } else {
            String::new()
        };
        say!(
            "sudoku: generated {} boards ({} bytes) in {secs:.3} s, {:.0} boards/s{retried}{}",
            s.boards,
            s.bytes,
            s.boards as f64 / secs.max(1e-9),
            written_to(target)
        );
    }
    Ok(ExitCode::SUCCESS)
}
