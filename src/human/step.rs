//! The one family of steps both ladders share: a [`Ladder`] is a scale's technique type (its names, its order,
//! what its steps show and how they are rated), implemented by the levels' [`Technique`] (here, with its
//! [`Finding`]) and by SE's [`SeTechnique`](super::SeTechnique) (in `se`, with its `SeFinding`); a [`Step`] of
//! either ladder is the technique used, what it placed or eliminated ([`Eliminations`]), applied the same way, and
//! the ladder's own pattern, with the one-line text `explain` prints for each.

use std::fmt;

use super::candidates::Candidates;
use super::house::{cell_list, cell_name, CellSet, DigitSet, House, HouseSet};
use super::technique::Technique;

/// A ladder of techniques, the type of a rating scale's techniques: the levels' [`Technique`] or Sudoku
/// Explainer's [`SeTechnique`](super::SeTechnique). Generic code over the ladder reads a [`Step`]'s name and
/// rating through it; each ladder keeps its own pattern and its own step text.
pub trait Ladder: Copy + Eq + fmt::Debug + fmt::Display + Sized + 'static {
    /// What a step of this ladder shows besides the technique, the placement and the eliminations.
    type Pattern: Clone + fmt::Debug + PartialEq + Eq;
    /// A step's rating: a weight on the levels' scale, tenths on SE's.
    type Rating: Copy + Ord + fmt::Debug + fmt::Display;

    /// Every technique of the ladder, each once, in the ladder's order.
    const ALL: &'static [Self];

    /// The technique's name as `rate` and `explain --json` write it (`x-wing`; SE's `X-Wing`).
    fn name(self) -> &'static str;

    /// The technique of [`Ladder::ALL`] whose [`Ladder::name`] is `name`.
    fn from_name(name: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|t| t.name() == name)
    }

    /// The rating of `step` (a levels step's is its technique's weight; an SE step's is its own, which may differ
    /// from its technique's: a hidden single rates 1.0, 1.2 or 1.5 by its house).
    fn rating_of(step: &Step<Self>) -> Self::Rating;

    /// Writes `step` as `explain` prints it.
    fn write_step(step: &Step<Self>, f: &mut fmt::Formatter<'_>) -> fmt::Result;
}

/// What a technique of the levels' ladder found, with the cells, houses and digits a person needs to see it: the
/// [`Ladder::Pattern`] of [`Technique`]. Public only as that (its module is private, so it cannot be named
/// outside the crate), its field types are the crate's own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(private_interfaces)]
pub enum Finding {
    /// A naked single (`house` is `None`) or a hidden single in `house`.
    Single {
        /// 0-based cell.
        cell: usize,
        /// The digit placed.
        digit: u8,
        /// The house where the digit has one place (hidden single).
        house: Option<House>,
    },
    /// Locked candidates: `digit` in `from` lies only where `from` meets `to`.
    Intersection {
        /// The digit.
        digit: u8,
        /// The house whose candidates are confined (the box when pointing, the line when claiming).
        from: House,
        /// The house the candidates are removed from.
        to: House,
    },
    /// A naked or hidden subset: `cells` of `house` hold `digits` and nothing else of the house can hold them.
    Subset {
        /// The house.
        house: House,
        /// The cells of the subset.
        cells: CellSet,
        /// The digits of the subset.
        digits: DigitSet,
    },
    /// A fish on `digit`: its candidates in the `base` houses lie in the `cover` houses.
    Fish {
        /// The digit.
        digit: u8,
        /// Rows (or columns) holding the pattern.
        base: HouseSet,
        /// Columns (or rows) the pattern covers; the digit leaves their other cells.
        cover: HouseSet,
    },
    /// Two strong links on `digit` (houses where it has exactly two places) with one end of each seeing the
    /// other: one of the two far `ends` holds the digit (Skyscraper, 2-String Kite).
    Links {
        /// The digit.
        digit: u8,
        /// The two houses holding the strong links.
        links: [House; 2],
        /// The far ends of the links (0-based cells).
        ends: [usize; 2],
    },
    /// A W-Wing: two `cells` holding only `digits`, joined by the strong link on the other digit in `link`.
    WWing {
        /// The two bivalue cells.
        cells: [usize; 2],
        /// Their two candidates.
        digits: DigitSet,
        /// The house where the linking digit has exactly two places.
        link: House,
        /// The digit eliminated.
        digit: u8,
    },
    /// Simple colouring: the cells of a cluster of strong links on `digit`, in their two colours.
    Coloring {
        /// The digit.
        digit: u8,
        /// The two colours; exactly one holds the digit.
        colors: [CellSet; 2],
    },
    /// An XY-Wing or XYZ-Wing: `digit` leaves the cells that see the pivot's pincers (and the pivot, for XYZ).
    Wing {
        /// 0-based pivot cell.
        pivot: usize,
        /// The pivot's candidates.
        pivot_digits: DigitSet,
        /// 0-based pincer cells.
        pincers: [usize; 2],
        /// The pincers' candidates.
        pincer_digits: [DigitSet; 2],
        /// The digit eliminated.
        digit: u8,
    },
}

/// Candidates removed by a step: for each digit, the cells it leaves.
#[derive(Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Eliminations {
    cells: [CellSet; 9],
}

impl Eliminations {
    /// No elimination.
    pub(crate) const NONE: Eliminations = Eliminations {
        cells: [CellSet::EMPTY; 9],
    };

    /// Removes `digit` from `cells` as well.
    #[inline]
    pub(crate) fn add(&mut self, cells: CellSet, digit: u8) {
        self.cells[digit as usize - 1] |= cells;
    }

    /// The cells `digit` leaves.
    #[inline]
    pub(crate) fn cells(&self, digit: u8) -> CellSet {
        self.cells[digit as usize - 1]
    }

    /// True when nothing is removed.
    pub(crate) fn is_empty(&self) -> bool {
        self.cells.iter().all(|c| c.is_empty())
    }

    /// Number of candidates removed.
    #[cfg(test)]
    pub(crate) fn len(&self) -> u32 {
        self.cells.iter().map(|c| c.len()).sum()
    }

    /// Every `(cell, digit)` removed, digit by digit, cells ascending.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (usize, u8)> + '_ {
        (1..=9u8).flat_map(move |d| self.cells(d).iter().map(move |c| (c, d)))
    }
}

impl fmt::Display for Eliminations {
    /// `r2c5,r2c7<>3, r1c2<>59`: digits that leave the same cells are written together.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut groups: Vec<(CellSet, DigitSet)> = Vec::new();
        for d in 1..=9u8 {
            let cells = self.cells(d);
            if cells.is_empty() {
                continue;
            }
            match groups.iter_mut().find(|(c, _)| *c == cells) {
                Some((_, ds)) => ds.insert(d),
                None => groups.push((cells, DigitSet::single(d))),
            }
        }
        let parts: Vec<String> = groups
            .iter()
            .map(|(c, ds)| format!("{}<>{ds}", cell_list(*c)))
            .collect();
        f.write_str(&parts.join(", "))
    }
}

impl fmt::Debug for Eliminations {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Eliminations({self})")
    }
}

/// One step of a solving path on ladder `T` (the levels' [`Technique`] unless told): the technique placed a digit,
/// removed candidates, or both (SE's chain steps may do both).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Step<T: Ladder = Technique> {
    /// The technique.
    pub technique: T,
    /// What it found, as its ladder shows it.
    pub(crate) pattern: T::Pattern,
    /// The `(cell, digit)` placed, for singles (and SE's direct techniques and chain steps).
    pub placement: Option<(usize, u8)>,
    /// The candidates removed (none for singles: a placement's effect on peers is implied).
    pub(crate) eliminations: Eliminations,
}

impl<T: Ladder> Step<T> {
    /// A step of `technique` showing `pattern`, with nothing placed or removed yet.
    pub(crate) fn new(technique: T, pattern: T::Pattern) -> Step<T> {
        Step {
            technique,
            pattern,
            placement: None,
            eliminations: Eliminations::NONE,
        }
    }

    /// A step removing one digit from some cells.
    pub(crate) fn removing(
        technique: T,
        pattern: T::Pattern,
        cells: CellSet,
        digit: u8,
    ) -> Step<T> {
        let mut step = Step::new(technique, pattern);
        step.eliminations.add(cells, digit);
        step
    }

    /// The step's rating on its ladder's scale ([`Ladder::rating_of`]).
    pub fn rating(&self) -> T::Rating {
        T::rating_of(self)
    }

    /// Applies the step to a candidate grid: the placement, then the eliminations.
    ///
    /// The order does not matter (SE applies the eliminations first, the levels the placement first; both give
    /// this grid), whatever the step: [`Candidates::eliminate`] only clears one candidate of one cell, and
    /// [`Candidates::place`] clears every candidate of its cell and its digit from the cell's peers, so an
    /// elimination in the placed cell, or of the placed digit in a peer, is made by the placement either way, and
    /// any other elimination touches a candidate the placement neither reads nor writes.
    pub(crate) fn apply(&self, c: &mut Candidates) {
        if let Some((cell, digit)) = self.placement {
            c.place(cell, digit);
        }
        for (cell, digit) in self.eliminations.iter() {
            c.eliminate(cell, digit);
        }
    }
}

impl<T: Ladder> fmt::Display for Step<T> {
    /// The step as its ladder writes it ([`Ladder::write_step`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        T::write_step(self, f)
    }
}

impl Ladder for Technique {
    type Pattern = Finding;
    type Rating = u32;

    const ALL: &'static [Technique] = &Technique::ALL;

    fn name(self) -> &'static str {
        Technique::name(self)
    }

    fn rating_of(step: &Step) -> u32 {
        step.technique.weight()
    }

    /// `pointing: 5 in box 1 lies only in row 1 => r1c7<>5`: the technique, the pattern, what it removes.
    fn write_step(step: &Step, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let t = step.technique;
        match step.pattern {
            Finding::Single { cell, digit, house } => {
                write!(f, "{t}")?;
                if let Some(h) = house {
                    write!(f, " in {h}")?;
                }
                return write!(f, ": {} = {digit}", cell_name(cell));
            }
            Finding::Intersection { digit, from, to } => {
                write!(f, "{t}: {digit} in {from} lies only in {to}")?
            }
            Finding::Subset {
                house,
                cells,
                digits,
            } => write!(f, "{t} {digits} in {house} ({})", cell_list(cells))?,
            Finding::Fish { digit, base, cover } => {
                write!(f, "{t} on {digit} in {base} ({cover})")?
            }
            Finding::Links { digit, links, ends } => write!(
                f,
                "{t} on {digit}: {} and {} (ends {}, {})",
                links[0],
                links[1],
                cell_name(ends[0]),
                cell_name(ends[1])
            )?,
            Finding::WWing {
                cells,
                digits,
                link,
                digit,
            } => {
                let x = digits & !DigitSet::single(digit);
                write!(
                    f,
                    "{t}: {} and {} ({digits}) linked by {x} in {link}",
                    cell_name(cells[0]),
                    cell_name(cells[1])
                )?
            }
            Finding::Coloring { digit, colors } => write!(
                f,
                "{t} on {digit}: {} / {}",
                cell_list(colors[0]),
                cell_list(colors[1])
            )?,
            Finding::Wing {
                pivot,
                pivot_digits,
                pincers,
                pincer_digits,
                ..
            } => write!(
                f,
                "{t}: pivot {} ({pivot_digits}), pincers {} ({}), {} ({})",
                cell_name(pivot),
                cell_name(pincers[0]),
                pincer_digits[0],
                cell_name(pincers[1]),
                pincer_digits[1]
            )?,
        }
        write!(f, " => {}", step.eliminations)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eliminations_group_digits_with_the_same_cells() {
        let mut e = Eliminations::NONE;
        let mut two = CellSet::EMPTY;
        two.insert(13);
        two.insert(15);
        e.add(two, 3);
        e.add(CellSet::single(1), 5);
        e.add(CellSet::single(1), 9);
        assert_eq!(e.to_string(), "r2c5,r2c7<>3, r1c2<>59");
        assert_eq!(e.len(), 4);
        assert_eq!(
            e.iter().collect::<Vec<_>>(),
            vec![(13, 3), (15, 3), (1, 5), (1, 9)]
        );
    }
}
