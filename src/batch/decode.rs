//! A compressed input decoded on a thread of its own, so that decompression overlaps the work on the chunks: the
//! thread fills blocks of decompressed bytes and hands them over a short queue (memory stays flat: at most
//! [`QUEUE`] + 4 blocks exist: the queue's, the one being filled, the one being read and two emptied ones on their
//! way back), and the chunker reads them through [`Read`] like any other stream.
//!
//! The end of the text is only ever the decoder's clean end: a decode error (truncated or corrupt data), or a
//! decoding thread that died, is an error on every read from then on, never a short text.

use std::io::{self, Read};
use std::thread::JoinHandle;

use crossbeam_channel::{bounded, Receiver, Sender};

use crate::compression::Compression;

/// Bytes of decompressed text per block handed over.
const BLOCK: usize = 256 * 1024;

/// Blocks waiting for the chunker.
const QUEUE: usize = 4;

/// The decompressed text of an input, read from blocks the decoding thread fills.
pub(crate) struct Decoded {
    codec: Compression,
    rx: Receiver<io::Result<Vec<u8>>>,
    /// Emptied blocks go back to the thread for reuse.
    back: Sender<Vec<u8>>,
    block: Vec<u8>,
    pos: usize,
    /// Set by the first failure: every later read fails the same way.
    failed: Option<(io::ErrorKind, String)>,
    handle: Option<JoinHandle<()>>,
}

impl Decoded {
    /// Starts decoding `input` (which holds `codec` data from its first byte) on a new thread.
    pub(crate) fn spawn(
        codec: Compression,
        input: impl Read + Send + 'static,
    ) -> io::Result<Decoded> {
        let (tx, rx) = bounded(QUEUE);
        let (back, spare) = bounded::<Vec<u8>>(2);
        let handle = std::thread::Builder::new()
            .name(format!("sudoku-{codec}"))
            .spawn(move || decode(codec, input, tx, spare))?;
        Ok(Decoded {
            codec,
            rx,
            back,
            block: Vec::new(),
            pos: 0,
            failed: None,
            handle: Some(handle),
        })
    }

    fn fail(&mut self, e: io::Error) -> io::Error {
        self.failed = Some((e.kind(), e.to_string()));
        e
    }
}

/// The decoding thread: fills blocks until the decoder's end, an error (sent as the last message), or until the
/// reader is gone.
fn decode(
    codec: Compression,
    input: impl Read + Send,
    tx: Sender<io::Result<Vec<u8>>>,
    spare: Receiver<Vec<u8>>,
) {
    let mut decoder = match codec.decoder(input) {
        Ok(d) => d,
        Err(e) => {
            let _ = tx.send(Err(e));
            return;
        }
    };
    loop {
        let mut block = spare
            .try_recv()
            .unwrap_or_else(|_| Vec::with_capacity(BLOCK));
        block.clear();
        match decoder.by_ref().take(BLOCK as u64).read_to_end(&mut block) {
            Ok(0) => return,
            Ok(_) => {
                if tx.send(Ok(block)).is_err() {
                    return;
                }
            }
            Err(e) => {
                let _ = tx.send(Err(e));
                return;
            }
        }
    }
}

impl Read for Decoded {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if let Some((kind, text)) = &self.failed {
            return Err(io::Error::new(*kind, text.clone()));
        }
        if buf.is_empty() {
            return Ok(0);
        }
        while self.pos == self.block.len() {
            match self.rx.recv() {
                Ok(Ok(next)) => {
                    let done = std::mem::replace(&mut self.block, next);
                    let _ = self.back.try_send(done);
                    self.pos = 0;
                }
                Ok(Err(e)) => return Err(self.fail(e)),
                // The thread is gone: a clean end, unless it died.
                Err(_) => {
                    let died = self.handle.take().map(JoinHandle::join);
                    if let Some(Err(_)) = died {
                        let e =
                            io::Error::other(format!("{}: the decoding thread failed", self.codec));
                        return Err(self.fail(e));
                    }
                    return Ok(0);
                }
            }
        }
        let n = buf.len().min(self.block.len() - self.pos);
        buf[..n].copy_from_slice(&self.block[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compression::Encoder;

    fn packed(codec: Compression, text: &[u8]) -> Vec<u8> {
        let mut e = Encoder::new(codec).unwrap();
        let mut out = std::mem::take(e.write(text).unwrap());
        out.extend(e.finish().unwrap());
        out
    }

    #[test]
    fn the_thread_gives_the_whole_text_across_many_blocks() {
        let text: Vec<u8> = (0..3 * BLOCK as u32 / 10)
            .flat_map(|i| format!("{i:09}\n").into_bytes())
            .collect();
        for codec in Compression::ALL {
            let mut out = Vec::new();
            Decoded::spawn(codec, io::Cursor::new(packed(codec, &text)))
                .unwrap()
                .read_to_end(&mut out)
                .unwrap();
            assert!(out == text, "{codec}");
        }
    }

    #[test]
    fn an_error_stays_an_error_on_every_later_read() {
        let text = vec![b'7'; 3 * BLOCK];
        for codec in Compression::ALL {
            let data = packed(codec, &text);
            let cut = data[..data.len() - 4].to_vec();
            let mut d = Decoded::spawn(codec, io::Cursor::new(cut)).unwrap();
            let mut out = Vec::new();
            let e = d.read_to_end(&mut out).unwrap_err();
            assert!(e.to_string().starts_with(codec.name()), "{e}");
            assert!(out.len() <= text.len());
            let mut more = [0u8; 16];
            let again = d.read(&mut more).unwrap_err();
            assert_eq!(again.to_string(), e.to_string());
        }
    }

    #[test]
    fn dropping_the_reader_ends_the_thread() {
        let text = vec![b'1'; 20 * BLOCK];
        let mut d = Decoded::spawn(
            Compression::Zstd,
            io::Cursor::new(packed(Compression::Zstd, &text)),
        )
        .unwrap();
        let mut first = [0u8; 10];
        d.read_exact(&mut first).unwrap();
        let handle = d.handle.take().unwrap();
        drop(d);
        handle.join().unwrap();
    }
}
