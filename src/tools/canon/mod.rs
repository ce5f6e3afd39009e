//! The canonical forms of a record (a puzzle or a solved grid): the minlex form, the forum's pattern-first form
//! ([`Form`]), and the compact dedupe [`Key`].
//!
//! # What is computed
//!
//! Write a record as its 81-character string, row-major, with `0` for a blank. The validity-preserving
//! transformations are the group `G` of 2 · 6⁸ = 3,359,232 cell rearrangements (transposition; band, stack,
//! row-in-band and column-in-stack orders) times the 9! digit relabellings. The canonical form is the
//! lexicographically smallest string among the `g(x)` relabelled, for every `g` in `G`. For a fixed `g` the
//! smallest relabelling is the one that gives digits the labels 1, 2, 3, … in order of first appearance in
//! `g(x)`'s string (blanks stay 0), so the minimum is over `G` with that relabelling.
//!
//! This is the string order, blanks as `0` ([`Form::Minlex`]). The forum's tools and
//! catalogues use another, the "pattern first" order ([`Form::PatternFirst`], see its section below): the two
//! differ on 28,846 of the 49,158 17-clue puzzles, for example on the first of them.
//!
//! # The search, and why it finds the minimum
//!
//! A **candidate** stands for a set of transforms: a transposition flag, the source rows chosen for target rows
//! `0..k`, a set (a 6-bit mask) of allowed stack orders, and for each source stack a set (a 6-bit mask) of allowed
//! column orders inside it; the set is every transform with that flag, those first `k` rows, a stack order from its
//! mask and column orders from the three masks (the remaining rows free within the band rules). A candidate also
//! carries the labels given so far, and it is built so that all its transforms give the digits of rows `0..k` the
//! same labels.
//!
//! Invariant `I(k)`: the candidates after step `k` are disjoint, and their union is exactly the set of
//! transforms whose first `9k` characters equal the smallest first `9k` characters of any transform.
//! `I(0)` holds with the 2 candidates (one per flag, all masks full). At step 0 only the lines that can give
//! the smallest row 0 are tried: with no labels yet a triplet reads at best as its blanks then its givens, so a
//! line's best row 0 is fixed by its counts of givens per stack, sorted; the other lines are larger.
//!
//! Step `k` (target row `k`) keeps `I`. For each candidate and each source row it may place at row `k` (any unused
//! row when `k` starts a band, else an unused row of the band of row `k - k % 3`), the row's string is the
//! concatenation of three triplets, one per target stack, and the orders allowed are the product of the stack-order
//! mask and the three column-order masks. Each cell of a triplet is encoded as `0` (blank), its label if its digit
//! already has one, or `NEW` (15, above every label) if not. Because all candidates share the same first `9k`
//! characters, they have used the same labels `1..=m`, and new digits take `m + 1, m + 2, …` in order along the
//! row; so two rows compare as their encodings compare (equal encodings give equal strings; at the first differing
//! cell a blank, a smaller old label or an old label against `NEW` decide the same way in both). A row holds no
//! digit twice (records that break the rules are refused), so a triplet's encoding does not depend on the choices
//! made in the other stacks, and the smallest row over the product of masks is found stack by stack: the smallest
//! encoded triplet of each source stack over its mask, keeping the sub-mask of orders that reach it, then the stack
//! orders of the mask that put these three triplets in the smallest order (the same table, on the three codes),
//! keeping the sub-mask of those. The row is compared with the best row seen at this step as one integer (a
//! candidate with a single stack order reads it stack by stack and drops it at its first larger triplet); a larger
//! row is dropped, a smaller one empties the list of next candidates. After all candidates are tried the kept rows
//! are exactly the smallest row `k` over all transforms of the candidates, that is over all transforms with a
//! minimal `9k` prefix, and a transform with a minimal `9(k + 1)` prefix has a minimal `9k` prefix: `I(k + 1)`
//! holds, except for labels. The orders kept in a sub-mask may put different digits at `NEW` cells (two new digits
//! in a stack, swapped); the sub-mask is then split into classes that agree on the cell at each `NEW` position, and
//! the stack orders kept into classes that put the same source stack at each target stack holding a `NEW` cell (two
//! stacks with equal triplets and no `NEW` cell are blank: a row holds no digit twice), one candidate per
//! combination of classes, so every candidate again fixes its labels. Blank cells (and blank stacks) swapped among
//! themselves stay in one class.
//!
//! After step 9, every remaining transform gives the minimal string, and any one of them (the first candidate
//! with the first order of each mask) is applied to give the answer. The work is bounded by the candidates kept,
//! which stay few on puzzles; the worst inputs are highly symmetric ones (the empty board keeps 2,592: its
//! row orders, each with every stack and column order).
//!
//! Solved grids are the exception: every digit of row 0 is new, so the 2 · 9 · 1296 ways to read row 0 all give
//! `123456789` and each one goes on as its own candidate (about 1.6 ms a grid). A solved grid takes its own search
//! instead (`Canonicalizer::solved`, private), over column orders (the labels follow from them), tested against
//! this one.
//!
//! # The pattern-first form
//!
//! [`Form::PatternFirst`] (dobrichev's minlexer, sudoku-minlexing-tool) orders transforms by their pattern of
//! givens first (81 bits, row-major, a blank 0 and a given 1), then by the relabelled string. It takes the same
//! search twice. First on the pattern: every digit starts with label 1, so no cell is ever `NEW`, no class is
//! ever split, and the argument above shows that the candidates left after step 9 are exactly the transforms
//! giving the smallest pattern (the row-0 shortcut holds as it is: a pattern's best row 0 is its stacks in
//! increasing order of givens, blanks first). The triplets then depend on the given cells alone and are read
//! from one table. Second on the digits: the labels are forgotten, and the steps run again over these
//! candidates, each trying at row `k` only the row it already placed there; by the same argument, the
//! candidates left give the smallest string among the transforms of the smallest pattern, which is the form.
//! When the pattern leaves only candidates of a single transform each (about 93 % of the 17-clue and hardest
//! puzzles), the second pass is a reading of each, its digits labelled in order of first appearance, and the
//! smallest is kept. Solved grids have a single pattern, so their two forms are one and both take the
//! solved-grid search.
//!
//! # Cost
//!
//! No allocation per record: a [`Canonicalizer`] owns two candidate lists that grow to the largest need met and
//! are reused. [`canon`] uses one per thread.
//!
//! # The key
//!
//! [`Key`] packs a canonical form into 32 bytes, exactly (no hashing, so no collisions): a set of keys costs
//! 32 bytes per distinct puzzle plus the set's own overhead. See [`Key::of`].
//!
//! # Where the code is
//!
//! This file holds the public API and the candidate type; the string-minimal search is in `general.rs`, the
//! pattern-first one in `pattern_first.rs`, the solved-grid one in `solved.rs`, the const tables they read in
//! `tables.rs` and the key in `key.rs`.

mod general;
mod key;
mod pattern_first;
mod solved;
mod tables;

use std::cell::RefCell;

use crate::grid::{Conflict, Grid, CELLS, PERMUTATIONS_OF_3 as PERM3};

use crate::grid::Transform;
pub use key::Key;
use solved::Order;

/// Which canonical form: the two conventions in use. Both are the smallest of a record's transforms, each
/// relabelled in order of first appearance; they differ in the order that decides "smallest".
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Form {
    /// The smallest 81-character string, blanks as `0` (the module docs): the order of [`canon`] and of the
    /// dedupe [`Key`].
    #[default]
    Minlex,
    /// The forum's convention, that of dobrichev's minlexer (sudoku-minlexing-tool) and of the catalogues made
    /// with it: first the smallest pattern of givens, read row-major as 81 bits (a blank 0, a given 1, so blanks
    /// come as early as they can); then, among the transforms giving that pattern, the smallest string. The
    /// forum writes it with `.` for blanks ([`Form::blank`]). Solved grids have one pattern, so their two forms
    /// are one.
    PatternFirst,
}

impl Form {
    /// The character the form is written with for a blank: `0` for [`Form::Minlex`], `.` for
    /// [`Form::PatternFirst`] (as the minlexer and the forum's catalogues write it).
    pub fn blank(self) -> u8 {
        match self {
            Form::Minlex => b'0',
            Form::PatternFirst => b'.',
        }
    }
}

/// The code of a cell whose digit has no label yet; above every label.
const NEW: u8 = 15;

/// A set of transforms sharing the first rows of the answer (see the module docs).
#[derive(Clone, Copy)]
struct Cand {
    /// Label of each source digit (index 0 is the blank, label 0); [`NEW`] when not given yet.
    label: [u8; 16],
    /// Source row placed at each target row, for the rows placed so far.
    rows: [u8; 9],
    /// Allowed column orders (indices into `PERM3`) inside each source stack.
    masks: [u8; 3],
    /// 1 when the record is read transposed.
    t: u8,
    /// Allowed stack orders (a 6-bit mask of indices into `PERM3`): under order `o`, target stack `j` is source
    /// stack `PERM3[o][j]`.
    stacks: u8,
    /// Source rows used so far, one bit each.
    used: u16,
    /// The next label to give.
    next: u8,
}

/// Reusable work space for canonical forms: holds no answer, only buffers, so that canonicalising a record
/// allocates nothing once the buffers have grown to the need of the inputs seen.
#[derive(Default)]
pub struct Canonicalizer {
    cur: Vec<Cand>,
    next: Vec<Cand>,
    /// Column orders of the solved-grid search (see [`Canonicalizer::solved`]).
    orders: Vec<Order>,
    orders_next: Vec<Order>,
}

/// The record's lines: `lines[t][r]` is row `r` of the record (`t` = 0) or of its transpose (`t` = 1).
type Lines = [[[u8; 9]; 9]; 2];

/// The given cells of each line of [`Lines`], one bit per cell.
type Givens = [[u16; 9]; 2];

/// The [`Givens`] of `lines`.
#[inline(always)]
fn givens_of(lines: &Lines) -> Givens {
    let mut givens = [[0u16; 9]; 2];
    for (t, side) in lines.iter().enumerate() {
        for (r, line) in side.iter().enumerate() {
            givens[t][r] = line
                .iter()
                .enumerate()
                .fold(0, |m, (c, &d)| m | u16::from(d != 0) << c);
        }
    }
    givens
}

/// The labels of a candidate that has given none yet: every digit [`NEW`], the blank 0.
const FRESH: [u8; 16] = {
    let mut label = [NEW; 16];
    label[0] = 0;
    label
};

/// The [`Lines`] of `grid`.
fn lines_of(grid: &Grid) -> Lines {
    let cells = grid.cells();
    let mut lines: Lines = [[[0u8; 9]; 9]; 2];
    for r in 0..9 {
        for c in 0..9 {
            let d = cells[r * 9 + c];
            lines[0][r][c] = d;
            lines[1][c][r] = d;
        }
    }
    lines
}

impl Canonicalizer {
    /// An empty work space (buffers grow on first use).
    pub fn new() -> Canonicalizer {
        Canonicalizer::default()
    }

    /// The minlex canonical form of `grid` (see the module docs): [`Form::Minlex`].
    ///
    /// # Errors
    /// A [`Conflict`] when two givens clash: the canonical form is defined for records that keep the rules.
    pub fn canon(&mut self, grid: &Grid) -> Result<Grid, Conflict> {
        self.canon_as(grid, Form::Minlex)
    }

    /// The canonical form of `grid` in `form`.
    ///
    /// # Errors
    /// As [`Canonicalizer::canon`].
    pub fn canon_as(&mut self, grid: &Grid, form: Form) -> Result<Grid, Conflict> {
        let (lines, cand) = self.search(grid, form)?;
        Ok(render(&lines, &cand))
    }

    /// The minlex canonical form together with a transform that gives it: `t.apply(grid) == canon`.
    ///
    /// # Errors
    /// As [`Canonicalizer::canon`].
    #[cfg(test)]
    pub(crate) fn canon_with_transform(
        &mut self,
        grid: &Grid,
    ) -> Result<(Grid, Transform), Conflict> {
        self.canon_with_transform_as(grid, Form::Minlex)
    }

    /// The canonical form in `form` together with a transform that gives it: `t.apply(grid) == form`.
    ///
    /// # Errors
    /// As [`Canonicalizer::canon`].
    pub fn canon_with_transform_as(
        &mut self,
        grid: &Grid,
        form: Form,
    ) -> Result<(Grid, Transform), Conflict> {
        let (_, cand) = self.search(grid, form)?;
        let mut digits = [0u8; 10];
        let mut taken = [false; 10];
        for (digit, &l) in digits.iter_mut().zip(cand.label.iter()).skip(1) {
            if l != NEW {
                *digit = l;
                taken[usize::from(l)] = true;
            }
        }
        // Digits absent from the record take the labels left, in increasing order.
        let mut free = (1..10u8).filter(|&l| !taken[usize::from(l)]);
        for (digit, &l) in digits.iter_mut().zip(cand.label.iter()).skip(1) {
            if l == NEW {
                *digit = free.next().expect("nine labels for nine digits");
            }
        }
        let t = Transform::from_parts(cand.t == 1, cand.rows, columns(&cand), digits)
            .expect("a search result is a valid transform");
        Ok((t.apply(grid), t))
    }

    /// Runs the search; returns the record's lines and one candidate of the minimum.
    /// A solved grid has one pattern (every cell given), so its two forms are one.
    #[inline(always)]
    fn search(&mut self, grid: &Grid, form: Form) -> Result<(Lines, Cand), Conflict> {
        grid.check_givens()?;
        let lines = lines_of(grid);
        if grid.cells().iter().all(|&d| d != 0) {
            return Ok((lines, self.solved(&lines)));
        }
        Ok((
            lines,
            match form {
                Form::Minlex => self.general(&lines),
                Form::PatternFirst => self.pattern_first(&lines),
            },
        ))
    }
}

/// The record's lines as candidate `cand` rearranges and relabels them.
fn render(lines: &Lines, cand: &Cand) -> Grid {
    let mut out = [0u8; CELLS];
    let cols = columns(cand);
    for (k, row) in out.chunks_exact_mut(9).enumerate() {
        let src = &lines[usize::from(cand.t)][usize::from(cand.rows[k])];
        for (cell, &c) in row.iter_mut().zip(cols.iter()) {
            *cell = cand.label[usize::from(src[usize::from(c) % 9]) & 15];
        }
    }
    Grid::from_cells(out).expect("labels are 0..=9")
}

/// The source column at each target column of `cand` (first order of each mask).
fn columns(cand: &Cand) -> [u8; 9] {
    let stacks = &PERM3[cand.stacks.trailing_zeros() as usize];
    let mut cols = [0u8; 9];
    for j in 0..3 {
        let p = &PERM3[cand.masks[usize::from(stacks[j])].trailing_zeros() as usize];
        for q in 0..3 {
            cols[3 * j + q] = 3 * stacks[j] + p[q];
        }
    }
    cols
}

thread_local! {
    static WORK: RefCell<Canonicalizer> = RefCell::new(Canonicalizer::new());
}

/// The minlex canonical form of `grid` ([`Form::Minlex`]), with this thread's [`Canonicalizer`].
///
/// # Errors
/// A [`Conflict`] when two givens clash.
pub fn canon(grid: &Grid) -> Result<Grid, Conflict> {
    canon_as(grid, Form::Minlex)
}

/// The [`Key`] of `grid`'s class (of its minlex form), with this thread's [`Canonicalizer`].
///
/// # Errors
/// A [`Conflict`] when two givens clash.
pub(crate) fn class_key(grid: &Grid) -> Result<Key, Conflict> {
    let form = canon(grid)?;
    Ok(Key::of(&form).expect("canon gives a canonical form"))
}

/// The canonical form of `grid` in `form`, with this thread's [`Canonicalizer`].
///
/// # Errors
/// A [`Conflict`] when two givens clash.
pub(crate) fn canon_as(grid: &Grid, form: Form) -> Result<Grid, Conflict> {
    WORK.with(|w| w.borrow_mut().canon_as(grid, form))
}

/// The canonical form of `grid` in `form` and a transform giving it, with this thread's [`Canonicalizer`].
///
/// # Errors
/// A [`Conflict`] when two givens clash.
pub(crate) fn canon_with_transform_as(
    grid: &Grid,
    form: Form,
) -> Result<(Grid, Transform), Conflict> {
    WORK.with(|w| w.borrow_mut().canon_with_transform_as(grid, form))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::rng::SplitMix64;
    use crate::grid::samples::{g, HARD};
    use crate::solver;

    /// The 1296 line orders that keep bands together, built without the search's tables: every permutation of
    /// `0..9` (Heap's algorithm) kept when each aligned triple of positions holds one band.
    fn band_orders() -> Vec<[u8; 9]> {
        let mut a: [u8; 9] = [0, 1, 2, 3, 4, 5, 6, 7, 8];
        let mut c = [0usize; 9];
        let keeps = |o: &[u8; 9]| (0..9).all(|i| o[i] / 3 == o[i - i % 3] / 3);
        let mut out = vec![a];
        let mut i = 0;
        while i < 9 {
            if c[i] < i {
                if i % 2 == 0 {
                    a.swap(0, i);
                } else {
                    a.swap(c[i], i);
                }
                if keeps(&a) {
                    out.push(a);
                }
                c[i] += 1;
                i = 0;
            } else {
                c[i] = 0;
                i += 1;
            }
        }
        out
    }

    /// The cells of `grid` transposed.
    fn transposed(grid: &Grid) -> [u8; CELLS] {
        std::array::from_fn(|i| grid.get((i % 9) * 9 + i / 9))
    }

    /// The smallest string over every one of the 3,359,232 geometric transforms, each relabelled in order of
    /// first appearance; a transform is abandoned at its first cell above the best so far.
    fn brute_force(grid: &Grid, orders: &[[u8; 9]]) -> [u8; CELLS] {
        assert_eq!(orders.len(), 1296);
        let (cells, transposed) = (grid.cells(), transposed(grid));
        let mut best = [u8::MAX; CELLS];
        for src in [cells, &transposed] {
            for ro in orders {
                for co in orders {
                    let mut label = [0u8; 10];
                    let mut next = 1;
                    let mut less = false;
                    for i in 0..CELLS {
                        let d = src[usize::from(ro[i / 9]) * 9 + usize::from(co[i % 9])];
                        let v = if d == 0 {
                            0
                        } else {
                            if label[usize::from(d)] == 0 {
                                label[usize::from(d)] = next;
                                next += 1;
                            }
                            label[usize::from(d)]
                        };
                        if less || v < best[i] {
                            less = true;
                            best[i] = v;
                        } else if v > best[i] {
                            break;
                        }
                    }
                }
            }
        }
        best
    }

    /// The pattern of a record: its given cells as an 81-bit number, row-major, r1c1 the highest bit.
    pub(super) fn pattern(cells: &[u8; CELLS]) -> u128 {
        cells
            .iter()
            .fold(0u128, |p, &d| p << 1 | u128::from(d != 0))
    }

    /// The pattern-first form over every one of the 3,359,232 geometric transforms: the smallest pattern (each
    /// transform's pattern built from the rows' given cells, read through a table per column order), then the
    /// smallest string relabelled in order of first appearance among the transforms that give it.
    fn brute_force_pattern_first(grid: &Grid, orders: &[[u8; 9]]) -> [u8; CELLS] {
        assert_eq!(orders.len(), 1296);
        let (cells, transposed) = (grid.cells(), transposed(grid));
        // read[o][m]: the row whose given columns are m (bit c for column c) under column order o, its first
        // column the highest of 9 bits.
        let read: Vec<[u16; 512]> = orders
            .iter()
            .map(|o| {
                let mut t = [0u16; 512];
                for (m, v) in t.iter_mut().enumerate() {
                    *v = o.iter().fold(0, |v, &c| v << 1 | (m >> c & 1) as u16);
                }
                t
            })
            .collect();
        let (mut least, mut best) = (u128::MAX, [u8::MAX; CELLS]);
        for src in [cells, &transposed] {
            let masks: [usize; 9] = std::array::from_fn(|r| {
                (0..9).fold(0, |m, c| m | usize::from(src[r * 9 + c] != 0) << c)
            });
            for ro in orders {
                for (co, table) in orders.iter().zip(&read) {
                    let p = ro.iter().fold(0u128, |p, &r| {
                        p << 9 | u128::from(table[masks[usize::from(r)]])
                    });
                    if p > least {
                        continue;
                    }
                    if p < least {
                        (least, best) = (p, [u8::MAX; CELLS]);
                    }
                    let (mut label, mut next) = ([0u8; 10], 1);
                    let mut s = [0u8; CELLS];
                    for (i, v) in s.iter_mut().enumerate() {
                        let d = src[usize::from(ro[i / 9]) * 9 + usize::from(co[i % 9])];
                        if d != 0 && label[usize::from(d)] == 0 {
                            label[usize::from(d)] = next;
                            next += 1;
                        }
                        *v = label[usize::from(d)];
                    }
                    best = best.min(s);
                }
            }
        }
        assert_eq!(pattern(&best), least);
        best
    }

    /// Records with `clues` givens taken at random from a solved grid: few clues give many ties in the search.
    fn random_record(solution: &Grid, clues: usize, rng: &mut SplitMix64) -> Grid {
        let mut cells = [0u8; CELLS];
        let mut order: Vec<usize> = (0..CELLS).collect();
        for i in (1..CELLS).rev() {
            order.swap(i, rng.below(i as u32 + 1) as usize);
        }
        for &i in &order[..clues] {
            cells[i] = solution.get(i);
        }
        Grid::from_cells(cells).unwrap()
    }

    pub(super) fn samples() -> Vec<Grid> {
        let mut out: Vec<Grid> = include_str!("../../../data/puzzles.txt")
            .lines()
            .filter(|l| !l.starts_with('#'))
            .map(g)
            .collect();
        let sol = solver::solve_unique(&g(HARD)).unwrap().solution;
        let mut rng = SplitMix64::new(11);
        for clues in [1, 2, 3, 5, 8, 12, 20, 30, 45, 60, 81] {
            out.push(random_record(&sol, clues, &mut rng));
        }
        out
    }

    /// Both forms against their brute force, on records of every clue count, with many ties among the
    /// transforms (few clues; givens on the diagonal: a pattern with many automorphisms, told apart only by the
    /// digits).
    #[test]
    fn matches_brute_force_on_random_records() {
        let orders = band_orders();
        let sol = solver::solve_unique(&g(HARD)).unwrap().solution;
        let mut rng = SplitMix64::new(5);
        // Debug builds are slow at 3.4 million transforms a record: fewer records there.
        let n = if cfg!(debug_assertions) { 2 } else { 14 };
        let mut diagonal = Grid::EMPTY;
        for i in 0..9 {
            diagonal.set(i * 10, sol.get(i * 10));
        }
        let mut records = vec![g(HARD), sol, diagonal];
        for k in 0..n {
            records.push(random_record(
                &sol,
                [1, 7, 17, 24, 2, 40, 70][k % 7],
                &mut rng,
            ));
        }
        let puzzles = samples();
        records.extend(puzzles[..n].iter().copied());
        let mut work = Canonicalizer::new();
        for r in &records {
            let ours = work.canon(r).unwrap();
            assert_eq!(
                ours.cells(),
                &brute_force(r, &orders),
                "record {}",
                r.to_line()
            );
            let ours = work.canon_as(r, Form::PatternFirst).unwrap();
            let expect = brute_force_pattern_first(r, &orders);
            assert_eq!(
                ours.cells(),
                &expect,
                "pattern first, record {}",
                r.to_line()
            );
        }
    }

    #[test]
    fn invariant_under_random_transforms_and_idempotent() {
        let mut work = Canonicalizer::new();
        for (i, p) in samples().iter().enumerate() {
            let c = work.canon(p).unwrap();
            assert_eq!(work.canon(&c).unwrap(), c, "idempotent");
            assert_eq!(c.clue_count(), p.clue_count());
            for k in 0..5 {
                let t = Transform::random(99, (i * 5 + k) as u64);
                assert_eq!(work.canon(&t.apply(p)).unwrap(), c, "{}", p.to_line());
            }
        }
    }

    #[test]
    fn the_transform_returned_gives_the_canonical_form() {
        let mut work = Canonicalizer::new();
        for p in samples() {
            let (c, t) = work.canon_with_transform(&p).unwrap();
            assert_eq!(t.apply(&p), c);
            assert_eq!(work.canon(&p).unwrap(), c);
        }
    }

    #[test]
    fn canonical_solved_grid_is_a_valid_grid_with_first_row_in_order() {
        for line in include_str!("../../../data/puzzles.solutions.txt")
            .lines()
            .take(30)
        {
            let c = canon(&g(line)).unwrap();
            assert!(c.is_valid_solution());
            assert_eq!(&c.cells()[..9], &[1, 2, 3, 4, 5, 6, 7, 8, 9]);
        }
    }

    #[test]
    fn canonical_puzzle_keeps_its_solution_count() {
        for p in samples().iter().take(20) {
            let c = canon(p).unwrap();
            let (a, b) = (
                solver::count_solutions(p, 10).unwrap().solutions,
                solver::count_solutions(&c, 10).unwrap().solutions,
            );
            assert_eq!(a, b);
        }
    }

    #[test]
    fn empty_board_and_single_clue() {
        let mut work = Canonicalizer::new();
        assert_eq!(
            work.canon_as(&Grid::EMPTY, Form::PatternFirst).unwrap(),
            Grid::EMPTY
        );
        assert_eq!(work.canon(&Grid::EMPTY).unwrap(), Grid::EMPTY);
        // Every band-keeping row order on both sides, each candidate holding all stack and column orders.
        assert_eq!(work.cur.len(), 2 * 1296);
        assert!(work
            .cur
            .iter()
            .all(|c| c.stacks == 63 && c.masks == [63; 3]));
        let mut one = Grid::EMPTY;
        one.set(40, 7);
        let mut expect = Grid::EMPTY;
        expect.set(80, 1);
        assert_eq!(canon(&one).unwrap(), expect);
    }

    #[test]
    fn records_that_break_the_rules_are_refused_with_the_clash() {
        let mut p = g(HARD);
        p.set(1, 4); // row 1 already has a 4 in r1c1
        let e = canon(&p).unwrap_err();
        assert_eq!((e.digit, e.first, e.second), (4, 0, 1));
    }
}
