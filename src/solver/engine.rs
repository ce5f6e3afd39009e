//! The search engine: per digit and per band, a 27-bit mask of the cells where the digit may still go, and a
//! depth-first search that copies the whole (`Copy`, fixed-size) state at each guess.
//!
//! Layout: a band is three rows of the board; inside a band, cell `(r, c)` is bit `r * 9 + c` (27 bits). The mask
//! of digit `d` (0-based) in band `b` is slot `d * 3 + b`.
//!
//! Set-up ([`State::from_grid`]): each digit's givens take their rows and boxes (one table lookup per band, from
//! their (row, box) pattern) and their columns; a given's cell loses every other digit. The x86-64-v3 copy reads
//! the puzzle as four bit planes per band (one vector shift and byte mask each, [`planes_v3`]) and derives every
//! digit's cells and eliminations from them at once, without tables ([`State::from_planes`]).
//!
//! Propagation, until nothing changes:
//! - per slot, through lookup tables: only cells that fit a complete placement of the digit in the band survive
//!   (one box per row, one row per box: box/line reduction both ways, hidden singles in rows and boxes); columns
//!   locked in one box leave the other bands; a row left with one cell (a table lookup per row) is settled and the
//!   cell leaves the other digits. Slots are examined again only when they changed, in an order where consecutive
//!   slots share neither digit nor band, so that the processor overlaps their work;
//! - naked singles, found by counting candidates across digits with bit operations; each single clears its row for
//!   its digit with word arithmetic on the three rows at once (two singles of one digit in one row: a contradiction);
//! - once a search has made 8 guesses (hard puzzles), the same placement reasoning on the columns of each stack
//!   (column-side box/line reduction, hidden singles in columns), for the digits examined since the last such pass.
//!   Earlier (at the root, or from the first guess) it costs more than it saves: measured on puzzles with many
//!   solutions, where it finds eliminations that shorten nothing, and on puzzles without a solution, where it
//!   saves guesses but not instructions.
//!
//! The engine is compiled three times: portable, and twice for x86-64-v3 (AVX2, BMI1, BMI2, LZCNT, POPCNT), the
//! copy [`run`] picks after a run-time check of the processor (the call is an `unsafe` block, as are, for Rust 1.86
//! only, the AVX2 intrinsics of [`planes_v3`]). The v3 copies count bits with their population-count instruction
//! where the portable one uses tables ([`pop27`]); one of them also reads a slot's (row, box) pattern with one bit
//! extraction (`pext`, [`row_boxes_pext`]) where the others take three table lookups ([`row_boxes`]), and a
//! stack's columns and the naked singles' row fields by bit extraction and deposit ([`move_bits`]) where the others
//! shift and mask: the copy run where those instructions are fast ([`has_fast_pext`]; on AMD processors before Zen 3
//! they are microcoded and slow).
//!
//! Guesses go to a cell with two candidates (nearly always there is one), the one that sees the most open cells
//! among the first 6 such cells (8 once the search has met a dead end), and try first the digit with more places
//! left in the band (on puzzles with many solutions this finds the first one in 5.4 guesses where the other order
//! takes 8.2). The solution is read back through four bit planes of the digit masks, eight cells per word.

use crate::grid::{Grid, CELLS};
use std::sync::atomic::{compiler_fence, AtomicBool, Ordering};

#[cfg(target_arch = "x86_64")]
use super::processor::{has_fast_pext, has_v3};
#[cfg(target_arch = "x86_64")]
use super::tables::planes_v3;
use super::tables::{
    columns, move_bits, pop27, row_boxes, row_boxes_pext, BAND, BUT_LONE, COLUMN_OF, COMPLEX,
    DEPOSIT, GATHER, KEEP_OTHERS, ROW0, ROWS, ROWS_AND_BOXES, SEEN_FROM, SPREAD, STACK,
};
use super::{Handover, Outcome, SolveStats};

/// Guess candidates weighed at most, once the search has met a dead end (hard puzzles: a good choice pays).
const WEIGH_MANY: u32 = 8;
/// Guess candidates weighed at most before any dead end (easy or many-solution puzzles: the weighing is overhead).
const WEIGH_FEW: u32 = 6;
/// Guesses after which the column-side pass joins propagation (easy puzzles never pay for it).
const STACK_AFTER: u32 = 8;

/// A fence for the compiler alone (`compiler_fence`: it emits no instruction), there for speed only: the search runs
/// on one thread and its results do not depend on it. In practice the optimiser neither carries a slot's value in a
/// register across it nor merges memory accesses on its two sides, so that each write to a slot in the slot update
/// and the column-side pass stays one AND to memory. Without it the compiler kept copies of slots in registers across
/// updates (more instructions for every write) and merged the writes to neighbouring slots into wider loads and
/// stores (a load over two slots each just stored on its own waits for both stores to reach the cache).
#[inline(always)]
fn barrier() {
    compiler_fence(Ordering::SeqCst);
}

/// Where propagation stopped.
enum Step {
    /// A contradiction: no solution below this state.
    Dead,
    /// Every cell is settled.
    Solved,
    /// Nothing more follows; guess on one of these cells (per band).
    Stuck([u32; 3]),
}

/// The whole search state. `Copy` and fixed-size: a guess copies it by value.
#[derive(Clone, Copy)]
struct State {
    /// `f[d * 3 + b]`: cells of band `b` where digit `d` may go.
    f: [u32; 27],
    /// `f` as it was when each slot was last examined; a slot is examined again only when it differs.
    seen: [u32; 27],
    /// Per band: cells whose digit is not settled yet.
    open: [u32; 3],
    /// Digits examined by propagation since the last column-side pass (bit `d`): only their columns can have
    /// changed. Marking every examined digit costs less than telling whether its columns changed.
    stack_dirty: u32,
}

/// Searches `puzzle` until `limit` solutions (at least 1) are found or the tree is exhausted. Givens that clash
/// give no solution (the caller tells that case apart with `Grid::check_givens`).
///
/// On an x86-64 processor with AVX2, BMI1, BMI2, LZCNT and POPCNT (x86-64-v3, checked at run time) the search runs
/// in a copy of the engine compiled for them, which takes fewer instructions (bit extraction, shifts and population
/// counts in one instruction each); elsewhere in the portable build. Both give the same answers.
pub(super) fn run(puzzle: &Grid, limit: u64, stop: Option<&AtomicBool>) -> Outcome {
    run_or_hand_over(puzzle, limit, stop, Handover::NEVER).0
}

/// [`run`], given up as `handover` says: then with the outcome so far (its count and first solution are to be
/// thrown away; its guesses are what the attempt cost) and the grid to search instead: `puzzle` with every cell
/// that propagation settled before the first guess (when it first stalled). No guess had been made then, so that
/// grid has exactly the puzzle's solutions, whether the puzzle was given up at that stall or deeper in the tree.
pub(super) fn run_or_hand_over(
    puzzle: &Grid,
    limit: u64,
    stop: Option<&AtomicBool>,
    handover: Handover,
) -> (Outcome, Option<Grid>) {
    #[cfg(target_arch = "x86_64")]
    if has_v3() {
        // SAFETY: `run_v3` needs exactly the processor features `has_v3` has just found on this processor. These
        // are the solver's only `unsafe` blocks outside tests that are needed on every Rust version (see
        // `planes_v3`).
        return if has_fast_pext() {
            unsafe { run_v3::<true>(puzzle, limit, stop, handover) }
        } else {
            unsafe { run_v3::<false>(puzzle, limit, stop, handover) }
        };
    }
    run_portable(puzzle, limit, stop, handover)
}

/// [`run`] in the portable build.
fn run_portable(
    puzzle: &Grid,
    limit: u64,
    stop: Option<&AtomicBool>,
    handover: Handover,
) -> (Outcome, Option<Grid>) {
    let mut state = State::from_grid(puzzle);
    let mut search = Search::new(limit, stop, handover);
    search.search(&mut state);
    search.end(puzzle)
}

/// [`run`] compiled for x86-64-v3: the same code (every `State` step is inlined here), other instructions; with
/// `PEXT`, bit extraction and deposit in place of some table lookups and shifts (see [`State::update`]).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
fn run_v3<const PEXT: bool>(
    puzzle: &Grid,
    limit: u64,
    stop: Option<&AtomicBool>,
    handover: Handover,
) -> (Outcome, Option<Grid>) {
    let mut state = State::from_planes(&planes_v3(puzzle));
    let mut search = Search::new(limit, stop, handover);
    search.search_v3::<PEXT>(&mut state);
    search.end(puzzle)
}

/// One search in progress: the limit and what has been found.
struct Search<'s> {
    limit: u64,
    /// Polled every few thousand solutions (`Outcome::count`): once set, the search ends with what it has found.
    stop: Option<&'s AtomicBool>,
    /// Whether some branch has ended in a contradiction yet.
    dead_ends: bool,
    /// When to give the puzzle up.
    handover: Handover,
    /// Whether it was given up (the search then unwinds as if at its limit).
    handed_over: bool,
    /// The state where propagation first stalled, when the puzzle was given up there.
    root: Option<State>,
    out: Outcome,
}

/// The body of [`Search::search`] and of its x86-64-v3 copies; `$recurse` names the function itself, so that each
/// copy recurses into itself, `$hw` tells whether it has a population-count instruction (see [`pop27`]) and
/// `$pext` whether it uses bit extraction and deposit (see [`State::update`]).
macro_rules! search_body {
    ($self:ident, $st:ident, $recurse:path, $hw:literal, $pext:expr) => {
        loop {
            let deep = $self.out.stats.guesses >= STACK_AFTER;
            let (band, bit, digits) = match $st.propagate::<$pext>(deep) {
                Step::Dead => {
                    $self.dead_ends = true;
                    return;
                }
                Step::Solved => {
                    if $self.out.count($self.stop, || $st.solution()) {
                        $self.limit = $self.out.found;
                    }
                    return;
                }
                Step::Stuck(pool) => {
                    let guesses = $self.out.stats.guesses;
                    if guesses > $self.handover.guesses
                        || (guesses == 0 && $st.open_cells::<$hw>() > $self.handover.open)
                    {
                        $self.handed_over = true;
                        $self.limit = 0;
                        if guesses == 0 {
                            $self.root = Some(*$st);
                        }
                        return;
                    }
                    $st.pick_guess::<$hw>(
                        &pool,
                        if $self.dead_ends {
                            WEIGH_MANY
                        } else {
                            WEIGH_FEW
                        },
                    )
                }
            };
            // Try every candidate but the last in a copy; the last one continues in this frame. Of two candidates,
            // the digit with more places left in the band goes first: it is the likelier one, which shortens the
            // way to a first solution.
            let mut rest = digits;
            let rest_but_one = rest & (rest - 1);
            if rest_but_one != 0 && rest_but_one & (rest_but_one - 1) == 0 {
                let (lo, hi) = (
                    rest.trailing_zeros() as usize,
                    31 - rest.leading_zeros() as usize,
                );
                if $st.places::<$hw>(lo, band) < $st.places::<$hw>(hi, band) {
                    rest = 1 << hi | 1 << (lo + 16);
                }
            }
            while rest & (rest - 1) != 0 {
                let d = rest.trailing_zeros() as usize % 16;
                rest &= rest - 1;
                $self.out.stats.guesses = $self.out.stats.guesses.saturating_add(1);
                let mut child = *$st;
                child.assign(band, bit, d);
                $recurse($self, &mut child);
                if $self.out.found >= $self.limit {
                    return;
                }
            }
            $self.out.stats.guesses = $self.out.stats.guesses.saturating_add(1);
            $st.assign(band, bit, rest.trailing_zeros() as usize % 16);
        }
    };
}

impl<'s> Search<'s> {
    fn new(limit: u64, stop: Option<&'s AtomicBool>, handover: Handover) -> Search<'s> {
        Search {
            limit: limit.max(1),
            stop,
            dead_ends: false,
            handover,
            handed_over: false,
            root: None,
            out: Outcome {
                found: 0,
                first: None,
                stats: SolveStats::default(),
            },
        }
    }

    /// The outcome, and when the puzzle was given up, the grid to search instead (see [`run_or_hand_over`]): the
    /// cells settled at the first stall, givens among them (the state kept there, or propagated again from `puzzle`:
    /// keeping every first stall costs more).
    fn end(self, puzzle: &Grid) -> (Outcome, Option<Grid>) {
        let root = match (self.handed_over, self.root) {
            (false, _) => return (self.out, None),
            (true, Some(root)) => root,
            (true, None) => {
                let mut root = State::from_grid(puzzle);
                root.propagate::<false>(false);
                root
            }
        };
        (self.out, Some(root.board(root.open.map(|open| !open))))
    }

    /// Explores the subtree of `st` (which it uses up); returns early once the limit is reached.
    fn search(&mut self, st: &mut State) {
        search_body!(self, st, Search::search, false, false)
    }

    /// [`Search::search`] compiled for x86-64-v3, with bit extraction and deposit when `PEXT`.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
    fn search_v3<const PEXT: bool>(&mut self, st: &mut State) {
        search_body!(self, st, Search::search_v3::<PEXT>, true, PEXT)
    }
}

impl State {
    /// The state of a puzzle with its givens placed: each digit's givens take their rows, boxes and columns, and a
    /// given's cell loses every other digit. Every cell starts open, givens included, so that givens which clash
    /// end in a contradiction (two of a digit in a row never settle that row; in a box or across bands they leave
    /// a band without placement) instead of being trusted.
    #[inline(always)]
    fn from_grid(puzzle: &Grid) -> State {
        // given[v * 3 + b]: cells of band b holding v (v = 0: blanks).
        let mut given = [0u32; 30];
        let cells = puzzle.cells();
        // Bands interleaved: consecutive updates hit different words, so they do not wait on each other.
        for p in 0..27 {
            for b in 0..3 {
                given[cells[b * 27 + p] as usize * 3 + b] |= 1 << p;
            }
        }
        let mut f = [0u32; 27];
        for d in 0..9 {
            let g = [given[d * 3 + 3], given[d * 3 + 4], given[d * 3 + 5]];
            let all = g[0] | g[1] | g[2];
            let cols = columns((all | all >> 9 | all >> 18) & ROW0);
            for b in 0..3 {
                let pairs = row_boxes(g[b]);
                f[d * 3 + b] = (given[b] & !(ROWS_AND_BOXES[pairs] | cols)) | g[b];
            }
        }
        State::start(f)
    }

    /// A fresh state with the digit masks `f` of the givens placed: every cell open, every slot and every digit's
    /// columns still to be examined.
    #[inline(always)]
    fn start(f: [u32; 27]) -> State {
        State {
            f,
            seen: [u32::MAX; 27],
            open: [BAND; 3],
            stack_dirty: 0x1FF,
        }
    }

    /// [`State::from_grid`] from the bit planes of the values (see [`planes_v3`]), every digit at once: written
    /// without tables or branches, lane by lane over the nine digits, so that the compiler can give each step to
    /// vector instructions.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn from_planes(planes: &[[u32; 4]; 3]) -> State {
        // g[b][d]: cells of band b holding digit d (value d + 1): the planes of its set bits and the complements
        // of the others.
        let mut g = [[0u32; 9]; 3];
        for (gb, p) in g.iter_mut().zip(planes) {
            for (d, cells) in gb.iter_mut().enumerate() {
                let v = d + 1;
                let mut m = BAND;
                for (k, &plane) in p.iter().enumerate() {
                    m &= if v >> k & 1 != 0 { plane } else { !plane };
                }
                *cells = m;
            }
        }
        let blank = planes.map(|p| BAND & !(p[0] | p[1] | p[2] | p[3]));
        let (box0, box1, box2) = (columns(0o7), columns(0o70), columns(0o700));
        let cols: [u32; 9] = std::array::from_fn(|d| {
            let all = g[0][d] | g[1][d] | g[2][d];
            columns((all | all >> 9 | all >> 18) & ROW0)
        });
        // f[b][d], turned into slots at the end: the vector lanes run over the digits.
        let mut f = [[0u32; 9]; 3];
        for ((fb, gb), blank) in f.iter_mut().zip(&g).zip(blank) {
            for ((slot, &x), cols) in fb.iter_mut().zip(gb).zip(cols) {
                // Each row and box of the band that holds the digit.
                let unit = |cells: u32| if x & cells != 0 { cells } else { 0 };
                let taken = unit(ROW0)
                    | unit(ROW0 << 9)
                    | unit(ROW0 << 18)
                    | unit(box0)
                    | unit(box1)
                    | unit(box2);
                *slot = (blank & !(taken | cols)) | x;
            }
        }
        State::start(std::array::from_fn(|i| f[i % 3][i / 3]))
    }

    /// Puts digit `d` in the cell `bit` of band `b` (a guess): no other digit there, no other cell of its row for
    /// `d`. The rest follows in [`State::propagate`].
    #[inline(always)]
    fn assign(&mut self, b: usize, bit: u32, d: usize) {
        let row = ROWS[(1 << (bit.trailing_zeros() / 9)) as usize];
        for e in 0..9 {
            self.f[e * 3 + b] &= !bit;
        }
        self.f[d * 3 + b] &= !row;
        self.f[d * 3 + b] |= bit;
    }

    /// Applies the inferences until nothing changes; `PEXT` as in [`State::update`].
    // Inlined into the search in optimised builds. Unoptimised builds give every inlined local its own stack slot,
    // which made each frame of the recursion some 100 KB and overflowed a 2 MB thread on the empty board: there it
    // is a call of its own, whose frame is not held across the recursion.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline(never))]
    fn propagate<const PEXT: bool>(&mut self, deep: bool) -> Step {
        loop {
            loop {
                let mut changed = false;
                macro_rules! scan {
                    ($($i:literal)*) => {$(
                        if self.f[$i] != self.seen[$i] {
                            changed = true;
                            if !self.update::<PEXT>($i) {
                                return Step::Dead;
                            }
                        }
                    )*};
                }
                scan!(0 4 8 9 13 17 18 22 26 1 5 6 10 14 15 19 23 24 2 3 7 11 12 16 20 21 25);
                if !changed {
                    break;
                }
            }
            if self.open == [0; 3] {
                return Step::Solved;
            }
            match self.naked_singles::<PEXT>() {
                Step::Solved => continue,
                Step::Dead => return Step::Dead,
                stuck if !deep => return stuck,
                stuck => match self.stacks::<PEXT>() {
                    Some(true) => continue,
                    Some(false) => return stuck,
                    None => return Step::Dead,
                },
            }
        }
    }

    /// Examines slot `i` (digit `i / 3`, band `i % 3`): keeps only cells that fit a complete placement of the digit
    /// in the band, removes columns locked here from the other bands, and settles rows left with one cell (their
    /// cells lose every other digit). With `PEXT` (only in the x86-64-v3 copy, which runs on processors with BMI2),
    /// the slot's (row, box) pattern is read by [`row_boxes_pext`].
    #[inline(always)]
    fn update<const PEXT: bool>(&mut self, i: usize) -> bool {
        let (d, b) = (i / 3, i % 3);
        let s = self.f[i];
        let shrink = if PEXT {
            // SAFETY: `PEXT` is true only in `search_v3`'s copy of the engine, which runs after `has_v3` found
            // BMI2 on this processor.
            unsafe { row_boxes_pext(s) }
        } else {
            row_boxes(s)
        };
        // Every index below is 9 bits wide; the masks tell the compiler so (no bounds checks in the hot loop).
        let s = s & COMPLEX[shrink & 0x1FF];
        if s == 0 {
            return false;
        }
        let cols = (s | s >> 9 | s >> 18) & ROW0;
        self.stack_dirty |= 1 << d;
        self.f[i] = s;
        self.seen[i] = s;
        let keep = KEEP_OTHERS[cols as usize];
        for b2 in 0..3 {
            if b2 != b {
                self.f[d * 3 + b2] &= keep;
                barrier();
            }
        }
        // A row is settled when it has one cell left.
        let others = BUT_LONE[0][(s & ROW0) as usize]
            & BUT_LONE[1][((s >> 9) & ROW0) as usize]
            & BUT_LONE[2][((s >> 18) & ROW0) as usize];
        self.open[b] &= others;
        for e in 0..9 {
            if e != d {
                self.f[e * 3 + b] &= others;
            }
        }
        true
    }

    /// Column-side box/line inference for every digit: in each stack, each band must take one of the stack's
    /// columns and each column one band. `Some(true)`: something was removed; `None`: a digit has no placement.
    /// `PEXT` as in [`State::update`]: a stack's columns are gathered by one bit extraction.
    #[inline(always)]
    fn stacks<const PEXT: bool>(&mut self) -> Option<bool> {
        let mut changed = 0;
        let mut todo = self.stack_dirty;
        self.stack_dirty = 0;
        while todo != 0 {
            let d = todo.trailing_zeros() as usize;
            todo &= todo - 1;
            let mut w = 0;
            for b in 0..3 {
                let x = self.f[d * 3 + b];
                w |= ((x | x >> 9 | x >> 18) & ROW0) << (9 * b);
            }
            let mut keep = 0;
            let mut dead = false;
            for k in 0..3 {
                let columns = if PEXT {
                    // SAFETY: as in `update`: only the x86-64-v3 copy, run where BMI2 is, has `PEXT`.
                    unsafe { move_bits(u64::from(w), 0o7_007_007 << (3 * k), GATHER) as u32 }
                } else {
                    let x = (w >> (3 * k)) & 0o7_007_007;
                    (x | x >> 6 | x >> 12) & ROW0
                };
                let m = STACK[(columns & ROW0) as usize];
                dead |= m == 0;
                keep |= m << (3 * k);
            }
            if dead {
                return None;
            }
            let gone = w & !keep;
            changed |= gone;
            if gone != 0 {
                for b in 0..3 {
                    self.f[d * 3 + b] &= columns((keep >> (9 * b)) & ROW0);
                    barrier();
                }
            }
        }
        Some(changed != 0)
    }

    /// Finds cells with a single candidate and settles them. [`Step::Solved`] here means "something was placed,
    /// go on"; [`Step::Dead`]: a cell has no candidate (or two singles need one digit twice in a row);
    /// [`Step::Stuck`]: no single, with the cells to guess from (those with two candidates, else three, else all
    /// open ones). `PEXT` as in [`State::update`]: rows are spread to fields and back by bit deposit and extraction.
    #[inline(always)]
    fn naked_singles<const PEXT: bool>(&mut self) -> Step {
        // Three 10-bit fields (see below): all nine bits of each, bit 9 of each, bit 0 of each.
        const WIDE_ROWS: u64 = 0x1FF | 0x1FF << 10 | 0x1FF << 20;
        const SPARE: u64 = 1 << 9 | 1 << 19 | 1 << 29;
        const LOW: u64 = 1 | 1 << 10 | 1 << 20;
        // Cells with at least one, two and three candidates, the three bands side by side (a digit's three slots
        // are adjacent, so that the compiler can count all bands at once with vector instructions).
        let (mut c1, mut c2, mut c3) = ([0u32; 3], [0u32; 3], [0u32; 3]);
        for d in 0..9 {
            for b in 0..3 {
                let x = self.f[d * 3 + b];
                c3[b] |= c2[b] & x;
                c2[b] |= c1[b] & x;
                c1[b] |= x;
            }
        }
        let mut empty = 0;
        let mut two = [0u32; 3];
        let mut singles = [0u32; 3];
        for b in 0..3 {
            let open = self.open[b];
            empty |= open & !c1[b];
            two[b] = c2[b] & !c3[b] & open;
            singles[b] = c1[b] & !c2[b] & open;
        }
        if empty != 0 {
            return Step::Dead;
        }
        let mut placed = 0;
        let mut clash = 0;
        for (b, &singles) in singles.iter().enumerate() {
            placed |= singles;
            if singles == 0 {
                continue;
            }
            // Each single keeps its digit's row to itself; two singles needing one digit in one row clash.
            for d in 0..9 {
                let mine = singles & self.f[d * 3 + b];
                // The three rows spread to 10-bit fields, so that per-row arithmetic carries or borrows into the
                // spare bit 9 of its own field only.
                let wide = if PEXT {
                    // SAFETY: as in `update`: only the x86-64-v3 copy, run where BMI2 is, has `PEXT`.
                    unsafe { move_bits(u64::from(mine), WIDE_ROWS, DEPOSIT) }
                } else {
                    u64::from(mine & ROW0)
                        | u64::from(mine & ROW0 << 9) << 1
                        | u64::from(mine & ROW0 << 18) << 2
                };
                // Two bits in a row: `x & (x - 1)`, with bit 9 set first so that an empty row borrows nothing.
                clash |= ((wide | SPARE) - LOW) & wide;
                // Rows holding a single: adding 0x1FF carries into bit 9; the carries spread back over their rows.
                let rows = ((wide + WIDE_ROWS) & SPARE) >> 9;
                let rows = rows * u64::from(ROW0);
                let rows = if PEXT {
                    // SAFETY: as above.
                    unsafe { move_bits(rows, WIDE_ROWS, GATHER) }
                } else {
                    (rows & 0x1FF) | (rows >> 1 & 0x1FF << 9) | (rows >> 2 & 0x1FF << 18)
                };
                self.f[d * 3 + b] &= !(rows as u32) | mine;
            }
        }
        if clash != 0 {
            Step::Dead
        } else if placed != 0 {
            Step::Solved
        } else if two != [0; 3] {
            Step::Stuck(two)
        } else {
            Step::Stuck(self.fewest_but_two())
        }
    }

    /// Per band, the open cells with three candidates, or when there are none anywhere, all open cells.
    #[cold]
    fn fewest_but_two(&self) -> [u32; 3] {
        let mut three = [0u32; 3];
        for (b, three) in three.iter_mut().enumerate() {
            let (mut c1, mut c2, mut c3, mut c4) = (0u32, 0u32, 0u32, 0u32);
            for d in 0..9 {
                let x = self.f[d * 3 + b];
                c4 |= c3 & x;
                c3 |= c2 & x;
                c2 |= c1 & x;
                c1 |= x;
            }
            *three = c3 & !c4 & self.open[b];
        }
        if three != [0; 3] {
            three
        } else {
            self.open
        }
    }

    /// The cell to guess on (band, bit) and its candidate digits (bit `d`), from the cells `pool` offers: the one
    /// with the most open cells among its peers, as its choice settles the most. Only the first `cap` are weighed.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline(never))]
    fn pick_guess<const HW: bool>(&self, pool: &[u32; 3], cap: u32) -> (usize, u32, u32) {
        // Best score first, then the lowest band and cell: one key per cell, kept with `max` (no branch).
        let mut best = 0u32;
        let mut budget = cap;
        for (b, &cells) in pool.iter().enumerate() {
            let (near, o1, o2) = (self.open[b], self.open[(b + 1) % 3], self.open[(b + 2) % 3]);
            let mut cells = cells;
            while cells != 0 && budget != 0 {
                budget -= 1;
                let p = cells.trailing_zeros() as usize & 31;
                cells &= cells - 1;
                // Open cells it sees: its row, box and column in the band (itself included), and the column's
                // cells in the other bands. Without a counting instruction, those are at bits 0, 9 and 18 after
                // the shift, added as 2-bit fields and the three fields summed by one multiplication into bits
                // 18..21.
                let c = COLUMN_OF[p];
                let others = if HW {
                    let col = columns(1 << c);
                    (o1 & col | (o2 & col) << 1).count_ones()
                } else {
                    let y = ((o1 >> c) & 0x40201) + ((o2 >> c) & 0x40201);
                    y.wrapping_mul(0x40201) >> 18 & 7
                };
                let score = pop27::<HW>(near & SEEN_FROM[p]) + others;
                best = best.max(score << 8 | (255 - (b as u32 * 32 + p as u32)));
            }
        }
        let at = 255 - (best & 255);
        // The band is below 3 (`min` tells the compiler so, sparing the bounds checks of its uses).
        let (b, bit) = (((at / 32) as usize).min(2), 1 << (at % 32));
        (b, bit, self.digits_at(b, bit))
    }

    /// How many cells are open (not settled).
    #[inline(always)]
    fn open_cells<const HW: bool>(&self) -> u32 {
        self.open.iter().map(|&o| pop27::<HW>(o)).sum()
    }

    /// How many cells of band `b` may still take digit `d`.
    #[inline(always)]
    fn places<const HW: bool>(&self, d: usize, b: usize) -> u32 {
        pop27::<HW>(self.f[d * 3 + b])
    }

    /// The candidate digits (bit `d`) of cell `bit` in band `b`.
    #[inline(always)]
    fn digits_at(&self, b: usize, bit: u32) -> u32 {
        let mut digits = 0;
        for d in 0..9 {
            digits |= u32::from(self.f[d * 3 + b] & bit != 0) << d;
        }
        digits
    }

    /// The solved board (every cell settled).
    fn solution(&self) -> Grid {
        self.board([BAND; 3])
    }

    /// The digits of the cells of `keep` (per band), each settled; the other cells blank. Where propagation has
    /// stalled, every given is settled (a clash ends in a contradiction first).
    #[inline(always)]
    fn board(&self, keep: [u32; 3]) -> Grid {
        // Settled, a cell holds one digit: bit k of its value (1..=9) is set exactly when the cell is in one of the
        // digits whose value has bit k, so four ORs of masks (bit planes) give every value at once; a cell left out
        // is in no mask (0, blank). Eight cells at a time, each plane's byte is spread to one bit per byte and the
        // four are merged into eight values. A band's last word (bits 24..31) reaches five bytes past it; the next
        // band overwrites them, the last band's go into the buffer's tail.
        let mut buf = [0u8; CELLS + 7];
        for (b, keep) in keep.into_iter().enumerate() {
            let f = |d: usize| self.f[d * 3 + b] & keep;
            let planes = [
                f(0) | f(2) | f(4) | f(6) | f(8),
                f(1) | f(2) | f(5) | f(6),
                f(3) | f(4) | f(5) | f(6),
                f(7) | f(8),
            ];
            for k in 0..4 {
                let mut word = 0u64;
                for (bit, plane) in planes.iter().enumerate() {
                    word |= SPREAD[((plane >> (8 * k)) & 0xFF) as usize] << bit;
                }
                let at = b * 27 + 8 * k;
                buf[at..at + 8].copy_from_slice(&word.to_le_bytes());
            }
        }
        let mut cells = [0u8; CELLS];
        cells.copy_from_slice(&buf[..CELLS]);
        // Every value is 0..=9, so this cannot fail.
        Grid::from_cells(cells).unwrap_or(Grid::EMPTY)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both x86-64-v3 copies of the engine (with and without `pext`: the first runs, if slowly, on processors where
    /// `pext` is microcoded) and the portable one agree on every sample puzzle (solution, count and guesses) and on random givens (counts up to
    /// 3). Skipped on a processor without the features, where only the portable copy can run (and every other
    /// solver test runs it).
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_portable_and_the_x86_64_v3_engines_agree() {
        if !has_v3() {
            return;
        }
        crate::solver::assert_copies_agree(|p, limit| {
            // SAFETY: `has_v3` found the features `run_v3` is compiled for.
            (run_portable(p, limit, None, Handover::NEVER).0, unsafe {
                run_v3::<false>(p, limit, None, Handover::NEVER).0
            })
        });
        crate::solver::assert_copies_agree(|p, limit| {
            // SAFETY: as above.
            (run_portable(p, limit, None, Handover::NEVER).0, unsafe {
                run_v3::<true>(p, limit, None, Handover::NEVER).0
            })
        });
    }

    #[test]
    #[cfg(target_arch = "x86_64")]
    fn the_vector_set_up_gives_the_table_set_up_s_state() {
        if !has_v3() {
            return;
        }
        let same = |p: &Grid| {
            let a = State::from_grid(p);
            // SAFETY: `has_v3` found the features `planes_v3` is compiled for.
            let b = State::from_planes(&unsafe { planes_v3(p) });
            assert_eq!(
                (a.f, a.seen, a.open, a.stack_dirty),
                (b.f, b.seen, b.open, b.stack_dirty),
                "{p}"
            );
        };
        same(&Grid::EMPTY);
        let mut below = crate::grid::samples::below(0x9E37_79B9_7F4A_7C15);
        let mut next = |n: u64| below(n) as usize;
        let (mut clashing, mut full) = (0, 0);
        for line in include_str!("../../data/puzzles.solutions.txt").lines() {
            let solved = Grid::parse_line(line.as_bytes()).unwrap();
            same(&solved);
            full += 1;
            // Any givens, clashing or not, in every cell of the board (the set-up reads all 81 bytes).
            for _ in 0..200 {
                let mut p = if next(2) == 0 { solved } else { Grid::EMPTY };
                for _ in 0..next(60) {
                    p.set(next(81), next(10) as u8);
                }
                clashing += usize::from(p.check_givens().is_err());
                same(&p);
            }
        }
        assert!(full > 0 && clashing > 100, "{full} {clashing}");
    }

    #[test]
    fn a_settled_board_reads_back_and_needs_no_guess() {
        let text =
            "417369825632158947958724316825437169791586432346912758289643571573291684164875293";
        let solved = Grid::parse_line(text.as_bytes()).unwrap();
        // Blank one cell per box: singles finish it.
        let mut p = solved;
        for cell in [0, 4, 8, 30, 40, 50, 60, 70, 80] {
            p.set(cell, 0);
        }
        let mut st = State::from_grid(&p);
        assert!(matches!(st.propagate::<false>(false), Step::Solved));
        assert_eq!(st.solution(), solved);
        let out = run(&p, 5, None);
        assert_eq!(
            (out.found, out.first, out.stats.guesses),
            (1, Some(solved), 0)
        );
    }
}
