//! The `generate --puzzles` flags that choose which puzzles are kept beyond a level and a clue count, and how they
//! are written: Sudoku Explainer rating windows (`--er`, `--ep`, `--ed`), a pattern of givens (`--pattern`) and
//! JSON Lines (`--json`). Their values are read here, as usage errors naming the flag.

use std::io::Read;
use std::path::Path;

use sudoku_batch::generate::{CluePattern, PuzzleRun, SeWindow, SeWindows};

/// The most bytes read from a `--pattern` file (a pattern is 81 characters and some white space).
const PATTERN_FILE_MAX: u64 = 64 << 10;

/// `sudoku generate --puzzles` flags for SE windows, a pattern of givens and JSON output.
#[derive(Debug, clap::Args)]
pub struct PuzzleFilterArgs {
    /// With --puzzles: only puzzles whose Sudoku Explainer ER (the highest rating on SE's path) is from MIN to
    /// MAX, both 1.0 to 11.9 with at most one decimal (7.0..8.5). A puzzle's rating stops as soon as it leaves
    /// the window.
    #[arg(long, value_name = "MIN..MAX", requires = "puzzles", value_parser = parse_window)]
    pub er: Option<SeWindow>,
    /// With --puzzles: only puzzles whose SE EP (the highest rating up to the first placement) is from MIN to MAX.
    #[arg(long, value_name = "MIN..MAX", requires = "puzzles", value_parser = parse_window)]
    pub ep: Option<SeWindow>,
    /// With --puzzles: only puzzles whose SE ED (the rating of the first step) is from MIN to MAX.
    #[arg(long, value_name = "MIN..MAX", requires = "puzzles", value_parser = parse_window)]
    pub ed: Option<SeWindow>,
    /// With --puzzles: clues only on the x cells of a pattern (the puzzles minimal among those cells; a board
    /// that has several solutions on the pattern is replaced by the next): 81 characters of x and . (white space
    /// skipped), or a FILE holding them.
    #[arg(long, value_name = "FILE|MASK", requires = "puzzles", value_parser = parse_pattern,
          conflicts_with_all = ["clues", "symmetry"])]
    pub pattern: Option<CluePattern>,
    /// With --puzzles: JSON Lines, one object per puzzle: index, puzzle, solution, clues, and the ratings the
    /// goal needed (level, score, guesses with --difficulty; er, ep, ed, hardest with --er, --ep or --ed).
    #[arg(long, requires = "puzzles", conflicts_with = "format")]
    pub json: bool,
}

impl PuzzleFilterArgs {
    /// The first of these flags given, if any: each needs --puzzles.
    pub fn first_given(&self) -> Option<&'static str> {
        [
            ("--er", self.er.is_some()),
            ("--ep", self.ep.is_some()),
            ("--ed", self.ed.is_some()),
            ("--pattern", self.pattern.is_some()),
            ("--json", self.json),
        ]
        .into_iter()
        .find_map(|(name, given)| given.then_some(name))
    }

    /// Sets the run's windows, pattern and output format from the flags.
    pub fn apply(&self, run: &mut PuzzleRun) {
        run.options.se = SeWindows {
            er: self.er,
            ep: self.ep,
            ed: self.ed,
        };
        run.options.pattern = self.pattern;
        run.json = self.json;
    }
}

/// `--er`, `--ep`, `--ed`: `MIN..MAX` (clap names the flag and the value in front of the reason).
fn parse_window(s: &str) -> Result<SeWindow, String> {
    s.parse::<SeWindow>().map_err(|e| e.to_string())
}

/// `--pattern`: a file when one has this name, else the mask itself.
fn parse_pattern(s: &str) -> Result<CluePattern, String> {
    let path = Path::new(s);
    if path.is_file() {
        let mut text = String::new();
        std::fs::File::open(path)
            .and_then(|f| f.take(PATTERN_FILE_MAX).read_to_string(&mut text))
            .map_err(|e| format!("cannot read {s}: {e}"))?;
        return text.parse().map_err(|e| format!("{s}: {e}"));
    }
    if !s
        .chars()
        .all(|c| matches!(c, 'x' | 'X' | '.') || c.is_whitespace())
    {
        return Err(
            "no such file, and not a pattern (81 characters of x for a clue and . for a blank)"
                .into(),
        );
    }
    s.parse()
        .map_err(|e: sudoku_batch::generate::PatternError| e.to_string())
}
