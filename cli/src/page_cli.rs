//! `sudoku explain --html FILE`: the explanation page (the library's `human::Page`) of the puzzles of one INPUT,
//! written whole or not at all.

use std::path::Path;
use std::process::ExitCode;

use sudoku_batch::human::{self, Page};
use sudoku_batch::output::{Sink, Target};

use crate::cli::{BatchArgs, ScaleArg};
use crate::human_cli::{scale_of, ExplainInput};

/// Draws the puzzles of the one INPUT of `batch` into the page at `path`: 0 when every puzzle was drawn, 1 when a
/// record was malformed or not a proper puzzle (it is left out, and said on standard error; with no puzzle drawn
/// at all no page is written), 2 for an input or output that cannot be used.
pub fn run(
    batch: &BatchArgs,
    scale: ScaleArg,
    max_se: Option<u8>,
    path: &Path,
) -> anyhow::Result<ExitCode> {
    let flags = crate::explain_cli::batch_flags(batch);
    anyhow::ensure!(
        flags.is_empty(),
        "{} {} not for --html",
        flags.join(", "),
        if flags.len() == 1 { "is" } else { "are" }
    );
    let [input] = batch.inputs.as_slice() else {
        anyhow::bail!("explain --html takes one PUZZLE, FILE or -");
    };
    let input = ExplainInput::read(input)?;
    // Opened before the paths are walked: a page that cannot be written is refused before the work.
    let mut sink = Sink::create(&Target::File(path.to_path_buf()))?;
    let mut page = Page::new(scale_of(scale));
    if let Some(max) = max_se {
        page = page.with_se_max(human::Tenths(max));
    }
    let mut failed = false;
    let mut drawn = 0;
    for (line, record) in &input.records {
        let failure = match record {
            Ok(puzzle) => match page.add(puzzle) {
                Ok(()) => {
                    drawn += 1;
                    continue;
                }
                Err(e) => e.to_string(),
            },
            Err(failure) => failure.to_string(),
        };
        say!("sudoku: {}: {failure}", input.name_of(*line));
        failed = true;
    }
    if drawn == 0 {
        // The sink, dropped unfinished, removes its temporary file: no page appears.
        return Ok(ExitCode::from(1));
    }
    sink.write_all(page.finish().as_bytes())?;
    sink.finish()?;
    Ok(crate::finished(failed))
}
