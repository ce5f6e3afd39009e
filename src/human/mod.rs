//! Human-style solving: the candidate grid, the techniques people use (singles, locked candidates, subsets, fish,
//! wings), a step-by-step solving path with guesses and backtracking, difficulty ratings (levels, and Sudoku
//! Explainer's ER/EP/ED, [`rate_se`]), and puzzles generated with exactly one solution.
//!
//! Both rating scales share one family of types: a scale's techniques are a [`Ladder`] ([`Technique`] for the
//! levels, [`SeTechnique`] for SE), a step on either is a [`Step`] (technique, placement, eliminations, one
//! `apply`; each ladder's own pattern and text), and the jobs write a rating of either scale through one trait
//! (`RatingFields`); [`Rating`] and [`SeRating`], and the two histograms, stay the scales' own.
//!
//! The modules, lowest first; each imports only from modules above it in this list, never from one below, so the
//! imports form no cycle (test modules aside: the technique soundness tests walk paths with the explainer):
//! 1. `house` (cells, digits, houses and their bit sets) and `technique` ([`Technique`], [`Level`],
//!    [`TechniqueSet`]): nothing from `human`;
//! 2. `candidates` (`Candidates`): `house`;
//! 3. `step` ([`Ladder`], [`Step`], `Finding`, `Eliminations`): `candidates`, `house`, `technique`; `finders`
//!    (the basic techniques' finders both ladders share, with each ladder's scan order as a parameter):
//!    `candidates`, `house`; inside it `cover` first, then the families, then its `mod.rs`;
//! 4. `techniques` (`find`): `candidates`, `finders`, `house`, `step`, `technique`; inside it the families
//!    (`basic` the finders' steps; `coloring` also uses `links`), then its `mod.rs`;
//! 5. `explainer` ([`Explainer`]): `candidates`, `house`, `step`, `technique`, `techniques`;
//! 6. `rating` ([`rate`], [`Rating`], and `RatingFields`, what `rate` writes of a rating on either scale):
//!    `explainer`, `technique`;
//! 7. `se` ([`rate_se`], Sudoku Explainer's ladder and ratings): `candidates`, `finders`, `house`, `rating`
//!    (its error, `RatingFields`), `step` (SE's ladder is a [`Ladder`], its steps [`Step`]s);
//! 8. `transcript` ([`write_explanation`], [`write_se_explanation`]): `explainer`, `rating`, `se`; `rater`
//!    ([`Rater`]): `explainer`, `rating`, `se`, `technique`;
//! 9. `narrator` ([`Narrator`], the paths as data): `explainer`, `rater`, `rating`, `se`, `step`, `technique`;
//!    `distribution` ([`Distribution`], the histograms as JSON and as an SVG chart): `rating`, `se`, `technique`.
//!
//! ```
//! use sudoku_batch::human::{rate, Event, Explainer, Level, Technique};
//! use sudoku_batch::Grid;
//!
//! let puzzle: Grid =
//!     "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
//!         .parse()
//!         .unwrap();
//! let steps: Vec<String> = Explainer::new(&puzzle)
//!     .unwrap()
//!     .filter_map(|event| match event {
//!         Event::Step { step, .. } => Some(step.to_string()),
//!         _ => None,
//!     })
//!     .collect();
//! assert_eq!(steps[0], "naked single: r5c6 = 4");
//! let rating = rate(&puzzle).unwrap();
//! assert_eq!(rating.guesses, 0);
//! assert!(rating.level <= Level::Easy);
//! assert!(rating.hardest <= Some(Technique::HiddenSingle));
//! ```

mod candidates;
mod distribution;
mod explainer;
mod finders;
mod house;
mod narrator;
mod page;
mod rater;
mod rating;
#[cfg(test)]
mod replay;
pub(crate) mod se;
mod step;
mod technique;
mod techniques;
mod transcript;

pub use candidates::Contradiction;
pub use distribution::Distribution;
pub use explainer::{Event, Explainer};
pub use house::DigitSet;
pub use narrator::Narrator;
pub use page::Page;
pub(crate) use rater::with_board;
pub(crate) use rater::{rate_counting, rate_se_counting, used_techniques};
pub use rater::{Rater, Scale, TechniqueCounts};
pub use rating::{rate, rate_with, Histogram, RateError, Rating};
pub use se::{rate_se, SeHistogram, SeRating, SeTechnique, Tenths};
pub use step::{Ladder, Step};
pub use technique::{Level, Technique, TechniqueSet, UnknownLevel, UnknownTechnique};
pub use transcript::{write_explanation, write_se_explanation, Ending, SeExplainError};
