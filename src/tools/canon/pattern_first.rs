//! The pattern-first search ([`Form::PatternFirst`]): the string-minimal steps run on the pattern of givens,
//! then on the digits of the candidates left.

#[cfg(doc)]
use super::Form;
use super::{columns, givens_of, Cand, Canonicalizer, Lines, FRESH, NEW};
use crate::grid::{Grid, CELLS};

impl Canonicalizer {
    /// The pattern-first search (see [`Form::PatternFirst`]): the search of the module docs on the pattern (every
    /// digit labelled 1 from the start, so no cell is ever [`NEW`]), which leaves exactly the transforms giving the
    /// smallest pattern, each candidate with all its rows placed; then the same steps again on these candidates
    /// with the digits unlabelled, each candidate trying only the row it placed there, which leaves those of the
    /// smallest string among them.
    pub(super) fn pattern_first(&mut self, lines: &Lines) -> Cand {
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

#[cfg(test)]
mod tests {
    use super::super::tests::{pattern, samples};
    use super::super::*;
    use crate::grid::samples::{g, HARD};
    use crate::solver;

    /// The pattern-first forms of records and the outputs dobrichev's minlexer gave for them (data/README.md).
    #[test]
    fn pattern_first_matches_the_minlexer_sample() {
        let inputs = include_str!("../../../data/pattern_first.txt").lines();
        let expected = include_str!("../../../data/pattern_first.expected").lines();
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
}
