//! Command-line usage errors: one line on standard error naming the help to read, help and version on standard
//! output, the short usage `sudoku` alone prints.

use std::io::IsTerminal;
use std::process::ExitCode;

use crate::cli::Cli;

/// The word clap took for a subcommand name when it is not one (as in `sudoku -c 5 extra`), unless clap has a
/// subcommand to suggest in its place (`sudoku sovle`).
fn stray_word(e: &clap::Error) -> Option<String> {
    use clap::error::ContextKind;
    use clap::CommandFactory;
    let word = e.get(ContextKind::InvalidSubcommand)?.to_string();
    if e.get(ContextKind::SuggestedSubcommand).is_some() {
        return None;
    }
    Cli::command()
        .find_subcommand(&word)
        .is_none()
        .then_some(word)
}

/// The subcommand named on the command line, if any: the help that an error points at.
fn subcommand_in(args: impl IntoIterator<Item = std::ffi::OsString>) -> Option<String> {
    use clap::CommandFactory;
    let cmd = Cli::command();
    args.into_iter()
        .skip(1)
        .filter_map(|a| a.into_string().ok())
        .find(|a| !a.starts_with('-'))
        .filter(|a| cmd.find_subcommand(a).is_some())
}

/// One line for a clap error: its first paragraph, then its tips (`a similar subcommand exists: 'solve'`), then
/// the help to read: the subcommand's when one was named.
pub fn error_line(e: &clap::Error, subcommand: Option<&str>) -> String {
    let text = e.render().to_string();
    let mut paragraphs = text.split("\n\n").map(|p| {
        p.lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect::<Vec<_>>()
            .join(" ")
    });
    let first = paragraphs.next().unwrap_or_default();
    let mut line = first.strip_prefix("error: ").unwrap_or(&first).to_string();
    for tip in paragraphs.filter(|p| p.starts_with("tip: ")) {
        line.push_str("; ");
        line.push_str(&tip["tip: ".len()..]);
    }
    let help = match subcommand {
        Some(name) => format!("sudoku {name} --help"),
        None => "sudoku --help".to_string(),
    };
    format!("{line} (see '{help}')")
}

/// Help text with clap's colours when standard output is a terminal, plain otherwise.
pub fn styled(text: clap::builder::StyledStr) -> String {
    if std::io::stdout().is_terminal() {
        text.ansi().to_string()
    } else {
        text.to_string()
    }
}

/// Reports a command-line error as one line on standard error (exit 2); help and version go to standard output
/// (exit 0, or 2 with a message when they cannot be written, as for any output). With no arguments at all, a short
/// usage instead of the whole help.
pub fn usage_error(e: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => print_or_fail(&e, ExitCode::SUCCESS),
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand if std::env::args_os().len() <= 1 => {
            say!("{}", SHORT_USAGE.trim_end());
            ExitCode::from(2)
        }
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => print_or_fail(&e, ExitCode::from(2)),
        _ if stray_word(&e).is_some() => {
            // After `-c N` or `-s FILE` a stray word is parsed as a subcommand name; say what the user sees.
            let word = stray_word(&e).unwrap_or_default();
            say!("sudoku: unexpected argument '{word}' (see 'sudoku --help')");
            ExitCode::from(2)
        }
        _ => {
            let subcommand = subcommand_in(std::env::args_os());
            let line = error_line(&e, subcommand.as_deref());
            // The standard library's words for a negative number given to a count or a seed.
            let line = if line.starts_with("invalid value '-") {
                line.replace(
                    "invalid digit found in string",
                    "a whole number of 0 or more is expected, not a negative one",
                )
            } else {
                line
            };
            say!("sudoku: {line}");
            ExitCode::from(2)
        }
    }
}

/// Prints help or version text to standard output: `code` when written (or the reader closed the pipe), 2 with a
/// message when the write failed.
fn print_or_fail(e: &clap::Error, code: ExitCode) -> ExitCode {
    match crate::console::print(styled(e.render()).as_bytes()) {
        Ok(()) => code,
        Err(e) if e.is_broken_pipe() => code,
        Err(e) => {
            say!("sudoku: {e}");
            ExitCode::from(2)
        }
    }
}

/// What `sudoku` alone prints: the common commands and where the rest is.
pub const SHORT_USAGE: &str = "\
sudoku: solve, rate, generate and check 9x9 Sudoku puzzles, whole files on all cores

Usage: sudoku <COMMAND> [ARGS]
  sudoku solve FILE...          solve every puzzle (line, grid or Kaggle CSV files; - for stdin)
  sudoku rate FILE...           rate each puzzle for a person (level, score, hardest technique)
  sudoku explain PUZZLE         the steps a person takes
  sudoku generate N             N distinct solved boards (--puzzles N for puzzles)
  sudoku check|count|canon|dedupe|shuffle FILE...   dataset tools

'sudoku --help' lists every command; 'sudoku COMMAND --help' its options and examples; 'sudoku man COMMAND'.
";
