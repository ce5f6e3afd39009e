//! Strong links: a house where a digit has exactly two places, so one of them holds it. Two such links whose near
//! ends see each other put the digit in one of the far ends (Skyscraper: two rows or two columns; 2-String Kite:
//! a row and a column meeting in a box). A W-Wing joins two cells holding the same pair `xy` through a strong
//! link on `x`, so one of them holds `y`.

use super::super::candidates::Candidates;
use super::super::house::{CellSet, DigitSet, House, PEERS};
use super::super::step::{Finding, Step};
use super::super::technique::Technique;

/// The two places of `digit` in `house` when it has exactly two.
pub(super) fn link(c: &Candidates, digit: u8, house: House) -> Option<[usize; 2]> {
    let p = c.places(digit) & house.cells();
    if p.len() != 2 {
        return None;
    }
    let a = p.first()?;
    let b = (p & !CellSet::single(a)).first()?;
    Some([a, b])
}

/// True when two different cells share a house.
fn sees(a: usize, b: usize) -> bool {
    PEERS[a].contains(b)
}

/// Digits 1..9; rows, then columns, in pairs of lines.
pub(super) fn skyscraper(c: &Candidates) -> Option<Step> {
    for digit in 1..=9u8 {
        for first in [0usize, 9] {
            for i in 0..9 {
                let hi = House((first + i) as u8);
                let Some(a) = link(c, digit, hi) else {
                    continue;
                };
                for j in i + 1..9 {
                    let hj = House((first + j) as u8);
                    let Some(b) = link(c, digit, hj) else {
                        continue;
                    };
                    // Near ends on one cross line, far ends on two others.
                    for (na, fa) in [(a[0], a[1]), (a[1], a[0])] {
                        for (nb, fb) in [(b[0], b[1]), (b[1], b[0])] {
                            let cross = |x: usize| if first == 0 { x % 9 } else { x / 9 };
                            if cross(na) != cross(nb) || cross(fa) == cross(fb) {
                                continue;
                            }
                            if let Some(s) =
                                far_ends(c, Technique::Skyscraper, digit, [hi, hj], [fa, fb])
                            {
                                return Some(s);
                            }
                        }
                    }
                }
            }
        }
    }
    None
}

/// Digits 1..9; rows, then columns.
pub(super) fn two_string_kite(c: &Candidates) -> Option<Step> {
    for digit in 1..=9u8 {
        for r in 0..9 {
            let row = House::row(r);
            let Some(a) = link(c, digit, row) else {
                continue;
            };
            for col in (0..9).map(House::col) {
                let Some(b) = link(c, digit, col) else {
                    continue;
                };
                for (na, fa) in [(a[0], a[1]), (a[1], a[0])] {
                    for (nb, fb) in [(b[0], b[1]), (b[1], b[0])] {
                        let distinct = na != nb && na != fb && fa != nb && fa != fb;
                        let same_box = na / 27 == nb / 27 && na % 9 / 3 == nb % 9 / 3;
                        if !distinct || !same_box {
                            continue;
                        }
                        if let Some(s) =
                            far_ends(c, Technique::TwoStringKite, digit, [row, col], [fa, fb])
                        {
                            return Some(s);
                        }
                    }
                }
            }
        }
    }
    None
}

/// `digit` leaves every cell seeing both far ends, when there is one.
fn far_ends(
    c: &Candidates,
    technique: Technique,
    digit: u8,
    links: [House; 2],
    ends: [usize; 2],
) -> Option<Step> {
    let gone = c.places(digit) & PEERS[ends[0]] & PEERS[ends[1]];
    if gone.is_empty() {
        return None;
    }
    let pattern = Finding::Links { digit, links, ends };
    Some(Step::removing(technique, pattern, gone, digit))
}

/// Bivalue cell pairs in cell order; the linking digit, lower first; houses rows, columns, boxes.
pub(super) fn w_wing(c: &Candidates) -> Option<Step> {
    let (mut cells, mut n) = ([0usize; 81], 0);
    for cell in c.open().iter() {
        if c.get(cell).len() == 2 {
            cells[n] = cell;
            n += 1;
        }
    }
    let cells = &cells[..n];
    for (i, &p) in cells.iter().enumerate() {
        let digits = c.get(p);
        for &q in &cells[i + 1..] {
            if c.get(q) != digits || sees(p, q) {
                continue;
            }
            for x in digits.iter() {
                let y = (digits & !DigitSet::single(x)).first()?;
                let gone = c.places(y) & PEERS[p] & PEERS[q];
                if gone.is_empty() {
                    continue;
                }
                for house in House::all() {
                    let Some([s, t]) = link(c, x, house) else {
                        continue;
                    };
                    if [s, t].iter().any(|e| *e == p || *e == q) {
                        continue;
                    }
                    if (sees(s, p) && sees(t, q)) || (sees(s, q) && sees(t, p)) {
                        let pattern = Finding::WWing {
                            cells: [p, q],
                            digits,
                            link: house,
                            digit: y,
                        };
                        return Some(Step::removing(Technique::WWing, pattern, gone, y));
                    }
                }
            }
        }
    }
    None
}
