//! SE's basic fish: X-Wing (3.2), Swordfish (3.8) and Jellyfish (5.2), columns as base first, then rows.

use super::super::candidates::Candidates;
use super::{cells_of, combinations, count9, region, two_or_more, SeStep, SeTechnique};
use crate::human::house::{CellSet, HouseSet};

/// SE's `Fisherman(degree)`: base region type column then row; base line combinations in order, and for each,
/// digits ascending that are placed at most `9 - 2 * degree` times; every base line holds the digit in two places
/// or more and together in `degree` cover lines; kept when the digit leaves other cells of the cover lines.
pub(super) fn find(c: &Candidates, degree: u32) -> Option<SeStep> {
    // For each digit, its places in each column (as rows) and in each row (as columns).
    let mut lines = [[[0u16; 9]; 9]; 2];
    let mut digits = Vec::with_capacity(9);
    for d in 1..=9u8 {
        if c.placed(d).len() + 2 * degree > 9 {
            continue;
        }
        digits.push(d);
        for cell in c.places(d).iter() {
            let (r, col) = (cell / 9, cell % 9);
            lines[0][d as usize - 1][col] |= 1 << r;
            lines[1][d as usize - 1][r] |= 1 << col;
        }
    }
    // For each digit, the lines holding it in two places or more: a base line must.
    let mut eligible = [[0u16; 9]; 2];
    for k in 0..2 {
        for &d in &digits {
            let per_line = &lines[k][d as usize - 1];
            eligible[k][d as usize - 1] = (0..9)
                .filter(|&i| two_or_more(per_line[i].into()))
                .fold(0, |e, i| e | 1 << i);
        }
    }
    for (k, (base_t, cover_t)) in [(2, 1), (1, 2)].into_iter().enumerate() {
        for m in combinations(degree) {
            for &d in &digits {
                if m & !eligible[k][d as usize - 1] != 0 {
                    continue;
                }
                let per_line = &lines[k][d as usize - 1];
                let mut cover = 0u16;
                let mut rest = m;
                while rest != 0 {
                    cover |= per_line[rest.trailing_zeros() as usize];
                    rest &= rest - 1;
                }
                if count9(cover) != degree {
                    continue;
                }
                let places = c.places(d);
                let mut base_cells = CellSet::EMPTY;
                let mut cover_cells = CellSet::EMPTY;
                let mut houses = HouseSet::default();
                for i in 0..9 {
                    if m >> i & 1 != 0 {
                        base_cells |= places & cells_of(region(base_t, i));
                        houses.0 |= HouseSet::single(region(base_t, i)).0;
                    }
                    if cover >> i & 1 != 0 {
                        cover_cells |= cells_of(region(cover_t, i));
                        houses.0 |= HouseSet::single(region(cover_t, i)).0;
                    }
                }
                let removed = places & cover_cells & !base_cells;
                if removed.is_empty() {
                    continue;
                }
                let t = match degree {
                    2 => SeTechnique::XWing,
                    3 => SeTechnique::Swordfish,
                    _ => SeTechnique::Jellyfish,
                };
                let mut s = SeStep::removing(t, removed, d);
                s.houses = houses;
                s.cells = base_cells;
                return Some(s);
            }
        }
    }
    None
}
