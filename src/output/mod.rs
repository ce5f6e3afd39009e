//! Where results go: standard output, a file that appears whole or not at all, or a device or FIFO written in
//! place. One file per concept: [`Target`] (`target`) names where a run writes; [`Sink`] (`sink`) is that place
//! opened, with the temporary file under a regular-file output (`temp`); the writer thread (`writer`, private to
//! the crate) writes the buffers of a run in order while the work goes on. Solving, rating and generating all send
//! their preformatted buffers here.
//!
//! A file whose name ends in `.gz`, `.zst`, `.xz` or `.bz2`, and standard output as [`Target::CompressedStdout`],
//! get the bytes compressed on the writer thread, under the same rules: a
//! compressed file appears whole (its stream ended) or not at all.

mod sink;
mod target;
mod temp;
mod writer;

use std::io;
use std::path::{Path, PathBuf};

pub use crate::compression::Compression;
pub use sink::Sink;
pub use target::Target;
pub use temp::abandon_all;
pub(crate) use temp::WorkFile;
pub(crate) use writer::Writer;

/// A failure to write results. The path is the file the user named (not the temporary file).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum OutputError {
    /// The temporary file beside the target could not be created.
    #[error("{}: cannot create output file: {source}", shown(path))]
    Create {
        /// The target the user named.
        path: PathBuf,
        /// The cause.
        source: io::Error,
    },
    /// Writing, flushing or syncing failed (a full disk shows here).
    #[error("{}: write failed: {source}", shown(path))]
    Write {
        /// The target the user named, or `<stdout>`.
        path: PathBuf,
        /// The cause.
        source: io::Error,
    },
    /// Renaming the finished temporary file into place failed.
    #[error("{}: cannot move finished output into place: {source}", shown(path))]
    Rename {
        /// The target the user named.
        path: PathBuf,
        /// The cause.
        source: io::Error,
    },
    /// The run gave up (its writer was aborted): the output was not completed, and a file target was removed.
    #[error("the run stopped before its output was complete")]
    Aborted,
    /// The reader of standard output went away (a closed pipe): the run should end quietly. The cause, an
    /// [`io::Error`] of kind [`io::ErrorKind::BrokenPipe`], is the error's `source()`, so a front end can find a
    /// closed pipe by one walk of the error chain.
    #[error("output pipe closed")]
    BrokenPipe {
        /// The cause, of kind [`io::ErrorKind::BrokenPipe`].
        source: io::Error,
    },
}

/// A path as messages show it ([`crate::record::display_name`]).
fn shown(path: &Path) -> String {
    crate::record::display_name(path.as_os_str().as_encoded_bytes())
}

impl OutputError {
    /// True for a closed pipe on standard output, which ends a run quietly with success.
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, OutputError::BrokenPipe { .. })
    }
}
