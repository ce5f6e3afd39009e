//! [`Narrator`]: the batch job behind `sudoku explain --json`: each puzzle's solving path as data, on either
//! [`Scale`]: one JSON object per record with the rating, the solution and every step (technique, rating, digits
//! placed, candidates removed). The batch pipeline reads, splits, orders and writes, as for the [`Rater`].

use std::fmt::Display;
use std::io::Write;

use crate::format::json::{json_key, json_str};
use crate::grid::Grid;
use crate::record::{CsvAnswer, Failure, Job, TextLayout};
use crate::solver;

use super::explainer::Event;
use super::rater::{Rater, Scale};
use super::rating::{rate_seeing, RatingFields, GUESS_WEIGHT};
use super::se::rate_se_seeing;
use super::se::{Potential, Proof, Tenths};
use super::step::{Ladder, Step};
use super::technique::TechniqueSet;

/// The name of a guess step on the level scale.
pub(crate) const GUESS: &str = "guess";
/// The name of a backtrack step on the level scale.
pub(crate) const BACKTRACK: &str = "backtrack";

/// Writes each record's solving path as data. In JSON Lines (the layout it is made for) a record answered gets,
/// after `"status":"explained"`:
/// - the rating fields of `rate --json` on the same scale (without `techniques`): `level`, `score`, `guesses`,
///   `hardest` on [`Scale::Levels`]; `er`, `ep`, `ed` (`null` with `above` when the path stopped before the end)
///   and `hardest` on [`Scale::Se`];
/// - `solution`: the puzzle's solution, 81 digits;
/// - `steps`: the path, in order, each step
///   `{"technique":NAME,"rating":R,"place":[[ROW,COL,DIGIT],...],"eliminate":[[ROW,COL,DIGIT],...]}` with 1-based
///   rows and columns: on SE's scale NAME is [`SeTechnique`](super::SeTechnique)'s name and R the step's SE rating;
///   on the level scale NAME is [`Technique`](super::Technique)'s name and R its weight, every step also has
///   `depth` (the guess level it was taken at), and guesses and backtracks are steps of their own (`guess`, weight
///   40, placing the digit tried at the new depth; `backtrack`, weight 0, back at `depth`: the candidates return to
///   what they were before the failed guess, then the guessed digit is removed from its cell); on SE's scale a
///   chain step also has `"chain":{"type":SHAPE,"branches":[[LINK,...],...]}`, the chains it follows from (read
///   back from the ladder's potentials as the step is taken; docs/explain-json.md gives the schema).
///
/// A placement removes its digit from the cell's peers without listing them. Records fail as for the [`Rater`]
/// (clashing givens, no solution, several solutions).
///
/// In a layout other than JSON the answer is the `steps` array alone (a CSV gets it quoted, in a `steps` column).
#[derive(Debug, Default)]
pub struct Narrator {
    scale: Scale,
    /// On [`Scale::Se`], the rating above which the path stops (no limit when `None`).
    se_max: Option<Tenths>,
}

impl Narrator {
    /// A narrator of the paths on `scale`.
    pub fn with_scale(scale: Scale) -> Narrator {
        Narrator {
            scale,
            se_max: None,
        }
    }

    /// The narrator whose paths on SE's scale stop before the first step SE rates above `max` (as `rate --max-se`
    /// stops rating).
    pub fn with_se_max(mut self, max: Tenths) -> Narrator {
        self.se_max = Some(max);
        self
    }

    /// Writes the rating fields, `solution` and `steps` of one puzzle's path (JSON layout), or the `steps` array
    /// alone.
    fn narrate(&self, puzzle: &Grid, json: bool, out: &mut Vec<u8>) -> Result<(), Failure> {
        // The steps are written as they are taken; the rating and the solution, known at the end, are written
        // after them and then moved in front of them.
        let start = out.len();
        if json {
            json_key(out, "steps");
        }
        out.push(b'[');
        let mut steps = Steps { out, first: true };
        match self.scale {
            Scale::Se => {
                let max = Rater::se_limit(self.se_max);
                let (rating, full) = rate_se_seeing(puzzle, max, true, |s| {
                    steps.step(s, None);
                    if let Some(proof) = &s.pattern.proof {
                        steps.chain(proof);
                    }
                    steps.out.push(b'}');
                })?;
                let solution = match full {
                    Some(g) => g,
                    // The path stopped before the end; it checked that the puzzle has one solution.
                    None => solver::solve(puzzle)?.solution,
                };
                finish(out, start, json, &rating, &solution);
            }
            Scale::Levels => {
                let mut solution = Grid::EMPTY;
                let rating = rate_seeing(puzzle, TechniqueSet::ALL, |e| match *e {
                    Event::Step { level, step } => {
                        steps.step(&step, Some(level));
                        steps.out.push(b'}');
                    }
                    Event::Guess {
                        level, cell, digit, ..
                    } => {
                        let placed = Some((cell, digit));
                        steps.write(GUESS, GUESS_WEIGHT, Some(level), placed, None.into_iter());
                        steps.out.push(b'}');
                    }
                    Event::Backtrack { level, cell, digit } => {
                        let removed = Some((cell, digit)).into_iter();
                        steps.write(BACKTRACK, 0, Some(level), None, removed);
                        steps.out.push(b'}');
                    }
                    Event::Solved { solution: s } => solution = s,
                    _ => {}
                })?;
                finish(out, start, json, &rating, &solution);
            }
        }
        Ok(())
    }
}

/// Closes the `steps` array written from `start` and, in the JSON layout, writes the rating fields and `solution`
/// and moves them in front of the steps.
fn finish(
    out: &mut Vec<u8>,
    start: usize,
    json: bool,
    rating: &impl RatingFields,
    solution: &Grid,
) {
    out.push(b']');
    if !json {
        return;
    }
    let steps_end = out.len();
    rating.write_json(out);
    json_key(out, "solution");
    let mut line = [0u8; 81];
    solution.write_line(&mut line, b'0');
    json_str(out, &line);
    out[start..].rotate_left(steps_end - start);
}

/// The steps array being written: each step after a comma but the first.
struct Steps<'a> {
    out: &'a mut Vec<u8>,
    first: bool,
}

impl Steps<'_> {
    /// Appends a technique step of either ladder but its closing brace: its name, its rating, `depth` when
    /// given, what it places and removes.
    fn step<T: Ladder>(&mut self, step: &Step<T>, depth: Option<u32>) {
        let removed = step.eliminations.iter();
        self.write(
            step.technique.name(),
            step.rating(),
            depth,
            step.placement,
            removed,
        );
    }

    /// Appends one step but its closing brace:
    /// `{"technique":NAME,"rating":R[,"depth":D],"place":[...],"eliminate":[...]`.
    fn write(
        &mut self,
        technique: &str,
        rating: impl Display,
        depth: Option<u32>,
        placed: Option<(usize, u8)>,
        removed: impl Iterator<Item = (usize, u8)>,
    ) {
        let out = &mut *self.out;
        if !self.first {
            out.push(b',');
        }
        self.first = false;
        out.extend_from_slice(b"{\"technique\":");
        json_str(out, technique.as_bytes());
        write!(out, ",\"rating\":{rating}").expect("writing to a Vec cannot fail");
        if let Some(d) = depth {
            write!(out, ",\"depth\":{d}").expect("writing to a Vec cannot fail");
        }
        out.extend_from_slice(b",\"place\":");
        cell_digits(out, placed.into_iter());
        out.extend_from_slice(b",\"eliminate\":");
        cell_digits(out, removed);
    }

    /// Appends a chain step's chains: `,"chain":{"type":SHAPE,"branches":[[LINK,...],...]}`, each link
    /// `{"on"|"off":[ROW,COL,DIGIT]}` with `"from":[I,...]` unless it follows from the link right before it alone
    /// (or is the first, the assumption), and `"inner":[[POTENTIAL,...],...]` for a nested chain's.
    fn chain(&mut self, proof: &Proof) {
        let out = &mut *self.out;
        out.extend_from_slice(b",\"chain\":{\"type\":");
        json_str(out, proof.shape.name().as_bytes());
        out.extend_from_slice(b",\"branches\":[");
        for (b, branch) in proof.branches.iter().enumerate() {
            if b > 0 {
                out.push(b',');
            }
            out.push(b'[');
            for (i, link) in branch.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                potential(out, link.potential, false);
                if i > 0 && link.from.as_slice() != [i as u32 - 1] {
                    out.extend_from_slice(b",\"from\":[");
                    for (j, f) in link.from.iter().enumerate() {
                        if j > 0 {
                            out.push(b',');
                        }
                        write!(out, "{f}").expect("writing to a Vec cannot fail");
                    }
                    out.push(b']');
                }
                if !link.inner.is_empty() {
                    out.extend_from_slice(b",\"inner\":[");
                    for (j, chain) in link.inner.iter().enumerate() {
                        if j > 0 {
                            out.push(b',');
                        }
                        out.push(b'[');
                        for (k, &p) in chain.iter().enumerate() {
                            if k > 0 {
                                out.push(b',');
                            }
                            potential(out, p, true);
                        }
                        out.push(b']');
                    }
                    out.push(b']');
                }
                out.push(b'}');
            }
            out.push(b']');
        }
        out.extend_from_slice(b"]}");
    }
}

/// Appends `{"on":[ROW,COL,DIGIT]` (or `"off"`), rows and columns 1-based; closed when `close`.
fn potential(out: &mut Vec<u8>, p: Potential, close: bool) {
    let (row, col) = (p.cell / 9 + 1, p.cell % 9 + 1);
    let state = if p.on { "on" } else { "off" };
    write!(out, "{{\"{state}\":[{row},{col},{}]", p.digit).expect("writing to a Vec cannot fail");
    if close {
        out.push(b'}');
    }
}

/// Appends `[[ROW,COL,DIGIT],...]`, rows and columns 1-based.
fn cell_digits(out: &mut Vec<u8>, items: impl Iterator<Item = (usize, u8)>) {
    out.push(b'[');
    for (i, (cell, digit)) in items.enumerate() {
        if i > 0 {
            out.push(b',');
        }
        let (row, col) = (cell / 9 + 1, cell % 9 + 1);
        write!(out, "[{row},{col},{digit}]").expect("writing to a Vec cannot fail");
    }
    out.push(b']');
}

impl Job for Narrator {
    fn json_status(&self) -> &'static str {
        "explained"
    }

    fn run(&self, puzzle: &Grid, layout: TextLayout, out: &mut Vec<u8>) -> Result<(), Failure> {
        match layout {
            TextLayout::Json => self.narrate(puzzle, true, out),
            TextLayout::Line | TextLayout::Grid => self.narrate(puzzle, false, out),
            TextLayout::CsvField => {
                // One field: quoted, its quotes doubled (RFC 4180).
                let mut steps = Vec::new();
                self.narrate(puzzle, false, &mut steps)?;
                out.push(b'"');
                for b in steps {
                    if b == b'"' {
                        out.push(b'"');
                    }
                    out.push(b);
                }
                out.push(b'"');
                Ok(())
            }
        }
    }

    fn csv_answer(&self) -> CsvAnswer {
        CsvAnswer::Append(&["steps"])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::batch::{self, BatchOptions, InputSpec};
    use crate::human::replay::{cells, check_chain, Board};
    use crate::human::{rate, rate_se, Technique};
    use crate::output::Target;
    use serde_json::Value;

    /// The puzzles of a data file (comments and blank lines left out; the first field of each line).
    fn puzzles(text: &str, n: usize) -> Vec<String> {
        text.lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .take(n)
            .map(|l| l.split_whitespace().next().unwrap().to_string())
            .collect()
    }

    /// The JSON Lines `job` writes for `lines` through the batch pipeline (2 threads, small chunks).
    fn run_json(job: &Narrator, lines: &[String]) -> Vec<Value> {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("paths.jsonl");
        let input = InputSpec::Bytes {
            name: "puzzles".into(),
            data: lines
                .iter()
                .map(|l| format!("{l}\n"))
                .collect::<String>()
                .into_bytes(),
        };
        let opts = BatchOptions {
            threads: crate::ordered::Threads::Count(2),
            chunk_size: 1000,
            json: true,
            ..BatchOptions::default()
        };
        batch::run_batch(vec![input], &Target::File(out.clone()), job, &opts, &mut ()).unwrap();
        std::fs::read_to_string(&out)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }

    /// Replays the SE paths `records` gives for `lines` (see [`se_paths_replay_to_the_solution`]), checking
    /// every chain step's chains on the grid it was taken on ([`check_chain`]); returns the (chain steps, links)
    /// checked.
    fn replay_se(records: &[Value], lines: &[String]) -> (usize, usize) {
        assert_eq!(records.len(), lines.len());
        let (mut chains, mut links, mut complete) = (0, 0, 0);
        for (v, p) in records.iter().zip(lines) {
            assert_eq!(v["puzzle"], p.as_str());
            assert_eq!(v["status"], "explained", "{v}");
            let puzzle: Grid = p.parse().unwrap();
            let solution: Grid = v["solution"].as_str().unwrap().parse().unwrap();
            assert!(solution.is_solution_of(&puzzle), "{p}");
            let r = rate_se(&puzzle).unwrap();
            let num = |t: Option<Tenths>| t.map(|t| Value::from(t.value()));
            assert_eq!(v["er"], num(r.er).unwrap_or(Value::Null), "{p}");
            assert_eq!(v["ep"], num(r.ep).unwrap_or(Value::Null), "{p}");
            assert_eq!(v["ed"], num(r.ed).unwrap_or(Value::Null), "{p}");
            let steps = v["steps"].as_array().unwrap();
            assert_eq!(steps.len() as u32, r.steps, "{p}");
            let mut board = Board::new(&puzzle);
            let mut top = 0.0f64;
            for s in steps {
                assert!(s.get("depth").is_none());
                let rating = s["rating"].as_f64().unwrap();
                top = top.max(rating);
                let n = check_chain(&board, s);
                chains += usize::from(n > 0);
                links += n;
                for (cell, d) in cells(&s["eliminate"]) {
                    assert_ne!(solution.get(cell), d, "{p}: {s}");
                    board.eliminate(cell, d);
                }
                for (cell, d) in cells(&s["place"]) {
                    assert_eq!(solution.get(cell), d, "{p}: {s}");
                    board.place(cell, d);
                }
                assert!(!s["technique"].as_str().unwrap().is_empty());
            }
            if r.er.is_some() {
                complete += 1;
                assert_eq!(
                    board.digits,
                    *solution.cells(),
                    "{p}: not every cell placed"
                );
                assert_eq!(Some(top), v["er"].as_f64(), "{p}");
            }
        }
        assert!(complete * 100 >= lines.len() * 95, "{complete}");
        (chains, links)
    }

    /// The first 300 puzzles of the serate sample: every path on SE's scale replays to the solution, each step
    /// removing only candidates that are still there and never the solution's digit, placing only the solution's
    /// digit in an open cell; the rating fields are `rate_se`'s and the records come in input order; every chain
    /// step carries chains that prove it on the grid it was taken on.
    #[test]
    fn se_paths_replay_to_the_solution() {
        let lines = puzzles(include_str!("../../data/se_sample.txt"), 300);
        let records = run_json(&Narrator::with_scale(Scale::Se), &lines);
        let (chains, links) = replay_se(&records, &lines);
        assert!(chains >= 20 && links > chains, "{chains} {links}");
    }

    /// Two puzzles of the hard sample whose paths take nested chains of the three levels ("(+ Forcing Chains)",
    /// "(+ Multiple Forcing Chains)", "(+ Dynamic Forcing Chains)"): their steps replay and every chain, inner
    /// chains included, is checked.
    #[test]
    fn se_nested_chains_prove_their_steps() {
        let all = puzzles(include_str!("../../data/se_sample_hard.txt"), usize::MAX);
        let lines = vec![all[46].clone(), all[69].clone()];
        let records = run_json(&Narrator::with_scale(Scale::Se), &lines);
        replay_se(&records, &lines);
        let text = records
            .iter()
            .map(|v| v.to_string())
            .collect::<Vec<_>>()
            .join("\n");
        for level in [
            "Forcing Chains",
            "Multiple Forcing Chains",
            "Dynamic Forcing Chains",
        ] {
            assert!(text.contains(&format!("(+ {level})")), "{level}");
        }
        assert!(text.contains("\"inner\":[["));
    }

    /// The same on the first 300 puzzles of the shared top1465 list (`$SUDOKU_SHARED_DATA`, else
    /// `../shared/data`), where many steps are dynamic and nested chains; skipped with a notice when absent.
    #[test]
    fn se_chains_prove_their_steps_on_the_shared_top1465() {
        let dir = std::env::var_os("SUDOKU_SHARED_DATA").map_or_else(
            || std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data"),
            std::path::PathBuf::from,
        );
        let file = dir.join("puzzles3_magictour_top1465");
        let Ok(text) = std::fs::read_to_string(&file) else {
            // Straight to standard error, past the harness's capture: a plain `cargo test` shows it.
            let _ = std::io::Write::write_all(
                &mut std::io::stderr(),
                format!(
                    "SKIPPED human::narrator::tests::se_chains_prove_their_steps_on_the_shared_top1465: {} not \
                     found (set SUDOKU_SHARED_DATA)\n",
                    file.display()
                )
                .as_bytes(),
            );
            return;
        };
        let lines = puzzles(&text, 300);
        assert_eq!(lines.len(), 300);
        let records = run_json(&Narrator::with_scale(Scale::Se), &lines);
        let (chains, links) = replay_se(&records, &lines);
        eprintln!("top1465: 300 paths replayed, {chains} chain steps, {links} links checked");
        assert!(chains >= 300, "{chains}");
    }

    /// The golden puzzles on the level scale, guesses included: replayed with a saved board per guess, the path
    /// ends on the solution; steps at depth 0 only place the solution's digits and never remove them; the rating
    /// fields are `rate`'s; the weights sum to the score.
    #[test]
    fn level_paths_replay_through_guesses_and_backtracks() {
        let lines = puzzles(include_str!("../../data/puzzles.txt"), 100);
        let records = run_json(&Narrator::default(), &lines);
        assert_eq!(records.len(), 100);
        let mut guessed = 0;
        for (v, p) in records.iter().zip(&lines) {
            assert_eq!(v["puzzle"], p.as_str());
            let puzzle: Grid = p.parse().unwrap();
            let r = rate(&puzzle).unwrap();
            assert_eq!(v["level"], r.level.name());
            assert_eq!(v["score"], r.score);
            assert_eq!(v["guesses"], r.guesses);
            let solution: Grid = v["solution"].as_str().unwrap().parse().unwrap();
            assert!(solution.is_solution_of(&puzzle));
            let mut board = Board::new(&puzzle);
            let mut saved: Vec<Board> = Vec::new();
            let mut score = 0;
            for s in v["steps"].as_array().unwrap() {
                let depth = s["depth"].as_u64().unwrap() as usize;
                let name = s["technique"].as_str().unwrap();
                score += s["rating"].as_u64().unwrap();
                match name {
                    GUESS => {
                        saved.push(board.clone());
                        assert_eq!(depth, saved.len());
                    }
                    BACKTRACK => {
                        board = saved.pop().expect("a guess to undo");
                        assert_eq!(depth, saved.len());
                    }
                    _ => {
                        assert_eq!(depth, saved.len());
                        assert!(name.parse::<Technique>().is_ok(), "{name}");
                    }
                }
                let certain = saved.is_empty() && name != BACKTRACK;
                for (cell, d) in cells(&s["eliminate"]) {
                    if certain {
                        assert_ne!(solution.get(cell), d, "{p}: {s}");
                    }
                    board.eliminate(cell, d);
                }
                for (cell, d) in cells(&s["place"]) {
                    if certain {
                        assert_eq!(solution.get(cell), d, "{p}: {s}");
                    }
                    board.place(cell, d);
                }
            }
            guessed += usize::from(r.guesses > 0);
            assert_eq!(score, u64::from(r.score), "{p}");
            assert_eq!(board.digits, *solution.cells(), "{p}");
        }
        assert!(guessed > 0);
    }

    #[test]
    fn failures_are_marked_and_other_layouts_get_the_steps_alone() {
        let records = run_json(
            &Narrator::with_scale(Scale::Se),
            &[".".repeat(81), format!("11{}", ".".repeat(79))],
        );
        assert_eq!(records[0]["status"], "several_solutions");
        assert_eq!(records[1]["status"], "clashing_givens");
        assert!(records.iter().all(|v| v.get("steps").is_none()));
        let p: Grid =
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
                .parse()
                .unwrap();
        let job = Narrator::default();
        let mut line = Vec::new();
        job.run(&p, TextLayout::Line, &mut line).unwrap();
        let steps: Value = serde_json::from_slice(&line).unwrap();
        let mut json = Vec::new();
        job.run(&p, TextLayout::Json, &mut json).unwrap();
        json[0] = b'{';
        json.push(b'}');
        let whole: Value = serde_json::from_slice(&json).unwrap();
        assert_eq!(whole["steps"], steps);
        let keys: Vec<&String> = whole.as_object().unwrap().keys().collect();
        assert_eq!(
            keys,
            ["level", "score", "guesses", "hardest", "solution", "steps"]
        );
        let mut csv = Vec::new();
        job.run(&p, TextLayout::CsvField, &mut csv).unwrap();
        let csv = String::from_utf8(csv).unwrap();
        let inner = csv.strip_prefix('"').unwrap().strip_suffix('"').unwrap();
        assert_eq!(
            inner.replace("\"\"", "\""),
            String::from_utf8(line).unwrap()
        );
    }
}
