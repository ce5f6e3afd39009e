//! The one ordered-parallel engine: work items made in order on the calling thread, worked on by a pool of threads,
//! and handed back in the same order, with a window that bounds the items in flight, cancellation, and panics
//! passed on to the caller. Batch solving and rating, board generation, puzzle generation and the array calls
//! (through the indexed mode, `Engine::each`, which fills the caller's buffers in place) all run on it; the
//! [`Threads`] rule (all cores, or a count capped at [`MAX_THREADS`]) and the window rule (`window`) are the same
//! for all of them.
//!
//! ```text
//!  produce (calling thread) ──▶ work (pool, any order) ──▶ deliver (calling thread, index order)
//! ```
//!
//! With one thread, `work` runs on the calling thread between `produce` and `deliver`: a plain sequential loop.

use std::collections::BTreeMap;
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, Ordering};

/// The most worker threads a run takes.
pub const MAX_THREADS: usize = 1024;

/// Work items in flight per worker thread, when [`IN_FLIGHT`] allows.
pub(crate) const ITEMS_PER_THREAD: usize = 8;

/// Bytes of the work items in flight at once, whatever the thread count: what an item holds besides (its output,
/// its failure reports) is a small multiple of its size, so this bounds a run's memory: many threads get fewer
/// items each, never more memory.
pub(crate) const IN_FLIGHT: usize = 8 << 20;

/// The window of a run on `threads` threads whose items hold about `item_bytes` bytes each: two items per thread
/// or more (at most [`ITEMS_PER_THREAD`]) while [`IN_FLIGHT`] allows, never more than [`IN_FLIGHT`] bytes in all
/// (past that, some of very many threads wait), and 1 for one thread.
pub(crate) fn window(threads: usize, item_bytes: usize) -> usize {
    if threads <= 1 {
        return 1;
    }
    (IN_FLIGHT / item_bytes.max(1)).clamp(2, threads * ITEMS_PER_THREAD)
}

/// How many worker threads a run uses.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Threads {
    /// One per available core.
    #[default]
    Auto,
    /// This many (1 means the sequential path on the calling thread).
    Count(usize),
}

/// A thread count outside `1..=MAX_THREADS`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
#[error("the thread count must be a whole number from 1 to {MAX_THREADS}, not {0}")]
pub struct ThreadCountError(pub usize);

/// The worker threads of a run could not be started (the system refused a thread); says why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
#[error("{reason}")]
pub struct ThreadsError {
    reason: String,
}

impl ThreadsError {
    /// The error of a thread pool that could not be built.
    pub(crate) fn from_pool(e: rayon::ThreadPoolBuildError) -> ThreadsError {
        ThreadsError {
            reason: e.to_string(),
        }
    }
}

impl Threads {
    /// `n` threads, checked against `1..=MAX_THREADS`.
    pub fn count(n: usize) -> Result<Threads, ThreadCountError> {
        if (1..=MAX_THREADS).contains(&n) {
            Ok(Threads::Count(n))
        } else {
            Err(ThreadCountError(n))
        }
    }

    /// The number of threads this stands for (never 0, never more than [`MAX_THREADS`]).
    pub fn get(self) -> usize {
        match self {
            Threads::Auto => std::thread::available_parallelism().map_or(1, |n| n.get()),
            Threads::Count(n) => n,
        }
        .clamp(1, MAX_THREADS)
    }

    /// At most `n` threads: `self`, or `n` when `self` stands for more. A run takes no more workers than items
    /// in flight: the others could only wait, and hundreds of idle threads on a few cores cost more than the work.
    pub(crate) fn at_most(self, n: usize) -> Threads {
        if self.get() <= n.max(1) {
            self
        } else {
            Threads::Count(n.max(1))
        }
    }
}

/// For a process that runs the engine on many threads (the `sudoku` binary calls it once at start): glibc gives
/// each thread a malloc arena of its own, up to eight per core, and memory a worker allocates and the calling
/// thread frees stays in the worker's arena, so a long run holds more and more of it. Two arenas keep a run's
/// memory flat; allocations are per chunk, never per record, so the threads hardly contend for them. No effect
/// elsewhere than glibc. Call it before any thread starts.
pub fn share_allocator_arenas() {
    crate::os::cap_malloc_arenas(2);
}

thread_local! {
    /// The stop flag of the library calls made on this thread, set by [`with_stop`].
    static STOP: std::cell::RefCell<Option<std::sync::Arc<AtomicBool>>> = const { std::cell::RefCell::new(None) };
}

/// Runs `f` on this thread with `stop` as the stop flag of every long library call it makes (batch runs, array
/// calls, generation): once the flag is set, from any thread, those calls stop making work, end within a few
/// milliseconds, and return their `Stopped` error; a batch run then leaves its output target as it was. This is
/// how a front end cancels a call (the Python module sets it on Ctrl-C).
pub fn with_stop<T>(stop: std::sync::Arc<AtomicBool>, f: impl FnOnce() -> T) -> T {
    let before = STOP.with(|s| s.replace(Some(stop)));
    let out = f();
    STOP.with(|s| *s.borrow_mut() = before);
    out
}

/// The stop flag of the calling thread's calls ([`with_stop`]), or a flag nobody sets.
pub(crate) fn stop_flag() -> std::sync::Arc<AtomicBool> {
    STOP.with(|s| s.borrow().clone())
        .unwrap_or_else(|| std::sync::Arc::new(AtomicBool::new(false)))
}

/// True when the calling thread's stop flag is set.
pub(crate) fn stopped() -> bool {
    STOP.with(|s| {
        s.borrow()
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
    })
}

/// What the in-order stage wants after an item.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Flow {
    /// Go on.
    Go,
    /// Stop: make no more items; results still in flight are dropped.
    Stop,
}

/// Sets the cancel flag; returns `true` (the run is stopping).
fn stop(cancel: &AtomicBool) -> bool {
    cancel.store(true, Ordering::Relaxed);
    true
}

/// The worker threads of a run: none (the calling thread), a pool of its own, or the process's pool.
pub(crate) struct Engine {
    pool: Pool,
    threads: usize,
}

/// Where an engine's work runs.
enum Pool {
    /// On the calling thread.
    Caller,
    /// On a pool built for the run.
    Own(rayon::ThreadPool),
    /// On the pool of [`Threads::Auto`], built on first use and shared by every run of the process.
    Shared(&'static rayon::ThreadPool),
}

impl Engine {
    /// The workers of the [`Threads`] rule: the calling thread for one thread, a pool built for the run for a
    /// count, and for [`Threads::Auto`] one pool per process (one thread per core), so that many short calls (the
    /// array API) do not each start threads.
    pub(crate) fn new(threads: Threads) -> Result<Engine, ThreadsError> {
        let count = threads.get();
        let pool = match threads {
            _ if count == 1 => Pool::Caller,
            Threads::Auto => Pool::Shared(auto_pool()?),
            Threads::Count(n) => Pool::Own(build_pool(n)?),
        };
        Ok(Engine {
            pool,
            threads: count,
        })
    }

    /// Worker threads.
    pub(crate) fn threads(&self) -> usize {
        self.threads
    }

    /// Calls `produce` for items until it gives `None`, runs `work` on each (in parallel, at most `window` items
    /// between the oldest not yet delivered and the newest made), and calls `deliver` with the results in the
    /// order the items were made. `work` should return early when the flag it is given is set (the run is
    /// stopping). An error from `produce` or `deliver`, or [`Flow::Stop`], stops the run: no more items are made,
    /// results in flight are dropped, and the error is returned once every task has ended. A panic in `work` is
    /// resumed on the calling thread after the other tasks have ended.
    pub(crate) fn run<I, O, E, P, W, D>(
        &self,
        window: usize,
        produce: P,
        work: W,
        deliver: D,
    ) -> Result<(), E>
    where
        I: Send,
        O: Send,
        P: FnMut() -> Result<Option<I>, E>,
        W: Fn(I, &AtomicBool) -> O + Sync,
        D: FnMut(O) -> Result<Flow, E>,
    {
        self.run_paced(window, || true, || {}, produce, work, deliver)
    }

    /// [`Engine::run`] that calls `tick` every few milliseconds while it waits for results, on the calling thread
    /// (never while `deliver` or `produce` runs), so that a caller can tell how far work in progress has come
    /// before any result is delivered. With one thread the work runs on the calling thread and `tick` is not
    /// called.
    pub(crate) fn run_ticking<I, O, E, T, P, W, D>(
        &self,
        window: usize,
        tick: T,
        produce: P,
        work: W,
        deliver: D,
    ) -> Result<(), E>
    where
        I: Send,
        O: Send,
        T: FnMut(),
        P: FnMut() -> Result<Option<I>, E>,
        W: Fn(I, &AtomicBool) -> O + Sync,
        D: FnMut(O) -> Result<Flow, E>,
    {
        self.run_paced(window, || true, tick, produce, work, deliver)
    }

    /// [`Engine::run`] for an input that may keep the caller waiting (a pipe whose writer waits for answers):
    /// while items are in flight, `produce` is only called when `ready` says it will not wait; otherwise the
    /// results in flight are delivered first. With nothing in flight `produce` is called anyway. `tick` is called
    /// as [`Engine::run_ticking`] says. A stop asked for from outside (see `with_stop`) ends the run as
    /// [`Flow::Stop`] does.
    pub(crate) fn run_paced<I, O, E, R, T, P, W, D>(
        &self,
        window: usize,
        mut ready: R,
        mut tick: T,
        mut produce: P,
        work: W,
        mut deliver: D,
    ) -> Result<(), E>
    where
        I: Send,
        O: Send,
        R: FnMut() -> bool,
        T: FnMut(),
        P: FnMut() -> Result<Option<I>, E>,
        W: Fn(I, &AtomicBool) -> O + Sync,
        D: FnMut(O) -> Result<Flow, E>,
    {
        let (cancel, outside) = (AtomicBool::new(false), stop_flag());
        let pool = match &self.pool {
            Pool::Own(pool) => pool,
            Pool::Shared(pool) => *pool,
            Pool::Caller => return run_on_caller(&outside, produce, work, deliver),
        };
        let window = window.max(1) as u64;
        let (tx, rx) = crossbeam_channel::unbounded::<(u64, std::thread::Result<O>)>();
        let (work, cancel_ref, mut panic) = (&work, &cancel, None);
        let result = pool.in_place_scope_fifo(|scope| {
            let (mut made, mut received, mut exhausted) = (0u64, 0u64, false);
            let mut order = InOrder {
                waiting: BTreeMap::new(),
                delivered: 0,
                stopping: false,
                result: Ok(()),
            };
            loop {
                if outside.load(Ordering::Relaxed) && !order.stopping {
                    order.stopping = stop(cancel_ref);
                }
                while !order.stopping
                    && !exhausted
                    && made - order.delivered < window
                    && (made == order.delivered || ready())
                {
                    match produce() {
                        Err(e) => {
                            order.result = Err(e);
                            order.stopping = stop(cancel_ref);
                        }
                        Ok(None) => exhausted = true,
                        Ok(Some(item)) => {
                            spawn_task(scope, tx.clone(), made, item, work, cancel_ref);
                            made += 1;
                        }
                    }
                }
                if received == made {
                    return order.result;
                }
                let (index, done) =
                    next_result(&rx, &outside, &mut order.stopping, cancel_ref, &mut tick);
                received += 1;
                match done {
                    Ok(out) => {
                        order.waiting.insert(index, out);
                    }
                    Err(p) => {
                        panic.get_or_insert(p);
                        order.stopping = stop(cancel_ref);
                    }
                }
                order.deliver_ready(made, &mut deliver, cancel_ref);
            }
        });
        if let Some(p) = panic {
            std::panic::resume_unwind(p);
        }
        result
    }
}

/// [`Engine::run_paced`] on the calling thread alone: nothing else cancels work there, so the outside flag is the
/// work's cancel flag (a chunk in progress stops at its next record).
fn run_on_caller<I, O, E, P, W, D>(
    outside: &AtomicBool,
    mut produce: P,
    work: W,
    mut deliver: D,
) -> Result<(), E>
where
    P: FnMut() -> Result<Option<I>, E>,
    W: Fn(I, &AtomicBool) -> O,
    D: FnMut(O) -> Result<Flow, E>,
{
    while !outside.load(Ordering::Relaxed) {
        let Some(item) = produce()? else {
            break;
        };
        if deliver(work(item, outside))? == Flow::Stop {
            break;
        }
    }
    Ok(())
}

/// Waits for the next result of a task, looking at the `outside` flag every few milliseconds meanwhile, so that
/// work in progress is cancelled (`stopping` set) soon after a stop is asked for, and calling `tick`.
fn next_result<O>(
    rx: &crossbeam_channel::Receiver<(u64, std::thread::Result<O>)>,
    outside: &AtomicBool,
    stopping: &mut bool,
    cancel: &AtomicBool,
    tick: &mut impl FnMut(),
) -> (u64, std::thread::Result<O>) {
    loop {
        match rx.recv_timeout(std::time::Duration::from_millis(5)) {
            Ok(r) => return r,
            Err(crossbeam_channel::RecvTimeoutError::Timeout) => {
                tick();
                if outside.load(Ordering::Relaxed) && !*stopping {
                    *stopping = stop(cancel);
                }
            }
            Err(e) => panic!("every task sends its result: {e}"),
        }
    }
}

/// Runs `work` on `item` as task `index` of `scope`, sending its result (or its panic, passed to the calling
/// thread, which would otherwise wait for this item forever) on `tx`.
fn spawn_task<'s, I, O, W>(
    scope: &rayon::ScopeFifo<'s>,
    tx: crossbeam_channel::Sender<(u64, std::thread::Result<O>)>,
    index: u64,
    item: I,
    work: &'s W,
    cancel: &'s AtomicBool,
) where
    I: Send + 's,
    O: Send + 's,
    W: Fn(I, &AtomicBool) -> O + Sync,
{
    scope.spawn_fifo(move |_| {
        let done = std::panic::catch_unwind(AssertUnwindSafe(|| work(item, cancel)));
        let _ = tx.send((index, done));
    });
}

/// The delivering side of [`Engine::run_paced`]: results waiting for their turn, how many were delivered,
/// whether the run is stopping, and its result so far.
struct InOrder<O, E> {
    waiting: BTreeMap<u64, O>,
    delivered: u64,
    stopping: bool,
    result: Result<(), E>,
}

impl<O, E> InOrder<O, E> {
    /// Delivers the waiting results that are next in order: a [`Flow::Stop`] or an error (kept as the result) sets
    /// `stopping` and cancels the work. Once stopping, nothing more is delivered: every result made so far, and
    /// those still coming, are only counted.
    fn deliver_ready(
        &mut self,
        made: u64,
        deliver: &mut impl FnMut(O) -> Result<Flow, E>,
        cancel: &AtomicBool,
    ) {
        while let Some(out) = self.waiting.remove(&self.delivered) {
            self.delivered += 1;
            if self.stopping {
                continue;
            }
            match deliver(out) {
                Ok(Flow::Go) => {}
                Ok(Flow::Stop) => self.stopping = stop(cancel),
                Err(e) => {
                    self.result = Err(e);
                    self.stopping = stop(cancel);
                }
            }
        }
        if self.stopping {
            self.waiting.clear();
            self.delivered = made;
        }
    }
}

impl Engine {
    /// The indexed mode: runs `work` on every slot `slots` gives (made in order on the calling thread: pieces of
    /// the caller's buffers, say), at most `window` at a time. Results go into the slots, not back to the caller.
    /// An error from `work` stops the run; the error of the earliest failed slot is returned.
    pub(crate) fn each<S, E, W>(
        &self,
        window: usize,
        mut slots: impl Iterator<Item = S>,
        work: W,
    ) -> Result<(), E>
    where
        S: Send,
        E: Send,
        W: Fn(S, &AtomicBool) -> Result<(), E> + Sync,
    {
        self.run(
            window,
            || Ok(slots.next()),
            work,
            |done| done.map(|()| Flow::Go),
        )
    }
}

/// A pool of `threads` workers.
fn build_pool(threads: usize) -> Result<rayon::ThreadPool, ThreadsError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("sudoku-worker-{i}"))
        .build()
        .map_err(ThreadsError::from_pool)
}

/// The pool of [`Threads::Auto`], one per process (one thread per available core).
fn auto_pool() -> Result<&'static rayon::ThreadPool, ThreadsError> {
    static POOL: std::sync::OnceLock<rayon::ThreadPool> = std::sync::OnceLock::new();
    if let Some(p) = POOL.get() {
        return Ok(p);
    }
    let pool = build_pool(Threads::Auto.get())?;
    Ok(POOL.get_or_init(|| pool))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn squares(threads: usize, n: u64, window: usize) -> Vec<u64> {
        let engine = Engine::new(Threads::Count(threads)).unwrap();
        let mut next = 0;
        let mut got = Vec::new();
        engine
            .run::<_, _, (), _, _, _>(
                window,
                || {
                    next += 1;
                    Ok((next <= n).then_some(next))
                },
                |i, _| {
                    // Later items finish first now and then.
                    if i % 7 == 0 {
                        std::thread::sleep(std::time::Duration::from_millis(2));
                    }
                    i * i
                },
                |sq| {
                    got.push(sq);
                    Ok(Flow::Go)
                },
            )
            .unwrap();
        got
    }

    #[test]
    fn results_come_back_in_order_for_any_thread_count_and_window() {
        let expect: Vec<u64> = (1..=200).map(|i| i * i).collect();
        for threads in [1, 2, 3, 8] {
            for window in [1, 2, 16] {
                assert_eq!(squares(threads, 200, window), expect, "{threads} {window}");
            }
        }
    }

    #[test]
    fn ticks_come_while_work_is_in_progress_and_not_with_one_thread() {
        let engine = Engine::new(Threads::Count(2)).unwrap();
        let (mut next, mut ticks, mut delivered) = (0u64, 0u32, Vec::new());
        let ticks_at_delivery = std::cell::Cell::new(Vec::new());
        let ticked = std::cell::Cell::new(0u32);
        engine
            .run_ticking::<_, _, (), _, _, _, _>(
                2,
                || {
                    ticks += 1;
                    ticked.set(ticks);
                },
                || {
                    next += 1;
                    Ok((next <= 3).then_some(next))
                },
                |i, _| {
                    std::thread::sleep(std::time::Duration::from_millis(60));
                    i
                },
                |i| {
                    delivered.push(i);
                    let mut at = ticks_at_delivery.take();
                    at.push(ticked.get());
                    ticks_at_delivery.set(at);
                    Ok(Flow::Go)
                },
            )
            .unwrap();
        assert_eq!(delivered, [1, 2, 3]);
        // The first result takes 60 ms: the engine ticks every few milliseconds while it waits.
        let at = ticks_at_delivery.take();
        assert!(at[0] >= 3, "ticks before the first result: {at:?}");
        // With one thread the work runs on the calling thread: no ticks.
        let one = Engine::new(Threads::Count(1)).unwrap();
        let mut n = 0;
        let mut calls = 0;
        one.run_ticking::<_, _, (), _, _, _, _>(
            1,
            || calls += 1,
            || {
                n += 1;
                Ok((n <= 2).then_some(n))
            },
            |i, _| i,
            |_| Ok(Flow::Go),
        )
        .unwrap();
        assert_eq!(calls, 0);
    }

    #[test]
    fn stop_and_errors_end_the_run_early() {
        let engine = Engine::new(Threads::Count(3)).unwrap();
        let mut next = 0u64;
        let mut seen = Vec::new();
        engine
            .run::<_, _, (), _, _, _>(
                4,
                || {
                    next += 1;
                    Ok(Some(next))
                },
                |i, _| i,
                |i| {
                    seen.push(i);
                    Ok(if i == 10 { Flow::Stop } else { Flow::Go })
                },
            )
            .unwrap();
        assert_eq!(seen, (1..=10).collect::<Vec<_>>());
        // The window bounds what was made past the stop.
        assert!(next <= 10 + 4 + 1, "{next}");
        let mut next = 0u64;
        let r = engine.run(
            4,
            || {
                next += 1;
                if next == 5 {
                    Err("bad input")
                } else {
                    Ok(Some(next))
                }
            },
            |i, _| i,
            |_| Ok(Flow::Go),
        );
        assert_eq!(r, Err("bad input"));
    }

    #[test]
    fn a_panic_in_work_reaches_the_caller() {
        let engine = Engine::new(Threads::Count(2)).unwrap();
        let r = std::panic::catch_unwind(AssertUnwindSafe(|| {
            let mut next = 0u64;
            engine.run::<_, _, (), _, _, _>(
                4,
                || {
                    next += 1;
                    Ok((next < 50).then_some(next))
                },
                |i, _| assert_ne!(i, 17, "boom"),
                |_| Ok(Flow::Go),
            )
        }));
        assert!(r.is_err());
    }

    #[test]
    fn the_indexed_mode_fills_every_slot_and_returns_the_first_error() {
        for threads in [Threads::Count(1), Threads::Count(3), Threads::Auto] {
            let engine = Engine::new(threads).unwrap();
            let mut out = vec![0u64; 1000];
            engine
                .each::<_, (), _>(4, out.chunks_mut(7).enumerate(), |(k, slot), _| {
                    for (j, v) in slot.iter_mut().enumerate() {
                        *v = (k * 7 + j) as u64 * 3;
                    }
                    Ok(())
                })
                .unwrap();
            assert!(out.iter().enumerate().all(|(i, &v)| v == 3 * i as u64));
            let r = engine.each(
                4,
                0..100u32,
                |i, _| if i % 10 == 9 { Err(i) } else { Ok(()) },
            );
            assert_eq!(r, Err(9));
        }
    }

    #[test]
    fn the_thread_rule() {
        assert_eq!(Threads::count(0), Err(ThreadCountError(0)));
        assert_eq!(
            Threads::count(MAX_THREADS + 1),
            Err(ThreadCountError(MAX_THREADS + 1))
        );
        assert_eq!(Threads::count(3).unwrap().get(), 3);
        assert!(Threads::Auto.get() >= 1);
        assert_eq!(Threads::Count(100_000).get(), MAX_THREADS);
        assert_eq!(Threads::Count(8).at_most(3), Threads::Count(3));
        assert_eq!(Threads::Count(2).at_most(3), Threads::Count(2));
        assert_eq!(Threads::Auto.at_most(MAX_THREADS), Threads::Auto);
        assert_eq!(Threads::Count(1).at_most(0), Threads::Count(1));
        assert_eq!(window(1, 100), 1);
        assert_eq!(window(4, 1), 4 * ITEMS_PER_THREAD);
        assert_eq!(window(64, IN_FLIGHT / 3), 3);
        assert_eq!(window(64, IN_FLIGHT), 2);
    }
}
