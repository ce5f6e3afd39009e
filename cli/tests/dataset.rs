//! The training-set tools: `split` (every equivalence class on one side), on sets whose classes are known by
//! construction: distinct puzzles (told apart by the library's canonical form, itself checked against a brute
//! force in its own tests), each written as a few random equivalent copies.

use std::collections::{HashMap, HashSet};

use sudoku_batch::tools::{canon, Transform};
use sudoku_batch::Grid;

use crate::util::*;

/// A solved board to draw puzzles from (the solution of data/puzzles.txt's first puzzle).
fn board() -> Grid {
    read_data("puzzles.solutions.txt")
        .lines()
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

/// A small xorshift generator for the test's own draws.
struct Draw(u64);

impl Draw {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// `classes` puzzles of distinct classes (random sets of 28 to 32 cells of one board, repeats of a class left out), each
/// written as 1 to 3 random equivalent copies; the records (81 characters, `.` blanks) with their class, in a
/// shuffled order so that copies of a class lie apart.
fn records(classes: usize, seed: u64) -> Vec<(String, usize)> {
    let board = board();
    let mut draw = Draw(seed | 1);
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    while seen.len() < classes {
        let mut cells = [0u8; 81];
        let mut placed = 0;
        let clues = 28 + draw.next() % 5;
        while placed < clues {
            let i = (draw.next() % 81) as usize;
            if cells[i] == 0 {
                cells[i] = board.cells()[i];
                placed += 1;
            }
        }
        let puzzle = Grid::from_cells(cells).unwrap();
        if !seen.insert(canon(&puzzle).unwrap()) {
            continue;
        }
        let class = seen.len() - 1;
        for _ in 0..1 + draw.next() % 3 {
            let copy = Transform::random(seed, draw.next()).apply(&puzzle);
            out.push((copy.to_line(), class));
        }
    }
    for i in (1..out.len()).rev() {
        out.swap(i, (draw.next() % (i as u64 + 1)) as usize);
    }
    out
}

/// Checks a split: every input record is in exactly one output (as a multiset), every class on one side; returns
/// the classes on each side.
fn check_sides(input: &[(String, usize)], sides: &[(&str, Vec<String>)]) -> HashMap<String, usize> {
    let class_of: HashMap<&str, usize> = input.iter().map(|(r, c)| (r.as_str(), *c)).collect();
    let mut expected: Vec<&str> = input.iter().map(|(r, _)| r.as_str()).collect();
    let mut got: Vec<&str> = sides
        .iter()
        .flat_map(|(_, records)| records.iter().map(String::as_str))
        .collect();
    expected.sort_unstable();
    got.sort_unstable();
    assert!(got == expected, "every record out exactly once");
    let mut side_of: HashMap<usize, &str> = HashMap::new();
    let mut classes: HashMap<String, usize> = HashMap::new();
    for (side, records) in sides {
        for r in records {
            let class = class_of[r.as_str()];
            match side_of.insert(class, side) {
                Some(other) => assert_eq!(other, *side, "class {class} on two sides"),
                None => *classes.entry(side.to_string()).or_default() += 1,
            }
        }
    }
    classes
}

#[test]
fn split_keeps_each_class_on_one_side_and_the_fractions_within_a_percent() {
    let input = records(20_000, 11);
    let dir = tempdir();
    let path = dir.path().join("set.txt");
    let mut text = String::from("# a comment\n");
    for (r, _) in &input {
        text.push_str(r);
        text.push('\n');
    }
    // A malformed record and one whose givens clash: reported, counted, left out.
    let clash = format!("11{}", ".".repeat(79));
    text.push_str(&format!("12345\n{clash}\n"));
    std::fs::write(&path, &text).unwrap();
    let lines = text.lines().count();
    let out = dir.path().join("sets");
    let run = run(&[
        "split",
        path.to_str().unwrap(),
        "--test",
        "0.2",
        "--val",
        "0.1",
        "--seed",
        "5",
        "--out-dir",
        out.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let name = path.to_str().unwrap();
    assert!(
        run.stderr
            .contains(&format!("{name}:{}: malformed", lines - 1)),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr
            .contains(&format!("{name}:{}: clashing givens", lines)),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("1 malformed, 1 clashing givens"),
        "{}",
        run.stderr
    );
    let read = |side: &str| {
        puzzle_lines(&std::fs::read_to_string(out.join(format!("{side}.txt"))).unwrap())
    };
    let sides: Vec<(&str, Vec<String>)> = ["train", "val", "test"]
        .into_iter()
        .map(|s| (s, read(s)))
        .collect();
    let classes = check_sides(&input, &sides);
    let total = 20_000.0;
    for (side, f) in [("train", 0.7), ("val", 0.1), ("test", 0.2)] {
        let got = classes[side] as f64 / total;
        assert!((got - f).abs() < 0.01, "{side}: {got} of the classes");
    }
    // Records keep their input order within a side.
    let order: HashMap<&str, usize> = input
        .iter()
        .enumerate()
        .map(|(i, (r, _))| (r.as_str(), i))
        .collect();
    for (_, records) in &sides {
        assert!(records
            .windows(2)
            .all(|w| order[w[0].as_str()] <= order[w[1].as_str()]));
    }
    // The same bytes for the seed whatever the threads and chunk sizes; another seed, another split.
    for (threads, chunk) in [("1", "100000"), ("2", "777")] {
        let again = dir.path().join(format!("again{threads}"));
        let r = crate::util::run(&[
            "split",
            name,
            "--test",
            "0.2",
            "--val",
            "0.1",
            "--seed",
            "5",
            "-j",
            threads,
            "--chunk-size",
            chunk,
            "--out-dir",
            again.to_str().unwrap(),
        ]);
        assert_eq!(r.code, 1);
        for side in ["train", "val", "test"] {
            let f = format!("{side}.txt");
            assert!(
                std::fs::read(out.join(&f)).unwrap() == std::fs::read(again.join(&f)).unwrap(),
                "{f} with -j {threads}"
            );
        }
    }
    let other = dir.path().join("other");
    crate::util::run(&[
        "split",
        name,
        "--test",
        "0.2",
        "--seed",
        "6",
        "--out-dir",
        other.to_str().unwrap(),
    ]);
    assert!(
        !other.join("val.txt").exists(),
        "no validation set unless asked"
    );
    assert_ne!(
        std::fs::read(out.join("test.txt")).unwrap(),
        std::fs::read(other.join("test.txt")).unwrap()
    );
}

/// A split without --val into a folder where an earlier split left `val.txt` is refused before anything is written
/// (the old validation set and the new training set shared classes); an --out-dir that is a file is refused as
/// not a folder.
#[test]
fn split_refuses_a_stale_validation_set_and_a_file_for_a_folder() {
    let dir = tempdir();
    let out = dir.path().join("sets");
    let input = data_path("puzzles.txt");
    let split = |extra: &[&str]| {
        let mut args = vec!["split", "-q", input.as_str(), "--test", "0.2"];
        args.extend_from_slice(extra);
        args.extend(["--out-dir", out.to_str().unwrap()]);
        crate::util::run(&args)
    };
    assert_eq!(split(&["--val", "0.2"]).code, 0);
    let train = std::fs::read(out.join("train.txt")).unwrap();
    let r = split(&["--seed", "9"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("val.txt is there from an earlier split"),
        "{}",
        r.stderr
    );
    assert_eq!(std::fs::read(out.join("train.txt")).unwrap(), train);
    assert_eq!(split(&["--val", "0.1", "--seed", "9"]).code, 0);
    let file = dir.path().join("file");
    std::fs::write(&file, "mine\n").unwrap();
    for job in ["split", "export"] {
        let mut args = vec![job, "-q", input.as_str()];
        args.extend(if job == "split" {
            ["--test", "0.2"]
        } else {
            ["--to", "npy"]
        });
        args.extend(["--out-dir", file.to_str().unwrap()]);
        let r = crate::util::run(&args);
        assert_eq!(r.code, 2, "{job}: {}", r.stderr);
        assert!(r.stderr.contains("not a folder"), "{job}: {}", r.stderr);
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "mine\n");
    }
}

#[test]
fn split_of_a_csv_keeps_its_header_and_rows_and_stratifies() {
    let input = records(600, 3);
    let dir = tempdir();
    let path = dir.path().join("set.csv");
    // The clue count is the same for every record of a class: a stratum as the docs ask.
    let mut text = String::from("id,puzzle,clues\n");
    for (i, (r, _)) in input.iter().enumerate() {
        let clues = r.bytes().filter(|&b| b != b'.' && b != b'0').count();
        text.push_str(&format!("{i},{r},{clues}\n"));
    }
    std::fs::write(&path, &text).unwrap();
    for stratify in [None, Some("clues")] {
        let out = dir.path().join(format!("sets{}", stratify.is_some()));
        let mut args = vec![
            "split",
            path.to_str().unwrap(),
            "--test",
            "0.25",
            "--val",
            "0.25",
            "--out-dir",
            out.to_str().unwrap(),
        ];
        if let Some(s) = stratify {
            args.extend(["--stratify", s]);
        }
        let r = run(&args);
        assert_eq!(r.code, 0, "{}", r.stderr);
        let mut sides = Vec::new();
        let mut ids = Vec::new();
        for side in ["train", "val", "test"] {
            let text = std::fs::read_to_string(out.join(format!("{side}.csv"))).unwrap();
            let mut lines = text.lines();
            assert_eq!(lines.next(), Some("id,puzzle,clues"), "{side}");
            let rows: Vec<&str> = lines.collect();
            for row in &rows {
                let f: Vec<&str> = row.split(',').collect();
                let i: usize = f[0].parse().unwrap();
                assert_eq!(f[1], input[i].0, "the row as it was");
                ids.push(i);
            }
            sides.push((
                side,
                rows.iter()
                    .map(|r| r.split(',').nth(1).unwrap().to_string())
                    .collect(),
            ));
        }
        check_sides(&input, &sides);
        ids.sort_unstable();
        assert_eq!(ids, (0..input.len()).collect::<Vec<_>>());
    }
}

#[test]
fn split_of_a_grid_file_writes_well_formed_grid_files() {
    let input = records(40, 9);
    let dir = tempdir();
    let path = dir.path().join("set.txt");
    let grids: Vec<String> = input
        .iter()
        .map(|(r, _)| r.parse::<Grid>().unwrap().to_grid_string())
        .collect();
    std::fs::write(&path, grids.join("\n\n")).unwrap();
    let out = dir.path().join("sets");
    let r = run(&[
        "split",
        path.to_str().unwrap(),
        "--test",
        "0.5",
        "--out-dir",
        out.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let mut sides = Vec::new();
    for side in ["train", "test"] {
        let text = std::fs::read_to_string(out.join(format!("{side}.txt"))).unwrap();
        assert!(!text.starts_with('\n'), "{side} starts with a grid");
        let records: Vec<String> = text
            .split("\n\n")
            .filter(|g| !g.trim().is_empty())
            .map(|g| grid_to_line(g).parse::<Grid>().unwrap().to_line())
            .collect();
        sides.push((side, records));
    }
    check_sides(&input, &sides);
}

#[cfg(feature = "parquet")]
#[test]
fn split_of_a_parquet_table_writes_three_tables() {
    use arrow_array::{Int64Array, RecordBatch, StringArray};
    use std::sync::Arc;
    let input = records(300, 21);
    let dir = tempdir();
    let path = dir.path().join("set.parquet");
    let batch = RecordBatch::try_from_iter([
        (
            "id",
            Arc::new(Int64Array::from_iter_values(0..input.len() as i64)) as _,
        ),
        (
            "puzzle",
            Arc::new(StringArray::from_iter_values(
                input.iter().map(|(r, _)| r.as_str()),
            )) as _,
        ),
    ])
    .unwrap();
    crate::tables::write_parquet(&path, &batch, None);
    let out = dir.path().join("sets");
    let r = run(&[
        "split",
        path.to_str().unwrap(),
        "--test",
        "0.3",
        "--val",
        "0.2",
        "-j",
        "2",
        "--out-dir",
        out.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let mut sides = Vec::new();
    let mut ids = Vec::new();
    for side in ["train", "val", "test"] {
        let bytes = std::fs::read(out.join(format!("{side}.parquet"))).unwrap();
        let batches = crate::tables::read_table(&bytes);
        let puzzles: Vec<String> = crate::tables::texts(&batches, "puzzle")
            .into_iter()
            .map(Option::unwrap)
            .collect();
        let side_ids = crate::tables::ids(&batches);
        for (id, p) in side_ids.iter().zip(&puzzles) {
            assert_eq!(&input[*id as usize].0, p, "the row as it was");
        }
        ids.extend(side_ids);
        sides.push((side, puzzles));
    }
    check_sides(&input, &sides);
    ids.sort_unstable();
    assert_eq!(ids, (0..input.len() as i64).collect::<Vec<_>>());
}

/// `data/puzzles.txt`'s puzzles with their solutions, as `(puzzle, solution)`.
fn pairs() -> Vec<(String, String)> {
    puzzle_lines(&read_data("puzzles.txt"))
        .into_iter()
        .zip(
            read_data("puzzles.solutions.txt")
                .lines()
                .map(str::to_string),
        )
        .collect()
}

fn canon_of(puzzle: &str) -> Grid {
    canon(&puzzle.parse().unwrap()).unwrap()
}

#[test]
fn shuffle_copies_writes_k_equivalent_lines_per_record_in_order() {
    let pairs = pairs();
    let text: String = pairs.iter().map(|(p, s)| format!("{p} {s}\n")).collect();
    let r = run_in(
        None,
        &["shuffle", "--copies", "4", "--seed", "3"],
        text.as_bytes(),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let out = r.out();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4 * pairs.len());
    for (i, (p, _)) in pairs.iter().enumerate() {
        let copies = &lines[4 * i..4 * i + 4];
        for l in copies {
            let (cp, cs) = (&l[..81], &l[82..]);
            assert!(solves(cp, cs), "{l}");
            assert_eq!(canon_of(cp), canon_of(p), "copy of record {i}");
        }
        let distinct: HashSet<&&str> = copies.iter().collect();
        assert_eq!(distinct.len(), 4);
    }
    // --keep-original puts the record itself first, then the same four copies; one copy is plain shuffle's.
    let kept = run_in(
        None,
        &[
            "shuffle",
            "--copies",
            "4",
            "--keep-original",
            "--seed",
            "3",
            "-j",
            "2",
            "--chunk-size",
            "500",
        ],
        text.as_bytes(),
    );
    let kept = kept.out();
    let kept: Vec<&str> = kept.lines().collect();
    let plain = run_in(None, &["shuffle", "--seed", "3"], text.as_bytes()).out();
    for (i, (p, s)) in pairs.iter().enumerate() {
        assert_eq!(kept[5 * i], format!("{p} {s}"));
        assert_eq!(&kept[5 * i + 1..5 * i + 5], &lines[4 * i..4 * i + 4]);
        assert_eq!(plain.lines().nth(i).unwrap(), lines[4 * i]);
    }
}

#[test]
fn shuffle_copies_of_a_csv_add_a_group_column_and_keep_the_answers_right() {
    let pairs = pairs();
    let dir = tempdir();
    let path = dir.path().join("set.csv");
    let mut text = String::from("id,puzzle,answer\n");
    for (i, (p, s)) in pairs.iter().enumerate() {
        text.push_str(&format!("{i},{p},{s}\n"));
    }
    text.push_str("x,123,\n");
    std::fs::write(&path, &text).unwrap();
    let name = path.to_str().unwrap();
    let out = dir.path().join("aug.csv");
    let r = run(&[
        "shuffle",
        name,
        "--copies",
        "4",
        "--seed",
        "9",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 1, "the bad row fails: {}", r.stderr);
    assert!(
        r.stderr
            .contains(&format!("{name}:{}: malformed", pairs.len() + 2)),
        "{}",
        r.stderr
    );
    let written = std::fs::read_to_string(&out).unwrap();
    let mut lines = written.lines();
    assert_eq!(
        lines.next(),
        Some("id,puzzle,answer,group"),
        "the header once"
    );
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 4 * pairs.len() + 1);
    for (k, row) in rows.iter().enumerate().take(4 * pairs.len()) {
        let i = k / 4;
        assert_eq!(row[0], i.to_string());
        assert_eq!(
            row[3],
            i.to_string(),
            "the group is the input record's number"
        );
        assert!(solves(row[1], row[2]));
        assert_eq!(canon_of(row[1]), canon_of(&pairs[i].0));
    }
    let last = rows.last().unwrap();
    assert_eq!(last[0], "x");
    assert_eq!(last.last().unwrap(), &pairs.len().to_string());
    assert!(last.join(",").contains("error: malformed"));
    // Without the bad row, `check` passes on every copy.
    let good = dir.path().join("good.csv");
    let text = written
        .lines()
        .filter(|l| !l.contains("error"))
        .collect::<Vec<_>>()
        .join("\n");
    std::fs::write(&good, text).unwrap();
    let c = run(&[
        "check",
        good.to_str().unwrap(),
        "--solution-column",
        "answer",
    ]);
    assert_eq!(c.code, 0, "{}", c.stderr);
    // The same bytes whatever the threads and chunks.
    for (threads, chunk) in [("1", "100000"), ("2", "300")] {
        let again = dir.path().join(format!("again{threads}.csv"));
        let r = run(&[
            "shuffle",
            name,
            "--copies",
            "4",
            "--seed",
            "9",
            "-j",
            threads,
            "--chunk-size",
            chunk,
            "-o",
            again.to_str().unwrap(),
        ]);
        assert_eq!(r.code, 1);
        assert!(
            std::fs::read(&again).unwrap() == written.as_bytes(),
            "-j {threads}"
        );
    }
}

#[cfg(feature = "parquet")]
#[test]
fn shuffle_copies_of_a_parquet_table_add_a_group_column() {
    use arrow_array::cast::AsArray;
    let dir = tempdir();
    let out = dir.path().join("aug.parquet");
    let r = run(&[
        "shuffle",
        &data("puzzles.parquet"),
        "--copies",
        "4",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 1, "its two bad rows fail: {}", r.stderr);
    let batches = crate::tables::read_table(&std::fs::read(&out).unwrap());
    let puzzles = crate::tables::texts(&batches, "question");
    let answers = crate::tables::texts(&batches, "answer");
    let ids = crate::tables::ids(&batches);
    let groups: Vec<i64> = batches
        .iter()
        .flat_map(|b| {
            b.column_by_name("group")
                .unwrap()
                .as_primitive::<arrow_array::types::Int64Type>()
                .values()
                .to_vec()
        })
        .collect();
    let pairs = pairs();
    assert_eq!(groups.len(), 4 * pairs.len() + 2);
    for (k, g) in groups.iter().enumerate().take(4 * pairs.len()) {
        let i = k / 4;
        assert_eq!(*g, i as i64);
        assert_eq!(ids[k], ids[4 * i], "every column kept with its row");
        let (p, s) = (
            puzzles[k].as_deref().unwrap(),
            answers[k].as_deref().unwrap(),
        );
        assert!(solves(p, s));
        assert_eq!(canon_of(p), canon_of(&pairs[i].0));
    }
    assert_eq!(&groups[4 * pairs.len()..], &[100, 101]);
}

/// A `.npy` file read back: its header's `descr` and `shape`, and its data bytes. Parsed here, independently of
/// the writer: version 1.0, a little-endian header length, a Python dict.
fn read_npy(path: &std::path::Path) -> (String, Vec<usize>, Vec<u8>) {
    let bytes = std::fs::read(path).unwrap();
    assert_eq!(&bytes[..8], b"\x93NUMPY\x01\x00", "{}", path.display());
    let len = usize::from(u16::from_le_bytes([bytes[8], bytes[9]]));
    assert_eq!((10 + len) % 64, 0, "data aligned");
    let header = std::str::from_utf8(&bytes[10..10 + len]).unwrap();
    assert!(header.ends_with('\n'));
    assert!(header.contains("'fortran_order': False"));
    let descr = header
        .split("'descr': '")
        .nth(1)
        .unwrap()
        .split('\'')
        .next()
        .unwrap();
    let shape = header
        .split("'shape': (")
        .nth(1)
        .unwrap()
        .split(')')
        .next()
        .unwrap();
    let shape: Vec<usize> = shape
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().unwrap())
        .collect();
    (descr.to_string(), shape, bytes[10 + len..].to_vec())
}

#[test]
fn export_writes_arrays_of_the_right_shapes_values_and_groups() {
    let pairs = pairs();
    // The classes of data/puzzles.txt, numbered by first appearance there.
    let mut class_of_form: HashMap<Grid, usize> = HashMap::new();
    let classes: Vec<usize> = pairs
        .iter()
        .map(|(p, _)| {
            let n = class_of_form.len();
            *class_of_form.entry(canon_of(p)).or_insert(n)
        })
        .collect();
    // Each puzzle as 1 to 3 random equivalent copies (with its solution through the same transform), shuffled.
    let mut draw = Draw(17);
    let mut records: Vec<(Grid, Grid, usize)> = Vec::new();
    for (i, (p, s)) in pairs.iter().enumerate() {
        for _ in 0..1 + i % 3 {
            let t = Transform::random(8, draw.next());
            records.push((
                t.apply(&p.parse().unwrap()),
                t.apply(&s.parse().unwrap()),
                classes[i],
            ));
        }
    }
    for i in (1..records.len()).rev() {
        records.swap(i, (draw.next() % (i as u64 + 1)) as usize);
    }
    let dir = tempdir();
    for with_solutions in [true, false] {
        let path = dir.path().join(format!("set{with_solutions}.txt"));
        let mut text: String = records
            .iter()
            .map(|(p, s, _)| {
                if with_solutions {
                    format!("{} {}\n", p.to_line(), s.to_line())
                } else {
                    format!("{}\n", p.to_line())
                }
            })
            .collect();
        text.push_str("# a comment, then a malformed record\n123\n");
        std::fs::write(&path, text).unwrap();
        let out = dir.path().join(format!("arrays{with_solutions}"));
        let r = run(&[
            "export",
            path.to_str().unwrap(),
            "--to",
            "npy",
            "-j",
            "2",
            "--chunk-size",
            "1000",
            "--out-dir",
            out.to_str().unwrap(),
        ]);
        assert_eq!(r.code, 1, "the malformed record fails: {}", r.stderr);
        assert!(
            r.stderr
                .contains(&format!(":{}: malformed", records.len() + 2)),
            "{}",
            r.stderr
        );
        let n = records.len();
        let (d, shape, inputs) = read_npy(&out.join("inputs.npy"));
        assert_eq!((d.as_str(), shape), ("|u1", vec![n, 81]));
        let (d, shape, labels) = read_npy(&out.join("labels.npy"));
        assert_eq!((d.as_str(), shape), ("|u1", vec![n, 81]));
        let (d, shape, group) = read_npy(&out.join("group.npy"));
        assert_eq!((d.as_str(), shape), ("<i8", vec![n]));
        assert_eq!(
            (inputs.len(), labels.len(), group.len()),
            (81 * n, 81 * n, 8 * n)
        );
        let groups: Vec<i64> = group
            .chunks_exact(8)
            .map(|b| i64::from_le_bytes(b.try_into().unwrap()))
            .collect();
        // Groups: one number per class, numbered in order of first appearance.
        let mut number_of: HashMap<usize, i64> = HashMap::new();
        for (k, (p, s, class)) in records.iter().enumerate() {
            assert_eq!(&inputs[81 * k..81 * k + 81], p.cells(), "row {k}");
            assert_eq!(&labels[81 * k..81 * k + 81], s.cells(), "row {k}");
            let next = number_of.len() as i64;
            assert_eq!(
                groups[k],
                *number_of.entry(*class).or_insert(next),
                "row {k}"
            );
        }
        let json = std::fs::read_to_string(out.join("dataset.json")).unwrap();
        let json: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(json["rows"], n);
        assert_eq!(json["classes"], number_of.len());
        assert_eq!(json["failed"], 1);
        let (given, solved) = if with_solutions { (n, 0) } else { (0, n) };
        assert_eq!(
            (json["labels_given"].clone(), json["labels_solved"].clone()),
            (given.into(), solved.into())
        );
        assert_eq!(json["shapes"]["inputs"], serde_json::json!([n, 81]));
        let leftovers: Vec<_> = std::fs::read_dir(&out)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .filter(|f| f.starts_with('.'))
            .collect();
        assert!(leftovers.is_empty(), "{leftovers:?}");
        // numpy, when it is installed, reads the same arrays.
        let check = format!(
            "import numpy as np, sys\n\
             d = sys.argv[1]\n\
             x = np.load(d + '/inputs.npy'); y = np.load(d + '/labels.npy'); g = np.load(d + '/group.npy')\n\
             assert x.shape == ({n}, 81) and x.dtype == np.uint8, x.shape\n\
             assert y.shape == ({n}, 81) and y.dtype == np.uint8\n\
             assert g.shape == ({n},) and g.dtype == np.int64\n\
             assert ((x == 0) | (x == y)).all(), 'labels keep the givens'\n\
             assert (np.sort(y, axis=1) == np.repeat(np.arange(1, 10), 9)).all()\n\
             assert g.max() + 1 == {}\n",
            number_of.len()
        );
        match std::process::Command::new("python3")
            .args(["-c", "import numpy"])
            .status()
        {
            Ok(s) if s.success() => {
                let st = std::process::Command::new("python3")
                    .args(["-c", &check, out.to_str().unwrap()])
                    .status()
                    .unwrap();
                assert!(st.success(), "numpy's check");
            }
            _ => skipped("numpy is not installed: the arrays are not read by numpy"),
        }
    }
}

/// The records of `records(classes, seed)` as a CSV `id,puzzle,level`, each class's level drawn from its class
/// number so that the strata hold `sizes` classes each (the same level for every record of a class).
fn stratified_csv(sizes: &[usize], seed: u64) -> (Vec<(String, usize)>, String, Vec<usize>) {
    let total: usize = sizes.iter().sum();
    let input = records(total, seed);
    // Class c is in the stratum whose range of class numbers holds it, after a fixed shuffle of the numbers.
    let mut order: Vec<usize> = (0..total).collect();
    let mut draw = Draw(seed.wrapping_mul(3) | 1);
    for i in (1..total).rev() {
        order.swap(i, (draw.next() % (i as u64 + 1)) as usize);
    }
    let mut level = vec![0; total];
    let mut at = 0;
    for (s, &n) in sizes.iter().enumerate() {
        for &c in &order[at..at + n] {
            level[c] = s;
        }
        at += n;
    }
    let mut text = String::from("id,puzzle,level\n");
    for (i, (r, c)) in input.iter().enumerate() {
        text.push_str(&format!("{i},{r},L{}\n", level[*c]));
    }
    (input, text, level)
}

#[test]
fn split_holds_each_stratum_within_a_percent_also_small_ones_at_any_threads_and_from_stdin() {
    // A stratum of 300 classes (where independent draws would often miss by more than 1%), one of 2,606 (the size
    // of the stratum that missed by 1.18 points), one of 5,000.
    let sizes = [300, 2606, 5000];
    let (input, text, level) = stratified_csv(&sizes, 31);
    let dir = tempdir();
    let path = dir.path().join("set.csv");
    std::fs::write(&path, &text).unwrap();
    let name = path.to_str().unwrap();
    let split = |out: &std::path::Path, extra: &[&str], stdin: Option<&[u8]>| {
        let mut args = vec![
            "split",
            "--test",
            "0.2",
            "--val",
            "0.1",
            "--seed",
            "4",
            "--stratify",
            "level",
        ];
        args.extend_from_slice(extra);
        args.extend(["--out-dir", out.to_str().unwrap()]);
        let r = match stdin {
            Some(bytes) => run_in(None, &args, bytes),
            None => run(&args),
        };
        assert_eq!(r.code, 0, "{}", r.stderr);
        // Named as the first input: `.txt` for standard input, which has no extension.
        let ext = if stdin.is_some() { "txt" } else { "csv" };
        ["train", "val", "test"].map(|s| std::fs::read(out.join(format!("{s}.{ext}"))).unwrap())
    };
    let out = dir.path().join("sets");
    let files = split(&out, &[name, "-j", "1"], None);
    let mut sides = Vec::new();
    for (side, bytes) in ["train", "val", "test"].iter().zip(&files) {
        let text = String::from_utf8(bytes.clone()).unwrap();
        let mut lines = text.lines();
        assert_eq!(lines.next(), Some("id,puzzle,level"));
        let rows: Vec<String> = lines
            .map(|l| l.split(',').nth(1).unwrap().to_string())
            .collect();
        sides.push((*side, rows));
    }
    check_sides(&input, &sides);
    // Per stratum: the classes on each side, against the fractions.
    let class_of: HashMap<&str, usize> = input.iter().map(|(r, c)| (r.as_str(), *c)).collect();
    for (s, &n) in sizes.iter().enumerate() {
        for ((side, rows), f) in sides.iter().zip([0.7, 0.1, 0.2]) {
            let classes: HashSet<usize> = rows
                .iter()
                .map(|r| class_of[r.as_str()])
                .filter(|&c| level[c] == s)
                .collect();
            let got = classes.len() as f64 / n as f64;
            assert!(
                (got - f).abs() < 0.01,
                "stratum {s} ({n} classes): {side} holds {got}"
            );
        }
    }
    // The same bytes with two threads and small chunks, and from standard input, plain or compressed.
    for (k, extra) in [
        &["-j", "2", "--chunk-size", "777"][..],
        &["-j", "2", "--chunk-size", "100"],
    ]
    .iter()
    .enumerate()
    {
        let again = dir.path().join(format!("again{k}"));
        let mut args = vec![name];
        args.extend_from_slice(extra);
        assert!(split(&again, &args, None) == files, "{extra:?}");
    }
    let piped = dir.path().join("piped");
    assert!(
        split(&piped, &["-", "-j", "2"], Some(text.as_bytes())) == files,
        "stdin"
    );
    let leftovers: Vec<_> = std::fs::read_dir(&piped)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|f| f.starts_with('.'))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut gz, text.as_bytes()).unwrap();
    let gz = gz.finish().unwrap();
    let packed = dir.path().join("packed");
    assert!(split(&packed, &["-"], Some(&gz)) == files, "gzip on stdin");
    let file = dir.path().join("set.csv.gz");
    std::fs::write(&file, &gz).unwrap();
    let from_file = dir.path().join("fromfile");
    assert!(
        split(&from_file, &[file.to_str().unwrap(), "-j", "2"], None) == files,
        "a gzip file"
    );
}

#[cfg(feature = "parquet")]
#[test]
fn export_of_a_table_writes_the_arrays_of_the_same_rows_in_csv() {
    use arrow_array::{Int64Array, RecordBatch, StringArray};
    use std::sync::Arc;
    // data/puzzles.txt's puzzles, each as two random equivalent copies; every third without its answer (solved);
    // a malformed row and a wrong answer, which fail.
    let mut draw = Draw(5);
    let mut rows: Vec<(String, String)> = Vec::new();
    for (i, (p, s)) in pairs().iter().enumerate() {
        for _ in 0..2 {
            let t = Transform::random(2, draw.next());
            let (p, s) = (t.apply(&p.parse().unwrap()), t.apply(&s.parse().unwrap()));
            let answer = if i % 3 == 0 {
                String::new()
            } else {
                s.to_line()
            };
            rows.push((p.to_line(), answer));
        }
    }
    rows.insert(7, ("123".into(), String::new()));
    let (p, s) = pairs()[0].clone();
    rows.insert(20, (p, s.replace('1', "x")));
    let dir = tempdir();
    let csv = dir.path().join("set.csv");
    let mut text = String::from("id,puzzle,answer\n");
    for (i, (p, a)) in rows.iter().enumerate() {
        text.push_str(&format!("{i},{p},{a}\n"));
    }
    std::fs::write(&csv, text).unwrap();
    let batch = RecordBatch::try_from_iter([
        (
            "id",
            Arc::new(Int64Array::from_iter_values(0..rows.len() as i64)) as _,
        ),
        (
            "puzzle",
            Arc::new(StringArray::from_iter_values(
                rows.iter().map(|r| r.0.as_str()),
            )) as _,
        ),
        (
            "answer",
            Arc::new(StringArray::from_iter_values(
                rows.iter().map(|r| r.1.as_str()),
            )) as _,
        ),
    ])
    .unwrap();
    let parquet = dir.path().join("set.parquet");
    let props = parquet::file::properties::WriterProperties::builder()
        .set_max_row_group_size(50)
        .build();
    crate::tables::write_parquet(&parquet, &batch, Some(props));
    let feather = dir.path().join("set.arrow");
    let mut w = arrow_ipc::writer::FileWriter::try_new(
        std::fs::File::create(&feather).unwrap(),
        &batch.schema(),
    )
    .unwrap();
    w.write(&batch).unwrap();
    w.finish().unwrap();
    let export = |input: &std::path::Path, name: &str, extra: &[&str]| {
        let out = dir.path().join(name);
        let mut args = vec!["export", input.to_str().unwrap(), "--to", "npy"];
        args.extend_from_slice(extra);
        args.extend(["--out-dir", out.to_str().unwrap()]);
        let r = run(&args);
        assert_eq!(r.code, 1, "two rows fail: {}", r.stderr);
        assert!(r.stderr.contains("malformed"), "{}", r.stderr);
        let json: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(out.join("dataset.json")).unwrap())
                .unwrap();
        assert_eq!(json["rows"], rows.len() - 2);
        assert_eq!(json["failed"], 2);
        let leftovers = std::fs::read_dir(&out)
            .unwrap()
            .filter(|e| {
                e.as_ref()
                    .unwrap()
                    .file_name()
                    .to_string_lossy()
                    .starts_with('.')
            })
            .count();
        assert_eq!(leftovers, 0);
        ["inputs", "labels", "group"].map(|f| std::fs::read(out.join(format!("{f}.npy"))).unwrap())
    };
    let from_csv = export(&csv, "csv", &[]);
    let (_, shape, _) = read_npy(&dir.path().join("csv/inputs.npy"));
    assert_eq!(shape, vec![rows.len() - 2, 81]);
    for (input, name, extra) in [
        (&parquet, "parquet", &["-j", "1"][..]),
        (&parquet, "parquet2", &["-j", "2"]),
        (&feather, "feather", &["-j", "2"]),
    ] {
        let got = export(input, name, extra);
        for (f, (a, b)) in ["inputs", "labels", "group"]
            .iter()
            .zip(from_csv.iter().zip(&got))
        {
            assert!(a == b, "{name}: {f}.npy differs from the CSV's");
        }
    }
}
