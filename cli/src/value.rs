//! How the values of flags are read: thread counts, levels, symmetries, formats, counts, SE ratings, digits,
//! compression names and the `--max-errors` cap, each with the message a user sees when a value is wrong.

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use sudoku_batch::generate::Symmetry;
use sudoku_batch::human::Level;
use sudoku_batch::output::Compression;
use sudoku_batch::Format;
use sudoku_batch::Threads;

/// The most boards the classic `-c N` form writes.
pub const CLASSIC_MAX: u32 = 1_000_000;

/// The one rule for `-j N` on every subcommand: the library's [`Threads::count`].
pub fn threads_parser() -> impl clap::builder::TypedValueParser<Value = Threads> {
    |s: &str| -> Result<Threads, String> {
        let n = s.parse::<usize>().map_err(|_| {
            format!(
                "the thread count must be a whole number from 1 to {}",
                sudoku_batch::MAX_THREADS
            )
        })?;
        Threads::count(n).map_err(|e| e.to_string())
    }
}

pub fn level_parser() -> impl clap::builder::TypedValueParser<Value = Level> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(Level::ALL.map(|l| l.name()))
        .map(|s| s.parse::<Level>().expect("a listed level"))
}

pub fn symmetry_parser() -> impl clap::builder::TypedValueParser<Value = Symmetry> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(Symmetry::ALL.map(|s| s.name()))
        .map(|s| s.parse::<Symmetry>().expect("a listed symmetry"))
}

/// `--format` of `generate`: a format's name, read by [`Format`]'s `FromStr` (boards are written as grids or
/// lines).
pub fn board_format() -> impl TypedValueParser<Value = Format> {
    PossibleValuesParser::new([
        PossibleValue::new("grid")
            .help("9 rows of 9 digits separated by single spaces, a blank line between boards"),
        PossibleValue::new("line").help("81 digits per line"),
    ])
    .map(|name| name.parse().expect("a listed format"))
}

/// How many per-record failure messages a batch run prints unless `--max-errors` says otherwise.
pub const DEFAULT_MAX_ERRORS: &str = "100";

/// [`DEFAULT_MAX_ERRORS`] as a cap, for the runs without the option (the classic `-s FILE` form).
pub fn default_max_errors() -> Option<u64> {
    parse_max_errors(DEFAULT_MAX_ERRORS).unwrap_or(Some(0))
}

/// `--max-errors`: a whole number, or `all` (`None`: no cap).
pub fn parse_max_errors(s: &str) -> Result<Option<u64>, String> {
    if s == "all" {
        return Ok(None);
    }
    match s.parse::<u64>() {
        Ok(n) if s.bytes().all(|b| b.is_ascii_digit()) => Ok(Some(n)),
        _ => Err("N must be a whole number of at least 0, or all".into()),
    }
}

pub fn parse_classic_count(s: &str) -> Result<u32, String> {
    match s.parse::<u32>() {
        Ok(n) if (1..=CLASSIC_MAX).contains(&n) && s.bytes().all(|b| b.is_ascii_digit()) => Ok(n),
        _ => Err(format!("N must be a whole number from 1 to {CLASSIC_MAX}")),
    }
}

pub fn parse_generate_count(s: &str) -> Result<u64, String> {
    let digits = !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    match s.parse::<u64>() {
        Ok(n) if n >= 1 && digits => Ok(n),
        Err(_) if digits => Err(format!("N is too big: at most {}", u64::MAX)),
        _ => Err("N must be a whole number of at least 1".into()),
    }
}

/// An SE rating from 1.0 to 25.5 with at most one decimal, in tenths.
pub fn parse_se_rating(s: &str) -> Result<u8, String> {
    let bad =
        || format!("expected an SE rating from 1.0 to 25.5 with at most one decimal, not {s:?}");
    let (whole, tenth) = s.split_once('.').unwrap_or((s, "0"));
    if whole.is_empty()
        || !whole.bytes().all(|b| b.is_ascii_digit())
        || !matches!(tenth.as_bytes(), [b'0'..=b'9'])
    {
        return Err(bad());
    }
    let v = whole.parse::<u32>().map_err(|_| bad())? * 10 + u32::from(tenth.as_bytes()[0] - b'0');
    u8::try_from(v).ok().filter(|&v| v >= 10).ok_or_else(bad)
}

pub fn parse_digit(s: &str) -> Result<u8, String> {
    match s.as_bytes() {
        [d @ b'1'..=b'9'] => Ok(d - b'0'),
        _ => Err("expected one digit from 1 to 9".into()),
    }
}

/// `--compress` values: a format's name or extension.
pub fn parse_compression(s: &str) -> Result<Compression, String> {
    Compression::from_name(s)
        .ok_or_else(|| "expected gzip, zstd, xz or bzip2 (or gz, zst, bz2)".into())
}
