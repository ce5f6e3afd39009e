//! Houses (the 27 rows, columns and boxes) and the bit sets the techniques work with: [`CellSet`] (81 cells),
//! [`DigitSet`] (9 digits) and [`HouseSet`] (27 houses), plus the peer table.

use std::fmt;

use crate::grid::{BOX, CELLS, COL, ROW};

/// Writes what [`CellSet`] and [`DigitSet`] share: a set of small numbers held as the bits of one word, item `i`
/// in bit `i - FIRST` for `i` from `FIRST` to `LAST`, with its constants, queries, updates, operators (`!` keeps
/// to those items) and an iterator that walks the set bits; outside the crate a set is only read.
macro_rules! bit_set {
    (
        $(#[$doc:meta])*
        $set:ident($word:ty), $item:ident: $ty:ty, FIRST = $first:literal, LAST = $last:literal,
        $iter:ident
    ) => {
        $(#[$doc])*
        #[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
        pub struct $set(pub $word);

        impl $set {
            #[doc = concat!("No ", stringify!($item), ".")]
            pub(crate) const EMPTY: $set = $set(0);
            #[doc = concat!("Every ", stringify!($item), ", ", $first, " to ", $last, ".")]
            pub(crate) const ALL: $set = $set(((1 as $word) << ($last - $first + 1)) - 1);

            #[doc = concat!("The set holding one ", stringify!($item), " (", $first, " to ", $last, ").")]
            #[inline]
            pub(crate) const fn single($item: $ty) -> $set {
                $set((1 as $word) << ($item - $first))
            }

            #[doc = concat!("True when `", stringify!($item), "` is in the set.")]
            #[inline]
            pub const fn contains(self, $item: $ty) -> bool {
                self.0 >> ($item - $first) & 1 != 0
            }

            #[doc = concat!("Number of ", stringify!($item), "s.")]
            #[inline]
            pub const fn len(self) -> u32 {
                self.0.count_ones()
            }

            #[doc = concat!("True when no ", stringify!($item), " is in the set.")]
            #[inline]
            pub const fn is_empty(self) -> bool {
                self.0 == 0
            }

            #[doc = concat!("The lowest ", stringify!($item), ", if any.")]
            #[inline]
            pub fn first(self) -> Option<$ty> {
                (self.0 != 0).then(|| self.0.trailing_zeros() as $ty + $first)
            }

            #[doc = concat!("Adds a ", stringify!($item), ".")]
            #[inline]
            pub(crate) fn insert(&mut self, $item: $ty) {
                self.0 |= (1 as $word) << ($item - $first);
            }

            #[doc = concat!("Removes a ", stringify!($item), ".")]
            #[inline]
            pub(crate) fn remove(&mut self, $item: $ty) {
                self.0 &= !((1 as $word) << ($item - $first));
            }

            #[doc = concat!("The ", stringify!($item), "s, lowest first.")]
            #[inline]
            pub fn iter(self) -> $iter {
                $iter(self.0)
            }
        }

        impl std::ops::BitAnd for $set {
            type Output = $set;
            #[inline]
            fn bitand(self, o: $set) -> $set {
                $set(self.0 & o.0)
            }
        }

        impl std::ops::BitOr for $set {
            type Output = $set;
            #[inline]
            fn bitor(self, o: $set) -> $set {
                $set(self.0 | o.0)
            }
        }

        impl std::ops::BitOrAssign for $set {
            #[inline]
            fn bitor_assign(&mut self, o: $set) {
                self.0 |= o.0;
            }
        }

        impl std::ops::BitAndAssign for $set {
            #[inline]
            fn bitand_assign(&mut self, o: $set) {
                self.0 &= o.0;
            }
        }

        impl std::ops::Not for $set {
            type Output = $set;
            #[inline]
            fn not(self) -> $set {
                $set(!self.0 & $set::ALL.0)
            }
        }

        #[doc = concat!("Iterator over the ", stringify!($item), "s of a [`", stringify!($set), "`], lowest first.")]
        pub struct $iter($word);

        impl Iterator for $iter {
            type Item = $ty;
            #[inline]
            fn next(&mut self) -> Option<$ty> {
                if self.0 == 0 {
                    return None;
                }
                let i = self.0.trailing_zeros() as $ty + $first;
                self.0 &= self.0 - 1;
                Some(i)
            }
        }
    };
}

bit_set! {
    /// A set of cells, bit `i` for cell `i` (row-major, 0-based).
    CellSet(u128), cell: usize, FIRST = 0, LAST = 80, CellIter
}

impl CellSet {
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

impl fmt::Debug for CellSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{{{}}}", cell_list(*self))
    }
}

bit_set! {
    /// A set of digits, bit `d - 1` for digit `d`.
    DigitSet(u16), digit: u8, FIRST = 1, LAST = 9, DigitIter
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

    /// The house of `kind` numbered `n` (0-based).
    #[inline]
    pub(crate) const fn of(kind: HouseKind, n: usize) -> House {
        match kind {
            HouseKind::Row => House::row(n),
            HouseKind::Col => House::col(n),
            HouseKind::Box => House::boxed(n),
        }
    }

    /// The house of `kind` holding `cell`.
    #[inline]
    pub(crate) fn holding(kind: HouseKind, cell: usize) -> House {
        let n = match kind {
            HouseKind::Row => ROW[cell],
            HouseKind::Col => COL[cell],
            HouseKind::Box => BOX[cell],
        };
        House::of(kind, n as usize)
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
pub(crate) struct HouseSet(pub u32);

impl HouseSet {
    /// The set holding one house.
    pub(crate) const fn single(h: House) -> HouseSet {
        HouseSet(1 << h.0)
    }

    /// The houses in index order.
    pub(crate) fn iter(self) -> impl Iterator<Item = House> {
        (0..27u8).filter(move |&h| self.0 >> h & 1 != 0).map(House)
    }

    /// Number of houses.
    #[cfg(test)]
    pub(crate) const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// True when empty.
    pub(crate) const fn is_empty(self) -> bool {
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

    #[test]
    fn bit_sets_hold_what_their_bits_say() {
        // Every digit set, against the definition: digit `d` is bit `d - 1` of nine.
        for mask in 0..=0x1FFu16 {
            let s = DigitSet(mask);
            let digits: Vec<u8> = (1..=9).filter(|d| mask >> (d - 1) & 1 == 1).collect();
            assert_eq!(s.iter().collect::<Vec<_>>(), digits);
            assert_eq!(s.len() as usize, digits.len());
            assert_eq!(s.is_empty(), digits.is_empty());
            assert_eq!(s.first(), digits.first().copied());
            assert_eq!((!s).0, 0x1FF ^ mask);
            for d in 1..=9 {
                assert_eq!(s.contains(d), digits.contains(&d));
                let mut t = s;
                t.insert(d);
                assert_eq!(t, s | DigitSet::single(d));
                t.remove(d);
                assert_eq!(t, s & !DigitSet::single(d));
                assert!(!t.contains(d) && t.len() + u32::from(s.contains(d)) == s.len());
            }
        }
        assert_eq!(
            DigitSet::ALL.iter().collect::<Vec<_>>(),
            (1..=9).collect::<Vec<_>>()
        );
        // Cell sets: cell `c` is bit `c`; the complement stays inside the 81 cells.
        assert_eq!(
            CellSet::ALL.iter().collect::<Vec<_>>(),
            (0..81).collect::<Vec<_>>()
        );
        for cells in [
            vec![],
            vec![0],
            vec![80],
            vec![3, 40, 64, 79],
            (0..81).step_by(7).collect(),
        ] {
            let mut s = CellSet::EMPTY;
            for &c in &cells {
                s.insert(c);
            }
            assert_eq!(s.iter().collect::<Vec<_>>(), cells);
            assert_eq!(s.first(), cells.first().copied());
            assert_eq!((!s).len() as usize, 81 - cells.len());
            assert_eq!(!s & s, CellSet::EMPTY);
            assert_eq!(!s | s, CellSet::ALL);
            for &c in &cells {
                s.remove(c);
            }
            assert!(s.is_empty());
        }
    }
}
