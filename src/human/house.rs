//! Houses (the 27 rows, columns and boxes) and the bit sets the techniques work with: [`CellSet`] (81 cells),
//! [`DigitSet`] (9 digits) and [`HouseSet`] (27 houses), plus the peer table.

use std::fmt;

use crate::grid::{BOX, CELLS, COL, ROW};

/// A set of cells, bit `i` for cell `i` (row-major, 0-based).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CellSet(pub u128);

impl CellSet {
    /// No cell.
    pub const EMPTY: CellSet = CellSet(0);
    /// All 81 cells.
    pub const ALL: CellSet = CellSet((1u128 << CELLS) - 1);

    /// The set holding one cell.
    #[inline]
    pub const fn single(cell: usize) -> CellSet {
        CellSet(1u128 << cell)
    }

    /// True when `cell` is in the set.
    #[inline]
    pub const fn contains(self, cell: usize) -> bool {
        self.0 >> cell & 1 != 0
    }

    /// Number of cells.
    #[inline]
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// True when no cell is in the set.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The lowest cell, if any.
    #[inline]
    pub fn first(self) -> Option<usize> {
        (self.0 != 0).then(|| self.0.trailing_zeros() as usize)
    }

    /// Adds a cell.
    #[inline]
    pub fn insert(&mut self, cell: usize) {
        self.0 |= 1u128 << cell;
    }

    /// Removes a cell.
    #[inline]
    pub fn remove(&mut self, cell: usize) {
        self.0 &= !(1u128 << cell);
    }

    /// The cells, lowest first.
    #[inline]
    pub fn iter(self) -> CellIter {
        CellIter(self.0)
    }

    /// The rows (0..9) the cells lie in, as a 9-bit mask.
    pub fn rows(self) -> u16 {
        self.iter().fold(0, |m, c| m | 1 << ROW[c])
    }

    /// The columns (0..9) the cells lie in, as a 9-bit mask.
    pub fn cols(self) -> u16 {
        self.iter().fold(0, |m, c| m | 1 << COL[c])
    }

    /// The boxes (0..9) the cells lie in, as a 9-bit mask.
    pub fn boxes(self) -> u16 {
        self.iter().fold(0, |m, c| m | 1 << BOX[c])
    }
}

impl std::ops::BitAnd for CellSet {
    type Output = CellSet;
    #[inline]
    fn bitand(self, o: CellSet) -> CellSet {
        CellSet(self.0 & o.0)
    }
}

impl std::ops::BitOr for CellSet {
    type Output = CellSet;
    #[inline]
    fn bitor(self, o: CellSet) -> CellSet {
        CellSet(self.0 | o.0)
    }
}

impl std::ops::BitOrAssign for CellSet {
    #[inline]
    fn bitor_assign(&mut self, o: CellSet) {
        self.0 |= o.0;
    }
}

impl std::ops::BitAndAssign for CellSet {
    #[inline]
    fn bitand_assign(&mut self, o: CellSet) {
        self.0 &= o.0;
    }
}

impl std::ops::Not for CellSet {
    type Output = CellSet;
    #[inline]
    fn not(self) -> CellSet {
        CellSet(!self.0 & CellSet::ALL.0)
    }
}

/// Iterator over the cells of a [`CellSet`], lowest first.
pub struct CellIter(u128);

impl Iterator for CellIter {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let c = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(c)
    }
}

impl fmt::Debug for CellSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{{{}}}", cell_list(*self))
    }
}

/// A set of digits, bit `d - 1` for digit `d`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct DigitSet(pub u16);

impl DigitSet {
    /// No digit.
    pub const EMPTY: DigitSet = DigitSet(0);
    /// Digits 1 to 9.
    pub const ALL: DigitSet = DigitSet(0x1FF);

    /// The set holding one digit (1..=9).
    #[inline]
    pub const fn single(digit: u8) -> DigitSet {
        DigitSet(1 << (digit - 1))
    }

    /// True when `digit` (1..=9) is in the set.
    #[inline]
    pub const fn contains(self, digit: u8) -> bool {
        self.0 >> (digit - 1) & 1 != 0
    }

    /// Number of digits.
    #[inline]
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// True when the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The lowest digit, if any.
    #[inline]
    pub fn first(self) -> Option<u8> {
        (self.0 != 0).then(|| self.0.trailing_zeros() as u8 + 1)
    }

    /// The digits, lowest first.
    pub fn iter(self) -> impl Iterator<Item = u8> {
        (1..=9u8).filter(move |&d| self.contains(d))
    }
}

impl fmt::Display for DigitSet {
    /// Digits run together, as people write candidates: `{157}` prints as `157`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for d in self.iter() {
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for DigitSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{{{self}}}")
    }
}

/// One of the 27 houses: index 0..9 rows, 9..18 columns, 18..27 boxes.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct House(pub u8);

/// What kind of house.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HouseKind {
    /// A row.
    Row,
    /// A column.
    Col,
    /// A 3x3 box.
    Box,
}

impl House {
    /// Row `r` (0-based).
    pub const fn row(r: usize) -> House {
        House(r as u8)
    }
    /// Column `c` (0-based).
    pub const fn col(c: usize) -> House {
        House(9 + c as u8)
    }
    /// Box `b` (0-based, row-major).
    pub const fn boxed(b: usize) -> House {
        House(18 + b as u8)
    }

    /// Row, column or box.
    pub const fn kind(self) -> HouseKind {
        match self.0 / 9 {
            0 => HouseKind::Row,
            1 => HouseKind::Col,
            _ => HouseKind::Box,
        }
    }

    /// 0-based number within its kind.
    pub const fn number(self) -> usize {
        (self.0 % 9) as usize
    }

    /// The nine cells.
    #[inline]
    pub fn cells(self) -> CellSet {
        HOUSE_CELLS[self.0 as usize]
    }

    /// All 27 houses: rows, then columns, then boxes.
    pub fn all() -> impl Iterator<Item = House> {
        (0..27u8).map(House)
    }
}

impl fmt::Display for House {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.number() + 1;
        match self.kind() {
            HouseKind::Row => write!(f, "row {n}"),
            HouseKind::Col => write!(f, "column {n}"),
            HouseKind::Box => write!(f, "box {n}"),
        }
    }
}

impl fmt::Debug for House {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

/// A set of houses, bit `h` for house `h`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct HouseSet(pub u32);

impl HouseSet {
    /// The set holding one house.
    pub const fn single(h: House) -> HouseSet {
        HouseSet(1 << h.0)
    }

    /// The houses in index order.
    pub fn iter(self) -> impl Iterator<Item = House> {
        (0..27u8).filter(move |&h| self.0 >> h & 1 != 0).map(House)
    }

    /// Number of houses.
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// True when empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
}

impl fmt::Debug for HouseSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl fmt::Display for HouseSet {
    /// `rows 2,7` or `column 4` or a mixed list `row 1, box 3`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let houses: Vec<House> = self.iter().collect();
        let same_kind = houses.windows(2).all(|w| w[0].kind() == w[1].kind());
        if houses.len() > 1 && same_kind {
            let word = match houses[0].kind() {
                HouseKind::Row => "rows",
                HouseKind::Col => "columns",
                HouseKind::Box => "boxes",
            };
            let nums: Vec<String> = houses
                .iter()
                .map(|h| (h.number() + 1).to_string())
                .collect();
            write!(f, "{word} {}", nums.join(","))
        } else {
            let names: Vec<String> = houses.iter().map(|h| h.to_string()).collect();
            f.write_str(&names.join(", "))
        }
    }
}

/// The cells of each house, indexed by [`House`].
pub(super) const HOUSE_CELLS: [CellSet; 27] = {
    let mut t = [CellSet(0); 27];
    let mut i = 0;
    while i < CELLS {
        let bit = 1u128 << i;
        t[ROW[i] as usize].0 |= bit;
        t[9 + COL[i] as usize].0 |= bit;
        t[18 + BOX[i] as usize].0 |= bit;
        i += 1;
    }
    t
};

/// The nine cells of each house, ascending, indexed by [`House`].
pub(super) const HOUSE_LIST: [[u8; 9]; 27] = {
    let mut t = [[0u8; 9]; 27];
    let mut fill = [0usize; 27];
    let mut i = 0;
    while i < CELLS {
        let hs = [ROW[i] as usize, 9 + COL[i] as usize, 18 + BOX[i] as usize];
        let mut k = 0;
        while k < 3 {
            t[hs[k]][fill[hs[k]]] = i as u8;
            fill[hs[k]] += 1;
            k += 1;
        }
        i += 1;
    }
    t
};

/// The 20 peers of each cell (same row, column or box, the cell itself excluded).
pub(super) const PEERS: [CellSet; CELLS] = {
    let mut t = [CellSet(0); CELLS];
    let mut i = 0;
    while i < CELLS {
        let all = HOUSE_CELLS[ROW[i] as usize].0
            | HOUSE_CELLS[9 + COL[i] as usize].0
            | HOUSE_CELLS[18 + BOX[i] as usize].0;
        t[i] = CellSet(all & !(1u128 << i));
        i += 1;
    }
    t
};

pub(super) use crate::grid::cell_name;

/// Cells as `r1c2,r3c4`.
pub(super) fn cell_list(cells: CellSet) -> String {
    let names: Vec<String> = cells.iter().map(cell_name).collect();
    names.join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_cell_is_in_exactly_three_houses_and_has_twenty_peers() {
        for (cell, peers) in PEERS.iter().enumerate() {
            let n = House::all().filter(|h| h.cells().contains(cell)).count();
            assert_eq!(n, 3);
            assert_eq!(peers.len(), 20);
            assert!(!peers.contains(cell));
            // A peer shares a house with the cell.
            for p in peers.iter() {
                assert!(House::all().any(|h| h.cells().contains(p) && h.cells().contains(cell)));
            }
        }
        for h in House::all() {
            assert_eq!(h.cells().len(), 9);
        }
    }

    #[test]
    fn names_and_sets_print_as_people_write_them() {
        assert_eq!(House::row(0).to_string(), "row 1");
        assert_eq!(House::col(8).to_string(), "column 9");
        assert_eq!(House::boxed(4).to_string(), "box 5");
        let rows = HouseSet(HouseSet::single(House::row(1)).0 | HouseSet::single(House::row(6)).0);
        assert_eq!(rows.to_string(), "rows 2,7");
        let mut cs = CellSet::EMPTY;
        cs.insert(0);
        cs.insert(80);
        assert_eq!(cell_list(cs), "r1c1,r9c9");
        assert_eq!(DigitSet(0b1_0100_0001).to_string(), "179");
        assert_eq!(cs.rows(), 0b1_0000_0001);
        assert_eq!((!cs).len(), 79);
    }
}
