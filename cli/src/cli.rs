//! Command-line arguments (clap derive): the subcommands and the classic `-c N` / `-s FILE` form, and their
//! translation into the library's run configuration.

use std::io::IsTerminal;
use std::path::PathBuf;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{Args, Parser, Subcommand, ValueEnum};
use sudoku_batch::batch::ColumnNames;
use sudoku_batch::batch::{BatchOptions, InputSpec, TableCompression};
use sudoku_batch::generate;
use sudoku_batch::generate::{Goal, PuzzleOptions, PuzzleRun, Symmetry};
use sudoku_batch::human::Level;
use sudoku_batch::output::Compression;
use sudoku_batch::output::Target;
use sudoku_batch::tools::Form;
use sudoku_batch::Format;
use sudoku_batch::Threads;

use crate::report::{Reporter, Show};
use crate::value::{
    board_format, level_parser, parse_classic_count, parse_compression, parse_digit,
    parse_generate_count, parse_max_errors, parse_se_rating, symmetry_parser, threads_parser,
    DEFAULT_MAX_ERRORS,
};

/// Solve huge files of 9x9 Sudoku puzzles and generate millions of boards, on all cores.
#[derive(Debug, Parser)]
#[command(
    name = "sudoku",
    version,
    about,
    long_about = None,
    arg_required_else_help = true,
    args_conflicts_with_subcommands = true,
    after_help = MAIN_EXAMPLES
)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Option<Command>,

    /// Classic form: solve FILE of 9-line grids (`0` blanks, a blank line between boards) and write the
    /// solutions in the same format to `sudoku.txt` in the current directory.
    #[arg(short = 's', value_name = "FILE")]
    pub solve_file: Option<PathBuf>,

    /// Classic form: write N distinct solved boards (N from 1 to 1000000) to sudoku.txt in the current
    /// directory, in the grid format, every board starting with the digit 1 (see --first).
    #[arg(short = 'c', value_name = "N", value_parser = parse_classic_count, allow_negative_numbers = true,
          conflicts_with = "solve_file")]
    pub count: Option<u32>,

    /// No progress (a bar on a terminal, a status line every 5 s otherwise; SUDOKU_STATUS_INTERVAL=SECONDS sets
    /// that interval, 0 for none) and no summary or histogram on standard error, for every subcommand (errors and
    /// per-record failures are still reported; add --max-errors 0 to silence the latter).
    #[arg(short, long, global = true)]
    pub quiet: bool,

    /// With -c: the digit in the top-left cell of every board (1-9) [default: 1].
    #[arg(long, value_name = "DIGIT", requires = "count", value_parser = parse_digit)]
    pub first: Option<u8>,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Solve every puzzle of the inputs, one output record per input record, in input order, on all cores.
    #[command(after_help = SOLVE_EXAMPLES)]
    Solve(SolveArgs),
    /// Time the solver in process on puzzle files (lines, 9-line grids or Kaggle CSVs, plain or compressed, as
    /// `solve` reads them): a warm-up pass, then repeated passes for `--seconds`; prints puzzles/s, µs/puzzle and
    /// guessing statistics.
    #[command(after_help = BENCH_EXAMPLES)]
    Bench(crate::bench_cli::BenchArgs),
    /// Generate N distinct solved boards: transforms of a base grid (distinct by construction), or randomized
    /// fills with --random.
    #[command(after_help = GENERATE_EXAMPLES)]
    Generate(GenerateArgs),
    /// Rate every puzzle on all cores: level (simple, easy, intermediate, expert), score, guesses and hardest
    /// technique, one record per input record in input order; a histogram on stderr at the end.
    #[command(after_help = RATE_EXAMPLES)]
    Rate(RateArgs),
    /// Explain how a person solves a puzzle: every step names its technique and the cells and digits it places
    /// or eliminates; where no technique applies, the guess (cell, digit, guess level) and any backtracking. As
    /// text: one INPUT, a puzzle, a file of puzzles (each explained in turn; at most 64 MiB) or `-`. With --json:
    /// every path as data, any inputs, on all cores, with the run options of `rate` (docs/explain-json.md).
    #[command(after_help = EXPLAIN_EXAMPLES)]
    Explain {
        #[command(flatten)]
        batch: BatchArgs,
        #[command(flatten)]
        json: JsonArg,
        /// The path to show: the levels path (techniques easiest first, guesses where none applies) or Sudoku
        /// Explainer's path with each step's SE rating.
        #[arg(long, value_enum, default_value_t = ScaleArg::Levels)]
        scale: ScaleArg,
        #[command(flatten)]
        explain: crate::explain_args::ExplainArgs,
    },
    /// Check the solutions records carry (`PUZZLE SOLUTION` or `PUZZLE,SOLUTION` lines, a CSV's solution column):
    /// each record gets `ok` or why not (a broken rule, a changed given, a blank, not unique with --unique).
    #[command(after_help = CHECK_EXAMPLES)]
    Check(CheckArgs),
    /// Count the solutions of every puzzle, the search stopped at --limit (`N+` when it stopped there).
    #[command(after_help = COUNT_EXAMPLES)]
    Count(CountArgs),
    /// The minlex canonical form of every record (puzzle or solved grid, `0` blanks; with --pattern-first the
    /// forum's form, `.` blanks): equal for exactly the records that are the same up to relabelling digits,
    /// permuting bands, stacks, rows and columns within them, and transposing.
    #[command(after_help = CANON_EXAMPLES)]
    Canon(CanonArgs),
    /// Keep the first record of each equivalence class (same canonical form), in input order, as it was written;
    /// the rest are left out.
    #[command(after_help = DEDUPE_EXAMPLES)]
    Dedupe(DedupeArgs),
    /// Replace every record by a uniformly random equivalent one (a claimed solution goes through the same
    /// transformation); the same seed gives the same output whatever -j is.
    #[command(after_help = SHUFFLE_EXAMPLES)]
    Shuffle(ShuffleArgs),
    /// Split the records into train, test and (with --val) validation sets, every equivalence class wholly on
    /// one side: DIR/train.EXT, DIR/test.EXT, DIR/val.EXT in the input's format. Records that fail are left out.
    #[command(after_help = crate::dataset_args::SPLIT_EXAMPLES, mut_arg("output", |a| a.hide(true)),
              mut_arg("compress", |a| a.hide(true)), mut_arg("keep_lines", |a| a.hide(true)))]
    Split {
        #[command(flatten)]
        batch: BatchArgs,
        #[command(flatten)]
        split: crate::dataset_args::SplitArgs,
    },
    /// Export the records as numpy arrays for training: DIR/inputs.npy (N, 81) uint8 (0 blanks), DIR/labels.npy
    /// (the solution each record carries, else the unique solution), DIR/group.npy (N,) int64 (equivalence classes
    /// numbered in order of first appearance) and DIR/dataset.json. Records that fail are left out.
    #[command(after_help = crate::dataset_args::EXPORT_EXAMPLES, mut_arg("output", |a| a.hide(true)),
              mut_arg("compress", |a| a.hide(true)), mut_arg("keep_lines", |a| a.hide(true)))]
    Export {
        #[command(flatten)]
        batch: BatchArgs,
        #[command(flatten)]
        export: crate::dataset_args::ExportArgs,
    },
    /// Search the neighbourhoods of seed puzzles ({-1+1}, {-2+2} moves: clues removed, others added) for new
    /// puzzles rated --min-er or more on Sudoku Explainer's scale, best first, on all cores, until --time, --limit
    /// or Ctrl-C; each find once, as `PUZZLE ER EP ED HARDEST` (the line of `rate --scale se`).
    #[command(after_help = crate::hunt_cli::HUNT_EXAMPLES)]
    Hunt(crate::hunt_cli::HuntArgs),
    /// Print a shell completion script to standard output.
    #[command(after_help = COMPLETIONS_EXAMPLES)]
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print a manual page (roff) to standard output, the sudoku page or a subcommand's; `sudoku man solve | man
    /// -l -` shows it. With --dir, write every page (sudoku.1, sudoku-solve.1, ...) into a folder.
    #[command(after_help = MAN_EXAMPLES)]
    Man {
        /// The subcommand whose page to print [default: the page of sudoku itself].
        #[arg(value_name = "COMMAND")]
        command: Option<String>,
        /// Write every page into DIR (created if missing) instead, for `man -M` or a man directory.
        #[arg(long, value_name = "DIR", conflicts_with = "command")]
        dir: Option<PathBuf>,
    },
}

/// `Examples:` of `sudoku --help`; the manual page shows them under EXAMPLES. Every one runs as written from the
/// repository root (tests/readme.rs runs them: a command, then two or more spaces before its description).
pub const MAIN_EXAMPLES: &str = "\
Examples:
  sudoku solve data/puzzles.txt > solutions.txt
  sudoku rate data/puzzles.txt
  sudoku generate 1000 --format line -o boards.txt
  sudoku solve --help";

const SOLVE_EXAMPLES: &str = "\
Examples:
  sudoku solve data/puzzles.txt > solutions.txt       all cores, output in input order
  sudoku solve data/puzzles.txt -o solutions.txt      the file appears whole or not at all
  cat data/puzzles.txt | sudoku solve                 no INPUT (or -) reads standard input
  sudoku solve data/kaggle.csv data/grid.txt          several inputs and formats, one output
  sudoku solve --unique data/several_solutions.txt    several solutions count as failures
  sudoku solve data/puzzles.txt --json                JSON Lines, one object per record";

const BENCH_EXAMPLES: &str = "\
Examples:
  sudoku bench data/puzzles.txt --seconds 1           first solutions, 1 s of passes
  sudoku bench --unique --seconds 1 data/kaggle.csv   the uniqueness search, 1 s
  sudoku bench --engine vector data/puzzles.txt       the vector engine instead of the bitmask one";

const GENERATE_EXAMPLES: &str = "\
Examples:
  sudoku generate 1000 -o boards.txt                  distinct boards, grid format
  sudoku generate 1000 --format line --first 3        81 digits a line, each starting with 3
  sudoku generate 100 --random --seed 42              randomized fills, reproducible
  sudoku generate --puzzles 20 --difficulty expert --format line
  sudoku generate --puzzles 20 --clues 30 --symmetry rotate180";

const RATE_EXAMPLES: &str = "\
Examples:
  sudoku rate data/puzzles.txt > ratings.txt          PUZZLE LEVEL SCORE GUESSES HARDEST per line
  sudoku rate data/puzzles.txt --header               the same with a header line first
  sudoku rate data/kaggle.csv                         four columns appended to the CSV
  sudoku rate data/puzzles.txt --json                 JSON Lines";

const EXPLAIN_EXAMPLES: &str = "\
Examples:
  sudoku explain 4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......
  sudoku explain --candidates data/grid.txt           every puzzle of a file, with candidate grids
  sudoku explain --json --scale se data/kaggle.csv    every path as data, one JSON object per puzzle
  sudoku explain --html path.html data/grid.txt       every path drawn, one SVG grid a step";

const CHECK_EXAMPLES: &str = "\
Examples:
  sudoku check data/kaggle.csv                        a `check` column: ok, or why not
  grep -v '^#' data/puzzles.txt | paste -d' ' - data/puzzles.solutions.txt | sudoku check --unique";

const COUNT_EXAMPLES: &str = "\
Examples:
  sudoku count data/several_solutions.txt             2+ where the search stopped at 2
  sudoku count data/several_solutions.txt --limit 1000";

const CANON_EXAMPLES: &str = "\
Examples:
  sudoku canon data/puzzles.txt                       the minlex form of each puzzle
  sudoku generate 1000 --format line | sudoku canon | sort -u | wc -l";

const DEDUPE_EXAMPLES: &str = "\
Examples:
  sudoku dedupe data/puzzles.txt data/grid.txt -o unique.txt";

const SHUFFLE_EXAMPLES: &str = "\
Examples:
  sudoku shuffle data/puzzles.txt --seed 7            the same seed, the same output";

const COMPLETIONS_EXAMPLES: &str = "\
Examples:
  source <(sudoku completions bash)                   in the running bash
  sudoku completions zsh > _sudoku                    for a directory on zsh's $fpath";

const MAN_EXAMPLES: &str = "\
Examples:
  sudoku man | man -l -                               this manual
  sudoku man solve | man -l -                         the page of sudoku solve
  sudoku man --dir ~/.local/share/man/man1            every page, for man sudoku-solve";

/// `--json`: JSON Lines output, one object per input record.
#[derive(Debug, Clone, Copy, Args)]
pub struct JsonArg {
    /// Write JSON Lines instead of the input's format: one object per input record, in input order, such as
    /// {"line":12,"puzzle":"...","status":"solved","solution":"...","guesses":3}; failures have "status" (their
    /// kind) and "error". "guesses" is the search's effort in its engine's units (with --unique the engine is chosen
    /// per puzzle, so it may differ between releases); it is no difficulty rating.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `sudoku check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    #[command(flatten)]
    pub batch: BatchArgs,
    #[command(flatten)]
    pub json: JsonArg,
    /// Also require each puzzle to have exactly one solution.
    #[arg(long)]
    pub unique: bool,
}

/// Arguments of `sudoku count`.
#[derive(Debug, Args)]
pub struct CountArgs {
    #[command(flatten)]
    pub batch: BatchArgs,
    #[command(flatten)]
    pub json: JsonArg,
    /// Stop counting a puzzle's solutions at N (1 or more).
    #[arg(long, value_name = "N", default_value_t = 2, allow_negative_numbers = true,
          value_parser = clap::builder::RangedU64ValueParser::<u64>::new().range(1..))]
    pub limit: u64,
}

/// Arguments of `sudoku canon`.
#[derive(Debug, Args)]
pub struct CanonArgs {
    #[command(flatten)]
    pub batch: BatchArgs,
    #[command(flatten)]
    pub json: JsonArg,
    /// The forum's canonical form (that of dobrichev's minlexer, sudoku-minlexing-tool): the smallest
    /// pattern of givens first, then the smallest digits; `.` for blanks. Default: the smallest string, `0` blanks.
    #[arg(long)]
    pub pattern_first: bool,
}

impl CanonArgs {
    /// The canonical form asked for.
    pub fn form(&self) -> Form {
        if self.pattern_first {
            Form::PatternFirst
        } else {
            Form::Minlex
        }
    }
}

/// Arguments of `sudoku dedupe`.
#[derive(Debug, Args)]
pub struct DedupeArgs {
    #[command(flatten)]
    pub batch: BatchArgs,
}

/// Arguments of `sudoku shuffle`.
#[derive(Debug, Args)]
pub struct ShuffleArgs {
    #[command(flatten)]
    pub batch: BatchArgs,
    /// The seed: with the record's place in its input, it decides each record's transformation.
    #[arg(
        long,
        value_name = "S",
        default_value_t = 0,
        allow_negative_numbers = true
    )]
    pub seed: u64,
    #[command(flatten)]
    pub copies: crate::dataset_args::CopiesArgs,
}

/// The inputs and run options shared by every batch subcommand (`solve`, `rate`, `check`, `count`, `canon`,
/// `dedupe`, `shuffle`).
#[derive(Debug, Clone, Args)]
pub struct BatchArgs {
    /// Files of puzzles (`-` or none for standard input), or one puzzle given as text (81 characters, `0` or `.`
    /// for blanks). Formats: 81-character lines, 9-line grids, Kaggle CSVs (detected, or see --format), plain or
    /// compressed by gzip, zstd, xz or bzip2 (told by their first bytes); or one Parquet or Arrow IPC table
    /// (answered as the same kind of table).
    #[arg(value_name = "INPUT")]
    pub inputs: Vec<PathBuf>,

    /// Write the results to OUT (created whole or not at all) instead of standard output; compressed when OUT
    /// ends in .gz, .zst, .xz or .bz2.
    #[arg(short, long, value_name = "OUT")]
    pub output: Option<PathBuf>,

    /// Compress standard output: gzip, zstd, xz or bzip2 (or gz, zst, bz2). An -o FILE is compressed by its
    /// name instead, when it ends in .gz, .zst, .xz or .bz2.
    #[arg(long, value_name = "FORMAT", value_parser = parse_compression, conflicts_with = "output")]
    pub compress: Option<Compression>,

    /// Worker threads, 1 to 1024 (default: all cores); 1 runs the plain sequential path.
    #[arg(short = 'j', long = "threads", value_name = "N", value_parser = threads_parser(),
          allow_negative_numbers = true)]
    pub threads: Option<Threads>,

    /// Read the inputs in this format instead of detecting it from the first record.
    // The type is spelt out so that clap takes `None` as a value (`auto`), not as the option left out.
    #[arg(long, value_name = "FORMAT", value_parser = input_format(), default_value = "auto")]
    pub format: std::option::Option<Format>,

    /// The CSV (or Parquet, Arrow) column holding the puzzles [default: the first of quizzes, quiz, puzzles,
    /// puzzle, question]. Any case; a header without it is an error.
    #[arg(long, value_name = "NAME")]
    pub column: Option<String>,

    /// The CSV (or Parquet, Arrow) column of solutions: the claims `check` checks, the column `solve` fills [default: the first other
    /// of solutions, solution, answer; `solve` adds a `solution` column when there is none]. A header without it is an error.
    #[arg(long, value_name = "NAME")]
    pub solution_column: Option<String>,

    /// How a table output is compressed: zstd (level 1), snappy (Parquet only), lz4, or none (the fastest, and the
    /// largest) [default: zstd for Parquet, none for Arrow IPC].
    #[arg(long, value_enum, value_name = "CODEC")]
    pub table_compression: Option<TableCompressionArg>,

    /// Print at most N per-record failure messages, then one line counting the rest (the summary still counts
    /// every failure); 0 prints none, `all` prints every one.
    // The type is spelt out so that clap takes `None` as a value (`all`: no cap), not as the option left out.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = parse_max_errors,
          default_value = DEFAULT_MAX_ERRORS)]
    pub max_errors: std::option::Option<u64>,

    /// Read regular files instead of memory-mapping them.
    #[arg(long)]
    pub no_mmap: bool,

    /// Print the summary for machines instead of people.
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub stats: Option<StatsArg>,

    /// Target chunk size in bytes (for tests and tuning) [default: the subcommand's].
    #[arg(long, value_name = "BYTES", hide = true,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    pub chunk_size: Option<usize>,

    /// Pipe mode, for `RDD.pipe` and streaming jobs: exactly one output line per input line. Comment and blank
    /// lines are written back unchanged and failures are marked in place (line and CSV inputs only; not with
    /// --json). On a pipe, FIFO or terminal each line is answered as soon as it is read.
    #[arg(long)]
    pub keep_lines: bool,
}

impl BatchArgs {
    /// The inputs: stdin when none; an argument that names no file and reads as puzzle text is that puzzle.
    pub fn input_specs(&self) -> Vec<InputSpec> {
        if self.inputs.is_empty() {
            return vec![InputSpec::Stdin];
        }
        self.inputs.iter().map(|p| InputSpec::from_arg(p)).collect()
    }

    /// Where results go.
    pub fn target(&self) -> Target {
        target(self.output.as_deref(), self.compress)
    }

    /// The observer of the run: failure messages, and a progress bar on a terminal unless quiet.
    pub fn reporter(&self, quiet: bool) -> Reporter {
        Reporter::new(
            show_progress(&self.target(), quiet),
            self.max_errors,
            quiet,
            "records",
        )
    }

    /// The run configuration, with the options that only some commands set; `chunk_size` (the library's default
    /// when `None`) unless --chunk-size.
    pub fn options(&self, fail_fast: bool, chunk_size: Option<usize>, json: bool) -> BatchOptions {
        let defaults = BatchOptions::default();
        BatchOptions {
            json,
            threads: self.threads.unwrap_or_default(),
            format: self.format,
            mmap: !self.no_mmap,
            fail_fast,
            chunk_size: self
                .chunk_size
                .or(chunk_size)
                .unwrap_or(defaults.chunk_size),
            keep_lines: self.keep_lines,
            columns: ColumnNames {
                puzzle: self.column.clone(),
                solution: self.solution_column.clone(),
            },
            table_compression: self.table_compression.map(|c| match c {
                TableCompressionArg::Zstd => TableCompression::Zstd,
                TableCompressionArg::Snappy => TableCompression::Snappy,
                TableCompressionArg::Lz4 => TableCompression::Lz4,
                TableCompressionArg::None => TableCompression::None,
            }),
            header: false,
        }
    }
}

/// `--table-compression` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TableCompressionArg {
    /// zstd level 1.
    Zstd,
    /// Snappy.
    Snappy,
    /// LZ4.
    Lz4,
    /// No compression.
    None,
}

/// Arguments of `sudoku rate`: the inputs and run options of `sudoku solve`. A line record's rating follows the
/// puzzle (`.` blanks) on its line.
#[derive(Debug, Args)]
pub struct RateArgs {
    #[command(flatten)]
    pub batch: BatchArgs,
    #[command(flatten)]
    pub json: JsonArg,
    /// Line output: write a header line first (`puzzle level score guesses hardest`, or `puzzle er ep ed hardest`
    /// with --scale se); a CSV keeps its own header and gets the column names appended anyway.
    #[arg(long, conflicts_with_all = ["json", "keep_lines"])]
    pub header: bool,
    /// The rating scale: levels (level, score, guesses, hardest technique) or se (Sudoku Explainer's ER EP ED and
    /// the hardest technique; `>10.5` where no technique of SE's ladder applies, where serate gives up).
    #[arg(long, value_enum, default_value_t = ScaleArg::Levels)]
    pub scale: ScaleArg,
    /// With --scale se: stop rating a puzzle at the first step SE rates above X (1.0 to 25.5, one decimal) and
    /// report what is left unknown as above X (`>X`; JSON `null` with `"above": X`). Puzzles within X get their
    /// full ratings; the hardest steps, the slowest to find, are skipped.
    #[arg(long, value_name = "X", value_parser = parse_se_rating)]
    pub max_se: Option<u8>,
    #[command(flatten)]
    pub plot: crate::rate_report::PlotArg,
}

/// `--scale` values of `rate` and `explain`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ScaleArg {
    /// Four levels named like QQWing's, a score, guesses and the hardest technique.
    Levels,
    /// Sudoku Explainer (SE 1.2.1 classic) ratings: ER, EP, ED.
    Se,
}

/// Chunk size for rating: a puzzle takes 30 µs to a few ms to rate, so chunks are smaller than for solving to keep
/// every core busy.
pub const RATE_CHUNK_SIZE: usize = 32 * 1024;

/// Chunk size for SE ratings (`--scale se`): a puzzle takes 0.1 ms (17 clues) to seconds (the forum's hardest) to
/// rate, so a chunk holds about seven line records: a file of a few dozen hard puzzles keeps every core busy to
/// its end (no thread is left alone on a long last chunk), and one slow chunk holds back little of the ordered
/// output.
pub const SE_RATE_CHUNK_SIZE: usize = 512;
const _: () = assert!(SE_RATE_CHUNK_SIZE < RATE_CHUNK_SIZE);

impl RateArgs {
    /// The run configuration (never fail-fast; small chunks, smaller on SE's scale).
    pub fn options(&self) -> BatchOptions {
        let chunk = match self.scale {
            ScaleArg::Levels => RATE_CHUNK_SIZE,
            ScaleArg::Se => SE_RATE_CHUNK_SIZE,
        };
        BatchOptions {
            header: self.header,
            ..self.batch.options(false, Some(chunk), self.json.json)
        }
    }
}

/// Arguments of `sudoku solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    #[command(flatten)]
    pub batch: BatchArgs,

    /// Require a unique solution: puzzles with several solutions are failures.
    #[arg(long)]
    pub unique: bool,

    /// Stop at the first failed record (its marked output is the last written; an -o file is not created).
    #[arg(long)]
    pub fail_fast: bool,

    #[command(flatten)]
    pub json: JsonArg,
}

impl SolveArgs {
    /// The run configuration.
    pub fn options(&self) -> BatchOptions {
        self.batch.options(self.fail_fast, None, self.json.json)
    }
}

/// `--format` of the batch commands: `auto` (`None`: detect it from the first record) or a format's name, read by
/// [`Format`]'s `FromStr`.
fn input_format() -> impl TypedValueParser<Value = Option<Format>> {
    PossibleValuesParser::new([
        PossibleValue::new("auto").help("Detect from the first record"),
        PossibleValue::new("line").help("81-character lines"),
        PossibleValue::new("grid")
            .help("Nine rows of nine digits separated by spaces, a blank line between boards"),
        PossibleValue::new("csv")
            .help("A CSV with a header naming a puzzle column (Kaggle layouts)"),
    ])
    .map(|name| (name != "auto").then(|| name.parse().expect("a listed format")))
}

/// `--stats` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum StatsArg {
    /// One JSON object on stderr.
    Json,
}

/// `sudoku generate` arguments.
#[derive(Debug, clap::Args)]
pub struct GenerateArgs {
    /// How many boards. The pattern method makes at most 135444234240 distinct boards with --first and
    /// 1218998108160 without; --random has no limit.
    #[arg(value_name = "N", value_parser = parse_generate_count, required_unless_present = "puzzles",
          allow_negative_numbers = true)]
    pub count: Option<u64>,
    /// Write to FILE (it appears whole or not at all) instead of standard output; `-` is standard output.
    /// Compressed when FILE ends in .gz, .zst, .xz or .bz2.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Compress standard output: gzip, zstd, xz or bzip2 (or gz, zst, bz2). An -o FILE is compressed by its
    /// name instead, when it ends in .gz, .zst, .xz or .bz2.
    #[arg(long, value_name = "FORMAT", value_parser = parse_compression, conflicts_with = "output")]
    pub compress: Option<Compression>,
    /// Output layout.
    #[arg(long, value_name = "FORMAT", value_parser = board_format(), default_value = "grid")]
    pub format: Format,
    /// The digit in the top-left cell of every board (1-9) [default: it varies].
    #[arg(long, value_name = "DIGIT", value_parser = parse_digit, conflicts_with = "puzzles")]
    pub first: Option<u8>,
    /// The same seed and options give the same output, whatever -j is.
    #[arg(
        long,
        value_name = "S",
        default_value_t = 0,
        allow_negative_numbers = true
    )]
    pub seed: u64,
    /// Randomized fills instead of pattern transforms (slower; still distinct and reproducible).
    #[arg(long, conflicts_with = "puzzles")]
    pub random: bool,
    /// Worker threads, 1 to 1024 [default: one per core].
    #[arg(short = 'j', long = "threads", value_name = "N", value_parser = threads_parser(),
          allow_negative_numbers = true)]
    pub threads: Option<Threads>,
    /// Make COUNT puzzles with exactly one solution (minimal unless --clues asks otherwise) instead of solved boards.
    #[arg(long, value_name = "COUNT", value_parser = parse_generate_count, conflicts_with = "count",
          allow_negative_numbers = true)]
    pub puzzles: Option<u64>,
    /// With --puzzles: exactly K clues (17-81; the puzzles are then not necessarily minimal).
    #[arg(
        long,
        value_name = "K",
        allow_negative_numbers = true,
        requires = "puzzles",
        conflicts_with = "difficulty"
    )]
    pub clues: Option<usize>,
    /// With --puzzles: only minimal puzzles rated at this level.
    #[arg(long, value_name = "LEVEL", requires = "puzzles", value_parser = level_parser())]
    pub difficulty: Option<Level>,
    /// With --puzzles: clues are removed in groups that keep this symmetry [default: none].
    #[arg(long, value_name = "SYMMETRY", requires = "puzzles", value_parser = symmetry_parser())]
    pub symmetry: Option<Symmetry>,
    #[command(flatten)]
    pub filters: crate::puzzle_filters::PuzzleFilterArgs,
}

/// The file the classic `-c N` and `-s FILE` forms write, in the current directory.
pub const CLASSIC_FILE: &str = "sudoku.txt";

/// The first digit of the classic form's boards unless `--first` says otherwise.
pub const CLASSIC_FIRST: u8 = 1;

impl Cli {
    /// The classic `-c N` run: where it writes and what.
    pub fn classic(&self, count: u32) -> (Target, generate::BoardOptions) {
        let mut opts = generate::BoardOptions::new(u64::from(count));
        opts.first = Some(self.first.unwrap_or(CLASSIC_FIRST));
        (Target::File(PathBuf::from(CLASSIC_FILE)), opts)
    }
}

impl GenerateArgs {
    /// Where the run writes and what.
    pub fn run(&self) -> (Target, generate::BoardOptions) {
        let mut opts =
            generate::BoardOptions::new(self.count.expect("N is required without --puzzles"));
        opts.method = if self.random {
            generate::Method::Random
        } else {
            generate::Method::Pattern
        };
        opts.format = self.format;
        opts.first = self.first;
        opts.seed = self.seed;
        opts.threads = self.threads.unwrap_or_default();
        (target(self.output.as_deref(), self.compress), opts)
    }
}

impl GenerateArgs {
    /// The first option given that only a puzzle run (`--puzzles`) reads, when it is a board run: such a run is
    /// refused rather than making boards that ignore it (clap's `requires = "puzzles"` does not fire once N is
    /// given).
    pub fn puzzle_option(&self) -> Option<&'static str> {
        if self.puzzles.is_some() {
            return None;
        }
        [
            ("--clues", self.clues.is_some()),
            ("--difficulty", self.difficulty.is_some()),
            ("--symmetry", self.symmetry.is_some()),
        ]
        .into_iter()
        .find_map(|(name, given)| given.then_some(name))
        .or_else(|| self.filters.first_given())
    }

    /// With --puzzles: where the puzzle run writes and what.
    pub fn puzzle_run(&self) -> Option<(Target, PuzzleRun)> {
        let count = self.puzzles?;
        let goal = match (self.clues, self.difficulty) {
            (Some(k), _) => Goal::Clues(k),
            (None, Some(l)) => Goal::Level(l),
            (None, None) => Goal::Minimal,
        };
        let mut run = PuzzleRun {
            count,
            options: PuzzleOptions {
                goal,
                symmetry: self.symmetry.unwrap_or_default(),
                ..PuzzleOptions::default()
            },
            seed: self.seed,
            threads: self.threads.unwrap_or_default(),
            format: self.format,
            json: false,
        };
        self.filters.apply(&mut run);
        Some((target(self.output.as_deref(), self.compress), run))
    }
}

/// `-o` (none or `-` for standard output) with `--compress`, which clap allows only without `-o`.
fn target(output: Option<&std::path::Path>, compress: Option<Compression>) -> Target {
    match Target::from_arg(output) {
        Target::Stdout => compress.map_or(Target::Stdout, Target::CompressedStdout),
        file => file,
    }
}

/// How progress is shown on standard error: not at all when quiet or when the output is printed on the same
/// terminal; a bar on a terminal; a status line every few seconds on a file or pipe (a log; the seconds can be set
/// with the environment variable `SUDOKU_STATUS_INTERVAL`, `0` for none).
pub fn show_progress(target: &Target, quiet: bool) -> Show {
    if quiet {
        Show::Off
    } else if !std::io::stderr().is_terminal() {
        crate::report::status_interval().map_or(Show::Off, Show::Lines)
    } else if matches!(target, Target::Stdout | Target::CompressedStdout(_))
        && std::io::stdout().is_terminal()
    {
        Show::Off
    } else {
        Show::Bar
    }
}

/// When standard input is a terminal and is read, says so before the run waits on it (unless quiet).
pub fn note_terminal_stdin(inputs: &[InputSpec], quiet: bool) {
    if !quiet && inputs.contains(&InputSpec::Stdin) && std::io::stdin().is_terminal() {
        say!(
            "sudoku: reading puzzles from the terminal (standard input); end with Ctrl-D, or name a FILE"
        );
    }
}

/// The run configuration of the classic `-s FILE` form: grid format, all cores.
pub fn classic_options() -> BatchOptions {
    BatchOptions {
        format: Some(Format::Grid),
        ..BatchOptions::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_arguments_are_consistent() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }

    /// The chunk size `rate` runs with for these arguments.
    fn rate_chunk(args: &[&str]) -> usize {
        let cli = Cli::try_parse_from(["sudoku", "rate"].iter().chain(args)).unwrap();
        match cli.command {
            Some(Command::Rate(a)) => a.options().chunk_size,
            _ => unreachable!("a rate command"),
        }
    }

    #[test]
    fn max_errors_is_capped_by_default_and_all_lifts_the_cap() {
        let cap = |args: &[&str]| {
            let cli = Cli::try_parse_from(["sudoku", "solve"].iter().chain(args)).unwrap();
            match cli.command {
                Some(Command::Solve(a)) => a.batch.max_errors,
                _ => unreachable!("a solve command"),
            }
        };
        assert_eq!(cap(&["x.txt"]), Some(100));
        assert_eq!(crate::value::default_max_errors(), Some(100));
        assert_eq!(cap(&["--max-errors", "all", "x.txt"]), None);
        assert_eq!(cap(&["--max-errors", "0", "x.txt"]), Some(0));
        assert!(Cli::try_parse_from(["sudoku", "solve", "--max-errors", "+5", "x"]).is_err());
    }

    #[test]
    fn se_ratings_run_in_smaller_chunks_unless_told() {
        assert_eq!(rate_chunk(&["x.txt"]), RATE_CHUNK_SIZE);
        assert_eq!(rate_chunk(&["--scale", "se", "x.txt"]), SE_RATE_CHUNK_SIZE);
        let told = ["--scale", "se", "--chunk-size", "5000", "x.txt"];
        assert_eq!(rate_chunk(&told), 5000);
    }
}
