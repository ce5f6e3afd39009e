//! The `sudoku` binary: parses arguments, runs the library, maps the outcome to an exit code
//! (0 all fine, 1 some records failed, 2 usage or fatal error).

mod cli;

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;
use sudoku_batch::output::Target;
use sudoku_batch::{generate, solver, Grid};

fn main() -> ExitCode {
    let args = match cli::Cli::try_parse() {
        Ok(args) => args,
        Err(e) => return cli::usage_error(e),
    };
    match run(args) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("sudoku: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn run(args: cli::Cli) -> anyhow::Result<ExitCode> {
    match (&args.command, args.count) {
        (Some(_), Some(_)) => {
            anyhow::bail!("-c N cannot be combined with a subcommand (see 'sudoku --help')")
        }
        (Some(cli::Command::Solve { input, unique }), _) => solve_simple(input, *unique),
        (Some(cli::Command::Generate(g)), _) => generate(g.run()),
        (None, Some(n)) => generate(args.classic(n)),
        (None, None) => anyhow::bail!("no command given (see 'sudoku --help')"),
    }
}

/// Generates boards; a closed pipe on standard output ends the run quietly.
fn generate((target, opts): (Target, generate::Options)) -> anyhow::Result<ExitCode> {
    match generate::generate(&opts, &target) {
        Ok(s) => {
            let secs = s.elapsed.as_secs_f64();
            eprintln!(
                "sudoku: generated {} boards ({} bytes) in {secs:.3} s, {:.0} boards/s",
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

/// Sequential solving: a puzzle argument, or a file of 81-character lines.
fn solve_simple(input: &str, unique: bool) -> anyhow::Result<ExitCode> {
    let path = cli::Cli::input_path(input);
    let is_puzzle = input.len() >= 81 && !path.exists();
    let text = if is_puzzle {
        input.as_bytes().to_vec()
    } else {
        std::fs::read(&path).map_err(|e| anyhow::anyhow!("{input}: {e}"))?
    };
    let name = if is_puzzle { "<argument>" } else { input };
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut failed = false;
    for (n, line) in text.split(|&b| b == b'\n').enumerate() {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.trim_ascii().is_empty() || line.starts_with(b"#") {
            continue;
        }
        let result = Grid::parse_line(line)
            .map_err(|e| e.to_string())
            .and_then(|g| {
                if unique {
                    solver::solve_unique(&g)
                } else {
                    solver::solve(&g)
                }
                .map_err(|e| e.to_string())
            });
        match result {
            Ok(s) => writeln!(out, "{}", s.solution)?,
            Err(reason) => {
                failed = true;
                writeln!(out, "error: {reason}")?;
                eprintln!("sudoku: {name}:{}: {reason}", n + 1);
            }
        }
    }
    out.flush()?;
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
