//! Inputs: naming them, opening them, sniffing their first bytes, and getting at their bytes. A regular file is
//! memory-mapped (a [`Mapped`] file) unless `--no-mmap`; standard input, other non-regular files (pipes, devices),
//! files that report a size of 0 and files of procfs or sysfs (whose sizes are not their contents) are read in
//! blocks. Both reach the same chunking and parsing code. A file whose size or modification time differs at the end
//! of the run from the start fails the run.
//!
//! Every file and standard input is looked at for the magic bytes of a [`Compression`] or of a table
//! ([`TableKind`], read by `batch::table_run`), never its name: a compressed one is read in blocks and decoded on a
//! thread of its own (`batch::decode`), and its text goes to the same chunking code. A regular file is looked at
//! when opened (without moving its position); a stream, which cannot be read twice, only when its turn comes
//! (`Opened::start`), so that opening the inputs never waits for a pipe or a terminal; the decoder starts then too,
//! and is gone when its input is done (`Opened::done`), so that many compressed inputs do not hold many threads and
//! buffers.

use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use super::decode::Decoded;
use super::mapped::Mapped;
use super::table::TableKind;
use super::BatchError;
use crate::compression::{Compression, MAGIC_LEN};

/// One input of a run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InputSpec {
    /// Standard input (`-` or no path), always read, never mapped.
    Stdin,
    /// A file: mapped when regular, read otherwise.
    Path(PathBuf),
    /// Bytes already in memory (a puzzle given on the command line), with the name used in messages.
    Bytes {
        /// Name for messages, such as `<argument>`.
        name: String,
        /// The text.
        data: Vec<u8>,
    },
    /// A file read as [`InputSpec::Path`] is, named `name` in messages (a copy of standard input spooled to a
    /// file, named as standard input).
    Named {
        /// Name for messages, such as `<stdin>`.
        name: String,
        /// The file.
        path: PathBuf,
    },
}

impl InputSpec {
    /// The one rule for a command-line input: `-` is standard input; an existing path is that file; an argument
    /// that names no file and reads as puzzle text (only digits, dots and white space, at least nine cells) is that
    /// puzzle, named `<argument>`; anything else is a path (whose opening then fails with a clear message).
    pub fn from_arg(arg: &Path) -> InputSpec {
        if arg.as_os_str() == "-" {
            return InputSpec::Stdin;
        }
        if arg.exists() {
            return InputSpec::Path(arg.to_path_buf());
        }
        match arg.to_str() {
            Some(text) if looks_like_puzzle(text) => InputSpec::Bytes {
                name: "<argument>".into(),
                data: text.as_bytes().to_vec(),
            },
            _ => InputSpec::Path(arg.to_path_buf()),
        }
    }

    /// The name messages give this input and its whole text, for small inputs read at once (the puzzles of `sudoku
    /// explain`): standard input or a file read to its end and decoded when its first bytes are a compression's
    /// magic, as a batch run reads it; bytes in memory as they are. At most `limit` bytes of text are read, and one
    /// more: a text longer than `limit` says the input holds more, and the caller decides (nothing is cut quietly).
    ///
    /// # Errors
    /// [`BatchError::Open`] when the input cannot be opened, [`BatchError::Read`] when reading or decoding it fails.
    pub fn read_text(self, limit: u64) -> Result<(String, Vec<u8>), BatchError> {
        let (name, input): (String, Box<dyn Read + Send>) = match self {
            InputSpec::Bytes { name, data } => return Ok((name, data)),
            InputSpec::Stdin => ("<stdin>".to_string(), Box::new(io::stdin())),
            InputSpec::Path(path) => file_input(path_name(&path), &path)?,
            InputSpec::Named { name, path } => file_input(name, &path)?,
        };
        let read = || -> io::Result<Vec<u8>> {
            let mut input = input;
            let mut head = Vec::with_capacity(MAGIC_LEN);
            (&mut input).take(MAGIC_LEN as u64).read_to_end(&mut head)?;
            let codec = Compression::detect(&head);
            let whole = io::Cursor::new(head).chain(input);
            let text: Box<dyn Read + Send> = match codec {
                Some(codec) => codec.decoder(whole)?,
                None => Box::new(whole),
            };
            let mut out = Vec::new();
            text.take(limit.saturating_add(1)).read_to_end(&mut out)?;
            Ok(out)
        };
        match read() {
            Ok(text) => Ok((name, text)),
            Err(source) => Err(BatchError::Read { name, source }),
        }
    }
}

/// Opens the file at `path` for reading, with its metadata; a directory is an error.
fn open_file(path: &Path) -> io::Result<(File, std::fs::Metadata)> {
    let file = File::open(path).map_err(|e| not_a_puzzle_either(path, e))?;
    let meta = file.metadata()?;
    if meta.is_dir() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "is a directory",
        ));
    }
    Ok((file, meta))
}

/// A file that is not there, named by puzzle characters alone (too few cells to be taken for a puzzle, see
/// [`InputSpec::from_arg`]): the error says it is neither a file nor a puzzle, its kind kept.
fn not_a_puzzle_either(path: &Path, e: io::Error) -> io::Error {
    match path.to_str().and_then(puzzle_cells) {
        Some(cells) if e.kind() == io::ErrorKind::NotFound && cells > 0 => io::Error::new(
            io::ErrorKind::NotFound,
            format!(
                "no such file, and not a puzzle either: a puzzle has 81 cells (1-9, and 0 or . for blanks), \
                 this has {cells}"
            ),
        ),
        _ => e,
    }
}

/// The cells (digits and dots) of a text made of puzzle characters alone (digits, dots, whitespace); `None` for
/// any other text.
fn puzzle_cells(text: &str) -> Option<usize> {
    text.chars()
        .all(|c| c.is_ascii_digit() || c == '.' || c.is_ascii_whitespace())
        .then(|| text.chars().filter(|c| !c.is_ascii_whitespace()).count())
}

/// Puzzle text rather than a file name: only digits, dots and whitespace, and at least a row's worth of cells.
fn looks_like_puzzle(text: &str) -> bool {
    puzzle_cells(text).is_some_and(|cells| cells >= 9)
}

/// An open input.
pub(crate) struct Opened {
    /// Name for messages: the path as given, `<stdin>`, or the name of in-memory bytes.
    pub(crate) name: String,
    pub(crate) data: Data,
    /// For a regular file: its path and what it looked like when opened.
    stamp: Option<(PathBuf, Stamp)>,
}

pub(crate) enum Data {
    Mapped(Mapped),
    Memory(Vec<u8>),
    Stream(File),
    /// A regular file holding compressed data, not yet started.
    Compressed {
        codec: Compression,
        file: File,
    },
    /// A stream whose first bytes (`head`) were read to look for a compression magic, and were not one.
    Started {
        head: Vec<u8>,
        file: File,
    },
    /// The text of a compressed input.
    Decoded(Decoded),
    /// A Parquet or Arrow table, read by `batch::table_run` once taken out ([`Opened::take_table`]).
    Table(Table),
}

/// A Parquet or Arrow table input: a regular file at its start (`seekable`), or a stream whose first bytes are
/// `head`.
#[cfg_attr(not(feature = "parquet"), allow(dead_code))]
pub(crate) struct Table {
    pub(crate) kind: TableKind,
    pub(crate) file: File,
    pub(crate) head: Vec<u8>,
    pub(crate) seekable: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Stamp {
    len: u64,
    modified: Option<SystemTime>,
}

impl Stamp {
    fn of(meta: &std::fs::Metadata) -> Stamp {
        Stamp {
            len: meta.len(),
            modified: meta.modified().ok(),
        }
    }
}

/// The name messages give a file input known by its path: the path as [`display_name`](crate::record::display_name)
/// shows it.
fn path_name(path: &Path) -> String {
    crate::record::display_name(path.as_os_str().as_encoded_bytes())
}

/// A file input opened for [`InputSpec::read_text`], with its name for messages.
fn file_input(name: String, path: &Path) -> Result<(String, Box<dyn Read + Send>), BatchError> {
    match open_file(path) {
        Ok((file, _)) => Ok((name, Box::new(file))),
        Err(source) => Err(BatchError::Open { name, source }),
    }
}

impl Opened {
    pub(crate) fn open(spec: InputSpec, mmap: bool) -> Result<Opened, BatchError> {
        match spec {
            InputSpec::Path(path) => Opened::open_file(path_name(&path), path, mmap),
            InputSpec::Named { name, path } => Opened::open_file(name, path, mmap),
            InputSpec::Bytes { name, data } => Ok(Opened {
                name,
                data: Data::Memory(data),
                stamp: None,
            }),
            InputSpec::Stdin => {
                use std::os::fd::AsFd;
                let name = "<stdin>".to_string();
                let fd = io::stdin().as_fd().try_clone_to_owned().map_err(|source| {
                    BatchError::Open {
                        name: name.clone(),
                        source,
                    }
                })?;
                Ok(Opened {
                    name,
                    data: Data::Stream(File::from(fd)),
                    stamp: None,
                })
            }
        }
    }

    /// Opens the file at `path`, named `name` in messages.
    fn open_file(name: String, path: PathBuf, mmap: bool) -> Result<Opened, BatchError> {
        let open_err = |source| BatchError::Open {
            name: name.clone(),
            source,
        };
        let (file, meta) = open_file(&path).map_err(open_err)?;
        if !meta.is_file() {
            return Ok(Opened {
                name,
                data: Data::Stream(file),
                stamp: None,
            });
        }
        // procfs and sysfs files report sizes that are not their contents (0 for /proc/self/environ),
        // and change as they like: they are read in blocks, never mapped nor checked for changes. So is a
        // file that reports no bytes: whatever it holds is read.
        if crate::os::is_pseudo_file(&file) {
            return Ok(Opened {
                name,
                data: Data::Stream(file),
                stamp: None,
            });
        }
        let stamp = Some((path, Stamp::of(&meta)));
        let head = head_of(&file).map_err(|source| BatchError::Read {
            name: name.clone(),
            source,
        })?;
        let data = if let Some(kind) = TableKind::detect(&head) {
            Data::Table(Table {
                kind,
                file,
                head: Vec::new(),
                seekable: true,
            })
        } else if let Some(codec) = Compression::detect(&head) {
            Data::Compressed { codec, file }
        } else if !mmap || meta.len() == 0 {
            Data::Stream(file)
        } else {
            Data::Mapped(Mapped::open(&file).map_err(|source| BatchError::Map {
                name: name.clone(),
                source,
            })?)
        };
        Ok(Opened { name, data, stamp })
    }

    /// Input size when known in advance (for the progress bar).
    pub(crate) fn len(&self) -> Option<u64> {
        match &self.data {
            Data::Mapped(m) => Some(m.bytes().len() as u64),
            Data::Memory(v) => Some(v.len() as u64),
            Data::Stream(_) | Data::Started { .. } | Data::Table(_) => {
                self.stamp.as_ref().map(|(_, s)| s.len)
            }
            // Progress counts text bytes, and the size of the text is not known in advance.
            Data::Compressed { .. } | Data::Decoded(_) => None,
        }
    }

    /// Makes the input ready for reading when its turn comes: a stream is looked at for a compression magic, and
    /// a compressed input gets its decoding thread.
    pub(crate) fn start(&mut self) -> Result<(), BatchError> {
        let started = match std::mem::replace(&mut self.data, Data::Memory(Vec::new())) {
            Data::Stream(file) if self.stamp.is_none() => start_stream(file),
            Data::Compressed { codec, file } => Decoded::spawn(codec, file).map(Data::Decoded),
            other => Ok(other),
        };
        self.data = started.map_err(|source| BatchError::Read {
            name: self.name.clone(),
            source,
        })?;
        Ok(())
    }

    /// True while the input's text comes from a decoder (a compressed input, started): its damage is found only at
    /// a member's, block's or frame's checksum, after the text before it was handed on.
    pub(crate) fn is_decoded(&self) -> bool {
        matches!(self.data, Data::Decoded(_))
    }

    /// For a started plain stream that is a pipe, FIFO, socket or terminal (whose writer may wait for each answer
    /// before it writes the next line): a second handle on it, to ask whether it has bytes to read now. `None` for
    /// any other input.
    pub(crate) fn interactive(&self) -> Option<File> {
        use std::os::unix::fs::FileTypeExt;
        let Data::Started { file, .. } = &self.data else {
            return None;
        };
        let t = file.metadata().ok()?.file_type();
        if t.is_fifo() || t.is_socket() || t.is_char_device() {
            file.try_clone().ok()
        } else {
            None
        }
    }

    /// Lets go of a stream's buffers and decoding thread once its input is done (a map stays for the run).
    pub(crate) fn done(&mut self) {
        if matches!(
            self.data,
            Data::Started { .. } | Data::Decoded(_) | Data::Table(_)
        ) {
            self.data = Data::Memory(Vec::new());
        }
    }

    /// The input's table, taken out (the input then holds no data, as when [`Opened::done`]); `None`, the input left
    /// as it was, when it is not a table.
    pub(crate) fn take_table(&mut self) -> Option<Table> {
        match std::mem::replace(&mut self.data, Data::Memory(Vec::new())) {
            Data::Table(table) => Some(table),
            other => {
                self.data = other;
                None
            }
        }
    }

    /// Fails when a regular file's size or modification time changed since it was opened: its output may be wrong.
    pub(crate) fn check_unchanged(&self) -> Result<(), BatchError> {
        let Some((path, before)) = &self.stamp else {
            return Ok(());
        };
        let now = std::fs::metadata(path).map(|m| Stamp::of(&m));
        match now {
            Ok(now) if now == *before => Ok(()),
            Ok(now) => Err(BatchError::Changed {
                name: self.name.clone(),
                before: before.len,
                after: now.len,
                discarded: true,
            }),
            Err(source) => Err(BatchError::Open {
                name: self.name.clone(),
                source,
            }),
        }
    }
}

/// The first bytes of a regular file that tell a compression or a table (read without moving the file's
/// position).
fn head_of(file: &File) -> io::Result<Vec<u8>> {
    use std::os::unix::fs::FileExt;
    let mut head = [0u8; MAGIC_LEN];
    let mut n = 0;
    while n < MAGIC_LEN {
        match file.read_at(&mut head[n..], n as u64) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(head[..n].to_vec())
}

/// A stream that cannot be read twice (standard input, a pipe, a device): its first bytes are read to look for a
/// compression magic, and go on to the decoder or to the chunker. The look stops at a line end (no magic holds a
/// `\n`, and the shorter magics are whole before one can matter), so that a short first line typed or piped
/// while its writer waits is not held back.
fn start_stream(mut file: File) -> io::Result<Data> {
    let mut head = Vec::with_capacity(MAGIC_LEN);
    let mut piece = [0u8; MAGIC_LEN];
    while head.len() < MAGIC_LEN && !head.contains(&b'\n') {
        match file.read(&mut piece[..MAGIC_LEN - head.len()]) {
            Ok(0) => break,
            Ok(n) => head.extend_from_slice(&piece[..n]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    if let Some(kind) = TableKind::detect(&head) {
        return Ok(Data::Table(Table {
            kind,
            file,
            head,
            seekable: false,
        }));
    }
    Ok(match Compression::detect(&head) {
        Some(codec) => Data::Decoded(Decoded::spawn(codec, io::Cursor::new(head).chain(file))?),
        None => Data::Started { head, file },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_regular_file_is_mapped_unless_told_not_to() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.txt");
        std::fs::write(&path, b"12\n").unwrap();
        let o = Opened::open(InputSpec::Path(path.clone()), true).unwrap();
        assert!(matches!(&o.data, Data::Mapped(m) if m.bytes() == b"12\n"));
        assert_eq!(o.len(), Some(3));
        let o = Opened::open(InputSpec::Path(path.clone()), false).unwrap();
        assert!(matches!(o.data, Data::Stream(_)));
        std::fs::write(dir.path().join("empty"), b"").unwrap();
        let o = Opened::open(InputSpec::Path(dir.path().join("empty")), true).unwrap();
        assert!(matches!(o.data, Data::Stream(_)));
    }

    #[test]
    fn a_compressed_file_is_decoded_only_from_its_start_until_it_is_done() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.txt.anything");
        let mut e = crate::compression::Encoder::new(Compression::Xz).unwrap();
        let mut packed = std::mem::take(e.write(b"12\n").unwrap());
        packed.extend(e.finish().unwrap());
        std::fs::write(&path, &packed).unwrap();
        for mmap in [true, false] {
            let mut o = Opened::open(InputSpec::Path(path.clone()), mmap).unwrap();
            assert!(matches!(
                o.data,
                Data::Compressed {
                    codec: Compression::Xz,
                    ..
                }
            ));
            assert_eq!(o.len(), None);
            o.start().unwrap();
            let Data::Decoded(text) = &mut o.data else {
                panic!("not decoding")
            };
            let mut all = Vec::new();
            text.read_to_end(&mut all).unwrap();
            assert_eq!(all, b"12\n");
            o.done();
            assert!(matches!(o.data, Data::Memory(ref v) if v.is_empty()));
            o.check_unchanged().unwrap();
        }
    }

    #[test]
    fn a_file_that_changes_size_is_caught() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.txt");
        std::fs::write(&path, b"12\n").unwrap();
        let o = Opened::open(InputSpec::Path(path.clone()), true).unwrap();
        o.check_unchanged().unwrap();
        // Grow it (growing cannot fault the pages already mapped).
        std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .and_then(|mut f| io::Write::write_all(&mut f, b"34\n"))
            .unwrap();
        let e = o.check_unchanged().unwrap_err();
        assert!(e.to_string().contains("changed during the run"), "{e}");
    }

    #[test]
    fn puzzle_text_is_told_from_file_names() {
        assert!(looks_like_puzzle(
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
        ));
        assert!(looks_like_puzzle("0 0 3\n0 0 0\n1 2 3 4"));
        assert!(!looks_like_puzzle("puzzles.txt"));
        assert!(!looks_like_puzzle("2024.txt"));
        assert!(matches!(
            InputSpec::from_arg(Path::new("no-such-file.txt")),
            InputSpec::Path(_)
        ));
        assert_eq!(InputSpec::from_arg(Path::new("-")), InputSpec::Stdin);
    }

    #[test]
    fn missing_file_and_directory_are_open_errors() {
        let e = Opened::open(InputSpec::Path("/nonexistent/x.txt".into()), true)
            .err()
            .unwrap();
        assert!(e.to_string().starts_with("/nonexistent/x.txt: "), "{e}");
        let e = Opened::open(InputSpec::Path("/".into()), true)
            .err()
            .unwrap();
        assert_eq!(e.to_string(), "/: is a directory");
    }
}
