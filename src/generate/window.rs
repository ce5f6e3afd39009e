//! Windows of Sudoku Explainer ratings that generated puzzles must fall in (`--er`, `--ep`, `--ed`): their text
//! (`MIN..MAX`) and checks, and the rating of a candidate puzzle that stops as soon as the rating is known to leave
//! them.
//!
//! Where the rating stops early (the path is SE's, [`crate::human::rate_se`]'s, step by step):
//! - ER above the ER window: the path is capped at its MAX, as `rate --max-se` does, so the first step rated above
//!   it ends the rating (and the producers rated above it are never asked);
//! - ED outside its window: known at the first step;
//! - EP above its window: known at any step before the first placement rated above it; below it: known at the
//!   first placement;
//! - ER below the ER window: the highest rating so far is below MIN and what is left of the path is known to stay
//!   at or below [`TAIL_MAX`]: the grid of the values placed so far is solved by the techniques SE rates 4.0 or
//!   less (singles, intersections, naked and hidden pairs and triples, X-Wing, Swordfish) with no guess. Those
//!   techniques only get more to work with as candidates go, so every later grid on SE's path has one of them to
//!   apply, and SE's ladder asks their producers before any rated above 4.0.
//!
//! A puzzle is kept only when the whole rating is known and inside every window given; a puzzle beyond SE's
//! ladder (serate's "Beyond solver") has no ER, so it never meets an ER window.

use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::grid::Grid;
use crate::human::se::{SePath, SeTally};
use crate::human::{Event, Explainer, SeRating, Technique, TechniqueSet, Tenths};

/// The lowest rating a window may start at (SE's lowest, a hidden single's last cell of a house).
pub const WINDOW_MIN: Tenths = Tenths(10);

/// The highest rating a window may end at.
pub const WINDOW_MAX: Tenths = Tenths(119);

/// An inclusive range of SE ratings, `MIN..MAX` on the command line (`7.0..8.5`), both from 1.0 to 11.9 and MIN
/// at most MAX.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SeWindow {
    min: Tenths,
    max: Tenths,
}

impl SeWindow {
    /// The window `min..=max`, or why it is not one.
    pub fn new(min: Tenths, max: Tenths) -> Result<SeWindow, WindowError> {
        for t in [min, max] {
            if !(WINDOW_MIN..=WINDOW_MAX).contains(&t) {
                return Err(WindowError::OutOfRange(t));
            }
        }
        if min > max {
            return Err(WindowError::Reversed { min, max });
        }
        Ok(SeWindow { min, max })
    }

    /// Every rating from `min` up, with no end: what a search for puzzles rated `min` or more rates against (no
    /// step is then too hard to end the path early).
    pub(crate) fn at_least(min: Tenths) -> SeWindow {
        SeWindow {
            min,
            max: Tenths(u8::MAX),
        }
    }

    /// The lowest rating inside.
    pub fn min(self) -> Tenths {
        self.min
    }

    /// The highest rating inside.
    pub fn max(self) -> Tenths {
        self.max
    }

    /// Whether `t` is inside.
    pub fn contains(self, t: Tenths) -> bool {
        (self.min..=self.max).contains(&t)
    }
}

impl fmt::Display for SeWindow {
    /// `7.0..8.5`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}..{}", self.min, self.max)
    }
}

impl FromStr for SeWindow {
    type Err = WindowError;

    /// `MIN..MAX`: two ratings with at most one decimal (`7..8.5` is `7.0..8.5`).
    fn from_str(s: &str) -> Result<SeWindow, WindowError> {
        let malformed = || WindowError::Malformed(s.to_string());
        let (min, max) = s.split_once("..").ok_or_else(malformed)?;
        let rating = |t: &str| parse_rating(t).ok_or_else(malformed);
        SeWindow::new(rating(min)?, rating(max)?)
    }
}

/// A rating with at most one decimal (`7`, `7.5`), in tenths; `None` for anything else or above 25.5.
fn parse_rating(t: &str) -> Option<Tenths> {
    let (whole, tenth) = t.split_once('.').unwrap_or((t, "0"));
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(whole) || !digits(tenth) || tenth.len() > 1 || whole.len() > 3 {
        return None;
    }
    let v = whole.parse::<u32>().ok()? * 10 + tenth.parse::<u32>().ok()?;
    u8::try_from(v).ok().map(Tenths)
}

/// Why a rating window is not one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum WindowError {
    /// Not `MIN..MAX` with two ratings of at most one decimal.
    #[error(
        "expected MIN..MAX, two SE ratings with at most one decimal (like 7.0..8.5), not {0:?}"
    )]
    Malformed(String),
    /// A rating outside 1.0..11.9.
    #[error("{0} is outside SE's scale for a window: MIN and MAX go from 1.0 to 11.9")]
    OutOfRange(Tenths),
    /// MIN above MAX.
    #[error("MIN {min} is above MAX {max}")]
    Reversed {
        /// The lower end given.
        min: Tenths,
        /// The upper end given.
        max: Tenths,
    },
}

/// The windows a puzzle's ER, EP and ED must fall in; `None` leaves that rating free.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct SeWindows {
    /// ER, the highest rating on SE's path.
    pub er: Option<SeWindow>,
    /// EP, the highest rating up to the first placement.
    pub ep: Option<SeWindow>,
    /// ED, the rating of the first step.
    pub ed: Option<SeWindow>,
}

impl SeWindows {
    /// Whether any window is given (then every puzzle is rated on SE's scale).
    pub fn any(&self) -> bool {
        self.er.is_some() || self.ep.is_some() || self.ed.is_some()
    }

    /// The first pair of windows no puzzle can meet together: ED is never above EP, nor EP above ER, so a lower
    /// one's MIN above a higher one's MAX is empty. Names the flags, lower rating first.
    pub(crate) fn disjoint(&self) -> Option<(&'static str, SeWindow, &'static str, SeWindow)> {
        let named = [("--ed", self.ed), ("--ep", self.ep), ("--er", self.er)];
        for (i, &(low_name, low)) in named.iter().enumerate() {
            for &(high_name, high) in &named[i + 1..] {
                if let (Some(l), Some(h)) = (low, high) {
                    if l.min > h.max {
                        return Some((low_name, l, high_name, h));
                    }
                }
            }
        }
        None
    }
}

/// The most any step after the point [`rate_in`] checks can rate when the grid of placed values is solved by
/// [`tail_techniques`]: SE's ladder asks every producer rated up to this (Hidden Triplet, 4.0) before any rated
/// above it, and these all have a fixed rating.
pub(crate) const TAIL_MAX: Tenths = Tenths(40);

/// The techniques of the levels rater whose SE producers all come before any rated above [`TAIL_MAX`].
fn tail_techniques() -> TechniqueSet {
    [
        Technique::NakedSingle,
        Technique::HiddenSingle,
        Technique::Pointing,
        Technique::Claiming,
        Technique::NakedPair,
        Technique::HiddenPair,
        Technique::NakedTriple,
        Technique::HiddenTriple,
        Technique::XWing,
        Technique::Swordfish,
    ]
    .into_iter()
    .fold(TechniqueSet::NONE, TechniqueSet::with)
}

/// Whether [`tail_techniques`] solve `grid` without a guess.
fn solved_by_tail(grid: &Grid) -> bool {
    let Ok(path) = Explainer::with_techniques(grid, tail_techniques()) else {
        return false;
    };
    for event in path {
        match event {
            Event::Step { .. } => {}
            Event::Solved { .. } => return true,
            _ => return false,
        }
    }
    false
}

/// What rating a candidate puzzle against the windows found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// Inside every window: the puzzle's rating (complete as far as the ER window's MAX).
    Inside(SeRating),
    /// Outside a window (known as early as the path allowed), or not rated (several solutions).
    Outside,
    /// `stop` was set while the path was being walked.
    Stopped,
}

/// Walks SE's path of `puzzle` as far as needed to tell whether its ratings fall in `windows`, looking at `stop`
/// after every step. Cost: at most one SE rating capped at the ER window's MAX, a grid solved with
/// [`tail_techniques`] after each step rated above [`TAIL_MAX`] while ER is still below the window.
pub(crate) fn rate_in(puzzle: &Grid, windows: &SeWindows, stop: Option<&AtomicBool>) -> Verdict {
    let cap = windows.er.map_or(Tenths(u8::MAX), SeWindow::max);
    // The ER lower bound can end the path early only when the window starts above what a tail can rate.
    let er_floor = windows.er.map_or(Tenths(0), SeWindow::min);
    let watch_tail = er_floor > TAIL_MAX;
    if watch_tail && solved_by_tail(puzzle) {
        return Verdict::Outside;
    }
    let Ok(path) = SePath::new(puzzle) else {
        return Verdict::Outside;
    };
    let mut path = path.within(cap);
    let mut tally = SeTally::default();
    let mut er = Tenths(0);
    let mut steps = 0u32;
    let mut placed = false;
    while let Some(step) = path.next() {
        if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
            return Verdict::Stopped;
        }
        tally.add(&step);
        er = er.max(step.rating());
        steps += 1;
        if steps == 1 && windows.ed.is_some_and(|w| !w.contains(er)) {
            return Verdict::Outside;
        }
        if !placed {
            if windows.ep.is_some_and(|w| er > w.max) {
                return Verdict::Outside;
            }
            if step.placement.is_some() {
                placed = true;
                if windows.ep.is_some_and(|w| er < w.min) {
                    return Verdict::Outside;
                }
            }
        }
        if watch_tail
            && er < er_floor
            && step.rating() > TAIL_MAX
            && !path.is_solved()
            && solved_by_tail(&path.candidates().grid())
        {
            return Verdict::Outside;
        }
    }
    let rating = tally.rating_below(path.is_solved(), path.ceiling());
    let inside = |w: Option<SeWindow>, r: Option<Tenths>| match (w, r) {
        (None, _) => true,
        (Some(w), Some(r)) => w.contains(r),
        (Some(_), None) => false,
    };
    if inside(windows.er, rating.er)
        && inside(windows.ep, rating.ep)
        && inside(windows.ed, rating.ed)
    {
        Verdict::Inside(rating)
    } else {
        Verdict::Outside
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::human::rate_se;

    fn w(s: &str) -> SeWindow {
        s.parse().unwrap()
    }

    #[test]
    fn windows_are_read_and_bad_ones_refused_with_the_reason() {
        assert_eq!(
            w("7.0..8.5"),
            SeWindow::new(Tenths(70), Tenths(85)).unwrap()
        );
        assert_eq!(w("7..8"), SeWindow::new(Tenths(70), Tenths(80)).unwrap());
        assert_eq!(w("1.0..11.9").to_string(), "1.0..11.9");
        assert_eq!(w("9.9..9.9").min(), Tenths(99));
        for bad in [
            "",
            "7",
            "7.0-8.0",
            "7.0..",
            "..8",
            "7.25..8",
            "a..b",
            "7.0..8.0..9",
            " 7..8",
            "-1..2",
        ] {
            assert_eq!(
                bad.parse::<SeWindow>(),
                Err(WindowError::Malformed(bad.into())),
                "{bad:?}"
            );
        }
        assert_eq!(
            "8.0..7.0".parse::<SeWindow>(),
            Err(WindowError::Reversed {
                min: Tenths(80),
                max: Tenths(70)
            })
        );
        assert_eq!(
            "0.9..2".parse::<SeWindow>(),
            Err(WindowError::OutOfRange(Tenths(9)))
        );
        assert_eq!(
            "7..12.0".parse::<SeWindow>(),
            Err(WindowError::OutOfRange(Tenths(120)))
        );
        assert_eq!(
            "7..999".parse::<SeWindow>(),
            Err(WindowError::Malformed("7..999".into()))
        );
        assert_eq!(
            "8.0..7.0".parse::<SeWindow>().unwrap_err().to_string(),
            "MIN 8.0 is above MAX 7.0"
        );
    }

    #[test]
    fn windows_no_puzzle_can_meet_together_are_found() {
        let ws = SeWindows {
            er: Some(w("7..8")),
            ep: Some(w("8.1..9")),
            ed: None,
        };
        assert_eq!(
            ws.disjoint(),
            Some(("--ep", w("8.1..9"), "--er", w("7..8")))
        );
        let ws = SeWindows {
            er: Some(w("7..8")),
            ep: Some(w("2..8")),
            ed: Some(w("1..2")),
        };
        assert_eq!(ws.disjoint(), None);
        assert!(!SeWindows::default().any());
    }

    /// Puzzles of `data/se_sample.txt` with their serate ER, EP, ED.
    fn sample() -> Vec<(Grid, SeRating)> {
        let text = include_str!("../../data/se_sample.txt");
        text.lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
            .step_by(8)
            .map(|l| {
                let g: Grid = l[..81].parse().unwrap();
                (g, rate_se(&g).unwrap())
            })
            .collect()
    }

    #[test]
    fn the_early_stopped_verdict_is_the_full_ratings_verdict() {
        let windows = [
            SeWindows {
                er: Some(w("7.0..8.0")),
                ..SeWindows::default()
            },
            SeWindows {
                er: Some(w("4.5..6.9")),
                ..SeWindows::default()
            },
            SeWindows {
                er: Some(w("1.0..2.5")),
                ..SeWindows::default()
            },
            SeWindows {
                ep: Some(w("6.0..9.0")),
                ..SeWindows::default()
            },
            SeWindows {
                ed: Some(w("1.5..2.6")),
                ep: Some(w("1.0..2.0")),
                ..SeWindows::default()
            },
            SeWindows {
                er: Some(w("8.0..9.9")),
                ed: Some(w("1.0..1.5")),
                ..SeWindows::default()
            },
        ];
        let sample = sample();
        let n = sample.len();
        let mut inside = [0; 6];
        for (g, full) in sample {
            for (k, ws) in windows.iter().enumerate() {
                let within = |wd: Option<SeWindow>, r: Option<Tenths>| {
                    wd.is_none_or(|wd| r.is_some_and(|r| wd.contains(r)))
                };
                let want =
                    within(ws.er, full.er) && within(ws.ep, full.ep) && within(ws.ed, full.ed);
                let got = rate_in(&g, ws, None);
                match got {
                    Verdict::Inside(r) => {
                        assert!(want, "{g} {ws:?}: kept, but rated {full}");
                        assert_eq!((r.er, r.ep, r.ed), (full.er, full.ep, full.ed), "{g}");
                        inside[k] += 1;
                    }
                    Verdict::Outside => assert!(!want, "{g} {ws:?}: refused, but rated {full}"),
                    Verdict::Stopped => panic!("no stop flag"),
                }
            }
        }
        // Every window has puzzles on both sides in the sample.
        assert!(inside.iter().all(|&k| k > 0 && k < n), "{inside:?}");
    }

    #[test]
    fn a_set_stop_flag_ends_the_rating() {
        let (g, _) = sample().into_iter().find(|(_, r)| r.steps > 2).unwrap();
        let stop = AtomicBool::new(true);
        let ws = SeWindows {
            er: Some(w("1.0..11.9")),
            ..SeWindows::default()
        };
        assert_eq!(rate_in(&g, &ws, Some(&stop)), Verdict::Stopped);
    }
}
