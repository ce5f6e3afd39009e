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
//! This is the string order, blanks as `0`, as the issue defines it ([`Form::Minlex`]). The forum's tools and
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

use std::cell::RefCell;

use crate::grid::{Conflict, Grid, CELLS, PERMUTATIONS_OF_3 as PERM3};

use super::shuffle::Transform;

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

/// Not yet given, in an [`Order`].
const FREE: u8 = u8::MAX;

/// A partial column order of the solved-grid search: which source column goes to each target column so far, for
/// one choice of the first two rows.
#[derive(Clone, Copy)]
struct Order {
    /// Source column at each target column ([`FREE`] if not chosen yet).
    col: [u8; 9],
    /// Target column of each source column ([`FREE`] if not placed yet).
    at: [u8; 9],
    /// Source stack given to each target stack ([`FREE`] if none yet).
    stack: [u8; 3],
    /// 1 when the record is read transposed.
    t: u8,
    /// Source rows placed at target rows 0 and 1.
    r0: u8,
    r1: u8,
}

/// The source rows of band `b`.
const BAND_ROWS: [u16; 3] = [0b111, 0b111_000, 0b111_000_000];

/// Which of `a < b`, `b < c`, `a < c`, `a == b`, `b == c`, `a == c` hold, as bits: all that decides the best
/// orders of a triplet.
#[inline(always)]
const fn shape(a: u16, b: u16, c: u16) -> usize {
    (a < b) as usize
        | ((b < c) as usize) << 1
        | ((a < c) as usize) << 2
        | ((a == b) as usize) << 3
        | ((b == c) as usize) << 4
        | ((a == c) as usize) << 5
}

/// `BEST[shape][mask]`: the first order in `mask` giving the smallest triplet, and the sub-mask of all orders
/// giving it, found once by trying every order on values 0..3 of every shape.
static BEST: [[(u8, u8); 64]; 64] = {
    let mut t = [[(0u8, 0u8); 64]; 64];
    let mut x = 0;
    while x < 27 {
        let v = [(x / 9) as u8, (x / 3 % 3) as u8, (x % 3) as u8];
        let s = shape(v[0] as u16, v[1] as u16, v[2] as u16);
        let mut mask = 1;
        while mask < 64 {
            let (mut best, mut first, mut sub) = (u8::MAX, 0u8, 0u8);
            let mut p = 0;
            while p < 6 {
                if mask >> p & 1 != 0 {
                    let o = PERM3[p];
                    let code = v[o[0] as usize] * 9 + v[o[1] as usize] * 3 + v[o[2] as usize];
                    if code < best {
                        (best, first, sub) = (code, p as u8, 0);
                    }
                    if code == best {
                        sub |= 1 << p;
                    }
                }
                p += 1;
            }
            t[s][mask] = (first, sub);
            mask += 1;
        }
        x += 1;
    }
    t
};

/// The smallest encoded triplet `(v[p[0]], v[p[1]], v[p[2]])` over the orders `p` in `mask` (not empty), as 4-bit
/// nibbles, and the sub-mask of the orders that reach it.
#[inline(always)]
fn best_triplet(v: [u8; 3], mask: u8) -> (u16, u8) {
    let [sub, s0, s1, s2] =
        PLACE[shape(v[0].into(), v[1].into(), v[2].into())][usize::from(mask) & 63];
    let code =
        u16::from(v[0]) << (s0 & 15) | u16::from(v[1]) << (s1 & 15) | u16::from(v[2]) << (s2 & 15);
    (code, sub)
}

/// `PLACE[shape][mask]`: [`BEST`] as the sub-mask and, for each cell of the triplet, the shift that puts it at
/// its place in the encoded smallest triplet (8, 4 or 0), so that the code is built without reading the order.
static PLACE: [[[u8; 4]; 64]; 64] = {
    let mut t = [[[0u8; 4]; 64]; 64];
    let mut s = 0;
    while s < 64 {
        let mut mask = 1;
        while mask < 64 {
            let (p, sub) = BEST[s][mask];
            let o = PERM3[p as usize];
            let mut e = [sub, 0, 0, 0];
            let mut q = 0;
            while q < 3 {
                e[1 + o[q] as usize] = 8 - 4 * q as u8;
                q += 1;
            }
            t[s][mask] = e;
            mask += 1;
        }
        s += 1;
    }
    t
};

/// The smallest encoded triplet of source stack `s` of `line` (given cells `m`) under `cand`'s labels and column
/// orders, and the sub-mask of the orders reaching it: [`best_triplet`], with a blank triplet read at once.
#[inline(always)]
fn triplet(cand: &Cand, line: &[u8; 9], m: u16, s: usize) -> (u16, u8) {
    if m >> (3 * s) & 7 == 0 {
        return (0, cand.masks[s]);
    }
    let v = [
        cand.label[usize::from(line[3 * s]) & 15],
        cand.label[usize::from(line[3 * s + 1]) & 15],
        cand.label[usize::from(line[3 * s + 2]) & 15],
    ];
    best_triplet(v, cand.masks[s])
}

/// `PATTERN_TRIPLET[m][mask]`: what [`best_triplet`] gives for a triplet whose given cells are `m` (bit `q` for cell
/// `q`), every given read as label 1: the smallest encoded triplet over the orders of `mask` and the sub-mask of
/// the orders reaching it.
static PATTERN_TRIPLET: [[(u16, u8); 64]; 8] = {
    let mut t = [[(0u16, 0u8); 64]; 8];
    let mut m = 0;
    while m < 8 {
        let mut mask = 1;
        while mask < 64 {
            let (mut best, mut sub) = (u16::MAX, 0u8);
            let mut p = 0;
            while p < 6 {
                if mask >> p & 1 != 0 {
                    let o = PERM3[p];
                    let code =
                        ((m >> o[0] & 1) << 8 | (m >> o[1] & 1) << 4 | (m >> o[2] & 1)) as u16;
                    if code < best {
                        (best, sub) = (code, 0);
                    }
                    if code == best {
                        sub |= 1 << p;
                    }
                }
                p += 1;
            }
            t[m][mask] = (best, sub);
            mask += 1;
        }
        m += 1;
    }
    t
};

/// The positions of an encoded triplet's [`NEW`] cells (15: all four bits of the nibble set), one bit each: bit
/// `q` for cell `q` (the nibble at bits `8 - 4q`).
#[inline(always)]
fn new_cells(code: u16) -> u8 {
    let x = code & code >> 1 & code >> 2 & code >> 3 & 0x111;
    (x >> 8 | x >> 3 & 2 | x << 2 & 4) as u8
}

/// Classes of orders: a mask per class and the number of classes.
type Classes = ([u8; 6], u8);

/// `CLASSES[by_value][marks][mask]`: the orders of `mask` split into classes that agree on `PERM3[p][q]` at every
/// marked `q` (`by_value` false: positions `q` whose bit is set in `marks`) or at every `q` where `PERM3[p][q]`
/// is marked (`by_value` true: values whose bit is set); every order of a class gives the same labels.
static CLASSES: [[[Classes; 64]; 8]; 2] = {
    let mut t = [[[([0u8; 6], 0u8); 64]; 8]; 2];
    let mut by_value = 0;
    while by_value < 2 {
        let mut marks = 0;
        while marks < 8 {
            let mut mask = 1;
            while mask < 64 {
                let (mut out, mut keys, mut n) = ([0u8; 6], [0u8; 6], 0usize);
                let mut p = 0;
                while p < 6 {
                    if mask >> p & 1 != 0 {
                        let mut key = 0u8;
                        let mut q = 0;
                        while q < 3 {
                            let x = PERM3[p][q];
                            let marked = if by_value == 1 {
                                marks >> x & 1
                            } else {
                                marks >> q & 1
                            };
                            key = key << 2 | if marked != 0 { x } else { 3 };
                            q += 1;
                        }
                        let mut i = 0;
                        while i < n && keys[i] != key {
                            i += 1;
                        }
                        if i == n {
                            keys[n] = key;
                            n += 1;
                        }
                        out[i] |= 1 << p;
                    }
                    p += 1;
                }
                t[by_value][marks][mask] = (out, n as u8);
                mask += 1;
            }
            marks += 1;
        }
        by_value += 1;
    }
    t
};

/// The leading blanks of an encoded row (three triplets of three 4-bit cells), at most 3: those of its first
/// triplet.
#[inline(always)]
fn blanks(row: u64) -> u16 {
    let first = row >> 24;
    u16::from(first == 0) + u16::from(first < 16) + u16::from(first < 256)
}

/// `ROW0[m]`: for a line whose given cells are `m` (9 bits), its counts of givens per stack sorted, as 2-bit
/// fields from the smallest (bits 4 and 5) to the largest: all that decides its best row 0.
static ROW0: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut m: usize = 0;
    while m < 512 {
        let n = [
            (m & 7).count_ones() as u8,
            (m >> 3 & 7).count_ones() as u8,
            (m >> 6).count_ones() as u8,
        ];
        let lo = if n[0] < n[1] { n[0] } else { n[1] };
        let lo = if lo < n[2] { lo } else { n[2] };
        let hi = if n[0] > n[1] { n[0] } else { n[1] };
        let hi = if hi > n[2] { hi } else { n[2] };
        t[m] = lo << 4 | (n[0] + n[1] + n[2] - lo - hi) << 2 | hi;
        m += 1;
    }
    t
};

/// Bits set in each 3-bit value.
const POP3: [u16; 8] = [0, 1, 1, 2, 1, 2, 2, 3];

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
    pub fn canon_with_transform(&mut self, grid: &Grid) -> Result<(Grid, Transform), Conflict> {
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

    /// The search of the module docs, for any record.
    fn general(&mut self, lines: &Lines) -> Cand {
        let givens = givens_of(lines);
        self.all_rows::<false>(lines, &givens, FRESH);
        *self
            .cur
            .first()
            .expect("the minimum is reached by some transform")
    }

    /// The pattern-first search (see [`Form::PatternFirst`]): the search of the module docs on the pattern (every
    /// digit labelled 1 from the start, so no cell is ever [`NEW`]), which leaves exactly the transforms giving the
    /// smallest pattern, each candidate with all its rows placed; then the same steps again on these candidates
    /// with the digits unlabelled, each candidate trying only the row it placed there, which leaves those of the
    /// smallest string among them.
    fn pattern_first(&mut self, lines: &Lines) -> Cand {
        let givens = givens_of(lines);
        let mut pattern = [1; 16];
        pattern[0] = 0;
        self.all_rows::<true>(lines, &givens, pattern);
        for cand in &mut self.cur {
            cand.label = FRESH;
            cand.next = 1;
        }
        let single = |c: &Cand| {
            c.stacks.count_ones()
                | c.masks[0].count_ones()
                | c.masks[1].count_ones()
                | c.masks[2].count_ones()
                == 1
        };
        if self.cur.iter().all(single) {
            // Most records: the pattern leaves one transform, or a few, each a single order: each is read once.
            let mut best: Option<(Grid, Cand)> = None;
            for cand in &self.cur {
                let mut cand = *cand;
                let form = relabel(lines, &mut cand);
                if best.as_ref().is_none_or(|(b, _)| form.cells() < b.cells()) {
                    best = Some((form, cand));
                }
            }
            return best.expect("the minimum is reached by some transform").1;
        }
        for k in 0..9 {
            self.step::<true, false>(k, lines, &givens, [0; 2]);
        }
        *self
            .cur
            .first()
            .expect("the minimum is reached by some transform")
    }

    /// Runs the steps of the module docs from the two empty candidates whose digits have the labels `label`:
    /// [`FRESH`], or with `PATTERN` every digit 1.
    #[inline(always)]
    fn all_rows<const PATTERN: bool>(&mut self, lines: &Lines, givens: &Givens, label: [u8; 16]) {
        self.cur.clear();
        for t in 0..2 {
            self.cur.push(Cand {
                label,
                rows: [0; 9],
                masks: [63; 3],
                t,
                stacks: 63,
                used: 0,
                next: 1,
            });
        }
        // Row 0 by a shortcut: with no labels yet (or every digit labelled 1), a triplet reads at best as its
        // blanks then its givens, so a
        // line's best row 0 is its stacks in increasing order of givens; only the lines whose sorted counts are
        // the smallest can reach the minimum, and only they are tried.
        let mut sorted = [[0u8; 9]; 2];
        for (keys, marks) in sorted.iter_mut().zip(givens.iter()) {
            for (key, &m) in keys.iter_mut().zip(marks.iter()) {
                *key = ROW0[usize::from(m) & 511];
            }
        }
        let least = sorted.iter().flatten().fold(u8::MAX, |a, &b| a.min(b));
        let first = sorted.map(|keys| {
            keys.iter()
                .enumerate()
                .fold(0u16, |m, (r, &key)| m | u16::from(key == least) << r)
        });
        self.step::<false, PATTERN>(0, lines, givens, first);
        for k in 1..9 {
            self.step::<false, PATTERN>(k, lines, givens, [0x1ff; 2]);
        }
    }

    /// The search for a solved grid, where the general one is slow: every row is nine new digits, so row 0 is
    /// `123456789` under all 2 · 9 · 1296 choices of flag, row and column order, and the general search carries
    /// each of them to row 1 as its own candidate.
    ///
    /// Here the labels are fixed by the column order `c` (target column `j` takes source column `c(j)`): a digit
    /// is labelled by its target column in row 0, plus 1. A source row `r` then reads `1 + c⁻¹(π_r(c(j)))` at
    /// target column `j`, where `π_r(s)` is the column, in the source row placed at row 0, of the digit at column
    /// `s` of row `r`. Row 1 (a row of the first row's band) is minimised first, target column by target column:
    /// the source column put at `j` is any free one of the target stack's source stack (any column of an unused
    /// stack when the target stack has none yet); the column `y = π_r(c(j))` its digit names is then placed, if it
    /// is not already, at the first free target column that its stack may use, which gives the smallest value
    /// possible at `j` (every choice that reaches the smallest value is kept). The orders left all give the
    /// smallest row 1; for each, row 2 is the band's third row, and the other bands are ordered by their
    /// smallest row, their rows in increasing order: rows of a solved grid differ in every column, so no ties
    /// are left. The smallest of these grids is the answer.
    fn solved(&mut self, lines: &Lines) -> Cand {
        // at[t][r][d]: the column of digit d in row r.
        let mut at = [[[0u8; 10]; 9]; 2];
        for (t, side) in lines.iter().enumerate() {
            for (r, row) in side.iter().enumerate() {
                for (c, &d) in row.iter().enumerate() {
                    at[t][r][usize::from(d)] = c as u8;
                }
            }
        }
        self.orders.clear();
        for t in 0..2u8 {
            for r0 in 0..9u8 {
                for r1 in 0..9u8 {
                    if r1 != r0 && r1 / 3 == r0 / 3 {
                        self.orders.push(Order {
                            col: [FREE; 9],
                            at: [FREE; 9],
                            stack: [FREE; 3],
                            t,
                            r0,
                            r1,
                        });
                    }
                }
            }
        }
        for j in 0..9 {
            let mut best = FREE;
            self.orders_next.clear();
            for o in &self.orders {
                let (t, r0, r1) = (usize::from(o.t), usize::from(o.r0), usize::from(o.r1));
                let pi = |s: u8| at[t][r0][usize::from(lines[t][r1][usize::from(s)])];
                // The source columns that may go to target column j.
                let choices: u16 = if o.col[j] != FREE {
                    1 << o.col[j]
                } else {
                    let mut stacks = 0u16;
                    match o.stack[j / 3] {
                        FREE => {
                            for s in 0..3u8 {
                                if !o.stack.contains(&s) {
                                    stacks |= 7 << (3 * s);
                                }
                            }
                        }
                        s => stacks = 7 << (3 * s),
                    }
                    let mut free = 0u16;
                    for (s, &a) in o.at.iter().enumerate() {
                        if a == FREE {
                            free |= 1 << s;
                        }
                    }
                    stacks & free
                };
                let mut rest = choices;
                while rest != 0 {
                    let s = rest.trailing_zeros() as u8;
                    rest &= rest - 1;
                    let mut child = *o;
                    child.col[j] = s;
                    child.at[usize::from(s)] = j as u8;
                    child.stack[j / 3] = s / 3;
                    let y = pi(s);
                    if child.at[usize::from(y)] == FREE {
                        let target = match child.stack.iter().position(|&x| x == y / 3) {
                            Some(k) => k,
                            None => child
                                .stack
                                .iter()
                                .position(|&x| x == FREE)
                                .expect("a stack is left for an unplaced one"),
                        };
                        child.stack[target] = y / 3;
                        let p = (3 * target..3 * target + 3)
                            .find(|&p| child.col[p] == FREE)
                            .expect(
                                "a stack keeps a free column for each unplaced one of its columns",
                            );
                        child.col[p] = y;
                        child.at[usize::from(y)] = p as u8;
                    }
                    let value = child.at[usize::from(y)];
                    if value < best {
                        best = value;
                        self.orders_next.clear();
                    }
                    if value == best {
                        self.orders_next.push(child);
                    }
                }
            }
            std::mem::swap(&mut self.orders, &mut self.orders_next);
        }
        // Complete each order with its rows; keep the smallest grid.
        let mut best: Option<([u8; CELLS], Cand)> = None;
        for o in &self.orders {
            let (t, r0) = (usize::from(o.t), usize::from(o.r0));
            let read = |r: usize| -> [u8; 9] {
                let mut row = [0u8; 9];
                for (cell, &c) in row.iter_mut().zip(o.col.iter()) {
                    let d = lines[t][r][usize::from(c)];
                    *cell = 1 + o.at[usize::from(at[t][r0][usize::from(d)])];
                }
                row
            };
            let band = r0 / 3;
            let r2 = (3 * band..3 * band + 3)
                .find(|&r| r != r0 && r != usize::from(o.r1))
                .expect("a band has three rows");
            let mut rows = [0u8; 9];
            rows[..3].copy_from_slice(&[o.r0, o.r1, r2 as u8]);
            let mut out = [0u8; CELLS];
            for (k, &r) in rows[..3].iter().enumerate() {
                out[9 * k..9 * k + 9].copy_from_slice(&read(usize::from(r)));
            }
            let others = [(band + 1) % 3, (band + 2) % 3];
            let read_band = |b: usize| {
                let mut rs: [(_, u8); 3] = [0, 1, 2].map(|i| (read(3 * b + i), (3 * b + i) as u8));
                rs.sort_unstable();
                rs
            };
            let (mut x, mut y) = (read_band(others[0]), read_band(others[1]));
            if y[0].0 < x[0].0 {
                std::mem::swap(&mut x, &mut y);
            }
            for (k, (row, r)) in x.iter().chain(y.iter()).enumerate() {
                out[27 + 9 * k..36 + 9 * k].copy_from_slice(row);
                rows[3 + k] = *r;
            }
            if best.as_ref().is_none_or(|(b, _)| out < *b) {
                best = Some((out, self.cand_of(o, rows, &at)));
            }
        }
        best.expect("some column order is left").1
    }

    /// The general search's candidate for a complete order of [`Canonicalizer::solved`].
    fn cand_of(&self, o: &Order, rows: [u8; 9], at: &[[[u8; 10]; 9]; 2]) -> Cand {
        let index = |p: [u8; 3]| {
            PERM3
                .iter()
                .position(|q| *q == p)
                .expect("an order of three") as u8
        };
        let stacks = 1 << index(o.stack);
        let mut masks = [0u8; 3];
        for j in 0..3 {
            let p = [0, 1, 2].map(|q| o.col[3 * j + q] % 3);
            masks[usize::from(o.stack[j])] = 1 << index(p);
        }
        let mut label = [NEW; 16];
        label[0] = 0;
        for d in 1..10 {
            label[d] = 1 + o.at[usize::from(at[usize::from(o.t)][usize::from(o.r0)][d])];
        }
        Cand {
            label,
            rows,
            masks,
            t: o.t,
            stacks,
            used: 0x1FF,
            next: 10,
        }
    }

    /// Step `k` of the search: places target row `k` in every way that keeps the prefix minimal, trying only
    /// the rows of `allow[t]` on side `t` (with `FIXED`, only the row each candidate already has at row `k`);
    /// `givens` marks the given cells of each line.
    ///
    /// With `PATTERN`, every digit reads as label 1 (the candidates' labels are not looked at): the triplets are
    /// read from the given cells alone, by [`PATTERN_TRIPLET`].
    fn step<const FIXED: bool, const PATTERN: bool>(
        &mut self,
        k: usize,
        lines: &Lines,
        givens: &Givens,
        allow: [u16; 2],
    ) {
        let mut best = u64::MAX;
        // The leading blanks of the best row (none before one is found).
        let mut lead = 0u16;
        self.next.clear();
        for ci in 0..self.cur.len() {
            let cand = self.cur[ci];
            let free = !cand.used & allow[usize::from(cand.t)];
            let eligible = if FIXED {
                1 << cand.rows[k]
            } else if k % 3 == 0 {
                free
            } else {
                free & BAND_ROWS[usize::from(cand.rows[k - k % 3] / 3)]
            };
            let side = &lines[usize::from(cand.t)];
            let marks = &givens[usize::from(cand.t)];
            let triplet = |line: &[u8; 9], m: u16, s: usize| {
                if PATTERN {
                    PATTERN_TRIPLET[usize::from(m >> (3 * s) & 7)][usize::from(cand.masks[s]) & 63]
                } else {
                    triplet(&cand, line, m, s)
                }
            };
            let mut rows = eligible;
            if cand.stacks & (cand.stacks - 1) == 0 {
                // One stack order: the row is read stack by stack and dropped at its first larger triplet.
                let o = &PERM3[cand.stacks.trailing_zeros() as usize];
                'rows: while rows != 0 {
                    let r = rows.trailing_zeros() as usize;
                    rows &= rows - 1;
                    let (line, m) = (&side[r], marks[r]);
                    let mut codes = [0u16; 3];
                    let mut subs = [0u8; 3];
                    let mut code = 0u64;
                    let mut tied = true;
                    for (j, &s) in o.iter().enumerate() {
                        let s = usize::from(s);
                        if j == 0 && 3 - POP3[usize::from(m >> (3 * s) & 7)] < lead {
                            // A triplet with g givens reads at best with 3 - g leading blanks: fewer than the
                            // best row's first triplet, and it is larger (a given where the best has a blank).
                            continue 'rows;
                        }
                        (codes[s], subs[s]) = triplet(line, m, s);
                        code = code << 12 | u64::from(codes[s]);
                        if tied {
                            let bound = best >> (24 - 12 * j);
                            if code > bound {
                                continue 'rows;
                            }
                            tied = code == bound;
                        }
                    }
                    if code < best {
                        best = code;
                        lead = blanks(best);
                        self.next.clear();
                    }
                    place(
                        &mut self.next,
                        &cand,
                        k,
                        r,
                        line,
                        code,
                        codes,
                        subs,
                        cand.stacks,
                    );
                }
            } else {
                while rows != 0 {
                    let r = rows.trailing_zeros() as usize;
                    rows &= rows - 1;
                    let (line, m) = (&side[r], marks[r]);
                    let mut codes = [0u16; 3];
                    let mut subs = [0u8; 3];
                    for s in 0..3 {
                        (codes[s], subs[s]) = triplet(line, m, s);
                    }
                    let (p, stacks) =
                        BEST[shape(codes[0], codes[1], codes[2])][usize::from(cand.stacks)];
                    let o = &PERM3[usize::from(p)];
                    let code = u64::from(codes[usize::from(o[0])]) << 24
                        | u64::from(codes[usize::from(o[1])]) << 12
                        | u64::from(codes[usize::from(o[2])]);
                    if code > best {
                        continue;
                    }
                    if code < best {
                        best = code;
                        lead = blanks(best);
                        self.next.clear();
                    }
                    place(&mut self.next, &cand, k, r, line, code, codes, subs, stacks);
                }
            }
        }
        std::mem::swap(&mut self.cur, &mut self.next);
    }
}

/// Places source row `r` (`line`, encoded as the row `code`, source stack `s` as `codes[s]`) at target row `k` of
/// `cand`: the common case of at most one [`NEW`] cell (every class whole: one candidate, at most one label to
/// give) at once, any other by [`expand`].
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn place(
    out: &mut Vec<Cand>,
    cand: &Cand,
    k: usize,
    r: usize,
    line: &[u8; 9],
    code: u64,
    codes: [u16; 3],
    subs: [u8; 3],
    stacks: u8,
) {
    // One bit at the low end of each NEW nibble of the row.
    let news = code & code >> 1 & code >> 2 & code >> 3 & 0x1_1111_1111;
    if news & news.wrapping_sub(1) != 0 {
        expand(out, cand, k, r, line, codes, subs, stacks);
        return;
    }
    let mut n = *cand;
    n.rows[k] = r as u8;
    n.used |= 1 << r;
    n.masks = subs;
    n.stacks = stacks;
    if news != 0 {
        // Target cell i (0..9 along the row) is the nibble at bits 32 - 4i.
        let i = 8 - news.trailing_zeros() as usize / 4;
        let s = usize::from(PERM3[stacks.trailing_zeros() as usize % 6][i / 3]);
        let col = usize::from(PERM3[subs[s].trailing_zeros() as usize % 6][i % 3]);
        n.label[usize::from(line[3 * s + col]) & 15] = n.next;
        n.next += 1;
    }
    out.push(n);
}

/// Pushes the candidates that place source row `r` (`line`) at target row `k` of `cand`, one per combination of
/// label classes: of the stack orders kept (`stacks`, split by the source stack they put at each target stack
/// holding a [`NEW`] cell; two stacks with equal triplets and no `NEW` cell are blank, a row holding no digit
/// twice) and of the column orders kept in each source stack (`subs`, split by the source cell at each `NEW`
/// position).
#[inline]
#[allow(clippy::too_many_arguments)]
fn expand(
    out: &mut Vec<Cand>,
    cand: &Cand,
    k: usize,
    r: usize,
    line: &[u8; 9],
    codes: [u16; 3],
    subs: [u8; 3],
    stacks: u8,
) {
    let mut n = *cand;
    n.rows[k] = r as u8;
    n.used |= 1 << r;
    let news = codes.map(new_cells);
    let held = u8::from(news[0] != 0) | u8::from(news[1] != 0) << 1 | u8::from(news[2] != 0) << 2;
    let sc = &CLASSES[1][usize::from(held)][usize::from(stacks)];
    let c = [0, 1, 2].map(|s| &CLASSES[0][usize::from(news[s])][usize::from(subs[s])]);
    if sc.1 | c[0].1 | c[1].1 | c[2].1 == 1 {
        // One class each (the whole of each mask): one candidate.
        n.masks = subs;
        n.stacks = stacks;
        give_labels(&mut n, line, news);
        out.push(n);
        return;
    }
    for &st in &sc.0[..usize::from(sc.1)] {
        for &m0 in &c[0].0[..usize::from(c[0].1)] {
            for &m1 in &c[1].0[..usize::from(c[1].1)] {
                for &m2 in &c[2].0[..usize::from(c[2].1)] {
                    let mut n = n;
                    n.masks = [m0, m1, m2];
                    n.stacks = st;
                    give_labels(&mut n, line, news);
                    out.push(n);
                }
            }
        }
    }
}

/// Gives the next labels to the digits at the [`NEW`] cells (`news[s]`, as [`new_cells`] gives them, for source
/// stack `s`) of the row just placed (`line`), in the order of the row.
#[inline(always)]
fn give_labels(n: &mut Cand, line: &[u8; 9], news: [u8; 3]) {
    for &s in &PERM3[n.stacks.trailing_zeros() as usize] {
        let s = usize::from(s);
        if news[s] == 0 {
            continue;
        }
        let p = &PERM3[n.masks[s].trailing_zeros() as usize];
        for (q, &col) in p.iter().enumerate() {
            if news[s] >> q & 1 != 0 {
                n.label[usize::from(line[3 * s + usize::from(col)])] = n.next;
                n.next += 1;
            }
        }
    }
}

/// The record's lines as candidate `cand` (all rows placed, no label given yet) rearranges them, its digits
/// labelled in order of first appearance; the labels are given to `cand` too.
fn relabel(lines: &Lines, cand: &mut Cand) -> Grid {
    let mut out = [0u8; CELLS];
    let cols = columns(cand);
    for (k, row) in out.chunks_exact_mut(9).enumerate() {
        let src = &lines[usize::from(cand.t)][usize::from(cand.rows[k])];
        for (cell, &c) in row.iter_mut().zip(cols.iter()) {
            let d = usize::from(src[usize::from(c) % 9]) & 15;
            if cand.label[d] == NEW {
                cand.label[d] = cand.next;
                cand.next += 1;
            }
            *cell = cand.label[d];
        }
    }
    Grid::from_cells(out).expect("labels are 0..=9")
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

/// The canonical form of `grid` in `form`, with this thread's [`Canonicalizer`].
///
/// # Errors
/// A [`Conflict`] when two givens clash.
pub fn canon_as(grid: &Grid, form: Form) -> Result<Grid, Conflict> {
    WORK.with(|w| w.borrow_mut().canon_as(grid, form))
}

/// A canonical form packed exactly into 32 bytes: the dedupe key. Two records are equivalent exactly when the
/// keys of their canonical forms are equal.
///
/// A set of keys costs 32 bytes per distinct puzzle, plus the set's overhead (a `HashSet<Key>` from the
/// standard library holds one control byte per bucket and at most 7 keys per 8 buckets, so 38 to 76 bytes per
/// distinct puzzle depending on where it stands between two growths).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Key([u8; 32]);

/// 10³⁴, the base of the low half of a key.
const TEN_34: u128 = 10u128.pow(34);

impl Key {
    /// The key of a canonical form, or `None` if `canonical` is not one.
    ///
    /// Packing: the first row of a canonical form is fixed by how many givens each of its stacks holds (in each
    /// stack the blanks come first and the digits are the next labels, 1, 2, … along the row), so it takes one of
    /// 64 codes. Rows 2 to 9 are 72 decimal digits: the first 38 as one number below 10³⁸ < 2¹²⁷, the last 34 as
    /// one below 10³⁴ < 2¹¹³, with the first row's code above them (bits 113 to 118). A form whose first row is
    /// not of that shape cannot be canonical and gets `None`.
    pub fn of(canonical: &Grid) -> Option<Key> {
        let cells = canonical.cells();
        let mut code = 0u128;
        let mut next = 1u8;
        for j in 0..3 {
            let triplet = &cells[3 * j..3 * j + 3];
            let blanks = triplet.iter().take_while(|&&d| d == 0).count();
            for &d in &triplet[blanks..] {
                if d != next {
                    return None;
                }
                next += 1;
            }
            code = code << 2 | (3 - blanks) as u128;
        }
        let high = cells[9..47]
            .iter()
            .fold(0u128, |acc, &d| acc * 10 + u128::from(d));
        let low = cells[47..]
            .iter()
            .fold(0u128, |acc, &d| acc * 10 + u128::from(d));
        let low = low | code << 113;
        let mut bytes = [0u8; 32];
        bytes[..16].copy_from_slice(&high.to_be_bytes());
        bytes[16..].copy_from_slice(&low.to_be_bytes());
        Some(Key(bytes))
    }

    /// The 32 bytes.
    pub fn to_bytes(self) -> [u8; 32] {
        self.0
    }

    /// The canonical form back from its key (`None` for bytes that no [`Key::of`] gives).
    pub fn to_grid(&self) -> Option<Grid> {
        let high = u128::from_be_bytes(self.0[..16].try_into().expect("16 bytes"));
        let low_all = u128::from_be_bytes(self.0[16..].try_into().expect("16 bytes"));
        let (code, mut low) = (low_all >> 113, low_all & ((1u128 << 113) - 1));
        let mut high = high;
        if code >= 64 || low >= TEN_34 || high >= 10u128.pow(38) {
            return None;
        }
        let mut cells = [0u8; CELLS];
        for cell in cells[47..].iter_mut().rev() {
            *cell = (low % 10) as u8;
            low /= 10;
        }
        for cell in cells[9..47].iter_mut().rev() {
            *cell = (high % 10) as u8;
            high /= 10;
        }
        let mut next = 1;
        for j in 0..3 {
            let givens = ((code >> (2 * (2 - j))) & 3) as usize;
            for q in 3 - givens..3 {
                cells[3 * j + q] = next;
                next += 1;
            }
        }
        Grid::from_cells(cells).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::rng::SplitMix64;
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
    fn pattern(cells: &[u8; CELLS]) -> u128 {
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

    /// The pattern-first forms of records and the outputs dobrichev's minlexer gave for them (data/README.md).
    #[test]
    fn pattern_first_matches_the_minlexer_sample() {
        let inputs = include_str!("../../data/pattern_first.txt").lines();
        let expected = include_str!("../../data/pattern_first.expected").lines();
        let mut work = Canonicalizer::new();
        let mut n = 0;
        for (input, expect) in inputs.zip(expected) {
            let form = work.canon_as(&g(input), Form::PatternFirst).unwrap();
            let mut text = [0u8; CELLS];
            form.write_line(&mut text, Form::PatternFirst.blank());
            assert_eq!(std::str::from_utf8(&text).unwrap(), expect, "{input}");
            n += 1;
        }
        assert_eq!(n, 110);
    }

    #[test]
    fn pattern_first_is_invariant_idempotent_and_a_transform_of_the_record() {
        let mut work = Canonicalizer::new();
        let pf = Form::PatternFirst;
        for (i, p) in samples().iter().enumerate() {
            let (c, t) = work.canon_with_transform_as(p, pf).unwrap();
            assert_eq!(t.apply(p), c, "{}", p.to_line());
            assert_eq!(work.canon_as(&c, pf).unwrap(), c, "idempotent");
            // Each form is the smallest in its own order: no larger there than the other form.
            let m = work.canon(p).unwrap();
            assert!(pattern(c.cells()) <= pattern(m.cells()));
            assert!(m.cells() <= c.cells());
            assert_eq!(Key::of(&work.canon(&c).unwrap()), Key::of(&m), "same class");
            for k in 0..5 {
                let t = Transform::random(31, (i * 5 + k) as u64);
                assert_eq!(
                    work.canon_as(&t.apply(p), pf).unwrap(),
                    c,
                    "{}",
                    p.to_line()
                );
            }
        }
        // A solved grid has one pattern: its two forms are one.
        let sol = solver::solve_unique(&g(HARD)).unwrap().solution;
        assert_eq!(work.canon_as(&sol, pf), work.canon(&sol));
        let mut p = g(HARD);
        p.set(1, 4);
        assert!(
            work.canon_as(&p, pf).is_err(),
            "clashing givens are refused"
        );
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

    fn samples() -> Vec<Grid> {
        let mut out: Vec<Grid> = include_str!("../../data/puzzles.txt")
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

    /// Solved grids take [`Canonicalizer::solved`]; it must give what the general search gives, on random grids,
    /// on their random transforms and on a grid with many automorphisms (the most ties).
    #[test]
    fn the_solved_grid_search_agrees_with_the_general_one() {
        let mut work = Canonicalizer::new();
        let mut grids: Vec<Grid> = include_str!("../../data/puzzles.solutions.txt")
            .lines()
            .filter(|l| !l.starts_with('#'))
            .map(g)
            .collect();
        grids.push(g(
            "123456789456789123789123456234567891567891234891234567345678912678912345912345678",
        ));
        let n = grids.len();
        for i in 0..n {
            for k in 0..3 {
                grids.push(Transform::random(7, (i * 3 + k) as u64).apply(&grids[i]));
            }
        }
        for grid in &grids {
            let lines = lines_of(grid);
            let general = render(&lines, &work.general(&lines));
            let fast = render(&lines, &work.solved(&lines));
            assert_eq!(fast, general, "{}", grid.to_line());
            assert_eq!(work.canon(grid).unwrap(), general);
            let (c, t) = work.canon_with_transform(grid).unwrap();
            assert_eq!((c, t.apply(grid)), (general, general));
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
        for line in include_str!("../../data/puzzles.solutions.txt")
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

    #[test]
    fn keys_round_trip_and_tell_classes_apart() {
        let mut keys = std::collections::HashSet::new();
        let mut forms = std::collections::HashSet::new();
        for p in samples() {
            let c = canon(&p).unwrap();
            let k = Key::of(&c).expect("a canonical form has a key");
            assert_eq!(k.to_grid(), Some(c));
            assert_eq!(
                Key::of(&canon(&Transform::random(1, 2).apply(&p)).unwrap()),
                Some(k)
            );
            keys.insert(k);
            forms.insert(c);
        }
        assert_eq!(keys.len(), forms.len());
        // A first row with a digit before a blank in its stack is never canonical.
        assert_eq!(Key::of(&g(HARD)), None);
        let sol = canon(&solver::solve_unique(&g(HARD)).unwrap().solution).unwrap();
        assert_eq!(Key::of(&sol).unwrap().to_grid(), Some(sol));
    }
}
