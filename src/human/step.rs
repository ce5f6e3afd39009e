//! The typed steps of a human-style solving path: the [`Technique`] used, the [`Finding`] it found, and what it
//! placed or eliminated ([`Eliminations`]), with the one-line text `explain` prints for each.

use std::fmt;

use super::candidates::Candidates;
use super::house::{cell_list, cell_name, CellSet, DigitSet, House, HouseSet};
use super::technique::Technique;

/// What a technique found, with the cells, houses and digits a person needs to see it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Finding {
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

/// One step of a solving path: a technique placed a digit or removed candidates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Step {
    /// The technique.
    pub technique: Technique,
    /// What it found.
    pub(crate) pattern: Finding,
    /// The `(cell, digit)` placed, for singles.
    pub placement: Option<(usize, u8)>,
    /// The candidates removed (none for singles: a placement's effect on peers is implied).
    pub(crate) eliminations: Eliminations,
}

impl Step {
    /// A step removing one digit from some cells.
    pub(crate) fn removing(
        technique: Technique,
        pattern: Finding,
        cells: CellSet,
        digit: u8,
    ) -> Step {
        let mut eliminations = Eliminations::NONE;
        eliminations.add(cells, digit);
        Step {
            technique,
            pattern,
            placement: None,
            eliminations,
        }
    }

    /// Applies the step to a candidate grid.
    pub(crate) fn apply(&self, c: &mut Candidates) {
        if let Some((cell, digit)) = self.placement {
            c.place(cell, digit);
        }
        for (cell, digit) in self.eliminations.iter() {
            c.eliminate(cell, digit);
        }
    }
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let t = self.technique;
        match self.pattern {
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
        write!(f, " => {}", self.eliminations)
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
