//! SE's "advanced" implications of a dynamic chain at nesting level 1 (`Chaining.getAdvancedPotentials`, used from
//! Dynamic Forcing Chains (+) up): when a chain has nothing left to follow, the lower techniques are looked for on
//! the chain's working grid (the candidates it has removed so far), and what they eliminate is "off" too, resting on
//! the chain's eliminations that made the technique possible (SE's `getRuleParents`).
//!
//! At nesting level 1 (SE's default, `FCPlus` 0) the techniques are, in this order, pointing/claiming, hidden
//! pairs, naked pairs and X-Wings; only the first of them with any such hint counts, with all its hints. SE keeps
//! a hint's eliminations in a Java `HashMap` keyed by cell (hash = the cell's index), so they come out by bucket
//! (index modulo the table size), ties in insertion order ([`hash_order`]), since the order decides which chain
//! reaches a potential first, hence the chain lengths and the ratings. The higher levels add the nested producers
//! ([`super::nested`]).

use super::hint::hash_order;
use super::potential::key;
use super::working::Working;
use crate::human::house::{CellSet, DigitSet};
use crate::human::house::{HOUSE_CELLS, HOUSE_LIST};
use crate::human::se::{cells_of, count9, house_of, region, two_or_more, BOX_COL_ROW};

/// A chain's working grid, with the grid it started from.
pub(super) struct Grids<'a> {
    /// The candidates now.
    pub now: &'a Working,
    /// The candidates when the chain started.
    pub source: &'a Working,
    /// The cells without a value (SE's empty cells).
    pub open: CellSet,
    /// How many cells hold each digit.
    pub placed: &'a [u8; 9],
}

#[cfg(test)]
impl<'a> Grids<'a> {
    /// The grids of a chain from `source` to `now` as the nested producers' gates and hints read them: the
    /// candidates alone (no open cells or placed counts).
    pub(super) fn of_candidates(source: &'a Working, now: &'a Working) -> Grids<'a> {
        Grids {
            now,
            source,
            open: CellSet::EMPTY,
            placed: &[0; 9],
        }
    }
}

/// The eliminations found: each is a candidate key (`cell * 9 + digit - 1`) with the keys of the "off" potentials
/// it rests on, `parents[start..start + len]`.
///
/// At nesting level 2 an elimination may come from a forcing chain or cycle: `chain[i]` is then the index in
/// `chains` of that chain (its complexity and identity, SE's `FullChain`), else [`NO_CHAIN`].
#[derive(Default)]
pub(super) struct Offs {
    pub offs: Vec<(u16, u32, u32)>,
    pub parents: Vec<u16>,
    pub chain: Vec<u32>,
    pub chains: Vec<(usize, Vec<u16>)>,
    /// The lists the rules fill for each hint, kept from call to call.
    pub scratch: Scratch,
}

/// The elimination of `Offs::offs` does not come from a nested chain.
pub(super) const NO_CHAIN: u32 = u32::MAX;

impl Offs {
    pub(super) fn clear(&mut self) {
        self.offs.clear();
        self.parents.clear();
        self.chain.clear();
        self.chains.clear();
    }

    /// Adds one hint: its eliminations `(cell, digits)` in insertion order (put in `HashMap` order here), resting
    /// on `parents`; nothing when it rests on nothing (SE: the rule holds without the chain).
    fn hint(&mut self, removes: &mut [(u8, DigitSet)], parents: &[u16]) {
        if parents.is_empty() || removes.is_empty() {
            return;
        }
        hash_order(removes);
        self.push(removes, parents, NO_CHAIN);
    }

    /// Adds the eliminations `removes`, in their order, each resting on `parents` and coming from `chain`.
    pub(super) fn push(&mut self, removes: &[(u8, DigitSet)], parents: &[u16], chain: u32) {
        let start = self.parents.len() as u32;
        self.parents.extend_from_slice(parents);
        for &(cell, digits) in removes {
            for d in digits.iter() {
                self.offs
                    .push((key(cell, d) as u16, start, parents.len() as u32));
                self.chain.push(chain);
            }
        }
    }
}

/// SE's advanced "off" potentials at nesting level 1: those of the first of its four techniques with any; `gone`
/// is [`gone_places`] of `g`. Gives, when it has them at hand, for each digit index the houses (bit `h` for
/// `House(h)`) where the digit lost places and keeps two or more ([`lost_houses`]).
///
/// A technique's hint counts only when it rests on some of the chain's eliminations, so the four look only where
/// the chain removed candidates: the same hints in the same order, found without scanning the houses the chain
/// left alone. Within one chain they look only where it removed candidates since they last ran on it (`since`,
/// which this call brings up to date).
pub(super) fn find(
    g: &Grids,
    gone: &[CellSet; 9],
    since: &mut Since,
    out: &mut Offs,
) -> Option<[u32; 9]> {
    out.clear();
    let look = since.look(0, g, gone);
    let mut h = HouseDigits::uncounted(g, &look);
    let houses = (since.unseen & 1 != 0).then_some(h.locking);
    locking(g, &look, &h, out);
    let mut ran = 1;
    if out.offs.is_empty() {
        ran = 2;
        let wider = since.look(1, g, gone);
        if wider != look {
            h.lost = HouseDigits::of_lost(&wider);
        }
        h.count(g, HouseDigits::touched(&h.lost));
        hidden_pairs(g, &wider, &h, out);
    }
    if out.offs.is_empty() {
        ran = 3;
        naked_pairs(g, &since.look(2, g, gone), out);
    }
    if out.offs.is_empty() {
        ran = 4;
        x_wings(g, &since.look(3, g, gone), out);
    }
    since.ran(ran, g.now);
    houses
}

/// Where, on a chain's working grid, each of the four techniques of [`find`] (rule `r` in its order) may find a
/// hint: where candidates went since the last grid of the chain it ran on. Its hints there were all found, and the
/// chain removed what they eliminate before it asked again, so on the grid now a hint of the rule in a house
/// (locking: the digit's first house; hidden pairs: the pair's digits in the house; naked pairs: the pair's cells;
/// X-Wings: the digit's base lines) where no candidate went since is one it had there, with nothing left to
/// eliminate, or one that was not a hint there: the same places, the same eliminations it rests on, fewer to
/// eliminate. A rule that has not run on the chain looks at all its eliminations ([`gone_places`]). The grids
/// are newer rule by rule back to front: [`find`] runs its rules in order, up to the first with hints.
#[derive(Clone, Copy)]
pub(super) struct Since {
    /// `at[r]`: the digits' places on the last grid rule `r` ran on (when it has run).
    at: [[CellSet; 9]; 4],
    /// Bit `r`: rule `r` has not run on this chain.
    unseen: u8,
}

impl Since {
    /// A chain from its start: no rule has run on it.
    pub(super) const START: Since = Since {
        at: [[CellSet::EMPTY; 9]; 4],
        unseen: 0xF,
    };

    /// The same for a new chain: no rule has run on it.
    pub(super) fn restart(&mut self) {
        self.unseen = 0xF;
    }

    /// Where rule `r` looks on `g` (`gone` is [`gone_places`] of `g`).
    fn look(&self, r: usize, g: &Grids, gone: &[CellSet; 9]) -> [CellSet; 9] {
        if self.unseen >> r & 1 != 0 {
            *gone
        } else {
            std::array::from_fn(|d| self.at[r][d] & !g.now.places[d])
        }
    }

    /// Rules `0..n` ran on `now`, each finding nothing or hints whose eliminations the chain removes before it
    /// asks again.
    pub(super) fn ran(&mut self, n: usize, now: &Working) {
        for at in &mut self.at[..n] {
            *at = now.places;
        }
        self.unseen &= !((1u8 << n) - 1);
    }
}

/// For each digit index, the houses (bit `h` for `House(h)`) where the digit lost places (`gone` is
/// [`gone_places`] of `g`) and keeps two or more: what [`find`] returns, without the rules.
pub(super) fn lost_houses(g: &Grids, gone: &[CellSet; 9]) -> [u32; 9] {
    HouseDigits::locking_of(g, &HouseDigits::of_lost(gone))
}

/// The digits of each house (indexed as [`House`](crate::human::house::House)s) by how many places they have
/// there on the working grid, and those the chain removed from some of its cells: the removed ones read off
/// [`gone_places`], the places counted over the cells' candidate masks (nine bits at a time) and only in the houses
/// where the chain removed some: the rules that read them look nowhere else. The houses where a removed digit keeps
/// two places or more are told digit by digit without a count ([`HouseDigits::locking_of`]), so locking, which reads
/// only them, needs no count ([`HouseDigits::uncounted`]); hidden pairs count them as they need them.
struct HouseDigits {
    /// Digits (bit `d - 1`) with exactly two places in the house; for the houses of `counted` only.
    two: [u16; 27],
    /// The houses (bit per house index) whose `two` is counted.
    counted: u32,
    /// Digits with a [`gone_places`] place in the house.
    lost: [u16; 27],
    /// `locking[d - 1]`: the houses (bit per house index) where digit `d` has two places or more and some gone.
    locking: [u32; 9],
}

impl HouseDigits {
    /// The digits removed from each house, and the places counted in the houses with any (`gone` is
    /// [`gone_places`] of `g`).
    #[cfg(test)]
    fn of(g: &Grids, gone: &[CellSet; 9]) -> HouseDigits {
        let mut h = HouseDigits::uncounted(g, gone);
        h.count(g, HouseDigits::touched(&h.lost));
        h
    }

    /// [`HouseDigits::of`] with no house counted yet (`two` and `counted` empty).
    fn uncounted(g: &Grids, gone: &[CellSet; 9]) -> HouseDigits {
        let lost = HouseDigits::of_lost(gone);
        HouseDigits {
            two: [0; 27],
            counted: 0,
            lost,
            locking: HouseDigits::locking_of(g, &lost),
        }
    }

    /// For each digit index, the houses where the digit is in `lost` (the digits removed from each house) and
    /// has two places or more.
    fn locking_of(g: &Grids, lost: &[u16; 27]) -> [u32; 9] {
        let mut locking = [0u32; 9];
        for (i, &digits) in lost.iter().enumerate() {
            let mut digits = digits;
            while digits != 0 {
                let d = digits.trailing_zeros() as usize;
                digits &= digits - 1;
                if two_or_more((g.now.places[d] & HOUSE_CELLS[i]).0) {
                    locking[d] |= 1 << i;
                }
            }
        }
        locking
    }

    /// The digits (bit `d - 1`) with a place of `gone` in each house.
    fn of_lost(gone: &[CellSet; 9]) -> [u16; 27] {
        let mut lost = [0; 27];
        for (d, removed) in gone.iter().enumerate() {
            for cell in removed.iter() {
                for t in 0..3 {
                    lost[house_of(t, cell).0 as usize] |= 1 << d;
                }
            }
        }
        lost
    }

    /// The houses (bit per house index) with some digit in `lost`.
    fn touched(lost: &[u16; 27]) -> u32 {
        (0..27)
            .filter(|&i| lost[i] != 0)
            .fold(0u32, |m, i| m | 1 << i)
    }

    /// Counts the places of each digit in the houses of `houses` (bit per house index).
    fn count(&mut self, g: &Grids, mut houses: u32) {
        self.counted |= houses;
        while houses != 0 {
            let i = houses.trailing_zeros() as usize;
            houses &= houses - 1;
            let (mut one, mut two, mut more) = (0u16, 0u16, 0u16);
            for &cell in &HOUSE_LIST[i] {
                let m = g.now.mask[cell as usize];
                more |= two & m;
                two |= one & m;
                one |= m;
            }
            self.two[i] = two & !more;
        }
    }
}

/// Digit `d` was a candidate of `cell` when the chain started and is no longer.
#[cfg(test)]
pub(super) fn gone(g: &Grids, cell: usize, d: u8) -> bool {
    let bit = 1 << (d - 1);
    g.source.mask[cell] & bit != 0 && g.now.mask[cell] & bit == 0
}

/// The keys of digit `d` in those of `cells` where the chain removed it (its [`gone_places`]), cells ascending: a
/// rule's parents.
pub(super) fn gone_keys(g: &Grids<'_>, cells: CellSet, d: u8) -> impl Iterator<Item = u16> {
    let di = d as usize - 1;
    (g.source.places[di] & !g.now.places[di] & cells)
        .iter()
        .map(move |cell| key(cell as u8, d) as u16)
}

/// The lists a rule fills for each of its hints, kept from one hint to the next.
#[derive(Default)]
pub(super) struct Scratch {
    removes: Vec<(u8, DigitSet)>,
    pub parents: Vec<u16>,
}

/// The hint of a locked digit `d`: its places in house `r1` all lie in house `r2`, so it goes from the rest of
/// `r2`, resting on its places gone from the rest of `r1`.
fn locked(g: &Grids, d: u8, r1: CellSet, r2: CellSet, s: &mut Scratch, out: &mut Offs) {
    let places = g.now.places[d as usize - 1];
    s.removes.clear();
    s.removes.extend(
        (places & r2 & !r1)
            .iter()
            .map(|cell| (cell as u8, DigitSet::single(d))),
    );
    s.parents.clear();
    s.parents.extend(gone_keys(g, r1 & !r2, d));
    out.hint(&mut s.removes, &s.parents);
}

/// The hint of a hidden pair, the digits of mask `m` in `cells` alone of house `hc`: the cells' other digits go,
/// resting on the pair's digits gone from the rest of the house.
fn hidden_pair(g: &Grids, hc: CellSet, cells: CellSet, m: u16, s: &mut Scratch, out: &mut Offs) {
    s.removes.clear();
    for cell in cells.iter() {
        let others = DigitSet(g.now.mask[cell] & !m);
        if !others.is_empty() {
            s.removes.push((cell as u8, others));
        }
    }
    s.parents.clear();
    for cell in (hc & !cells).iter() {
        for d in DigitSet(m).iter() {
            if g.source.mask[cell] >> (d - 1) & 1 != 0 {
                s.parents.push(key(cell as u8, d) as u16);
            }
        }
    }
    out.hint(&mut s.removes, &s.parents);
}

/// The hint of a naked pair, `cells` of house `hc` with the two digits `common` alone: these go from the rest of
/// the house, resting on the cells' other digits gone.
fn naked_pair(
    g: &Grids,
    hc: CellSet,
    cells: CellSet,
    common: u16,
    s: &mut Scratch,
    out: &mut Offs,
) {
    s.removes.clear();
    for cell in (hc & !cells).iter() {
        let r = DigitSet(g.now.mask[cell] & common);
        if !r.is_empty() {
            s.removes.push((cell as u8, r));
        }
    }
    s.parents.clear();
    for cell in cells.iter() {
        for d in DigitSet(g.source.mask[cell] & !common).iter() {
            s.parents.push(key(cell as u8, d) as u16);
        }
    }
    out.hint(&mut s.removes, &s.parents);
}

/// The hint of an X-Wing of digit `d`: base lines `(type, mask)` whose places lie in cover lines `(type, mask)`;
/// it goes from the rest of the cover lines, resting on its places gone from the rest of the base lines.
fn x_wing(
    g: &Grids,
    base: (usize, u16),
    cover: (usize, u16),
    d: u8,
    s: &mut Scratch,
    out: &mut Offs,
) {
    let bases = lines(base.0, base.1);
    let covers = lines(cover.0, cover.1);
    s.removes.clear();
    // Cover line after cover line, each in its order.
    for j in (0..9).filter(|&j| cover.1 >> j & 1 != 0) {
        let line = g.now.places[d as usize - 1] & cells_of(region(cover.0, j)) & !bases;
        s.removes
            .extend(line.iter().map(|cell| (cell as u8, DigitSet::single(d))));
    }
    s.parents.clear();
    s.parents.extend(gone_keys(g, bases & !covers, d));
    out.hint(&mut s.removes, &s.parents);
}

/// Where each digit was a candidate when the chain started and is no longer (`[d - 1]` for digit `d`): the
/// candidates the chain removed, on which the level-1 hints rest. A hint resting on none of them is dropped
/// ([`Offs::hint`]), so a technique need only look where they lie.
pub(super) fn gone_places(g: &Grids) -> [CellSet; 9] {
    std::array::from_fn(|d| g.source.places[d] & !g.now.places[d])
}

/// SE's `Locking(false)`: pointing and claiming, box/column, box/row, column/box, row/box. A hint's parents are
/// the digit's [`gone_places`] in the first house, so only houses holding some are looked at.
///
/// Whether a digit's places (two or more) in the first house lie in one house of the second type, and whether
/// that house holds others, is read off the digit's rows as 9-bit masks ([`rows_of`]) and, for each band of
/// three rows, the columns holding some.
fn locking(g: &Grids, gone: &[CellSet; 9], h: &HouseDigits, out: &mut Offs) {
    let mut s = std::mem::take(&mut out.scratch);
    let digits = (0..9)
        .filter(|&d| h.locking[d] != 0)
        .fold(0u16, |m, d| m | 1 << d);
    let mut rows = [[0u16; 9]; 9];
    let mut bands = [[0u16; 3]; 9];
    for d in DigitSet(digits).iter() {
        let di = d as usize - 1;
        debug_assert!(!gone[di].is_empty());
        rows[di] = rows_of(g.now.places[di]);
        bands[di] =
            std::array::from_fn(|b| rows[di][3 * b] | rows[di][3 * b + 1] | rows[di][3 * b + 2]);
    }
    // The position of the one bit of a mask of one bit or more, if it has one only.
    let one = |m: u16| (m & m.wrapping_sub(1) == 0).then(|| m.trailing_zeros() as usize);
    for (t1, t2) in [(0, 2), (0, 1), (2, 0), (1, 0)] {
        // The houses of type `t1` as bits of a house index.
        let first_house = region(t1, 0).0;
        for d in DigitSet(digits).iter() {
            let (rows, bands) = (&rows[d as usize - 1], &bands[d as usize - 1]);
            // The houses of type `t1` where the digit has some of its places gone and two places or more, in
            // order.
            let mut houses = h.locking[d as usize - 1] >> first_house & 0x1FF;
            while houses != 0 {
                let i1 = houses.trailing_zeros() as usize;
                houses &= houses - 1;
                // The house of type `t2` holding the places in house `i1`, if one does and holds others too.
                let i2 = match (t1, t2) {
                    (0, 2) => {
                        let (band, stack) = (i1 / 3, i1 % 3);
                        one(bands[band] >> (3 * stack) & 7)
                            .map(|c| 3 * stack + c)
                            .filter(|&c| (0..3).any(|b| b != band && bands[b] >> c & 1 != 0))
                    }
                    (0, 1) => {
                        let (band, stack) = (i1 / 3, i1 % 3);
                        let in_box = |r: usize| rows[r] >> (3 * stack) & 7;
                        let held =
                            (0..3).fold(0, |m, i| m | u16::from(in_box(3 * band + i) != 0) << i);
                        one(held)
                            .map(|i| 3 * band + i)
                            .filter(|&r| rows[r] & !(7 << (3 * stack)) != 0)
                    }
                    (2, 0) => {
                        let (stack, at) = (i1 / 3, i1 % 3);
                        let held = (0..3).fold(0, |m, b| m | (bands[b] >> i1 & 1) << b);
                        one(held)
                            .filter(|&b| bands[b] >> (3 * stack) & 7 & !(1 << at) != 0)
                            .map(|b| 3 * b + stack)
                    }
                    _ => {
                        let (band, at) = (i1 / 3, i1 % 3);
                        let held =
                            (0..3).fold(0, |m, k| m | u16::from(rows[i1] >> (3 * k) & 7 != 0) << k);
                        one(held)
                            .filter(|&k| {
                                (0..3).any(|i| i != at && rows[3 * band + i] >> (3 * k) & 7 != 0)
                            })
                            .map(|k| 3 * band + k)
                    }
                };
                if let Some(i2) = i2 {
                    let (r1, r2) = (cells_of(region(t1, i1)), cells_of(region(t2, i2)));
                    locked(g, d, r1, r2, &mut s, out);
                }
            }
        }
    }
    out.scratch = s;
}

/// The rows of `cells` (row `r` at index `r`), each as a 9-bit mask of columns.
fn rows_of(cells: CellSet) -> [u16; 9] {
    // Rows 0 to 6 lie in the low 63 bits, rows 7 and 8 in the next 18.
    let (low, high) = (cells.0 as u64, (cells.0 >> 63) as u64);
    let row = |bits: u64, shift: u32| (bits >> shift) as u16 & 0x1FF;
    [
        row(low, 0),
        row(low, 9),
        row(low, 18),
        row(low, 27),
        row(low, 36),
        row(low, 45),
        row(low, 54),
        row(high, 0),
        row(high, 9),
    ]
}

/// The places of a digit in line `i` of type `t` (1 rows, 2 columns), as positions in the line (what
/// [`positions`] gives), read off the digit's rows ([`rows_of`]).
fn line_positions(rows: &[u16; 9], t: usize, i: usize) -> u16 {
    if t == 1 {
        rows[i]
    } else {
        (0..9).fold(0, |m, r| m | (rows[r] >> i & 1) << r)
    }
}

/// The places of digit `d` in the house of SE's type `t` number `i`, as positions in the house (what
/// [`positions`] gives, read off the bits directly).
#[cfg(test)]
fn digit_positions(g: &Grids, t: usize, i: usize, d: u8) -> u16 {
    let p = g.now.places[d as usize - 1].0;
    let bits = |shift: usize, width: u32| (p >> shift) as u16 & ((1 << width) - 1);
    match t {
        // A row: nine bits in a row.
        1 => bits(9 * i, 9),
        // A box: three rows of three.
        0 => {
            let first = i / 3 * 27 + i % 3 * 3;
            bits(first, 3) | bits(first + 9, 3) << 3 | bits(first + 18, 3) << 6
        }
        // A column: one bit a row.
        _ => (0..9).fold(0, |m, r| m | bits(9 * r + i, 1) << r),
    }
}

/// SE's `HiddenSet(2, false)`: boxes, columns, rows; houses with more than four empty cells. A hint's parents
/// are the pair's [`gone_places`] in the house, so only pairs with some are looked at.
fn hidden_pairs(g: &Grids, gone: &[CellSet; 9], hd: &HouseDigits, out: &mut Offs) {
    let mut s = std::mem::take(&mut out.scratch);
    debug_assert!(gone.iter().all(|lost| lost.is_empty()) || hd.lost.iter().any(|&l| l != 0));
    // The other houses have no digit the chain removed.
    for (t, i) in se_order(hd.counted) {
        let h = region(t, i);
        let hc = cells_of(h);
        // The digits with two places in the house, and those of them the chain removed from some of it.
        let two = hd.two[h.0 as usize];
        let lost = two & hd.lost[h.0 as usize];
        if lost == 0 || two & (two - 1) == 0 || (g.open & hc).len() <= 4 {
            continue;
        }
        for m in pairs_in(two) {
            // Two digits' places, two or more each, whose union is two: the same two.
            if lost & m == 0 {
                continue;
            }
            let (a, b) = pair(m);
            let cells = g.now.places[a] & hc;
            if g.now.places[b] & hc != cells {
                continue;
            }
            hidden_pair(g, hc, cells, m, &mut s, out);
        }
    }
    out.scratch = s;
}

/// SE's `NakedSet(2)`: boxes, columns, rows; houses with four empty cells or more. A hint's parents are the
/// pair's cells' [`gone_places`], so only houses with such a cell of two candidates are looked at.
fn naked_pairs(g: &Grids, gone: &[CellSet; 9], out: &mut Offs) {
    let mut s = std::mem::take(&mut out.scratch);
    let any_gone = gone.iter().fold(CellSet::EMPTY, |s, &c| s | c);
    let two = g.now.bivalue();
    // The houses holding a cell of two candidates that lost some: the others are skipped below.
    let houses = (two & any_gone).iter().fold(0u32, |m, cell| {
        (0..3).fold(m, |m, t| m | 1 << house_of(t, cell).0)
    });
    for (t, i) in se_order(houses) {
        let h = region(t, i);
        let hc = cells_of(h);
        // Each house here holds a cell of two candidates that lost some.
        if !two_or_more((two & hc).0) || (g.open & hc).len() < 4 {
            continue;
        }
        // The pairs of the house's cells of two candidates in the order of their positions in the house (its
        // cells ascending): the second cell ascending, then the first.
        let mut before = CellSet::EMPTY;
        for cb in (two & hc).iter() {
            for ca in before.iter() {
                // Two cells' candidates, two or more each, whose union is two: the same two.
                if g.now.mask[cb] != g.now.mask[ca] {
                    continue;
                }
                let cells = CellSet::single(ca) | CellSet::single(cb);
                naked_pair(g, hc, cells, g.now.mask[ca], &mut s, out);
            }
            before.insert(cb);
        }
    }
    out.scratch = s;
}

/// The houses of `houses` (bit per house index) as SE's type and number, in SE's order of house types
/// ([`BOX_COL_ROW`]: boxes, columns, rows), each type's by number.
fn se_order(houses: u32) -> impl Iterator<Item = (usize, usize)> {
    // Bit `9 * slot + i`: house `i` of type `BOX_COL_ROW[slot]`.
    let mut by_type = (0..3).fold(0u32, |m, slot| {
        m | (houses >> region(BOX_COL_ROW[slot], 0).0 & 0x1FF) << (9 * slot)
    });
    std::iter::from_fn(move || {
        if by_type == 0 {
            return None;
        }
        let j = by_type.trailing_zeros() as usize;
        by_type &= by_type - 1;
        Some((BOX_COL_ROW[j / 9], j % 9))
    })
}

/// The two-bit masks within the 9-bit mask `set`, in increasing value (the higher bit ascending, then the lower
/// one: SE's order of combinations), read off the set's bits.
fn pairs_in(set: u16) -> impl Iterator<Item = u16> {
    // Every bit of `set` but its lowest, as the higher bit of a pair: those left, the one taken and the lower bits
    // left to pair with it.
    let (mut highs, mut high, mut lows) = (set & set.wrapping_sub(1), 0u16, 0u16);
    std::iter::from_fn(move || {
        while lows == 0 {
            if highs == 0 {
                return None;
            }
            high = highs & highs.wrapping_neg();
            highs &= highs - 1;
            lows = set & (high - 1);
        }
        let low = lows & lows.wrapping_neg();
        lows &= lows - 1;
        Some(high | low)
    })
}

/// The two positions of a two-bit mask, lower first.
fn pair(m: u16) -> (usize, usize) {
    let a = m.trailing_zeros() as usize;
    (a, (m & (m - 1)).trailing_zeros() as usize)
}

/// The cells of the lines of type `t` (1 rows, 2 columns) in mask `m`.
fn lines(t: usize, m: u16) -> CellSet {
    (0..9)
        .filter(|&i| m >> i & 1 != 0)
        .fold(CellSet::EMPTY, |s, i| s | cells_of(region(t, i)))
}

/// SE's `Fisherman(2)`: base columns then base rows; digits placed five times or fewer. A hint's parents are
/// the digit's [`gone_places`] in the base lines, so only digits with some are looked at.
fn x_wings(g: &Grids, gone: &[CellSet; 9], out: &mut Offs) {
    // The digits placed five times or fewer that the chain removed somewhere.
    let digits = (0..9)
        .filter(|&d| g.placed[d] + 4 <= 9 && !gone[d].is_empty())
        .fold(0u16, |m, d| m | 1 << d);
    if digits == 0 {
        return;
    }
    let mut s = std::mem::take(&mut out.scratch);
    // `lines[0][i]`, `lines[1][i]`: the digits (bit `d - 1`) of `digits` with two places in row `i`, in column `i`.
    let mut lines = [[0u16; 9]; 2];
    // The rows of each digit of `digits` ([`rows_of`]).
    let mut rows_d = [[0u16; 9]; 9];
    for d in DigitSet(digits).iter() {
        let rows = rows_of(g.now.places[d as usize - 1]);
        rows_d[d as usize - 1] = rows;
        // The columns of one place or more, two or more, three or more, counted row by row.
        let (mut one, mut two, mut more) = (0u16, 0u16, 0u16);
        for (&row, in_row) in rows.iter().zip(&mut lines[0]) {
            *in_row |= u16::from(count9(row) == 2) << (d - 1);
            more |= two & row;
            two |= one & row;
            one |= row;
        }
        for c in DigitSet(two & !more).iter() {
            lines[1][c as usize - 1] |= 1 << (d - 1);
        }
    }
    for (base, cover) in [(2, 1), (1, 2)] {
        // `two[i]`: the digits (bit `d - 1`) of two places in base line `i`.
        let two = lines[base - 1];
        let some = (0..9).filter(|&i| two[i] != 0).fold(0, |s, i| s | 1 << i);
        for m in pairs_in(some) {
            let (a, b) = pair(m);
            for d in DigitSet(two[a] & two[b]).iter() {
                // Two lines' places, two or more each, whose union is two: the same two.
                let rows = &rows_d[d as usize - 1];
                let common = line_positions(rows, base, a);
                if line_positions(rows, base, b) != common {
                    continue;
                }
                x_wing(g, (base, m), (cover, common), d, &mut s, out);
            }
        }
    }
    out.scratch = s;
}

#[cfg(test)]
mod tests;
