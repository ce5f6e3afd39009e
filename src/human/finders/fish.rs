//! Fish on one digit: X-Wing (2), Swordfish (3) and Jellyfish (4). When a digit's places in `n` base lines (rows,
//! or columns) lie in `n` cover lines (columns, or rows), the cover lines must take the digit in the base lines,
//! so it leaves the cover lines' other cells.

use super::super::candidates::Candidates;
use super::super::house::{CellSet, DigitSet, House, HouseKind, HouseSet};
use super::cover::{first_cover, Order};

/// A fish found: `digit`'s places in the `base` lines lie in the `cover` lines, and it leaves `removed`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Fish {
    /// The digit.
    pub digit: u8,
    /// The base lines.
    pub base: HouseSet,
    /// The cover lines.
    pub cover: HouseSet,
    /// The digit's places in the base lines.
    pub places: CellSet,
    /// The digit's places in the cover lines outside the base lines (never empty).
    pub removed: CellSet,
}

/// The order of a fish scan.
#[derive(Debug, Clone, Copy)]
pub(crate) struct FishScan {
    /// The kinds of base line, in order (rows and columns).
    pub bases: [HouseKind; 2],
    /// The digits looked at, ascending.
    pub digits: DigitSet,
    /// For each kind of base line, the combinations of base lines in the outer loop and the digits inside (else
    /// the digits outermost, then the kinds of base line, then the combinations).
    pub lines_first: bool,
    /// The order of the combinations of base lines.
    pub order: Order,
}

/// The first fish of `n` lines (2 to 4) that removes something, in the order of `scan`. A base line holds the
/// digit in two places or more (in one place it would be a single, not part of a fish).
pub(crate) fn first_fish(c: &Candidates, n: usize, scan: &FishScan) -> Option<Fish> {
    if !scan.lines_first {
        for digit in scan.digits.iter() {
            for &kind in &scan.bases {
                if let Some((_, fish)) = first_of_digit(c, n, kind, digit, scan.order) {
                    return Some(fish);
                }
            }
        }
        return None;
    }
    for &kind in &scan.bases {
        // The first fish in (combination, digit) order: the earliest combination among each digit's first fish,
        // the lowest digit on a tie (each digit's own search stops at its first).
        let mut best: Option<(u16, Fish)> = None;
        for digit in scan.digits.iter() {
            if let Some((lines, fish)) = first_of_digit(c, n, kind, digit, scan.order) {
                let rank = scan.order.rank(lines);
                if best.is_none_or(|(b, _)| rank < scan.order.rank(b)) {
                    best = Some((lines, fish));
                }
            }
        }
        if let Some((_, fish)) = best {
            return Some(fish);
        }
    }
    None
}

/// The first fish of `digit` with base lines of `kind`, combinations of base lines in `order`, with its base
/// lines as a 9-bit mask of their numbers.
fn first_of_digit(
    c: &Candidates,
    n: usize,
    kind: HouseKind,
    digit: u8,
    order: Order,
) -> Option<(u16, Fish)> {
    let places = c.places(digit);
    let cover_kind = match kind {
        HouseKind::Row => HouseKind::Col,
        _ => HouseKind::Row,
    };
    // Base lines with 2..=n places, and the cover lines each one touches (as a 9-bit mask).
    let (mut lines, mut covers, mut count) = ([0usize; 9], [0u16; 9], 0);
    for i in 0..9 {
        let p = places & House::of(kind, i).cells();
        let cover = match kind {
            HouseKind::Row => p.cols(),
            _ => p.rows(),
        };
        if (2..=n as u32).contains(&cover.count_ones()) {
            lines[count] = i;
            covers[count] = cover;
            count += 1;
        }
    }
    first_cover(&covers[..count], n, order, &mut |pick, cover| {
        let (mut mask, mut base, mut base_cells) = (0u16, HouseSet::default(), CellSet::EMPTY);
        for &k in pick {
            let line = House::of(kind, lines[k]);
            mask |= 1 << lines[k];
            base.0 |= HouseSet::single(line).0;
            base_cells |= line.cells();
        }
        let (mut cover_set, mut cover_cells) = (HouseSet::default(), CellSet::EMPTY);
        for j in (0..9).filter(|j| cover >> j & 1 != 0) {
            let line = House::of(cover_kind, j);
            cover_set.0 |= HouseSet::single(line).0;
            cover_cells |= line.cells();
        }
        let removed = places & cover_cells & !base_cells;
        (!removed.is_empty()).then_some((
            mask,
            Fish {
                digit,
                base,
                cover: cover_set,
                places: places & base_cells,
                removed,
            },
        ))
    })
}
