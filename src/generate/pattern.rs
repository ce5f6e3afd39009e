//! The default method: every board is a transform of one base solved grid (a relabelling of the digits, then a
//! rearrangement of rows, columns, bands and stacks, possibly transposed), and board indices are mapped to
//! transforms so that every board in a run is distinct by construction. A [`Transform`](crate::generate::Transform)
//! (defined with the board, in the grid layer) is one element of that group of transformations.
//!
//! # Why the boards are distinct
//!
//! The rearrangements used are the row orders that keep bands together (6 band orders times 6 row orders inside
//! each of the 3 bands: 1296), the same 1296 column orders, and the transposition: the group `G` of the
//! 2 · 1296 · 1296 = 3,359,232 cell permutations that map every valid board to a valid board. Distinct elements of
//! `G` move cells differently (a row order and a column order are read back from where row 1 and column 1 go, and
//! a transposed map sends a row to a column). Relabellings (the group `S9` of digit permutations) commute with
//! `G`.
//!
//! Suppose two transforms give the same board: `σ(g(B)) = σ'(g'(B))` for the base grid `B`. Then
//! `τ(h(B)) = B` with `τ = σ'⁻¹σ` and `h = g'⁻¹g`, so `h` maps `B` to a relabelling of itself. The test
//! `the_base_grid_has_no_symmetry` checks all 3,359,231 non-identity elements of `G` and finds none that does, so
//! `h` is the identity, `g = g'`, and then `σ = σ'` because `B` holds all nine digits. Hence the
//! 3,359,232 · 9! transforms give 3,359,232 · 9! different boards.
//!
//! With the first digit fixed to `d`, the relabelling must send the base digit that lands in the top-left cell to
//! `d`; the other 8 digits are permuted freely (8! ways), so the capacity is 3,359,232 · 8! =
//! [`CAPACITY_FIXED_FIRST`] boards, and 3,359,232 · 9! = [`CAPACITY_FREE_FIRST`] without a fixed first digit.
//!
//! A board index `i` becomes a position `p = (a · i + b) mod capacity` with `gcd(a, capacity) = 1` (a bijection of
//! `0..capacity`, chosen from the seed so that consecutive boards look unrelated), and `p` is read as mixed-radix
//! digits: the relabelling (radices 9 or 8, 7, …, 1), the row order, the column order and the transposition.
//! Every step is a bijection (tested by decoding and encoding back), so distinct indices give distinct boards.

use std::sync::LazyLock;

use crate::generate::layout::{BoardTemplate, Format};
use crate::grid::rng::mix64;
#[cfg(test)]
use crate::grid::Transform;
use crate::grid::{Grid, CELLS};

/// The base solved grid, row-major. Any valid grid without symmetry works; this one is the solution of the
/// well-known hard puzzle `4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......`.
const BASE_TEXT: &[u8; CELLS] =
    b"417369825632158947958724316825437169791586432346912758289643571573291684164875293";

/// The base grid as 0-based digits (0..=8).
const BASE: [u8; CELLS] = {
    let mut t = [0u8; CELLS];
    let mut i = 0;
    while i < CELLS {
        t[i] = BASE_TEXT[i] - b'1';
        i += 1;
    }
    t
};

/// The base grid transposed.
const BASE_T: [u8; CELLS] = {
    let mut t = [0u8; CELLS];
    let mut i = 0;
    while i < CELLS {
        t[i] = BASE[(i % 9) * 9 + i / 9];
        i += 1;
    }
    t
};

/// The 6 orders of 3 things; entry 0 is the identity.
const PERM3: [[u8; 3]; 6] = crate::grid::PERMUTATIONS_OF_3;

/// Line orders that keep bands (or stacks) together: 6 band orders times 6³ orders inside the bands.
pub(super) const LINE_ORDERS: usize = 1296;

/// `LINE_ORDER[x][r]` is the base line that goes to line `r` under order `x`; order 0 is the identity.
static LINE_ORDER: [[u8; 9]; LINE_ORDERS] = {
    let mut t = [[0u8; 9]; LINE_ORDERS];
    let mut x = 0;
    while x < LINE_ORDERS {
        let band = PERM3[x % 6];
        let inner = [(x / 6) % 6, (x / 36) % 6, (x / 216) % 6];
        let mut r = 0;
        while r < 9 {
            t[x][r] = 3 * band[r / 3] + PERM3[inner[r / 3]][r % 3];
            r += 1;
        }
        x += 1;
    }
    t
};

/// The cell rearrangements used: transposed or not, times a row order, times a column order.
pub(super) const GEOMETRIES: u64 = 2 * (LINE_ORDERS as u64) * (LINE_ORDERS as u64);

/// Boards available with the first digit fixed: 3,359,232 · 8! = 135,444,234,240.
pub(super) const CAPACITY_FIXED_FIRST: u64 = GEOMETRIES * 40_320;

// The floor the pattern method promises: ten million distinct boards with a fixed first digit.
const _: () = assert!(CAPACITY_FIXED_FIRST >= 10_000_000);

/// Boards available with the first digit free: 3,359,232 · 9! = 1,218,998,108,160.
pub(super) const CAPACITY_FREE_FIRST: u64 = GEOMETRIES * 362_880;

/// The pattern generator of one run: the first digit (if fixed) and the seed's scramble of board indices.
#[derive(Debug, Clone)]
pub struct PatternFill {
    /// The fixed first digit as a 0-based value.
    first: Option<u8>,
    #[cfg(test)]
    relabelings: u64,
    capacity: u64,
    step: u64,
    offset: u64,
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl PatternFill {
    /// The generator for a run. `first` is the digit (1..=9) of every board's top-left cell, or `None` to let it
    /// vary.
    ///
    /// # Panics
    /// If `first` is not a digit 1..=9.
    pub fn new(first: Option<u8>, seed: u64) -> PatternFill {
        if let Some(d) = first {
            assert!((1..=9).contains(&d), "first digit {d} is not 1..=9");
        }
        let capacity = PatternFill::capacity_for(first);
        let mut step = mix64(seed) % capacity;
        while step == 0 || gcd(step, capacity) != 1 {
            step = (step + 1) % capacity;
        }
        PatternFill {
            first: first.map(|d| d - 1),
            #[cfg(test)]
            relabelings: capacity / GEOMETRIES,
            capacity,
            step,
            offset: mix64(seed ^ 0x5851_f42d_4c95_7f2d) % capacity,
        }
    }

    /// How many distinct boards the method can give: 135,444,234,240 with a fixed first digit, 1,218,998,108,160
    /// without.
    pub(crate) const fn capacity_for(first: Option<u8>) -> u64 {
        match first {
            Some(_) => CAPACITY_FIXED_FIRST,
            None => CAPACITY_FREE_FIRST,
        }
    }

    #[cfg(test)]
    /// See [`PatternFill::capacity_for`].
    pub(crate) fn capacity(&self) -> u64 {
        self.capacity
    }

    /// Where board `index` (`< capacity`) sits in the enumeration of transforms.
    pub(crate) fn position(&self, index: u64) -> u64 {
        ((u128::from(self.step) * u128::from(index) + u128::from(self.offset))
            % u128::from(self.capacity)) as u64
    }

    #[cfg(test)]
    /// The board index whose position is `position`: the inverse of [`PatternFill::position`].
    pub(crate) fn index_of_position(&self, position: u64) -> u64 {
        let inv = mod_inverse(self.step, self.capacity);
        let diff = (u128::from(position) + u128::from(self.capacity) - u128::from(self.offset))
            % u128::from(self.capacity);
        ((diff * u128::from(inv)) % u128::from(self.capacity)) as u64
    }

    #[cfg(test)]
    /// The transform at `position` (`< capacity`): board `index` is the transform at [`PatternFill::position`] of
    /// the base grid.
    pub(crate) fn transform(&self, position: u64) -> Transform {
        let lines = LINE_ORDERS as u64;
        let relabel = (position % self.relabelings) as u32;
        let geo = position / self.relabelings;
        let (row_coord, col_coord) = ((geo % lines) as usize, ((geo / lines) % lines) as usize);
        let transpose = geo >= lines * lines;
        // As `arrange` reads them: a transposed board takes its rows from the column coordinate.
        let (rows, cols) = if transpose {
            (LINE_ORDER[col_coord], LINE_ORDER[row_coord])
        } else {
            (LINE_ORDER[row_coord], LINE_ORDER[col_coord])
        };
        let sigma = match self.first {
            Some(first) => relabel_fixed(relabel, top_left(transpose, &rows, &cols), first),
            None => relabel_free(relabel),
        };
        let mut digits = [0u8; 10];
        for (d, &s) in digits[1..].iter_mut().zip(&sigma) {
            *d = s + 1;
        }
        Transform {
            transpose,
            rows,
            cols,
            digits,
        }
    }

    #[cfg(test)]
    /// The position of a transform of this run: the inverse of [`PatternFill::transform`].
    ///
    /// # Panics
    /// With a fixed first digit, if `t` does not put it in the top-left cell (no board of the run is `t` of the
    /// base grid).
    pub(crate) fn position_of(&self, t: &Transform) -> u64 {
        let lines = LINE_ORDERS as u64;
        let (row_coord, col_coord) = if t.transpose {
            (line_order_index(&t.cols), line_order_index(&t.rows))
        } else {
            (line_order_index(&t.rows), line_order_index(&t.cols))
        };
        let geo = (u64::from(t.transpose) * lines + col_coord) * lines + row_coord;
        let sigma = |d: u8| t.digits[usize::from(d) + 1] - 1;
        let relabel = match self.first {
            Some(first) => {
                let top = top_left(t.transpose, &t.rows, &t.cols);
                assert_eq!(sigma(top), first, "the run's first digit goes top-left");
                lehmer_index((0..9).filter(|&d| d != top).map(sigma), first)
            }
            None => lehmer_index((0..9).map(sigma), 9),
        };
        geo * self.relabelings + u64::from(relabel)
    }

    /// Board number `index` of the run (`index < capacity`).
    pub fn board(&self, index: u64) -> Grid {
        let mut cells = self.cells(self.position(index));
        for c in cells.iter_mut() {
            *c += 1;
        }
        Grid::from_cells(cells).expect("digits 1..=9")
    }

    /// The board at `position`, as 0-based digits.
    fn cells(&self, position: u64) -> [u8; CELLS] {
        let (grid, rm, sigma) = match self.first {
            Some(d) => arrange::<true>(&COLUMNED, position, d),
            None => arrange::<false>(&COLUMNED, position, 0),
        };
        let mut out = [0u8; CELLS];
        for (r, &base_row) in rm.iter().enumerate() {
            for c in 0..9 {
                out[r * 9 + c] = sigma[grid[base_row as usize * 9 + c] as usize] - b'1';
            }
        }
        out
    }

    /// Writes boards `first_index .. first_index + count` as records of `layout` into `out`, whose fixed bytes
    /// are already laid out (see `BoardTemplate::lay_out`). For the crate's board runs and, through
    /// `internals`, its benchmarks.
    #[doc(hidden)]
    pub fn fill(&self, first_index: u64, count: usize, layout: &BoardTemplate, out: &mut [u8]) {
        const GRID: usize = Format::Grid.stride();
        const LINE: usize = Format::Line.stride();
        let first = self.first.unwrap_or(0);
        match (self.first.is_some(), layout.format) {
            (true, Format::Grid) => {
                self.fill_with::<true, GRID, 18, 2, 0>(first_index, count, first, out)
            }
            (true, Format::Line | Format::Csv) => {
                self.fill_with::<true, LINE, 9, 1, 0>(first_index, count, first, out)
            }
            (false, Format::Grid) => {
                self.fill_with::<false, GRID, 18, 2, 0>(first_index, count, first, out)
            }
            (false, Format::Line | Format::Csv) => {
                self.fill_with::<false, LINE, 9, 1, 0>(first_index, count, first, out)
            }
        }
    }

    /// Writes boards `first_index ..` as cell values (1..=9, 81 per board in row-major order) into `out`, a
    /// whole number of boards.
    pub(crate) fn fill_cells(&self, first_index: u64, out: &mut [u8]) {
        let count = out.len() / CELLS;
        match self.first {
            Some(d) => self.fill_with::<true, CELLS, 9, 1, b'0'>(first_index, count, d, out),
            None => self.fill_with::<false, CELLS, 9, 1, b'0'>(first_index, count, 0, out),
        }
    }

    /// The hot loop, with the first-digit rule and the record shape (bytes per board, per row, between digits;
    /// the byte of digit 0: `b'0'` for cell values) as constants so that divisions are by constants and the digit
    /// stores need no bounds checks.
    #[inline(always)]
    fn fill_with<
        const FIXED: bool,
        const STRIDE: usize,
        const ROW: usize,
        const STEP: usize,
        const ZERO: u8,
    >(
        &self,
        first_index: u64,
        count: usize,
        first: u8,
        out: &mut [u8],
    ) {
        let columned = &*COLUMNED;
        let mut position = self.position(first_index);
        for record in out.chunks_mut(STRIDE).take(count) {
            let (grid, rm, sigma) = arrange::<FIXED>(columned, position, first);
            for (r, &base_row) in rm.iter().enumerate() {
                let src: &[u8; 9] = grid[base_row as usize * 9..][..9]
                    .try_into()
                    .expect("9 cells");
                let dst = &mut record[r * ROW..r * ROW + 8 * STEP + 1];
                for (c, &d) in src.iter().enumerate() {
                    dst[c * STEP] = sigma[usize::from(d & 15)] - ZERO;
                }
            }
            position += self.step;
            if position >= self.capacity {
                position -= self.capacity;
            }
        }
    }
}

/// `COLUMNED[t * 1296 + x]`: the base grid (transposed when `t` = 1) with its columns in line order `x`, so that a
/// board's row is one contiguous 9-byte row of this table (2 · 1296 · 81 bytes = 210 KB).
static COLUMNED: LazyLock<Vec<[u8; CELLS]>> = LazyLock::new(|| {
    let mut t = Vec::with_capacity(2 * LINE_ORDERS);
    for base in [&BASE, &BASE_T] {
        for order in LINE_ORDER.iter() {
            let mut g = [0u8; CELLS];
            for (i, cell) in g.iter_mut().enumerate() {
                *cell = base[(i / 9) * 9 + order[i % 9] as usize];
            }
            t.push(g);
        }
    }
    t
});

/// The board at `position`: its column-arranged grid from [`COLUMNED`], its row order, and its relabelling as
/// ASCII digits (indexed by 0-based base digit; 16 entries so that indices masked to 4 bits need no check).
/// The decoding is the one of [`PatternFill::transform`], with the radix a constant.
#[inline(always)]
fn arrange<const FIXED: bool>(
    columned: &[[u8; CELLS]],
    position: u64,
    first: u8,
) -> (&[u8; CELLS], &'static [u8; 9], [u8; 16]) {
    let relabelings: u64 = if FIXED { 40_320 } else { 362_880 };
    let lines = LINE_ORDERS as u64;
    let relabel = (position % relabelings) as u32;
    let geo = position / relabelings;
    let (rows, cols, transpose) = (geo % lines, (geo / lines) % lines, geo >= lines * lines);
    // Not transposed: cell (r, c) = BASE[rows[r]][cols[c]]. Transposed: BASE_T[cols[r]][rows[c]].
    let (grid, rm) = if transpose {
        (
            &columned[LINE_ORDERS + rows as usize],
            &LINE_ORDER[cols as usize],
        )
    } else {
        (&columned[cols as usize], &LINE_ORDER[rows as usize])
    };
    let sigma = if FIXED {
        relabel_fixed(relabel, grid[rm[0] as usize * 9], first)
    } else {
        relabel_free(relabel)
    };
    let mut ascii = [b'0'; 16];
    for (a, &s) in ascii.iter_mut().zip(sigma.iter()) {
        *a = b'1' + s;
    }
    (grid, rm, ascii)
}

#[cfg(test)]
/// `a⁻¹ mod m` for `gcd(a, m) = 1`.
fn mod_inverse(a: u64, m: u64) -> u64 {
    let (mut r0, mut r1) = (i128::from(m), i128::from(a));
    let (mut t0, mut t1) = (0i128, 1i128);
    while r1 != 0 {
        let q = r0 / r1;
        (r0, r1) = (r1, r0 - q * r1);
        (t0, t1) = (t1, t0 - q * t1);
    }
    assert_eq!(r0, 1, "not invertible");
    t0.rem_euclid(i128::from(m)) as u64
}

#[cfg(test)]
/// The base digit (0-based) that a transform with these line orders puts in the top-left cell.
fn top_left(transpose: bool, rows: &[u8; 9], cols: &[u8; 9]) -> u8 {
    let base = if transpose { &BASE_T } else { &BASE };
    base[usize::from(rows[0]) * 9 + usize::from(cols[0])]
}

#[cfg(test)]
/// The number `x` of a line order (`LINE_ORDER[x] == *order`).
fn line_order_index(order: &[u8; 9]) -> u64 {
    let perm = |p: [u8; 3]| PERM3.iter().position(|&q| q == p).expect("an order of 3") as u64;
    let band = perm([order[0] / 3, order[3] / 3, order[6] / 3]);
    let inner = |b: usize| perm([order[3 * b] % 3, order[3 * b + 1] % 3, order[3 * b + 2] % 3]);
    band + 6 * (inner(0) + 6 * inner(1) + 36 * inner(2))
}

#[cfg(test)]
/// The Lehmer number (radices n, n - 1, …, 1, lowest first, as `pick_table` decodes it) of `images`, a
/// sequence of distinct digits of `0..9` without `skip` (or of all nine when `skip` is 9).
fn lehmer_index(images: impl Iterator<Item = u8>, skip: u8) -> u32 {
    let mut avail: Vec<u8> = (0..9).filter(|&d| d != skip).collect();
    let (mut k, mut weight) = (0u32, 1u32);
    for v in images {
        let q = avail.iter().position(|&a| a == v).expect("a relabelling");
        k += q as u32 * weight;
        weight *= avail.len() as u32;
        avail.remove(q);
    }
    k
}

/// `table[a]` for `a` in `0..C`: `picks` choices from the list `0..N` read as mixed-radix digits of `a` (lowest
/// first, radices N, N-1, …; each choice removes an entry and closes the gap), then the entries left, in
/// increasing order. This is the first part of a Lehmer-code decoding, tabulated.
const fn pick_table<const N: usize, const C: usize>(picks: usize) -> [[u8; N]; C] {
    let mut t = [[0u8; N]; C];
    let mut a = 0;
    while a < C {
        let mut list = [0u8; N];
        let mut i = 0;
        while i < N {
            list[i] = i as u8;
            i += 1;
        }
        let (mut len, mut k, mut m) = (N, a, 0);
        while m < picks {
            let q = k % len;
            k /= len;
            t[a][m] = list[q];
            let mut j = q;
            while j + 1 < len {
                list[j] = list[j + 1];
                j += 1;
            }
            len -= 1;
            m += 1;
        }
        let mut j = 0;
        while j < len {
            t[a][picks + j] = list[j];
            j += 1;
        }
        a += 1;
    }
    t
}

/// 8! = 336 · 120: the first three choices among 8 (radices 8, 7, 6) and the order of the 5 left.
static HEAD8: [[u8; 8]; 336] = pick_table::<8, 336>(3);
static TAIL5: [[u8; 5]; 120] = pick_table::<5, 120>(5);
/// 9! = 504 · 720: the first three choices among 9 (radices 9, 8, 7) and the order of the 6 left.
static HEAD9: [[u8; 9]; 504] = pick_table::<9, 504>(3);
static TAIL6: [[u8; 6]; 720] = pick_table::<6, 720>(6);

/// Relabelling number `k` (`0..9!`) as `sigma[base digit] = digit`: the Lehmer code with radices 9, 8, …, 1,
/// lowest digit first (base digit 0 takes choice `k % 9` of the digits, and so on).
#[inline]
fn relabel_free(k: u32) -> [u8; 9] {
    let (head, tail) = (&HEAD9[(k % 504) as usize], &TAIL6[(k / 504) as usize]);
    let mut sigma = [0u8; 9];
    for (m, s) in sigma.iter_mut().enumerate() {
        *s = if m < 3 {
            head[m]
        } else {
            head[3 + tail[m - 3] as usize]
        };
    }
    sigma
}

/// Relabelling number `k` (`0..8!`) that sends base digit `top_left` to `first`; the other 8 base digits, in
/// increasing order, take the other 8 digits by the Lehmer code with radices 8, 7, …, 1.
#[inline]
fn relabel_fixed(k: u32, top_left: u8, first: u8) -> [u8; 9] {
    let (head, tail) = (&HEAD8[(k % 336) as usize], &TAIL5[(k / 336) as usize]);
    let mut sigma = [0u8; 9];
    for m in 0..8 {
        let choice = if m < 3 {
            head[m]
        } else {
            head[3 + tail[m - 3] as usize]
        };
        sigma[m + usize::from(m >= top_left as usize)] = choice + u8::from(choice >= first);
    }
    sigma[top_left as usize] = first;
    sigma
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    /// Cell `i` of the rearranged base grid (before relabelling), straight from the definition.
    fn geometry_cell(transpose: bool, rows: usize, cols: usize, i: usize) -> u8 {
        let (r, c) = (i / 9, i % 9);
        if transpose {
            BASE[LINE_ORDER[rows][c] as usize * 9 + LINE_ORDER[cols][r] as usize]
        } else {
            BASE[LINE_ORDER[rows][r] as usize * 9 + LINE_ORDER[cols][c] as usize]
        }
    }

    #[test]
    fn the_base_grid_is_valid() {
        let mut g = [0u8; CELLS];
        for (o, &d) in g.iter_mut().zip(BASE.iter()) {
            *o = d + 1;
        }
        assert!(Grid::from_cells(g).unwrap().is_valid_solution());
    }

    #[test]
    fn line_orders_are_distinct_and_keep_bands_together() {
        let mut seen = HashSet::new();
        for order in LINE_ORDER.iter() {
            assert!(seen.insert(*order));
            let mut sorted = *order;
            sorted.sort_unstable();
            assert_eq!(sorted, [0, 1, 2, 3, 4, 5, 6, 7, 8]);
            for band in 0..3 {
                let b = order[band * 3] / 3;
                assert!(order[band * 3..band * 3 + 3].iter().all(|&r| r / 3 == b));
            }
        }
        assert_eq!(LINE_ORDER[0], [0, 1, 2, 3, 4, 5, 6, 7, 8]);
    }

    /// The heart of the distinctness proof (see the module docs): no rearrangement other than the identity maps
    /// the base grid to a relabelling of itself. Checks all 3,359,231 of them.
    #[test]
    fn the_base_grid_has_no_symmetry() {
        let mut symmetries = 0u32;
        for transpose in [false, true] {
            for rows in 0..LINE_ORDERS {
                for cols in 0..LINE_ORDERS {
                    if !transpose && rows == 0 && cols == 0 {
                        continue;
                    }
                    // Does a relabelling tau with tau(g(B)) = B exist? Build it cell by cell.
                    let mut tau = [u8::MAX; 9];
                    let mut consistent = true;
                    for (i, &want) in BASE.iter().enumerate() {
                        let have = geometry_cell(transpose, rows, cols, i) as usize;
                        if tau[have] == u8::MAX {
                            tau[have] = want;
                        } else if tau[have] != want {
                            consistent = false;
                            break;
                        }
                    }
                    symmetries += u32::from(consistent);
                }
            }
        }
        assert_eq!(symmetries, 0);
    }

    /// The Lehmer-code decoding written out step by step, for checking the tables.
    fn lehmer(mut k: u32, mut avail: Vec<u8>) -> Vec<u8> {
        let mut out = Vec::new();
        while !avail.is_empty() {
            let radix = avail.len() as u32;
            out.push(avail.remove((k % radix) as usize));
            k /= radix;
        }
        out
    }

    #[test]
    fn tabulated_relabellings_match_the_lehmer_code() {
        for k in 0..362_880 {
            assert_eq!(
                relabel_free(k).to_vec(),
                lehmer(k, (0..9).collect()),
                "k = {k}"
            );
        }
        for top_left in 0..9u8 {
            for first in 0..9u8 {
                for k in (0..40_320).step_by(if top_left == first { 1 } else { 13 }) {
                    let others = lehmer(k, (0..9).filter(|&d| d != first).collect());
                    let mut want = [0u8; 9];
                    want[top_left as usize] = first;
                    let sources = (0..9).filter(|&d| d != top_left);
                    for (src, d) in sources.zip(others) {
                        want[src as usize] = d;
                    }
                    assert_eq!(relabel_fixed(k, top_left, first), want, "k {k}");
                }
            }
        }
    }

    #[test]
    fn relabellings_are_bijections_and_distinct() {
        let mut seen = HashSet::new();
        for k in 0..362_880 {
            let s = relabel_free(k);
            let mut sorted = s;
            sorted.sort_unstable();
            assert_eq!(sorted, [0, 1, 2, 3, 4, 5, 6, 7, 8]);
            assert!(seen.insert(s));
        }
        for top_left in 0..9 {
            for first in 0..9 {
                let mut seen = HashSet::new();
                for k in (0..40_320).step_by(7) {
                    let s = relabel_fixed(k, top_left, first);
                    assert_eq!(s[top_left as usize], first);
                    let mut sorted = s;
                    sorted.sort_unstable();
                    assert_eq!(sorted, [0, 1, 2, 3, 4, 5, 6, 7, 8]);
                    assert!(seen.insert(s));
                }
            }
        }
    }

    /// Index → position → transform is a bijection: decoding and encoding back gives the index again, at the ends
    /// of the range and at scattered points, for several seeds and both capacities.
    #[test]
    fn index_to_transform_round_trips() {
        for first in [None, Some(1), Some(9)] {
            for seed in [0, 1, 42, u64::MAX] {
                let p = PatternFill::new(first, seed);
                let cap = p.capacity();
                let mut probes: Vec<u64> = vec![0, 1, 2, cap - 2, cap - 1];
                let mut x = seed;
                probes.extend((0..2000).map(|_| {
                    x = mix64(x.wrapping_add(1));
                    x % cap
                }));
                for i in probes {
                    let pos = p.position(i);
                    assert!(pos < cap);
                    assert_eq!(p.index_of_position(pos), i);
                    let t = p.transform(pos);
                    assert_eq!(
                        Transform::from_parts(t.transpose, t.rows, t.cols, t.digits),
                        Some(t)
                    );
                    assert_eq!(p.position_of(&t), pos);
                }
            }
        }
    }

    #[test]
    fn boards_are_valid_distinct_and_start_with_the_first_digit() {
        for first in [Some(1), Some(5), None] {
            let p = PatternFill::new(first, 3);
            let mut seen = HashSet::new();
            let mut first_digits = [0u32; 10];
            for i in 0..200_000 {
                let b = p.board(i);
                if i % 1000 == 0 {
                    assert!(b.is_valid_solution(), "board {i}");
                }
                first_digits[b.get(0) as usize] += 1;
                assert!(seen.insert(b), "board {i} repeats an earlier one");
            }
            match first {
                Some(d) => assert_eq!(first_digits[d as usize], 200_000),
                None => assert!(first_digits[1..].iter().all(|&n| n > 10_000)),
            }
        }
    }

    #[test]
    fn boards_are_the_documented_transform_of_the_base() {
        let base = Grid::parse_line(BASE_TEXT).unwrap();
        for first in [Some(4), None] {
            let p = PatternFill::new(first, 11);
            let mut x = 5;
            for i in [0u64, 1, 77, 123_456].into_iter().chain((0..500).map(|_| {
                x = mix64(x);
                x % p.capacity()
            })) {
                let t = p.transform(p.position(i));
                assert_eq!(t.apply(&base), p.board(i), "{first:?} {i}");
            }
        }
    }

    #[test]
    fn seeds_change_the_boards() {
        let a = PatternFill::new(Some(1), 1);
        let b = PatternFill::new(Some(1), 2);
        assert!((0..10).any(|i| a.board(i) != b.board(i)));
    }

    #[test]
    fn capacities() {
        assert_eq!(GEOMETRIES, 3_359_232);
        assert_eq!(CAPACITY_FIXED_FIRST, 135_444_234_240);
        assert_eq!(CAPACITY_FREE_FIRST, 1_218_998_108_160);
    }
}
