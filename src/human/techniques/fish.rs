//! Fish on one digit: X-Wing (2), Swordfish (3) and Jellyfish (4). When a digit's candidates in `n` base rows lie
//! in `n` columns, those columns must take the digit in the base rows, so it leaves the columns' other cells (and
//! the same with rows and columns swapped).

use super::super::candidates::Candidates;
use super::super::house::{CellSet, House, HouseSet, HOUSE_CELLS};
use super::super::step::{Finding, Step};
use super::super::technique::Technique;
use super::cover::first_cover;

/// Digits 1..9; for each, rows as base first, then columns.
pub(super) fn fish(c: &Candidates, n: usize) -> Option<Step> {
    let technique = match n {
        2 => Technique::XWing,
        3 => Technique::Swordfish,
        _ => Technique::Jellyfish,
    };
    for digit in 1..=9u8 {
        let places = c.places(digit);
        for (base_first, cover_first) in [(0usize, 9usize), (9, 0)] {
            // Base lines with 2..=n candidates, and the cover lines each one touches (as a 9-bit mask).
            let (mut lines, mut covers, mut count) = ([0usize; 9], [0u16; 9], 0);
            for i in 0..9 {
                let p = places & HOUSE_CELLS[base_first + i];
                let cover = if base_first == 0 { p.cols() } else { p.rows() };
                if (2..=n as u32).contains(&cover.count_ones()) {
                    lines[count] = i;
                    covers[count] = cover;
                    count += 1;
                }
            }
            let found = first_cover(&covers[..count], n, &mut |pick, cover| {
                let mut base_cells = CellSet::EMPTY;
                let mut base = HouseSet::default();
                for &k in pick {
                    let i = lines[k];
                    base_cells |= HOUSE_CELLS[base_first + i];
                    base.0 |= HouseSet::single(House((base_first + i) as u8)).0;
                }
                let mut cover_cells = CellSet::EMPTY;
                let mut cover_set = HouseSet::default();
                for j in (0..9).filter(|j| cover >> j & 1 != 0) {
                    cover_cells |= HOUSE_CELLS[cover_first + j];
                    cover_set.0 |= HouseSet::single(House((cover_first + j) as u8)).0;
                }
                let gone = places & cover_cells & !base_cells;
                if gone.is_empty() {
                    return None;
                }
                let pattern = Finding::Fish {
                    digit,
                    base,
                    cover: cover_set,
                };
                Some(Step::removing(technique, pattern, gone, digit))
            });
            if found.is_some() {
                return found;
            }
        }
    }
    None
}
