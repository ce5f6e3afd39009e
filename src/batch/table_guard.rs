//! The guard around the third-party table readers (`batch::table`): a fence that turns a panic inside a reader
//! into an error (and keeps the panic hook quiet for it), and the checks that bound every allocation a table's own
//! numbers size (a Parquet footer's list lengths and column chunks, an Arrow IPC file's blocks, an IPC stream's
//! messages) by the bytes the table really holds, before the reader makes it: a failed allocation aborts the
//! process and cannot be caught.

use std::cell::Cell;
use std::fs::File;
use std::io::{self, Read};
use std::os::unix::fs::FileExt;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Once;

thread_local! {
    /// True while this thread is inside [`fence`].
    static FENCED: Cell<bool> = const { Cell::new(false) };
}

/// Installs, once per process, a panic hook that stays quiet for a panic raised inside [`fence`] on the same
/// thread (it is caught and becomes an error) and passes every other panic to the hook that was there before.
fn quiet_hook() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if !FENCED.with(Cell::get) {
                previous(info)
            }
        }));
    });
}

/// Runs `f`, a call into a third-party reader; its panic becomes `Err` with the panic's message, and is not
/// printed by the panic hook. The reader `f` used must not be used again after an `Err`.
pub(super) fn fence<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    quiet_hook();
    let outer = FENCED.with(|c| c.replace(true));
    let r = panic::catch_unwind(AssertUnwindSafe(f));
    FENCED.with(|c| c.set(outer));
    r.map_err(|p| {
        let text = p
            .downcast_ref::<&str>()
            .copied()
            .or_else(|| p.downcast_ref::<String>().map(String::as_str))
            .unwrap_or("no message");
        format!("the reader failed: {text}")
    })
}

/// Reads `n` bytes at `at` of `file`.
fn read_at(file: &File, at: u64, n: usize) -> Result<Vec<u8>, String> {
    let mut buf = vec![0; n];
    file.read_exact_at(&mut buf, at)
        .map_err(|e| format!("cannot read {n} bytes at offset {at}: {e}"))?;
    Ok(buf)
}

/// Deepest nesting of Thrift structs and lists walked in a Parquet footer (the parquet crate's own footer nests a
/// few levels; a schema nests as deep as its columns, and a puzzle table's do not nest).
const MAX_THRIFT_DEPTH: usize = 64;

/// Checks the footer of the Parquet file `file` of `len` bytes (ending in `PAR1`) before the parquet crate reads
/// it: its length fits the file, and every list, set, map and binary field of its Thrift encoding declares no more
/// elements (or bytes) than bytes are left in the footer, so that the reader's `Vec::with_capacity` of a declared
/// count stays within a small multiple of the footer's size.
pub(super) fn check_parquet_footer(file: &File, len: u64) -> Result<(), String> {
    let tail = read_at(file, len - 8, 4)?;
    let meta_len = u64::from(u32::from_le_bytes(tail[..4].try_into().expect("4 bytes")));
    // The footer, its length, `PAR1` at the end and `PAR1` at the start.
    if meta_len + 12 > len {
        return Err(format!(
            "the footer's length ({meta_len} bytes) is more than the file holds ({len} bytes)"
        ));
    }
    let meta = read_at(file, len - 8 - meta_len, meta_len as usize)?;
    let mut walk = Thrift { buf: &meta, at: 0 };
    walk.value(12, 0).map_err(|e| {
        format!(
            "the footer is not valid Thrift: {e} (at byte {} of {meta_len})",
            walk.at
        )
    })
}

/// A walk over Thrift compact-protocol bytes that reads nothing into memory, only checks declared sizes.
struct Thrift<'a> {
    buf: &'a [u8],
    at: usize,
}

impl Thrift<'_> {
    fn left(&self) -> usize {
        self.buf.len() - self.at
    }

    fn byte(&mut self) -> Result<u8, &'static str> {
        let b = *self.buf.get(self.at).ok_or("it ends early")?;
        self.at += 1;
        Ok(b)
    }

    fn skip(&mut self, n: u64) -> Result<(), &'static str> {
        if n > self.left() as u64 {
            return Err("a field runs past its end");
        }
        self.at += n as usize;
        Ok(())
    }

    fn varint(&mut self) -> Result<u64, &'static str> {
        let mut v = 0u64;
        for shift in (0..70).step_by(7) {
            let b = self.byte()?;
            v |= u64::from(b & 0x7F).checked_shl(shift).unwrap_or(0);
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err("a varint longer than 10 bytes")
    }

    /// A declared count of elements each at least `each` bytes long: no more than the bytes left allow.
    fn count(&mut self, n: u64, each: u64) -> Result<u64, &'static str> {
        if n.saturating_mul(each) > self.left() as u64 {
            return Err("a list declares more elements than bytes are left");
        }
        Ok(n)
    }

    /// Skips one value of compact type `ty` at nesting `depth`.
    fn value(&mut self, ty: u8, depth: usize) -> Result<(), &'static str> {
        if depth > MAX_THRIFT_DEPTH {
            return Err("nested too deep");
        }
        match ty {
            // Booleans held in a field header's type.
            1 | 2 => Ok(()),
            3 => self.skip(1),
            4..=6 => self.varint().map(drop),
            7 => self.skip(8),
            8 => {
                let n = self.varint()?;
                self.skip(n)
            }
            9 | 10 => {
                let head = self.byte()?;
                let elem = head & 0x0F;
                let n = match head >> 4 {
                    15 => self.varint()?,
                    n => u64::from(n),
                };
                for _ in 0..self.count(n, 1)? {
                    // A boolean element takes a byte of its own.
                    if elem == 1 || elem == 2 {
                        self.skip(1)?;
                    } else {
                        self.value(elem, depth + 1)?;
                    }
                }
                Ok(())
            }
            11 => {
                let n = self.varint()?;
                if n == 0 {
                    return Ok(());
                }
                let types = self.byte()?;
                for _ in 0..self.count(n, 2)? {
                    self.value(types >> 4, depth + 1)?;
                    self.value(types & 0x0F, depth + 1)?;
                }
                Ok(())
            }
            12 => loop {
                let head = self.byte()?;
                if head == 0 {
                    return Ok(());
                }
                if head >> 4 == 0 {
                    // The field id in full, after the header.
                    self.varint()?;
                }
                self.value(head & 0x0F, depth + 1)?;
            },
            _ => Err("an unknown field type"),
        }
    }
}

/// Checks the column chunks of a Parquet file of `len` bytes, as its footer places them: each lies inside the
/// file, so a page the reader reads from one (whose size it checks against what is left of its chunk) does too.
pub(super) fn check_parquet_chunks(
    meta: &parquet::file::metadata::ParquetMetaData,
    len: u64,
) -> Result<(), String> {
    for (g, group) in meta.row_groups().iter().enumerate() {
        if group.num_rows() < 0 {
            return Err(format!("row group {}: {} rows", g + 1, group.num_rows()));
        }
        for c in group.columns() {
            let start = c.dictionary_page_offset().unwrap_or(c.data_page_offset());
            let size = c.compressed_size();
            let end = u64::try_from(start)
                .ok()
                .zip(u64::try_from(size).ok())
                .and_then(|(s, n)| s.checked_add(n));
            if end.is_none_or(|end| end > len) {
                return Err(format!(
                    "row group {}: column {:?} is placed at bytes {start} to {start}+{size}, outside the file ({len} bytes)",
                    g + 1,
                    c.column_path().string()
                ));
            }
        }
    }
    Ok(())
}

/// Checks the footer of the Arrow IPC file `file` of `len` bytes before arrow-ipc reads it: the footer fits the
/// file, and every record batch and dictionary block it lists (whose bytes the reader allocates at once) lies
/// inside the file.
pub(super) fn check_ipc_footer(file: &File, len: u64) -> Result<(), String> {
    // `ARROW1` and its padding at the start; the footer's length and `ARROW1` at the end.
    if len < 18 {
        return Err(format!("{len} bytes are too few for an Arrow IPC file"));
    }
    let tail = read_at(file, len - 10, 10)?;
    let footer_len = i32::from_le_bytes(tail[..4].try_into().expect("4 bytes"));
    let footer_len = u64::try_from(footer_len)
        .ok()
        .filter(|n| n + 18 <= len)
        .ok_or_else(|| {
            format!("the footer's length ({footer_len} bytes) does not fit the file ({len} bytes)")
        })?;
    let body_end = len - 10 - footer_len;
    let bytes = read_at(file, body_end, footer_len as usize)?;
    let footer = arrow_ipc::root_as_footer(&bytes)
        .map_err(|e| format!("the footer is not an Arrow IPC footer: {e}"))?;
    let lists = [
        ("record batch", footer.recordBatches()),
        ("dictionary", footer.dictionaries()),
    ];
    for (what, blocks) in lists {
        for (i, b) in blocks.into_iter().flatten().enumerate() {
            let end = u64::try_from(b.offset()).ok().and_then(|o| {
                let meta = u64::try_from(b.metaDataLength()).ok()?;
                o.checked_add(meta)?
                    .checked_add(u64::try_from(b.bodyLength()).ok()?)
            });
            if end.is_none_or(|end| end > body_end) {
                return Err(format!(
                    "{what} {} is placed at offset {} with {} + {} bytes, outside the file's {body_end} bytes of messages",
                    i + 1,
                    b.offset(),
                    b.metaDataLength(),
                    b.bodyLength()
                ));
            }
        }
    }
    Ok(())
}

/// An Arrow IPC stream handed on one whole message at a time: a message's metadata and body are read into memory
/// as their bytes arrive before the reader sees any of them, so the reader's buffers, sized by the lengths the
/// message declares, are never larger than bytes really there. A length that is negative or runs past the end of
/// the stream is an `InvalidData` error naming the message.
pub(super) struct Messages<R> {
    from: R,
    /// The current message's bytes, and how many of them were handed on.
    buf: Vec<u8>,
    at: usize,
    /// 1-based number of the current message.
    number: u64,
    /// The end-of-stream marker was handed on: later bytes go through as they are.
    ended: bool,
}

impl<R: Read> Messages<R> {
    pub(super) fn new(from: R) -> Messages<R> {
        Messages {
            from,
            buf: Vec::new(),
            at: 0,
            number: 0,
            ended: false,
        }
    }

    /// Appends up to `n` bytes from the stream to `buf` as they come; the number appended.
    fn take(&mut self, n: u64) -> io::Result<u64> {
        let start = self.buf.len();
        (&mut self.from).take(n).read_to_end(&mut self.buf)?;
        Ok((self.buf.len() - start) as u64)
    }

    fn bad(&self, what: String) -> io::Error {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("message {}: {what}", self.number),
        )
    }

    /// Reads the next whole message into `buf`; leaves it empty at the end of the stream.
    fn next_message(&mut self) -> io::Result<()> {
        self.buf.clear();
        self.at = 0;
        self.number += 1;
        if self.take(4)? < 4 {
            // The end of the stream (or a few stray bytes, which the reader reports).
            return Ok(());
        }
        if self.buf[..4] == [0xFF; 4] && self.take(4)? < 4 {
            return Ok(());
        }
        let n = self.buf.len();
        let meta_len = i32::from_le_bytes(self.buf[n - 4..].try_into().expect("4 bytes"));
        if meta_len == 0 {
            self.ended = true;
            return Ok(());
        }
        let meta_len = u64::try_from(meta_len)
            .map_err(|_| self.bad(format!("its metadata has a length of {meta_len} bytes")))?;
        let got = self.take(meta_len)?;
        if got < meta_len {
            return Err(self.bad(format!(
                "its metadata declares {meta_len} bytes, and the stream ends after {got}"
            )));
        }
        let body = match arrow_ipc::root_as_message(&self.buf[n..]) {
            Ok(m) => m.bodyLength(),
            // The reader says why.
            Err(_) => return Ok(()),
        };
        let body = u64::try_from(body)
            .map_err(|_| self.bad(format!("its body has a length of {body} bytes")))?;
        let got = self.take(body)?;
        if got < body {
            return Err(self.bad(format!(
                "its body declares {body} bytes, and the stream ends after {got}"
            )));
        }
        Ok(())
    }
}

impl<R: Read> Read for Messages<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if self.at == self.buf.len() {
            if self.ended {
                return self.from.read(out);
            }
            self.next_message()?;
        }
        let n = out.len().min(self.buf.len() - self.at);
        out[..n].copy_from_slice(&self.buf[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fenced_panic_is_an_error_with_its_message_and_the_fence_is_left() {
        let r = fence(|| -> u8 { panic!("slice index out of range") });
        assert_eq!(
            r,
            Err("the reader failed: slice index out of range".to_string())
        );
        assert!(!FENCED.with(Cell::get));
        assert_eq!(fence(|| 7), Ok(7));
    }

    #[test]
    fn a_thrift_list_longer_than_the_bytes_left_is_refused() {
        // A struct whose field 1 is a list of 2^31-1 structs, in a few bytes.
        let bytes = [0x19, 0xFC, 0xFF, 0xFF, 0xFF, 0xFF, 0x07, 0x00];
        let mut t = Thrift { buf: &bytes, at: 0 };
        assert_eq!(
            t.value(12, 0),
            Err("a list declares more elements than bytes are left")
        );
        // Two empty structs fit.
        let bytes = [0x19, 0x2C, 0x00, 0x00, 0x00];
        let mut t = Thrift { buf: &bytes, at: 0 };
        assert_eq!(t.value(12, 0), Ok(()));
        assert_eq!(t.at, bytes.len());
    }

    #[test]
    fn a_stream_message_is_handed_on_only_whole() {
        // A metadata length past the end of the stream.
        let mut bytes = vec![0xFF; 4];
        bytes.extend_from_slice(&100i32.to_le_bytes());
        bytes.extend_from_slice(&[0; 10]);
        let mut out = Vec::new();
        let e = Messages::new(&bytes[..]).read_to_end(&mut out).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidData);
        assert_eq!(
            e.to_string(),
            "message 1: its metadata declares 100 bytes, and the stream ends after 10"
        );
        assert!(out.is_empty(), "nothing of it was handed on");
        // The end marker and what follows it go through as they are.
        let end = [0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0, 1, 2];
        let mut out = Vec::new();
        Messages::new(&end[..]).read_to_end(&mut out).unwrap();
        assert_eq!(out, end);
    }
}
