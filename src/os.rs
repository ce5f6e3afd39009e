//! The operating-system calls that need `unsafe` or are Linux-only, all fenced in this module: mapping an input
//! file read-only, dropping pages of that map from the resident set, starting the writeback of output early, and
//! unnamed temporary files (`O_TMPFILE`) linked into place when complete, whether standard output was closed when
//! the process started, whether a file lives on a pseudo file system (procfs, sysfs) that cannot be mapped, and
//! whether a stream has bytes to read now.
//! Callers get safe functions; each `unsafe` block says why it holds.

use std::fs::File;
use std::io;
use std::path::Path;

use memmap2::Mmap;

/// Maps `file` read-only and private, and asks for sequential read-ahead. The hazard (another process truncating
/// the file while it is mapped raises `SIGBUS`) is documented and checked for at
/// [`crate::batch::mapped::Mapped::open`].
pub(crate) fn map_readonly(file: &File) -> io::Result<Mmap> {
    // SAFETY: the map is read-only and private to this process; the only hazard is another process changing the
    // file under it, which Rust cannot rule out: that is the SIGBUS hazard documented at `Mapped::open`, and the
    // run checks the file's size and modification time at the end so that a change never passes silently.
    let map = unsafe { Mmap::map(file)? };
    // Chunks are read front to back once: let the kernel read ahead and drop pages behind.
    let _ = map.advise(memmap2::Advice::Sequential);
    Ok(map)
}

/// Drops the pages of `map[start..start + len]` from the process's resident set (they stay in the page cache). A
/// later read faults them in again from the file, so what the map reads does not change. Out-of-range requests and
/// failures are ignored: this is only advice.
pub(crate) fn drop_pages(map: &Mmap, start: usize, len: usize) {
    // SAFETY: MADV_DONTNEED on a read-only, file-backed private mapping that is never written does not change what
    // the mapping reads: a later access faults the page in again from the file (the only hazard, the file changing
    // under the map, is that of the map itself; see `map_readonly`). memmap2 checks the bounds.
    let _ = unsafe { map.unchecked_advise_range(memmap2::UncheckedAdvice::DontNeed, start, len) };
}

/// Starts writing bytes `offset..offset + len` of `file` to disk without waiting for it, so that the final sync of
/// a large output finds little left to do: the disk works while the run goes on. Only advice: on systems without
/// `sync_file_range`, or files that do not support it, nothing happens, and errors are left for the final sync to
/// report.
pub(crate) fn start_writeback(file: &File, offset: u64, len: u64) {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        let (Ok(offset), Ok(len)) = (
            libc::off64_t::try_from(offset),
            libc::off64_t::try_from(len),
        ) else {
            return;
        };
        // SAFETY: sync_file_range only reads its integer arguments; the descriptor is open and owned by `file`,
        // which the borrow keeps alive for the call. SYNC_FILE_RANGE_WRITE starts writeback of dirty pages in the
        // range and returns without waiting; it changes no file contents.
        let _ = unsafe {
            libc::sync_file_range(file.as_raw_fd(), offset, len, libc::SYNC_FILE_RANGE_WRITE)
        };
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (file, offset, len);
}

/// Creates an unnamed temporary file in `dir` (Linux `O_TMPFILE`): it has no name until [`link_unnamed`] gives it
/// one, so if the process dies first, by any signal, the kernel frees it and nothing is left in `dir`. `Ok(None)`
/// where the system or the file system does not support it (the caller then makes a named temporary file).
pub(crate) fn create_unnamed(dir: &Path) -> io::Result<Option<File>> {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::OpenOptionsExt;
        match std::fs::OpenOptions::new()
            .write(true)
            .mode(0o666)
            .custom_flags(libc::O_TMPFILE)
            .open(dir)
        {
            Ok(f) => Ok(Some(f)),
            // Not supported by this file system (EOPNOTSUPP), or by this kernel (EISDIR, EINVAL).
            Err(e)
                if matches!(
                    e.raw_os_error(),
                    Some(libc::EOPNOTSUPP | libc::EISDIR | libc::EINVAL)
                ) =>
            {
                Ok(None)
            }
            Err(e) => Err(e),
        }
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = dir;
        Ok(None)
    }
}

/// Gives a file made by [`create_unnamed`] the name `to` (which must not exist: that fails with
/// [`io::ErrorKind::AlreadyExists`]).
pub(crate) fn link_unnamed(file: &File, to: &Path) -> io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        use std::ffi::CString;
        use std::os::fd::AsRawFd;
        use std::os::unix::ffi::OsStrExt;
        let fd = file.as_raw_fd();
        let to = CString::new(to.as_os_str().as_bytes())
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "path holds a NUL byte"))?;
        let proc_path = CString::new(format!("/proc/self/fd/{fd}")).expect("no NUL in a number");
        // SAFETY: both paths are valid NUL-terminated C strings that outlive the call; linkat only reads them. The
        // descriptor named through /proc is open and owned by `file`, which the borrow keeps alive for the call.
        let r = unsafe {
            libc::linkat(
                libc::AT_FDCWD,
                proc_path.as_ptr(),
                libc::AT_FDCWD,
                to.as_ptr(),
                libc::AT_SYMLINK_FOLLOW,
            )
        };
        if r == 0 {
            return Ok(());
        }
        let err = io::Error::last_os_error();
        if err.raw_os_error() != Some(libc::ENOENT) {
            return Err(err);
        }
        // No /proc: link the descriptor itself (needs CAP_DAC_READ_SEARCH).
        // SAFETY: as above; the empty path is a valid C string and AT_EMPTY_PATH makes linkat use `fd` itself.
        let r = unsafe {
            libc::linkat(
                fd,
                c"".as_ptr(),
                libc::AT_FDCWD,
                to.as_ptr(),
                libc::AT_EMPTY_PATH,
            )
        };
        if r == 0 {
            Ok(())
        } else {
            Err(io::Error::last_os_error())
        }
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = (file, to);
        Err(io::Error::new(
            io::ErrorKind::Unsupported,
            "unnamed temporary files need Linux",
        ))
    }
}

/// Set before `main` when file descriptor 1 was closed as the process started (`sudoku ... >&-`).
#[cfg(target_os = "linux")]
static STDOUT_CLOSED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Runs before `main`, and before the Rust runtime, which puts `/dev/null` on a closed descriptor 0, 1 or 2: so
/// this is the only moment a closed standard output can be told from one sent to `/dev/null`.
#[cfg(target_os = "linux")]
extern "C" fn note_closed_stdout() {
    // SAFETY: fcntl(F_GETFD) only reads the descriptor table; it touches no memory of this process.
    let closed = unsafe { libc::fcntl(1, libc::F_GETFD) } == -1
        && io::Error::last_os_error().raw_os_error() == Some(libc::EBADF);
    STDOUT_CLOSED.store(closed, std::sync::atomic::Ordering::Relaxed);
}

/// The constructor above, called by the dynamic loader before `main` (ELF `.init_array`).
#[cfg(target_os = "linux")]
#[used]
#[link_section = ".init_array"]
static NOTE_CLOSED_STDOUT: extern "C" fn() = note_closed_stdout;

/// True when standard output was closed as the process started: what is now on descriptor 1 is the `/dev/null`
/// the runtime put there, and output written to it would be lost without a word.
pub(crate) fn stdout_closed_at_start() -> bool {
    #[cfg(target_os = "linux")]
    {
        STDOUT_CLOSED.load(std::sync::atomic::Ordering::Relaxed)
    }
    #[cfg(not(target_os = "linux"))]
    false
}

/// True when `file` is on a pseudo file system whose files report sizes that are not their contents (procfs
/// reports 0 for files full of text, sysfs 4096 for short ones), so they must be read, never mapped.
pub(crate) fn is_pseudo_file(file: &File) -> bool {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        const PROC_SUPER_MAGIC: i64 = 0x9fa0;
        const SYSFS_MAGIC: i64 = 0x6265_6572;
        const DEBUGFS_MAGIC: i64 = 0x6462_6720;
        const TRACEFS_MAGIC: i64 = 0x7472_6163;
        const CGROUP2_SUPER_MAGIC: i64 = 0x6367_7270;
        let mut st = std::mem::MaybeUninit::<libc::statfs>::zeroed();
        // SAFETY: fstatfs writes one `statfs` record into the buffer it is given, which is valid, aligned and large
        // enough; the descriptor is open and owned by `file`, which the borrow keeps alive for the call.
        let r = unsafe { libc::fstatfs(file.as_raw_fd(), st.as_mut_ptr()) };
        if r != 0 {
            return false;
        }
        #[allow(clippy::useless_conversion)] // f_type is not i64 on every target
        // SAFETY: fstatfs returned 0, so it filled the record (and it was zeroed before in any case).
        let kind = i64::from(unsafe { st.assume_init() }.f_type);
        matches!(
            kind,
            PROC_SUPER_MAGIC | SYSFS_MAGIC | DEBUGFS_MAGIC | TRACEFS_MAGIC | CGROUP2_SUPER_MAGIC
        )
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = file;
        false
    }
}

/// True when reading `fd` now would not wait: bytes are there, or its writer has gone (the read gives the end).
/// False when it would wait, or when that cannot be told.
pub(crate) fn readable_now(fd: std::os::fd::BorrowedFd<'_>) -> bool {
    #[cfg(not(target_os = "linux"))]
    {
        let _ = fd;
        false
    }
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        let mut poll = libc::pollfd {
            fd: fd.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: poll reads and writes the one `pollfd` it is given (valid for the call, count 1) and does not block
        // with a timeout of 0; the descriptor is kept open by the borrow.
        let r = unsafe { libc::poll(&mut poll, 1, 0) };
        r > 0 && poll.revents & (libc::POLLIN | libc::POLLHUP | libc::POLLERR) != 0
    }
}

/// Caps the malloc arenas of glibc at `n` for the whole process (`M_ARENA_MAX`); nothing elsewhere.
pub(crate) fn cap_malloc_arenas(n: i32) {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        // SAFETY: mallopt only sets a tuning parameter of the allocator; M_ARENA_MAX takes any positive count and
        // applies to arenas made from then on. It reads and writes no memory of the caller.
        let _ = unsafe { libc::mallopt(libc::M_ARENA_MAX, n) };
    }
    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    let _ = n;
}
