//! The vector engine's search state and its propagation: nine boxes of 16 lanes and six bands of placement
//! patterns (see `layout`), boxes and bands passing eliminations to each other until neither has news.
//!
//! Bands `0..3` are the row bands (band `b` holds boxes `3b..3b+3`, box `3b + p` is its box `p`), bands `3..6`
//! the column bands (band `3 + s` holds boxes `s`, `s + 3`, `s + 6`; box `3p + s` is its box `p`).
//!
//! - A band whose pattern eliminations changed drops those patterns; when a mini-line of a box is left with
//!   exactly three digits that may be in it, those digits are in it, and the patterns that put them elsewhere go
//!   too. Then each box of the band is restricted to what the remaining patterns allow: a cell keeps the digits
//!   some pattern puts in its mini-line (of the band's direction), a "not in mini-line" lane the digits some
//!   pattern puts in another mini-line of the box.
//! - A box restricted loses digits; every lane at its minimum asserts its digits, and so does every digit left
//!   in only one lane of a row or column of the matrix. An asserted cell empties itself of other digits and its
//!   digit from the box; what is asserted in (or excluded from) a mini-line rules out patterns of its two bands.
//!   This repeats until the box has no news; then its two bands are examined at once, the one across the band
//!   that restricted it first (depth first: each step calls the next, [`Steps`]).

#[cfg(target_arch = "x86_64")]
use super::avx2::Avx2;
#[cfg(all(target_arch = "x86_64", vector_avx512))]
use super::avx512::Avx512;
use super::lanes::{Isa, Pick, Portable, L16, L8};
use super::layout::{
    cell_lane, ALL, ALLOW, AWAY, CELLS_BY, CELL_AT, CELL_MASK, COLS_BY, GIVEN_REMOVES, IN_BOX,
    MARGINS, MINIMUM, NEXT, ROWS_BY, TO_BANDS, TRIADS,
};
use crate::grid::{Grid, CELLS};

/// A band: the patterns that remain per digit, and eliminations not yet applied to them.
struct Band<I> {
    /// Lane `k` (< 6): the digits that pattern `k` may still place.
    patterns: L8<I>,
    /// Patterns to remove at the band's next examination (lane `k`: digits).
    eliminations: L8<I>,
}

/// The whole search state: `Copy`, 480 bytes; a guess copies it. `I` does the lane work.
pub(super) struct State<I> {
    boxes: [L16<I>; 9],
    bands: [Band<I>; 6],
}

// Copy and Clone by hand: derived ones would ask `I` for them too.
impl<I> Clone for Band<I> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<I> Copy for Band<I> {}
impl<I> Clone for State<I> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<I> Copy for State<I> {}

/// Which patterns a guess keeps: in a band, of one digit, all or none of its first remaining pattern.
pub(super) struct Branch<I> {
    band: usize,
    /// The lane of the digit's first remaining pattern in the band.
    first: usize,
    /// The digit's remaining patterns (per lane).
    patterns: L8<I>,
}

/// `LANE[k]`: all ones in lane `k`, else zero (`LANE[8]`: zero).
const LANE: [[u16; 8]; 9] = {
    let mut t = [[0u16; 8]; 9];
    let mut k = 0;
    while k < 8 {
        t[k][k] = 0xFFFF;
        k += 1;
    }
    t
};

/// The lanes of the six patterns.
const PATTERN_LANES: [u16; 8] = [ALL, ALL, ALL, ALL, ALL, ALL, 0, 0];

/// Propagation's two steps, each its own function per instruction set: a band applies its eliminations and
/// restricts its three boxes ([`State::band_step`]); a box that changed passes what it found on to its two bands
/// ([`State::box_step`]). They call each other, depth first, as each finds news (the band's orientation a constant
/// of each copy), so neither is inlined into the other: the x86-64-v3 copies are functions of their own with
/// that instruction set's target features.
pub(super) trait Steps: Isa {
    /// Row band (`COLUMN` false) or column band `idx`, whose box `from` (0..3, its position in the band) sent the
    /// news and is restricted last. False on a contradiction.
    fn band<const COLUMN: bool>(st: &mut State<Self>, idx: usize, from: usize) -> bool;
    /// Box `bx` restricted to `allowed` (which takes something from it) by a row band (`FROM_COLUMN` false) or a column band. False on a
    /// contradiction.
    fn boxed<const FROM_COLUMN: bool>(st: &mut State<Self>, bx: usize, allowed: L16<Self>) -> bool;
}

impl Steps for Portable {
    fn band<const COLUMN: bool>(st: &mut State<Self>, idx: usize, from: usize) -> bool {
        st.band_step::<COLUMN>(idx, from)
    }
    fn boxed<const FROM_COLUMN: bool>(st: &mut State<Self>, bx: usize, allowed: L16<Self>) -> bool {
        st.box_step::<FROM_COLUMN>(bx, allowed)
    }
}

#[cfg(target_arch = "x86_64")]
impl Steps for Avx2 {
    #[inline(always)]
    fn band<const COLUMN: bool>(st: &mut State<Self>, idx: usize, from: usize) -> bool {
        // SAFETY: `Avx2`'s contract (avx2.rs): only the x86-64-v3 copy of the engine names it, and `run_v3` runs
        // that copy only after finding the features `band_v3` is compiled for.
        unsafe { band_v3::<COLUMN>(st, idx, from) }
    }
    #[inline(always)]
    fn boxed<const FROM_COLUMN: bool>(st: &mut State<Self>, bx: usize, allowed: L16<Self>) -> bool {
        // SAFETY: as in `band`.
        unsafe { box_v3::<FROM_COLUMN>(st, bx, allowed) }
    }
}

/// [`Steps::band`] compiled for x86-64-v3.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
fn band_v3<const COLUMN: bool>(st: &mut State<Avx2>, idx: usize, from: usize) -> bool {
    st.band_step::<COLUMN>(idx, from)
}

/// [`Steps::boxed`] compiled for x86-64-v3.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
fn box_v3<const FROM_COLUMN: bool>(st: &mut State<Avx2>, bx: usize, allowed: L16<Avx2>) -> bool {
    st.box_step::<FROM_COLUMN>(bx, allowed)
}

#[cfg(all(target_arch = "x86_64", vector_avx512))]
impl Steps for Avx512 {
    #[inline(always)]
    fn band<const COLUMN: bool>(st: &mut State<Self>, idx: usize, from: usize) -> bool {
        // SAFETY: `Avx512`'s contract (avx512.rs): only the AVX-512 copy of the engine names it, and `run_v4` runs
        // that copy only after finding the features `band_v4` is compiled for.
        unsafe { band_v4::<COLUMN>(st, idx, from) }
    }
    #[inline(always)]
    fn boxed<const FROM_COLUMN: bool>(st: &mut State<Self>, bx: usize, allowed: L16<Self>) -> bool {
        // SAFETY: as in `band`.
        unsafe { box_v4::<FROM_COLUMN>(st, bx, allowed) }
    }
}

/// [`Steps::band`] compiled with AVX-512.
#[cfg(all(target_arch = "x86_64", vector_avx512))]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt,avx512f,avx512bw,avx512vl,avx512bitalg")]
fn band_v4<const COLUMN: bool>(st: &mut State<Avx512>, idx: usize, from: usize) -> bool {
    st.band_step::<COLUMN>(idx, from)
}

/// [`Steps::boxed`] compiled with AVX-512.
#[cfg(all(target_arch = "x86_64", vector_avx512))]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt,avx512f,avx512bw,avx512vl,avx512bitalg")]
fn box_v4<const FROM_COLUMN: bool>(
    st: &mut State<Avx512>,
    bx: usize,
    allowed: L16<Avx512>,
) -> bool {
    st.box_step::<FROM_COLUMN>(bx, allowed)
}

impl<I: Steps> State<I> {
    /// The state of `puzzle`: each given's digit taken from the rest of its box and every other digit from its
    /// cell, the patterns of its two bands that put it elsewhere ruled out, then propagation. `None` when that
    /// ends in a contradiction; so do clashing givens, always, before any guess (two of a digit in a box empty
    /// each other's cells; in a row or column they leave the band without pattern for it; both are checked
    /// after the propagation).
    #[inline(always)]
    pub(super) fn from_grid(puzzle: &Grid) -> Option<State<I>> {
        let mut st = State {
            boxes: [L16::splat(ALL); 9],
            bands: [Band {
                patterns: L8::new(PATTERN_LANES),
                eliminations: L8::splat(0),
            }; 6],
        };
        for (cell, &value) in puzzle.cells().iter().enumerate() {
            if value == 0 {
                continue;
            }
            let at = &CELL_AT[cell];
            let (d, bit) = (usize::from(value - 1), 1u16 << (value - 1));
            let b = &mut st.boxes[usize::from(at.bx)];
            *b = b.and_not(L16::new(GIVEN_REMOVES[d][usize::from(at.lane)]));
            let row = &mut st.bands[usize::from(at.bx / 3)].eliminations;
            *row = row.or(L8::new(AWAY[usize::from(at.row_away)]).and(L8::splat(bit)));
            let col = &mut st.bands[3 + usize::from(at.bx % 3)].eliminations;
            *col = col.or(L8::new(AWAY[usize::from(at.col_away)]).and(L8::splat(bit)));
        }
        // Each band once (each box is restricted last by the band after it), then whatever they find.
        let settled = I::band::<false>(&mut st, 0, 1)
            && I::band::<true>(&mut st, 0, 1)
            && I::band::<false>(&mut st, 1, 2)
            && I::band::<true>(&mut st, 1, 2)
            && I::band::<false>(&mut st, 2, 0)
            && I::band::<true>(&mut st, 2, 0);
        if !settled {
            return None;
        }
        let mut whole = true;
        for band in &st.bands {
            let p = band.patterns.0;
            whole &= p[0] | p[1] | p[2] | p[3] | p[4] | p[5] == ALL;
        }
        for b in &st.boxes {
            whole &= !b.counts().any_below(L16::new(MINIMUM));
        }
        whole.then_some(st)
    }

    /// The body of [`Steps::band`]: applies the band's pending eliminations, then restricts its boxes to what its
    /// patterns allow, box `from` last; each box that changes examines its bands at once ([`State::box_step`]).
    #[inline(always)]
    fn band_step<const COLUMN: bool>(&mut self, idx: usize, from: usize) -> bool {
        let Some(t) = self.eliminate(idx + 3 * usize::from(COLUMN)) else {
            return true;
        };
        let t = t.or(L16::new(MARGINS));
        // Each box's allowance made where it is used, with its position a constant: nothing kept across the
        // calls but `t`, no table of boxes looked up at run time.
        match from {
            0 => {
                self.restricts_box::<COLUMN, 1>(idx, t)
                    && self.restricts_box::<COLUMN, 2>(idx, t)
                    && self.restricts_box::<COLUMN, 0>(idx, t)
            }
            1 => {
                self.restricts_box::<COLUMN, 2>(idx, t)
                    && self.restricts_box::<COLUMN, 0>(idx, t)
                    && self.restricts_box::<COLUMN, 1>(idx, t)
            }
            _ => {
                self.restricts_box::<COLUMN, 0>(idx, t)
                    && self.restricts_box::<COLUMN, 1>(idx, t)
                    && self.restricts_box::<COLUMN, 2>(idx, t)
            }
        }
    }

    /// Restricts box `P` (its position) of row band (`COLUMN` false) or column band `idx` to what the band's
    /// [`triads`] with [`MARGINS`], `t`, allow there.
    #[inline(always)]
    fn restricts_box<const COLUMN: bool, const P: usize>(&mut self, idx: usize, t: L16<I>) -> bool {
        let bx = if COLUMN { idx + 3 * P } else { idx * 3 + P };
        self.restricts::<COLUMN>(bx, allow(t, &ALLOW[usize::from(COLUMN)][P]))
    }

    /// [`Steps::band`], called only when the band has eliminations to apply (most often it has none, and the
    /// call would cost more than the test).
    #[inline(always)]
    fn examines<const COLUMN: bool>(&mut self, idx: usize, from: usize) -> bool {
        let band = &self.bands[idx + 3 * usize::from(COLUMN)];
        !band.patterns.intersects(band.eliminations) || I::band::<COLUMN>(self, idx, from)
    }

    /// [`Steps::boxed`], called only when `allowed` takes something from the box (most often it takes nothing,
    /// and the call would cost more than the test).
    #[inline(always)]
    fn restricts<const FROM_COLUMN: bool>(&mut self, bx: usize, allowed: L16<I>) -> bool {
        !self.boxes[bx].and_not(allowed).any() || I::boxed::<FROM_COLUMN>(self, bx, allowed)
    }

    /// The body of [`Steps::boxed`]: restricts box `bx`, then examines its two bands, the one of the other
    /// orientation first.
    // The lint takes the two orders of the bands below for one block: they differ only in const generic arguments.
    #[allow(clippy::if_same_then_else)]
    #[inline(always)]
    fn box_step<const FROM_COLUMN: bool>(&mut self, bx: usize, allowed: L16<I>) -> bool {
        if !self.restrict(bx, allowed) {
            return false;
        }
        let (bi, bj) = (bx / 3, bx % 3);
        if FROM_COLUMN {
            self.examines::<false>(bi, bj) && self.examines::<true>(bj, bi)
        } else {
            self.examines::<true>(bj, bi) && self.examines::<false>(bi, bj)
        }
    }

    /// Applies band `b`'s pending eliminations. Returns what its patterns then allow: lane `p * 4 + e` the digits
    /// that may be in mini-line `e` of its box `p` (other lanes empty); `None` when nothing changed.
    #[inline(always)]
    fn eliminate(&mut self, b: usize) -> Option<L16<I>> {
        let band = &mut self.bands[b];
        if !band.patterns.intersects(band.eliminations) {
            return None;
        }
        let patterns = band.patterns.and_not(band.eliminations);
        // A mini-line that only three digits can be in holds them: the patterns that put those digits in another
        // mini-line of its box go.
        let t = triads(patterns);
        let known = t.and(t.counts().equal(L16::splat(3)));
        let elsewhere = known.pick(&CELLS_BY[1]).or(known.pick(&CELLS_BY[2]));
        let drop = elsewhere
            .pick8(&IN_BOX[0])
            .or(elsewhere.pick8(&IN_BOX[1]))
            .or(elsewhere.pick8(&IN_BOX[2]));
        let patterns = patterns.and_not(drop);
        band.patterns = patterns;
        Some(triads(patterns))
    }

    /// Restricts box `bx` to `allowed`, which takes something from it ([`State::restricts`] calls the step only
    /// then), and propagates inside it; the eliminations it finds for its bands are queued on them. False on a
    /// contradiction.
    #[inline(always)]
    fn restrict(&mut self, bx: usize, allowed: L16<I>) -> bool {
        let mut cells = self.boxes[bx];
        let mut elim = cells.and_not(allowed);
        let minimum = L16::new(MINIMUM);
        // Everything asserted, and every digit placed in each mini-line (in its "not in" lane), over all rounds.
        let (mut asserted_all, mut placed_all) = (L16::splat(0), L16::splat(0));
        loop {
            cells = cells.and_not(elim);
            let counts = cells.counts();
            if counts.any_below(minimum) {
                return false;
            }
            // Lanes at their minimum, and digits in one lane only of a row (or column) of the matrix, are
            // asserted.
            let asserted = cells
                .and(counts.equal(minimum))
                .or(cells.and_not(twice(cells, &ROWS_BY)))
                .or(cells.and_not(twice(cells, &COLS_BY)));
            // Asserted cells lose every other digit; the other cells and the "not in" lanes of their mini-lines
            // their digits. Each row (column) of the matrix gathers all four of its lanes: turned by one, then the
            // union turned by two (turning `mine` by one and by two alone would miss the lane three away).
            let mine = asserted.and(L16::new(CELL_MASK));
            let rows = mine.or(mine.pick(&ROWS_BY[1]));
            let rows = rows.or(rows.pick(&ROWS_BY[2]));
            let cols = mine.or(mine.pick(&COLS_BY[1]));
            let cols = cols.or(cols.pick(&COLS_BY[2]));
            let placed = cols
                .or(cols.pick(&CELLS_BY[1]))
                .or(cols.pick(&CELLS_BY[2]))
                .or(rows)
                .or(mine.nonzero());
            elim = elim.or(placed.xor(mine));
            asserted_all = asserted_all.or(asserted);
            placed_all = placed_all.or(placed);
            if !elim.intersects(cells) {
                break;
            }
        }
        self.boxes[bx] = cells;
        // In the bands: a digit placed in a mini-line rules out the patterns putting it in the other two; a digit
        // excluded from a mini-line, the patterns putting it there. Per "not in" lane: what rules out the patterns
        // that put the digit in that mini-line.
        let out = asserted_all
            .or(placed_all.pick(&NEXT[1]))
            .or(placed_all.pick(&NEXT[2]));
        let (bi, bj) = (bx / 3, bx % 3);
        let (row_band, col_band) = out.pick_any(&TO_BANDS[bx]).halves();
        let row = &mut self.bands[bi].eliminations;
        *row = row.or(row_band);
        let col = &mut self.bands[3 + bj].eliminations;
        *col = col.or(col_band);
        true
    }

    /// The band and digit to guess on: the band with fewest patterns left among those not settled (more than
    /// nine patterns), and in it the lowest digit with two patterns left, else three, else the lowest with more.
    /// `None` when every band is settled: the board is solved.
    #[inline(always)]
    pub(super) fn choose(&self) -> Option<Branch<I>> {
        let mut best = (u32::MAX, 0);
        for (b, band) in self.bands.iter().enumerate() {
            let n = band.patterns.count_all();
            if n >= 10 && n < best.0 {
                best = (n, b);
            }
        }
        if best.0 == u32::MAX {
            return None;
        }
        let band = best.1;
        let p = self.bands[band].patterns;
        let (mut one, mut two, mut three, mut four) = (0u16, 0u16, 0u16, 0u16);
        for &x in &p.0[..6] {
            four |= three & x;
            three |= two & x;
            two |= one & x;
            one |= x;
        }
        let (only_two, only_three) = (two & !three, three & !four);
        let pick = if only_two != 0 {
            only_two
        } else if only_three != 0 {
            only_three
        } else {
            four
        };
        let digit = pick & pick.wrapping_neg();
        let patterns = p.and(L8::splat(digit));
        let first = patterns.first_nonzero();
        Some(Branch {
            band,
            first,
            patterns,
        })
    }

    /// Keeps only the first remaining pattern of the branch's digit in its band (`take`), or removes it, and
    /// propagates. False on a contradiction.
    #[inline(always)]
    pub(super) fn apply(&mut self, branch: &Branch<I>, take: bool) -> bool {
        // Built in registers: written lane by lane in memory and read back whole, it would stall the load.
        let first = L8::new(LANE[branch.first]);
        let drop = if take {
            branch.patterns.and_not(first)
        } else {
            branch.patterns.and(first)
        };
        let band = &mut self.bands[branch.band];
        band.eliminations = band.eliminations.or(drop);
        if branch.band < 3 {
            I::band::<false>(self, branch.band, 0)
        } else {
            I::band::<true>(self, branch.band - 3, 0)
        }
    }

    /// The solved board (every band settled): each cell's one digit.
    pub(super) fn solution(&self) -> Grid {
        let mut cells = [0u8; CELLS];
        for (bx, lanes) in self.boxes.iter().enumerate() {
            let (bi, bj) = (bx / 3, bx % 3);
            for i in 0..3 {
                for j in 0..3 {
                    let x = lanes.0[cell_lane(i, j)];
                    cells[(bi * 3 + i) * 9 + bj * 3 + j] = (x.trailing_zeros() + 1).min(9) as u8;
                }
            }
        }
        // Every value is 1..=9, so this cannot fail.
        Grid::from_cells(cells).unwrap_or(Grid::EMPTY)
    }
}

/// The digits that each mini-line of each box of a band may hold under `patterns`: lane `p * 4 + e`, the union
/// of the two patterns that put a digit in mini-line `e` of box `p`.
#[inline(always)]
fn triads<I: Isa>(patterns: L8<I>) -> L16<I> {
    patterns.spread(&TRIADS[0]).or(patterns.spread(&TRIADS[1]))
}

/// What a band allows in one of its boxes, from its [`triads`] with [`MARGINS`] (see [`ALLOW`]).
#[inline(always)]
fn allow<I: Isa>(t: L16<I>, picks: &[Pick; 2]) -> L16<I> {
    t.pick(&picks[0]).or(t.pick(&picks[1]))
}

/// The digits found in two or more of the four lanes of each row (`by` = [`ROWS_BY`]) or column ([`COLS_BY`])
/// of the matrix, in every lane of that row or column.
#[inline(always)]
fn twice<I: Isa>(x: L16<I>, by: &[Pick; 3]) -> L16<I> {
    let r1 = x.pick(&by[1]);
    let r2 = x.pick(&by[2]);
    let r3 = r1.pick(&by[2]);
    let mut one = x.or(r1);
    let mut two = x.and(r1);
    two = two.or(one.and(r2));
    one = one.or(r2);
    two.or(one.and(r3))
}
