//! Where a run writes: standard output (plain or compressed) or a file named by the user.

use std::path::{Path, PathBuf};

use crate::compression::Compression;

/// Where a run writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// Standard output.
    Stdout,
    /// A file, written through a temporary file in the same directory and renamed into place when complete;
    /// compressed when its name ends in a [`Compression`]'s extension (`.gz`, `.zst`, `.xz`, `.bz2`).
    File(PathBuf),
    /// Standard output, compressed (never to a terminal).
    CompressedStdout(Compression),
}

impl Target {
    /// `None` or `-` mean standard output.
    pub fn from_arg(path: Option<&Path>) -> Target {
        match path {
            None => Target::Stdout,
            Some(p) if p.as_os_str() == "-" => Target::Stdout,
            Some(p) => Target::File(p.to_path_buf()),
        }
    }

    /// The compression the output gets: the file name's extension says for a file.
    pub(crate) fn compression(&self) -> Option<Compression> {
        match self {
            Target::Stdout => None,
            Target::File(p) => Compression::from_path(p),
            Target::CompressedStdout(c) => Some(*c),
        }
    }

    /// The target as messages name it: the path the user gave, or `<stdout>`.
    pub(super) fn display_path(&self) -> PathBuf {
        match self {
            Target::Stdout | Target::CompressedStdout(_) => PathBuf::from("<stdout>"),
            Target::File(p) => p.clone(),
        }
    }
}
