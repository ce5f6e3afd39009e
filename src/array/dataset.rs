//! The dataset tools over batches in memory: canonical forms with the transform giving each ([`canon`]), class
//! numbers ([`classes`], the classes of `sudoku dedupe`), class-safe split sides ([`split`], those of `sudoku
//! split`), checks of claimed solutions ([`check`], `sudoku check`) and shuffled copies ([`copies`], `sudoku
//! shuffle --copies`), answered into the caller's buffers on all cores as the rest of [`crate::array`].

use std::collections::HashMap;

use super::{code, each, fits, ArrayError, Puzzles, PIECE};
use crate::grid::{Grid, Transform, CELLS};
use crate::ordered::Threads;
use crate::record::{Failure, FailureKind, RecordError};
use crate::tools::{
    canon_with_transform_as, class_key, Check, Copies, Form, Key, Side, Split, Strata,
};

/// Puzzle `i` of `puzzles`, or its failure.
fn read<P: Puzzles + ?Sized>(puzzles: &P, i: usize) -> Result<Grid, Failure> {
    puzzles
        .puzzle(i)
        .map_err(|e| Failure::Malformed(RecordError::Cells(e)))
}

/// The canonical form in `form` of every puzzle (or solved grid): puzzle `i`'s form goes to
/// `forms[81 * i..81 * (i + 1)]` (all 0 when it failed) and to `found[i]` a transform `t` with
/// `t.apply(puzzle) == form`, or why there is none ([`FailureKind::Malformed`], [`FailureKind::ClashingGivens`]).
/// Cost: that of `sudoku canon`, nothing allocated per puzzle.
pub fn canon<P: Puzzles + ?Sized>(
    puzzles: &P,
    form: Form,
    threads: Threads,
    forms: &mut [u8],
    found: &mut [Result<Transform, FailureKind>],
) -> Result<(), ArrayError> {
    let n = puzzles.len();
    fits("forms", forms.len(), n, n * CELLS)?;
    fits("found", found.len(), n, n)?;
    each(
        (threads, PIECE),
        n,
        (forms, CELLS),
        (found, 1),
        |i, out, t| {
            let done = read(puzzles, i)
                .and_then(|p| canon_with_transform_as(&p, form).map_err(Failure::ClashingGivens));
            t[0] = match done {
                Ok((g, transform)) => {
                    out.copy_from_slice(g.cells());
                    Ok(transform)
                }
                Err(f) => {
                    out.fill(0);
                    Err(f.kind())
                }
            };
            Ok(())
        },
    )
}

/// The class of every puzzle, numbered from 0 in order of first appearance (the classes of `sudoku dedupe` and of
/// `export`'s `group.npy`: the same canonical form, the same class) into `groups`, -1 where the puzzle failed;
/// `status[i]` is [`super::OK`] or the failure's code (1 malformed, 2 clashing givens). The first puzzle of each
/// class is the one `sudoku dedupe` keeps. Memory: a 32-byte key per puzzle while the call runs, and a map entry
/// per class.
pub fn classes<P: Puzzles + ?Sized>(
    puzzles: &P,
    threads: Threads,
    groups: &mut [i64],
    status: &mut [i8],
) -> Result<(), ArrayError> {
    let n = puzzles.len();
    fits("groups", groups.len(), n, n)?;
    fits("status", status.len(), n, n)?;
    let mut keys: Vec<Option<Key>> = vec![None; n];
    each::<_, _, ArrayError, _>(
        (threads, PIECE),
        n,
        (&mut keys, 1),
        (&mut *status, 1),
        |i, key, code| {
            (key[0], code[0]) = match read(puzzles, i)
                .and_then(|p| class_key(&p).map_err(Failure::ClashingGivens))
            {
                Ok(k) => (Some(k), super::OK),
                Err(f) => (None, self::code(f.kind())),
            };
            Ok(())
        },
    )?;
    let mut numbers: HashMap<Key, i64> = HashMap::new();
    for (group, key) in groups.iter_mut().zip(&keys) {
        *group = match key {
            Some(k) => {
                let next = numbers.len() as i64;
                *numbers.entry(*k).or_insert(next)
            }
            None => -1,
        };
    }
    Ok(())
}

/// The side `split` sends every puzzle to (as `sudoku split` with the same seed and fractions sends the same
/// records in the same order, each class wholly on one side, each stratum's classes in their fractions up to
/// rounding): `sides[i]` is the [`Side`], or why the puzzle has none (malformed, clashing givens). `strata`, when
/// the split is stratified, gives each puzzle's stratum text (a CSV column's value, as `split --stratify` reads
/// it, surrounding whitespace ignored); `None` puts every puzzle in one stratum. The sides depend on every puzzle
/// of the call (the classes of a stratum are ranked together). Memory: 16 bytes per puzzle while the call runs.
///
/// # Errors
/// As the other calls; [`ArrayError::Strata`] when there are more strata than a split takes.
pub fn split<P: Puzzles + ?Sized, S: AsRef<[u8]> + Sync>(
    puzzles: &P,
    split: &Split,
    strata: Option<&[S]>,
    threads: Threads,
    sides: &mut [Result<Side, FailureKind>],
) -> Result<(), ArrayError> {
    let n = puzzles.len();
    fits("sides", sides.len(), n, n)?;
    if let Some(s) = strata {
        fits("strata", s.len(), n, n)?;
    }
    let mut hashes: Vec<Result<(u64, u64), FailureKind>> = vec![Ok((0, 0)); n];
    each::<_, _, ArrayError, _>(
        (threads, PIECE),
        n,
        (&mut hashes, 1),
        (&mut vec![(); n], 1),
        |i, hash, _| {
            let stratum = split.stratum_hash(strata.map_or(&b""[..], |s| s[i].as_ref()));
            hash[0] = read(puzzles, i)
                .and_then(|p| split.hash_of(&p))
                .map(|h| (h, stratum))
                .map_err(|f| f.kind());
            Ok(())
        },
    )?;
    let mut gathered = Strata::new();
    let mut numbered = Vec::with_capacity(n);
    for h in &hashes {
        numbered.push(match h {
            Ok((class, stratum)) => Ok((*class, gathered.add(*class, *stratum)?)),
            Err(kind) => Err(*kind),
        });
    }
    let ranked = gathered.sides(split.test_fraction(), split.val_fraction());
    for (side, h) in sides.iter_mut().zip(numbered) {
        *side = h.map(|(class, stratum)| ranked.side(class, stratum));
    }
    Ok(())
}

/// Checks each claimed solution against its puzzle, as `sudoku check` (with `unique`, `--unique`): `verdicts[i]` is
/// `Ok` when `solutions` row `i` is a full board that breaks no rule and keeps every given of puzzle `i`, else the
/// failure the CLI reports for it (its text is the CLI's marker: `invalid solution: row 3 has two 5s (r3c1,
/// r3c4)`, `solution changes given r2c7`, ...). An unreadable solution is an `invalid solution`; an unreadable
/// puzzle is malformed.
pub fn check<P: Puzzles + ?Sized, S: Puzzles + ?Sized>(
    puzzles: &P,
    solutions: &S,
    unique: bool,
    threads: Threads,
    verdicts: &mut [Result<(), Failure>],
) -> Result<(), ArrayError> {
    let n = puzzles.len();
    fits("solutions", solutions.len(), n, n)?;
    fits("verdicts", verdicts.len(), n, n)?;
    let job = Check { unique };
    each(
        (threads, PIECE),
        n,
        (verdicts, 1),
        (&mut vec![(); n], 1),
        |i, verdict, _| {
            verdict[0] = read(puzzles, i).and_then(|p| {
                let claim = solutions
                    .puzzle(i)
                    .map_err(crate::record::SolutionError::Unreadable)
                    .and_then(|s| Check::verify_grid(&p, &s));
                job.verdict(&p, claim)
            });
            Ok(())
        },
    )
}

/// The copies `job` makes of every puzzle (and of its solution, when `solutions` are given), as `sudoku shuffle
/// --copies` writes them for a table whose row `i` is puzzle `i` (the row number is the record's position that
/// draws its transforms): copy `c` of puzzle `i` goes to `out_puzzles[81 * (k * i + c)..]` and its solution to
/// `out_solutions` at the same place, for `k = job.copies()` ([`crate::batch::Job::copies`]: with `keep_original`
/// the puzzle itself first). `out_solutions` is empty when `solutions` is `None`.
///
/// # Errors
/// [`ArrayError::Unreadable`] naming the first puzzle (or solution) that cannot be read: a copy of it cannot be
/// made. The buffers then hold part of the copies.
pub fn copies<P: Puzzles + ?Sized, S: Puzzles + ?Sized>(
    puzzles: &P,
    solutions: Option<&S>,
    job: &Copies,
    threads: Threads,
    out_puzzles: &mut [u8],
    out_solutions: &mut [u8],
) -> Result<(), ArrayError> {
    use crate::batch::Job;
    let n = puzzles.len();
    let k = job.copies() as usize;
    fits("out_puzzles", out_puzzles.len(), n, n * k * CELLS)?;
    let mut none = Vec::new();
    let (sol_out, sol_per) = match solutions {
        Some(s) => {
            fits("solutions", s.len(), n, n)?;
            fits("out_solutions", out_solutions.len(), n, n * k * CELLS)?;
            (out_solutions, k * CELLS)
        }
        None => {
            fits("out_solutions", out_solutions.len(), n, 0)?;
            none.resize(n, 0u8);
            (&mut none[..], 1)
        }
    };
    let unreadable = |what: &'static str, index: usize| {
        move |error| ArrayError::Unreadable { what, index, error }
    };
    each(
        (threads, PIECE),
        n,
        (out_puzzles, k * CELLS),
        (sol_out, sol_per),
        |i, p_out, s_out| {
            let puzzle = puzzles.puzzle(i).map_err(unreadable("puzzles", i))?;
            let solution = solutions
                .map(|s| s.puzzle(i).map_err(unreadable("solutions", i)))
                .transpose()?;
            for c in 0..k {
                let t = job.transform(i as u64, c as u32);
                let cells = c * CELLS..(c + 1) * CELLS;
                p_out[cells.clone()].copy_from_slice(t.apply(&puzzle).cells());
                if let Some(s) = &solution {
                    s_out[cells].copy_from_slice(t.apply(s).cells());
                }
            }
            Ok(())
        },
    )
}

/// The status code of an outcome of [`canon`] or [`split`]: [`super::OK`] or the failure's code.
pub fn status<T>(r: &Result<T, FailureKind>) -> i8 {
    match r {
        Ok(_) => super::OK,
        Err(kind) => code(*kind),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::samples::{g, HARD, HARD_SOLUTION};

    #[test]
    fn canon_gives_a_transform_to_the_form_and_classes_number_in_order() {
        let p = g(HARD);
        let copies: Vec<String> = (0..5)
            .map(|i| Transform::random(3, i).apply(&p).to_line())
            .chain([format!("11{}", &HARD[2..]), "x".repeat(81)])
            .collect();
        let n = copies.len();
        let mut forms = vec![0u8; n * CELLS];
        let mut found = vec![Err(FailureKind::Malformed); n];
        canon(
            &copies[..],
            Form::Minlex,
            Threads::Count(2),
            &mut forms,
            &mut found,
        )
        .unwrap();
        for i in 0..5 {
            let t = found[i].unwrap();
            let form = &forms[i * CELLS..(i + 1) * CELLS];
            assert_eq!(t.apply(&g(&copies[i])).cells(), form);
            assert_eq!(form, crate::tools::canon(&p).unwrap().cells());
        }
        assert_eq!(found[5], Err(FailureKind::ClashingGivens));
        assert_eq!(found[6], Err(FailureKind::Malformed));
        let mut groups = vec![0i64; n + 1];
        let mut status = vec![0i8; n + 1];
        let mut texts = copies.clone();
        texts.insert(1, HARD_SOLUTION.to_string());
        classes(&texts[..], Threads::Count(1), &mut groups, &mut status).unwrap();
        assert_eq!(groups, [0, 1, 0, 0, 0, 0, -1, -1]);
        assert_eq!(status, [0, 0, 0, 0, 0, 0, 2, 1]);
    }

    #[test]
    fn copies_are_those_of_the_shuffle_job_and_keep_solutions() {
        let job = Copies {
            seed: 9,
            copies: 3,
            keep_original: true,
        };
        let puzzles = [HARD, HARD];
        let solutions = [HARD_SOLUTION, HARD_SOLUTION];
        let mut p = vec![0u8; 2 * 4 * CELLS];
        let mut s = vec![0u8; 2 * 4 * CELLS];
        copies(
            &puzzles[..],
            Some(&solutions[..]),
            &job,
            Threads::Count(1),
            &mut p,
            &mut s,
        )
        .unwrap();
        assert_eq!(&p[..CELLS], g(HARD).cells(), "the original first");
        for c in 0..8 {
            let cp = Grid::from_cells(p[c * CELLS..(c + 1) * CELLS].try_into().unwrap()).unwrap();
            let cs = Grid::from_cells(s[c * CELLS..(c + 1) * CELLS].try_into().unwrap()).unwrap();
            assert!(cs.is_solution_of(&cp), "copy {c}");
            let t = job.transform((c / 4) as u64, (c % 4) as u32);
            assert_eq!(t.apply(&g(HARD)), cp);
        }
        // Row 1's copies differ from row 0's: the row number draws them.
        assert_ne!(p[CELLS..2 * CELLS], p[5 * CELLS..6 * CELLS]);
        let bad = [HARD, "12"];
        let e = copies::<_, [&str]>(&bad[..], None, &job, Threads::Count(1), &mut p, &mut [])
            .unwrap_err();
        assert!(e.to_string().starts_with("puzzles[1] "), "{e}");
    }

    #[test]
    fn check_gives_the_cli_verdicts() {
        let mut changed = HARD_SOLUTION.as_bytes().to_vec();
        changed.swap(0, 1);
        let changed = String::from_utf8(changed).unwrap();
        let puzzles = [HARD, HARD, HARD, "x"];
        let solutions = [HARD_SOLUTION, &changed, &HARD_SOLUTION[..80], HARD_SOLUTION];
        let mut v = vec![Ok(()); 4];
        check(
            &puzzles[..],
            &solutions[..],
            true,
            Threads::Count(1),
            &mut v,
        )
        .unwrap();
        assert_eq!(v[0], Ok(()));
        let texts: Vec<String> = v[1..]
            .iter()
            .map(|r| r.clone().unwrap_err().to_string())
            .collect();
        assert!(texts[0].starts_with("invalid solution: "), "{texts:?}");
        assert!(texts[1].starts_with("invalid solution: "), "{texts:?}");
        assert!(texts[2].starts_with("malformed: "), "{texts:?}");
        assert_eq!(status(&v[1].clone().map_err(|f| f.kind())), 5);
    }
}
