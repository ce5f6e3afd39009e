//! A plain reference search kept for tests only: candidate bitmasks per cell, naked and hidden singles, guesses on
//! the cell with the fewest candidates. Slow and simple, so that the fast engine's counts can be checked against it.

use crate::grid::{Grid, BOX, CELLS, COL, ROW};

use super::SolveStats;

const ALL: u16 = 0x1FF;

/// The 27 units (9 rows, 9 columns, 9 boxes) as cell lists.
const UNITS: [[u8; 9]; 27] = {
    let mut t = [[0u8; 9]; 27];
    let mut i = 0;
    while i < CELLS {
        let (r, c, b) = (ROW[i] as usize, COL[i] as usize, BOX[i] as usize);
        t[r][c] = i as u8;
        t[9 + c][r] = i as u8;
        t[18 + b][(r % 3) * 3 + c % 3] = i as u8;
        i += 1;
    }
    t
};

/// The 20 peers of each cell.
const PEERS: [[u8; 20]; CELLS] = {
    let mut t = [[0u8; 20]; CELLS];
    let mut i = 0;
    while i < CELLS {
        let mut n = 0;
        let mut j = 0;
        while j < CELLS {
            if j != i && (ROW[i] == ROW[j] || COL[i] == COL[j] || BOX[i] == BOX[j]) {
                t[i][n] = j as u8;
                n += 1;
            }
            j += 1;
        }
        i += 1;
    }
    t
};

/// The whole search state; copied by value onto the stack at each guess.
#[derive(Clone, Copy)]
struct State {
    /// Candidate digits of each cell (bit d-1 for digit d); 0 once the cell is solved.
    cand: [u16; CELLS],
    /// Solved digit of each cell, 0 when open.
    value: [u8; CELLS],
    /// Cells still open.
    open: u8,
}

/// Most guesses that can be outstanding at once: each one fills at least one cell.
const STACK: usize = CELLS;

/// One search with a solution limit; the caller reads `found`, `first` and `stats`.
pub(super) struct Search {
    limit: u64,
    pub(super) found: u64,
    pub(super) first: Option<Grid>,
    pub(super) stats: SolveStats,
}

impl Search {
    pub(super) fn new(limit: u64) -> Search {
        Search {
            limit,
            found: 0,
            first: None,
            stats: SolveStats::default(),
        }
    }

    /// Runs the search on a puzzle whose givens have been checked.
    pub(super) fn run(&mut self, puzzle: &Grid) {
        let mut st = State {
            cand: [ALL; CELLS],
            value: [0; CELLS],
            open: CELLS as u8,
        };
        for cell in 0..CELLS {
            let d = puzzle.get(cell);
            if d != 0 && !st.place(cell, d) {
                return;
            }
        }
        // Fixed-capacity stack of (state, cell, remaining candidates to try).
        let mut stack: [(State, u8, u16); STACK] = [(st, 0, 0); STACK];
        let mut depth = 0usize;
        loop {
            let ok = st.propagate();
            if ok && st.open == 0 {
                self.found += 1;
                if self.first.is_none() {
                    let mut g = Grid::EMPTY;
                    for (cell, &v) in st.value.iter().enumerate() {
                        g.set(cell, v);
                    }
                    self.first = Some(g);
                }
                if self.found >= self.limit {
                    return;
                }
            } else if ok {
                // Guess on the open cell with the fewest candidates.
                let mut best = 0usize;
                let mut best_n = 10;
                for cell in 0..CELLS {
                    if st.value[cell] == 0 {
                        let n = st.cand[cell].count_ones();
                        if n < best_n {
                            best_n = n;
                            best = cell;
                            if n == 2 {
                                break;
                            }
                        }
                    }
                }
                let cands = st.cand[best];
                let d = cands.trailing_zeros() as u8 + 1;
                let rest = cands & (cands - 1);
                stack[depth] = (st, best as u8, rest);
                depth += 1;
                self.stats.guesses += 1;
                if st.place(best, d) {
                    continue;
                }
            }
            // Backtrack: pop states until one has an untried candidate.
            loop {
                if depth == 0 {
                    return;
                }
                let (saved, cell, rest) = stack[depth - 1];
                if rest == 0 {
                    depth -= 1;
                    continue;
                }
                let d = rest.trailing_zeros() as u8 + 1;
                stack[depth - 1].2 = rest & (rest - 1);
                st = saved;
                self.stats.guesses += 1;
                if st.place(cell as usize, d) {
                    break;
                }
            }
        }
    }
}

impl State {
    /// Puts `d` in `cell` and removes it from the peers; false on a contradiction.
    #[inline]
    fn place(&mut self, cell: usize, d: u8) -> bool {
        let bit = 1u16 << (d - 1);
        if self.value[cell] != 0 {
            return self.value[cell] == d;
        }
        if self.cand[cell] & bit == 0 {
            return false;
        }
        self.value[cell] = d;
        self.cand[cell] = 0;
        self.open -= 1;
        for &p in &PEERS[cell] {
            let p = p as usize;
            if self.value[p] == d {
                return false;
            }
            self.cand[p] &= !bit;
            if self.value[p] == 0 && self.cand[p] == 0 {
                return false;
            }
        }
        true
    }

    /// Naked and hidden singles until nothing changes; false on a contradiction.
    fn propagate(&mut self) -> bool {
        loop {
            let mut changed = false;
            // Naked singles: cells with one candidate.
            for cell in 0..CELLS {
                let c = self.cand[cell];
                if self.value[cell] == 0 && c & (c.wrapping_sub(1)) == 0 {
                    if c == 0 || !self.place(cell, c.trailing_zeros() as u8 + 1) {
                        return false;
                    }
                    changed = true;
                }
            }
            // Hidden singles: a digit with one place left in a unit.
            for unit in &UNITS {
                let (mut once, mut twice, mut placed) = (0u16, 0u16, 0u16);
                for &cell in unit {
                    let c = self.cand[cell as usize];
                    twice |= once & c;
                    once |= c;
                    let v = self.value[cell as usize];
                    if v != 0 {
                        placed |= 1 << (v - 1);
                    }
                }
                if (once | placed) != ALL {
                    return false;
                }
                let mut single = once & !twice & !placed;
                while single != 0 {
                    let bit = single & single.wrapping_neg();
                    single &= single - 1;
                    let d = bit.trailing_zeros() as u8 + 1;
                    let cell = unit
                        .iter()
                        .map(|&c| c as usize)
                        .find(|&c| self.cand[c] & bit != 0);
                    // A cell already used in this pass shows as a contradiction on the next pass.
                    if let Some(c) = cell {
                        if !self.place(c, d) {
                            return false;
                        }
                        changed = true;
                    }
                }
            }
            if !changed {
                return true;
            }
        }
    }
}
