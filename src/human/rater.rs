//! [`Rater`]: the batch job behind `sudoku rate`, on either [`Scale`]. The batch pipeline reads, splits, orders and
//! writes; the rater rates one puzzle per call and counts the ratings for the histogram at the end.

use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::format::json::{json_key, json_str};
use crate::grid::Grid;
use crate::record::{CsvAnswer, Failure, Job, TextLayout};

use super::explainer::Event;
use super::rating::{rate_seeing, Histogram, RateError, Rating, RatingFields};
use super::se::{rate_se_seeing, rate_se_within, SeHistogram, SeRating, Tenths, LADDER_TOP};
use super::technique::{Technique, TechniqueSet};

/// The scale a [`Rater`] rates on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Scale {
    /// Four levels, a score, guesses and the hardest technique ([`Rating`]).
    #[default]
    Levels,
    /// Sudoku Explainer's ER, EP and ED ([`SeRating`](super::se::SeRating)).
    Se,
}

/// Rates each record, keeping the record: a line record becomes `PUZZLE LEVEL SCORE GUESSES HARDEST` (the puzzle
/// with `.` blanks, then [`Rating`]'s fields); a grid record keeps its nine rows (`0` blanks) with the rating
/// fields on a tenth line; a CSV row keeps every field and gets four columns appended, `level,score,guesses,hardest`.
/// Puzzles without exactly one solution fail as the pipeline's other jobs do.
///
/// On [`Scale::Se`] the fields are [`SeRating`](super::se::SeRating)'s instead: `ER EP ED HARDEST` after a line's puzzle or on a grid's
/// tenth line, CSV columns `er,ep,ed,se_hardest`, JSON fields `er`, `ep`, `ed` (numbers, `null` when above the
/// ladder, with `above` giving the ladder's top) and `hardest`.
///
/// A JSON record also gets `techniques`, an object giving how many steps of the path used each technique (those
/// used at least once; on the level scale in [`Technique::ALL`] order, steps under guesses that failed counted
/// too; on SE's scale in the order of first use, by [`SeTechnique`](super::SeTechnique) name).
#[derive(Debug, Default)]
pub struct Rater {
    scale: Scale,
    /// On [`Scale::Se`], where to stop rating ([`LADDER_TOP`] when `None`).
    se_max: Option<Tenths>,
    se: [AtomicU64; SeHistogram::BANDS],
    levels: [AtomicU64; 4],
    hardest: [AtomicU64; Technique::ALL.len()],
    guessed: AtomicU64,
    full: AtomicU64,
    score_sum: AtomicU64,
}

impl Rater {
    /// A rater on `scale` with no counts (`Rater::default()` rates on [`Scale::Levels`]).
    pub fn with_scale(scale: Scale) -> Rater {
        Rater {
            scale,
            ..Rater::default()
        }
    }

    /// The rater that stops rating a puzzle on SE's scale at the first step SE rates above `max`, and reports it
    /// as above `max`.
    pub fn with_se_max(mut self, max: Tenths) -> Rater {
        self.se_max = Some(max);
        self
    }

    /// What every rating reported unknown is above.
    fn se_ceiling(&self) -> Tenths {
        self.se_max.map_or(LADDER_TOP, |m| m.min(LADDER_TOP))
    }

    /// The SE ratings counted so far (on [`Scale::Se`]); `failed` is left at 0.
    pub fn se_histogram(&self) -> SeHistogram {
        let mut h = SeHistogram {
            ceiling: self.se_ceiling(),
            ..SeHistogram::default()
        };
        for (n, a) in h.bands.iter_mut().zip(&self.se) {
            *n = a.load(Ordering::Relaxed);
        }
        h
    }

    /// The ratings counted so far; `failed` (which the pipeline counts) is left at 0.
    pub fn histogram(&self) -> Histogram {
        let load = |a: &AtomicU64| a.load(Ordering::Relaxed);
        let mut h = Histogram::default();
        for (n, a) in h.levels.iter_mut().zip(&self.levels) {
            *n = load(a);
        }
        for (n, a) in h.hardest.iter_mut().zip(&self.hardest) {
            *n = load(a);
        }
        h.guessed = load(&self.guessed);
        h.full = load(&self.full);
        h.score_sum = load(&self.score_sum);
        h
    }

    fn count(&self, r: &Rating) {
        let add = |a: &AtomicU64, n: u64| {
            a.fetch_add(n, Ordering::Relaxed);
        };
        add(&self.levels[r.level as usize], 1);
        add(&self.score_sum, u64::from(r.score));
        match (r.guesses, r.hardest) {
            (0, Some(t)) => add(&self.hardest[t.index()], 1),
            (0, None) => add(&self.full, 1),
            _ => add(&self.guessed, 1),
        }
    }
}

/// How many steps of a path used each technique, as `rate --json` gives them in `techniques`: those used at least
/// once; on the level scale in [`Technique::ALL`] order, on SE's in the order of first use.
pub type TechniqueCounts = Vec<(&'static str, u32)>;

/// The level rating of `puzzle` and how many steps of its path used each technique, by [`Technique::index`]
/// (steps under guesses that failed counted too): one walk of the path, nothing allocated.
pub(crate) fn rate_counting(
    puzzle: &Grid,
) -> Result<(Rating, [u32; Technique::ALL.len()]), RateError> {
    let mut counts = [0u32; Technique::ALL.len()];
    let r = rate_seeing(puzzle, TechniqueSet::ALL, |e| {
        if let Event::Step { step, .. } = e {
            counts[step.technique.index()] += 1;
        }
    })?;
    Ok((r, counts))
}

/// Level-scale counts by [`Technique::index`] as [`TechniqueCounts`]: those above 0, in [`Technique::ALL`] order.
pub(crate) fn used_techniques(counts: &[u32; Technique::ALL.len()]) -> TechniqueCounts {
    Technique::ALL
        .iter()
        .map(|t| (t.name(), counts[t.index()]))
        .filter(|&(_, n)| n > 0)
        .collect()
}

/// The SE rating of `puzzle` (the path stopped above `max`) and its [`TechniqueCounts`]: one walk of the path.
pub(crate) fn rate_se_counting(
    puzzle: &Grid,
    max: Tenths,
) -> Result<(SeRating, TechniqueCounts), RateError> {
    let mut counts: TechniqueCounts = Vec::new();
    let (r, _) = rate_se_seeing(puzzle, max, false, |s| {
        let name = s.technique.name();
        match counts.iter_mut().find(|(n, _)| *n == name) {
            Some((_, k)) => *k += 1,
            None => counts.push((name, 1)),
        }
    })?;
    Ok((r, counts))
}

/// Writes a line record's puzzle (`.` blanks) and the rating after a space, or a grid record's board (`0` blanks)
/// and the rating on a tenth line.
pub(crate) fn with_board(
    puzzle: &Grid,
    layout: TextLayout,
    r: &dyn std::fmt::Display,
    out: &mut Vec<u8>,
) -> std::io::Result<()> {
    if layout == TextLayout::Line {
        puzzle.write(TextLayout::Line, b'.', out);
        write!(out, " {r}")
    } else {
        puzzle.write(TextLayout::Grid, b'0', out);
        write!(out, "\n{r}")
    }
}

impl Rater {
    /// The most a path on SE's scale goes to: the `max` given, else no limit.
    pub(super) fn se_limit(max: Option<Tenths>) -> Tenths {
        max.unwrap_or(Tenths(u8::MAX))
    }

    /// Rates on the rater's scale, counts the rating, and writes it: after the board ([`with_board`]), as CSV
    /// fields, or as JSON fields with the [`TechniqueCounts`] (only that layout walks the path counting them on
    /// SE's scale).
    fn rate(&self, puzzle: &Grid, layout: TextLayout, out: &mut Vec<u8>) -> Result<(), RateError> {
        match self.scale {
            Scale::Levels => {
                let (r, counts) = rate_counting(puzzle)?;
                self.count(&r);
                answer(puzzle, layout, &r, || used_techniques(&counts), out);
            }
            Scale::Se => {
                let max = Rater::se_limit(self.se_max);
                let (r, counts) = if layout == TextLayout::Json {
                    rate_se_counting(puzzle, max)?
                } else {
                    (rate_se_within(puzzle, max)?, Vec::new())
                };
                self.se[SeHistogram::band(&r)].fetch_add(1, Ordering::Relaxed);
                answer(puzzle, layout, &r, || counts, out);
            }
        }
        Ok(())
    }
}

/// Writes rating `r` of `puzzle` in `layout`: after the board ([`with_board`]), as CSV fields (the text fields,
/// commas between), or as JSON fields followed by `techniques` (`counts`).
fn answer(
    puzzle: &Grid,
    layout: TextLayout,
    r: &impl RatingFields,
    counts: impl FnOnce() -> TechniqueCounts,
    out: &mut Vec<u8>,
) {
    match layout {
        TextLayout::Line | TextLayout::Grid => {
            with_board(puzzle, layout, r, out).expect("writing to a Vec cannot fail")
        }
        TextLayout::CsvField => {
            // The text fields, written in place, their separating spaces made commas (no field holds a space).
            let start = out.len();
            write!(out, "{r}").expect("writing to a Vec cannot fail");
            out[start..]
                .iter_mut()
                .filter(|b| **b == b' ')
                .for_each(|b| *b = b',');
        }
        TextLayout::Json => {
            r.write_json(out);
            json_counts(out, counts());
        }
    }
}

/// Appends `,"techniques":{NAME:COUNT,...}` for the counts above 0, in the order given.
fn json_counts(out: &mut Vec<u8>, counts: TechniqueCounts) {
    json_key(out, "techniques");
    out.push(b'{');
    let mut first = true;
    for (name, n) in counts.into_iter().filter(|&(_, n)| n > 0) {
        if !first {
            out.push(b',');
        }
        first = false;
        json_str(out, name.as_bytes());
        write!(out, ":{n}").expect("writing to a Vec cannot fail");
    }
    out.push(b'}');
}

impl Job for Rater {
    fn json_status(&self) -> &'static str {
        "rated"
    }

    fn line_header(&self) -> Option<&'static str> {
        Some(match self.scale {
            Scale::Levels => "puzzle level score guesses hardest",
            Scale::Se => "puzzle er ep ed hardest",
        })
    }

    fn run(&self, puzzle: &Grid, layout: TextLayout, out: &mut Vec<u8>) -> Result<(), Failure> {
        self.rate(puzzle, layout, out).map_err(Failure::from)
    }

    fn csv_answer(&self) -> CsvAnswer {
        match self.scale {
            Scale::Levels => CsvAnswer::Append(&["level", "score", "guesses", "hardest"]),
            Scale::Se => CsvAnswer::Append(&["er", "ep", "ed", "se_hardest"]),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::batch::{self, BatchOptions, InputSpec};
    use crate::human::rating::rate;
    use crate::human::technique::Level;
    use crate::output::Target;

    #[test]
    fn rates_through_the_pipeline_in_order_and_counts() {
        let text = include_str!("../../data/puzzles.txt");
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("ratings.txt");
        let rater = Rater::default();
        let input = InputSpec::Bytes {
            name: "puzzles".into(),
            data: text.as_bytes().to_vec(),
        };
        let opts = BatchOptions {
            threads: crate::ordered::Threads::Count(2),
            chunk_size: 1000,
            ..BatchOptions::default()
        };
        let summary = batch::run_batch(
            vec![input],
            &Target::File(out.clone()),
            &rater,
            &opts,
            &mut (),
        )
        .unwrap();
        assert_eq!(summary.counts.records, 100);
        assert_eq!(summary.counts.failures(), 0);
        let h = rater.histogram();
        assert_eq!(h.rated(), 100);
        let written = std::fs::read_to_string(&out).unwrap();
        let puzzles: Vec<&str> = text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
            .collect();
        assert_eq!(written.lines().count(), puzzles.len());
        let mut score = 0;
        for (line, p) in written.lines().zip(puzzles) {
            let g: Grid = p.parse().unwrap();
            let (echo, fields) = line.split_once(' ').unwrap();
            assert_eq!(echo, p);
            assert_eq!(fields, rate(&g).unwrap().to_string());
            score += u64::from(rate(&g).unwrap().score);
        }
        assert_eq!(h.score_sum, score);
    }

    #[test]
    fn histogram_counts_and_prints() {
        let rater = Rater::default();
        let ratings: Vec<Rating> = include_str!("../../data/puzzles.txt")
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .take(30)
            .map(|l| rate(&l.parse().unwrap()).unwrap())
            .collect();
        for r in &ratings {
            rater.count(r);
        }
        let mut h = rater.histogram();
        h.failed = 1;
        assert_eq!(h.rated(), 30);
        for l in Level::ALL {
            let n = ratings.iter().filter(|r| r.level == l).count() as u64;
            assert_eq!(h.levels[l as usize], n);
        }
        let unguessed = |t: Technique| {
            let n = ratings
                .iter()
                .filter(|r| r.guesses == 0 && r.hardest == Some(t));
            n.count() as u64
        };
        for t in Technique::ALL {
            assert_eq!(h.hardest[t.index()], unguessed(t));
        }
        assert_eq!(
            h.guessed,
            ratings.iter().filter(|r| r.guesses > 0).count() as u64
        );
        assert_eq!(
            h.score_sum,
            ratings.iter().map(|r| u64::from(r.score)).sum::<u64>()
        );
        assert_eq!(
            h.hardest.iter().sum::<u64>() + h.guessed + h.full,
            h.rated()
        );
        let text = h.to_string();
        assert!(text.starts_with("level         puzzles   share\nsimple"));
        assert!(text.ends_with("failed records 1"));
    }

    #[test]
    fn failures_map_to_the_pipeline_kinds() {
        let rater = Rater::default();
        let mut out = Vec::new();
        assert_eq!(
            rater.run(&Grid::EMPTY, TextLayout::Line, &mut out),
            Err(Failure::SeveralSolutions)
        );
        let mut p = Grid::EMPTY;
        p.set(0, 1);
        p.set(1, 1);
        assert!(matches!(
            rater.run(&p, TextLayout::Grid, &mut out),
            Err(Failure::ClashingGivens(_))
        ));
        // A grid record keeps its board, the rating on a tenth line.
        let g: Grid =
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
                .parse()
                .unwrap();
        let mut out = Vec::new();
        rater.run(&g, TextLayout::Grid, &mut out).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            format!("{}{}", g.to_grid_string(), rate(&g).unwrap())
        );
        assert_eq!(rater.histogram().rated(), 1);
    }
}
