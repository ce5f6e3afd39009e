//! A run on the ordered engine of [`crate::ordered`] that feeds one writer of [`crate::output`]: the workers and
//! the writer thread started together, sized by one rule for every kind of run (batch, boards, puzzles), and the
//! in-order end of such a run ([`OrderedRun::put`]). The engine itself knows nothing of output; this is where the
//! two meet.

use crate::ordered::{Engine, Flow, Threads, ThreadsError};
use crate::output::{OutputError, Sink, Target, Writer};
use crate::record::{Observer, Progress};

/// Buffers waiting for the writer, at most.
const WRITER_QUEUE: usize = 8;

/// The parts of a run that works on the engine of [`crate::ordered`] and writes what it makes, in order, to one
/// target, sized by one rule for every kind of run (batch, boards, puzzles): the window of
/// [`ordered::window`](crate::ordered::window) for the size of a work item, no more workers than the window, and a
/// writer queue of two buffers per worker, at most [`WRITER_QUEUE`] (the window bounds the items being worked on,
/// this the ones being written). [`OrderedRun::put`] is the in-order end of a run: bytes to the writer, progress to
/// the observer.
pub(crate) struct OrderedRun {
    /// The workers.
    pub(crate) engine: Engine,
    /// The writer thread, on the run's target.
    pub(crate) writer: Writer,
    /// Work items in flight at most.
    pub(crate) window: usize,
    /// Whether the target appears whole or not at all ([`Sink::is_atomic`]).
    pub(crate) atomic: bool,
    /// Whether the target is a terminal ([`Sink::is_terminal`]).
    pub(crate) terminal: bool,
}

impl OrderedRun {
    /// Starts the workers and the writer of a run on `threads` whose work items hold about `item_bytes` bytes.
    pub(crate) fn start<E>(
        threads: Threads,
        item_bytes: usize,
        target: &Target,
    ) -> Result<OrderedRun, E>
    where
        E: From<ThreadsError> + From<OutputError>,
    {
        let window = crate::ordered::window(threads.get(), item_bytes);
        let engine = Engine::new(threads.at_most(window))?;
        let sink = Sink::create(target)?;
        let atomic = sink.is_atomic();
        let terminal = sink.is_terminal();
        let writer = Writer::spawn(sink, (2 * engine.threads()).min(WRITER_QUEUE));
        Ok(OrderedRun {
            engine,
            writer,
            window,
            atomic,
            terminal,
        })
    }

    /// Sends `bytes` to the writer, then tells `observer` the run's `progress`; [`Flow::Stop`] when the writer has
    /// stopped (its [`Writer::finish`] says why).
    pub(crate) fn put(
        &self,
        bytes: Vec<u8>,
        progress: Progress,
        observer: &mut dyn Observer,
    ) -> Flow {
        if self.writer.send(bytes).is_err() {
            return Flow::Stop;
        }
        observer.progress(progress);
        Flow::Go
    }
}
