//! An open output ([`Sink`]): standard output, a device or FIFO written in place, or a regular file written through
//! a temporary file and renamed into place when complete; compressed on the way when the target asks for it.

use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::target::Target;
use super::temp::{create_temp_beside, forget_named, link_beside, pending, Temp};
use super::OutputError;
use crate::compression::Encoder;

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
///   when the run fails and by [`abandon_all`](super::abandon_all) on a catchable signal.
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

#[cfg(test)]
mod tests {
    use super::*;

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
