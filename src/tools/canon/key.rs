//! The dedupe [`Key`]: a canonical form packed exactly into 32 bytes.

use crate::grid::{Grid, CELLS};

/// A canonical form packed exactly into 32 bytes: the dedupe key. Two records are equivalent exactly when the
/// keys of their canonical forms are equal.
///
/// A set of keys costs 32 bytes per distinct puzzle, plus the set's overhead (a `HashSet<Key>` from the
/// standard library holds one control byte per bucket and at most 7 keys per 8 buckets, so 38 to 76 bytes per
/// distinct puzzle depending on where it stands between two growths).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Key([u8; 32]);

/// 10³⁴, the base of the low half of a key.
const TEN_34: u128 = 10u128.pow(34);

impl Key {
    /// The key of a canonical form, or `None` if `canonical` is not one.
    ///
    /// Packing: the first row of a canonical form is fixed by how many givens each of its stacks holds (in each
    /// stack the blanks come first and the digits are the next labels, 1, 2, … along the row), so it takes one of
    /// 64 codes. Rows 2 to 9 are 72 decimal digits: the first 38 as one number below 10³⁸ < 2¹²⁷, the last 34 as
    /// one below 10³⁴ < 2¹¹³, with the first row's code above them (bits 113 to 118). A form whose first row is
    /// not of that shape cannot be canonical and gets `None`.
    pub fn of(canonical: &Grid) -> Option<Key> {
        let cells = canonical.cells();
        let mut code = 0u128;
        let mut next = 1u8;
        for j in 0..3 {
            let triplet = &cells[3 * j..3 * j + 3];
            let blanks = triplet.iter().take_while(|&&d| d == 0).count();
            for &d in &triplet[blanks..] {
                if d != next {
                    return None;
                }
                next += 1;
            }
            code = code << 2 | (3 - blanks) as u128;
        }
        let high = cells[9..47]
            .iter()
            .fold(0u128, |acc, &d| acc * 10 + u128::from(d));
        let low = cells[47..]
            .iter()
            .fold(0u128, |acc, &d| acc * 10 + u128::from(d));
        let low = low | code << 113;
        let mut bytes = [0u8; 32];
        bytes[..16].copy_from_slice(&high.to_be_bytes());
        bytes[16..].copy_from_slice(&low.to_be_bytes());
        Some(Key(bytes))
    }

    /// The 32 bytes.
    pub fn to_bytes(self) -> [u8; 32] {
        self.0
    }

    /// The canonical form back from its key (`None` for bytes that no [`Key::of`] gives).
    pub fn to_grid(&self) -> Option<Grid> {
        let high = u128::from_be_bytes(self.0[..16].try_into().expect("16 bytes"));
        let low_all = u128::from_be_bytes(self.0[16..].try_into().expect("16 bytes"));
        let (code, mut low) = (low_all >> 113, low_all & ((1u128 << 113) - 1));
        let mut high = high;
        if code >= 64 || low >= TEN_34 || high >= 10u128.pow(38) {
            return None;
        }
        let mut cells = [0u8; CELLS];
        for cell in cells[47..].iter_mut().rev() {
            *cell = (low % 10) as u8;
            low /= 10;
        }
        for cell in cells[9..47].iter_mut().rev() {
            *cell = (high % 10) as u8;
            high /= 10;
        }
        let mut next = 1;
        for j in 0..3 {
            let givens = ((code >> (2 * (2 - j))) & 3) as usize;
            for q in 3 - givens..3 {
                cells[3 * j + q] = next;
                next += 1;
            }
        }
        Grid::from_cells(cells).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::samples;
    use super::super::*;
    use crate::grid::samples::{g, HARD};
    use crate::solver;

    #[test]
    fn keys_round_trip_and_tell_classes_apart() {
        let mut keys = std::collections::HashSet::new();
        let mut forms = std::collections::HashSet::new();
        for p in samples() {
            let c = canon(&p).unwrap();
            let k = Key::of(&c).expect("a canonical form has a key");
            assert_eq!(k.to_grid(), Some(c));
            assert_eq!(
                Key::of(&canon(&Transform::random(1, 2).apply(&p)).unwrap()),
                Some(k)
            );
            keys.insert(k);
            forms.insert(c);
        }
        assert_eq!(keys.len(), forms.len());
        // A first row with a digit before a blank in its stack is never canonical.
        assert_eq!(Key::of(&g(HARD)), None);
        let sol = canon(&solver::solve_unique(&g(HARD)).unwrap().solution).unwrap();
        assert_eq!(Key::of(&sol).unwrap().to_grid(), Some(sol));
    }
}
