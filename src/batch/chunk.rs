//! Record-aligned chunks: where an input is cut into pieces that are processed independently.
//!
//! **Invariant.** A chunk starts at the beginning of a line and ends right after a record boundary: after a `\n`
//! for the line and CSV formats, after a blank line for the grid format (whose records are runs of lines without
//! a blank line inside), or at the end of the input. So no record ever spans two chunks, every record is processed
//! by the same code whatever chunk it lands in, and the output does not depend on where the cuts fall: a run with
//! any chunk size and any number of threads writes the same bytes as the sequential run (`-j1`). The tests check
//! this for every format with chunk sizes down to one byte.
//!
//! **Bounded memory.** A record is a line (line and CSV formats) or a run of non-blank lines (grid format). One
//! longer than [`MAX_RECORD`] bytes is a malformed record whatever chunk it lands in (the format layer says so for
//! the records inside a chunk). When the search for a boundary runs more than `MAX_RECORD` bytes past the cut
//! point, the record there is such a record: the chunker ends the chunk before it and passes over it without
//! holding it ([`Chunk::Oversized`]), reading a stream in fixed blocks and giving back the pages of a map as it goes,
//! so no input, not even an endless line, can grow memory. A record that runs on for more than [`MAX_SKIP`] bytes
//! ends the run ([`ChunkError::Endless`]): such an input is not a puzzle file (`/dev/zero`).
//!
//! Offsets are `usize` within one chunk or one mapped input and `u64` for positions in a whole input, so inputs
//! past 4 GiB are fine on 64-bit targets.

use std::io::{self, Read};

use memchr::memchr;

use super::mapped::Mapped;
use crate::format::{Boundary, MAX_RECORD};

/// A mapped input gives back its pages every this many bytes processed.
const RELEASE_STEP: usize = 2 << 20;

/// How far past the cut point a boundary is looked for before the record there counts as oversized: any record
/// that reaches this far is longer than [`MAX_RECORD`].
const WINDOW: usize = MAX_RECORD + 2;

/// The longest record passed over; one that runs on past this ends the run with [`ChunkError::Endless`].
pub(super) const MAX_SKIP: u64 = 1 << 30;

/// Block size for reading a stream while passing over an oversized record.
const SKIP_BLOCK: usize = 64 * 1024;

/// Why the next chunk could not be had.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ChunkError {
    /// Reading the input failed.
    #[error(transparent)]
    Read(#[from] io::Error),
    /// A record ran on past [`MAX_SKIP`] bytes without a boundary.
    #[error("a record runs on for more than {MAX_SKIP} bytes without a line end")]
    Endless,
}

/// A chunk holds at most one line per this many bytes of its target (and at least [`MIN_LINE_CAP`] lines): what a
/// run holds per chunk (marked output, failure reports) grows with its records, so a file of short malformed lines
/// (`x`) is cut into smaller chunks and memory per chunk stays a small multiple of the target. An 81-character
/// puzzle line is 82 bytes: files of puzzles never reach the cap.
const BYTES_PER_LINE: usize = 64;

/// The line cap of the smallest targets.
const MIN_LINE_CAP: usize = 64;

/// The most lines a chunk of `target` bytes ends after (see [`BYTES_PER_LINE`]).
fn line_cap(target: usize) -> usize {
    (target / BYTES_PER_LINE).max(MIN_LINE_CAP)
}

/// Where [`cut`] says the first chunk ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Cut {
    /// After this many bytes.
    At(usize),
    /// `data` holds no boundary past the target yet: more input is needed.
    More,
    /// The record at the cut point is longer than [`MAX_RECORD`]: it starts at this offset (a record boundary), and
    /// the chunk ends there.
    Oversized(usize),
}

/// Where the first chunk of `data` ends: the first record boundary at or after `target` bytes or after the
/// chunk's line cap ([`line_cap`]), whichever comes first, or the end of `data` when it is all of the input
/// (`at_eof`). No boundary is looked for further than [`MAX_RECORD`] bytes past
/// the target: the record there is then [`Cut::Oversized`]. A `target` of 0 is treated as 1.
pub(super) fn cut(data: &[u8], target: usize, at_eof: bool, boundary: Boundary) -> Cut {
    let target = target.max(1);
    let len = data.len();
    let at_end = || if at_eof { Cut::At(len) } else { Cut::More };
    // Many short lines end a chunk early, at the first boundary after its line cap.
    let cap = line_cap(target);
    let p = match memchr::memchr_iter(b'\n', &data[..len.min(target)]).nth(cap - 1) {
        Some(nl) => nl,
        None if len <= target => return at_end(),
        None => target - 1,
    };
    let limit = p + WINDOW;
    let window = &data[..len.min(limit)];
    match boundary {
        Boundary::Line => {
            if let Some(i) = memchr(b'\n', &window[p..]) {
                return Cut::At(p + i + 1);
            }
            if len >= limit {
                return Cut::Oversized(line_start(data, p));
            }
            at_end()
        }
        Boundary::BlankLine => {
            let mut start = line_start(data, p);
            let mut pos = p;
            while let Some(i) = memchr(b'\n', &window[pos..]) {
                let nl = pos + i;
                if is_blank(&data[start..nl]) {
                    return Cut::At(nl + 1);
                }
                start = nl + 1;
                pos = nl + 1;
            }
            if len >= limit {
                return Cut::Oversized(run_start(data, line_start(data, p)));
            }
            at_end()
        }
    }
}

/// Start of the line that holds byte `p`.
fn line_start(data: &[u8], p: usize) -> usize {
    memchr::memrchr(b'\n', &data[..p]).map_or(0, |i| i + 1)
}

/// A line that ends a grid record: only white space, and not an oversized line.
fn is_blank(line: &[u8]) -> bool {
    line.len() <= MAX_RECORD && line.trim_ascii().is_empty()
}

/// Start of the run of non-blank lines that holds the line starting at `start`.
fn run_start(data: &[u8], mut start: usize) -> usize {
    while start > 0 {
        let prev = line_start(data, start - 1);
        if is_blank(&data[prev..start - 1]) {
            return start;
        }
        start = prev;
    }
    0
}

/// Finds the end of an oversized record fed to it piece by piece from its first byte: after the first `\n` for
/// the line boundary, after the first blank line for the grid boundary, counting newlines on the way.
struct RecordEnd {
    boundary: Boundary,
    /// Bytes of the current line seen so far, and whether they are all white space.
    line_len: usize,
    line_blank: bool,
    newlines: u64,
}

impl RecordEnd {
    fn new(boundary: Boundary) -> RecordEnd {
        RecordEnd {
            boundary,
            line_len: 0,
            line_blank: true,
            newlines: 0,
        }
    }

    /// The next bytes of the record; `Some(n)` when it ends after the first `n` of them.
    fn feed(&mut self, bytes: &[u8]) -> Option<usize> {
        let mut pos = 0;
        while let Some(i) = memchr(b'\n', &bytes[pos..]) {
            let nl = pos + i;
            self.newlines += 1;
            let piece = &bytes[pos..nl];
            let len = self.line_len + piece.len();
            let blank = self.line_blank && piece.trim_ascii().is_empty();
            self.line_len = 0;
            self.line_blank = true;
            if self.boundary == Boundary::Line || (blank && len <= MAX_RECORD) {
                return Some(nl + 1);
            }
            pos = nl + 1;
        }
        let piece = &bytes[pos..];
        self.line_len += piece.len();
        self.line_blank &= piece.trim_ascii().is_empty();
        None
    }
}

/// A chunk's bytes: borrowed from a mapped or in-memory input, or owned when read from a stream; or one oversized
/// record that was passed over.
pub(crate) enum Chunk<'a> {
    Borrowed(&'a [u8]),
    Owned(Vec<u8>),
    /// One record longer than [`MAX_RECORD`], not held: `lines` newlines in its `bytes` bytes.
    Oversized {
        lines: u64,
        bytes: u64,
    },
}

impl Chunk<'_> {
    /// Input bytes this chunk covers.
    pub(crate) fn input_len(&self) -> u64 {
        match self {
            Chunk::Oversized { bytes, .. } => *bytes,
            other => other.len() as u64,
        }
    }
}

impl std::ops::Deref for Chunk<'_> {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Chunk::Borrowed(b) => b,
            Chunk::Owned(v) => v,
            Chunk::Oversized { .. } => &[],
        }
    }
}

/// Cuts one input into chunks of about `target` bytes. The same cutting rule serves bytes in memory (a map) and
/// a stream read in blocks; a stream keeps the unfinished tail of one block for the next chunk.
pub(crate) enum Chunks<'a> {
    Bytes {
        data: &'a [u8],
        pos: usize,
        target: usize,
        boundary: Boundary,
        /// The map under `data`, and how far its processed pages were released and are done.
        map: Option<&'a Mapped>,
        done: usize,
        released: usize,
    },
    Stream {
        file: &'a mut dyn Read,
        buf: Vec<u8>,
        eof: bool,
        target: usize,
        boundary: Boundary,
        spare: Vec<Vec<u8>>,
        /// Bytes of the input before `buf`.
        consumed: u64,
        /// Cut at the last whole line on hand instead of waiting for a chunk's worth ([`Chunks::answer_each_line`]).
        eager: bool,
    },
}

impl<'a> Chunks<'a> {
    pub(crate) fn bytes(data: &'a [u8], target: usize) -> Chunks<'a> {
        Chunks::Bytes {
            data,
            pos: 0,
            target: target.max(1),
            boundary: Boundary::Line,
            map: None,
            done: 0,
            released: 0,
        }
    }

    /// Chunks of a mapped file, whose pages are released as processing moves past them.
    pub(crate) fn mapped(map: &'a Mapped, target: usize) -> Chunks<'a> {
        let mut chunks = Chunks::bytes(map.bytes(), target);
        if let Chunks::Bytes { map: m, .. } = &mut chunks {
            *m = Some(map);
        }
        chunks
    }

    /// Chunks of a stream, of which `head` was already read.
    pub(crate) fn stream(file: &'a mut dyn Read, head: Vec<u8>, target: usize) -> Chunks<'a> {
        Chunks::Stream {
            file,
            buf: head,
            eof: false,
            target: target.max(1),
            boundary: Boundary::Line,
            spare: Vec::new(),
            consumed: 0,
            eager: false,
        }
    }

    /// For a stream whose writer may wait for each answer before it writes more (a pipe, FIFO or terminal in pipe
    /// mode): every read ends as soon as it brings a whole line, and a chunk is cut at the last whole line on hand
    /// (at most a chunk's worth) instead of waiting for a chunk's worth of bytes. The cuts still fall on line ends,
    /// so the output is the same bytes; only line records are cut this way (grid records span lines).
    pub(crate) fn answer_each_line(&mut self) {
        if let Chunks::Stream { eager, .. } = self {
            *eager = true;
        }
    }

    /// True when the next chunk can be cut without waiting for the input: an input in memory, or a stream that
    /// answers each line and holds a whole one.
    pub(crate) fn has_line(&self) -> bool {
        match self {
            Chunks::Bytes { .. } => true,
            Chunks::Stream { buf, eager, .. } => *eager && memchr(b'\n', buf).is_some(),
        }
    }

    /// Byte offset in the input where the next chunk starts.
    pub(crate) fn position(&self) -> u64 {
        match self {
            Chunks::Bytes { pos, .. } => *pos as u64,
            Chunks::Stream { consumed, .. } => *consumed,
        }
    }

    /// At least `want` bytes of the start of the input (fewer at its end), and whether that is all of it.
    pub(crate) fn head(&mut self, want: usize) -> io::Result<(&[u8], bool)> {
        match self {
            Chunks::Bytes { data, pos, .. } => Ok((&data[*pos..], true)),
            Chunks::Stream {
                file,
                buf,
                eof,
                eager,
                ..
            } => {
                fill(file, buf, eof, want, *eager)?;
                Ok((buf, *eof))
            }
        }
    }

    /// Drops the first `n` bytes (they were read by [`Chunks::head`]) and sets the boundary rule for the rest.
    pub(crate) fn start(&mut self, n: usize, rule: Boundary) {
        match self {
            Chunks::Bytes {
                pos,
                boundary,
                done,
                ..
            } => {
                *pos += n;
                *done = *pos;
                *boundary = rule;
            }
            Chunks::Stream {
                buf,
                boundary,
                consumed,
                ..
            } => {
                buf.drain(..n);
                *consumed += n as u64;
                *boundary = rule;
            }
        }
    }

    /// The next chunk, or `None` at the end of the input.
    pub(crate) fn next_chunk(&mut self) -> Result<Option<Chunk<'a>>, ChunkError> {
        match self {
            Chunks::Bytes {
                data,
                pos,
                target,
                boundary,
                map,
                ..
            } => {
                let data: &'a [u8] = data;
                let rest = &data[*pos..];
                if rest.is_empty() {
                    return Ok(None);
                }
                let end = match cut(rest, *target, true, *boundary) {
                    Cut::At(end) => end,
                    Cut::More => rest.len(),
                    Cut::Oversized(start) if start > 0 => start,
                    Cut::Oversized(_) => {
                        let (lines, bytes) = pass_over_bytes(rest, *boundary, *pos, *map)?;
                        *pos += bytes;
                        return Ok(Some(Chunk::Oversized {
                            lines,
                            bytes: bytes as u64,
                        }));
                    }
                };
                *pos += end;
                Ok(Some(Chunk::Borrowed(&data[*pos - end..*pos])))
            }
            Chunks::Stream {
                file,
                buf,
                eof,
                target,
                boundary,
                spare,
                consumed,
                eager,
            } => {
                let mut want = *target + 1;
                // An eager stream of lines cuts at its last whole line rather than wait for more.
                let eager = *eager && *boundary == Boundary::Line;
                let end = loop {
                    if !(eager && memchr(b'\n', buf).is_some()) {
                        fill(file, buf, eof, want, eager)?;
                    }
                    if buf.is_empty() {
                        return Ok(None);
                    }
                    match cut(buf, *target, *eof, *boundary) {
                        Cut::At(end) => break end,
                        Cut::Oversized(start) if start > 0 => break start,
                        Cut::Oversized(_) => {
                            let (lines, bytes) =
                                pass_over_stream(file, buf, eof, *boundary, eager)?;
                            *consumed += bytes;
                            return Ok(Some(Chunk::Oversized { lines, bytes }));
                        }
                        Cut::More => {
                            if let Some(nl) = memchr::memrchr(b'\n', buf).filter(|_| eager) {
                                break nl + 1;
                            }
                            // The window past the target is not all here yet: read it (then `cut` decides).
                            want = want.max(*target + WINDOW + 1).max(buf.len() + 1);
                        }
                    }
                };
                let mut next = spare.pop().unwrap_or_default();
                next.clear();
                next.extend_from_slice(&buf[end..]);
                let mut chunk = std::mem::replace(buf, next);
                chunk.truncate(end);
                *consumed += end as u64;
                Ok(Some(Chunk::Owned(chunk)))
            }
        }
    }

    /// Takes back a chunk whose processing is done, to reuse its memory; chunks come back in input order.
    pub(crate) fn recycle(&mut self, chunk: Chunk<'a>) {
        let covered = chunk.input_len() as usize;
        match (self, chunk) {
            (Chunks::Stream { spare, .. }, Chunk::Owned(v)) if spare.len() < 4 => spare.push(v),
            (
                Chunks::Bytes {
                    map: Some(map),
                    done,
                    released,
                    ..
                },
                chunk,
            ) => {
                let _ = chunk;
                *done += covered;
                if *done - *released >= RELEASE_STEP {
                    map.release(*released, *done);
                    *released = *done;
                }
            }
            _ => {}
        }
    }
}

/// Passes over the oversized record at the start of `rest` (a mapped or in-memory input from offset `offset`),
/// giving back the pages of a map behind it; returns its newlines and length.
fn pass_over_bytes(
    rest: &[u8],
    boundary: Boundary,
    offset: usize,
    map: Option<&Mapped>,
) -> Result<(u64, usize), ChunkError> {
    let mut end = RecordEnd::new(boundary);
    let mut pos = 0;
    loop {
        let step = rest.len().min(pos + RELEASE_STEP);
        if let Some(n) = end.feed(&rest[pos..step]) {
            return Ok((end.newlines, pos + n));
        }
        if let Some(map) = map {
            map.release(offset + pos, offset + step);
        }
        pos = step;
        if pos == rest.len() {
            return Ok((end.newlines, pos));
        }
        if pos as u64 > MAX_SKIP {
            return Err(ChunkError::Endless);
        }
    }
}

/// Passes over the oversized record at the start of `buf`, reading the stream on in fixed blocks; what follows the
/// record stays in `buf`. Returns its newlines and length.
fn pass_over_stream(
    file: &mut dyn Read,
    buf: &mut Vec<u8>,
    eof: &mut bool,
    boundary: Boundary,
    eager: bool,
) -> Result<(u64, u64), ChunkError> {
    let mut end = RecordEnd::new(boundary);
    let mut bytes = 0u64;
    loop {
        if let Some(n) = end.feed(buf) {
            buf.drain(..n);
            return Ok((end.newlines, bytes + n as u64));
        }
        bytes += buf.len() as u64;
        buf.clear();
        if *eof {
            return Ok((end.newlines, bytes));
        }
        if bytes > MAX_SKIP {
            return Err(ChunkError::Endless);
        }
        fill(file, buf, eof, SKIP_BLOCK, eager)?;
    }
}

/// Reads until `buf` holds `want` bytes or the stream ends; when `eager`, also stops after a read that brought a
/// line end (a pipe's writer may be waiting for the answer to that line).
fn fill(
    file: &mut dyn Read,
    buf: &mut Vec<u8>,
    eof: &mut bool,
    want: usize,
    eager: bool,
) -> io::Result<()> {
    while !*eof && buf.len() < want {
        let missing = want - buf.len();
        if eager {
            let start = buf.len();
            buf.resize(start + missing, 0);
            let n = loop {
                match file.read(&mut buf[start..]) {
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    other => break other,
                }
            };
            buf.truncate(start + *n.as_ref().unwrap_or(&0));
            match n? {
                0 => *eof = true,
                _ if memchr(b'\n', &buf[start..]).is_some() => return Ok(()),
                _ => {}
            }
            continue;
        }
        let n = (&mut *file).take(missing as u64).read_to_end(buf)?;
        if n == 0 {
            *eof = true;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::batch::input::{Data, InputSpec, Opened};

    #[test]
    fn many_short_lines_end_a_chunk_at_the_line_cap() {
        let target = 256 * 1024;
        let cap = line_cap(target);
        let short = b"x\n".repeat(target);
        assert_eq!(cut(&short, target, false, Boundary::Line), Cut::At(2 * cap));
        let blank = b"x\n\n".repeat(target);
        // The grid boundary: the first blank line after the cap's newline.
        assert_eq!(
            cut(&blank, target, false, Boundary::BlankLine),
            Cut::At(3 * (cap / 2))
        );
        // Puzzle lines never reach it.
        let lines = [b'1'; 81].iter().chain(b"\n").copied().cycle();
        let puzzles: Vec<u8> = lines.take(82 * 4000).collect();
        assert_eq!(
            cut(&puzzles, target, false, Boundary::Line),
            Cut::At(82 * (target / 82 + 1))
        );
    }

    #[test]
    fn line_cuts_fall_after_a_newline_at_or_past_the_target() {
        let d = b"aaa\nbbb\nccc";
        assert_eq!(cut(d, 1, true, Boundary::Line), Cut::At(4));
        assert_eq!(cut(d, 4, true, Boundary::Line), Cut::At(4));
        assert_eq!(cut(d, 5, true, Boundary::Line), Cut::At(8));
        assert_eq!(cut(d, 9, true, Boundary::Line), Cut::At(11));
        assert_eq!(cut(d, 9, false, Boundary::Line), Cut::More);
        assert_eq!(cut(d, 100, true, Boundary::Line), Cut::At(11));
        assert_eq!(cut(d, 0, true, Boundary::Line), Cut::At(4));
    }

    #[test]
    fn grid_cuts_fall_after_a_blank_line() {
        let d = b"1\n2\n\n3\n4\n \r\n5\n";
        assert_eq!(cut(d, 1, true, Boundary::BlankLine), Cut::At(5));
        assert_eq!(cut(d, 5, true, Boundary::BlankLine), Cut::At(5));
        assert_eq!(cut(d, 6, true, Boundary::BlankLine), Cut::At(12));
        assert_eq!(cut(d, 12, true, Boundary::BlankLine), Cut::At(12));
        assert_eq!(cut(d, 13, true, Boundary::BlankLine), Cut::At(14));
        assert_eq!(cut(d, 13, false, Boundary::BlankLine), Cut::More);
    }

    #[test]
    fn released_pages_of_a_map_still_read_right() {
        let text: Vec<u8> = (0..1_200_000u32)
            .flat_map(|i| format!("{i:08}\n").into_bytes())
            .collect();
        assert!(text.len() > RELEASE_STEP + (1 << 20));
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big.txt");
        std::fs::write(&path, &text).unwrap();
        let opened = Opened::open(InputSpec::Path(path), true).unwrap();
        let Data::Mapped(map) = &opened.data else {
            panic!("a regular file is mapped");
        };
        let mut chunks = Chunks::mapped(map, 1 << 20);
        chunks.start(0, Boundary::Line);
        let mut seen = Vec::new();
        while let Some(c) = chunks.next_chunk().unwrap() {
            seen.extend_from_slice(&c);
            chunks.recycle(c);
        }
        assert!(matches!(chunks, Chunks::Bytes { released, .. } if released >= RELEASE_STEP));
        assert!(seen == text);
        // Pages given back are read again from the file.
        assert!(map.bytes() == &text[..]);
    }

    #[test]
    fn stream_and_bytes_give_the_same_chunks() {
        let text: Vec<u8> = (0..500)
            .flat_map(|i| format!("line {i}\n{}", if i % 7 == 0 { "\n" } else { "" }).into_bytes())
            .collect();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("in.txt");
        std::fs::write(&path, &text).unwrap();
        for boundary in [Boundary::Line, Boundary::BlankLine] {
            for target in [1, 3, 64, 1000, 100_000] {
                let mut a = Chunks::bytes(&text, target);
                a.start(0, boundary);
                let mut from_bytes = Vec::new();
                while let Some(c) = a.next_chunk().unwrap() {
                    from_bytes.push(c.to_vec());
                }
                let mut file = std::fs::File::open(&path).unwrap();
                let mut b = Chunks::stream(&mut file, Vec::new(), target);
                b.start(0, boundary);
                let mut from_stream = Vec::new();
                while let Some(c) = b.next_chunk().unwrap() {
                    from_stream.push(c.to_vec());
                    b.recycle(c);
                }
                assert_eq!(from_bytes, from_stream, "{boundary:?} {target}");
                assert_eq!(from_bytes.concat(), text);
                for c in &from_bytes[..from_bytes.len() - 1] {
                    match boundary {
                        Boundary::Line => assert!(c.ends_with(b"\n")),
                        Boundary::BlankLine => assert!(c.ends_with(b"\n\n")),
                    }
                }
            }
        }
    }
}
