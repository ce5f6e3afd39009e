//! `explain`, `rate` and `generate --puzzles` end to end: exit codes, output records and their order, messages
//! with positions, reproducibility from the seed, and the properties of what comes out (checked with the
//! library's solver and the rules checker of `util`, not with the code that made it).

use sudoku_batch::human::{rate, Level};
use sudoku_batch::{count_solutions, solve_unique, Grid};

use super::util::{puzzle_lines, read_data, run, run_in, solves, tempdir, Run};

/// `sudoku` with the words of `line` as arguments.
fn words(line: &str) -> Run {
    run(&line.split_whitespace().collect::<Vec<_>>())
}

const HARD: &str =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
/// From the forum's hardest list: the techniques stall at once.
const STALLS: &str =
    "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3";

/// The first record of a `data/` file.
fn first_record(name: &str) -> String {
    puzzle_lines(&read_data(name)).remove(0)
}

#[test]
fn explain_names_every_step_and_ends_with_the_solution_and_rating() {
    let r = run(&["explain", HARD]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let out = r.out();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], format!("puzzle: {HARD}"));
    let steps: Vec<&str> = lines.iter().filter(|l| l.contains(". ")).copied().collect();
    assert!(steps.len() > 50);
    for (n, l) in steps.iter().enumerate() {
        let (num, what) = l.trim_start().split_once(". ").unwrap();
        assert_eq!(num.parse::<usize>().unwrap(), n + 1, "{l}");
        assert!(
            what.contains(" = ") || what.contains("<>"),
            "a step that places or eliminates nothing: {l}"
        );
    }
    let solved = lines[lines.len() - 2].strip_prefix("solved: ").unwrap();
    assert!(solves(HARD, solved));
    assert!(lines[lines.len() - 1].starts_with("rating: "));
}

#[test]
fn explain_shows_candidates_and_guesses_with_levels() {
    let r = run(&["explain", "--candidates", HARD]);
    assert_eq!(r.code, 0);
    let out = r.out();
    // One grid at the start and one after each step (4 rules of +--- each).
    let grids = out.lines().filter(|l| l.starts_with("+-")).count() / 4;
    let steps = out.lines().filter(|l| l.contains(". ")).count();
    assert!(grids >= steps, "{grids} grids for {steps} steps");

    let r = run(&["explain", STALLS]);
    assert_eq!(r.code, 0);
    let out = r.out();
    assert!(out.contains("no technique applies: guessing"));
    assert!(out.contains("guess (level 1): r"));
    assert!(out.contains("contradiction (level "));
    assert!(out.contains("backtrack to level "));
    // Lines under a guess are indented by their level.
    assert!(out
        .lines()
        .any(|l| l.starts_with("         guess (level 2)")));
    let solved = out
        .lines()
        .find_map(|l| l.strip_prefix("solved: "))
        .unwrap();
    assert!(solves(STALLS, solved));
}

#[test]
fn explain_reads_a_file_and_reports_bad_puzzles() {
    // The first puzzle of a file in the 9-line notation.
    let r = run(&["explain", "data/grid.txt"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let first = first_record("puzzles.txt");
    assert!(r.out().starts_with(&format!("puzzle: {first}\n")));

    // Every puzzle of a file is explained, a blank line between them; `-` reads standard input.
    let puzzles = puzzle_lines(&read_data("puzzles.txt"));
    let text = format!("{}\n# comment\n{}\n", puzzles[0], puzzles[1]);
    let r = run_in(None, &["explain", "-"], text.as_bytes());
    assert_eq!(r.code, 0, "{}", r.stderr);
    let out = r.out();
    let heads: Vec<&str> = out
        .lines()
        .filter_map(|l| l.strip_prefix("puzzle: "))
        .collect();
    assert_eq!(heads.len(), 2);
    let solved: Vec<String> = r
        .out()
        .lines()
        .filter_map(|l| l.strip_prefix("solved: "))
        .map(str::to_string)
        .collect();
    assert!(solves(&puzzles[0], &solved[0]) && solves(&puzzles[1], &solved[1]));
    let r = run_in(
        None,
        &["explain", "-"],
        format!("{}\n12x\n", puzzles[0]).as_bytes(),
    );
    assert_eq!(r.code, 1);
    assert_eq!(
        r.stderr,
        "sudoku: <stdin>:2: malformed: cell 3 (row 1, col 3): invalid character 'x'\n"
    );

    // The rule of `solve`: an argument that is no file and not puzzle text is a file that cannot be opened.
    let r = run(&["explain", "12x"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.starts_with("sudoku: 12x: "), "{}", r.stderr);
    let r = run(&["explain", "123456789x"]);
    assert_eq!(r.code, 2);

    let r = run(&["explain", &first_record("several_solutions.txt")]);
    assert_eq!(r.code, 1);
    assert!(r.out().contains("more than one solution"));
    assert_eq!(r.stderr, "sudoku: <argument>: more than one solution\n");

    let r = run(&["explain", &first_record("no_solution.txt")]);
    assert_eq!(r.code, 1);
    assert!(r.out().lines().last().unwrap().starts_with("no solution: "));

    let clash = format!("11{}", ".".repeat(79));
    let r = run(&["explain", &clash]);
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("clashing givens: row 1 has two 1s"));
}

#[test]
fn rate_gives_one_line_per_puzzle_in_order_whatever_the_threads() {
    let r = run(&["rate", "-j", "2", "data/puzzles.txt"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let out = r.out();
    let puzzles = puzzle_lines(&read_data("puzzles.txt"));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), puzzles.len());
    for (line, puzzle) in lines.iter().zip(&puzzles) {
        let f: Vec<&str> = line.split(' ').collect();
        assert_eq!(f.len(), 5, "{line}");
        assert_eq!(f[0], puzzle);
        let level: Level = f[1].parse().unwrap();
        let guesses: u32 = f[3].parse().unwrap();
        assert!(f[2].parse::<u32>().unwrap() > 0);
        if guesses > 0 {
            assert_eq!(level, Level::Expert, "{line}");
        }
        // The same rating as the library gives.
        let r = rate(&puzzle.parse().unwrap()).unwrap();
        assert_eq!(r.to_string(), f[1..].join(" "));
    }
    assert!(
        r.stderr.starts_with("sudoku: 100 records, 100 rated; "),
        "{}",
        r.stderr
    );
    for level in ["simple", "easy", "intermediate", "expert"] {
        assert!(
            r.stderr.lines().any(|l| l.starts_with(level)),
            "{}",
            r.stderr
        );
    }
    let one = run(&["rate", "-j", "1", "data/puzzles.txt"]);
    assert_eq!(one.stdout, r.stdout);
}

#[test]
fn rate_marks_bad_records_in_place_and_goes_on() {
    let r = run(&["rate", "data/bad.txt", "data/puzzles.txt"]);
    assert_eq!(r.code, 1);
    let out = r.out();
    let lines: Vec<&str> = out.lines().collect();
    let bad = puzzle_lines(&read_data("bad.txt"));
    let good = puzzle_lines(&read_data("puzzles.txt"));
    assert_eq!(lines.len(), bad.len() + good.len());
    assert!(
        lines[0].starts_with(&format!("{} ", bad[0])),
        "{}",
        lines[0]
    );
    assert_eq!(lines[0].split(' ').count(), 5);
    assert_eq!(
        lines[1],
        "error: malformed: cell 17 (row 2, col 8): invalid character 'x'"
    );
    assert_eq!(lines[2], "error: malformed: expected 81 cells, found 80");
    assert_eq!(
        lines[3],
        "error: clashing givens: row 4 has two 7s (r4c2, r4c6)"
    );
    assert_eq!(lines[5], "error: no solution");
    for (l, p) in lines[bad.len()..].iter().zip(&good) {
        assert!(l.starts_with(p.as_str()), "{l}");
    }
    assert!(r.stderr.contains(
        "sudoku: data/bad.txt:2: malformed: cell 17 (row 2, col 8): invalid character 'x'\n"
    ));
    assert!(r.stderr.contains("sudoku: data/bad.txt:6: no solution\n"));
    assert!(r.stderr.contains("failed records 4"), "{}", r.stderr);

    let r = run(&["rate", "data/several_solutions.txt"]);
    assert_eq!(r.code, 1);
    assert!(r
        .out()
        .lines()
        .all(|l| l == "error: more than one solution"));
}

fn grids(out: &str) -> Vec<Grid> {
    out.lines().map(|l| l.parse().unwrap()).collect()
}

#[test]
fn generated_puzzles_are_unique_minimal_and_reproducible() {
    let a = words("generate --puzzles 40 --format line --seed 5 -j 1");
    assert_eq!(a.code, 0, "{}", a.stderr);
    assert!(a
        .stderr
        .starts_with("sudoku: generated 40 puzzles (seed 5, "));
    let b = words("generate --puzzles 40 --format line --seed 5 -j 2");
    assert_eq!(a.stdout, b.stdout, "the thread count changed the output");
    let c = words("generate --puzzles 40 --format line --seed 6");
    assert_ne!(a.stdout, c.stdout);
    let puzzles = grids(&a.out());
    assert_eq!(puzzles.len(), 40);
    for p in puzzles.iter().take(8) {
        assert!(solve_unique(p).is_ok(), "{p}");
        for cell in (0..81).filter(|&c| p.get(c) != 0) {
            let mut fewer = *p;
            fewer.set(cell, 0);
            assert_eq!(
                count_solutions(&fewer, 2).unwrap().solutions,
                2,
                "{p} is not minimal"
            );
        }
    }
    // The grid format holds the same puzzles, and a file output the same bytes.
    let g = words("generate --puzzles 40 --seed 5");
    let boards: Vec<String> = g
        .out()
        .split("\n\n")
        .map(|b| b.split_whitespace().collect::<String>().replace('0', "."))
        .collect();
    assert_eq!(boards, a.out().lines().collect::<Vec<_>>());
    let dir = tempdir();
    let path = dir.path().join("p.txt");
    let f = run(&[
        "generate",
        "--puzzles",
        "40",
        "--format",
        "line",
        "--seed",
        "5",
        "-o",
        path.to_str().unwrap(),
    ]);
    assert_eq!(f.code, 0);
    assert!(f.stdout.is_empty());
    assert_eq!(std::fs::read(&path).unwrap(), a.stdout);
}

#[test]
fn generated_puzzles_meet_clues_symmetry_and_difficulty() {
    let r = words("generate --puzzles 6 --format line --clues 30 --symmetry rotate180 --seed 1");
    assert_eq!(r.code, 0, "{}", r.stderr);
    for p in grids(&r.out()) {
        assert_eq!(p.clue_count(), 30);
        assert!(solve_unique(&p).is_ok());
        for cell in 0..81 {
            assert_eq!(
                p.get(cell) == 0,
                p.get(80 - cell) == 0,
                "{p} is not symmetric"
            );
        }
    }
    let r = words("generate --puzzles 6 --format line --difficulty intermediate --seed 1");
    assert_eq!(r.code, 0);
    for p in grids(&r.out()) {
        assert_eq!(rate(&p).unwrap().level, Level::Intermediate);
    }
}

#[test]
fn generate_puzzles_refuses_goals_it_cannot_meet() {
    let r = words("generate --puzzles 1 --clues 16");
    assert_eq!(r.code, 2);
    assert!(r
        .stderr
        .contains("--clues 16: a puzzle with one solution has 17 to 81 clues"));
    let r = words("generate --puzzles 1 --clues 30 --symmetry rotate90");
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("cannot be made with --symmetry rotate90"));
    for bad in [
        "generate --puzzles 1 --clues 30 --difficulty easy",
        "generate --puzzles 1 --difficulty hard",
        "generate --clues 30",
        "generate 5 --puzzles 1",
        "generate --puzzles 1 --random",
    ] {
        let r = words(bad);
        assert_eq!(r.code, 2, "{bad}");
        assert_eq!(r.stderr.lines().count(), 1, "{bad}: {}", r.stderr);
    }
    assert!(words("generate --puzzles 1 --difficulty hard")
        .stderr
        .contains("simple, easy, intermediate, expert"));
}

/// A board run (N without --puzzles) refuses the options only puzzle runs read, instead of making boards that
/// ignore them (it used to write N solved boards and exit 0).
#[test]
fn generate_boards_refuse_puzzle_options() {
    for (args, flag) in [
        ("generate 3 --difficulty easy --format line", "--difficulty"),
        ("generate 3 --clues 30", "--clues"),
        ("generate 3 --symmetry rotate180", "--symmetry"),
        ("generate 3 --er 7..8", "--er"),
    ] {
        let r = words(args);
        assert_eq!(r.code, 2, "{args}");
        assert!(r.out().is_empty(), "{args}: {}", r.out());
        assert!(
            r.stderr
                .contains(&format!("{flag} makes puzzles: add --puzzles COUNT")),
            "{args}: {}",
            r.stderr
        );
    }
}

#[test]
fn rate_reads_grid_and_csv_records_and_keeps_them() {
    let puzzles = puzzle_lines(&read_data("puzzles.txt"));
    // A grid record keeps its nine rows; the rating follows on a tenth line.
    let r = run(&["rate", "-q", "data/grid.txt"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let input_boards: Vec<String> = read_data("grid.txt")
        .split("\n\n")
        .map(|b| b.trim().to_string())
        .filter(|b| !b.is_empty())
        .collect();
    let records: Vec<String> = r.out().split("\n\n").map(str::to_string).collect();
    assert_eq!(records.len(), 10);
    for ((got, p), board) in records.iter().zip(&puzzles).zip(&input_boards) {
        let lines: Vec<&str> = got.trim_end().lines().collect();
        assert_eq!(lines.len(), 10, "{got}");
        assert_eq!(lines[..9].join("\n"), *board);
        assert_eq!(lines[9], rate(&p.parse().unwrap()).unwrap().to_string());
    }
    // A CSV row keeps every field; four columns are appended.
    let r = run(&["rate", "-q", "data/kaggle.csv"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let input = read_data("kaggle.csv");
    let out = r.out();
    let mut lines = out.lines();
    assert_eq!(
        lines.next(),
        Some("quizzes,solutions,level,score,guesses,hardest")
    );
    let rows: Vec<&str> = input.lines().skip(1).collect();
    let mut n = 0;
    for (line, row) in lines.zip(&rows) {
        let (quiz, _) = row.split_once(',').unwrap();
        let rating = rate(&quiz.parse().unwrap()).unwrap();
        let hardest = rating.hardest.map_or("-", |t| t.name());
        assert_eq!(
            line,
            format!(
                "{row},{},{},{},{hardest}",
                rating.level, rating.score, rating.guesses
            )
        );
        n += 1;
    }
    assert_eq!(n, rows.len());
    // A failed CSV row keeps its fields too, the marker in the first new column.
    let clash = format!("11{}", "0".repeat(79));
    let bad = format!("quizzes,solutions\n{clash},x\n");
    let r = run_in(None, &["rate", "-q", "-"], bad.as_bytes());
    assert_eq!(r.code, 1);
    assert_eq!(
        r.out(),
        format!(
            "quizzes,solutions,level,score,guesses,hardest\n\
             {clash},x,\"error: clashing givens: row 1 has two 1s (r1c1, r1c2)\",,,\n"
        )
    );
}

/// The first `n` records of `data/se_sample.txt` with serate's `ER EP ED` (as written there).
fn se_sample(n: usize) -> Vec<(String, String)> {
    read_data("se_sample.txt")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .take(n)
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f[0].to_string(), f[1..4].join(" "))
        })
        .collect()
}

/// The first `n` puzzles of the serate sample with their ratings, and a directory holding them one per line as
/// `se.txt`.
fn se_sample_file(n: usize) -> (Vec<(String, String)>, tempfile::TempDir) {
    let sample = se_sample(n);
    let input: String = sample.iter().map(|(p, _)| format!("{p}\n")).collect();
    let dir = tempdir();
    std::fs::write(dir.path().join("se.txt"), input).unwrap();
    (sample, dir)
}

#[test]
fn rate_on_the_se_scale_gives_serates_ratings_in_order_in_every_format() {
    let (sample, dir) = se_sample_file(60);
    let path = dir.path().join("se.txt");
    let path = path.to_str().unwrap();
    let mut within = 0;
    for threads in ["1", "2"] {
        let r = run(&["rate", "--scale", "se", "-q", "-j", threads, path]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        let out = r.out();
        assert_eq!(out.lines().count(), sample.len());
        within = 0;
        for (line, (p, serate)) in out.lines().zip(&sample) {
            let f: Vec<&str> = line.split(' ').collect();
            assert_eq!(f[0], p.as_str());
            if f[1].starts_with('>') {
                // No technique of SE's ladder applies: serate gives up too (20.0, above the ladder's top).
                let er: f64 = serate.split(' ').next().unwrap().parse().unwrap();
                assert!(er > 10.5, "{line} / serate {serate}");
            } else {
                assert_eq!(f[1..4].join(" "), *serate, "{line}");
                within += 1;
            }
        }
    }
    assert!(within >= 30, "{within}");
    // JSON: numbers for er, ep, ed, or null with `above`.
    let r = run(&["rate", "--scale", "se", "--json", "-q", path]);
    for (l, (_, serate)) in r.out().lines().zip(&sample) {
        let v: serde_json::Value = serde_json::from_str(l).unwrap();
        assert_eq!(v["status"], "rated");
        if v["er"].is_null() {
            assert_eq!(v["above"].as_f64(), Some(9.9), "{l}");
        } else {
            let got: Vec<String> = ["er", "ep", "ed"]
                .iter()
                .map(|k| format!("{:.1}", v[k].as_f64().unwrap()))
                .collect();
            assert_eq!(got.join(" "), *serate, "{l}");
        }
    }
    // CSV: four columns appended, the input's kept.
    let r = run(&["rate", "--scale", "se", "-q", "data/kaggle.csv"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let out = r.out();
    assert_eq!(
        out.lines().next(),
        Some("quizzes,solutions,er,ep,ed,se_hardest")
    );
    assert_eq!(out.lines().count(), 21);
    // The default scale is unchanged.
    let r = run(&["rate", "-q", path]);
    assert!(r.out().lines().all(|l| l.split(' ').count() == 5));
}

#[test]
fn explain_on_the_se_scale_shows_each_step_rating_and_serates_er() {
    let (puzzle, serate) = se_sample(300)
        .into_iter()
        .find(|(_, s)| s.starts_with("3.4"))
        .expect("a hidden pair puzzle in the sample");
    let r = run(&["explain", "--scale", "se", &puzzle]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let out = r.out();
    let steps: Vec<&str> = out.lines().filter(|l| l.contains(". ")).collect();
    assert!(steps.len() > 20);
    for l in &steps {
        let (_, what) = l.trim_start().split_once(". ").unwrap();
        assert!(what.contains(" = ") || what.contains("<>"), "{l}");
        assert!(
            what.contains(" 1.") || what.contains(" 2.") || what.contains(" 3."),
            "{l}"
        );
    }
    assert!(steps.iter().any(|l| l.contains("Hidden Pair 3.4")));
    let last = out.lines().last().unwrap();
    assert_eq!(
        last,
        format!("SE rating (ER EP ED hardest): {serate} Hidden_Pair")
    );
    // A puzzle with several solutions is reported, not rated.
    let r = run(&["explain", "--scale", "se", &".".repeat(81)]);
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("solution"), "{}", r.stderr);
}

#[test]
fn rate_on_the_se_scale_reports_what_max_se_leaves_unknown_without_a_number() {
    // From the forum's hardest list of puzzles rated 11 and up by serate: SE's first step is a "(+ Multiple Forcing
    // Chains)" chain rated 11.1 (serate `--after='%r %S %s'`), above `--max-se 10.4`, where the rating stops: what
    // is not known is reported above 10.4, and the producers rating 10.5 and up (the last nesting level) are not
    // even asked.
    let p = "98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8...52....6";
    let r = run(&["rate", "--scale", "se", "--max-se", "10.4", "-q", p]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.out(), format!("{p} >10.4 >10.4 >10.4 beyond\n"));
    let r = run(&[
        "rate", "--scale", "se", "--max-se", "10.4", "--json", "-q", p,
    ]);
    let v: serde_json::Value = serde_json::from_str(r.out().trim()).unwrap();
    assert!(
        v["er"].is_null() && v["ep"].is_null() && v["ed"].is_null(),
        "{v}"
    );
    assert_eq!(v["above"].as_f64(), Some(10.4));
    let r = run(&["explain", "--scale", "se", "--max-se", "10.4", p]);
    assert!(
        r.out().contains(
            "stopped: no step SE rates 10.4 or less applies; the next one rates above 10.4"
        ),
        "{}",
        r.out()
    );
    let r = run(&["explain", "--max-se", "10.4", p]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("--scale se"), "{}", r.stderr);
}

#[test]
fn rate_on_the_se_scale_stops_above_max_se() {
    let (sample, dir) = se_sample_file(60);
    let path = dir.path().join("se.txt");
    let path = path.to_str().unwrap();
    let r = run(&["rate", "--scale", "se", "--max-se", "4.0", "-q", path]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let (mut within, mut above) = (0, 0);
    for (line, (p, serate)) in r.out().lines().zip(&sample) {
        let f: Vec<&str> = line.split(' ').collect();
        assert_eq!(f[0], p.as_str());
        // Each of ER, EP, ED is serate's when serate's is 4.0 or less, else `>4.0`.
        for (ours, theirs) in f[1..4].iter().zip(serate.split(' ')) {
            if theirs.parse::<f64>().unwrap() <= 4.0 {
                assert_eq!(*ours, theirs, "{line} / serate {serate}");
            } else {
                assert_eq!(*ours, ">4.0", "{line} / serate {serate}");
            }
        }
        if f[1] == ">4.0" {
            above += 1;
            assert_eq!(f[4], "beyond");
        } else {
            within += 1;
        }
    }
    assert!(within >= 10 && above >= 10, "{within} {above}");
    let r = run(&[
        "rate", "--scale", "se", "--max-se", "4.0", "--json", "-q", path,
    ]);
    let v: serde_json::Value = serde_json::from_str(r.out().lines().next().unwrap()).unwrap();
    // The first puzzle's ER is 4.2 (serate): above the limit, so unknown.
    assert!(v["er"].is_null(), "{v}");
    assert_eq!(v["above"].as_f64(), Some(4.0));
    // Only on SE's scale, and only ratings with one decimal.
    let r = run(&["rate", "--max-se", "4.0", "-q", path]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("--scale se"), "{}", r.stderr);
    let r = run(&["rate", "--scale", "se", "--max-se", "4.05", "-q", path]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("--max-se"), "{}", r.stderr);
}
