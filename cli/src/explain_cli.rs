//! The run of `sudoku explain` (its arguments are in `cli.rs`). Without `--json`, one puzzle, file or `-` explained as text, one
//! puzzle after another ([`crate::human_cli::explain`]); with `--json`, the batch pipeline with the library's
//! [`human::Narrator`] job: every input, every format, on all cores, one JSON object per record in input order.

use std::process::ExitCode;

use sudoku_batch::human;

use crate::cli::{BatchArgs, ScaleArg, RATE_CHUNK_SIZE, SE_RATE_CHUNK_SIZE};
use crate::human_cli::scale_of;

/// The batch options given, named as on the command line: they work with --json only.
pub fn batch_flags(b: &BatchArgs) -> Vec<&'static str> {
    let given = [
        (b.output.is_some(), "-o"),
        (b.compress.is_some(), "--compress"),
        (b.threads.is_some(), "--threads"),
        (b.format.is_some(), "--format"),
        (b.column.is_some(), "--column"),
        (b.solution_column.is_some(), "--solution-column"),
        (b.table_compression.is_some(), "--table-compression"),
        (b.no_mmap, "--no-mmap"),
        (b.stats.is_some(), "--stats"),
        (b.chunk_size.is_some(), "--chunk-size"),
        (b.keep_lines, "--keep-lines"),
    ];
    given
        .iter()
        .filter(|(on, _)| *on)
        .map(|&(_, f)| f)
        .collect()
}

/// `sudoku explain`: as text, one input (see [`crate::human_cli::explain`]); with --json, the batch pipeline: 0
/// when every record was explained, 1 when some failed (clashing, unsolvable, several solutions, malformed), 2
/// for a usage or fatal error.
pub fn run(
    batch: &BatchArgs,
    json: bool,
    (candidates, brief): (bool, bool),
    scale: ScaleArg,
    max_se: Option<u8>,
    quiet: bool,
) -> anyhow::Result<ExitCode> {
    anyhow::ensure!(
        max_se.is_none() || scale == ScaleArg::Se,
        "--max-se explains on SE's scale: add --scale se"
    );
    if !json {
        let flags = batch_flags(batch);
        let verb = if flags.len() == 1 { "works" } else { "work" };
        anyhow::ensure!(
            flags.is_empty(),
            "{} {verb} with --json only",
            flags.join(", ")
        );
        let [input] = batch.inputs.as_slice() else {
            anyhow::bail!(
                "explain takes one PUZZLE, FILE or - (several inputs, or none for standard input, with --json)"
            );
        };
        return crate::human_cli::explain(input, (candidates, brief), scale, max_se);
    }
    let mut job = human::Narrator::with_scale(scale_of(scale));
    if let Some(max) = max_se {
        job = job.with_se_max(human::Tenths(max));
    }
    let chunk = match scale {
        ScaleArg::Levels => RATE_CHUNK_SIZE,
        ScaleArg::Se => SE_RATE_CHUNK_SIZE,
    };
    let opts = batch.options(false, Some(chunk), true);
    crate::batch_job(batch, &job, &opts, "explained", quiet)
}
