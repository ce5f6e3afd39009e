//! The mapped file: a regular input file mapped read-only for the whole run ([`Mapped`], through its one
//! constructor), its bytes read in place, and its pages given back as the run moves past them.

use std::fs::File;
use std::io;

use memmap2::Mmap;

/// A mapped input file.
pub(crate) struct Mapped(Mmap);

impl Mapped {
    /// Maps a regular file read-only for the whole run. The only memory map of the crate.
    ///
    /// # SIGBUS hazard
    /// A map is only as stable as the file under it. If another process truncates the file while it is mapped,
    /// reading a page that is no longer backed by the file raises `SIGBUS` and the process dies at once: no message,
    /// no summary, and with `-o` a temporary `.NAME.PID.N.tmp` file may be left beside the target (the target itself
    /// is never touched, because it is only renamed into place after a complete run). A file that is rewritten in
    /// place or grows gives no signal; the run then checks the size and modification time again at the end and
    /// fails rather than keep output made from changing input. `--no-mmap` reads the file instead and avoids the
    /// signal.
    pub(crate) fn open(file: &File) -> io::Result<Mapped> {
        crate::os::map_readonly(file).map(Mapped)
    }

    pub(crate) fn bytes(&self) -> &[u8] {
        &self.0
    }

    /// Says that the run is done with bytes `start..end`: their pages leave the process's resident set (they stay
    /// in the page cache), so that resident memory stays flat however large the file. Reading them again would
    /// still work: it faults the pages back in from the file.
    pub(crate) fn release(&self, start: usize, end: usize) {
        if end <= start || end > self.0.len() {
            return;
        }
        crate::os::drop_pages(&self.0, start, end - start);
    }
}
