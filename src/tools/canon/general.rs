//! The string-minimal search of the module docs ([`Form::Minlex`]): the steps that place one target row at a
//! time, and the placing of a row (label classes, labels given); [`Canonicalizer::pattern_first`] runs the same
//! steps.

use super::tables::{best_triplet, shape, BAND_ROWS, BEST, CLASSES, PATTERN_TRIPLET, POP3, ROW0};
use super::{givens_of, Cand, Canonicalizer, Givens, Lines, FRESH};
#[cfg(doc)]
use super::{Form, NEW};
use crate::grid::PERMUTATIONS_OF_3 as PERM3;

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

/// The positions of an encoded triplet's [`NEW`] cells (15: all four bits of the nibble set), one bit each: bit
/// `q` for cell `q` (the nibble at bits `8 - 4q`).
#[inline(always)]
fn new_cells(code: u16) -> u8 {
    let x = code & code >> 1 & code >> 2 & code >> 3 & 0x111;
    (x >> 8 | x >> 3 & 2 | x << 2 & 4) as u8
}

/// The leading blanks of an encoded row (three triplets of three 4-bit cells), at most 3: those of its first
/// triplet.
#[inline(always)]
fn blanks(row: u64) -> u16 {
    let first = row >> 24;
    u16::from(first == 0) + u16::from(first < 16) + u16::from(first < 256)
}

impl Canonicalizer {
    /// The search of the module docs, for any record.
    pub(super) fn general(&mut self, lines: &Lines) -> Cand {
        let givens = givens_of(lines);
        self.all_rows::<false>(lines, &givens, FRESH);
        *self
            .cur
            .first()
            .expect("the minimum is reached by some transform")
    }

    /// Runs the steps of the module docs from the two empty candidates whose digits have the labels `label`:
    /// [`FRESH`], or with `PATTERN` every digit 1.
    #[inline(always)]
    pub(super) fn all_rows<const PATTERN: bool>(
        &mut self,
        lines: &Lines,
        givens: &Givens,
        label: [u8; 16],
    ) {
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

    /// Step `k` of the search: places target row `k` in every way that keeps the prefix minimal, trying only
    /// the rows of `allow[t]` on side `t` (with `FIXED`, only the row each candidate already has at row `k`);
    /// `givens` marks the given cells of each line.
    ///
    /// With `PATTERN`, every digit reads as label 1 (the candidates' labels are not looked at): the triplets are
    /// read from the given cells alone, by [`PATTERN_TRIPLET`].
    pub(super) fn step<const FIXED: bool, const PATTERN: bool>(
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
            let read = Read {
                cand: &cand,
                k,
                side,
                marks,
            };
            if cand.stacks & (cand.stacks - 1) == 0 {
                read.one_order(eligible, &mut self.next, &mut best, &mut lead, triplet);
            } else {
                read.any_order(eligible, &mut self.next, &mut best, &mut lead, triplet);
            }
        }
        std::mem::swap(&mut self.cur, &mut self.next);
    }
}

/// One candidate of a step ([`Canonicalizer::step`]) reading the rows of its side at target row `k`.
struct Read<'a> {
    cand: &'a Cand,
    k: usize,
    side: &'a [[u8; 9]; 9],
    marks: &'a [u16; 9],
}

impl Read<'_> {
    /// The rows of `rows` read under the candidate's one stack order, stack by stack, each dropped at its first
    /// triplet larger than the best row's (`best`, with `lead` leading blanks): those that tie or beat it are
    /// placed into `next` (cleared when the best improves).
    #[inline(always)]
    fn one_order(
        &self,
        mut rows: u16,
        next: &mut Vec<Cand>,
        best: &mut u64,
        lead: &mut u16,
        triplet: impl Fn(&[u8; 9], u16, usize) -> (u16, u8),
    ) {
        let cand = self.cand;
        let o = &PERM3[cand.stacks.trailing_zeros() as usize];
        'rows: while rows != 0 {
            let r = rows.trailing_zeros() as usize;
            rows &= rows - 1;
            let (line, m) = (&self.side[r], self.marks[r]);
            let mut codes = [0u16; 3];
            let mut subs = [0u8; 3];
            let mut code = 0u64;
            let mut tied = true;
            for (j, &s) in o.iter().enumerate() {
                let s = usize::from(s);
                if j == 0 && 3 - POP3[usize::from(m >> (3 * s) & 7)] < *lead {
                    // A triplet with g givens reads at best with 3 - g leading blanks: fewer than the best row's
                    // first triplet, and it is larger (a given where the best has a blank).
                    continue 'rows;
                }
                (codes[s], subs[s]) = triplet(line, m, s);
                code = code << 12 | u64::from(codes[s]);
                if tied {
                    let bound = *best >> (24 - 12 * j);
                    if code > bound {
                        continue 'rows;
                    }
                    tied = code == bound;
                }
            }
            if code < *best {
                *best = code;
                *lead = blanks(code);
                next.clear();
            }
            place(next, cand, self.k, r, line, code, codes, subs, cand.stacks);
        }
    }

    /// The rows of `rows` read whole, each under its best stack order among the candidate's: as
    /// [`Read::one_order`] for what is placed.
    #[inline(always)]
    fn any_order(
        &self,
        mut rows: u16,
        next: &mut Vec<Cand>,
        best: &mut u64,
        lead: &mut u16,
        triplet: impl Fn(&[u8; 9], u16, usize) -> (u16, u8),
    ) {
        let cand = self.cand;
        while rows != 0 {
            let r = rows.trailing_zeros() as usize;
            rows &= rows - 1;
            let (line, m) = (&self.side[r], self.marks[r]);
            let mut codes = [0u16; 3];
            let mut subs = [0u8; 3];
            for s in 0..3 {
                (codes[s], subs[s]) = triplet(line, m, s);
            }
            let (p, stacks) = BEST[shape(codes[0], codes[1], codes[2])][usize::from(cand.stacks)];
            let o = &PERM3[usize::from(p)];
            let code = u64::from(codes[usize::from(o[0])]) << 24
                | u64::from(codes[usize::from(o[1])]) << 12
                | u64::from(codes[usize::from(o[2])]);
            if code > *best {
                continue;
            }
            if code < *best {
                *best = code;
                *lead = blanks(code);
                next.clear();
            }
            place(next, cand, self.k, r, line, code, codes, subs, stacks);
        }
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
