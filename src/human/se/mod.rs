//! Ratings on Sudoku Explainer's scale (SE 1.2.1 classic, as `serate` computes them): the technique ladder in SE's
//! order with SE's ratings, the path that applies the first hint the ladder finds at each step, and the puzzle's
//! ER, EP and ED.
//!
//! SE asks its hint producers in a fixed order and applies the first hint the first producer with any hint
//! returns; each producer scans houses, digits and cells in its own fixed order. The producers here follow that
//! order (see [`SeTechnique::LADDER`]) and scan as SE does, so the same hint is applied at each step and the path,
//! hence the ratings, are SE's:
//! - ER is the highest rating on the whole path,
//! - EP the highest up to and including the first placement,
//! - ED the rating of the first step.
//!
//! The ladder is SE's whole one, through the last level of its Nested Forcing Chains, "(+ Dynamic Forcing
//! Chains)" (10.5 and up). A puzzle none of its producers can take further is beyond SE itself (serate reports
//! "Beyond solver" and prints 20.0): its ER is not known, and is reported as above [`LADDER_TOP`]
//! ([`SeRating::er`] is `None`), never as a made-up number.
//!
//! Ratings are held in tenths ([`Tenths`]): SE's ratings all have one decimal.

mod basic;
mod bug;
mod chain;
mod exclusion;
mod finding;
mod histogram;
mod unique;

use std::fmt;

use crate::format::json::json_field;
use crate::grid::Grid;
use crate::solver;

use super::candidates::Candidates;
use super::house::{CellSet, House, HOUSE_CELLS, HOUSE_LIST};
use super::rating::{RateError, RatingFields};
use chain::chaining;
use chain::kind::Kind;
pub(crate) use chain::proof::{Potential, Proof};
pub(crate) use finding::SeStep;
pub use histogram::SeHistogram;

/// A rating in tenths: `23` is SE's 2.3.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Tenths(pub u8);

impl fmt::Display for Tenths {
    /// `2.3`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.0 / 10, self.0 % 10)
    }
}

impl Tenths {
    /// The rating as a number (`2.3`).
    pub(crate) fn value(self) -> f64 {
        f64::from(self.0) / 10.0
    }
}

/// What is reported of the ER of a puzzle that SE's whole ladder cannot take to the end: it is above 10.5, the
/// lowest rating of SE's last producers (the nested forcing chains "(+ Dynamic Forcing Chains)"); serate gives such
/// a puzzle up ("Beyond solver") and prints 20.0, no rating of a step.
pub(crate) const LADDER_TOP: Tenths = Tenths(105);

/// SE's techniques, in the order SE's producers are asked (classic SE 1.2.1 set).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SeTechnique {
    /// A digit with one place in a house (1.0 when the house has one empty cell, 1.2 in a box, 1.5 in a line).
    HiddenSingle,
    /// Pointing that leaves a digit one place in another box (1.7).
    DirectPointing,
    /// Claiming that leaves a digit one place in another line (1.9).
    DirectClaiming,
    /// A hidden pair that leaves another digit one place in the house (2.0).
    DirectHiddenPair,
    /// A cell with one candidate (2.3).
    NakedSingle,
    /// A hidden triplet that leaves another digit one place in the house (2.5).
    DirectHiddenTriplet,
    /// A box's candidates of a digit in one line: the digit leaves the line's other cells (2.6).
    Pointing,
    /// A line's candidates of a digit in one box: the digit leaves the box's other cells (2.8).
    Claiming,
    /// Two cells of a house with the same two candidates (3.0).
    NakedPair,
    /// Fish of size 2 (3.2).
    XWing,
    /// Two digits with the same two places in a house (3.4).
    HiddenPair,
    /// Three cells of a house holding three digits between them (3.6).
    NakedTriplet,
    /// Fish of size 3 (3.8).
    Swordfish,
    /// Three digits with three places between them in a house (4.0).
    HiddenTriplet,
    /// XY-Wing (4.2).
    XYWing,
    /// XYZ-Wing (4.4).
    XYZWing,
    /// Unique rectangle of type 1 to 4 (4.5, type 3 4.5 and up).
    UniqueRectangle(u8),
    /// Unique loop (6 cells or more) of type 1 to 4 (4.6 and up).
    UniqueLoop(u8),
    /// Four cells of a house holding four digits between them (5.0).
    NakedQuad,
    /// Fish of size 4 (5.2).
    Jellyfish,
    /// Four digits with four places between them in a house (5.4).
    HiddenQuad,
    /// Bivalue Universal Grave of type 1 to 4 (5.6, 5.7, 5.8 and up, 5.7).
    Bug(u8),
    /// Aligned Pair Exclusion (6.2).
    AlignedPairExclusion,
    /// Bidirectional X-, Y- or XY-cycle (6.5, XY 7.0, plus the length increment).
    BidirectionalCycle,
    /// Forcing X- or XY-chain (6.6, XY 7.0, plus the length increment).
    ForcingChain,
    /// Aligned Triplet Exclusion (7.5).
    AlignedTripletExclusion,
    /// Nishio forcing chains (7.5 plus the length increment).
    NishioForcingChain,
    /// Multiple forcing chains (8.0 plus the length increment).
    MultipleForcingChain,
    /// Dynamic forcing chains (8.5 plus the length increment).
    DynamicForcingChain,
    /// Dynamic forcing chains that also use pointing/claiming, hidden and naked pairs and X-Wings found on the
    /// chain's grid (9.0 plus the length increment).
    DynamicForcingChainPlus,
    /// Nested forcing chains, the lowest level (SE's "(+ Forcing Chains)"): dynamic forcing chains that also use
    /// what the techniques of the (+) chains and the forcing chains and cycles find on the chain's grid (9.5
    /// plus the length increment, the nested chains' sizes counted in).
    NestedForcingChain,
    /// Nested forcing chains, the second level (SE's "(+ Multiple Forcing Chains)"): dynamic forcing chains that
    /// also use what the lower level's techniques and the multiple (cell and region) forcing chains find on the
    /// chain's grid (10.0 plus the length increment, the nested chains' sizes counted in).
    NestedMultipleForcingChain,
    /// Nested forcing chains, the last level (SE's "(+ Dynamic Forcing Chains)"): dynamic forcing chains that also
    /// use what the techniques of the (+) chains find on the chain's grid, else what a whole dynamic forcing chains
    /// producer finds there (SE tries it with that producer's own nesting level 0, then 1, 2 and 3; 10.5 plus the
    /// length increment, the nested chains' sizes counted in).
    NestedDynamicForcingChain,
}

impl SeTechnique {
    /// The producers in SE's order (the direct ones first, then the indirect ones), as far as this build goes.
    pub(crate) const LADDER: [SeTechnique; 29] = [
        SeTechnique::HiddenSingle,
        SeTechnique::DirectPointing, // with DirectClaiming: one producer
        SeTechnique::DirectHiddenPair,
        SeTechnique::NakedSingle,
        SeTechnique::DirectHiddenTriplet,
        SeTechnique::Pointing, // with Claiming: one producer
        SeTechnique::NakedPair,
        SeTechnique::XWing,
        SeTechnique::HiddenPair,
        SeTechnique::NakedTriplet,
        SeTechnique::Swordfish,
        SeTechnique::HiddenTriplet,
        SeTechnique::XYWing,
        SeTechnique::XYZWing,
        SeTechnique::UniqueRectangle(1), // with the loops and every type: one producer
        SeTechnique::NakedQuad,
        SeTechnique::Jellyfish,
        SeTechnique::HiddenQuad,
        SeTechnique::Bug(1), // every type: one producer
        SeTechnique::AlignedPairExclusion,
        SeTechnique::ForcingChain, // with the cycles: one producer
        SeTechnique::AlignedTripletExclusion,
        SeTechnique::NishioForcingChain,
        SeTechnique::MultipleForcingChain,
        SeTechnique::DynamicForcingChain,
        SeTechnique::DynamicForcingChainPlus,
        SeTechnique::NestedForcingChain,
        SeTechnique::NestedMultipleForcingChain,
        SeTechnique::NestedDynamicForcingChain, // nested levels 0 to 3: four producers
    ];

    /// Every technique, each type of the unique rectangles, loops and BUGs apart, in the ladder's order.
    pub const ALL: [SeTechnique; 42] = [
        SeTechnique::HiddenSingle,
        SeTechnique::DirectPointing,
        SeTechnique::DirectClaiming,
        SeTechnique::DirectHiddenPair,
        SeTechnique::NakedSingle,
        SeTechnique::DirectHiddenTriplet,
        SeTechnique::Pointing,
        SeTechnique::Claiming,
        SeTechnique::NakedPair,
        SeTechnique::XWing,
        SeTechnique::HiddenPair,
        SeTechnique::NakedTriplet,
        SeTechnique::Swordfish,
        SeTechnique::HiddenTriplet,
        SeTechnique::XYWing,
        SeTechnique::XYZWing,
        SeTechnique::UniqueRectangle(1),
        SeTechnique::UniqueRectangle(2),
        SeTechnique::UniqueRectangle(3),
        SeTechnique::UniqueRectangle(4),
        SeTechnique::UniqueLoop(1),
        SeTechnique::UniqueLoop(2),
        SeTechnique::UniqueLoop(3),
        SeTechnique::UniqueLoop(4),
        SeTechnique::NakedQuad,
        SeTechnique::Jellyfish,
        SeTechnique::HiddenQuad,
        SeTechnique::Bug(1),
        SeTechnique::Bug(2),
        SeTechnique::Bug(3),
        SeTechnique::Bug(4),
        SeTechnique::AlignedPairExclusion,
        SeTechnique::BidirectionalCycle,
        SeTechnique::ForcingChain,
        SeTechnique::AlignedTripletExclusion,
        SeTechnique::NishioForcingChain,
        SeTechnique::MultipleForcingChain,
        SeTechnique::DynamicForcingChain,
        SeTechnique::DynamicForcingChainPlus,
        SeTechnique::NestedForcingChain,
        SeTechnique::NestedMultipleForcingChain,
        SeTechnique::NestedDynamicForcingChain,
    ];

    /// SE's name of the technique.
    pub fn name(self) -> &'static str {
        match self {
            SeTechnique::HiddenSingle => "Hidden Single",
            SeTechnique::DirectPointing => "Direct Pointing",
            SeTechnique::DirectClaiming => "Direct Claiming",
            SeTechnique::DirectHiddenPair => "Direct Hidden Pair",
            SeTechnique::NakedSingle => "Naked Single",
            SeTechnique::DirectHiddenTriplet => "Direct Hidden Triplet",
            SeTechnique::Pointing => "Pointing",
            SeTechnique::Claiming => "Claiming",
            SeTechnique::NakedPair => "Naked Pair",
            SeTechnique::XWing => "X-Wing",
            SeTechnique::HiddenPair => "Hidden Pair",
            SeTechnique::NakedTriplet => "Naked Triplet",
            SeTechnique::Swordfish => "Swordfish",
            SeTechnique::HiddenTriplet => "Hidden Triplet",
            SeTechnique::XYWing => "XY-Wing",
            SeTechnique::XYZWing => "XYZ-Wing",
            SeTechnique::UniqueRectangle(t) => [
                "Unique Rectangle type 1",
                "Unique Rectangle type 2",
                "Unique Rectangle type 3",
            ]
            .get(usize::from(t) - 1)
            .unwrap_or(&"Unique Rectangle type 4"),
            SeTechnique::UniqueLoop(t) => [
                "Unique Loop type 1",
                "Unique Loop type 2",
                "Unique Loop type 3",
            ]
            .get(usize::from(t) - 1)
            .unwrap_or(&"Unique Loop type 4"),
            SeTechnique::NakedQuad => "Naked Quad",
            SeTechnique::Jellyfish => "Jellyfish",
            SeTechnique::HiddenQuad => "Hidden Quad",
            SeTechnique::Bug(t) => ["BUG type 1", "BUG type 2", "BUG type 3"]
                .get(usize::from(t) - 1)
                .unwrap_or(&"BUG type 4"),
            SeTechnique::AlignedPairExclusion => "Aligned Pair Exclusion",
            SeTechnique::BidirectionalCycle => "Bidirectional Cycle",
            SeTechnique::ForcingChain => "Forcing Chain",
            SeTechnique::AlignedTripletExclusion => "Aligned Triplet Exclusion",
            SeTechnique::NishioForcingChain => "Nishio Forcing Chain",
            SeTechnique::MultipleForcingChain => "Multiple Forcing Chain",
            SeTechnique::DynamicForcingChain => "Dynamic Forcing Chain",
            SeTechnique::DynamicForcingChainPlus => "Dynamic Forcing Chain (+)",
            SeTechnique::NestedForcingChain => "Dynamic Forcing Chain (+ Forcing Chains)",
            SeTechnique::NestedMultipleForcingChain => {
                "Dynamic Forcing Chain (+ Multiple Forcing Chains)"
            }
            SeTechnique::NestedDynamicForcingChain => {
                "Dynamic Forcing Chain (+ Dynamic Forcing Chains)"
            }
        }
    }

    /// SE's rating of the technique (a hidden single's is 1.0, 1.2 or 1.5 by its house: 1.5 here).
    pub fn rating(self) -> Tenths {
        Tenths(match self {
            SeTechnique::HiddenSingle => 15,
            SeTechnique::DirectPointing => 17,
            SeTechnique::DirectClaiming => 19,
            SeTechnique::DirectHiddenPair => 20,
            SeTechnique::NakedSingle => 23,
            SeTechnique::DirectHiddenTriplet => 25,
            SeTechnique::Pointing => 26,
            SeTechnique::Claiming => 28,
            SeTechnique::NakedPair => 30,
            SeTechnique::XWing => 32,
            SeTechnique::HiddenPair => 34,
            SeTechnique::NakedTriplet => 36,
            SeTechnique::Swordfish => 38,
            SeTechnique::HiddenTriplet => 40,
            SeTechnique::XYWing => 42,
            SeTechnique::XYZWing => 44,
            SeTechnique::UniqueRectangle(_) => 45,
            SeTechnique::UniqueLoop(_) => 46,
            SeTechnique::NakedQuad => 50,
            SeTechnique::Jellyfish => 52,
            SeTechnique::HiddenQuad => 54,
            SeTechnique::Bug(1) => 56,
            SeTechnique::Bug(_) => 57,
            SeTechnique::AlignedPairExclusion => 62,
            SeTechnique::BidirectionalCycle => 65,
            SeTechnique::ForcingChain => 66,
            SeTechnique::AlignedTripletExclusion => 75,
            SeTechnique::NishioForcingChain => 75,
            SeTechnique::MultipleForcingChain => 80,
            SeTechnique::DynamicForcingChain => 85,
            SeTechnique::DynamicForcingChainPlus => 90,
            SeTechnique::NestedForcingChain => 95,
            SeTechnique::NestedMultipleForcingChain => 100,
            SeTechnique::NestedDynamicForcingChain => 105,
        })
    }

    /// The lowest rating the producer of this technique gives (a hidden single 1.0, a cycle 6.5).
    pub fn floor(self) -> Tenths {
        match self {
            SeTechnique::HiddenSingle => Tenths(10),
            SeTechnique::BidirectionalCycle | SeTechnique::ForcingChain => Tenths(65),
            t => t.rating(),
        }
    }

    /// The first hint this technique's producer finds, in SE's scan order.
    #[cfg(test)]
    fn find(self, c: &Candidates) -> Option<SeStep> {
        self.seek(c, false)
    }

    /// The first hint this technique's producer finds, in SE's scan order; a chain step carries its [`Proof`]
    /// when `prove` (the same step either way).
    fn seek(self, c: &Candidates, prove: bool) -> Option<SeStep> {
        match self {
            SeTechnique::HiddenSingle => basic::hidden_single(c),
            SeTechnique::DirectPointing | SeTechnique::DirectClaiming => {
                basic::intersection(c, true)
            }
            SeTechnique::DirectHiddenPair => basic::hidden(c, 2, true),
            SeTechnique::NakedSingle => basic::naked_single(c),
            SeTechnique::DirectHiddenTriplet => basic::hidden(c, 3, true),
            SeTechnique::Pointing | SeTechnique::Claiming => basic::intersection(c, false),
            SeTechnique::NakedPair => basic::naked(c, 2),
            SeTechnique::XWing => basic::fish(c, 2),
            SeTechnique::HiddenPair => basic::hidden(c, 2, false),
            SeTechnique::NakedTriplet => basic::naked(c, 3),
            SeTechnique::Swordfish => basic::fish(c, 3),
            SeTechnique::HiddenTriplet => basic::hidden(c, 3, false),
            SeTechnique::XYWing => basic::wing(c, false),
            SeTechnique::XYZWing => basic::wing(c, true),
            SeTechnique::UniqueRectangle(_) | SeTechnique::UniqueLoop(_) => unique::find(c),
            SeTechnique::NakedQuad => basic::naked(c, 4),
            SeTechnique::Jellyfish => basic::fish(c, 4),
            SeTechnique::HiddenQuad => basic::hidden(c, 4, false),
            SeTechnique::Bug(_) => bug::find(c),
            SeTechnique::AlignedPairExclusion => exclusion::find(c),
            SeTechnique::BidirectionalCycle | SeTechnique::ForcingChain => {
                chain::forcing::find(c, prove)
            }
            SeTechnique::AlignedTripletExclusion => exclusion::find_triplets(c),
            SeTechnique::NishioForcingChain => chaining::find(c, Kind::Nishio, prove),
            SeTechnique::MultipleForcingChain => chaining::find(c, Kind::Multiple, prove),
            SeTechnique::DynamicForcingChain => chaining::find(c, Kind::Dynamic, prove),
            SeTechnique::DynamicForcingChainPlus => chaining::find(c, Kind::DynamicPlus, prove),
            SeTechnique::NestedForcingChain => chaining::find(c, Kind::NestedFc, prove),
            SeTechnique::NestedMultipleForcingChain => chaining::find(c, Kind::NestedMfc, prove),
            SeTechnique::NestedDynamicForcingChain => {
                (0..=3).find_map(|n| chaining::find(c, Kind::NestedDfc(n), prove))
            }
        }
    }
}

impl fmt::Display for SeTechnique {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The first hint SE's ladder finds in a candidate grid, `None` when no technique applies.
#[cfg(test)]
pub(crate) fn next_step(c: &Candidates) -> Option<SeStep> {
    first_step_asking(c, Tenths(u8::MAX), false)
}

/// The first hint of the producers SE asks when looking for a step rated `max` or less, whatever its rating; `None`
/// when none of them finds anything. The producers whose lowest rating is above `max` are not asked, since SE
/// would only ask them when every earlier one found nothing. A chain step carries its proof when `prove`.
fn first_step_asking(c: &Candidates, max: Tenths, prove: bool) -> Option<SeStep> {
    SeTechnique::LADDER
        .iter()
        .take_while(|t| t.floor() <= max)
        .find_map(|t| t.seek(c, prove))
}

/// A puzzle's ratings on SE's scale.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SeRating {
    /// ER, the highest rating on the path; `None` when the path stopped unsolved, no technique of SE's ladder (or
    /// none rated within a `max`) applying (then [`SeRating::ceiling`] says what is known).
    pub er: Option<Tenths>,
    /// EP, the highest rating up to the first placement; `None` when the path stopped before it.
    pub ep: Option<Tenths>,
    /// ED, the rating of the first step; `None` when the path stopped at the start.
    pub ed: Option<Tenths>,
    /// The first technique with the highest rating on the path so far (ER's technique when complete).
    pub hardest: Option<SeTechnique>,
    /// Steps taken.
    pub steps: u32,
    /// What is known of a rating that is `None`: it is above this (the `max` of
    /// [`Rater::with_se_max`](crate::human::Rater::with_se_max) the path stopped at, else 10.5: no technique
    /// of SE's ladder applies, serate's "Beyond solver").
    pub ceiling: Tenths,
}

impl SeRating {
    /// True when the whole path was within the ladder.
    pub(crate) fn is_complete(&self) -> bool {
        self.er.is_some()
    }
}

/// Writes a rating, or `>CEILING` (`>10.4`, say) when unknown.
fn write_rating(f: &mut fmt::Formatter<'_>, r: Option<Tenths>, ceiling: Tenths) -> fmt::Result {
    match r {
        Some(t) => write!(f, "{t}"),
        None => write!(f, ">{ceiling}"),
    }
}

impl fmt::Display for SeRating {
    /// `ER EP ED HARDEST` separated by single spaces: `3.4 1.5 1.2 Hidden_Pair`; an unknown rating is `>10.4` and
    /// the hardest technique then is `beyond`; a full grid's is `-`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_rating(f, self.er, self.ceiling)?;
        f.write_str(" ")?;
        write_rating(f, self.ep, self.ceiling)?;
        f.write_str(" ")?;
        write_rating(f, self.ed, self.ceiling)?;
        f.write_str(" ")?;
        match (self.er, self.hardest) {
            (None, _) => f.write_str("beyond"),
            (Some(_), None) => f.write_str("-"),
            (Some(_), Some(t)) => f.write_str(&t.name().replace(' ', "_")),
        }
    }
}

impl RatingFields for SeRating {
    /// `er`, `ep`, `ed` (numbers, or `null` above the ladder with `above` giving what they are above) and
    /// `hardest`.
    fn write_json(&self, out: &mut Vec<u8>) {
        let num = |t: Option<Tenths>| t.map(Tenths::value);
        json_field(out, "er", &num(self.er));
        json_field(out, "ep", &num(self.ep));
        json_field(out, "ed", &num(self.ed));
        if !self.is_complete() {
            json_field(out, "above", &self.ceiling.value());
        }
        json_field(out, "hardest", &self.er.and(self.hardest).map(|t| t.name()));
    }
}

/// The steps SE takes on a puzzle, easiest hint first at each step; ends when the grid is full or when no
/// implemented technique applies, or none rated `max` or less (check [`SePath::is_solved`]).
pub(crate) struct SePath {
    candidates: Candidates,
    max: Tenths,
    ceiling: Tenths,
    /// Whether chain steps carry their proofs.
    prove: bool,
}

impl SePath {
    /// The path of a puzzle with exactly one solution (checked first, as SE does).
    pub(crate) fn new(puzzle: &Grid) -> Result<SePath, RateError> {
        solver::solve_unique(puzzle)?;
        let candidates = Candidates::new(puzzle)?;
        Ok(SePath {
            candidates,
            max: Tenths(u8::MAX),
            ceiling: LADDER_TOP,
            prove: false,
        })
    }

    /// The path whose chain steps carry their chains ([`SeStep::proof`]): the same steps, read back from the
    /// producers' potentials as each step is found.
    pub(crate) fn proving(mut self) -> SePath {
        self.prove = true;
        self
    }

    /// The path that stops before a step SE rates above `max`.
    pub(crate) fn within(mut self, max: Tenths) -> SePath {
        self.max = max;
        self
    }

    /// What is known of the ratings of a path that stopped unsolved: they are above this, `max` when the path
    /// stopped before a step rated above it (or before producers rating above it), else [`LADDER_TOP`] (no
    /// producer of SE's ladder found anything).
    pub(crate) fn ceiling(&self) -> Tenths {
        self.ceiling
    }

    /// The candidate grid as it stands.
    pub(crate) fn candidates(&self) -> &Candidates {
        &self.candidates
    }

    /// True when every cell holds a value.
    pub(crate) fn is_solved(&self) -> bool {
        self.candidates.is_solved()
    }
}

impl Iterator for SePath {
    type Item = SeStep;

    fn next(&mut self) -> Option<SeStep> {
        if self.candidates.is_solved() {
            return None;
        }
        let step = first_step_asking(&self.candidates, self.max, self.prove);
        let found = step.is_some();
        let Some(step) = step.filter(|s| s.rating() <= self.max) else {
            let asked_all = SeTechnique::LADDER.iter().all(|t| t.floor() <= self.max);
            // Nothing found by every producer: SE gives up (and `max` is at least the ladder's top).
            self.ceiling = if asked_all && !found {
                LADDER_TOP
            } else {
                self.max
            };
            return None;
        };
        step.apply(&mut self.candidates);
        Some(step)
    }
}

/// Builds a [`SeRating`] from the steps of a path as they are taken.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct SeTally {
    er: Tenths,
    ep: Option<Tenths>,
    ed: Option<Tenths>,
    hardest: Option<SeTechnique>,
    steps: u32,
}

impl SeTally {
    /// Counts one step: ER so far, ED at the first step, EP at the first placement.
    pub(crate) fn add(&mut self, step: &SeStep) {
        if step.rating() > self.er {
            self.er = step.rating();
            self.hardest = Some(step.technique);
        }
        self.ed.get_or_insert(self.er);
        if self.ep.is_none() && step.placement.is_some() {
            self.ep = Some(self.er);
        }
        self.steps += 1;
    }

    /// The rating once a path that stops above `ceiling` ([`SePath::ceiling`]) ended, `solved` or stopped for want
    /// of a technique; a full grid rates 0.0 everywhere, as serate prints it.
    pub(crate) fn rating_below(&self, solved: bool, ceiling: Tenths) -> SeRating {
        let known = solved.then_some(self.er);
        SeRating {
            er: known,
            ep: self.ep.or(known),
            ed: self.ed.or(known),
            hardest: self.hardest,
            steps: self.steps,
            ceiling,
        }
    }
}

/// Rates a puzzle on SE's scale. Fails as [`super::rate`] does for clashing givens, no solution or several.
pub fn rate_se(puzzle: &Grid) -> Result<SeRating, RateError> {
    rate_se_within(puzzle, Tenths(u8::MAX))
}

/// Rates a puzzle on SE's scale as far as `max`: stops at the first step SE would rate above it, and then reports
/// what is not known as above `max` (or above [`LADDER_TOP`] when the ladder ends first).
pub(crate) fn rate_se_within(puzzle: &Grid, max: Tenths) -> Result<SeRating, RateError> {
    rate_se_seeing(puzzle, max, false, |_| {}).map(|(rating, _)| rating)
}

/// [`rate_se_within`], handing `seen` each step as it is taken, a chain step with its chains when `prove` (the
/// same steps either way); also gives the full grid the path reached, `None` when it stopped first.
pub(crate) fn rate_se_seeing(
    puzzle: &Grid,
    max: Tenths,
    prove: bool,
    mut seen: impl FnMut(&SeStep),
) -> Result<(SeRating, Option<Grid>), RateError> {
    let mut path = SePath::new(puzzle)?.within(max);
    if prove {
        path = path.proving();
    }
    let mut tally = SeTally::default();
    for step in path.by_ref() {
        tally.add(&step);
        seen(&step);
    }
    let solved = path.is_solved();
    let rating = tally.rating_below(solved, path.ceiling());
    Ok((rating, solved.then(|| path.candidates().grid())))
}

/// SE's region of type `t` (0 box, 1 row, 2 column) number `i`.
#[inline]
fn region(t: usize, i: usize) -> House {
    match t {
        0 => House::boxed(i),
        1 => House::row(i),
        _ => House::col(i),
    }
}

/// The house of SE's type `t` (0 box, 1 row, 2 column) holding `cell` (a table: the chains ask it in their
/// innermost loops).
#[inline]
fn house_of(t: usize, cell: usize) -> House {
    House(HOUSE_OF[cell][t])
}

/// `HOUSE_OF[cell][t]`: the index of [`house_of`]`(t, cell)`.
const HOUSE_OF: [[u8; 3]; 81] = {
    let mut t = [[0u8; 3]; 81];
    let mut cell = 0;
    while cell < 81 {
        let (r, c) = (cell / 9, cell % 9);
        t[cell] = [
            House::boxed(r / 3 * 3 + c / 3).0,
            House::row(r).0,
            House::col(c).0,
        ];
        cell += 1;
    }
    t
};

/// SE's scan order of region types for singles and subsets: boxes, columns, rows.
const BOX_COL_ROW: [usize; 3] = [0, 2, 1];

/// The cells of a house.
#[inline]
fn cells_of(h: House) -> CellSet {
    HOUSE_CELLS[h.0 as usize]
}

/// The 0-based positions (indexes into the house's cell list) of `cells` within house `h`, as a 9-bit mask.
#[inline]
fn positions(h: House, cells: CellSet) -> u16 {
    let list = &HOUSE_LIST[h.0 as usize];
    let mut m = 0u16;
    for (i, &cell) in list.iter().enumerate() {
        if cells.contains(cell as usize) {
            m |= 1 << i;
        }
    }
    m
}

/// The 9-bit masks in increasing value, grouped by size: `SUBSETS[OFFSET[k]..OFFSET[k + 1]]` are the masks of
/// `k` bits.
#[cfg(test)]
const SUBSETS: ([u16; 512], [usize; 11]) = {
    let mut masks = [0u16; 512];
    let mut offset = [0usize; 11];
    let mut n = 0;
    let mut k = 0;
    while k <= 9 {
        offset[k] = n;
        let mut m = 0u16;
        while m < 512 {
            if m.count_ones() == k as u32 {
                masks[n] = m;
                n += 1;
            }
            m += 1;
        }
        k += 1;
    }
    offset[10] = n;
    (masks, offset)
};

/// The `k`-subsets of 0..9 as 9-bit masks, in SE's `Permutations` order (increasing value).
#[cfg(test)]
fn combinations(k: u32) -> impl Iterator<Item = u16> {
    let (masks, offset) = &SUBSETS;
    masks[offset[k as usize]..offset[k as usize + 1]]
        .iter()
        .copied()
}

/// The number of digits of a 9-bit candidate mask, read from a table: the build targets baseline x86-64, which has
/// no popcount instruction, and the producers' inner loops count often.
#[inline]
fn count9(m: u16) -> u32 {
    u32::from(DIGIT_COUNT[m as usize & 0x1FF])
}

/// `DIGIT_COUNT[m]`: the number of bits of the 9-bit mask `m`.
const DIGIT_COUNT: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut m = 0;
    while m < 512 {
        t[m] = (m as u32).count_ones() as u8;
        m += 1;
    }
    t
};

/// Whether a bit set (cells or digits) holds two items or more, without counting them.
#[inline]
fn two_or_more(bits: u128) -> bool {
    bits & bits.wrapping_sub(1) != 0
}

/// Whether a set of cells holds exactly two, without counting them (the build has no popcount instruction).
#[inline]
fn exactly_two(s: CellSet) -> bool {
    let rest = s.0 & s.0.wrapping_sub(1);
    rest != 0 && rest & rest.wrapping_sub(1) == 0
}

/// The cells of house `h` at the positions of mask `m`.
#[cfg(test)]
#[inline]
fn cells_at(h: House, m: u16) -> CellSet {
    let list = &HOUSE_LIST[h.0 as usize];
    let mut s = CellSet::EMPTY;
    for (i, &cell) in list.iter().enumerate() {
        if m >> i & 1 != 0 {
            s.insert(cell as usize);
        }
    }
    s
}

#[cfg(test)]
mod tests;
