//! The temporary file under a regular-file output: unnamed (`O_TMPFILE`) where the file system allows it,
//! otherwise a hidden `.NAME.PID.N.tmp` beside the target, listed so that a signal's clean-up ([`abandon_all`]) can
//! remove it; and the names such a file takes.

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

/// The temporary file under a regular-file output.
pub(super) enum Temp {
    /// Created with `O_TMPFILE`: it has no name until it is linked in [`Sink::finish`](super::Sink::finish).
    Unnamed,
    /// A hidden file beside the target, listed in [`PENDING`] while it exists.
    Named(PathBuf),
}

/// Temporary output files of this process that exist under a name, so that [`abandon_all`] can remove them. The
/// lock is also held over every rename into place, so once `abandon_all` holds it no output can appear.
static PENDING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

pub(super) fn pending() -> MutexGuard<'static, Vec<PathBuf>> {
    PENDING.lock().unwrap_or_else(|e| e.into_inner())
}

/// For a process that is about to exit on a signal: removes every temporary output file of this process that has a
/// name, and keeps any output from being renamed into place while the returned guard lives. Hold the guard until
/// the process exits. Unnamed temporary files (see [`Sink`](super::Sink)) need nothing: the kernel frees them at
/// exit. For a program's signal handler (the `sudoku` binary calls it on SIGINT, SIGTERM and SIGHUP).
pub fn abandon_all() -> MutexGuard<'static, Vec<PathBuf>> {
    let mut list = pending();
    for path in list.drain(..) {
        let _ = std::fs::remove_file(path);
    }
    list
}

/// A hidden working file of a run beside its outputs (a spooled copy of standard input, a spill, rows to read
/// back): listed in [`PENDING`] like a named temporary output, so that a signal's clean-up ([`abandon_all`])
/// removes it too, and removed when dropped.
pub(crate) struct WorkFile {
    path: PathBuf,
}

impl WorkFile {
    /// Lists `path`, a file the run is about to create (or have created for it), for removal.
    pub(crate) fn listed(path: PathBuf) -> WorkFile {
        pending().push(path.clone());
        WorkFile { path }
    }

    /// Creates a new file `.sudoku-WHAT.PID.N` in `dir` (the first N free), open for reading and writing, listed
    /// for removal.
    pub(crate) fn create(dir: &Path, what: &str) -> io::Result<(WorkFile, File)> {
        let pid = std::process::id();
        for n in 0..1000u32 {
            let path = dir.join(format!(".sudoku-{what}.{pid}.{n}"));
            // Listed before it exists, so that no signal finds it unlisted.
            let work = WorkFile::listed(path);
            match std::fs::OpenOptions::new()
                .read(true)
                .write(true)
                .create_new(true)
                .open(&work.path)
            {
                Ok(f) => return Ok((work, f)),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                    // Not this one's: its own entry (the last of that path) unlisted without removing the file; an
                    // earlier entry, a live working file of this process by that name, stays listed.
                    let mut list = pending();
                    if let Some(i) = list.iter().rposition(|p| p == &work.path) {
                        list.remove(i);
                    }
                    drop(list);
                    std::mem::forget(work);
                }
                Err(e) => return Err(e),
            }
        }
        Err(io::Error::new(
            io::ErrorKind::AlreadyExists,
            "no free name for a working file",
        ))
    }

    /// The file's path.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for WorkFile {
    fn drop(&mut self) {
        forget_named(&self.path);
    }
}

/// Removes a named temporary file and drops it from [`PENDING`].
pub(super) fn forget_named(temp: &Path) {
    let mut list = pending();
    let _ = std::fs::remove_file(temp);
    list.retain(|p| p != temp);
}

/// The directory a temporary file for `path` goes in, and the name of `path` in it.
fn temp_place(path: &Path) -> io::Result<(PathBuf, std::ffi::OsString)> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "not a file name"))?
        .to_os_string();
    Ok((dir, name))
}

/// The longest file name most file systems take (`NAME_MAX`).
const NAME_MAX: usize = 255;

/// The name of temporary file `n` for a target named `name`: `.NAME.PID.N.tmp`, or `.sudoku.PID.N.tmp` when that
/// would be longer than a file name may be (a target name of 244 bytes or more).
fn temp_name(name: &std::ffi::OsStr, pid: u32, n: u32, short: bool) -> std::ffi::OsString {
    let tail = format!(".{pid}.{n}.tmp");
    let mut temp = std::ffi::OsString::from(".");
    if short || 1 + name.len() + tail.len() > NAME_MAX {
        temp.push("sudoku");
    } else {
        temp.push(name);
    }
    temp.push(tail);
    temp
}

/// Calls `make` with `.NAME.PID.N.tmp` beside `path` for N = 0, 1, ... until it does not find the name taken. A
/// file system that finds the name too long gets the short form of [`temp_name`].
fn with_free_name<T>(path: &Path, mut make: impl FnMut(&Path) -> io::Result<T>) -> io::Result<T> {
    let (dir, name) = temp_place(path)?;
    let pid = std::process::id();
    let mut short = false;
    let mut n = 0u32;
    while n < 1000 {
        let temp = dir.join(temp_name(&name, pid, n, short));
        match make(&temp) {
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => n += 1,
            Err(e) if name_too_long(&e) && !short => short = true,
            other => return other,
        }
    }
    Err(io::Error::new(
        io::ErrorKind::AlreadyExists,
        "no free temporary file name",
    ))
}

/// True when `e` says a name is longer than the file system takes.
fn name_too_long(e: &io::Error) -> bool {
    #[cfg(target_os = "linux")]
    return e.raw_os_error() == Some(libc::ENAMETOOLONG);
    #[cfg(not(target_os = "linux"))]
    return e.raw_os_error() == Some(63);
}

/// Creates the temporary file for `path` in its directory: unnamed where the file system supports it, otherwise
/// a new `.NAME.PID.N.tmp` (never overwriting an existing file), listed in [`PENDING`].
pub(super) fn create_temp_beside(path: &Path) -> io::Result<(File, Temp)> {
    let (dir, _) = temp_place(path)?;
    if let Some(file) = crate::os::create_unnamed(&dir)? {
        return Ok((file, Temp::Unnamed));
    }
    let mut list = pending();
    let (file, temp) = with_free_name(path, |temp| {
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(temp)
            .map(|f| (f, temp.to_path_buf()))
    })?;
    list.push(temp.clone());
    Ok((file, Temp::Named(temp)))
}

/// Gives the finished unnamed temporary file a name beside `path`, ready to be renamed over it.
pub(super) fn link_beside(file: &File, path: &Path) -> io::Result<PathBuf> {
    with_free_name(path, |temp| {
        crate::os::link_unnamed(file, temp).map(|()| temp.to_path_buf())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_work_file_is_listed_for_the_signal_clean_up_while_it_lives() {
        let dir = tempfile::tempdir().unwrap();
        let listed = |p: &Path| pending().iter().any(|q| q == p);
        let (work, mut file) = WorkFile::create(dir.path(), "test").unwrap();
        let path = work.path().to_path_buf();
        std::io::Write::write_all(&mut file, b"spooled").unwrap();
        assert!(path.exists() && listed(&path));
        // A second one takes the next free name.
        let (other, _) = WorkFile::create(dir.path(), "test").unwrap();
        assert_ne!(other.path(), path);
        // Meeting the first one's name on the way did not unlist it.
        assert!(path.exists() && listed(&path));
        drop(work);
        assert!(!path.exists() && !listed(&path));
        assert!(other.path().exists() && listed(other.path()));
        // A path listed before the run creates it.
        let later = dir.path().join(".later");
        let work = WorkFile::listed(later.clone());
        std::fs::write(&later, b"rows").unwrap();
        assert!(listed(&later));
        drop(work);
        assert!(!later.exists() && !listed(&later));
    }
}
