//! `Grid`: the 81 cells of a 9x9 Sudoku (0 = empty), parsing from the notations people use, the givens check,
//! and formatting back to text; the board's symmetry group ([`Transform`], module `transform`) and the seeded
//! random streams it and the generators draw from (module `rng`).

pub(crate) mod rng;
mod transform;

use std::fmt;

pub use transform::Transform;

/// Number of cells on the board.
pub const CELLS: usize = 81;

/// Row (0..9) of each cell index.
pub(crate) const ROW: [u8; CELLS] = {
    let mut t = [0u8; CELLS];
    let mut i = 0;
    while i < CELLS {
        t[i] = (i / 9) as u8;
        i += 1;
    }
    t
};

/// Column (0..9) of each cell index.
pub(crate) const COL: [u8; CELLS] = {
    let mut t = [0u8; CELLS];
    let mut i = 0;
    while i < CELLS {
        t[i] = (i % 9) as u8;
        i += 1;
    }
    t
};

/// Box (0..9, row-major) of each cell index.
pub(crate) const BOX: [u8; CELLS] = {
    let mut t = [0u8; CELLS];
    let mut i = 0;
    while i < CELLS {
        t[i] = ((i / 27) * 3 + (i % 9) / 3) as u8;
        i += 1;
    }
    t
};

/// Bits set in each 9-bit value: a table, because the portable x86-64 target has no `popcnt` instruction and the
/// bit-twiddling fallback dominated the solver's guess weighing and the random fill.
pub(crate) const POP9: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut x = 0;
    while x < 512 {
        t[x] = (x as u32).count_ones();
        x += 1;
    }
    t
};

/// The six orders of three things (rows of a band, bands of the board, boxes of a row); entry 0 is the identity.
pub(crate) const PERMUTATIONS_OF_3: [[u8; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

/// A 9x9 board: `cells[r * 9 + c]` is 0 for an empty cell or the digit 1..=9.
///
/// `Grid` is `Copy` and 81 bytes: pass it by value, keep it on the stack.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Grid {
    cells: [u8; CELLS],
}

/// Why a text could not be read as a puzzle. Cell numbers are 1-based, in row-major order, as people count them.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseError {
    /// A character that is neither a digit nor a blank marker.
    #[error("cell {cell} (row {row}, col {col}): invalid character {ch:?}", row = (cell - 1) / 9 + 1, col = (cell - 1) % 9 + 1)]
    InvalidChar {
        /// 1-based cell number.
        cell: usize,
        /// The offending character.
        ch: char,
    },
    /// The line has the wrong number of cells.
    #[error("expected 81 cells, found {found}")]
    WrongLength {
        /// How many cells were found.
        found: usize,
    },
    /// A row of the 9-line grid notation is not 9 digits separated by single spaces.
    #[error("row {row}: expected 9 digits separated by single spaces, found {text:?}")]
    BadGridRow {
        /// 1-based row number.
        row: usize,
        /// The row as found (cut at 40 characters).
        text: String,
    },
    /// The 9-line grid notation has fewer or more than nine rows.
    #[error("expected 9 rows, found {found}")]
    RowCount {
        /// How many rows were found.
        found: usize,
    },
}

/// A kind of unit: the nine cells that must hold each digit once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// Row 1..=9.
    Row(u8),
    /// Column 1..=9.
    Col(u8),
    /// Box 1..=9 (row-major from the top left).
    Box(u8),
}

impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unit::Row(n) => write!(f, "row {n}"),
            Unit::Col(n) => write!(f, "column {n}"),
            Unit::Box(n) => write!(f, "box {n}"),
        }
    }
}

/// Two givens with the same digit in one unit: the puzzle breaks the rules before any solving.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("{unit} has two {digit}s ({}, {})", cell_name(*first), cell_name(*second))]
pub struct Conflict {
    /// The unit holding both givens.
    pub unit: Unit,
    /// The repeated digit.
    pub digit: u8,
    /// 0-based index of the first cell.
    pub first: usize,
    /// 0-based index of the second cell.
    pub second: usize,
}

/// `r4c2` style name of a 0-based cell index.
pub(crate) fn cell_name(cell: usize) -> String {
    format!("r{}c{}", cell / 9 + 1, cell % 9 + 1)
}

impl Grid {
    /// The empty board.
    pub const EMPTY: Grid = Grid { cells: [0; CELLS] };

    /// Builds a grid from cell values; every value must be 0..=9.
    pub fn from_cells(cells: [u8; CELLS]) -> Result<Grid, ParseError> {
        // The common case checked with one maximum (vectorized); the position of a bad value only when there is one.
        if cells.iter().fold(0, |high, &v| v.max(high)) <= 9 {
            return Ok(Grid { cells });
        }
        for (i, &v) in cells.iter().enumerate() {
            if v > 9 {
                return Err(ParseError::InvalidChar {
                    cell: i + 1,
                    ch: char::from_digit(u32::from(v % 36), 36).unwrap_or('?'),
                });
            }
        }
        Ok(Grid { cells })
    }

    /// The cells, row-major, 0 for empty.
    #[inline]
    pub fn cells(&self) -> &[u8; CELLS] {
        &self.cells
    }

    /// The value of one cell (0 = empty).
    #[inline]
    pub fn get(&self, cell: usize) -> u8 {
        self.cells[cell]
    }

    /// Sets one cell; `digit` must be 0..=9.
    #[inline]
    pub fn set(&mut self, cell: usize, digit: u8) {
        assert!(digit <= 9, "digit out of range: {digit}");
        self.cells[cell] = digit;
    }

    /// Number of filled cells.
    pub fn clue_count(&self) -> usize {
        self.cells.iter().filter(|&&v| v != 0).count()
    }

    /// True when no cell is empty (says nothing about validity; see [`Grid::is_valid_solution`]).
    pub fn is_full(&self) -> bool {
        self.cells.iter().all(|&v| v != 0)
    }

    /// Parses the 81-character line notation: `1`-`9` for givens, `0` or `.` for blanks.
    ///
    /// Surrounding whitespace (and a trailing `\r`) is ignored; nothing else is.
    pub fn parse_line(text: &[u8]) -> Result<Grid, ParseError> {
        let text = text.trim_ascii();
        // Fast path, the common case of exactly 81 cell characters: a branch-free byte map the compiler
        // vectorizes. Any other byte maps above 9; then the checked loop below finds it and names it.
        if let Ok(bytes) = <&[u8; CELLS]>::try_from(text) {
            let mut cells = [0u8; CELLS];
            let mut high = 0u8;
            for (cell, &b) in cells.iter_mut().zip(bytes) {
                let v = if b == b'.' { 0 } else { b.wrapping_sub(b'0') };
                high = high.max(v);
                *cell = v;
            }
            if high <= 9 {
                return Ok(Grid { cells });
            }
        }
        let mut cells = [0u8; CELLS];
        for (i, &b) in text.iter().enumerate() {
            let v = match b {
                b'1'..=b'9' => b - b'0',
                b'0' | b'.' => 0,
                _ => {
                    if i >= CELLS {
                        return Err(ParseError::WrongLength { found: text.len() });
                    }
                    return Err(ParseError::InvalidChar {
                        cell: i + 1,
                        ch: decode_char(&text[i..]),
                    });
                }
            };
            if i < CELLS {
                cells[i] = v;
            }
        }
        if text.len() != CELLS {
            return Err(ParseError::WrongLength { found: text.len() });
        }
        Ok(Grid { cells })
    }

    /// Parses the 9-line notation: nine rows of nine digits separated by single spaces (`0` for a blank).
    /// Leading and trailing blank lines are ignored; CRLF is accepted.
    pub fn parse_grid(text: &[u8]) -> Result<Grid, ParseError> {
        let mut cells = [0u8; CELLS];
        let mut rows = 0;
        for line in text.split(|&b| b == b'\n') {
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            if line.trim_ascii().is_empty() {
                if rows == 0 {
                    continue;
                }
                if rows < 9 {
                    return Err(ParseError::RowCount { found: rows });
                }
                continue;
            }
            if rows == 9 {
                // Nine good rows and more: the record is too long, not its tenth row wrong.
                let found = text
                    .split(|&b| b == b'\n')
                    .filter(|l| !l.trim_ascii().is_empty())
                    .count();
                return Err(ParseError::RowCount { found });
            }
            parse_grid_row(line, rows, &mut cells)?;
            rows += 1;
        }
        if rows < 9 {
            return Err(ParseError::RowCount { found: rows });
        }
        Ok(Grid { cells })
    }

    /// Parses either notation: one line of 81 cells or nine rows of the grid notation.
    pub fn parse(text: &[u8]) -> Result<Grid, ParseError> {
        let trimmed = text.trim_ascii();
        if trimmed.contains(&b'\n') {
            Grid::parse_grid(trimmed)
        } else {
            Grid::parse_line(trimmed)
        }
    }

    /// Checks that no unit holds the same given twice; reports the first clash in row, column, box order.
    pub fn check_givens(&self) -> Result<(), Conflict> {
        if !self.givens_clash() {
            return Ok(());
        }
        match self.first_clash() {
            Some(c) => Err(c),
            None => Ok(()),
        }
    }

    /// The first clash in row, column, box order, found cell by cell.
    fn first_clash(&self) -> Option<Conflict> {
        let mut seen_row = [[u8::MAX; 10]; 9];
        let mut seen_col = [[u8::MAX; 10]; 9];
        let mut seen_box = [[u8::MAX; 10]; 9];
        let mut first: Option<Conflict> = None;
        // Scan all cells so that the reported clash is the earliest by (kind, unit) order, not scan order.
        for cell in 0..CELLS {
            let d = self.cells[cell] as usize;
            if d == 0 {
                continue;
            }
            let (r, c, b) = (ROW[cell] as usize, COL[cell] as usize, BOX[cell] as usize);
            for (kind, seen, idx) in [
                (0u8, &mut seen_row, r),
                (1u8, &mut seen_col, c),
                (2u8, &mut seen_box, b),
            ] {
                let prev = seen[idx][d];
                if prev == u8::MAX {
                    seen[idx][d] = cell as u8;
                } else {
                    let unit = match kind {
                        0 => Unit::Row(idx as u8 + 1),
                        1 => Unit::Col(idx as u8 + 1),
                        _ => Unit::Box(idx as u8 + 1),
                    };
                    let c = Conflict {
                        unit,
                        digit: d as u8,
                        first: prev as usize,
                        second: cell,
                    };
                    let better = match first {
                        None => true,
                        Some(f) => conflict_key(&c) < conflict_key(&f),
                    };
                    if better {
                        first = Some(c);
                    }
                }
            }
        }
        first
    }

    /// Whether some unit holds a given twice: the common case, no clash, with bit operations only. Each given
    /// marks its digit in its row, column and box; without a clash every unit marks as many digits as it holds
    /// givens, so the marks counted over all rows, over all columns and over all boxes each equal the givens.
    /// [`Grid::check_givens`] names the clash only when there is one.
    fn givens_clash(&self) -> bool {
        // Bit `v` for value `v`: a blank sets bit 0, which the counts leave out.
        let mut rows = [0u32; 9];
        let mut cols = [0u32; 9];
        let mut boxes = [0u32; 9];
        for (r, row_cells) in self.cells.chunks_exact(9).enumerate() {
            for (c, &v) in row_cells.iter().enumerate() {
                let bit = 1u32 << (v & 15);
                rows[r] |= bit;
                cols[c] |= bit;
                boxes[r / 3 * 3 + c / 3] |= bit;
            }
        }
        // Givens counted eight cells at a time: a value (at most 9) plus 0x7F sets its byte's top bit when it is
        // not 0, without carrying into the next byte; the multiplication sums the eight flags into the top byte.
        let chunks = self.cells.chunks_exact(8);
        let mut givens = u32::from(chunks.remainder().iter().any(|&v| v != 0));
        for chunk in chunks {
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk);
            let x = u64::from_le_bytes(word);
            let flags = ((x + 0x7F7F_7F7F_7F7F_7F7F) | x) >> 7 & 0x0101_0101_0101_0101;
            givens += (flags.wrapping_mul(0x0101_0101_0101_0101) >> 56) as u32;
        }
        let marks = |units: &[u32; 9]| -> u32 {
            units.iter().map(|&m| POP9[(m >> 1) as usize & 511]).sum()
        };
        marks(&rows) != givens || marks(&cols) != givens || marks(&boxes) != givens
    }

    /// True when the grid is full, obeys every rule, and keeps every given of `puzzle`.
    pub fn is_solution_of(&self, puzzle: &Grid) -> bool {
        self.is_valid_solution()
            && puzzle
                .cells
                .iter()
                .zip(self.cells.iter())
                .all(|(&p, &s)| p == 0 || p == s)
    }

    /// True when the grid is full and every row, column and box holds 1..=9 once.
    pub fn is_valid_solution(&self) -> bool {
        // One bit per digit in each house; a blank sets bit 0, so every house must hold exactly bits 1..=9.
        let (mut rows, mut cols, mut boxes) = ([0u16; 9], [0u16; 9], [0u16; 9]);
        for (i, &v) in self.cells.iter().enumerate() {
            let bit = 1u16 << v;
            rows[usize::from(ROW[i])] |= bit;
            cols[usize::from(COL[i])] |= bit;
            boxes[usize::from(BOX[i])] |= bit;
        }
        rows.iter().chain(&cols).chain(&boxes).all(|&m| m == 0x3FE)
    }

    /// Writes the 81-character line notation (`.` for blanks, digits otherwise) into `out`.
    #[inline]
    pub fn write_line(&self, out: &mut [u8; CELLS], blank: u8) {
        for (o, &v) in out.iter_mut().zip(self.cells.iter()) {
            *o = if v == 0 { blank } else { b'0' + v };
        }
    }

    /// The 81-character line notation with `0` for blanks.
    pub fn to_line(&self) -> String {
        let mut out = [0u8; CELLS];
        self.write_line(&mut out, b'0');
        String::from_utf8_lossy(&out).into_owned()
    }

    /// Appends the board as text in `layout`, with `blank` for empty cells: 81 characters on one line for
    /// [`TextLayout::Line`] and [`TextLayout::CsvField`] (in quotes for [`TextLayout::Json`]); nine rows of digits separated by single spaces, a newline after
    /// each row but the last, for [`TextLayout::Grid`]. The one writer of board text: solve answers, ratings, generated
    /// puzzles and the templates of generated boards all come from it.
    #[inline]
    pub fn write(&self, layout: TextLayout, blank: u8, out: &mut Vec<u8>) {
        match layout {
            TextLayout::Line | TextLayout::CsvField => {
                let mut text = [0u8; CELLS];
                self.write_line(&mut text, blank);
                out.extend_from_slice(&text);
            }
            TextLayout::Json => {
                let mut text = [b'"'; CELLS + 2];
                self.write_line((&mut text[1..=CELLS]).try_into().expect("81 cells"), blank);
                out.extend_from_slice(&text);
            }
            TextLayout::Grid => {
                let mut text = [0u8; GRID_TEXT_LEN];
                let mut k = 0;
                for (i, &v) in self.cells.iter().enumerate() {
                    text[k] = if v == 0 { blank } else { b'0' + v };
                    text[k + 1] = if i % 9 == 8 { b'\n' } else { b' ' };
                    k += 2;
                }
                out.extend_from_slice(&text[..GRID_TEXT_LEN - 1]);
            }
        }
    }

    /// The 9-line notation (`0` for blanks), each row ending in `\n`.
    pub fn to_grid_string(&self) -> String {
        let mut out = Vec::with_capacity(GRID_TEXT_LEN);
        self.write(TextLayout::Grid, b'0', &mut out);
        out.push(b'\n');
        String::from_utf8_lossy(&out).into_owned()
    }
}

/// The shape of one board's text in a record (see [`Grid::write`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextLayout {
    /// One line of 81 characters: a line record.
    Line,
    /// Nine rows of digits separated by single spaces, the last without its newline: a grid record.
    Grid,
    /// One CSV field (81 characters, no comma or quote).
    CsvField,
    /// Fields of one JSON object of JSON Lines output, each written as `,"key":value`; a board is the JSON string of
    /// its 81-character line.
    Json,
}

/// Bytes of one board in the 9-line notation: 9 rows of 17 characters plus a newline each.
pub(crate) const GRID_TEXT_LEN: usize = 162;

fn conflict_key(c: &Conflict) -> (u8, u8, usize, usize) {
    let (k, n) = match c.unit {
        Unit::Row(n) => (0, n),
        Unit::Col(n) => (1, n),
        Unit::Box(n) => (2, n),
    };
    (k, n, c.first, c.second)
}

fn parse_grid_row(line: &[u8], row: usize, cells: &mut [u8; CELLS]) -> Result<(), ParseError> {
    let bad = || ParseError::BadGridRow {
        row: row + 1,
        text: shorten(line),
    };
    let line = line.trim_ascii_end();
    if line.len() != 17 {
        return Err(bad());
    }
    for c in 0..9 {
        let b = line[2 * c];
        let v = match b {
            b'0'..=b'9' => b - b'0',
            b'.' => 0,
            _ => {
                return Err(ParseError::InvalidChar {
                    cell: row * 9 + c + 1,
                    ch: decode_char(&line[2 * c..]),
                })
            }
        };
        if c < 8 && line[2 * c + 1] != b' ' {
            return Err(bad());
        }
        cells[row * 9 + c] = v;
    }
    Ok(())
}

fn shorten(line: &[u8]) -> String {
    let s = String::from_utf8_lossy(line);
    if s.chars().count() > 40 {
        let mut t: String = s.chars().take(40).collect();
        t.push('…');
        t
    } else {
        s.into_owned()
    }
}

/// The first character of `bytes`, decoded as UTF-8 where possible so that messages show what the user typed.
fn decode_char(bytes: &[u8]) -> char {
    let end = bytes.len().min(4);
    for n in (1..=end).rev() {
        if let Ok(s) = std::str::from_utf8(&bytes[..n]) {
            if let Some(c) = s.chars().next() {
                return c;
            }
        }
    }
    char::REPLACEMENT_CHARACTER
}

impl std::str::FromStr for Grid {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Grid, ParseError> {
        Grid::parse(s.as_bytes())
    }
}

impl fmt::Display for Grid {
    /// The 81-character line notation, `0` for blanks.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_line())
    }
}

impl fmt::Debug for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Grid({})", self.to_line())
    }
}

/// Puzzles shared by the library's unit tests.
#[cfg(test)]
pub(crate) mod samples {
    use super::Grid;

    /// Parses an 81-character line the tests know to be well formed.
    pub(crate) fn g(s: &str) -> Grid {
        Grid::parse_line(s.as_bytes()).unwrap()
    }

    /// A hard puzzle (it needs guesses) with one solution, [`HARD_SOLUTION`].
    pub(crate) const HARD: &str =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    /// The solution of [`HARD`].
    pub(crate) const HARD_SOLUTION: &str =
        "417369825632158947958724316825437169791586432346912758289643571573291684164875293";

    /// A small xorshift generator for random test inputs, below this crate's other layers (the generator of
    /// `generate` sits above the grid and the solver): each call gives a number below `n`.
    pub(crate) fn below(seed: u64) -> impl FnMut(u64) -> u64 {
        let mut x = seed;
        move |n| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % n
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fast_solution_test_agrees_with_the_givens_check() {
        let solution = samples::g(samples::HARD_SOLUTION);
        let slow = |g: &Grid| g.is_full() && g.check_givens().is_ok();
        let mut tried = 0;
        for cell in 0..CELLS {
            for d in 0..=9 {
                let mut cells = *solution.cells();
                cells[cell] = d;
                let g = Grid::from_cells(cells).unwrap();
                assert_eq!(g.is_valid_solution(), slow(&g), "cell {cell} = {d}");
                tried += 1;
            }
            // Two cells of a row swapped.
            let mut cells = *solution.cells();
            cells.swap(cell, cell / 9 * 9 + (cell + 1) % 9);
            let g = Grid::from_cells(cells).unwrap();
            assert_eq!(g.is_valid_solution(), slow(&g));
        }
        assert!(solution.is_valid_solution());
        assert_eq!(tried, 810);
    }

    const PUZZLE: &str =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

    #[test]
    fn parses_line_with_dots_and_zeros() {
        let g = Grid::parse_line(PUZZLE.as_bytes()).unwrap();
        assert_eq!(g.get(0), 4);
        assert_eq!(g.get(1), 0);
        assert_eq!(g.get(6), 8);
        assert_eq!(g.clue_count(), 17);
        let zeros = PUZZLE.replace('.', "0");
        assert_eq!(Grid::parse_line(zeros.as_bytes()).unwrap(), g);
        assert_eq!(g.to_line(), zeros);
    }

    #[test]
    fn invalid_character_names_cell_row_and_column() {
        let mut s = PUZZLE.as_bytes().to_vec();
        s[16] = b'x';
        let e = Grid::parse_line(&s).unwrap_err();
        assert_eq!(e, ParseError::InvalidChar { cell: 17, ch: 'x' });
        assert_eq!(
            e.to_string(),
            "cell 17 (row 2, col 8): invalid character 'x'"
        );
    }

    #[test]
    fn wrong_length_is_reported() {
        let e = Grid::parse_line(&PUZZLE.as_bytes()[..80]).unwrap_err();
        assert_eq!(e.to_string(), "expected 81 cells, found 80");
        let mut long = PUZZLE.to_string();
        long.push('1');
        assert_eq!(
            Grid::parse_line(long.as_bytes()).unwrap_err(),
            ParseError::WrongLength { found: 82 }
        );
    }

    #[test]
    fn non_ascii_character_is_shown_whole() {
        let s = format!("{}é{}", &PUZZLE[..3], &PUZZLE[4..]);
        let e = Grid::parse_line(s.as_bytes()).unwrap_err();
        assert_eq!(e, ParseError::InvalidChar { cell: 4, ch: 'é' });
    }

    #[test]
    fn grid_notation_round_trips() {
        let g = Grid::parse_line(PUZZLE.as_bytes()).unwrap();
        let text = g.to_grid_string();
        assert_eq!(text.lines().count(), 9);
        assert!(text.starts_with("4 0 0 0 0 0 8 0 5\n"));
        assert_eq!(Grid::parse_grid(text.as_bytes()).unwrap(), g);
        assert_eq!(Grid::parse(text.as_bytes()).unwrap(), g);
        let crlf = text.replace('\n', "\r\n");
        assert_eq!(Grid::parse_grid(crlf.as_bytes()).unwrap(), g);
    }

    #[test]
    fn grid_notation_errors() {
        let g = Grid::parse_line(PUZZLE.as_bytes()).unwrap();
        let text = g.to_grid_string();
        let short: String = text.lines().take(8).map(|l| format!("{l}\n")).collect();
        assert_eq!(
            Grid::parse_grid(short.as_bytes()).unwrap_err(),
            ParseError::RowCount { found: 8 }
        );
        // Ten good rows: the count is wrong, not the tenth row.
        let long = format!("{text}{}", text.lines().next().unwrap());
        assert_eq!(
            Grid::parse_grid(long.as_bytes()).unwrap_err().to_string(),
            "expected 9 rows, found 10"
        );
        let bad = text.replacen("4 0 0", "4  0 0", 1);
        assert!(matches!(
            Grid::parse_grid(bad.as_bytes()).unwrap_err(),
            ParseError::BadGridRow { row: 1, .. }
        ));
        let bad = text.replacen("4 0 0", "4 x 0", 1);
        assert_eq!(
            Grid::parse_grid(bad.as_bytes()).unwrap_err(),
            ParseError::InvalidChar { cell: 2, ch: 'x' }
        );
    }

    #[test]
    fn the_fast_clash_test_agrees_with_the_cell_by_cell_scan() {
        let mut below = samples::below(0x9E37_79B9_7F4A_7C15);
        let mut next = |n: u64| below(n) as u8;
        let mut seen = [0u32; 2];
        for round in 0..4000 {
            // From a few givens to a full grid, so that both answers come up often.
            let mut cells = [0u8; CELLS];
            for _ in 0..1 + round % 40 {
                cells[next(81) as usize] = 1 + next(9);
            }
            let g = Grid::from_cells(cells).unwrap();
            let clash = g.first_clash().is_some();
            assert_eq!(g.givens_clash(), clash, "{g}");
            assert_eq!(g.check_givens().is_err(), clash);
            seen[usize::from(clash)] += 1;
        }
        assert!(seen[0] > 500 && seen[1] > 500, "{seen:?}");
        // A full valid grid has 81 givens and no clash.
        assert!(!samples::g(samples::HARD_SOLUTION).givens_clash());
    }

    #[test]
    fn clashing_givens_name_unit_and_cells() {
        // Row 4 with 7 at r4c2 and r4c6.
        let mut cells = [0u8; CELLS];
        cells[3 * 9 + 1] = 7;
        cells[3 * 9 + 5] = 7;
        let g = Grid::from_cells(cells).unwrap();
        let c = g.check_givens().unwrap_err();
        assert_eq!(c.to_string(), "row 4 has two 7s (r4c2, r4c6)");

        let mut cells = [0u8; CELLS];
        cells[2] = 5;
        cells[8 * 9 + 2] = 5;
        let c = Grid::from_cells(cells).unwrap().check_givens().unwrap_err();
        assert_eq!(c.to_string(), "column 3 has two 5s (r1c3, r9c3)");

        let mut cells = [0u8; CELLS];
        cells[0] = 1;
        cells[10] = 1;
        let c = Grid::from_cells(cells).unwrap().check_givens().unwrap_err();
        assert_eq!(c.to_string(), "box 1 has two 1s (r1c1, r2c2)");
    }

    #[test]
    fn validity_of_a_known_solution() {
        let sol =
            "417369825632158947958724316825437169791586432346912758289643571573291684164875293";
        let g = Grid::parse_line(sol.as_bytes()).unwrap();
        assert!(g.is_valid_solution());
        let p = Grid::parse_line(PUZZLE.as_bytes()).unwrap();
        assert!(g.is_solution_of(&p));
        let mut wrong = g;
        wrong.set(0, 1);
        assert!(!wrong.is_valid_solution());
    }

    #[test]
    fn unit_tables_are_consistent() {
        for i in 0..CELLS {
            assert_eq!(ROW[i] as usize * 9 + COL[i] as usize, i);
            assert_eq!(
                BOX[i] as usize,
                (ROW[i] as usize / 3) * 3 + COL[i] as usize / 3
            );
        }
    }
}
