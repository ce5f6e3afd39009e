//! Where results go: standard output or a file that appears whole or not at all, and the one ordered writer thread
//! that puts numbered buffers back in order and writes them. Solving and generating both send their preformatted
//! buffers here.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::thread::JoinHandle;

use crossbeam_channel::{bounded, Receiver, Sender};

/// A failure to write results. The path is the file the user named (not the temporary file).
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    /// The temporary file beside the target could not be created.
    #[error("{path}: cannot create output file: {source}")]
    Create {
        /// The target the user named.
        path: PathBuf,
        /// The cause.
        source: io::Error,
    },
    /// Writing, flushing or syncing failed (a full disk shows here).
    #[error("{path}: write failed: {source}")]
    Write {
        /// The target the user named, or `<stdout>`.
        path: PathBuf,
        /// The cause.
        source: io::Error,
    },
    /// Renaming the finished temporary file into place failed.
    #[error("{path}: cannot move finished output into place: {source}")]
    Rename {
        /// The target the user named.
        path: PathBuf,
        /// The cause.
        source: io::Error,
    },
    /// A producer gave up (see [`OrderedSender::abort`]): the output was not completed, and a file target was removed.
    #[error("the run stopped before its output was complete")]
    Aborted,
    /// The reader of standard output went away (a closed pipe): the run should end quietly.
    #[error("output pipe closed")]
    BrokenPipe,
}

impl OutputError {
    /// True for a closed pipe on standard output, which ends a run quietly with success.
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, OutputError::BrokenPipe)
    }
}

/// Where a run writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// Standard output.
    Stdout,
    /// A file, written through a temporary file in the same directory and renamed into place when complete.
    File(PathBuf),
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

    fn display_path(&self) -> PathBuf {
        match self {
            Target::Stdout => PathBuf::from("<stdout>"),
            Target::File(p) => p.clone(),
        }
    }
}

/// A file output starts the writeback of its bytes to disk every this many bytes, without waiting for it, so
/// that the disk works while the run goes on and the sync at the end finds little left to write (for 1,000,000
/// generated boards this took the run from about 1.3x to about 1.0x the time of a plain `dd` of the same size).
const WRITEBACK_STEP: u64 = 2 << 20;

/// An open output. A file target is written to a temporary file; [`Sink::finish`] flushes, syncs and renames it
/// into place. Dropping a `Sink` without finishing removes the temporary file, so a failed run leaves no partial
/// output behind (and an earlier file of that name untouched).
pub struct Sink {
    target: Target,
    inner: SinkInner,
}

enum SinkInner {
    /// A duplicate of file descriptor 1, so that large buffers go straight to `write(2)` without the line
    /// buffering of `io::Stdout`.
    Stdout(File),
    File {
        file: File,
        temp: PathBuf,
        /// Bytes written so far.
        written: u64,
        /// Where the bytes not yet handed to early writeback start.
        unsent: u64,
    },
    Done,
}

impl Sink {
    /// Opens the target for writing.
    pub fn create(target: &Target) -> Result<Sink, OutputError> {
        let inner = match target {
            Target::Stdout => {
                use std::os::fd::AsFd;
                let fd = io::stdout()
                    .as_fd()
                    .try_clone_to_owned()
                    .map_err(|source| OutputError::Write {
                        path: target.display_path(),
                        source,
                    })?;
                SinkInner::Stdout(File::from(fd))
            }
            Target::File(path) => {
                let (file, temp) =
                    create_temp_beside(path).map_err(|source| OutputError::Create {
                        path: path.clone(),
                        source,
                    })?;
                SinkInner::File {
                    file,
                    temp,
                    written: 0,
                    unsent: 0,
                }
            }
        };
        Ok(Sink {
            target: target.clone(),
            inner,
        })
    }

    /// Writes all of `bytes`; a closed pipe on stdout becomes [`OutputError::BrokenPipe`].
    pub fn write_all(&mut self, bytes: &[u8]) -> Result<(), OutputError> {
        let r = match &mut self.inner {
            SinkInner::Stdout(s) => s.write_all(bytes),
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

    /// Completes the output: flushes; for a file also syncs it to disk and renames it into place.
    pub fn finish(mut self) -> Result<(), OutputError> {
        match std::mem::replace(&mut self.inner, SinkInner::Done) {
            SinkInner::Stdout(mut s) => s.flush().map_err(|e| self.write_error(e)),
            SinkInner::File { mut file, temp, .. } => {
                let path = self.target.display_path();
                let synced = file.flush().and_then(|_| file.sync_all());
                drop(file);
                if let Err(source) = synced {
                    let _ = std::fs::remove_file(&temp);
                    return Err(OutputError::Write { path, source });
                }
                if let Err(source) = std::fs::rename(&temp, &path) {
                    let _ = std::fs::remove_file(&temp);
                    return Err(OutputError::Rename { path, source });
                }
                Ok(())
            }
            SinkInner::Done => Ok(()),
        }
    }

    fn write_error(&self, e: io::Error) -> OutputError {
        if e.kind() == io::ErrorKind::BrokenPipe && self.target == Target::Stdout {
            OutputError::BrokenPipe
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
        if let SinkInner::File { temp, .. } = &self.inner {
            let _ = std::fs::remove_file(temp);
        }
    }
}

/// Creates `.NAME.PID.N.tmp` beside `path`, failing rather than overwriting an existing file.
fn create_temp_beside(path: &Path) -> io::Result<(File, PathBuf)> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "not a file name"))?
        .to_string_lossy()
        .into_owned();
    let pid = std::process::id();
    for n in 0..1000u32 {
        let temp = dir.join(format!(".{name}.{pid}.{n}.tmp"));
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&temp)
        {
            Ok(f) => return Ok((f, temp)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::new(
        io::ErrorKind::AlreadyExists,
        "no free temporary file name",
    ))
}

/// What the writer thread wrote.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WriteSummary {
    /// Bytes written.
    pub bytes: u64,
    /// Buffers written.
    pub buffers: u64,
}

/// The producers' end of the writer thread was dropped or the writer stopped (an error or a closed pipe); the
/// reason comes from [`OrderedWriter::finish`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the output writer has stopped")]
pub struct WriterStopped;

/// One writer thread that receives `(index, buffer)` pairs in any order and writes them in index order, starting at
/// 0 with no gaps. Written buffers are cleared and handed back for reuse through [`OrderedWriter::buffer`].
///
/// Memory: the channel holds at most `capacity` buffers, and the writer holds out-of-order buffers until the gap
/// before them is filled, so producers must keep the indices in flight within a window (for example by working
/// through the input in windows of a few chunks per thread); then memory stays flat for any input size.
pub struct OrderedWriter {
    sender: OrderedSender,
    handle: JoinHandle<Result<WriteSummary, OutputError>>,
}

impl OrderedWriter {
    /// Starts the writer thread on `sink`; at most `capacity` buffers wait in the channel.
    pub fn spawn(sink: Sink, capacity: usize) -> OrderedWriter {
        let capacity = capacity.max(1);
        let (tx, rx) = bounded::<(u64, Vec<u8>)>(capacity);
        let (pool_tx, pool) = bounded::<Vec<u8>>(capacity * 2);
        let handle = std::thread::Builder::new()
            .name("sudoku-writer".into())
            .spawn(move || write_in_order(sink, rx, pool_tx))
            .expect("spawn writer thread");
        OrderedWriter {
            sender: OrderedSender { tx, pool },
            handle,
        }
    }

    /// A cleared buffer for the next chunk: a recycled one when available, otherwise a new one with `capacity`.
    pub fn buffer(&self, capacity: usize) -> Vec<u8> {
        self.sender.buffer(capacity)
    }

    /// Hands buffer `index` to the writer; blocks while the channel is full.
    pub fn send(&self, index: u64, buf: Vec<u8>) -> Result<(), WriterStopped> {
        self.sender.send(index, buf)
    }

    /// A cheap handle for producers on other threads.
    pub fn sender(&self) -> OrderedSender {
        self.sender.clone()
    }

    /// Gives up on the output: nothing more is written, and a file target is removed instead of completed.
    pub fn abort(self) {
        self.sender.abort();
        let _ = self.finish();
    }

    /// Waits until every buffer sent has been written, then completes the sink (flush, sync, rename).
    pub fn finish(self) -> Result<WriteSummary, OutputError> {
        drop(self.sender);
        match self.handle.join() {
            Ok(r) => r,
            Err(p) => std::panic::resume_unwind(p),
        }
    }
}

/// A producer's handle on the [`OrderedWriter`]: clone it into worker threads.
#[derive(Clone)]
pub struct OrderedSender {
    tx: Sender<(u64, Vec<u8>)>,
    pool: Receiver<Vec<u8>>,
}

impl OrderedSender {
    /// A cleared buffer for the next chunk: a recycled one when available, otherwise a new one with `capacity`.
    pub fn buffer(&self, capacity: usize) -> Vec<u8> {
        match self.pool.try_recv() {
            Ok(mut b) => {
                b.clear();
                b.reserve(capacity);
                b
            }
            Err(_) => Vec::with_capacity(capacity),
        }
    }

    /// Hands buffer `index` to the writer; blocks while the channel is full.
    pub fn send(&self, index: u64, buf: Vec<u8>) -> Result<(), WriterStopped> {
        self.tx.send((index, buf)).map_err(|_| WriterStopped)
    }

    /// Tells the writer to give up (from any producer, e.g. one that failed or panics): it stops at once, and
    /// [`OrderedWriter::finish`] returns [`OutputError::Aborted`] with a file target removed, never completed.
    pub fn abort(&self) {
        let _ = self.tx.send((ABORT, Vec::new()));
    }
}

/// The buffer index that means "give up" (no run has that many buffers).
const ABORT: u64 = u64::MAX;

fn write_in_order(
    mut sink: Sink,
    rx: Receiver<(u64, Vec<u8>)>,
    pool: Sender<Vec<u8>>,
) -> Result<WriteSummary, OutputError> {
    let mut next = 0u64;
    let mut waiting: BTreeMap<u64, Vec<u8>> = BTreeMap::new();
    let mut summary = WriteSummary::default();
    for (index, buf) in rx.iter() {
        if index == ABORT {
            // Dropping the sink removes a temporary file.
            return Err(OutputError::Aborted);
        }
        if index != next {
            waiting.insert(index, buf);
            continue;
        }
        let mut buf = buf;
        loop {
            sink.write_all(&buf)?;
            summary.bytes += buf.len() as u64;
            summary.buffers += 1;
            next += 1;
            buf.clear();
            let _ = pool.try_send(buf);
            match waiting.remove(&next) {
                Some(b) => buf = b,
                None => break,
            }
        }
    }
    if let Some((&first_missing_after, _)) = waiting.iter().next() {
        // Producers stopped with a gap: never write past it; the output would silently miss records.
        return Err(OutputError::Write {
            path: sink.target.display_path(),
            source: io::Error::other(format!(
                "internal error: buffer {next} never arrived (buffer {first_missing_after} did)"
            )),
        });
    }
    sink.finish()?;
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_buffers_in_index_order_and_renames_into_place() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        let w = OrderedWriter::spawn(Sink::create(&Target::File(path.clone())).unwrap(), 4);
        let s = w.sender();
        let t = std::thread::spawn(move || {
            for i in (0..50u64).rev() {
                let mut b = s.buffer(8);
                b.extend_from_slice(format!("{i}\n").as_bytes());
                s.send(i, b).unwrap();
            }
        });
        // Nothing is visible under the final name before finish.
        t.join().unwrap();
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
    fn a_gap_in_indices_is_an_error_not_a_short_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("gap.txt");
        let w = OrderedWriter::spawn(Sink::create(&Target::File(path.clone())).unwrap(), 4);
        w.send(0, b"a\n".to_vec()).unwrap();
        w.send(2, b"c\n".to_vec()).unwrap();
        assert!(w.finish().is_err());
        assert!(!path.exists());
    }

    #[test]
    fn an_aborted_output_is_removed_not_completed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("aborted.txt");
        let w = OrderedWriter::spawn(Sink::create(&Target::File(path.clone())).unwrap(), 4);
        w.send(0, b"a\n".to_vec()).unwrap();
        w.sender().abort();
        assert!(matches!(w.finish(), Err(OutputError::Aborted)));
        assert!(!path.exists());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn full_disk_is_reported() {
        let full = Path::new("/dev/full");
        if !full.exists() {
            return;
        }
        let mut s = Sink {
            target: Target::File(full.to_path_buf()),
            inner: SinkInner::File {
                file: std::fs::OpenOptions::new().write(true).open(full).unwrap(),
                temp: PathBuf::from("/nonexistent/never-created"),
                written: 0,
                unsent: 0,
            },
        };
        let big = vec![b'1'; 1 << 16];
        let e = s.write_all(&big).unwrap_err();
        assert!(e.to_string().contains("/dev/full: write failed"), "{e}");
        assert!(!e.is_broken_pipe());
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
