//! `explain --json` end to end (every path as data, on the batch pipeline), `rate --json`'s technique counts,
//! `rate --stats json`'s histogram and `rate --plot`'s chart. Paths are replayed with the rules alone; ratings are
//! checked against serate's, written in `data/se_sample.txt`.

use std::io::{BufRead, BufReader, Write};
use std::process::Stdio;

use serde_json::Value;

use super::util::{puzzle_lines, read_data, run, run_in, solves, sudoku, tempdir};

/// The JSON objects of a run's standard output, one a line.
fn objects(out: &str) -> Vec<Value> {
    out.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// The first `n` records of `data/se_sample.txt`: the puzzle and serate's `ER EP ED`.
fn se_sample(n: usize) -> Vec<(String, String)> {
    puzzle_lines(&read_data("se_sample.txt"))
        .into_iter()
        .take(n)
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f[0].to_string(), f[1..4].join(" "))
        })
        .collect()
}

/// Replays the steps of an SE path on the puzzle's digits (placements only; `solution` is checked by the rules
/// alone): each placement fills an open cell with the solution's digit, no elimination removes the solution's
/// digit; gives the grid at the end.
fn replay(puzzle: &str, solution: &str, steps: &[Value]) -> Vec<u8> {
    let sol = solution.as_bytes();
    let mut cells: Vec<u8> = puzzle
        .bytes()
        .map(|b| if b == b'.' { b'0' } else { b })
        .collect();
    let cell = |t: &Value| {
        let t: Vec<u64> = t
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap())
            .collect();
        ((t[0] - 1) * 9 + t[1] - 1, b'0' + t[2] as u8)
    };
    for s in steps {
        for t in s["eliminate"].as_array().unwrap() {
            let (c, d) = cell(t);
            assert_ne!(sol[c as usize], d, "{puzzle}: {s}");
        }
        for t in s["place"].as_array().unwrap() {
            let (c, d) = cell(t);
            assert_eq!(cells[c as usize], b'0', "{puzzle}: {s}");
            assert_eq!(sol[c as usize], d, "{puzzle}: {s}");
            cells[c as usize] = d;
        }
    }
    cells
}

#[test]
fn explain_json_gives_every_se_path_in_order_with_serates_ratings() {
    let sample = se_sample(40);
    let dir = tempdir();
    let input = dir.path().join("se.txt");
    let text: String = sample.iter().map(|(p, _)| format!("{p}\n")).collect();
    std::fs::write(&input, text).unwrap();
    let input = input.to_str().unwrap();
    let one = run(&["explain", "--json", "--scale", "se", "-q", "-j", "1", input]);
    assert_eq!(one.code, 0, "{}", one.stderr);
    // The same bytes on two threads, and into an -o file.
    let out = dir.path().join("paths.jsonl");
    let two = run(&[
        "explain",
        "--json",
        "--scale",
        "se",
        "-q",
        "-j2",
        input,
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(two.code, 0, "{}", two.stderr);
    assert_eq!(std::fs::read(&out).unwrap(), one.stdout);
    let records = objects(&one.out());
    assert_eq!(records.len(), sample.len());
    for (i, (v, (p, serate))) in records.iter().zip(&sample).enumerate() {
        assert_eq!(v["line"], i + 1);
        assert_eq!(v["puzzle"], p.as_str());
        assert_eq!(v["status"], "explained");
        let solution = v["solution"].as_str().unwrap();
        assert!(solves(p, solution), "{p} {solution}");
        let ratings: Vec<String> = ["er", "ep", "ed"]
            .iter()
            .map(|k| format!("{:.1}", v[k].as_f64().unwrap()))
            .collect();
        assert_eq!(ratings.join(" "), *serate, "{p}");
        let steps = v["steps"].as_array().unwrap();
        let top = steps
            .iter()
            .map(|s| s["rating"].as_f64().unwrap())
            .fold(0.0, f64::max);
        assert_eq!(format!("{top:.1}"), ratings[0]);
        assert_eq!(
            replay(p, solution, steps),
            solution.as_bytes(),
            "{p}: not every cell placed"
        );
    }
}

#[test]
fn explain_json_reads_every_format_and_marks_failures_as_rate_does() {
    // A compressed file, a grid file and a CSV: one object per record, the puzzle as read.
    let gz = run(&["explain", "--json", "-q", "data/puzzles.txt.gz"]);
    assert_eq!(gz.code, 0, "{}", gz.stderr);
    let plain = run(&["explain", "--json", "-q", "data/puzzles.txt"]);
    assert_eq!(gz.stdout, plain.stdout);
    let records = objects(&plain.out());
    let puzzles = puzzle_lines(&read_data("puzzles.txt"));
    assert_eq!(records.len(), puzzles.len());
    let rated = objects(&run(&["rate", "--json", "-q", "data/puzzles.txt"]).out());
    for ((v, p), r) in records.iter().zip(&puzzles).zip(&rated) {
        assert_eq!(v["puzzle"], p.as_str());
        for key in ["line", "level", "score", "guesses", "hardest"] {
            assert_eq!(v[key], r[key], "{key} of {p}");
        }
        assert!(v["steps"]
            .as_array()
            .unwrap()
            .iter()
            .all(|s| s["depth"].is_u64()));
    }
    let grid = run(&["explain", "--json", "-q", "data/grid.txt"]);
    assert_eq!(grid.code, 0, "{}", grid.stderr);
    assert_eq!(objects(&grid.out()).len(), 10);
    let csv = run(&["explain", "--json", "-q", "data/kaggle.csv"]);
    let csv = objects(&csv.out());
    assert_eq!(csv.len(), 20);
    assert!(csv
        .iter()
        .all(|v| v["status"] == "explained" && v["line"].as_u64() > Some(1)));
    // Failures: the same statuses, lines and errors as `rate --json`, and exit code 1.
    let bad = run(&["explain", "--json", "-q", "data/bad.txt"]);
    assert_eq!(bad.code, 1);
    let rated = run(&["rate", "--json", "-q", "data/bad.txt"]);
    let (bad, rated) = (objects(&bad.out()), objects(&rated.out()));
    assert_eq!(bad.len(), rated.len());
    let mut failed = 0;
    for (v, r) in bad.iter().zip(&rated) {
        assert_eq!(v["line"], r["line"]);
        if r["status"] == "rated" {
            assert_eq!(v["status"], "explained");
        } else {
            failed += 1;
            assert_eq!((&v["status"], &v["error"]), (&r["status"], &r["error"]));
            assert!(v.get("steps").is_none());
        }
    }
    assert!(failed > 0);
}

#[test]
fn explain_json_streams_before_the_input_ends() {
    // A pipe held open after 1 MiB of records (32 chunks of `explain --json`): the first objects come before the
    // input's end.
    let mut child = sudoku()
        .args(["explain", "--json", "-q", "-"])
        .current_dir(super::util::ROOT)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    // The Kaggle puzzles, quick to explain.
    let puzzles: Vec<String> = read_data("kaggle.csv")
        .lines()
        .skip(1)
        .map(|l| l.split(',').next().unwrap().to_string())
        .collect();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let (tx, rx) = std::sync::mpsc::channel();
    // The first line is handed over; the rest is read and dropped, so that the child never waits on its output.
    let reader = std::thread::spawn(move || {
        let _ = tx.send(lines.next().map(|l| l.unwrap()));
        lines.for_each(drop);
    });
    let block: String = puzzles.iter().map(|p| format!("{p}\n")).collect();
    for _ in 0..(1 << 20) / block.len() + 1 {
        input.write_all(block.as_bytes()).unwrap();
    }
    input.flush().unwrap();
    let first = rx.recv_timeout(std::time::Duration::from_secs(120));
    let _ = child.kill();
    drop(input);
    let _ = child.wait();
    reader.join().unwrap();
    let first = first
        .expect("no object while the input was still open")
        .unwrap();
    let v: Value = serde_json::from_str(&first).unwrap();
    assert_eq!(v["line"], 1);
    assert_eq!(v["puzzle"], puzzles[0].as_str());
}

#[test]
fn explain_without_json_keeps_one_input_and_refuses_batch_flags() {
    let p = &puzzle_lines(&read_data("puzzles.txt"))[0];
    let r = run(&["explain", "-o", "x.txt", p]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("-o works with --json only"),
        "{}",
        r.stderr
    );
    let r = run(&["explain", p, p]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("with --json"), "{}", r.stderr);
    let r = run(&["explain", "--json", "--candidates", p]);
    assert_eq!(r.code, 2);
    // A puzzle given as text is one record too.
    let r = run_in(None, &["explain", "--json", "-q", p], b"");
    assert_eq!(objects(&r.out()).len(), 1);
}

#[test]
fn rate_json_counts_each_techniques_steps() {
    let r = run(&["rate", "--json", "-q", "data/puzzles.txt"]);
    let explained = objects(&run(&["explain", "--json", "-q", "data/puzzles.txt"]).out());
    for (v, e) in objects(&r.out()).iter().zip(&explained) {
        let counts = v["techniques"].as_object().unwrap();
        let steps = e["steps"].as_array().unwrap();
        for (name, n) in counts {
            let used = steps
                .iter()
                .filter(|s| s["technique"] == name.as_str())
                .count();
            assert_eq!(n.as_u64(), Some(used as u64), "{name} in {v}");
        }
        let guesses = steps.iter().filter(|s| s["technique"] == "guess").count();
        let backtracks = steps
            .iter()
            .filter(|s| s["technique"] == "backtrack")
            .count();
        let total: u64 = counts.values().map(|n| n.as_u64().unwrap()).sum();
        assert_eq!(total as usize + guesses + backtracks, steps.len());
        assert_eq!(v["guesses"], guesses);
    }
}

#[test]
fn rate_stats_json_holds_the_histogram_and_plot_draws_it() {
    let dir = tempdir();
    let svg = dir.path().join("levels.svg");
    let r = run(&[
        "rate",
        "--stats",
        "json",
        "data/puzzles.txt",
        "-o",
        "/dev/null",
        "--plot",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let summary: Value = serde_json::from_str(r.stderr.trim()).unwrap();
    assert_eq!(summary["records"], 100);
    let h = &summary["histogram"];
    assert_eq!(h["scale"], "levels");
    let levels = h["levels"].as_object().unwrap();
    assert_eq!(
        levels.values().map(|n| n.as_u64().unwrap()).sum::<u64>(),
        100
    );
    // The levels as `rate` writes them, counted here.
    let out = run(&["rate", "-q", "data/puzzles.txt"]).out();
    let svg = std::fs::read_to_string(&svg).unwrap();
    for (level, n) in levels {
        let counted = out
            .lines()
            .filter(|l| l.split(' ').nth(1) == Some(level.as_str()))
            .count();
        assert_eq!(n.as_u64(), Some(counted as u64), "{level}");
        // The chart has the level's bar and its count.
        let label = format!("<title>{level}: {counted}</title>");
        assert!(svg.contains(&label), "{label} in {svg}");
    }
    assert!(svg.contains("Ratings of 100 puzzles by level"));
    // The text histogram is still there without --stats json.
    let r = run(&["rate", "data/puzzles.txt", "-o", "/dev/null"]);
    assert!(
        r.stderr.contains("level         puzzles   share"),
        "{}",
        r.stderr
    );
    // An unwritable chart is an error, found before any puzzle is rated (no ratings file appears), with its
    // cause.
    let ratings = dir.path().join("ratings.txt");
    let rate_with_plot = |plot: &str| {
        run(&[
            "rate",
            "-q",
            "data/puzzles.txt",
            "-o",
            ratings.to_str().unwrap(),
            "--plot",
            plot,
        ])
    };
    let r = rate_with_plot("/nonexistent/x.svg");
    assert_eq!(r.code, 2);
    assert!(
        r.stderr
            .contains("/nonexistent/x.svg: cannot create output file: No such file or directory"),
        "{}",
        r.stderr
    );
    assert!(!ratings.exists());
    // A chart named as the ratings' file, by the same path or another spelling of it, is refused before any
    // rating (the chart replaced the ratings); the user's file there is left as it was.
    std::fs::write(&ratings, "mine\n").unwrap();
    let other = dir.path().join(".").join("ratings.txt");
    for plot in [&ratings, &other] {
        let r = rate_with_plot(plot.to_str().unwrap());
        assert_eq!(r.code, 2, "{}", r.stderr);
        assert!(
            r.stderr.contains("names the file -o writes"),
            "{}",
            r.stderr
        );
        assert_eq!(std::fs::read_to_string(&ratings).unwrap(), "mine\n");
    }
}

/// `explain --scale se` as text: each chain step is followed by its chains in the forum's notation, one line per
/// branch, indented under it; `--brief` gives the same text without those lines (the one-line conclusions).
#[test]
fn explain_text_shows_se_chains_unless_brief() {
    let p = "7.8...3.....2.1...5.........4.....263...8.......1...9..9.6....4....7.5...........";
    let full = run(&["explain", "--scale", "se", p]);
    let brief = run(&["explain", "--scale", "se", "--brief", p]);
    assert_eq!((full.code, brief.code), (0, 0));
    let (full, brief) = (
        String::from_utf8(full.stdout).unwrap(),
        String::from_utf8(brief.stdout).unwrap(),
    );
    let chains: Vec<&str> = full.lines().filter(|l| l.starts_with("     ")).collect();
    let rest: Vec<&str> = full.lines().filter(|l| !l.starts_with("     ")).collect();
    assert_eq!(rest.join("\n") + "\n", brief);
    assert!(!brief.contains(" -> "));
    // Step 8: r9c2=2 leads to r7c7 both 2 and not 2.
    let lines: Vec<&str> = full.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with("  8. Nishio Forcing Chain 7.9: => r9c2<>2"))
        .unwrap();
    assert_eq!(
        lines[at + 1],
        "     r9c2=2 -> r1c2<>2 -> r1c9=2 -> r3c7<>2 -> r7c7=2 [r9c7<>2]"
    );
    assert_eq!(
        lines[at + 2],
        "     r9c2=2 -> r9c1<>2 -> r6c1=2 [r7c1<>2, r8c1<>2] -> r6c5<>2 -> r7c5=2 [r9c5<>2] -> r7c7<>2"
    );
    assert!(lines[at + 3].starts_with("  9. "));
    // Every step of SE's chain techniques has its lines, every other step none.
    for (i, l) in lines.iter().enumerate() {
        if l.len() > 5 && l.as_bytes()[3] == b'.' && l[..3].trim().parse::<u32>().is_ok() {
            let chain_step = l.contains("Chain") || l.contains("Cycle");
            let next = lines.get(i + 1).copied().unwrap_or("");
            assert_eq!(chain_step, next.starts_with("     r"), "{l}");
        }
    }
    assert!(chains.len() > 50);
}
