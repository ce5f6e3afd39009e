//! The property checks behind the fuzz targets in `fuzz/` and the corpus replay test (`fuzz_replay`): one function
//! per target, taking any bytes and panicking when a property fails. Shared by path (`#[path]` in each fuzz
//! target), so a target and its replay check the same things. Uses only the public API of the crate; the rules of
//! Sudoku and the reference search below are written independently of it.

#![allow(dead_code)]

use std::path::Path;

use sudoku_batch::batch::{
    self, BatchError, BatchOptions, BatchSummary, CsvAnswer, FormatError, InputSpec,
};
use sudoku_batch::internals::{self as format, Plan, MAX_RECORD};
use sudoku_batch::output::Target;
use sudoku_batch::tools::Solve;
use sudoku_batch::Threads;
use sudoku_batch::{Conflict, Engine, SolveError};
use sudoku_batch::{Failure, RecordError};
use sudoku_batch::{Format, Grid, ParseError, Unit};

/// The format a selector byte forces: none (detected), line, grid or CSV.
fn forced_format(selector: u8) -> Option<Format> {
    match selector % 4 {
        0 => None,
        1 => Some(Format::Line),
        2 => Some(Format::Grid),
        _ => Some(Format::Csv),
    }
}

/// Number of lines of `data` (a last line without `\n` counts): every line number reported must be in
/// `1..=lines`.
fn line_count(data: &[u8]) -> u64 {
    let newlines = data.iter().filter(|&&b| b == b'\n').count() as u64;
    newlines + u64::from(!data.is_empty() && data.last() != Some(&b'\n'))
}

/// A line that holds no record (blank or a `#` comment, and not longer than a record may be).
fn is_skipped(line: &[u8]) -> bool {
    line.len() <= MAX_RECORD
        && match line.trim_ascii_start().first() {
            None => true,
            Some(&b) => b == b'#',
        }
}

/// The lines of `data` after a byte-order mark, without their `\n`.
fn lines_after_bom(data: &[u8]) -> Vec<&[u8]> {
    let body = data.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(data);
    if body.is_empty() {
        return Vec::new();
    }
    let body = body.strip_suffix(b"\n").unwrap_or(body);
    body.split(|&b| b == b'\n').collect()
}

/// Target `records`: the first byte forces a format (or none), the rest is an input read whole with
/// [`batch::read_all`]; the same bytes also go through the `Grid` parsers. Nothing panics; every record is a
/// puzzle or a malformed record with a line inside the input, in increasing line order; a line input has one record
/// per non-blank, non-comment line, parsed as `Grid::parse_line` parses it; the detected format gives what forcing
/// that format gives; detection on any prefix of the input either asks for more or decides as on the whole input.
pub fn records(data: &[u8]) {
    let Some((&selector, text)) = data.split_first() else {
        return;
    };
    let forced = forced_format(selector);
    check_read_all(text, forced);
    check_prefix_detection(text, forced);
    check_grid_parsers(text);
}

fn check_read_all(text: &[u8], forced: Option<Format>) {
    let lines = line_count(text);
    let records = match batch::read_all(text, forced) {
        Ok(records) => records,
        Err(e) => {
            assert!(
                matches!(forced, None | Some(Format::Csv)),
                "only a CSV header can fail a whole input: {e}"
            );
            let line = match e {
                FormatError::HeaderTooLong { line } => line,
                FormatError::NoPuzzleColumn { line, .. }
                | FormatError::NoNamedColumn { line, .. }
                | FormatError::AmbiguousColumn { line, .. }
                | FormatError::SecondSolutionColumn { line, .. } => line,
                e => panic!("a kind of format error this test does not know: {e}"),
            };
            assert!((1..=lines).contains(&line), "{e} outside {lines} lines");
            return;
        }
    };
    let mut last = 0;
    for (line, r) in &records {
        assert!(
            (1..=lines).contains(line),
            "line {line} outside {lines} lines"
        );
        assert!(*line > last, "line {line} after line {last}");
        last = *line;
        match r {
            Ok(g) => assert!(g.cells().iter().all(|&v| v <= 9)),
            // The reader's job never fails: every failure is the record's text.
            Err(failure) => assert!(matches!(failure, Failure::Malformed(_)), "{failure}"),
        }
    }
    let content = lines_after_bom(text)
        .into_iter()
        .filter(|l| !is_skipped(l))
        .collect::<Vec<_>>();
    assert!(records.len() <= content.len());
    let prepared = prepare_as_run(text, true, forced)
        .expect("read_all succeeded")
        .expect("the whole input is at hand");
    if prepared.plan == Plan::Line {
        assert_eq!(records.len(), content.len(), "one record per content line");
        for (line, (_, record)) in content.iter().zip(&records) {
            check_line_record(line, record);
        }
    }
    if forced.is_none() {
        let detected = match prepared.plan {
            Plan::Line => Format::Line,
            Plan::Grid => Format::Grid,
            Plan::Csv(_) => Format::Csv,
        };
        assert_eq!(
            batch::read_all(text, Some(detected)).ok(),
            Some(records),
            "detected {detected:?} reads as forced {detected:?}"
        );
    }
}

/// A record of the line format against an independent reading of its line.
fn check_line_record(line: &[u8], record: &Result<Grid, Failure>) {
    if line.len() > MAX_RECORD {
        assert!(
            matches!(record, Err(Failure::Malformed(RecordError::TooLong { .. }))),
            "{record:?}"
        );
        return;
    }
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let puzzle = if line.len() == 163 && matches!(line[81], b' ' | b'\t' | b',') {
        &line[..81]
    } else {
        line
    };
    match (Grid::parse_line(puzzle), record) {
        (Ok(expect), Ok(got)) => assert_eq!(expect, *got),
        (Err(expect), Err(Failure::Malformed(RecordError::Cells(got)))) => {
            assert_eq!(expect, *got)
        }
        (expect, got) => panic!("line {line:?}: parse_line gives {expect:?}, the reader {got:?}"),
    }
}

/// `format::prepare` as a batch run calls it: answers in the solution column, the format's own output.
fn prepare_as_run(
    text: &[u8],
    eof: bool,
    forced: Option<Format>,
) -> Result<Option<format::Prepared>, FormatError> {
    format::prepare(
        text,
        eof,
        forced,
        CsvAnswer::Solution,
        false,
        &Default::default(),
    )
}

fn check_prefix_detection(text: &[u8], forced: Option<Format>) {
    let whole = prepare_as_run(text, true, forced);
    let step = (text.len() / 40).max(1);
    for k in (0..text.len()).step_by(step) {
        match prepare_as_run(&text[..k], false, forced) {
            Ok(None) => {}
            part => assert_eq!(
                part, whole,
                "detection on the first {k} bytes differs from the whole"
            ),
        }
    }
}

fn check_grid_parsers(text: &[u8]) {
    let trimmed = text.trim_ascii();
    let line = Grid::parse_line(text);
    match &line {
        Ok(g) => {
            assert_eq!(trimmed.len(), 81);
            assert_eq!(Grid::parse_line(g.to_line().as_bytes()).as_ref(), Ok(g));
        }
        Err(ParseError::InvalidChar { cell, .. }) => assert!((1..=81).contains(cell)),
        Err(ParseError::WrongLength { found }) => {
            assert_eq!(*found, trimmed.len());
            assert_ne!(*found, 81);
        }
        Err(e) => panic!("parse_line: {e}"),
    }
    let grid = Grid::parse_grid(text);
    match &grid {
        Ok(g) => {
            let s = g.to_grid_string();
            assert_eq!(Grid::parse_grid(s.as_bytes()).as_ref(), Ok(g));
        }
        Err(ParseError::InvalidChar { cell, .. }) => assert!((1..=81).contains(cell)),
        Err(ParseError::BadGridRow { row, .. }) => assert!((1..=9).contains(row)),
        Err(ParseError::RowCount { found }) => assert_ne!(*found, 9),
        Err(e) => panic!("parse_grid: {e}"),
    }
    let either = Grid::parse(text);
    if trimmed.contains(&b'\n') {
        assert_eq!(either, Grid::parse_grid(trimmed));
    } else {
        assert_eq!(either, line);
    }
}

/// Target `batch`: the input goes through [`batch::run_batch`] (solving) as a file with one setting picked by the first
/// two bytes (mapped or read in blocks, 1 or 2 threads, a small chunk size, a forced format, JSON Lines output or
/// the format's own) and must give exactly
/// the bytes, counts and errors of the sequential one-chunk run of the same bytes in memory, leave nothing behind
/// in the output directory, and agree with [`batch::read_all`] on the number of records. Bytes that a file would be
/// sniffed as a table or a compressed stream by are left out: in memory they are text.
pub fn batch(data: &[u8]) {
    let [a, b, text @ ..] = data else {
        return;
    };
    // A file whose first bytes are a table's or a compressed stream's magic is read as one (the `table` target and
    // the compression tests cover those), while the same bytes in memory are text: no sequential run to compare.
    if format::sniffed_as_binary(text) {
        return;
    }
    let forced = forced_format(*a);
    let unique = a & 4 != 0;
    let mmap = a & 8 != 0;
    let threads = if a & 16 != 0 { 2 } else { 1 };
    let json = a & 32 != 0;
    let chunk_size = match b >> 6 {
        0 => 1 + usize::from(b & 7),
        1 => 1 + usize::from(b & 63),
        2 => 64 + 16 * usize::from(b & 63),
        _ => MAX_RECORD - 32 + usize::from(b & 63),
    };
    let dir = scratch_dir();
    let input = dir.path().join("in");
    std::fs::write(&input, text).expect("write input");
    let name = input.display().to_string();
    let job = Solve { unique };
    let sequential = BatchOptions {
        threads: Threads::Count(1),
        format: forced,
        mmap: false,
        fail_fast: false,
        chunk_size: usize::MAX,
        json,
        ..BatchOptions::default()
    };
    let spec = InputSpec::Bytes {
        name,
        data: text.to_vec(),
    };
    let expect = run_once(dir.path(), "expect", spec, &job, &sequential);
    let opts = BatchOptions {
        threads: Threads::Count(threads),
        mmap,
        chunk_size,
        ..sequential
    };
    let got = run_once(dir.path(), "got", InputSpec::Path(input), &job, &opts);
    let setting = format!("{threads} threads, chunks of {chunk_size}, mmap {mmap}, json {json}");
    match (&expect, &got) {
        ((Ok(e), e_out), (Ok(g), g_out)) => {
            assert_eq!(e.counts, g.counts, "{setting}");
            assert!(e_out == g_out, "output differs with {setting}");
            for (s, out) in [(e, e_out), (g, g_out)] {
                let out = out.as_ref().expect("a finished run creates its output");
                assert_eq!(s.bytes_out, out.len() as u64);
                assert_eq!(s.bytes_in, text.len() as u64);
            }
            let records = batch::read_all(text, forced)
                .expect("the run read it")
                .len();
            assert_eq!(e.counts.records, records as u64);
        }
        ((Err(e), e_out), (Err(g), g_out)) => {
            assert_eq!(e.to_string(), g.to_string(), "{setting}");
            assert!(
                e_out.is_none() && g_out.is_none(),
                "a failed run leaves no output"
            );
        }
        ((e, _), (g, _)) => panic!("{setting}: sequential {e:?}, chunked {g:?}"),
    }
    let mut left = std::fs::read_dir(dir.path())
        .expect("list temp dir")
        .map(|e| e.expect("entry").file_name().into_string().expect("name"))
        .collect::<Vec<_>>();
    left.sort();
    let mut want = vec!["in".to_string()];
    want.extend(
        [(&expect, "expect"), (&got, "got")]
            .iter()
            .filter(|(r, _)| r.0.is_ok())
            .map(|(_, n)| n.to_string()),
    );
    want.sort();
    assert_eq!(left, want, "files left in the output directory");
}

/// Target `bench_reader`: the line reader of `sudoku bench` (blocks of a buffered reader, oversized lines passed
/// over) finds exactly the records, good and bad, that splitting the whole text in memory finds.
pub fn bench_reader(data: &[u8]) {
    use sudoku_batch::bench::Dataset;
    let d = Dataset::from_bytes(Path::new("fuzz"), data.to_vec());
    let mut good = 0;
    let mut bad = Vec::new();
    let text = data.strip_suffix(b"\n").unwrap_or(data);
    if !data.is_empty() {
        for (n, line) in text.split(|&b| b == b'\n').enumerate() {
            let first = line.trim_ascii_start().first();
            if line.len() <= MAX_RECORD && (first.is_none() || first == Some(&b'#')) {
                continue;
            }
            match sudoku_batch::Grid::parse_line(line) {
                Ok(_) if line.len() <= MAX_RECORD => good += 1,
                _ => bad.push(n + 1),
            }
        }
    }
    assert_eq!(d.len(), good);
    assert_eq!(d.bad_records, bad.len());
    let lines: Vec<usize> = d.bad.iter().map(|b| b.line).collect();
    assert_eq!(lines, bad[..bad.len().min(Dataset::BAD_KEPT)]);
}

/// A fresh temporary directory, in memory (`/dev/shm`) when there is one: every file output is synced to disk,
/// which on a disk costs more than the rest of a run.
fn scratch_dir() -> tempfile::TempDir {
    let shm = Path::new("/dev/shm");
    let in_memory = shm
        .is_dir()
        .then(|| tempfile::tempdir_in(shm).ok())
        .flatten();
    in_memory.unwrap_or_else(|| tempfile::tempdir().expect("temp dir"))
}

fn run_once(
    dir: &Path,
    out_name: &str,
    spec: InputSpec,
    job: &Solve,
    opts: &BatchOptions,
) -> (Result<BatchSummary, BatchError>, Option<Vec<u8>>) {
    let out = dir.join(out_name);
    let r = batch::run_batch(vec![spec], &Target::File(out.clone()), job, opts, &mut ());
    (r, std::fs::read(&out).ok())
}

/// Fewest givens for which [`solver`] counts are checked against [`reference_count`] (which is slow on puzzles
/// with few givens).
pub const REFERENCE_MIN_GIVENS: usize = 25;

/// Target `solver`: the first 81 bytes are a board (a digit character is its digit, `.` is blank, any other byte
/// counts modulo 10; 0 is blank). Clashing givens are refused by
/// every entry point with a real clash; a solution is a full valid board keeping the givens; `solve`,
/// `solve_unique` and `count_solutions` (limits 1 to 3) agree with each other and, with at least
/// [`REFERENCE_MIN_GIVENS`] givens, with [`reference_count`].
pub fn solver(data: &[u8]) {
    solver_on(data, Engine::Bitmask);
}

/// Target `vector`: the properties of [`solver`] on the vector engine, which also finds the bitmask engine's
/// counts (limit 3) and, where that count is 1, its solution; every copy of the engine this processor runs
/// (portable, x86-64-v3, AVX-512) finds the same count, first solution and guesses; so does the engine chosen per
/// puzzle (`Engine::Auto`).
pub fn vector(data: &[u8]) {
    let Some(counts) = solver_on(data, Engine::Vector) else {
        return;
    };
    let puzzle = board(data).expect("solver_on read it");
    let copies = format::vector_copies(&puzzle, 3);
    for copy in &copies[1..] {
        assert_eq!(
            (copy.1, copy.2, copy.3),
            (copies[0].1, copies[0].2, copies[0].3),
            "{} against {}",
            copy.0,
            copies[0].0
        );
    }
    let bitmask =
        sudoku_batch::count_solutions_with(&puzzle, 3, Engine::Bitmask).expect("consistent givens");
    assert_eq!(bitmask.solutions, counts[3]);
    if bitmask.solutions == 1 {
        let v = sudoku_batch::solve_with(&puzzle, Engine::Vector).expect("one solution");
        assert_eq!(Some(v.solution), bitmask.first);
    }
    // The engine chosen per puzzle (either of the two): the properties of `solver`, and the same counts and
    // unique solution.
    let auto = solver_on(data, Engine::Auto).expect("the same board");
    assert_eq!(auto, counts);
    if bitmask.solutions == 1 {
        let a = sudoku_batch::solve_unique_with(&puzzle, Engine::Auto).expect("one solution");
        assert_eq!(Some(a.solution), bitmask.first);
    }
}

/// The board of the first 81 bytes, as [`solver`] reads them; `None` when there are fewer.
fn board(data: &[u8]) -> Option<Grid> {
    let bytes = data.get(..81)?;
    let mut cells = [0u8; 81];
    for (c, &b) in cells.iter_mut().zip(bytes) {
        *c = match b {
            b'0'..=b'9' => b - b'0',
            b'.' => 0,
            _ => b % 10,
        };
    }
    Some(Grid::from_cells(cells).expect("cells are 0..=9"))
}

/// The checks of [`solver`] on `engine`; the counts at limits 1, 2 and 3 (index = limit) when the givens are
/// consistent.
fn solver_on(data: &[u8], engine: Engine) -> Option<[u64; 4]> {
    let puzzle = board(data)?;
    let cells = *puzzle.cells();
    let consistent = givens_consistent(&cells);
    let reference = (consistent && puzzle.clue_count() >= REFERENCE_MIN_GIVENS)
        .then(|| reference_count(&cells, 3));
    let mut counts = [0u64; 4];
    for limit in 1..=3u64 {
        match sudoku_batch::count_solutions_with(&puzzle, limit, engine) {
            Ok(c) => {
                assert!(consistent, "count_solutions accepted clashing givens");
                assert!(c.solutions <= limit);
                assert_eq!(c.hit_limit, c.solutions >= limit);
                assert_eq!(c.first.is_some(), c.solutions > 0);
                if let Some(first) = c.first {
                    assert_solution_of(&first, &cells);
                }
                if let Some(r) = reference {
                    assert_eq!(c.solutions, r.min(limit), "limit {limit}");
                }
                counts[limit as usize] = c.solutions;
            }
            Err(conflict) => {
                assert!(!consistent, "count_solutions refused consistent givens");
                assert_genuine(&conflict, &cells);
            }
        }
    }
    if consistent {
        // A search that stops earlier finds a prefix of the same count.
        assert_eq!(counts[1], counts[3].min(1));
        assert_eq!(counts[2], counts[3].min(2));
    }
    match sudoku_batch::solve_with(&puzzle, engine) {
        Ok(s) => {
            assert_solution_of(&s.solution, &cells);
            assert!(counts[1] == 1);
        }
        Err(SolveError::InvalidGivens(c)) => {
            assert!(!consistent);
            assert_genuine(&c, &cells);
        }
        Err(SolveError::NoSolution) => assert!(consistent && counts[1] == 0),
        Err(e) => panic!("solve: {e}"),
    }
    match sudoku_batch::solve_unique_with(&puzzle, engine) {
        Ok(s) => {
            assert_solution_of(&s.solution, &cells);
            assert_eq!(counts[2], 1);
        }
        Err(SolveError::MultipleSolutions { first }) => {
            assert_solution_of(&first, &cells);
            assert_eq!(counts[2], 2);
        }
        Err(SolveError::InvalidGivens(c)) => {
            assert!(!consistent);
            assert_genuine(&c, &cells);
        }
        Err(SolveError::NoSolution) => assert!(consistent && counts[2] == 0),
        Err(e) => panic!("solve_unique: {e}"),
    }
    consistent.then_some(counts)
}

/// Row, column and box of a 0-based cell.
fn units_of(cell: usize) -> [usize; 3] {
    let (r, c) = (cell / 9, cell % 9);
    [r, 9 + c, 18 + (r / 3) * 3 + c / 3]
}

/// True when no row, column or box holds a digit twice.
fn givens_consistent(cells: &[u8; 81]) -> bool {
    let mut seen = [0u16; 27];
    for (cell, &d) in cells.iter().enumerate() {
        if d == 0 {
            continue;
        }
        for u in units_of(cell) {
            if seen[u] & (1 << d) != 0 {
                return false;
            }
            seen[u] |= 1 << d;
        }
    }
    true
}

/// `solution` is full, obeys every rule and keeps every given of `cells`.
fn assert_solution_of(solution: &Grid, cells: &[u8; 81]) {
    let s = solution.cells();
    assert!(s.iter().all(|&d| (1..=9).contains(&d)), "not full: {s:?}");
    assert!(givens_consistent(s), "breaks a rule: {s:?}");
    for (i, (&g, &v)) in cells.iter().zip(s).enumerate() {
        assert!(g == 0 || g == v, "cell {i} changed from {g} to {v}");
    }
}

/// The clash reported is real: both cells hold its digit and lie in its unit.
fn assert_genuine(c: &Conflict, cells: &[u8; 81]) {
    assert_ne!(c.first, c.second);
    assert_eq!(cells[c.first], c.digit, "{c}");
    assert_eq!(cells[c.second], c.digit, "{c}");
    let unit = match c.unit {
        Unit::Row(n) => usize::from(n) - 1,
        Unit::Col(n) => 9 + usize::from(n) - 1,
        Unit::Box(n) => 18 + usize::from(n) - 1,
    };
    assert!(
        units_of(c.first).contains(&unit) && units_of(c.second).contains(&unit),
        "{c}"
    );
}

/// A plain backtracking count of the completions of `cells` (whose givens must be consistent), stopping at
/// `limit`: fill the empty cell with the fewest candidates, try each.
pub fn reference_count(cells: &[u8; 81], limit: u64) -> u64 {
    let mut used = [0u16; 27];
    for (cell, &d) in cells.iter().enumerate() {
        if d != 0 {
            for u in units_of(cell) {
                used[u] |= 1 << d;
            }
        }
    }
    let mut board = *cells;
    let mut found = 0;
    count_from(&mut board, &mut used, limit, &mut found);
    found
}

fn count_from(board: &mut [u8; 81], used: &mut [u16; 27], limit: u64, found: &mut u64) {
    let mut best: Option<(usize, u16)> = None;
    for (cell, &d) in board.iter().enumerate() {
        if d != 0 {
            continue;
        }
        let [a, b, c] = units_of(cell);
        let free = !(used[a] | used[b] | used[c]) & 0x3FE;
        let fewer = match best {
            None => true,
            Some((_, f)) => free.count_ones() < f.count_ones(),
        };
        if fewer {
            best = Some((cell, free));
            if free.count_ones() <= 1 {
                break;
            }
        }
    }
    let Some((cell, free)) = best else {
        *found += 1;
        return;
    };
    let units = units_of(cell);
    for d in 1..=9u8 {
        if free & (1 << d) == 0 {
            continue;
        }
        board[cell] = d;
        units.iter().for_each(|&u| used[u] |= 1 << d);
        count_from(board, used, limit, found);
        units.iter().for_each(|&u| used[u] &= !(1 << d));
        board[cell] = 0;
        if *found >= limit {
            return;
        }
    }
}

/// Target `table`: any bytes (a Parquet file, an Arrow IPC file or stream, mutated) as the only input of a solving
/// run, on one thread or two (as the last byte says): the run returns a summary, or an error naming the input, and
/// then leaves no output; a panic inside a third-party reader never escapes it, and no allocation sized by the
/// table's own numbers aborts the process.
pub fn table(data: &[u8]) {
    let dir = scratch_dir();
    let input = dir.path().join("in");
    std::fs::write(&input, data).expect("write input");
    let name = input.display().to_string();
    let opts = BatchOptions {
        threads: Threads::Count(1 + usize::from(data.last().is_some_and(|b| b & 1 == 1))),
        ..BatchOptions::default()
    };
    let spec = InputSpec::Path(input);
    let (r, out) = run_once(dir.path(), "out", spec, &Solve::default(), &opts);
    match r {
        Ok(s) => {
            let out = out.expect("a finished run creates its output");
            assert_eq!(s.bytes_out, out.len() as u64);
        }
        Err(e) => {
            assert!(out.is_none(), "a failed run leaves no output: {e}");
            if let BatchError::Table { name: n, .. } | BatchError::Format { name: n, .. } = &e {
                assert_eq!(*n, name, "{e}");
            }
            assert!(e.to_string().contains(&name), "{e} names {name}");
        }
    }
}
