//! The in-process solver benchmark behind `sudoku bench`: load a dataset, warm up, time repeated passes (parse and
//! solve every record, as the established solver harnesses do) and report puzzles/s, µs/puzzle and how often the
//! solver had to guess.

use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::compression::Compression;
use crate::format::csv::ColumnNames;
use crate::format::{is_skipped, prepare, read_all, Plan, Prepared, MAX_RECORD};
use crate::grid::Grid;
use crate::record::CsvAnswer;
use crate::solver::{self, Engine, SolveError};

/// Whether a file starting with `head` is timed as a file of lines: its first record is an 81-character line (or
/// no format can be told from it, as with a file of bad lines); grids and CSV files are not.
fn is_lines(head: &[u8]) -> bool {
    let columns = ColumnNames::default();
    !matches!(
        prepare(head, true, None, CsvAnswer::Solution, false, &columns),
        Ok(Some(Prepared {
            plan: Plan::Grid | Plan::Csv(_),
            ..
        }))
    )
}

/// How to time a dataset.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BenchConfig {
    /// Time spent in timed passes, per dataset (at least one pass is always made).
    pub seconds: f64,
    /// Time the uniqueness search (stop at 2 solutions) instead of the first solution.
    pub unique: bool,
    /// The solver engine to time.
    pub engine: Engine,
}

impl Default for BenchConfig {
    fn default() -> BenchConfig {
        BenchConfig {
            seconds: 3.0,
            unique: false,
            engine: Engine::default(),
        }
    }
}

/// A record that could not be read as a puzzle: where it is and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadRecord {
    /// 1-based line number in the file.
    pub line: usize,
    /// What is wrong with it.
    pub reason: String,
}

/// The records of one file, kept as the raw lines the timed passes parse again and again.
#[derive(Debug, Clone)]
pub struct Dataset {
    /// Where it came from.
    pub path: PathBuf,
    /// The good records' bytes, one after the other.
    bytes: Vec<u8>,
    /// Byte ranges of the puzzle records (blank lines and `#` comments skipped).
    records: Vec<(usize, usize)>,
    /// The first records that do not parse (at most [`Dataset::BAD_KEPT`]); they are left out of the timed passes.
    pub bad: Vec<BadRecord>,
    /// How many records did not parse, all told.
    pub bad_records: usize,
}

impl Dataset {
    /// The most bad records [`Dataset::bad`] keeps (the others are only counted).
    pub const BAD_KEPT: usize = 100;

    /// Reads a file in any format the batch subcommands read (81-character lines, 9-line grids, a Kaggle CSV;
    /// detected from the first record). Blank lines and lines starting with `#` are skipped; records that do not
    /// parse are noted in [`Dataset::bad`] and left out. A gzip, zstd, xz or bzip2 file (detected by its magic
    /// bytes) is decompressed as it is read. A file of lines is read line by line: a line longer than
    /// 65536 bytes (the record cap of every batch run) is a bad record passed over without being held, so memory follows the good records. A
    /// grid or CSV file is read whole, and its puzzles are written as 81-character lines (`.` blanks), so every
    /// format times the same work (parse a line, solve).
    pub fn load(path: &Path) -> std::io::Result<Dataset> {
        use std::io::BufRead;
        let file = std::fs::File::open(path)?;
        if file.metadata()?.is_dir() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                "is a directory",
            ));
        }
        let mut raw = std::io::BufReader::with_capacity(64 * 1024, file);
        let text: Box<dyn Read + Send> = match Compression::detect(raw.fill_buf()?) {
            Some(codec) => codec.decoder(raw)?,
            None => Box::new(raw),
        };
        let mut input = std::io::BufReader::with_capacity(64 * 1024, text);
        if is_lines(input.fill_buf()?) {
            return Dataset::read(path, input);
        }
        let mut bytes = Vec::new();
        input.read_to_end(&mut bytes)?;
        Ok(Dataset::from_records(path, &bytes))
    }

    /// Splits `bytes` into records as [`Dataset::load`] does; `path` only names the dataset.
    pub fn from_bytes(path: &Path, bytes: Vec<u8>) -> Dataset {
        if is_lines(&bytes) {
            Dataset::read(path, std::io::Cursor::new(bytes)).expect("reading memory cannot fail")
        } else {
            Dataset::from_records(path, &bytes)
        }
    }

    fn empty(path: &Path) -> Dataset {
        Dataset {
            path: path.to_path_buf(),
            bytes: Vec::new(),
            records: Vec::new(),
            bad: Vec::new(),
            bad_records: 0,
        }
    }

    /// A grid or CSV file (or one that cannot be read as records at all): its puzzles as lines.
    fn from_records(path: &Path, bytes: &[u8]) -> Dataset {
        let mut data = Dataset::empty(path);
        match read_all(bytes, None) {
            Ok(all) => {
                for (line, record) in all {
                    match record {
                        Ok(grid) => data.push(grid.to_line().as_bytes()),
                        Err(failure) => data.note_bad(line as usize, failure.to_string()),
                    }
                }
            }
            Err(e) => data.note_bad(1, e.to_string()),
        }
        data
    }

    fn read(path: &Path, mut input: impl std::io::BufRead) -> std::io::Result<Dataset> {
        let mut data = Dataset::empty(path);
        let mut line = Vec::new();
        let mut too_long = false;
        let mut number = 0;
        loop {
            let block = input.fill_buf()?;
            if block.is_empty() {
                if !line.is_empty() || too_long {
                    data.add(number + 1, &line, too_long);
                }
                break;
            }
            let (piece, used, ended) = match memchr::memchr(b'\n', block) {
                Some(i) => (&block[..i], i + 1, true),
                None => (block, block.len(), false),
            };
            too_long |= line.len() + piece.len() > MAX_RECORD;
            if !too_long {
                line.extend_from_slice(piece);
            }
            input.consume(used);
            if ended {
                number += 1;
                data.add(number, &line, too_long);
                line.clear();
                too_long = false;
            }
        }
        Ok(data)
    }

    /// Line `number` of the file (`too_long`: not held, longer than [`MAX_RECORD`]).
    fn add(&mut self, number: usize, line: &[u8], too_long: bool) {
        let parsed = if too_long {
            Err(format!("record longer than {MAX_RECORD} bytes"))
        } else if is_skipped(line) {
            return;
        } else {
            Grid::parse_line(line).map_err(|e| e.to_string())
        };
        match parsed {
            Ok(_) => self.push(line),
            Err(reason) => self.note_bad(number, reason),
        }
    }

    /// A good record, as its line.
    fn push(&mut self, line: &[u8]) {
        let start = self.bytes.len();
        self.bytes.extend_from_slice(line);
        self.records.push((start, self.bytes.len()));
    }

    /// A bad record: counted, and kept while fewer than [`Dataset::BAD_KEPT`] are.
    fn note_bad(&mut self, line: usize, reason: String) {
        self.bad_records += 1;
        if self.bad.len() < Dataset::BAD_KEPT {
            self.bad.push(BadRecord { line, reason });
        }
    }

    /// Number of good records.
    pub fn len(&self) -> usize {
        self.records.len()
    }

    /// True when no record parses.
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// The good records, as raw lines.
    pub fn lines(&self) -> impl Iterator<Item = &[u8]> + '_ {
        self.records.iter().map(|&(s, e)| &self.bytes[s..e])
    }

    /// The file name, for tables.
    pub fn name(&self) -> String {
        self.path
            .file_name()
            .map(|n| crate::record::display_name(n.as_encoded_bytes()))
            .unwrap_or_else(|| {
                crate::record::display_name(self.path.as_os_str().as_encoded_bytes())
            })
    }
}

/// What one dataset measured.
#[derive(Debug, Clone, PartialEq)]
pub struct BenchReport {
    /// Dataset name.
    pub name: String,
    /// Good records timed per pass.
    pub puzzles: usize,
    /// Records that did not parse (not timed).
    pub bad: usize,
    /// Records with a (unique, under `--unique`) solution.
    pub solved: usize,
    /// Records whose search found no solution or whose givens clash.
    pub no_solution: usize,
    /// Records with two or more solutions (only counted under `--unique`).
    pub multiple: usize,
    /// Records searched without a single guess (whatever the outcome).
    pub no_guess: usize,
    /// Guesses over one pass (all records).
    pub guesses: u64,
    /// Timed passes made.
    pub passes: u32,
    /// Time of the timed passes.
    pub elapsed: Duration,
}

impl BenchReport {
    /// Puzzles per second over the timed passes.
    pub(crate) fn puzzles_per_second(&self) -> f64 {
        (self.puzzles as f64 * f64::from(self.passes)) / self.elapsed.as_secs_f64().max(1e-12)
    }

    /// Microseconds per puzzle over the timed passes.
    pub(crate) fn micros_per_puzzle(&self) -> f64 {
        self.elapsed.as_secs_f64() * 1e6 / (self.puzzles as f64 * f64::from(self.passes)).max(1.0)
    }

    /// Share of puzzles settled by propagation alone (solved, or proved to have no solution), in percent.
    pub(crate) fn no_guess_percent(&self) -> f64 {
        100.0 * self.no_guess as f64 / (self.puzzles.max(1)) as f64
    }

    /// Mean guesses per puzzle.
    pub(crate) fn guesses_per_puzzle(&self) -> f64 {
        self.guesses as f64 / (self.puzzles.max(1)) as f64
    }

    /// The table's header line, matching [`BenchReport`]'s `Display`.
    pub fn header() -> String {
        format!(
            "{:<34} {:>8} {:>5} {:>12} {:>10} {:>9} {:>11} {:>8} {:>8} {:>8}",
            "dataset",
            "puzzles",
            "bad",
            "puzzles/s",
            "µs/puzzle",
            "no-guess%",
            "guesses/pz",
            "solved",
            "none",
            "multiple"
        )
    }
}

impl fmt::Display for BenchReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:<34} {:>8} {:>5} {:>12.0} {:>10.3} {:>9.1} {:>11.2} {:>8} {:>8} {:>8}",
            self.name,
            self.puzzles,
            self.bad,
            self.puzzles_per_second(),
            self.micros_per_puzzle(),
            self.no_guess_percent(),
            self.guesses_per_puzzle(),
            self.solved,
            self.no_solution,
            self.multiple
        )
    }
}

/// Times one dataset: one counting pass (also the warm-up), then timed passes until `config.seconds` have gone by.
/// Each pass parses and solves every good record.
pub fn run_bench(data: &Dataset, config: &BenchConfig) -> BenchReport {
    let mut report = BenchReport {
        name: data.name(),
        puzzles: data.len(),
        bad: data.bad_records,
        solved: 0,
        no_solution: 0,
        multiple: 0,
        no_guess: 0,
        guesses: 0,
        passes: 0,
        elapsed: Duration::ZERO,
    };
    for line in data.lines() {
        let Ok(grid) = Grid::parse_line(line) else {
            continue;
        };
        // The same search as the timed passes (stopped at 1, or at 2 under --unique), through the API that
        // reports its cost whatever the outcome.
        match solver::count_solutions_with(&grid, if config.unique { 2 } else { 1 }, config.engine)
        {
            Ok(c) => {
                report.guesses += u64::from(c.stats.guesses);
                report.no_guess += usize::from(c.stats.guesses == 0);
                match c.solutions {
                    0 => report.no_solution += 1,
                    1 => report.solved += 1,
                    _ => report.multiple += 1,
                }
            }
            Err(_) => report.no_solution += 1,
        }
    }
    let budget = Duration::from_secs_f64(config.seconds.max(0.0));
    let mut sink = 0u64;
    let start = Instant::now();
    loop {
        for line in data.lines() {
            if let Ok(grid) = Grid::parse_line(line) {
                if let Ok(s) = solve_one(&grid, config.unique, config.engine) {
                    sink = sink.wrapping_add(u64::from(s.solution.get(40)));
                }
            }
        }
        report.passes += 1;
        report.elapsed = start.elapsed();
        if report.elapsed >= budget {
            break;
        }
    }
    std::hint::black_box(sink);
    report
}

fn solve_one(grid: &Grid, unique: bool, engine: Engine) -> Result<solver::Solved, SolveError> {
    if unique {
        solver::solve_unique_with(grid, engine)
    } else {
        solver::solve_with(grid, engine)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

    fn dataset(text: &str) -> Dataset {
        Dataset::from_bytes(Path::new("mem/set"), text.as_bytes().to_vec())
    }

    #[test]
    fn comments_and_blank_lines_are_skipped_bad_records_counted_with_lines() {
        let text = format!("# header\n\n{GOOD}\r\nnot a puzzle\n{GOOD}\n  \n");
        let d = dataset(&text);
        assert_eq!(d.len(), 2);
        assert_eq!(d.name(), "set");
        assert_eq!(d.bad.len(), 1);
        assert_eq!(d.bad[0].line, 4);
        assert!(d.bad[0].reason.contains("invalid character"), "{:?}", d.bad);
    }

    #[test]
    fn compressed_files_give_the_puzzles_of_the_plain_ones() {
        let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
        let plain = Dataset::load(&data.join("puzzles.txt")).unwrap();
        assert_eq!(plain.len(), 100);
        for ext in ["gz", "zst", "xz", "bz2"] {
            let packed = Dataset::load(&data.join(format!("puzzles.txt.{ext}"))).unwrap();
            assert!(packed.lines().eq(plain.lines()), "{ext}");
            assert!(packed.bad.is_empty(), "{ext}: {:?}", packed.bad);
        }
        let csv = Dataset::load(&data.join("kaggle.csv.gz")).unwrap();
        assert_eq!((csv.len(), csv.bad.len()), (20, 0));
        // A truncated file is an error, never a shorter dataset.
        let whole = std::fs::read(data.join("puzzles.txt.gz")).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let cut = dir.path().join("cut.gz");
        std::fs::write(&cut, &whole[..whole.len() / 2]).unwrap();
        let Err(e) = Dataset::load(&cut) else {
            panic!("a truncated file loaded");
        };
        assert!(
            e.to_string().contains("gzip: compressed data ends early"),
            "{e}"
        );
    }

    #[test]
    fn grid_and_csv_files_give_the_puzzles_of_their_records() {
        let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
        let grids = Dataset::load(&data.join("grid.txt")).unwrap();
        let lines = Dataset::load(&data.join("puzzles.txt")).unwrap();
        assert_eq!((grids.len(), grids.bad.len()), (10, 0));
        let parse = |l: &[u8]| Grid::parse_line(l).unwrap();
        assert!(grids
            .lines()
            .map(parse)
            .eq(lines.lines().take(10).map(parse)));
        let csv = Dataset::load(&data.join("kaggle.csv")).unwrap();
        assert_eq!((csv.len(), csv.bad.len()), (20, 0));
        let first = std::fs::read_to_string(data.join("kaggle.csv")).unwrap();
        let quiz = first.lines().nth(1).unwrap().split(',').next().unwrap();
        assert_eq!(parse(csv.lines().next().unwrap()), quiz.parse().unwrap());
        let bad_grid = dataset("1 2 3 4 5 6 7 8 9\n1 2 3\n");
        assert_eq!((bad_grid.len(), bad_grid.bad.len()), (0, 1));
    }

    #[test]
    fn report_counts_outcomes_and_makes_at_least_one_pass() {
        let clash = format!("11{}", &GOOD[2..]);
        let text = format!("{GOOD}\n{}\n{clash}\n", ".".repeat(81));
        let d = dataset(&text);
        let r = run_bench(
            &d,
            &BenchConfig {
                seconds: 0.0,
                unique: true,
                ..BenchConfig::default()
            },
        );
        assert_eq!((r.puzzles, r.bad), (3, 0));
        assert_eq!((r.solved, r.multiple, r.no_solution), (1, 1, 1));
        assert_eq!(r.passes, 1);
        assert!(r.puzzles_per_second() > 0.0);
        let line = r.to_string();
        assert!(line.starts_with("set "), "{line}");
        assert_eq!(
            BenchReport::header().split_whitespace().count(),
            line.split_whitespace().count()
        );

        let first = run_bench(&d, &BenchConfig::default_with_seconds(0.0));
        assert_eq!((first.solved, first.multiple, first.no_solution), (2, 0, 1));
        let vector = BenchConfig {
            engine: Engine::Vector,
            ..BenchConfig::default_with_seconds(0.0)
        };
        let v = run_bench(&d, &vector);
        assert_eq!((v.solved, v.multiple, v.no_solution), (2, 0, 1));
        let v = run_bench(
            &d,
            &BenchConfig {
                unique: true,
                ..vector
            },
        );
        assert_eq!((v.solved, v.multiple, v.no_solution), (1, 1, 1));
    }

    impl BenchConfig {
        fn default_with_seconds(seconds: f64) -> BenchConfig {
            BenchConfig {
                seconds,
                ..BenchConfig::default()
            }
        }
    }
}
