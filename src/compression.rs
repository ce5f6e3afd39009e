//! Compressed streams: the four codecs of the dumps users get (gzip, zstd, xz, bzip2), told apart by their first
//! bytes ([`Compression::detect`]) or by a file name's extension ([`Compression::from_path`]), with a streaming
//! decoder over any reader and an [`Encoder`] that compresses into a buffer the caller writes out.
//!
//! Decoders read every member (frame, stream) of a concatenated file, as `gzip -d`, `zstd -d`, `xz -d` and
//! `bzip2 -d` do, and fail on a truncated or corrupt stream instead of ending early: [`decode_error`] words those
//! failures. The codecs are the field's crates: flate2 on zlib-rs and bzip2 on libbz2-rs-sys (both pure Rust), zstd
//! and liblzma (their bundled C sources, built with the C compiler).

use std::io::{self, Read, Write};
use std::path::Path;

/// A compression format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Compression {
    /// gzip (RFC 1952), one or more members.
    Gzip,
    /// Zstandard, one or more frames.
    Zstd,
    /// xz (LZMA2), one or more streams.
    Xz,
    /// bzip2, one or more streams.
    Bzip2,
}

/// The largest zstd window read: 2^31 bytes (2 GiB), zstd's own limit on 64-bit targets (2^30 on 32-bit ones).
/// A frame's window is memory the decoder holds while reading it (at most the frame's content size when that is
/// known), so a stream made with `zstd --long=31` may take up to 2 GiB to read.
pub(crate) const ZSTD_WINDOW_LOG_MAX: u32 = if cfg!(target_pointer_width = "64") {
    31
} else {
    30
};

/// Bytes [`Compression::detect`] needs to recognise every format.
pub(crate) const MAGIC_LEN: usize = 10;

impl Compression {
    /// Every format, in the order of their names in messages.
    pub(crate) const ALL: [Compression; 4] = [
        Compression::Gzip,
        Compression::Zstd,
        Compression::Xz,
        Compression::Bzip2,
    ];

    /// The format's usual name (`gzip`, `zstd`, `xz`, `bzip2`).
    pub fn name(self) -> &'static str {
        match self {
            Compression::Gzip => "gzip",
            Compression::Zstd => "zstd",
            Compression::Xz => "xz",
            Compression::Bzip2 => "bzip2",
        }
    }

    /// The format's file name extension, without the dot (`gz`, `zst`, `xz`, `bz2`).
    pub(crate) fn extension(self) -> &'static str {
        match self {
            Compression::Gzip => "gz",
            Compression::Zstd => "zst",
            Compression::Xz => "xz",
            Compression::Bzip2 => "bz2",
        }
    }

    /// The format named by `name` (its name or extension, any case).
    pub fn from_name(name: &str) -> Option<Compression> {
        let name = name.to_ascii_lowercase();
        Compression::ALL
            .into_iter()
            .find(|c| c.name() == name || c.extension() == name)
    }

    /// The format a file name's extension asks for (`out.txt.gz` is gzip), if any.
    pub(crate) fn from_path(path: &Path) -> Option<Compression> {
        let ext = path.extension()?.to_str()?;
        Compression::ALL
            .into_iter()
            .find(|c| ext.eq_ignore_ascii_case(c.extension()))
    }

    /// The format whose magic bytes start `head` (give at least `MAGIC_LEN` (10) bytes when the input has them).
    /// Puzzle text never starts this way: every magic begins with a byte that is not printable ASCII, except
    /// bzip2's `BZh`, which is checked with its level digit and the magic of its first block (or of its end).
    pub(crate) fn detect(head: &[u8]) -> Option<Compression> {
        const BZ_BLOCK: &[u8] = &[0x31, 0x41, 0x59, 0x26, 0x53, 0x59];
        const BZ_END: &[u8] = &[0x17, 0x72, 0x45, 0x38, 0x50, 0x90];
        match head {
            [0x1f, 0x8b, 0x08, ..] => Some(Compression::Gzip),
            [0x28, 0xb5, 0x2f, 0xfd, ..] => Some(Compression::Zstd),
            // A skippable frame (0x184D2A50..=0x184D2A5F, little-endian) may open a zstd file.
            [m, 0x2a, 0x4d, 0x18, ..] if m & 0xf0 == 0x50 => Some(Compression::Zstd),
            [0xfd, b'7', b'z', b'X', b'Z', 0x00, ..] => Some(Compression::Xz),
            [b'B', b'Z', b'h', level, rest @ ..]
                if (b'1'..=b'9').contains(level)
                    && (rest.starts_with(BZ_BLOCK) || rest.starts_with(BZ_END)) =>
            {
                Some(Compression::Bzip2)
            }
            _ => None,
        }
    }

    /// A reader of the decompressed bytes of `input` (all its members), whose errors name the codec and what is
    /// wrong.
    pub(crate) fn decoder<'r, R: Read + Send + 'r>(
        self,
        input: R,
    ) -> io::Result<Box<dyn Read + Send + 'r>> {
        let input = io::BufReader::with_capacity(128 * 1024, input);
        let inner: Box<dyn Read + Send + 'r> = match self {
            Compression::Gzip => Box::new(flate2::bufread::MultiGzDecoder::new(input)),
            Compression::Zstd => {
                let mut d = zstd::stream::read::Decoder::with_buffer(input)?;
                // Frames made with `zstd --long=31` (or any window log up to 31) are read, as `zstd -d
                // --long=31` reads them: the decoder then holds up to the frame's window (2^31 bytes at most).
                d.window_log_max(ZSTD_WINDOW_LOG_MAX)?;
                Box::new(d)
            }
            Compression::Xz => Box::new(liblzma::bufread::XzDecoder::new_multi_decoder(input)),
            Compression::Bzip2 => Box::new(bzip2::bufread::MultiBzDecoder::new(input)),
        };
        Ok(Box::new(Decoder { inner, codec: self }))
    }
}

impl std::fmt::Display for Compression {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A decoder whose errors say that the compressed data, not the file, is at fault.
struct Decoder<'r> {
    inner: Box<dyn Read + Send + 'r>,
    codec: Compression,
}

impl Read for Decoder<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.inner
            .read(buf)
            .map_err(|e| decode_error(self.codec, e))
    }
}

/// The error of a failed decode, worded for the user: a stream that ends early is called truncated, anything else
/// corrupt, a zstd frame whose window is above [`ZSTD_WINDOW_LOG_MAX`] too large (never corrupt); the decoder's own
/// words follow. (An error reading the file itself reaches here too, and keeps its own
/// words after the codec's name.)
pub(crate) fn decode_error(codec: Compression, e: io::Error) -> io::Error {
    // zstd's words for a frame whose window is above the limit set ([`ZSTD_WINDOW_LOG_MAX`]): the data is not
    // corrupt, it asks for more memory than is allowed.
    if codec == Compression::Zstd && e.to_string().contains("requires too much memory") {
        let what = format!(
            "a frame's window is larger than the {} MiB this reader allows",
            1u64 << (ZSTD_WINDOW_LOG_MAX - 20)
        );
        return io::Error::new(e.kind(), format!("{codec}: {what}: {e}"));
    }
    let what = match e.kind() {
        io::ErrorKind::UnexpectedEof => "compressed data ends early (truncated file?)",
        io::ErrorKind::InvalidInput | io::ErrorKind::InvalidData | io::ErrorKind::Other => {
            "compressed data is corrupt"
        }
        _ => "cannot read compressed data",
    };
    io::Error::new(e.kind(), format!("{codec}: {what}: {e}"))
}

/// Compresses bytes into a buffer of its own, which the caller drains to wherever the output goes; errors stay the
/// caller's to word (a full disk is the target's error, not the codec's).
pub(crate) enum Encoder {
    /// gzip at level 6 (gzip's default).
    Gzip(flate2::write::GzEncoder<Vec<u8>>),
    /// zstd at level 3 (zstd's default), with each frame's checksum (as the `zstd` tool writes it): without one,
    /// damage inside a frame may never be found by a reader.
    Zstd(zstd::stream::write::Encoder<'static, Vec<u8>>),
    /// xz at level 6 (xz's default): the best ratio by far on solution text, whose repeats lie megabytes apart,
    /// but about 94 MiB of memory and under 1 MB of text per second (see the README's table).
    Xz(liblzma::write::XzEncoder<Vec<u8>>),
    /// bzip2 at level 9 (bzip2's default).
    Bzip2(bzip2::write::BzEncoder<Vec<u8>>),
}

impl Encoder {
    /// A new encoder at the format's usual default level.
    pub(crate) fn new(codec: Compression) -> io::Result<Encoder> {
        Ok(match codec {
            Compression::Gzip => Encoder::Gzip(flate2::write::GzEncoder::new(
                Vec::new(),
                flate2::Compression::new(6),
            )),
            Compression::Zstd => {
                let mut e = zstd::stream::write::Encoder::new(Vec::new(), 3)?;
                e.include_checksum(true)?;
                Encoder::Zstd(e)
            }
            Compression::Xz => Encoder::Xz(liblzma::write::XzEncoder::new(Vec::new(), 6)),
            Compression::Bzip2 => Encoder::Bzip2(bzip2::write::BzEncoder::new(
                Vec::new(),
                bzip2::Compression::best(),
            )),
        })
    }

    /// Compresses `bytes`; the compressed bytes ready so far are in the returned buffer, which the caller writes
    /// out and clears.
    pub(crate) fn write(&mut self, bytes: &[u8]) -> io::Result<&mut Vec<u8>> {
        Ok(match self {
            Encoder::Gzip(e) => {
                e.write_all(bytes)?;
                e.get_mut()
            }
            Encoder::Zstd(e) => {
                e.write_all(bytes)?;
                e.get_mut()
            }
            Encoder::Xz(e) => {
                e.write_all(bytes)?;
                e.get_mut()
            }
            Encoder::Bzip2(e) => {
                e.write_all(bytes)?;
                e.get_mut()
            }
        })
    }

    /// Ends the stream: the last compressed bytes (those not yet drained, and the trailer).
    pub(crate) fn finish(self) -> io::Result<Vec<u8>> {
        match self {
            Encoder::Gzip(e) => e.finish(),
            Encoder::Zstd(e) => e.finish(),
            Encoder::Xz(e) => e.finish(),
            Encoder::Bzip2(e) => e.finish(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn compress(codec: Compression, text: &[u8]) -> Vec<u8> {
        let mut e = Encoder::new(codec).unwrap();
        let mut out = Vec::new();
        for piece in text.chunks(1000) {
            let ready = e.write(piece).unwrap();
            out.append(ready);
        }
        out.extend(e.finish().unwrap());
        out
    }

    fn decompress(codec: Compression, data: &[u8]) -> io::Result<Vec<u8>> {
        let mut out = Vec::new();
        codec.decoder(data)?.read_to_end(&mut out)?;
        Ok(out)
    }

    fn sample() -> Vec<u8> {
        (0..5000u32)
            .flat_map(|i| format!("{:081}\n", u128::from(i) * 7_919_000_013).into_bytes())
            .collect()
    }

    #[test]
    fn every_codec_round_trips_and_is_detected_by_its_bytes() {
        let text = sample();
        for codec in Compression::ALL {
            let packed = compress(codec, &text);
            assert_eq!(Compression::detect(&packed), Some(codec), "{codec}");
            assert!(packed.len() < text.len() / 4, "{codec}");
            assert!(decompress(codec, &packed).unwrap() == text, "{codec}");
            // Two members (frames, streams) one after the other read as their texts one after the other.
            let mut two = packed.clone();
            two.extend(compress(codec, b"second\n"));
            let mut expect = text.clone();
            expect.extend_from_slice(b"second\n");
            assert!(decompress(codec, &two).unwrap() == expect, "{codec}");
            // The empty text too.
            assert_eq!(decompress(codec, &compress(codec, b"")).unwrap(), b"");
        }
    }

    #[test]
    fn truncated_and_corrupt_streams_are_errors_never_short_text() {
        let text = sample();
        for codec in Compression::ALL {
            let packed = compress(codec, &text);
            for cut in [packed.len() - 1, packed.len() - 9, packed.len() / 2, 12] {
                let e = decompress(codec, &packed[..cut]).unwrap_err();
                assert!(e.to_string().starts_with(&format!("{codec}: ")), "{e}");
            }
            let mut bad = packed.clone();
            let mid = bad.len() / 2;
            bad[mid] ^= 0x55;
            bad[mid + 1] ^= 0xaa;
            assert!(decompress(codec, &bad).is_err(), "{codec}");
            // Garbage after a complete member is not silently dropped.
            let mut trailing = packed.clone();
            trailing.extend_from_slice(b"not compressed\n");
            assert!(decompress(codec, &trailing).is_err(), "{codec}");
        }
    }

    #[test]
    fn written_zstd_frames_carry_a_checksum() {
        let packed = compress(Compression::Zstd, &sample());
        // The frame header descriptor follows the 4-byte magic; its bit 2 is the content checksum flag.
        assert_ne!(packed[4] & 0x04, 0, "no checksum");
        // So a flipped bit in the compressed text is found, not read as other text.
        let mut bad = packed.clone();
        let at = packed.len() / 2;
        bad[at] ^= 0x10;
        assert!(decompress(Compression::Zstd, &bad).is_err());
    }

    #[test]
    fn zstd_long_windows_are_read() {
        // What `zstd --long=31` writes: long-distance matching and a window log of 31, declared in the frame
        // header of a stream whose size is not known in advance.
        let text = sample();
        let mut e = zstd::stream::write::Encoder::new(Vec::new(), 3).unwrap();
        e.long_distance_matching(true).unwrap();
        e.window_log(ZSTD_WINDOW_LOG_MAX).unwrap();
        for piece in text.chunks(1000) {
            e.write_all(piece).unwrap();
        }
        let packed = e.finish().unwrap();
        assert!(decompress(Compression::Zstd, &packed).unwrap() == text);
    }

    #[test]
    fn a_zstd_window_above_the_limit_is_called_too_large_not_corrupt() {
        let e = io::Error::other("Frame requires too much memory for decoding");
        let shown = decode_error(Compression::Zstd, e).to_string();
        assert!(
            shown.starts_with("zstd: a frame's window is larger than the 2048 MiB"),
            "{shown}"
        );
        assert!(!shown.contains("corrupt"), "{shown}");
    }

    #[test]
    fn plain_text_is_not_taken_for_compressed() {
        for text in [
            &b""[..],
            b"BZh9 is not bzip2\n",
            b"4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n",
            b"quizzes,solutions\n",
            b"\x1f\x8b",
        ] {
            assert_eq!(Compression::detect(text), None);
        }
    }

    #[test]
    fn names_and_extensions() {
        assert_eq!(
            Compression::from_path(Path::new("a/out.txt.GZ")),
            Some(Compression::Gzip)
        );
        assert_eq!(
            Compression::from_path(Path::new("x.zst")),
            Some(Compression::Zstd)
        );
        assert_eq!(Compression::from_path(Path::new("x.txt")), None);
        assert_eq!(Compression::from_path(Path::new("xz")), None);
        assert_eq!(Compression::from_name("bzip2"), Some(Compression::Bzip2));
        assert_eq!(Compression::from_name("bz2"), Some(Compression::Bzip2));
        assert_eq!(Compression::from_name("zip"), None);
    }
}
