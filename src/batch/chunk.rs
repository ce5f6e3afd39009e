//! Record-aligned chunks: where an input is cut into pieces that are processed independently.
//!
//! **Invariant.** A chunk starts at the beginning of a line and ends right after a record boundary: after a `\n`
//! for the line and CSV formats, after a blank line for the grid format (whose records are runs of lines without
//! a blank line inside), or at the end of the input. So no record ever spans two chunks, every record is processed
//! by the same code whatever chunk it lands in, and the output does not depend on where the cuts fall: a run with
//! any chunk size and any number of threads writes the same bytes as the sequential run (`-j1`). The tests check
//! this for every format with chunk sizes down to one byte.
//!
//! Offsets are `usize` within one chunk or one mapped input and `u64` for positions in a whole input, so inputs
//! past 4 GiB are fine on 64-bit targets.

use std::fs::File;
use std::io::{self, Read};

use memchr::memchr;

use super::input::Mapped;
use crate::format::Plan;

/// A mapped input gives back its pages every this many bytes processed.
const RELEASE_STEP: usize = 2 << 20;

/// Where records may end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Boundary {
    /// After any `\n` (line and CSV formats).
    Line,
    /// After a blank line (grid format).
    BlankLine,
}

impl Boundary {
    /// The boundary rule of a plan.
    pub fn of(plan: &Plan) -> Boundary {
        match plan {
            Plan::Grid => Boundary::BlankLine,
            Plan::Line | Plan::Csv(_) => Boundary::Line,
        }
    }
}

/// Where the first chunk of `data` ends: the first record boundary at or after `target` bytes, or the end of
/// `data` when it is all of the input (`at_eof`). `None` means that `data` holds no boundary past `target` and more
/// input is needed. A `target` of 0 is treated as 1.
pub fn cut(data: &[u8], target: usize, at_eof: bool, boundary: Boundary) -> Option<usize> {
    let target = target.max(1);
    let end_of_input = at_eof.then_some(data.len());
    if data.len() <= target {
        return end_of_input;
    }
    // The line that holds byte `target - 1` ends at the first newline from there.
    let Some(nl) = memchr(b'\n', &data[target - 1..]).map(|i| target - 1 + i) else {
        return end_of_input;
    };
    match boundary {
        Boundary::Line => Some(nl + 1),
        Boundary::BlankLine => {
            let line_start = memchr::memrchr(b'\n', &data[..nl]).map_or(0, |i| i + 1);
            if data[line_start..nl].trim_ascii().is_empty() {
                return Some(nl + 1);
            }
            let mut start = nl + 1;
            loop {
                match memchr(b'\n', &data[start..]) {
                    Some(i) => {
                        if data[start..start + i].trim_ascii().is_empty() {
                            return Some(start + i + 1);
                        }
                        start += i + 1;
                    }
                    None => return end_of_input,
                }
            }
        }
    }
}

/// A chunk's bytes: borrowed from a mapped or in-memory input, or owned when read from a stream.
pub(crate) enum Chunk<'a> {
    Borrowed(&'a [u8]),
    Owned(Vec<u8>),
}

impl std::ops::Deref for Chunk<'_> {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Chunk::Borrowed(b) => b,
            Chunk::Owned(v) => v,
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
        file: &'a mut File,
        buf: Vec<u8>,
        eof: bool,
        target: usize,
        boundary: Boundary,
        spare: Vec<Vec<u8>>,
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

    pub(crate) fn stream(file: &'a mut File, target: usize) -> Chunks<'a> {
        Chunks::Stream {
            file,
            buf: Vec::new(),
            eof: false,
            target: target.max(1),
            boundary: Boundary::Line,
            spare: Vec::new(),
        }
    }

    /// At least `want` bytes of the start of the input (fewer at its end), and whether that is all of it.
    pub(crate) fn head(&mut self, want: usize) -> io::Result<(&[u8], bool)> {
        match self {
            Chunks::Bytes { data, pos, .. } => Ok((&data[*pos..], true)),
            Chunks::Stream { file, buf, eof, .. } => {
                fill(file, buf, eof, want)?;
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
            Chunks::Stream { buf, boundary, .. } => {
                buf.drain(..n);
                *boundary = rule;
            }
        }
    }

    /// The next chunk, or `None` at the end of the input.
    pub(crate) fn next_chunk(&mut self) -> io::Result<Option<Chunk<'a>>> {
        match self {
            Chunks::Bytes {
                data,
                pos,
                target,
                boundary,
                ..
            } => {
                let rest = &data[*pos..];
                if rest.is_empty() {
                    return Ok(None);
                }
                let end = cut(rest, *target, true, *boundary).unwrap_or(rest.len());
                *pos += end;
                let data: &'a [u8] = data;
                Ok(Some(Chunk::Borrowed(&data[*pos - end..*pos])))
            }
            Chunks::Stream {
                file,
                buf,
                eof,
                target,
                boundary,
                spare,
            } => {
                let mut want = *target + 1;
                let end = loop {
                    fill(file, buf, eof, want)?;
                    if buf.is_empty() {
                        return Ok(None);
                    }
                    if let Some(end) = cut(buf, *target, *eof, *boundary) {
                        break end;
                    }
                    // A record longer than the rest of the block: read on.
                    want = buf.len() * 2;
                };
                let mut next = spare.pop().unwrap_or_default();
                next.clear();
                next.extend_from_slice(&buf[end..]);
                let mut chunk = std::mem::replace(buf, next);
                chunk.truncate(end);
                Ok(Some(Chunk::Owned(chunk)))
            }
        }
    }

    /// Takes back a chunk whose processing is done, to reuse its memory; chunks come back in input order.
    pub(crate) fn recycle(&mut self, chunk: Chunk<'a>) {
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
                *done += chunk.len();
                if *done - *released >= RELEASE_STEP {
                    map.release(*released, *done);
                    *released = *done;
                }
            }
            _ => {}
        }
    }
}

/// Reads until `buf` holds `want` bytes or the stream ends.
fn fill(file: &mut File, buf: &mut Vec<u8>, eof: &mut bool, want: usize) -> io::Result<()> {
    while !*eof && buf.len() < want {
        let missing = (want - buf.len()) as u64;
        let n = file.by_ref().take(missing).read_to_end(buf)?;
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
    fn line_cuts_fall_after_a_newline_at_or_past_the_target() {
        let d = b"aaa\nbbb\nccc";
        assert_eq!(cut(d, 1, true, Boundary::Line), Some(4));
        assert_eq!(cut(d, 4, true, Boundary::Line), Some(4));
        assert_eq!(cut(d, 5, true, Boundary::Line), Some(8));
        assert_eq!(cut(d, 9, true, Boundary::Line), Some(11));
        assert_eq!(cut(d, 9, false, Boundary::Line), None);
        assert_eq!(cut(d, 100, true, Boundary::Line), Some(11));
        assert_eq!(cut(d, 0, true, Boundary::Line), Some(4));
    }

    #[test]
    fn grid_cuts_fall_after_a_blank_line() {
        let d = b"1\n2\n\n3\n4\n \r\n5\n";
        assert_eq!(cut(d, 1, true, Boundary::BlankLine), Some(5));
        assert_eq!(cut(d, 5, true, Boundary::BlankLine), Some(5));
        assert_eq!(cut(d, 6, true, Boundary::BlankLine), Some(12));
        assert_eq!(cut(d, 12, true, Boundary::BlankLine), Some(12));
        assert_eq!(cut(d, 13, true, Boundary::BlankLine), Some(14));
        assert_eq!(cut(d, 13, false, Boundary::BlankLine), None);
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
                let mut file = File::open(&path).unwrap();
                let mut b = Chunks::stream(&mut file, target);
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
