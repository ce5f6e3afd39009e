//! A potential of SE's chains: a candidate assumed or implied on or off, the link (its cause) that implied it and
//! the potential it came from; the candidates' keys among the 729 and the "no potential" mark.

/// No potential: the parent of an assumption, an empty slot of a table of potentials.
pub(super) const NONE: u32 = u32::MAX;

/// The key of candidate `digit` of `cell` among the 729 (cell, digit) pairs: `cell * 9 + digit - 1`.
#[inline]
pub(super) fn key(cell: u8, digit: u8) -> usize {
    cell as usize * 9 + digit as usize - 1
}

/// A potential: `digit` in `cell`, on or off, with the potential that implied it (a static chain's: one parent).
#[derive(Clone, Copy)]
pub(super) struct Node {
    pub cell: u8,
    pub digit: u8,
    pub on: bool,
    /// SE's cause of the link that implied it: [`NO_CAUSE`], [`NAKED`], or [`REGION`] plus the house type of
    /// `house_of` (box, row, column).
    pub cause: u8,
    pub parent: u32,
}

/// The assumption itself (no link).
pub(super) const NO_CAUSE: u8 = 0;
/// A link inside a cell (SE's `NakedSingle` cause).
pub(super) const NAKED: u8 = 1;
/// A link inside a house (SE's hidden-single causes), plus the house type.
pub(super) const REGION: u8 = 2;

impl Node {
    /// `digit` in `cell`, `on` or off, implied by the node `parent` through a link of `cause`.
    pub(super) fn implied(parent: u32, cell: usize, digit: u8, on: bool, cause: u8) -> Node {
        Node {
            cell: cell as u8,
            digit,
            on,
            cause,
            parent,
        }
    }

    /// The potential as a nested hint's chains hold it ([`NestedHint::identity`](super::hint::NestedHint)):
    /// `key * 2 + on`.
    pub(super) fn identity(&self) -> u16 {
        (key(self.cell, self.digit) * 2 + usize::from(self.on)) as u16
    }

    /// The same candidate in the same state.
    pub(super) fn same(&self, o: &Node) -> bool {
        self.cell == o.cell && self.digit == o.digit && self.on == o.on
    }
}
