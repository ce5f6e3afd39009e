//! SE's Bivalue Universal Grave (with lkSudoku's fix that serate applies by default): type 1 (5.6), type 2 (5.7),
//! type 3 (5.7 plus 0.1 per digit of its naked set beyond the first), type 4 (5.7).
//!
//! The BUG cells are found house by house (boxes, rows, columns): a digit with neither 0 nor 2 places whose places
//! include exactly one cell of three candidates or more makes that cell a BUG cell for that digit; when one digit
//! alone is out of place everywhere, every cell of three candidates or more holding it is one. Without the BUG
//! digits every open cell must hold two candidates and every digit two places per house. SE then emits type 1, or
//! type 2 then type 4, or type 4 then type 3, and applies the first.

use super::super::candidates::Candidates;
use super::{cells_of, house_of, region, SeStep, SeTechnique, Tenths};
use crate::human::house::{CellSet, DigitSet, HOUSE_LIST, PEERS};
use crate::human::step::Eliminations;

/// SE's BUG producer.
pub(super) fn find(c: &Candidates) -> Option<SeStep> {
    let bug = Bug::of(c)?;
    if !bug.is_grave(c) {
        return None;
    }
    let (in_bug, all_values) = (bug.in_bug, bug.all_values);
    let bug_cells = &bug.cells[..];
    let common = bug.common.unwrap_or(CellSet::EMPTY);
    let step = |t: SeTechnique, rating: u8, e: Eliminations| {
        let mut s = SeStep::of(t);
        s.pattern.rating = Tenths(rating);
        s.eliminations = e;
        s.pattern.cells = in_bug;
        s.pattern.digits = all_values;
        s
    };
    if bug_cells.len() == 1 {
        let cell = bug_cells[0];
        let mut e = Eliminations::NONE;
        for d in (c.get(cell) & !all_values).iter() {
            e.add(CellSet::single(cell), d);
        }
        return Some(step(SeTechnique::Bug(1), 56, e));
    }
    if all_values.len() == 1 {
        let d = all_values.first().expect("one digit");
        let hit = common & c.places(d);
        if !hit.is_empty() {
            let mut e = Eliminations::NONE;
            e.add(hit, d);
            return Some(step(SeTechnique::Bug(2), 57, e));
        }
        if bug_cells.len() == 2 {
            return type4(c, bug_cells, &bug.values, all_values)
                .map(|e| step(SeTechnique::Bug(4), 57, e));
        }
        return None;
    }
    if common.is_empty() {
        return None;
    }
    if bug_cells.len() == 2 {
        if let Some(e) = type4(c, bug_cells, &bug.values, all_values) {
            return Some(step(SeTechnique::Bug(4), 57, e));
        }
    }
    type3(c, bug_cells, all_values, common).map(|(e, n)| step(SeTechnique::Bug(3), 57 + n - 1, e))
}

/// The BUG cells of a grid and their BUG digits, as SE finds them (see the module docs).
struct Bug {
    /// The BUG cells in the order found.
    cells: Vec<usize>,
    in_bug: CellSet,
    /// Each BUG cell's BUG digits.
    values: [DigitSet; 81],
    all_values: DigitSet,
    /// The cells that see every BUG cell (and are none), once there is one.
    common: Option<CellSet>,
    /// Each open cell's candidates without its BUG digits.
    temp: [DigitSet; 81],
}

impl Bug {
    /// The BUG cells of `c`, or `None` when a house rules a BUG out (a digit out of place with no cell of three
    /// candidates or more, or BUG cells of several digits that no cell sees all of).
    fn of(c: &Candidates) -> Option<Bug> {
        let mut bug = Bug {
            cells: Vec::new(),
            in_bug: CellSet::EMPTY,
            values: [DigitSet::EMPTY; 81],
            all_values: DigitSet::EMPTY,
            common: None,
            temp: [DigitSet::EMPTY; 81],
        };
        for cell in c.open().iter() {
            bug.temp[cell] = c.get(cell);
        }
        let mut all_extra: Option<CellSet> = None;
        let mut only_value = 0u8;
        let mut one_value = true;
        for t in 0..3 {
            for i in 0..9 {
                let hc = cells_of(region(t, i));
                for d in 1..=9u8 {
                    let places = c.places(d) & hc;
                    let n = places.len();
                    if n == 0 || n == 2 {
                        continue;
                    }
                    let list = &HOUSE_LIST[region(t, i).0 as usize];
                    let new: Vec<usize> = list
                        .iter()
                        .map(|&x| x as usize)
                        .filter(|&x| places.contains(x) && c.get(x).len() >= 3)
                        .collect();
                    let new_set = new
                        .iter()
                        .fold(CellSet::EMPTY, |s, &x| s | CellSet::single(x));
                    match all_extra {
                        None => {
                            all_extra = Some(new_set);
                            only_value = d;
                        }
                        Some(ref mut s) if one_value => {
                            if only_value == d {
                                *s |= new_set;
                            } else {
                                one_value = false;
                            }
                        }
                        Some(_) => {}
                    }
                    if new.len() == 1 {
                        bug.values[new[0]].insert(d);
                        bug.all_values.insert(d);
                        if !bug.add(new[0], d) {
                            return None;
                        }
                    }
                    if new.is_empty() {
                        return None;
                    }
                }
            }
        }
        if let (true, Some(extra)) = (one_value, all_extra) {
            if extra.len() as usize > bug.cells.len() {
                for cell in (extra & !bug.in_bug).iter() {
                    bug.values[cell] = DigitSet::single(only_value);
                    if !bug.add(cell, only_value) {
                        return None;
                    }
                }
            }
        }
        Some(bug)
    }

    /// Makes `cell` a BUG cell for `d` (its BUG digits already set): false when no cell sees every BUG cell while
    /// there are several of several digits.
    fn add(&mut self, cell: usize, d: u8) -> bool {
        if !self.in_bug.contains(cell) {
            self.cells.push(cell);
            self.in_bug.insert(cell);
        }
        self.temp[cell].remove(d);
        let s = self.common.map_or(PEERS[cell], |s| s & PEERS[cell]) & !self.in_bug;
        self.common = Some(s);
        !(self.cells.len() > 1 && self.all_values.len() > 1 && s.is_empty())
    }

    /// True when, without the BUG digits, every open cell holds two candidates and every digit two places (or
    /// none) in every house.
    fn is_grave(&self, c: &Candidates) -> bool {
        if c.open().iter().any(|cell| self.temp[cell].len() != 2) {
            return false;
        }
        let mut temp_places = [CellSet::EMPTY; 9];
        for cell in c.open().iter() {
            for d in self.temp[cell].iter() {
                temp_places[d as usize - 1].insert(cell);
            }
        }
        (0..3).all(|t| {
            (0..9).all(|i| {
                let hc = cells_of(region(t, i));
                temp_places.iter().all(|p| matches!((*p & hc).len(), 0 | 2))
            })
        })
    }
}

/// Type 4: the two BUG cells share one other digit and a house: each loses its candidates other than its BUG
/// digits and that digit (the first shared house of the types box, row, column).
fn type4(
    c: &Candidates,
    cells: &[usize],
    values: &[DigitSet; 81],
    all: DigitSet,
) -> Option<Eliminations> {
    let (c1, c2) = (cells[0], cells[1]);
    let shared = c.get(c1) & c.get(c2) & !all;
    if shared.len() != 1 {
        return None;
    }
    let d = shared.first().expect("one digit");
    (0..3).find(|&t| house_of(t, c1) == house_of(t, c2))?;
    let mut e = Eliminations::NONE;
    for cell in [c1, c2] {
        let mut rest = c.get(cell) & !values[cell];
        rest.remove(d);
        for x in rest.iter() {
            e.add(CellSet::single(cell), x);
        }
    }
    Some(e)
}

/// Type 3 (lkSudoku's version): sizes 2 to 6, then house types box, row, column shared by every BUG cell; the BUG
/// digits with `size - 1` cells of the house that see every BUG cell form a naked set; its digits leave the cells
/// that see every set cell holding them. Returns the eliminations and the set's size.
fn type3(
    c: &Candidates,
    cells: &[usize],
    all: DigitSet,
    common: CellSet,
) -> Option<(Eliminations, u8)> {
    for degree in 2..=6u32 {
        for t in 0..3 {
            let h = house_of(t, cells[0]);
            if cells.iter().any(|&x| house_of(t, x) != h) {
                continue;
            }
            let region_cells: Vec<usize> = (common & cells_of(h)).iter().collect();
            let n = region_cells.len() as u32;
            if n < degree {
                continue;
            }
            for m in (0u32..1 << n).filter(|m| m.count_ones() == degree - 1) {
                let naked: Vec<usize> = (0..n as usize)
                    .filter(|i| m >> i & 1 != 0)
                    .map(|i| region_cells[i])
                    .collect();
                let other = naked.iter().fold(DigitSet::EMPTY, |s, &x| s | c.get(x));
                if other.len() != degree {
                    continue;
                }
                let all_two = all.len() >= 2 && naked.iter().all(|&x| c.get(x).len() >= 2);
                let set = other | all;
                if !all_two || set.len() != degree {
                    continue;
                }
                let mut e = Eliminations::NONE;
                for d in set.iter() {
                    let mut victims: Option<CellSet> = None;
                    for &x in naked.iter().chain(cells) {
                        if c.get(x).contains(d) {
                            victims = Some(victims.map_or(PEERS[x], |v| v & PEERS[x]));
                        }
                    }
                    let hit = victims.unwrap_or(CellSet::EMPTY) & c.places(d);
                    if !hit.is_empty() {
                        e.add(hit, d);
                    }
                }
                if !e.is_empty() {
                    return Some((e, degree as u8));
                }
            }
        }
    }
    None
}
