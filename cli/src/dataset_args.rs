//! The clap model of the training-set subcommands' own flags (`split`, `export`, `shuffle --copies`), beside the
//! shared batch flags; their runs are in `split_cli.rs`, `export_cli.rs` and `shuffle_cli.rs`.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

/// Arguments of `sudoku split`.
#[derive(Debug, Args)]
pub struct SplitArgs {
    /// The fraction of equivalence classes for the test set (0 to 1), held by each stratum to within a class.
    #[arg(long, value_name = "F")]
    pub test: f64,
    /// The fraction of equivalence classes for a validation set (0 to 1) [default: no validation set].
    #[arg(long, value_name = "F")]
    pub val: Option<f64>,
    /// The seed of the hash that ranks the classes into sides.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// Split each stratum, the value of this CSV (or Parquet, Arrow) column, in the fractions on its own; the
    /// column must hold the same value for every record of a class (a rating, a clue count).
    #[arg(long, value_name = "COLUMN", conflicts_with = "solution_column")]
    pub stratify: Option<String>,
    /// The folder of the outputs DIR/train.EXT, DIR/test.EXT and with --val DIR/val.EXT (created if missing),
    /// EXT that of the first input (without a compression suffix), `txt` when it has none.
    #[arg(long, value_name = "DIR")]
    pub out_dir: PathBuf,
}

/// `Examples:` of `sudoku split --help` (run as written from the repository root by tests/readme.rs).
pub const SPLIT_EXAMPLES: &str = "\
Examples:
  sudoku split data/puzzles.txt --test 0.2 --out-dir sets          train.txt and test.txt
  sudoku split data/kaggle.csv --test 0.1 --val 0.1 --seed 7 --out-dir sets";

/// `--to` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ExportFormat {
    /// numpy's .npy files: inputs.npy, labels.npy, group.npy.
    Npy,
}

/// Arguments of `sudoku export`.
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// The kind of files to write.
    #[arg(long, value_enum, value_name = "KIND")]
    pub to: ExportFormat,
    /// The folder of the files (created if missing): inputs.npy, labels.npy, group.npy and dataset.json.
    #[arg(long, value_name = "DIR")]
    pub out_dir: PathBuf,
}

/// `Examples:` of `sudoku export --help` (run as written from the repository root by tests/readme.rs).
pub const EXPORT_EXAMPLES: &str = "\
Examples:
  sudoku export data/kaggle.csv --to npy --out-dir arrays         labels from the solutions column
  sudoku export data/puzzles.txt --to npy --out-dir arrays        labels solved";

/// `sudoku shuffle --copies K [--keep-original]`.
#[derive(Debug, Args)]
pub struct CopiesArgs {
    /// Write K random equivalent copies of each record, each through its own transformation (a solution column
    /// with its puzzle); a CSV or table gets one row per copy and a `group` column, the input record's number from 0.
    #[arg(long, value_name = "K", conflicts_with = "keep_lines",
          value_parser = clap::builder::RangedU64ValueParser::<u32>::new().range(1..=1_000_000))]
    pub copies: Option<u32>,
    /// With --copies: write each record itself first, then its K copies (same group).
    #[arg(long, requires = "copies")]
    pub keep_original: bool,
}
