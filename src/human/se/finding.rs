//! SE's steps: what an SE step shows besides what it places and removes ([`SeFinding`]: its rating, the
//! pattern's houses, cells and digits, its chains), and SE's ladder as a [`Ladder`], so that a step on it is a
//! [`Step`] like the levels'.

use std::fmt;

use super::super::house::{cell_list, cell_name, CellSet, DigitSet, HouseSet};
use super::super::step::{Ladder, Step};
use super::{Proof, SeTechnique, Tenths};

/// One step of an SE path ([`Step`] on SE's ladder).
pub(crate) type SeStep = Step<SeTechnique>;

/// What an SE step shows besides what it places and removes: its rating, the pattern's houses, cells and digits,
/// and for a chain step on a path walked with proofs ([`SePath::proving`](super::SePath::proving)) its chains; the [`Ladder::Pattern`] of
/// [`SeTechnique`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeFinding {
    /// SE's rating of this hint.
    pub(crate) rating: Tenths,
    /// The houses of the pattern.
    pub(crate) houses: HouseSet,
    /// The cells of the pattern.
    pub(crate) cells: CellSet,
    /// The digits of the pattern.
    pub(crate) digits: DigitSet,
    /// The chains of a chain step, when asked for.
    pub(crate) proof: Option<Box<Proof>>,
}

impl SeFinding {
    /// What a hint of `technique` shows at first: its technique's rating, no house, cell, digit or chain.
    pub(super) fn of(technique: SeTechnique) -> SeFinding {
        SeFinding {
            rating: technique.rating(),
            houses: HouseSet::default(),
            cells: CellSet::EMPTY,
            digits: DigitSet::EMPTY,
            proof: None,
        }
    }

    /// What a hint of `technique` shows at first, with `digit`.
    pub(super) fn showing(technique: SeTechnique, digit: u8) -> SeFinding {
        let mut f = SeFinding::of(technique);
        f.digits.insert(digit);
        f
    }
}

impl SeStep {
    /// A step of `technique` at its rating, with nothing placed, removed or shown yet.
    pub(super) fn of(technique: SeTechnique) -> SeStep {
        Step::new(technique, SeFinding::of(technique))
    }
}

impl Ladder for SeTechnique {
    type Pattern = SeFinding;
    type Rating = Tenths;

    const ALL: &'static [SeTechnique] = &SeTechnique::ALL;

    fn name(self) -> &'static str {
        SeTechnique::name(self)
    }

    fn rating_of(step: &SeStep) -> Tenths {
        step.pattern.rating
    }

    /// `Pointing 2.6: 5 in box 1, row 1 (r1c2,r1c3) => r1c7<>5`.
    fn write_step(step: &SeStep, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = &step.pattern;
        write!(f, "{} {}:", step.technique, p.rating)?;
        if !p.digits.is_empty() {
            write!(f, " {}", p.digits)?;
        }
        if !p.houses.is_empty() {
            write!(f, " in {}", p.houses)?;
        }
        if !p.cells.is_empty() {
            write!(f, " ({})", cell_list(p.cells))?;
        }
        f.write_str(" =>")?;
        if let Some((cell, digit)) = step.placement {
            write!(f, " {} = {digit}", cell_name(cell))?;
        }
        if !step.eliminations.is_empty() {
            write!(f, " {}", step.eliminations)?;
        }
        Ok(())
    }
}
