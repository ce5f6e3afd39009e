//! The search itself: the frontier (puzzles to go on from, best rated first, each with its place in its
//! neighbourhood), the classes seen, the counts, and the worker loop that takes one removal set of the best node at
//! a time, makes its candidates, and rates those of new classes.

use std::cmp::Ordering as Order;
use std::collections::{BinaryHeap, HashSet};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use crossbeam_channel::Sender;

use crate::generate::{rate_in, SeWindow, SeWindows, Verdict};
use crate::grid::rng::{mix64, SplitMix64};
use crate::grid::Grid;
use crate::human::Tenths;
use crate::tools::{canon, Key};

use super::moves::{neighbours, removals, Made, Removal};
use super::options::{Find, HuntOptions, HuntProgress, Seed};

/// The priority of a seed rated beyond SE's ladder (its ER unknown, above 10.5): above every rating.
const BEYOND: u16 = 1000;

/// A puzzle of the frontier and how far its neighbourhood has been gone through.
struct Node {
    puzzle: Grid,
    /// The ER in tenths ([`BEYOND`] above the ladder); `None` for a seed not rated yet (taken first).
    priority: Option<u16>,
    /// Order of arrival: among equal priorities, the earlier first.
    seq: u64,
    /// The move being gone through (index into the options' moves).
    move_at: usize,
    /// That move's removal sets, made when the move is reached.
    removals: Option<Vec<Removal>>,
    /// The next removal set to hand out.
    next: usize,
    /// The order of the removal sets.
    rng: SplitMix64,
}

impl Node {
    fn new(puzzle: Grid, priority: Option<u16>, seq: u64, seed: u64) -> Node {
        Node {
            puzzle,
            priority,
            seq,
            move_at: 0,
            removals: None,
            next: 0,
            rng: SplitMix64::new(mix64(seed ^ mix64(seq))),
        }
    }

    /// The next removal set of the neighbourhood and the clues to add after it; `None` when all were handed out.
    fn take(&mut self, options: &HuntOptions) -> Option<(Removal, u8)> {
        while let Some(&m) = options.moves.get(self.move_at) {
            let sets = self
                .removals
                .get_or_insert_with(|| removals(&self.puzzle, m.remove(), &mut self.rng));
            if let Some(&r) = sets.get(self.next) {
                self.next += 1;
                return Some((r, m.add()));
            }
            self.move_at += 1;
            self.removals = None;
            self.next = 0;
        }
        None
    }

    fn key(&self) -> (u16, std::cmp::Reverse<u64>) {
        (
            self.priority.unwrap_or(u16::MAX),
            std::cmp::Reverse(self.seq),
        )
    }
}

impl PartialEq for Node {
    fn eq(&self, other: &Node) -> bool {
        self.key() == other.key()
    }
}

impl Eq for Node {}

impl PartialOrd for Node {
    fn partial_cmp(&self, other: &Node) -> Option<Order> {
        Some(self.cmp(other))
    }
}

impl Ord for Node {
    fn cmp(&self, other: &Node) -> Order {
        self.key().cmp(&other.key())
    }
}

/// The nodes waiting, and how many workers are busy (the search is over when none is and none waits).
#[derive(Default)]
struct Frontier {
    heap: BinaryHeap<Node>,
    busy: usize,
    next_seq: u64,
}

/// A piece of work for one worker.
enum Work {
    /// Rate a seed, to give it its place in the frontier.
    RateSeed(Node),
    /// Make the candidates of one removal set of `parent` and rate the new ones.
    Expand {
        parent: Grid,
        removal: Removal,
        add: u8,
    },
}

/// What the workers share.
pub(super) struct Shared<'a> {
    options: &'a HuntOptions,
    window: SeWindows,
    frontier: Mutex<Frontier>,
    ready: Condvar,
    /// Set to end the search: every worker stops at its next look (the rater looks after every step).
    pub(super) halt: AtomicBool,
    /// Set when the search ended for want of work.
    pub(super) exhausted: AtomicBool,
    seen: Mutex<HashSet<Key>>,
    pub(super) tried: AtomicU64,
    pub(super) unique: AtomicU64,
    pub(super) rated: AtomicU64,
}

/// A worker's poll of the halt flag while it waits for work.
const WAIT: Duration = Duration::from_millis(50);

fn locked<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The class of a puzzle with one solution (such a puzzle has no clash).
pub(super) fn class_of(g: &Grid) -> Key {
    let form = canon(g).expect("a puzzle with a solution has no clashing givens");
    Key::of(&form).expect("canon gives a canonical form")
}

impl<'a> Shared<'a> {
    /// The search over `seeds` (distinct classes, each with one solution), with `seen` holding the classes to
    /// skip.
    pub(super) fn new(options: &'a HuntOptions, seeds: &[Seed], seen: HashSet<Key>) -> Shared<'a> {
        let mut frontier = Frontier::default();
        for s in seeds {
            let seq = frontier.next_seq;
            frontier.next_seq += 1;
            let priority = s.er.map(|t| u16::from(t.0));
            frontier
                .heap
                .push(Node::new(s.puzzle, priority, seq, options.seed));
        }
        Shared {
            options,
            window: SeWindows {
                er: Some(SeWindow::at_least(options.min_er)),
                ..SeWindows::default()
            },
            frontier: Mutex::new(frontier),
            ready: Condvar::new(),
            halt: AtomicBool::new(false),
            exhausted: AtomicBool::new(false),
            seen: Mutex::new(seen),
            tried: AtomicU64::new(0),
            unique: AtomicU64::new(0),
            rated: AtomicU64::new(0),
        }
    }

    /// Nodes waiting.
    /// The progress of a hunt started at `started` that has reported `found` finds.
    pub(super) fn progress(&self, found: u64, started: std::time::Instant) -> HuntProgress {
        HuntProgress {
            tried: self.tried.load(Ordering::Relaxed),
            unique: self.unique.load(Ordering::Relaxed),
            rated: self.rated.load(Ordering::Relaxed),
            found,
            frontier: self.frontier_len(),
            elapsed: started.elapsed(),
        }
    }

    pub(super) fn frontier_len(&self) -> usize {
        locked(&self.frontier).heap.len()
    }

    /// Ends the search (workers stop at their next look) and wakes the waiting ones.
    pub(super) fn stop(&self) {
        self.halt.store(true, Ordering::Relaxed);
        self.ready.notify_all();
    }

    fn halted(&self) -> bool {
        self.halt.load(Ordering::Relaxed)
    }

    /// The next piece of work, best node first; `None` once the search is halted or over (no node left and no
    /// worker busy, which may yet add some).
    fn next_work(&self) -> Option<Work> {
        let mut f = locked(&self.frontier);
        loop {
            if self.halted() {
                return None;
            }
            if let Some(mut node) = f.heap.pop() {
                if node.priority.is_none() {
                    f.busy += 1;
                    return Some(Work::RateSeed(node));
                }
                if let Some((removal, add)) = node.take(self.options) {
                    let parent = node.puzzle;
                    f.heap.push(node);
                    f.busy += 1;
                    return Some(Work::Expand {
                        parent,
                        removal,
                        add,
                    });
                }
                // That node's neighbourhood is all handed out.
                continue;
            }
            if f.busy == 0 {
                self.exhausted.store(true, Ordering::Relaxed);
                self.stop();
                return None;
            }
            f = self
                .ready
                .wait_timeout(f, WAIT)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
    }

    fn done(&self) {
        locked(&self.frontier).busy -= 1;
        self.ready.notify_all();
    }

    fn push(&self, puzzle: Grid, priority: u16, rerate: Option<Node>) {
        let mut f = locked(&self.frontier);
        let node = match rerate {
            Some(mut node) => {
                node.priority = Some(priority);
                node
            }
            None => {
                let seq = f.next_seq;
                f.next_seq += 1;
                Node::new(puzzle, Some(priority), seq, self.options.seed)
            }
        };
        f.heap.push(node);
        drop(f);
        self.ready.notify_one();
    }

    /// Rates `seed`'s node in full and puts it back at its place.
    fn rate_seed(&self, node: Node) {
        let all = SeWindows {
            er: Some(SeWindow::at_least(Tenths(0))),
            ..SeWindows::default()
        };
        let priority = match rate_in(&node.puzzle, &all, Some(&self.halt)) {
            Verdict::Inside(r) => r.er.map_or(BEYOND, |t| u16::from(t.0)),
            // A seed has one solution: outside a window open at both ends is beyond the ladder.
            Verdict::Outside => BEYOND,
            Verdict::Stopped => return,
        };
        self.push(node.puzzle, priority, Some(node));
    }

    /// Makes the candidates of one removal set, rates those of classes not seen yet, and sends the finds.
    fn expand(&self, parent: &Grid, removal: &Removal, add: u8, finds: &Sender<Find>) {
        let mut made = Made::default();
        let candidates = neighbours(parent, removal, add, self.options.minimal, &mut made);
        self.tried.fetch_add(made.tried, Ordering::Relaxed);
        self.unique.fetch_add(made.kept, Ordering::Relaxed);
        for puzzle in candidates {
            if self.halted() {
                return;
            }
            if !locked(&self.seen).insert(class_of(&puzzle)) {
                continue;
            }
            match rate_in(&puzzle, &self.window, Some(&self.halt)) {
                Verdict::Stopped => return,
                Verdict::Outside => {
                    self.rated.fetch_add(1, Ordering::Relaxed);
                }
                Verdict::Inside(rating) => {
                    self.rated.fetch_add(1, Ordering::Relaxed);
                    let er = rating.er.expect("a rating inside an ER window has an ER");
                    self.push(puzzle, u16::from(er.0), None);
                    // The receiver goes only once every worker is done.
                    let _ = finds.send(Find { puzzle, rating });
                }
            }
        }
    }
}

/// Halts the search when a worker unwinds from a panic, so the others do not go on for nothing.
struct HaltOnPanic<'s, 'a>(&'s Shared<'a>);

impl Drop for HaltOnPanic<'_, '_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.stop();
        }
    }
}

/// One worker: takes work until the search is halted or over.
pub(super) fn work(shared: &Shared<'_>, finds: &Sender<Find>) {
    let _guard = HaltOnPanic(shared);
    while let Some(w) = shared.next_work() {
        match w {
            Work::RateSeed(node) => shared.rate_seed(node),
            Work::Expand {
                parent,
                removal,
                add,
            } => shared.expand(&parent, &removal, add, finds),
        }
        shared.done();
    }
}
