//! Where results go: standard output, a file that appears whole or not at all, or a device or FIFO written in
//! place ([`Sink`]); and the one writer thread (`Writer`, private) that writes the buffers of a run in order while the work
//! goes on. Solving, rating and generating all send their preformatted buffers here.
//!
//! A file whose name ends in `.gz`, `.zst`, `.xz` or `.bz2`, and standard output as [`Target::CompressedStdout`],
//! get the bytes compressed on the writer thread, under the same rules: a
//! compressed file appears whole (its stream ended) or not at all.

use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};
use std::thread::JoinHandle;

use crossbeam_channel::{bounded, Receiver, Sender};

pub use crate::compression::Compression;
use crate::compression::Encoder;
use crate::ordered::{Engine, Flow, Threads, ThreadsError};
use crate::record::{Observer, Progress};

/// A failure to write results. The path is the file the user named (not the temporary file).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum OutputError {
    /// The temporary file beside the target could not be created.
    #[error("{}: cannot create output file: {source}", shown(path))]
    Create {
        /// The target the user named.
        path: PathBuf,
        /// The cause.
        source: io::Error,
    },
    /// Writing, flushing or syncing failed (a full disk shows here).
    #[error("{}: write failed: {source}", shown(path))]
    Write {
        /// The target the user named, or `<stdout>`.
        path: PathBuf,
        /// The cause.
        source: io::Error,
    },
    /// Renaming the finished temporary file into place failed.
    #[error("{}: cannot move finished output into place: {source}", shown(path))]
    Rename {
        /// The target the user named.
        path: PathBuf,
        /// The cause.
        source: io::Error,
    },
    /// The run gave up (its writer was aborted): the output was not completed, and a file target was removed.
    #[error("the run stopped before its output was complete")]
    Aborted,
    /// The reader of standard output went away (a closed pipe): the run should end quietly. The cause, an
    /// [`io::Error`] of kind [`io::ErrorKind::BrokenPipe`], is the error's `source()`, so a front end can find a
    /// closed pipe by one walk of the error chain.
    #[error("output pipe closed")]
    BrokenPipe {
        /// The cause, of kind [`io::ErrorKind::BrokenPipe`].
        source: io::Error,
    },
}

/// A path as messages show it ([`crate::record::display_name`]).
fn shown(path: &Path) -> String {
    crate::record::display_name(path.as_os_str().as_encoded_bytes())
}

impl OutputError {
    /// True for a closed pipe on standard output, which ends a run quietly with success.
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, OutputError::BrokenPipe { .. })
    }
}

/// Where a run writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// Standard output.
    Stdout,
    /// A file, written through a temporary file in the same directory and renamed into place when complete;
    /// compressed when its name ends in a [`Compression`]'s extension (`.gz`, `.zst`, `.xz`, `.bz2`).
    File(PathBuf),
    /// Standard output, compressed (never to a terminal).
    CompressedStdout(Compression),
}

impl Target {
    /// `None` or `-` mean standard output.
    pub fn from_arg(path: Option<&Path>) -> Target {
        match path {
            None => Target::Stdout,
            Some(p) if p.as_os_str() == "-" => Target::Stdout,
            Some(p) => Target::File(p.to_path_buf()),
        }
    }

    /// The compression the output gets: the file name's extension says for a file.
    pub(crate) fn compression(&self) -> Option<Compression> {
        match self {
            Target::Stdout => None,
            Target::File(p) => Compression::from_path(p),
            Target::CompressedStdout(c) => Some(*c),
        }
    }

    fn display_path(&self) -> PathBuf {
        match self {
            Target::Stdout | Target::CompressedStdout(_) => PathBuf::from("<stdout>"),
            Target::File(p) => p.clone(),
        }
    }
}

/// A file output starts the writeback of its bytes to disk every this many bytes, without waiting for it, so
/// that the disk works while the run goes on and the sync at the end finds little left to write (without it, a
/// fast run waits at its end for the disk to take the whole output).
const WRITEBACK_STEP: u64 = 2 << 20;

/// An open output.
///
/// - A regular file (new, or existing; through any symlinks, whose final target is what gets replaced) is written
///   to a temporary file in the same directory; [`Sink::finish`] flushes, syncs and renames it into place, with
///   the permission bits (and, where allowed, the owner) of the file it replaces. Where the file system allows it
///   (Linux `O_TMPFILE`), the temporary file has no name until it is complete, so a process killed by any signal,
///   even `SIGKILL` or `SIGBUS`, leaves nothing behind; elsewhere it is a hidden `.NAME.PID.N.tmp` file, removed
///   when the run fails and by [`abandon_all`] on a catchable signal.
/// - A device, FIFO or socket (`/dev/null`, a named pipe, or a symlink to one) is written in place: opened for
///   writing, never replaced, never truncated, never synced.
/// - A path that is the file standard output already writes to (`-o /dev/stdout`) is written through standard
///   output.
///
/// Dropping a `Sink` without finishing removes the temporary file, so a failed run leaves no partial output
/// behind (and an earlier file of that name untouched).
///
/// For a program's own text beside the runs' (its messages, a benchmark's table): written with the same rules as
/// a run's output.
pub struct Sink {
    target: Target,
    inner: SinkInner,
    /// Compresses what is written, when the target asks for it.
    encoder: Option<Encoder>,
}

enum SinkInner {
    /// A duplicate of file descriptor 1, so that large buffers go straight to `write(2)` without the line
    /// buffering of `io::Stdout`.
    Stdout(File),
    /// A device, FIFO or socket, written where it is.
    InPlace(File),
    /// A regular file, written through a temporary file.
    File {
        file: File,
        temp: Temp,
        /// The file the temporary one replaces: the named path with its symlinks followed.
        dest: PathBuf,
        /// Bytes written so far.
        written: u64,
        /// Where the bytes not yet handed to early writeback start.
        unsent: u64,
    },
    Done,
}

/// The temporary file under a regular-file output.
enum Temp {
    /// Created with `O_TMPFILE`: it has no name until it is linked in [`Sink::finish`].
    Unnamed,
    /// A hidden file beside the target, listed in [`PENDING`] while it exists.
    Named(PathBuf),
}

/// Temporary output files of this process that exist under a name, so that [`abandon_all`] can remove them. The
/// lock is also held over every rename into place, so once `abandon_all` holds it no output can appear.
static PENDING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn pending() -> MutexGuard<'static, Vec<PathBuf>> {
    PENDING.lock().unwrap_or_else(|e| e.into_inner())
}

/// For a process that is about to exit on a signal: removes every temporary output file of this process that has
/// a name, and keeps any output from being renamed into place while the returned guard lives. Hold the guard until
/// the process exits. Unnamed temporary files (see [`Sink`]) need nothing: the kernel frees them at exit. For a
/// program's signal handler (the `sudoku` binary calls it on SIGINT, SIGTERM and SIGHUP).
pub fn abandon_all() -> MutexGuard<'static, Vec<PathBuf>> {
    let mut list = pending();
    for path in list.drain(..) {
        let _ = std::fs::remove_file(path);
    }
    list
}

impl Sink {
    /// Opens the target for writing.
    pub fn create(target: &Target) -> Result<Sink, OutputError> {
        let inner = match target {
            Target::Stdout | Target::CompressedStdout(_) => {
                let stdout = dup_stdout().and_then(|out| {
                    use std::io::IsTerminal;
                    if target.compression().is_some() && out.is_terminal() {
                        Err(io::Error::other(
                            "compressed output is not written to a terminal",
                        ))
                    } else {
                        Ok(out)
                    }
                });
                SinkInner::Stdout(stdout.map_err(|source| OutputError::Write {
                    path: target.display_path(),
                    source,
                })?)
            }
            Target::File(path) => open_file_target(path).map_err(|source| OutputError::Create {
                path: path.clone(),
                source,
            })?,
        };
        let encoder = match target.compression() {
            Some(codec) => Some(Encoder::new(codec).map_err(|source| OutputError::Write {
                path: target.display_path(),
                source,
            })?),
            None => None,
        };
        Ok(Sink {
            target: target.clone(),
            inner,
            encoder,
        })
    }

    /// True when the output appears only when finished (a regular file written through a temporary file), false
    /// when bytes reach the target as they are written (standard output, a device, a FIFO).
    pub(crate) fn is_atomic(&self) -> bool {
        matches!(self.inner, SinkInner::File { .. })
    }

    /// True when the output goes to a terminal (standard output, or a device named by `-o`).
    pub fn is_terminal(&self) -> bool {
        use std::io::IsTerminal;
        match &self.inner {
            SinkInner::Stdout(f) | SinkInner::InPlace(f) => f.is_terminal(),
            SinkInner::File { .. } | SinkInner::Done => false,
        }
    }

    /// Writes all of `bytes` (compressed, when the target asks for it); a closed pipe on stdout (or on a FIFO
    /// target) becomes [`OutputError::BrokenPipe`].
    pub fn write_all(&mut self, bytes: &[u8]) -> Result<(), OutputError> {
        let Some(mut encoder) = self.encoder.take() else {
            return self.write_raw(bytes);
        };
        let r = match encoder.write(bytes) {
            Ok(ready) => {
                let r = self.write_raw(ready);
                ready.clear();
                r
            }
            Err(e) => Err(self.write_error(e)),
        };
        self.encoder = Some(encoder);
        r
    }

    /// Ends a compressed stream: its last bytes are written. Nothing to do for plain output.
    fn end_stream(&mut self) -> Result<(), OutputError> {
        match self.encoder.take().map(Encoder::finish) {
            None => Ok(()),
            Some(Ok(tail)) => self.write_raw(&tail),
            Some(Err(e)) => Err(self.write_error(e)),
        }
    }

    fn write_raw(&mut self, bytes: &[u8]) -> Result<(), OutputError> {
        let r = match &mut self.inner {
            SinkInner::Stdout(s) | SinkInner::InPlace(s) => s.write_all(bytes),
            SinkInner::File {
                file,
                written,
                unsent,
                ..
            } => file.write_all(bytes).map(|()| {
                *written += bytes.len() as u64;
                if *written - *unsent >= WRITEBACK_STEP {
                    crate::os::start_writeback(file, *unsent, *written - *unsent);
                    *unsent = *written;
                }
            }),
            SinkInner::Done => Ok(()),
        };
        r.map_err(|e| self.write_error(e))
    }

    /// Completes the output: flushes; for a regular file also syncs it to disk and renames it into place.
    pub fn finish(mut self) -> Result<(), OutputError> {
        self.end_stream()?;
        match std::mem::replace(&mut self.inner, SinkInner::Done) {
            SinkInner::Stdout(mut s) | SinkInner::InPlace(mut s) => {
                s.flush().map_err(|e| self.write_error(e))
            }
            SinkInner::File {
                mut file,
                temp,
                dest,
                ..
            } => {
                let path = self.target.display_path();
                let fail = |temp: &Temp, source| {
                    if let Temp::Named(t) = temp {
                        forget_named(t);
                    }
                    OutputError::Write {
                        path: path.clone(),
                        source,
                    }
                };
                if let Err(e) = file.flush().and_then(|_| file.sync_all()) {
                    return Err(fail(&temp, e));
                }
                // Held until the output is in place: a signal's clean-up waits for it or comes before it.
                let mut list = pending();
                let named = match temp {
                    Temp::Named(t) => t,
                    Temp::Unnamed => {
                        let t = link_beside(&file, &dest).map_err(|e| OutputError::Write {
                            path: path.clone(),
                            source: e,
                        })?;
                        list.push(t.clone());
                        t
                    }
                };
                drop(file);
                let renamed = std::fs::rename(&named, &dest);
                if renamed.is_err() {
                    let _ = std::fs::remove_file(&named);
                }
                list.retain(|p| *p != named);
                renamed.map_err(|source| OutputError::Rename { path, source })
            }
            SinkInner::Done => Ok(()),
        }
    }

    fn write_error(&self, e: io::Error) -> OutputError {
        let piped = matches!(self.inner, SinkInner::Stdout(_) | SinkInner::InPlace(_));
        if e.kind() == io::ErrorKind::BrokenPipe && piped {
            OutputError::BrokenPipe { source: e }
        } else {
            OutputError::Write {
                path: self.target.display_path(),
                source: e,
            }
        }
    }
}

impl Drop for Sink {
    fn drop(&mut self) {
        if let SinkInner::File {
            temp: Temp::Named(t),
            ..
        } = &self.inner
        {
            forget_named(t);
        }
    }
}

/// Removes a named temporary file and drops it from [`PENDING`].
fn forget_named(temp: &Path) {
    let mut list = pending();
    let _ = std::fs::remove_file(temp);
    list.retain(|p| p != temp);
}

/// A handle on standard output of its own: closed (`>&-`) is an error, never output silently lost.
fn dup_stdout() -> io::Result<File> {
    use std::os::fd::AsFd;
    if crate::os::stdout_closed_at_start() {
        return Err(io::Error::new(
            io::ErrorKind::NotConnected,
            "standard output is closed",
        ));
    }
    Ok(File::from(io::stdout().as_fd().try_clone_to_owned()?))
}

/// Decides how a file target is written (see [`Sink`]) and opens it.
fn open_file_target(path: &Path) -> io::Result<SinkInner> {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    // The kernel follows every link, /proc's magic links (`/dev/stdout`) included.
    let (dest, existing) = match std::fs::metadata(path) {
        Ok(meta) if meta.is_dir() => {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "is a directory",
            ))
        }
        Ok(meta) if is_stdout(&meta) => return Ok(SinkInner::Stdout(dup_stdout()?)),
        Ok(meta) if !meta.is_file() => {
            let file = std::fs::OpenOptions::new().write(true).open(path)?;
            return Ok(SinkInner::InPlace(file));
        }
        // A regular file: the temporary file goes beside the file itself, wherever links lead.
        Ok(meta) => (std::fs::canonicalize(path)?, Some(meta)),
        // A new file, maybe named by a dangling link.
        Err(e) if e.kind() == io::ErrorKind::NotFound => (follow_links(path)?, None),
        Err(e) => return Err(e),
    };
    let (file, temp) = create_temp_beside(&dest)?;
    if let Some(meta) = existing {
        let keep = || -> io::Result<()> {
            file.set_permissions(std::fs::Permissions::from_mode(meta.mode() & 0o7777))
        };
        if let Err(e) = keep() {
            if let Temp::Named(t) = &temp {
                forget_named(t);
            }
            return Err(e);
        }
        // Keeping the owner needs privileges most users lack; the file is then the user's, as after `>`.
        let _ = std::os::unix::fs::fchown(&file, Some(meta.uid()), Some(meta.gid()));
    }
    Ok(SinkInner::File {
        file,
        temp,
        dest,
        written: 0,
        unsent: 0,
    })
}

/// `path` with every symlink in its last component followed (relative links resolve from the link's directory),
/// so that a link to a file has its target replaced, not the link itself. A dangling link names the file to create.
fn follow_links(path: &Path) -> io::Result<PathBuf> {
    let mut current = path.to_path_buf();
    for _ in 0..40 {
        match std::fs::symlink_metadata(&current) {
            Ok(m) if m.file_type().is_symlink() => {
                let link = std::fs::read_link(&current)?;
                current = match current.parent() {
                    Some(dir) if link.is_relative() => dir.join(link),
                    _ => link,
                };
            }
            _ => return Ok(current),
        }
    }
    Err(io::Error::new(
        io::ErrorKind::InvalidInput,
        "too many levels of symbolic links",
    ))
}

/// True when `meta` is the file that standard output already writes to.
fn is_stdout(meta: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    dup_stdout()
        .and_then(|f| f.metadata())
        .is_ok_and(|out| out.dev() == meta.dev() && out.ino() == meta.ino())
}

/// The directory a temporary file for `path` goes in, and the name of `path` in it.
fn temp_place(path: &Path) -> io::Result<(PathBuf, std::ffi::OsString)> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "not a file name"))?
        .to_os_string();
    Ok((dir, name))
}

/// The longest file name most file systems take (`NAME_MAX`).
const NAME_MAX: usize = 255;

/// The name of temporary file `n` for a target named `name`: `.NAME.PID.N.tmp`, or `.sudoku.PID.N.tmp` when that
/// would be longer than a file name may be (a target name of 244 bytes or more).
fn temp_name(name: &std::ffi::OsStr, pid: u32, n: u32, short: bool) -> std::ffi::OsString {
    let tail = format!(".{pid}.{n}.tmp");
    let mut temp = std::ffi::OsString::from(".");
    if short || 1 + name.len() + tail.len() > NAME_MAX {
        temp.push("sudoku");
    } else {
        temp.push(name);
    }
    temp.push(tail);
    temp
}

/// Calls `make` with `.NAME.PID.N.tmp` beside `path` for N = 0, 1, ... until it does not find the name taken. A
/// file system that finds the name too long gets the short form of [`temp_name`].
fn with_free_name<T>(path: &Path, mut make: impl FnMut(&Path) -> io::Result<T>) -> io::Result<T> {
    let (dir, name) = temp_place(path)?;
    let pid = std::process::id();
    let mut short = false;
    let mut n = 0u32;
    while n < 1000 {
        let temp = dir.join(temp_name(&name, pid, n, short));
        match make(&temp) {
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => n += 1,
            Err(e) if name_too_long(&e) && !short => short = true,
            other => return other,
        }
    }
    Err(io::Error::new(
        io::ErrorKind::AlreadyExists,
        "no free temporary file name",
    ))
}

/// True when `e` says a name is longer than the file system takes.
fn name_too_long(e: &io::Error) -> bool {
    #[cfg(target_os = "linux")]
    return e.raw_os_error() == Some(libc::ENAMETOOLONG);
    #[cfg(not(target_os = "linux"))]
    return e.raw_os_error() == Some(63);
}

/// Creates the temporary file for `path` in its directory: unnamed where the file system supports it, otherwise
/// a new `.NAME.PID.N.tmp` (never overwriting an existing file), listed in [`PENDING`].
fn create_temp_beside(path: &Path) -> io::Result<(File, Temp)> {
    let (dir, _) = temp_place(path)?;
    if let Some(file) = crate::os::create_unnamed(&dir)? {
        return Ok((file, Temp::Unnamed));
    }
    let mut list = pending();
    let (file, temp) = with_free_name(path, |temp| {
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(temp)
            .map(|f| (f, temp.to_path_buf()))
    })?;
    list.push(temp.clone());
    Ok((file, Temp::Named(temp)))
}

/// Gives the finished unnamed temporary file a name beside `path`, ready to be renamed over it.
fn link_beside(file: &File, path: &Path) -> io::Result<PathBuf> {
    with_free_name(path, |temp| {
        crate::os::link_unnamed(file, temp).map(|()| temp.to_path_buf())
    })
}

/// What the writer thread wrote.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct WriteSummary {
    /// Bytes written.
    pub bytes: u64,
    /// Buffers written.
    pub buffers: u64,
}

/// The writer thread has stopped (an error or a closed pipe); the reason comes from [`Writer::finish`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the output writer has stopped")]
pub(crate) struct WriterStopped;

enum Message {
    Bytes(Vec<u8>),
    Abort,
}

/// One writer thread that writes the buffers it is sent, in the order sent (the crate's ordered engine
/// delivers them in input order), so that writing overlaps the work. Written buffers are cleared and handed back for
/// reuse through [`Writer::buffer`]. At most `capacity` buffers wait in its channel, so memory stays flat.
///
/// Dropping a `Writer` without [`Writer::finish`] (an error or a panic on the way) aborts it: the output is not
/// completed, and a file target is removed.
pub(crate) struct Writer {
    tx: Option<Sender<Message>>,
    pool: Receiver<Vec<u8>>,
    handle: Option<JoinHandle<Result<WriteSummary, OutputError>>>,
}

impl Writer {
    /// Starts the writer thread on `sink`; at most `capacity` buffers wait in the channel.
    pub(crate) fn spawn(sink: Sink, capacity: usize) -> Writer {
        let capacity = capacity.max(1);
        let (tx, rx) = bounded::<Message>(capacity);
        let (pool_tx, pool) = bounded::<Vec<u8>>(capacity * 2);
        let handle = std::thread::Builder::new()
            .name("sudoku-writer".into())
            .spawn(move || write_all(sink, rx, pool_tx))
            .expect("spawn writer thread");
        Writer {
            tx: Some(tx),
            pool,
            handle: Some(handle),
        }
    }

    /// A cleared buffer for the next piece of output: a recycled one when available, otherwise a new one with
    /// `capacity`. Callable from any thread.
    pub(crate) fn buffer(&self, capacity: usize) -> Vec<u8> {
        match self.pool.try_recv() {
            Ok(mut b) => {
                b.clear();
                b.reserve(capacity);
                b
            }
            Err(_) => Vec::with_capacity(capacity),
        }
    }

    /// Hands the next buffer to the writer; blocks while the channel is full.
    pub(crate) fn send(&self, buf: Vec<u8>) -> Result<(), WriterStopped> {
        match &self.tx {
            Some(tx) => tx.send(Message::Bytes(buf)).map_err(|_| WriterStopped),
            None => Err(WriterStopped),
        }
    }

    /// Gives up on the output: nothing more is written, and a file target is removed instead of completed.
    pub(crate) fn abort(mut self) {
        let _ = self.stop(true);
    }

    /// Waits until every buffer sent has been written, then completes the sink (flush, sync, rename).
    pub(crate) fn finish(mut self) -> Result<WriteSummary, OutputError> {
        self.stop(false)
    }

    fn stop(&mut self, abort: bool) -> Result<WriteSummary, OutputError> {
        if let Some(tx) = self.tx.take() {
            if abort {
                let _ = tx.send(Message::Abort);
            }
        }
        match self.handle.take().map(JoinHandle::join) {
            Some(Ok(r)) => r,
            Some(Err(p)) => std::panic::resume_unwind(p),
            None => Err(OutputError::Aborted),
        }
    }
}

impl Drop for Writer {
    fn drop(&mut self) {
        if self.handle.is_some() {
            if let Some(tx) = self.tx.take() {
                let _ = tx.send(Message::Abort);
            }
            if let Some(h) = self.handle.take() {
                let _ = h.join();
            }
        }
    }
}

fn write_all(
    mut sink: Sink,
    rx: Receiver<Message>,
    pool: Sender<Vec<u8>>,
) -> Result<WriteSummary, OutputError> {
    let mut summary = WriteSummary::default();
    for message in rx.iter() {
        let mut buf = match message {
            Message::Bytes(buf) => buf,
            // Dropping the sink removes a temporary file.
            Message::Abort => return Err(OutputError::Aborted),
        };
        sink.write_all(&buf)?;
        summary.bytes += buf.len() as u64;
        summary.buffers += 1;
        buf.clear();
        let _ = pool.try_send(buf);
    }
    sink.finish()?;
    Ok(summary)
}

/// Buffers waiting for the writer, at most.
const WRITER_QUEUE: usize = 8;

/// The parts of a run that works on the engine of [`crate::ordered`] and writes what it makes, in order, to one
/// target, sized by one rule for every kind of run (batch, boards, puzzles): the window of
/// [`ordered::window`](crate::ordered::window) for the size of a work item, no more workers than the window, and a
/// writer queue of two buffers per worker, at most [`WRITER_QUEUE`] (the window bounds the items being worked on,
/// this the ones being written). [`Ordered::put`] is the in-order end of a run: bytes to the writer, progress to
/// the observer.
pub(crate) struct Ordered {
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

impl Ordered {
    /// Starts the workers and the writer of a run on `threads` whose work items hold about `item_bytes` bytes.
    pub(crate) fn start<E>(
        threads: Threads,
        item_bytes: usize,
        target: &Target,
    ) -> Result<Ordered, E>
    where
        E: From<ThreadsError> + From<OutputError>,
    {
        let window = crate::ordered::window(threads.get(), item_bytes);
        let engine = Engine::new(threads.at_most(window))?;
        let sink = Sink::create(target)?;
        let atomic = sink.is_atomic();
        let terminal = sink.is_terminal();
        let writer = Writer::spawn(sink, (2 * engine.threads()).min(WRITER_QUEUE));
        Ok(Ordered {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_buffers_in_order_and_renames_into_place() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        let w = Writer::spawn(Sink::create(&Target::File(path.clone())).unwrap(), 4);
        for i in 0..50u64 {
            let mut b = w.buffer(8);
            b.extend_from_slice(format!("{i}\n").as_bytes());
            w.send(b).unwrap();
        }
        // Nothing is visible under the final name before finish.
        assert!(!path.exists());
        let summary = w.finish().unwrap();
        assert_eq!(summary.buffers, 50);
        let text = std::fs::read_to_string(&path).unwrap();
        let expect: String = (0..50).map(|i| format!("{i}\n")).collect();
        assert_eq!(text, expect);
        // No temporary files are left.
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 1);
    }

    #[test]
    fn a_file_named_for_a_codec_is_written_compressed_whole_or_not_at_all() {
        use std::io::Read;
        let dir = tempfile::tempdir().unwrap();
        let text: Vec<u8> = (0..20_000u32)
            .flat_map(|i| format!("{i:081}\n").into_bytes())
            .collect();
        for codec in Compression::ALL {
            let path = dir.path().join(format!("out.txt.{}", codec.extension()));
            let w = Writer::spawn(Sink::create(&Target::File(path.clone())).unwrap(), 4);
            for piece in text.chunks(70_001) {
                w.send(piece.to_vec()).unwrap();
            }
            assert!(!path.exists());
            w.finish().unwrap();
            let packed = std::fs::read(&path).unwrap();
            assert_eq!(Compression::detect(&packed), Some(codec));
            let mut back = Vec::new();
            codec
                .decoder(&packed[..])
                .unwrap()
                .read_to_end(&mut back)
                .unwrap();
            assert!(back == text, "{codec}");
            // An aborted one is not created.
            let gone = dir.path().join(format!("gone.{}", codec.extension()));
            let w = Writer::spawn(Sink::create(&Target::File(gone.clone())).unwrap(), 4);
            w.send(text.clone()).unwrap();
            w.abort();
            assert!(!gone.exists());
        }
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 4);
    }

    #[test]
    fn a_dropped_sink_leaves_no_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("never.txt");
        {
            let mut s = Sink::create(&Target::File(path.clone())).unwrap();
            s.write_all(b"partial").unwrap();
        }
        assert!(!path.exists());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn a_dropped_writer_leaves_no_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("dropped.txt");
        let w = Writer::spawn(Sink::create(&Target::File(path.clone())).unwrap(), 4);
        w.send(b"a\n".to_vec()).unwrap();
        drop(w);
        assert!(!path.exists());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn an_aborted_output_is_removed_not_completed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("aborted.txt");
        let w = Writer::spawn(Sink::create(&Target::File(path.clone())).unwrap(), 4);
        w.send(b"a\n".to_vec()).unwrap();
        w.abort();
        assert!(!path.exists());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn full_disk_is_reported() {
        let full = Path::new("/dev/full");
        if !full.exists() {
            eprintln!("skipped: /dev/full not found");
            return;
        }
        // A device is written in place, so its write error is the disk-full error itself.
        let mut s = Sink::create(&Target::File(full.to_path_buf())).unwrap();
        assert!(matches!(s.inner, SinkInner::InPlace(_)));
        let big = vec![b'1'; 1 << 16];
        let e = s.write_all(&big).unwrap_err();
        assert!(e.to_string().contains("/dev/full: write failed"), "{e}");
        assert!(!e.is_broken_pipe());
    }

    #[test]
    fn a_device_is_written_in_place_and_stays_a_device() {
        use std::os::unix::fs::FileTypeExt;
        let null = Path::new("/dev/null");
        let mut s = Sink::create(&Target::File(null.to_path_buf())).unwrap();
        s.write_all(b"nothing\n").unwrap();
        s.finish().unwrap();
        assert!(std::fs::metadata(null)
            .unwrap()
            .file_type()
            .is_char_device());
        // Through a symlink too.
        let dir = tempfile::tempdir().unwrap();
        let link = dir.path().join("null-link");
        std::os::unix::fs::symlink(null, &link).unwrap();
        let mut s = Sink::create(&Target::File(link.clone())).unwrap();
        s.write_all(b"x").unwrap();
        s.finish().unwrap();
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn a_symlink_has_its_target_replaced_and_modes_are_kept() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("real")).unwrap();
        let real = dir.path().join("real/out.txt");
        std::fs::write(&real, b"old\n").unwrap();
        std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o640)).unwrap();
        let link = dir.path().join("link.txt");
        std::os::unix::fs::symlink("real/out.txt", &link).unwrap();
        let mut s = Sink::create(&Target::File(link.clone())).unwrap();
        s.write_all(b"new\n").unwrap();
        s.finish().unwrap();
        assert_eq!(
            std::fs::read_link(&link).unwrap(),
            Path::new("real/out.txt")
        );
        assert_eq!(std::fs::read(&real).unwrap(), b"new\n");
        let mode = std::fs::metadata(&real).unwrap().permissions().mode();
        assert_eq!(mode & 0o7777, 0o640);
        // Nothing else was left in either directory.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
        assert_eq!(
            std::fs::read_dir(dir.path().join("real")).unwrap().count(),
            1
        );
    }

    #[test]
    fn a_directory_target_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let e = Sink::create(&Target::File(dir.path().to_path_buf()))
            .err()
            .unwrap();
        assert!(e.to_string().ends_with("is a directory"), "{e}");
    }

    #[test]
    fn missing_directory_is_a_create_error() {
        let e = Sink::create(&Target::File(PathBuf::from("/nonexistent-dir/x/out.txt")))
            .err()
            .unwrap();
        assert!(e
            .to_string()
            .starts_with("/nonexistent-dir/x/out.txt: cannot create output file"));
    }

    #[test]
    fn early_writeback_keeps_every_byte_in_place() {
        // Writes of odd sizes cross several writeback steps; the file must hold exactly what was written.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big.bin");
        let mut sink = Sink::create(&Target::File(path.clone())).unwrap();
        let mut expect = Vec::new();
        let mut n = 0u32;
        while expect.len() < 3 * WRITEBACK_STEP as usize + 12_345 {
            let piece: Vec<u8> = (0..300_007u32)
                .map(|i| (i.wrapping_mul(31) ^ n) as u8)
                .collect();
            sink.write_all(&piece).unwrap();
            expect.extend_from_slice(&piece);
            n += 1;
        }
        // Writeback was started over the whole steps written so far.
        assert!(
            matches!(sink.inner, SinkInner::File { unsent, .. } if unsent >= 3 * WRITEBACK_STEP),
            "writeback was never started"
        );
        sink.finish().unwrap();
        assert!(std::fs::read(&path).unwrap() == expect);
    }
}
