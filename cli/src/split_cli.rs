//! `sudoku split`: its run (its flags are in `dataset_args.rs`), every record to train, validation or test with
//! every equivalence class on one side (the library's `tools::split_files`).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use sudoku_batch::output::Target;
use sudoku_batch::tools::{self, Side, Split};
use sudoku_batch::Format;

use crate::cli::BatchArgs;
use crate::dataset_args::SplitArgs;
use crate::{console, finished, report};

/// The extension of the outputs: the first input's (its compression suffix left out), `csv` for a forced CSV,
/// else `txt`.
fn extension(args: &BatchArgs) -> String {
    if args.format == Some(Format::Csv) {
        return "csv".into();
    }
    let Some(first) = args.inputs.first().filter(|p| p.is_file()) else {
        return "txt".into();
    };
    let mut path: &Path = first;
    let stripped;
    if let Some(ext) = path.extension().and_then(|e| e.to_str()) {
        if ["gz", "zst", "xz", "bz2"].contains(&ext) {
            stripped = path.with_extension("");
            path = &stripped;
        }
    }
    path.extension()
        .and_then(|e| e.to_str())
        .filter(|e| !e.is_empty())
        .unwrap_or("txt")
        .to_string()
}

/// Creates the folder `dir` of `--out-dir` when missing; a path there that is not a folder is refused by name.
pub fn create_out_dir(dir: &std::path::Path) -> anyhow::Result<()> {
    anyhow::ensure!(
        !dir.exists() || dir.is_dir(),
        "--out-dir {}: not a folder",
        console::escaped(dir)
    );
    std::fs::create_dir_all(dir)
        .map_err(|e| anyhow::anyhow!("cannot create {}: {e}", console::escaped(dir)))
}

/// Runs `sudoku split`: 0 when every record went to a side, 1 when some failed (they are left out).
pub fn run(b: &BatchArgs, args: &SplitArgs, quiet: bool) -> anyhow::Result<ExitCode> {
    anyhow::ensure!(
        b.output.is_none() && b.compress.is_none(),
        "split writes its outputs into --out-dir DIR: -o and --compress are not for it"
    );
    anyhow::ensure!(!b.keep_lines, "--keep-lines is not for split");
    let job = Split::new(
        args.seed,
        args.test,
        args.val.unwrap_or(0.0),
        args.stratify.is_some(),
    )?;
    create_out_dir(&args.out_dir)?;
    let ext = extension(b);
    // Without --val, a validation set an earlier split left there would share classes with the new sets.
    let stale = args.out_dir.join(format!("{}.{ext}", Side::Val.name()));
    anyhow::ensure!(
        args.val.is_some() || !stale.exists(),
        "{} is there from an earlier split: the new train and test sets could share its classes; remove it, or \
         split with --val",
        console::escaped(&stale)
    );
    let sides: &[Side] = if args.val.is_some() {
        &Side::ALL
    } else {
        &Side::ALL[..2]
    };
    let paths: Vec<PathBuf> = sides
        .iter()
        .map(|s| args.out_dir.join(format!("{}.{ext}", s.name())))
        .collect();
    let targets: Vec<Target> = paths.iter().cloned().map(Target::File).collect();
    let mut opts = b.options(false, None, false);
    if let Some(column) = &args.stratify {
        opts.columns.solution = Some(column.clone());
    }
    let mut reporter = b.reporter(quiet);
    let inputs = b.input_specs();
    crate::cli::note_terminal_stdin(&inputs, quiet);
    let result = tools::split_files(inputs, &targets, &job, &args.out_dir, &opts, &mut reporter);
    reporter.finish();
    let (summary, written) = result?;
    if b.stats == Some(crate::cli::StatsArg::Json) {
        // The run's summary object with the records written to each side added at its end.
        let json = summary.to_json();
        let sides: String = sides
            .iter()
            .zip(&written)
            .map(|(s, n)| format!(",\"{}\":{n}", s.name()))
            .collect();
        say!("{}{sides}}}", json.trim_end().trim_end_matches('}'));
    } else if !quiet {
        let parts: Vec<String> = sides
            .iter()
            .zip(&written)
            .map(|(s, n)| format!("{} {n}", s.name()))
            .collect();
        say!(
            "sudoku: {} ({}); output in {}",
            report::summary_text(&summary, "split"),
            parts.join(", "),
            console::escaped(&args.out_dir)
        );
    }
    Ok(finished(summary.counts.failures() > 0))
}
