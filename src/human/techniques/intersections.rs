//! Locked candidates, where a box meets a row or column: pointing (a box's candidates for a digit all in one line
//! leave the rest of that line) and claiming (a line's candidates all in one box leave the rest of that box).

use super::super::candidates::Candidates;
use super::super::house::{CellSet, House};
use super::super::step::{Finding, Step};
use super::super::technique::Technique;

/// Boxes 1..9, digits 1..9; rows before columns.
pub(super) fn pointing(c: &Candidates) -> Option<Step> {
    for b in 0..9 {
        let bx = House::boxed(b);
        for digit in 1..=9u8 {
            let p = c.places(digit) & bx.cells();
            if p.is_empty() {
                continue;
            }
            for line in lines_holding(p) {
                if let Some(step) = locked(c, Technique::Pointing, digit, bx, line) {
                    return Some(step);
                }
            }
        }
    }
    None
}

/// Rows then columns, digits 1..9.
pub(super) fn claiming(c: &Candidates) -> Option<Step> {
    for line in (0..18).map(House) {
        for digit in 1..=9u8 {
            let p = c.places(digit) & line.cells();
            let boxes = p.boxes();
            if p.is_empty() || boxes.count_ones() != 1 {
                continue;
            }
            let bx = House::boxed(boxes.trailing_zeros() as usize);
            if let Some(step) = locked(c, Technique::Claiming, digit, line, bx) {
                return Some(step);
            }
        }
    }
    None
}

/// The row and the column that hold all of `p`, when there is one.
fn lines_holding(p: CellSet) -> impl Iterator<Item = House> {
    let (rows, cols) = (p.rows(), p.cols());
    let row = (rows.count_ones() == 1).then(|| House::row(rows.trailing_zeros() as usize));
    let col = (cols.count_ones() == 1).then(|| House::col(cols.trailing_zeros() as usize));
    row.into_iter().chain(col)
}

/// `digit` in `from` lies only in `to`: it leaves the rest of `to`.
fn locked(c: &Candidates, technique: Technique, digit: u8, from: House, to: House) -> Option<Step> {
    let gone = c.places(digit) & to.cells() & !from.cells();
    if gone.is_empty() {
        return None;
    }
    let pattern = Finding::Intersection { digit, from, to };
    Some(Step::removing(technique, pattern, gone, digit))
}
