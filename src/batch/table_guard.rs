//! The guard around the third-party table readers (`batch::table_run`): a fence that turns a panic inside a reader
//! into an error (and keeps the panic hook quiet for it), and the checks that bound every allocation a table's own
//! numbers size (a Parquet footer's list lengths, an Arrow IPC file's blocks, an IPC stream's messages, the
//! uncompressed lengths of compressed IPC buffers) by the bytes the table really holds, before the reader makes
//! it: a failed allocation aborts the process and cannot be caught.

use std::cell::Cell;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom};
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

/// Checks the footer of the Parquet file `file` of `len` bytes (ending in `PAR1`) before the footer reader reads
/// it: its length fits the file, and every list, set, map and binary field of its Thrift encoding declares no more
/// elements (or bytes) than bytes are left in the footer, so that the reader's `Vec::with_capacity` of a declared
/// count (thrift's `read_bytes`, parquet's generated code) stays within a small multiple of the footer's size. The
/// footer is streamed through a small buffer: memory stays flat however large it is.
pub(super) fn check_parquet_footer(mut file: &File, len: u64) -> Result<(), String> {
    let tail = read_at(file, len - 8, 4)?;
    let meta_len = u64::from(u32::from_le_bytes(tail[..4].try_into().expect("4 bytes")));
    // The footer, its length, `PAR1` at the end and `PAR1` at the start.
    if meta_len + 12 > len {
        return Err(format!(
            "the footer's length ({meta_len} bytes) is more than the file holds ({len} bytes)"
        ));
    }
    file.seek(SeekFrom::Start(len - 8 - meta_len))
        .map_err(|e| format!("cannot seek to the footer: {e}"))?;
    let mut walk = Thrift::new(
        BufReader::with_capacity(FOOTER_BUFFER, file.take(meta_len)),
        meta_len,
    );
    walk.value(12, 0).map_err(|e| {
        format!(
            "the footer is not valid Thrift: {e} (at byte {} of {meta_len})",
            walk.at
        )
    })
}

/// Checks the pages of the Parquet column chunk at bytes `start..end` of `file` before the reader decodes them:
/// each page header is valid Thrift whose lists and binary fields fit the chunk (as [`check_parquet_footer`]
/// checks the footer's), each page's bytes lie inside the chunk, and the uncompressed size a header declares
/// (which the reader allocates at once) is at most [`MAX_RATIO`] times the page's bytes and [`MAX_UNCOMPRESSED`].
/// Reads only the headers, through a buffer of [`PAGE_HEADER_BUFFER`] bytes.
pub(super) fn check_parquet_pages(file: &File, start: u64, end: u64) -> Result<(), String> {
    let mut at = start;
    let mut page = 0u64;
    while at < end {
        page += 1;
        let mut walk = Thrift::new(
            BufReader::with_capacity(PAGE_HEADER_BUFFER, Positional { file, at, end }),
            end - at,
        );
        let sizes = walk
            .page_sizes()
            .map_err(|e| format!("page {page}'s header: {e}"))?;
        let (uncompressed, compressed) = match sizes {
            (Some(u), Some(c)) => (u, c),
            _ => return Err(format!("page {page}'s header has no page sizes")),
        };
        let body = u64::try_from(compressed)
            .ok()
            .filter(|&c| c <= walk.left)
            .ok_or_else(|| {
                format!(
                    "page {page} declares {compressed} bytes, more than the {} left in its column chunk",
                    walk.left
                )
            })?;
        let bound = body.max(1).saturating_mul(MAX_RATIO).min(MAX_UNCOMPRESSED);
        if u64::try_from(uncompressed).map_or(true, |u| u > bound) {
            return Err(format!(
                "page {page} declares {uncompressed} bytes uncompressed from {body}, more than they can hold"
            ));
        }
        at += walk.at + body;
    }
    Ok(())
}

/// Bytes of a Parquet page header read at once while it is checked (headers are a few dozen bytes).
const PAGE_HEADER_BUFFER: usize = 512;

/// The bytes `at..end` of a file, read with positional reads.
struct Positional<'f> {
    file: &'f File,
    at: u64,
    end: u64,
}

impl Read for Positional<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = (buf.len() as u64).min(self.end - self.at) as usize;
        let n = self.file.read_at(&mut buf[..n], self.at)?;
        self.at += n as u64;
        Ok(n)
    }
}

/// Bytes of a Parquet footer held at once while it is checked.
const FOOTER_BUFFER: usize = 64 * 1024;

/// A walk over Thrift compact-protocol bytes, streamed from `from` (`left` bytes), that keeps nothing in memory and
/// only checks declared sizes against the bytes left.
struct Thrift<R> {
    from: R,
    /// Bytes not walked yet.
    left: u64,
    /// Bytes walked.
    at: u64,
}

impl<R: BufRead> Thrift<R> {
    fn new(from: R, left: u64) -> Thrift<R> {
        Thrift { from, left, at: 0 }
    }

    fn byte(&mut self) -> Result<u8, String> {
        let b = *self.buffer()?.first().ok_or("it ends early")?;
        self.advance(1);
        Ok(b)
    }

    /// The bytes buffered, refilled when empty; empty only where the bytes end.
    fn buffer(&mut self) -> Result<&[u8], String> {
        if self.left == 0 {
            return Ok(&[]);
        }
        self.from
            .fill_buf()
            .map_err(|e| format!("it cannot be read: {e}"))
    }

    fn advance(&mut self, n: usize) {
        self.from.consume(n);
        self.left -= n as u64;
        self.at += n as u64;
    }

    fn skip(&mut self, n: u64) -> Result<(), String> {
        if n > self.left {
            return Err("a field runs past its end".into());
        }
        let mut n = n;
        while n > 0 {
            let have = self.buffer()?.len() as u64;
            if have == 0 {
                return Err("it ends early".into());
            }
            let k = have.min(n);
            self.advance(k as usize);
            n -= k;
        }
        Ok(())
    }

    fn varint(&mut self) -> Result<u64, String> {
        let mut v = 0u64;
        for shift in (0..70).step_by(7) {
            let b = self.byte()?;
            v |= u64::from(b & 0x7F).checked_shl(shift).unwrap_or(0);
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err("a varint longer than 10 bytes".into())
    }

    /// A declared count of elements each at least `each` bytes long: no more than the bytes left allow.
    fn count(&mut self, n: u64, each: u64) -> Result<u64, String> {
        if n.saturating_mul(each) > self.left {
            return Err("a list declares more elements than bytes are left".into());
        }
        Ok(n)
    }

    /// Walks a Parquet `PageHeader` struct: its `uncompressed_page_size` (field 2) and `compressed_page_size`
    /// (field 3), each `None` when missing; every other field skipped and checked as [`Thrift::value`] does.
    fn page_sizes(&mut self) -> Result<(Option<i64>, Option<i64>), String> {
        let mut sizes = (None, None);
        let mut id = 0i64;
        loop {
            let head = self.byte()?;
            if head == 0 {
                return Ok(sizes);
            }
            id = match head >> 4 {
                // The field id in full (zigzag), after the header.
                0 => zigzag(self.varint()?),
                delta => id + i64::from(delta),
            };
            let ty = head & 0x0F;
            match (id, ty) {
                // i32 fields.
                (2, 5) => sizes.0 = Some(zigzag(self.varint()?)),
                (3, 5) => sizes.1 = Some(zigzag(self.varint()?)),
                _ => self.value(ty, 1)?,
            }
        }
    }

    /// Skips one value of compact type `ty` at nesting `depth`.
    fn value(&mut self, ty: u8, depth: usize) -> Result<(), String> {
        if depth > MAX_THRIFT_DEPTH {
            return Err("nested too deep".into());
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
            _ => Err("an unknown field type".into()),
        }
    }
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
            check_block(file, b).map_err(|e| format!("{what} {}: {e}", i + 1))?;
        }
    }
    Ok(())
}

/// Checks the compressed buffers of the message in block `b` of an IPC file (which lies inside the file).
fn check_block(file: &File, b: &arrow_ipc::Block) -> Result<(), String> {
    let (at, meta_len) = (b.offset() as u64, b.metaDataLength() as u64);
    let body = b.bodyLength() as u64;
    // arrow-ipc reads the message from the block's first bytes as far as the block's end (the metadata length
    // only says where the body starts), so the message is read here the same way: from the metadata's bytes, or
    // at least the first 64 KiB of the block, else the whole block.
    let total = meta_len + body;
    let first = total.min(meta_len.max(1 << 16));
    let mut meta = read_at(file, at, first as usize)?;
    if message_in(&meta).is_none() && first < total {
        meta = read_at(file, at, total as usize)?;
    }
    let Some(message) = message_in(&meta) else {
        // The reader says why.
        return Ok(());
    };
    check_compressed(&message, |offset| {
        if offset.saturating_add(8) > body {
            return Ok(None);
        }
        let mut head = [0; 8];
        file.read_exact_at(&mut head, at + meta_len + offset)
            .map_err(|e| {
                format!(
                    "cannot read 8 bytes at offset {}: {e}",
                    at + meta_len + offset
                )
            })?;
        Ok(Some(head))
    })
}

/// Most bytes a compressed Arrow IPC buffer may say it holds uncompressed, per byte it holds compressed: neither
/// an LZ4 frame nor a zstd frame decompresses to more (zstd's densest block, a run of one byte, gives 128 KiB
/// for 4 bytes).
const MAX_RATIO: u64 = 1 << 15;

/// Most bytes one compressed Arrow IPC buffer may hold uncompressed, whatever its compressed size: a batch whose
/// column needs more is refused (written in smaller batches, it is read).
pub(super) const MAX_UNCOMPRESSED: u64 = 1 << 30;

/// Checks the uncompressed length each buffer of a compressed record batch or dictionary `message` declares in
/// its first 8 bytes (which arrow-ipc allocates at once before decompressing) against [`MAX_RATIO`] times its
/// compressed bytes and [`MAX_UNCOMPRESSED`]. `prefix(offset)` gives the 8 bytes at `offset` of the message's
/// body, or `None` when the body does not hold them (the reader says so).
fn check_compressed(
    message: &arrow_ipc::Message,
    mut prefix: impl FnMut(u64) -> Result<Option<[u8; 8]>, String>,
) -> Result<(), String> {
    let batch = message
        .header_as_record_batch()
        .or_else(|| message.header_as_dictionary_batch().and_then(|d| d.data()));
    let Some(batch) = batch else {
        return Ok(());
    };
    if batch.compression().is_none() {
        return Ok(());
    }
    for (i, b) in batch.buffers().into_iter().flatten().enumerate() {
        let (Ok(offset), Ok(length)) = (u64::try_from(b.offset()), u64::try_from(b.length()))
        else {
            continue;
        };
        if length < 8 {
            continue;
        }
        let Some(head) = prefix(offset)? else {
            continue;
        };
        let declared = i64::from_le_bytes(head);
        // -1: the buffer is stored uncompressed.
        if declared == -1 {
            continue;
        }
        let bound = (length - 8).saturating_mul(MAX_RATIO).min(MAX_UNCOMPRESSED);
        if u64::try_from(declared).is_ok_and(|d| d > bound) {
            return Err(format!(
                "buffer {} declares {declared} bytes uncompressed from {} compressed, more than the {bound} \
                 they can hold",
                i + 1,
                length - 8
            ));
        }
    }
    Ok(())
}

/// The IPC message at the start of `buf`: after the continuation marker and the length, or (before Arrow 0.15)
/// the length alone.
fn message_in(buf: &[u8]) -> Option<arrow_ipc::Message<'_>> {
    let skip = if buf.starts_with(&[0xFF; 4]) { 8 } else { 4 };
    arrow_ipc::root_as_message(buf.get(skip..)?).ok()
}

/// A zigzag-encoded integer's value.
fn zigzag(n: u64) -> i64 {
    (n >> 1) as i64 ^ -((n & 1) as i64)
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
        let start = n + meta_len as usize;
        let (meta, body) = self.buf.split_at(start);
        let message = arrow_ipc::root_as_message(&meta[n..]).expect("parsed above");
        check_compressed(&message, |offset| {
            Ok(usize::try_from(offset)
                .ok()
                .and_then(|o| body.get(o..o.checked_add(8)?))
                .map(|h| h.try_into().expect("8 bytes")))
        })
        .map_err(|e| self.bad(e))
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
        let mut t = Thrift::new(&bytes[..], bytes.len() as u64);
        assert_eq!(
            t.value(12, 0),
            Err("a list declares more elements than bytes are left".to_string())
        );
        // Two empty structs fit.
        let bytes = [0x19, 0x2C, 0x00, 0x00, 0x00];
        let mut t = Thrift::new(&bytes[..], bytes.len() as u64);
        assert_eq!(t.value(12, 0), Ok(()));
        assert_eq!(t.at, bytes.len() as u64);
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
