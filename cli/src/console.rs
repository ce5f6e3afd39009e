//! The binary's own text on the standard streams, under one rule for every subcommand. Standard output (help,
//! version, completions, the manual page, bench tables, explanations) goes through the library's [`Sink`], as batch
//! results do: a write error is `<stdout>: write failed: REASON` (exit 2), a closed pipe ends the run quietly (exit
//! 0), a closed standard output is an error. Messages on standard error (`say!`) never fail or abort a run,
//! whatever standard error is: closed, a full disk, or a pipe whose reader has gone.

use std::io::Write;

use sudoku_batch::output::{OutputError, Sink, Target};

/// Writes one line to standard error, ignoring any failure (a message cannot be reported anywhere else).
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::console::say_args(format_args!($($arg)*))
    };
}

/// What `say!` calls.
pub fn say_args(args: std::fmt::Arguments<'_>) {
    let mut err = std::io::stderr().lock();
    let _ = err.write_fmt(args).and_then(|()| err.write_all(b"\n"));
}

/// Standard output for the binary's own text.
pub struct Stdout(Sink);

impl Stdout {
    /// Opens standard output (an error when it is closed).
    pub fn open() -> Result<Stdout, OutputError> {
        Sink::create(&Target::Stdout).map(Stdout)
    }

    /// Writes all of `bytes`.
    pub fn write(&mut self, bytes: &[u8]) -> Result<(), OutputError> {
        self.0.write_all(bytes)
    }

    /// Writes `text` and a line end.
    pub fn line(&mut self, text: &str) -> Result<(), OutputError> {
        self.write(format!("{text}\n").as_bytes())
    }

    /// Flushes what was written.
    pub fn finish(self) -> Result<(), OutputError> {
        self.0.finish()
    }
}

/// Writes `bytes` to standard output, whole.
pub fn print(bytes: &[u8]) -> Result<(), OutputError> {
    let mut out = Stdout::open()?;
    out.write(bytes)?;
    out.finish()
}

/// `name` as it may be shown in a message: control characters (a newline, ESC) and invalid UTF-8 escaped, the way
/// record text is in failure messages, so that a file name cannot forge message lines or terminal sequences.
pub fn escaped(name: &std::path::Path) -> String {
    sudoku_batch::display_name(name.as_os_str().as_encoded_bytes())
}
