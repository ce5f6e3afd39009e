//! The hunt for the hardest puzzles ([`hunt`]): a neighbourhood search from seed puzzles, as the forum runs it
//! with its `{-1+1}` and `{-2+2}` moves, for puzzles rated at least a given ER on Sudoku Explainer's scale.
//!
//! Each move ([`Move`]) removes clues of a puzzle and adds others on cells it leaves blank; a candidate is kept when
//! it has exactly one solution (and is minimal, unless asked otherwise) and its equivalence class (its minlex
//! canonical form) was never seen: the seeds', the known puzzles' and every candidate's rated before. Kept
//! candidates are rated on SE's scale, the rating stopping as soon as it cannot reach the ER asked for (the path
//! left is known to stay at 4.0 or below; see [`crate::generate::SeWindows`]); those that reach it are the finds,
//! reported at once, and join the frontier. The frontier is searched best first: the node with the highest ER
//! hands out its next removal set (seeds without an ER given are rated first to take their place), on every
//! worker thread.
//!
//! The search ends at the first of: the time given, the number of finds given, a stop flag set by the caller, or
//! a frontier with nothing left. A find is reported only once it is rated in full, so whatever stops the search,
//! every find reported is whole. With one thread and no time limit, the same seeds and options give the same finds
//! in the same order.
//!
//! A candidate rated beyond SE's ladder (no ER, serate's "Beyond solver") is not a find: it has no rating to
//! report.

mod moves;
mod options;
mod search;

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::grid::{Conflict, Grid};
use crate::ordered::ThreadsError;
use crate::solver::{self, SolveError};
use crate::tools::Key;

pub use moves::{Move, MoveError, MOVE_MAX};
pub use options::{Ending, Find, HuntEvent, HuntOptions, HuntProgress, HuntSummary, Seed};

/// How often the caller hears of the progress.
const PROGRESS_EVERY: Duration = Duration::from_millis(250);

/// Why a hunt could not start.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum HuntError {
    /// No seed puzzle.
    #[error("no seed puzzle to start from")]
    NoSeed,
    /// No move.
    #[error("no move to make")]
    NoMove,
    /// Seed `index` (0-based) has no solution, several, or clashing givens.
    #[error("seed {index}: {error}")]
    Seed {
        /// Which seed, 0-based.
        index: usize,
        /// What is wrong with it.
        error: SolveError,
    },
    /// Known puzzle `index` (0-based) has clashing givens.
    #[error("known puzzle {index}: clashing givens: {conflict}")]
    Known {
        /// Which known puzzle, 0-based.
        index: usize,
        /// The clash.
        conflict: Conflict,
    },
    /// The worker threads could not be started.
    #[error(transparent)]
    Threads(#[from] ThreadsError),
    /// A worker failed (a bug): the search was stopped.
    #[error("a hunt worker failed: {0}")]
    Worker(String),
}

/// Hunts from `seeds` (each with one solution) for puzzles rated `options.min_er` or more, skipping the classes of
/// the seeds and of `known` (any puzzles without clashing givens), until the time, the limit, `stop` or an empty
/// frontier ends it. `report` hears every find, once, as soon as it is rated, and the progress a few times a
/// second, all on the calling thread.
///
/// Cost: the `known` puzzles' canonical forms first (spread over the threads); then per node, per removal set,
/// the solution counts of [`Move`]'s candidates, a canonical form per candidate kept and an SE rating per new
/// class (the bulk of the time).
pub fn hunt(
    seeds: &[Seed],
    known: &[Grid],
    options: &HuntOptions,
    stop: &AtomicBool,
    mut report: impl FnMut(HuntEvent),
) -> Result<HuntSummary, HuntError> {
    let started = Instant::now();
    if seeds.is_empty() {
        return Err(HuntError::NoSeed);
    }
    if options.moves.is_empty() {
        return Err(HuntError::NoMove);
    }
    for (index, s) in seeds.iter().enumerate() {
        solver::solve_unique(&s.puzzle).map_err(|error| HuntError::Seed { index, error })?;
    }
    let threads = options.threads.get();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("sudoku-hunt-{i}"))
        .build()
        .map_err(ThreadsError::from_pool)?;
    let (distinct, seen) = starting_classes(&pool, seeds, known)?;
    let shared = search::Shared::new(options, &distinct, seen);
    let (tx, rx) = crossbeam_channel::unbounded();
    let joined = std::thread::scope(|s| {
        let shared = &shared;
        let workers = s.spawn(move || {
            pool.scope(|ps| {
                for _ in 0..threads {
                    let tx = tx.clone();
                    ps.spawn(move |_| search::work(shared, &tx));
                }
            });
        });
        let heard = listen(&rx, shared, options, stop, started, &mut report);
        workers.join().map(|()| heard)
    });
    let (found, ending) = joined.map_err(worker_failure)?;
    let ending = ending.unwrap_or(if shared.exhausted.load(Ordering::Relaxed) {
        Ending::Exhausted
    } else {
        Ending::Stopped
    });
    Ok(HuntSummary {
        progress: shared.progress(found, started),
        ending,
        threads,
    })
}

/// Hears the workers' finds on the calling thread until they have all stopped: tells `report` each find (up to
/// the limit) and the progress every [`PROGRESS_EVERY`], and stops the workers at the limit, on `stop` or at the
/// deadline. Returns the finds reported and what ended the hunt, if the hunt ended it.
fn listen(
    rx: &crossbeam_channel::Receiver<Find>,
    shared: &search::Shared<'_>,
    options: &HuntOptions,
    stop: &AtomicBool,
    started: Instant,
    report: &mut impl FnMut(HuntEvent),
) -> (u64, Option<Ending>) {
    // A time too long for the clock to reach is no deadline at all.
    let deadline = options.time.and_then(|t| started.checked_add(t));
    let mut found = 0u64;
    let mut ending = None;
    let mut last = Instant::now();
    loop {
        match rx.recv_timeout(PROGRESS_EVERY) {
            Ok(find) => {
                if options.limit.is_none_or(|l| found < l) {
                    found += 1;
                    report(HuntEvent::Found(find));
                    if options.limit == Some(found) {
                        ending.get_or_insert(Ending::Limit);
                        shared.stop();
                    }
                }
            }
            Err(crossbeam_channel::RecvTimeoutError::Timeout) => {}
            Err(crossbeam_channel::RecvTimeoutError::Disconnected) => return (found, ending),
        }
        if ending.is_none() {
            if stop.load(Ordering::Relaxed) {
                ending = Some(Ending::Stopped);
                shared.stop();
            } else if deadline.is_some_and(|d| Instant::now() >= d) {
                ending = Some(Ending::Time);
                shared.stop();
            }
        }
        if last.elapsed() >= PROGRESS_EVERY {
            last = Instant::now();
            report(HuntEvent::Progress(shared.progress(found, started)));
        }
    }
}

/// The seeds to search from (one per class, in order) and the classes to skip (the known puzzles' and the
/// seeds'), the known puzzles' canonical forms found on `pool`. A seed of another seed's class is gone through
/// once; a seed of a known class still starts a search.
fn starting_classes(
    pool: &rayon::ThreadPool,
    seeds: &[Seed],
    known: &[Grid],
) -> Result<(Vec<Seed>, HashSet<Key>), HuntError> {
    let known_keys = pool.install(|| {
        known
            .par_iter()
            .enumerate()
            .map(|(index, g)| {
                g.check_givens()
                    .map(|()| search::class_of(g))
                    .map_err(|conflict| HuntError::Known { index, conflict })
            })
            .collect::<Result<Vec<_>, _>>()
    })?;
    let mut seen: HashSet<_> = known_keys.into_iter().collect();
    let mut seed_classes = HashSet::new();
    let mut distinct = Vec::new();
    for s in seeds {
        let class = search::class_of(&s.puzzle);
        if seed_classes.insert(class) {
            distinct.push(*s);
        }
        seen.insert(class);
    }
    Ok((distinct, seen))
}

/// The error of a worker thread that panicked, with the panic's message.
fn worker_failure(panic: Box<dyn std::any::Any + Send>) -> HuntError {
    let why = panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".into());
    HuntError::Worker(why)
}
