//! [`Page`]: the explanation page of `sudoku explain --html`: one self-contained HTML document (no scripts, no
//! external resources) in which every step of a puzzle's solving path is drawn as an SVG of the grid before the
//! step (givens, digits placed so far, candidates; the step's cells, placement and eliminations highlighted)
//! beside the step's text.

use std::fmt::Write as _;

use crate::grid::Grid;
use crate::solver::{self, SolveError};

use super::candidates::Candidates;
use super::distribution::xml;
use super::explainer::{Event, Explainer};
use super::house::CellSet;
use super::rater::Scale;
use super::rating::RateError;
use super::rating::Tally;
use super::se::{Proof, SePath, SeTally, Tenths};
use super::transcript::line_of;

/// Side of a cell in the drawings, in SVG user units.
const CELL: f64 = 44.0;
/// Room left and above the grid for the row and column labels.
const MARGIN: f64 = 22.0;

/// The colours of the drawings, also named in the page's legend.
const GIVEN: &str = "#000000";
const PLACED: &str = "#1f4fd1";
const CANDIDATE: &str = "#5c5c5c";
const HOUSE_FILL: &str = "#e8f0ff";
const PATTERN_FILL: &str = "#fff1a8";
const PLACE_FILL: &str = "#bdf0b8";
const ELIMINATED: &str = "#c40000";
const ELIMINATED_FILL: &str = "#ffc2c2";
const GUESS_FILL: &str = "#ffd59e";
const STRONG: &str = "#138a13";
const WEAK: &str = "#d1571f";

/// An explanation page being built: puzzles are added one after another ([`Page::add`]), then
/// [`Page::finish`] gives the document.
#[derive(Debug)]
pub struct Page {
    scale: Scale,
    /// On SE's scale, the rating above which a path stops (as `explain --max-se`).
    se_max: Option<Tenths>,
    body: String,
    puzzles: usize,
    steps: usize,
}

/// What a step highlights on the grid before it.
#[derive(Default)]
struct Marks {
    /// The cells of the pattern's houses.
    houses: CellSet,
    /// The pattern's cells.
    cells: CellSet,
    /// The digit placed.
    place: Option<(usize, u8)>,
    /// The candidates removed.
    eliminate: Vec<(usize, u8)>,
    /// A guess's cell and digit.
    guess: Option<(usize, u8)>,
    /// A chain step's chains, drawn as arrows from each candidate to the one it follows from.
    proof: Option<Proof>,
}

impl Page {
    /// An empty page for paths on `scale`.
    pub fn new(scale: Scale) -> Page {
        Page {
            scale,
            se_max: None,
            body: String::new(),
            puzzles: 0,
            steps: 0,
        }
    }

    /// The page whose SE paths stop before the first step SE rates above `max`.
    pub fn with_se_max(mut self, max: Tenths) -> Page {
        self.se_max = Some(max);
        self
    }

    /// Steps drawn so far, over every puzzle.
    pub fn steps(&self) -> usize {
        self.steps
    }

    /// Adds `puzzle`'s path: a heading with the puzzle and its rating, then one figure per step. A puzzle that
    /// is not proper (clashing givens, no solution, several solutions) adds nothing and is the error.
    pub fn add(&mut self, puzzle: &Grid) -> Result<(), RateError> {
        let start = self.body.len();
        let _ = write!(
            self.body,
            "<section>\n<h2>Puzzle {}: <code>{}</code></h2>\n",
            self.puzzles + 1,
            line_of(puzzle)
        );
        // The rating, known once the path is walked, goes right under the heading.
        let at = self.body.len();
        let rating = match self.scale {
            Scale::Se => self.add_se(puzzle),
            Scale::Levels => self.add_levels(puzzle),
        };
        match rating {
            Ok(rating) => {
                self.body.insert_str(at, &rating);
                self.body.push_str("</section>\n");
                self.puzzles += 1;
                Ok(())
            }
            Err(e) => {
                self.body.truncate(start);
                Err(e)
            }
        }
    }

    /// The SE path, each step with its SE rating; returns the rating's paragraph.
    fn add_se(&mut self, puzzle: &Grid) -> Result<String, RateError> {
        let max = self.se_max.unwrap_or(Tenths(u8::MAX));
        let mut path = SePath::new(puzzle)?.within(max).proving();
        let mut tally = SeTally::default();
        let mut n = 0;
        loop {
            let before = *path.candidates();
            let Some(step) = path.next() else { break };
            tally.add(&step);
            n += 1;
            let mut text = step.to_string();
            if let Some(proof) = &step.pattern.proof {
                let mut lines = Vec::new();
                // Writing into memory cannot fail.
                let _ = proof.write_text(&mut lines, "");
                text.push('\n');
                text.push_str(String::from_utf8_lossy(&lines).trim_end());
            }
            let marks = Marks {
                houses: step
                    .pattern
                    .houses
                    .iter()
                    .fold(CellSet::EMPTY, |all, h| all | h.cells()),
                cells: step.pattern.cells,
                place: step.placement,
                eliminate: step.eliminations.iter().collect(),
                guess: None,
                proof: step.pattern.proof.map(|p| *p),
            };
            self.figure(puzzle, &before, &marks, n, &text);
        }
        let solved = path.is_solved();
        let end = if solved {
            format!(
                "solved: <code>{}</code>",
                line_of(&path.candidates().grid())
            )
        } else {
            format!("stopped: no step SE rates {max} or less applies")
        };
        let _ = writeln!(self.body, "<p class=\"end\">{end}</p>");
        let rating = tally.rating_below(solved, path.ceiling());
        let rating = format!(
            "<p class=\"rating\">SE rating (ER EP ED hardest): {}</p>\n",
            xml(&rating.to_string())
        );
        Ok(rating)
    }

    /// The levels path: techniques easiest first, guesses and backtracks where none applies; returns the rating's
    /// paragraph.
    fn add_levels(&mut self, puzzle: &Grid) -> Result<String, RateError> {
        // A rating needs one solution: the path itself only shows that one exists.
        match solver::solve_unique(puzzle) {
            Ok(_) => {}
            Err(SolveError::InvalidGivens(c)) => return Err(RateError::InvalidGivens(c)),
            Err(SolveError::MultipleSolutions { .. }) => return Err(RateError::MultipleSolutions),
            Err(_) => return Err(RateError::NoSolution),
        }
        let mut path = Explainer::new(puzzle)?;
        let mut tally = Tally::default();
        let mut n = 0;
        loop {
            let before = *path.candidates();
            let Some(event) = path.next() else { break };
            tally.add(&event);
            let marks = match &event {
                Event::Step { step, .. } => Marks {
                    place: step.placement,
                    eliminate: step.eliminations.iter().collect(),
                    ..Marks::default()
                },
                Event::Guess { cell, digit, .. } => Marks {
                    guess: Some((*cell, *digit)),
                    ..Marks::default()
                },
                Event::Backtrack { cell, digit, .. } => Marks {
                    eliminate: vec![(*cell, *digit)],
                    ..Marks::default()
                },
                Event::Solved { solution } => {
                    let _ = writeln!(
                        self.body,
                        "<p class=\"end\">solved: <code>{}</code></p>",
                        line_of(solution)
                    );
                    continue;
                }
                Event::Stalled { .. } | Event::Contradiction { .. } | Event::NoSolution { .. } => {
                    let _ = writeln!(
                        self.body,
                        "<p class=\"note\">{}</p>",
                        xml(&event.to_string())
                    );
                    continue;
                }
            };
            n += 1;
            self.figure(puzzle, &before, &marks, n, &event.to_string());
        }
        let rating = tally.rating();
        let hardest = rating.hardest.map_or("none".to_string(), |t| t.to_string());
        Ok(format!(
            "<p class=\"rating\">rating: {} (score {}, {} guesses, hardest technique: {})</p>\n",
            rating.level,
            rating.score,
            rating.guesses,
            xml(&hardest)
        ))
    }

    /// One step: its drawing and its text.
    fn figure(&mut self, puzzle: &Grid, before: &Candidates, marks: &Marks, n: usize, text: &str) {
        self.steps += 1;
        self.body.push_str("<figure>\n");
        draw(&mut self.body, puzzle, before, marks, self.steps);
        let (head, chains) = text.split_once('\n').unwrap_or((text, ""));
        let _ = write!(
            self.body,
            "<figcaption><span class=\"n\">{n}.</span> {}",
            xml(head)
        );
        if !chains.is_empty() {
            let _ = write!(self.body, "<pre class=\"chain\">{}</pre>", xml(chains));
        }
        self.body.push_str("</figcaption>\n</figure>\n");
    }

    /// The whole document.
    pub fn finish(self) -> String {
        let mut page = String::with_capacity(self.body.len() + 2048);
        page.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
        let _ = writeln!(
            page,
            "<title>Sudoku solving path{}</title>",
            if self.puzzles == 1 { "" } else { "s" }
        );
        let _ = writeln!(
            page,
            "<style>\nbody {{ font-family: DejaVu Sans, Arial, sans-serif; margin: 1.5em; color: #111; }}\n\
             h2 code, p code {{ font-size: 0.85em; word-break: break-all; }}\n\
             figure {{ display: inline-block; vertical-align: top; width: {w}px; margin: 0 1.2em 1.5em 0; }}\n\
             figcaption {{ font-size: 0.9em; margin-top: 0.3em; }}\n\
             .n {{ font-weight: bold; }}\n\
             .legend span {{ display: inline-block; padding: 0 0.4em; margin-right: 0.5em; border: 1px solid #999; }}\n\
             svg text {{ text-anchor: middle; dominant-baseline: central; }}\n\
             .g, .p {{ font-size: 26px; }}\n.g {{ font-weight: bold; fill: {GIVEN}; }}\n.p {{ fill: {PLACED}; }}\n\
             .k, .kx, .kp {{ font-size: 11px; }}\n.k {{ fill: {CANDIDATE}; }}\n\
             .kx {{ font-weight: bold; fill: {ELIMINATED}; }}\n.kp {{ font-weight: bold; fill: {PLACED}; }}\n\
             .l {{ font-size: 11px; fill: #777777; }}\n\
             pre.chain {{ font-size: 0.8em; white-space: pre-wrap; margin: 0.3em 0 0 0; }}\n\
             </style>\n</head>\n<body>",
            w = (MARGIN + 9.0 * CELL + 2.0) as u32
        );
        let _ = writeln!(
            page,
            "<p class=\"legend\">Before each step: <span style=\"color:{GIVEN};font-weight:bold\">givens</span>\
             <span style=\"color:{PLACED}\">placed</span><span style=\"color:{CANDIDATE}\">candidates</span>\
             <span style=\"background:{HOUSE_FILL}\">the step's houses</span>\
             <span style=\"background:{PATTERN_FILL}\">its cells</span>\
             <span style=\"background:{PLACE_FILL}\">the digit it places</span>\
             <span style=\"background:{ELIMINATED_FILL};color:{ELIMINATED}\">candidates it removes</span>\
             <span style=\"background:{GUESS_FILL}\">a guess</span>\
             <span style=\"color:{STRONG}\">a chain's link to a candidate on</span>\
             <span style=\"color:{WEAK}\">to a candidate off</span></p>"
        );
        page.push_str(&self.body);
        page.push_str("</body>\n</html>\n");
        page
    }
}

/// The centre of candidate `digit` (1-9) of `cell`, in the drawing's units.
fn candidate_at(cell: usize, digit: u8) -> (f64, f64) {
    let (r, c) = ((cell / 9) as f64, (cell % 9) as f64);
    let k = f64::from(digit - 1);
    let sub = CELL / 3.0;
    (
        MARGIN + c * CELL + ((k % 3.0) + 0.5) * sub,
        MARGIN + r * CELL + ((k / 3.0).floor() + 0.5) * sub,
    )
}

/// Appends the arrows of a chain step's chains: from each candidate's first parent to it, solid green to a candidate
/// turned on, dashed orange to one turned off; the assumption of each branch ringed. Markers are named after the
/// figure (`id`), so that every name in the page is its own.
fn arrows(out: &mut String, proof: &Proof, id: usize) {
    let _ = writeln!(
        out,
        "<defs><marker id=\"on{id}\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"6\" markerHeight=\"6\" \
         orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"{STRONG}\"/></marker>\
         <marker id=\"off{id}\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"6\" markerHeight=\"6\" \
         orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"{WEAK}\"/></marker></defs>"
    );
    for branch in &proof.branches {
        if let Some(first) = branch.first() {
            let (x, y) = candidate_at(usize::from(first.potential.cell), first.potential.digit);
            let _ = writeln!(
                out,
                "<circle class=\"chain\" cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"6.5\" fill=\"none\" stroke=\"{STRONG}\" stroke-width=\"1.5\"/>"
            );
        }
        for link in branch {
            let Some(&from) = link.from.first() else {
                continue;
            };
            let Some(parent) = branch.get(from as usize) else {
                continue;
            };
            let (a, b) = (parent.potential, link.potential);
            let (x1, y1) = candidate_at(usize::from(a.cell), a.digit);
            let (x2, y2) = candidate_at(usize::from(b.cell), b.digit);
            // Stop short of both candidates' digits.
            let (dx, dy) = (x2 - x1, y2 - y1);
            let len = (dx * dx + dy * dy).sqrt();
            if len < 1.0 {
                continue;
            }
            let (ux, uy) = (dx / len * 6.0, dy / len * 6.0);
            let (colour, dash, marker) = if b.on {
                (STRONG, "", "on")
            } else {
                (WEAK, " stroke-dasharray=\"4 3\"", "off")
            };
            let _ = writeln!(
                out,
                "<line class=\"chain\" x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke=\"{colour}\" \
                 stroke-width=\"1.6\"{dash} marker-end=\"url(#{marker}{id})\"/>",
                x1 + ux,
                y1 + uy,
                x2 - ux,
                y2 - uy
            );
        }
    }
}

/// Appends the SVG of the grid `c` (of `puzzle`) with the step's `marks`; `id` names the figure.
fn draw(out: &mut String, puzzle: &Grid, c: &Candidates, marks: &Marks, id: usize) {
    let side = MARGIN + 9.0 * CELL + 2.0;
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{side}\" height=\"{side}\" viewBox=\"0 0 {side} {side}\" \
         role=\"img\">\n<rect width=\"{side}\" height=\"{side}\" fill=\"#ffffff\"/>"
    );
    for i in 0..9 {
        let at = MARGIN + (i as f64 + 0.5) * CELL;
        let _ = writeln!(
            out,
            "<text class=\"l\" x=\"{at}\" y=\"{:.1}\">c{}</text><text class=\"l\" x=\"{:.1}\" y=\"{at}\">r{}</text>",
            MARGIN / 2.0,
            i + 1,
            MARGIN / 2.0,
            i + 1
        );
    }
    shade(out, marks);
    for i in 0..=9 {
        let at = MARGIN + i as f64 * CELL;
        let (w, colour) = if i % 3 == 0 {
            (2.0, "#000")
        } else {
            (0.6, "#999")
        };
        let (a, b) = (MARGIN, MARGIN + 9.0 * CELL);
        let _ = writeln!(
            out,
            "<line x1=\"{at}\" y1=\"{a}\" x2=\"{at}\" y2=\"{b}\" stroke=\"{colour}\" stroke-width=\"{w}\"/>\
             <line x1=\"{a}\" y1=\"{at}\" x2=\"{b}\" y2=\"{at}\" stroke=\"{colour}\" stroke-width=\"{w}\"/>"
        );
    }
    write_digits(out, puzzle, c, marks);
    if let Some(proof) = &marks.proof {
        arrows(out, proof, id);
    }
    out.push_str("</svg>\n");
}

/// The fills of the step's houses, pattern cells, placed or guessed cell, and removed candidates.
fn shade(out: &mut String, marks: &Marks) {
    let fill = |out: &mut String, cell: usize, colour: &str| {
        let _ = writeln!(
            out,
            "<rect x=\"{}\" y=\"{}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"{colour}\"/>",
            MARGIN + (cell % 9) as f64 * CELL,
            MARGIN + (cell / 9) as f64 * CELL
        );
    };
    for cell in (marks.houses & !marks.cells).iter() {
        fill(out, cell, HOUSE_FILL);
    }
    for cell in marks.cells.iter() {
        fill(out, cell, PATTERN_FILL);
    }
    if let Some((cell, _)) = marks.place {
        fill(out, cell, PLACE_FILL);
    }
    if let Some((cell, _)) = marks.guess {
        fill(out, cell, GUESS_FILL);
    }
    for &(cell, digit) in &marks.eliminate {
        let (x, y) = candidate_at(cell, digit);
        let _ = writeln!(
            out,
            "<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"6.5\" fill=\"{ELIMINATED_FILL}\"/>"
        );
    }
}

/// The grid's digits (givens and placed) and each open cell's candidates, marked as removed or placed by the step.
fn write_digits(out: &mut String, puzzle: &Grid, c: &Candidates, marks: &Marks) {
    for (cell, &given) in puzzle.cells().iter().enumerate() {
        let (x, y) = (
            MARGIN + ((cell % 9) as f64 + 0.5) * CELL,
            MARGIN + ((cell / 9) as f64 + 0.5) * CELL,
        );
        let value = c.value(cell);
        if value != 0 {
            let class = if given != 0 { "g" } else { "p" };
            let _ = writeln!(
                out,
                "<text class=\"{class}\" x=\"{x}\" y=\"{y}\">{value}</text>"
            );
            continue;
        }
        for digit in c.get(cell).iter() {
            let (x, y) = candidate_at(cell, digit);
            let removed = marks.eliminate.contains(&(cell, digit));
            let placed = marks.place == Some((cell, digit)) || marks.guess == Some((cell, digit));
            let class = if removed {
                "kx"
            } else if placed {
                "kp"
            } else {
                "k"
            };
            let _ = writeln!(
                out,
                "<text class=\"{class}\" x=\"{x:.1}\" y=\"{y:.1}\">{digit}</text>"
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PUZZLE: &str =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

    fn page(scale: Scale, puzzle: &str) -> (String, usize) {
        let mut p = Page::new(scale);
        p.add(&puzzle.parse().unwrap()).unwrap();
        let steps = p.steps();
        (p.finish(), steps)
    }

    /// Each step is a figure with one drawing; the page names no resource outside itself.
    #[test]
    fn a_page_has_one_drawing_per_step_and_nothing_external() {
        for scale in [Scale::Levels, Scale::Se] {
            let (html, steps) = page(scale, PUZZLE);
            assert!(steps > 20, "{steps}");
            assert_eq!(html.matches("<svg ").count(), steps);
            assert_eq!(html.matches("</svg>").count(), steps);
            assert_eq!(html.matches("<figure>").count(), steps);
            assert!(html.starts_with("<!DOCTYPE html>") && html.ends_with("</html>\n"));
            // The only URL is SVG's namespace name, which is never fetched.
            assert_eq!(
                html.matches("http").count(),
                html.matches("http://www.w3.org/2000/svg").count()
            );
            assert!(!html.contains("<script") && !html.contains("<link") && !html.contains("<img"));
            assert!(html.contains("solved: <code>"));
        }
    }

    /// The first drawing shows the givens in bold and every candidate of the start; each step's removals are marked
    /// in the drawing before it.
    #[test]
    fn drawings_show_givens_candidates_and_removals() {
        let grid: Grid = PUZZLE.parse().unwrap();
        let (html, _) = page(Scale::Se, PUZZLE);
        let first = &html[html.find("<svg ").unwrap()..html.find("</svg>").unwrap()];
        assert_eq!(
            first.matches("<text class=\"g\"").count(),
            grid.clue_count()
        );
        assert_eq!(first.matches("<text class=\"p\"").count(), 0);
        let start = Candidates::new(&grid).unwrap();
        let open: usize = (0..81)
            .filter(|&c| start.value(c) == 0)
            .map(|c| start.get(c).len() as usize)
            .sum();
        let candidates =
            ["k", "kx", "kp"].map(|k| first.matches(&format!("<text class=\"{k}\" ")).count());
        assert_eq!(candidates.iter().sum::<usize>(), open);
        // Every removal circle sits under a red candidate, and there are removals.
        let circles = html
            .matches(&format!("fill=\"{ELIMINATED_FILL}\"/>"))
            .count();
        assert!(circles > 0);
        assert_eq!(circles, html.matches("<text class=\"kx\" ").count());
    }

    /// A chain step's drawing has an arrow for every link of its chains that follows from another, and its
    /// caption the chains in the forum's notation; other steps have neither.
    #[test]
    fn chain_steps_draw_their_links() {
        let hard =
            "7.....4...2..7..8...3..8..9...5..3...6..2..9...1..7..6...3..9...3..4..6...9..1..5";
        let (html, _) = page(Scale::Se, hard);
        let figures: Vec<&str> = html.split("<figure>").skip(1).collect();
        let mut path = SePath::new(&hard.parse().unwrap()).unwrap().proving();
        let mut chained = 0;
        for (i, figure) in figures.iter().enumerate() {
            let step = path.next().unwrap();
            let links = step.pattern.proof.as_ref().map_or(0, |p| {
                p.branches
                    .iter()
                    .flatten()
                    .filter(|l| !l.from.is_empty())
                    .count()
            });
            assert_eq!(
                figure.matches("<line class=\"chain\"").count(),
                links,
                "step {}",
                i + 1
            );
            assert_eq!(
                figure.contains("<pre class=\"chain\">"),
                step.pattern.proof.is_some()
            );
            chained += usize::from(links > 0);
        }
        assert!(path.next().is_none());
        assert!(chained > 10, "{chained}");
    }

    #[test]
    fn improper_puzzles_add_nothing() {
        let mut p = Page::new(Scale::Se);
        let several: Grid =
            "................................................................................."
                .parse()
                .unwrap();
        assert!(matches!(p.add(&several), Err(RateError::MultipleSolutions)));
        assert_eq!(p.steps(), 0);
        assert!(!p.finish().contains("<section>"));
    }

    #[test]
    fn text_is_xml() {
        assert_eq!(xml("a<b & \"c\">"), "a&lt;b &amp; &quot;c&quot;&gt;");
    }
}
