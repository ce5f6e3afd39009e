//! The one writer thread of a run ([`Writer`]): it writes the buffers it is sent to a [`Sink`], in the order sent,
//! while the work goes on, and hands the written buffers back for reuse.

use std::thread::JoinHandle;

use crossbeam_channel::{bounded, Receiver, Sender};

use super::sink::Sink;
use super::OutputError;

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compression::Compression;
    use crate::output::Target;

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
}
