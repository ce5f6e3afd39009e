//! Command-line arguments (clap derive): the subcommands and the classic `-c N` / `-s FILE` form.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use sudoku_batch::generate;
use sudoku_batch::output::Target;

/// Solve huge files of 9x9 Sudoku puzzles and generate millions of boards, on all cores.
#[derive(Debug, Parser)]
#[command(name = "sudoku", version, about, long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Option<Command>,

    /// Classic form: write N distinct solved boards (N from 1 to 1000000) to sudoku.txt in the current
    /// directory, in the grid format, every board starting with the digit 1 (see --first).
    #[arg(short = 'c', value_name = "N", value_parser = parse_classic_count, allow_negative_numbers = true)]
    pub count: Option<u32>,

    /// With -c: the digit in the top-left cell of every board (1-9) [default: 1].
    #[arg(long, value_name = "DIGIT", requires = "count", value_parser = parse_digit)]
    pub first: Option<u8>,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Solve one puzzle given as an argument, or every puzzle in a file (one output line per record, in order).
    Solve {
        /// An 81-character puzzle (`0` or `.` for blanks), or a file of such lines.
        input: String,
        /// Require a unique solution: puzzles with several solutions are reported as failures.
        #[arg(long)]
        unique: bool,
    },
    /// Generate N distinct solved boards: transforms of a base grid (distinct by construction), or randomized
    /// fills with --random.
    Generate(GenerateArgs),
}

/// `sudoku generate` arguments.
#[derive(Debug, clap::Args)]
pub struct GenerateArgs {
    /// How many boards. The pattern method makes at most 135444234240 distinct boards with --first and
    /// 1218998108160 without; --random has no limit.
    #[arg(value_name = "N", value_parser = parse_generate_count)]
    pub count: u64,
    /// Write to FILE (it appears whole or not at all) instead of standard output; `-` is standard output.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Output layout.
    #[arg(long, value_enum, default_value_t = FormatArg::Grid)]
    pub format: FormatArg,
    /// The digit in the top-left cell of every board (1-9) [default: it varies].
    #[arg(long, value_name = "DIGIT", value_parser = parse_digit)]
    pub first: Option<u8>,
    /// The same seed and options give the same output, whatever -j is.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// Randomized fills instead of pattern transforms (slower; still distinct and reproducible).
    #[arg(long)]
    pub random: bool,
    /// Worker threads [default: one per core].
    #[arg(short = 'j', long = "threads", value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: Option<u32>,
}

/// `--format` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    /// 9 rows of 9 digits separated by single spaces, a blank line between boards.
    Grid,
    /// 81 digits per line.
    Line,
}

/// The most boards the classic `-c N` form writes.
pub const CLASSIC_MAX: u32 = 1_000_000;

/// The file the classic `-c N` form writes, in the current directory.
pub const CLASSIC_FILE: &str = "sudoku.txt";

/// The first digit of the classic form's boards unless `--first` says otherwise.
pub const CLASSIC_FIRST: u8 = 1;

fn parse_classic_count(s: &str) -> Result<u32, String> {
    match s.parse::<u32>() {
        Ok(n) if (1..=CLASSIC_MAX).contains(&n) && s.bytes().all(|b| b.is_ascii_digit()) => Ok(n),
        _ => Err(format!("N must be a whole number from 1 to {CLASSIC_MAX}")),
    }
}

fn parse_generate_count(s: &str) -> Result<u64, String> {
    match s.parse::<u64>() {
        Ok(n) if n >= 1 && s.bytes().all(|b| b.is_ascii_digit()) => Ok(n),
        _ => Err("N must be a whole number of at least 1".into()),
    }
}

fn parse_digit(s: &str) -> Result<u8, String> {
    match s.as_bytes() {
        [d @ b'1'..=b'9'] => Ok(d - b'0'),
        _ => Err("expected one digit from 1 to 9".into()),
    }
}

impl Cli {
    /// The argument path as given, for messages.
    pub fn input_path(input: &str) -> PathBuf {
        PathBuf::from(input)
    }

    /// The classic `-c N` run: where it writes and what.
    pub fn classic(&self, count: u32) -> (Target, generate::Options) {
        let mut opts = generate::Options::new(u64::from(count));
        opts.first = Some(self.first.unwrap_or(CLASSIC_FIRST));
        let target = Target::File(PathBuf::from(CLASSIC_FILE));
        opts.progress = show_progress(&target);
        (target, opts)
    }
}

impl GenerateArgs {
    /// Where the run writes and what.
    pub fn run(&self) -> (Target, generate::Options) {
        let mut opts = generate::Options::new(self.count);
        opts.method = if self.random {
            generate::Method::Random
        } else {
            generate::Method::Pattern
        };
        opts.format = match self.format {
            FormatArg::Grid => generate::Format::Grid,
            FormatArg::Line => generate::Format::Line,
        };
        opts.first = self.first;
        opts.seed = self.seed;
        if let Some(j) = self.threads {
            opts.threads = j as usize;
        }
        let target = Target::from_arg(self.output.as_deref());
        opts.progress = show_progress(&target);
        (target, opts)
    }
}

/// A progress bar goes to standard error, and only when it is a terminal and boards are not being printed on
/// that terminal too.
fn show_progress(target: &Target) -> bool {
    std::io::stderr().is_terminal()
        && !(*target == Target::Stdout && std::io::stdout().is_terminal())
}

/// Reports a command-line error as one line on standard error (exit 2); help and version go to standard output
/// (exit 0).
pub fn usage_error(e: clap::Error) -> ExitCode {
    use clap::error::{ContextKind, ErrorKind};
    match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            let _ = e.print();
            ExitCode::SUCCESS
        }
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = e.print();
            ExitCode::from(2)
        }
        ErrorKind::InvalidSubcommand => {
            // After `-c N` a stray word is parsed as a subcommand name; say what the user sees.
            let word = e.get(ContextKind::InvalidSubcommand).map(|v| v.to_string());
            eprintln!(
                "sudoku: unexpected argument '{}' (see 'sudoku --help')",
                word.as_deref().unwrap_or("?")
            );
            ExitCode::from(2)
        }
        _ => {
            // clap's first paragraph, on one line; the usage and tips that follow are left to --help.
            let text = e.render().to_string();
            let paragraph: Vec<&str> = text
                .lines()
                .take_while(|l| !l.trim().is_empty())
                .map(str::trim)
                .collect();
            let line = paragraph.join(" ");
            let line = line.strip_prefix("error: ").unwrap_or(&line);
            eprintln!("sudoku: {line} (see 'sudoku --help')");
            ExitCode::from(2)
        }
    }
}
