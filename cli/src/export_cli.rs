//! `sudoku export`: its run (its flags are in `dataset_args.rs`), a dataset as numpy arrays (the library's
//! `tools::export_npy`) with a `dataset.json` that says what they hold.

use std::process::ExitCode;

use sudoku_batch::output::{Sink, Target};
use sudoku_batch::tools::{self, ExportSummary};

use crate::cli::BatchArgs;
use crate::dataset_args::ExportArgs;
use crate::{console, finished, report};

/// `text` as a JSON string.
fn json_string(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// An optional name as JSON: a string or `null`.
fn json_name(name: Option<&String>) -> String {
    name.map_or("null".into(), |n| json_string(n))
}

/// The text of `dataset.json`.
fn dataset_json(b: &BatchArgs, s: &ExportSummary) -> String {
    let inputs: Vec<String> = if b.inputs.is_empty() {
        vec![json_string("-")]
    } else {
        b.inputs
            .iter()
            .map(|p| json_string(&p.to_string_lossy()))
            .collect()
    };
    let format = b.format.map_or("auto".to_string(), |f| {
        format!("{f:?}").to_ascii_lowercase()
    });
    let n = s.rows;
    format!(
        "{{\n  \"format\": \"npy\",\n  \"rows\": {n},\n  \"classes\": {},\n  \"failed\": {},\n  \
         \"labels_given\": {},\n  \"labels_solved\": {},\n  \"files\": {{\"inputs\": \"inputs.npy\", \
         \"labels\": \"labels.npy\", \"group\": \"group.npy\"}},\n  \"shapes\": {{\"inputs\": [{n}, 81], \
         \"labels\": [{n}, 81], \"group\": [{n}]}},\n  \"dtypes\": {{\"inputs\": \"uint8\", \"labels\": \
         \"uint8\", \"group\": \"int64\"}},\n  \"columns\": {{\"puzzle\": {}, \"solution\": {}}},\n  \
         \"options\": {{\"inputs\": [{}], \"format\": {}}},\n  \"run\": {}\n}}\n",
        s.classes,
        s.batch.counts.failures(),
        s.labels_given,
        s.labels_solved,
        json_name(b.column.as_ref()),
        json_name(b.solution_column.as_ref()),
        inputs.join(", "),
        json_string(&format),
        s.batch.to_json().trim_end(),
    )
}

/// Runs `sudoku export`: 0 when every record was exported, 1 when some failed (they are left out).
pub fn run(b: &BatchArgs, args: &ExportArgs, quiet: bool) -> anyhow::Result<ExitCode> {
    anyhow::ensure!(
        b.output.is_none() && b.compress.is_none(),
        "export writes its files into --out-dir DIR: -o and --compress are not for it"
    );
    anyhow::ensure!(!b.keep_lines, "--keep-lines is not for export");
    crate::split_cli::create_out_dir(&args.out_dir)?;
    let opts = b.options(false, None, false);
    let mut reporter = b.reporter(quiet);
    let inputs = b.input_specs();
    crate::cli::note_terminal_stdin(&inputs, quiet);
    let result = tools::export_npy(inputs, &args.out_dir, &opts, &mut reporter);
    reporter.finish();
    let summary = result?;
    let mut sink = Sink::create(&Target::File(args.out_dir.join("dataset.json")))?;
    sink.write_all(dataset_json(b, &summary).as_bytes())?;
    sink.finish()?;
    if b.stats == Some(crate::cli::StatsArg::Json) {
        say!("{}", summary.batch.to_json());
    } else if !quiet {
        say!(
            "sudoku: {} ({} rows, {} classes); output in {}",
            report::summary_text(&summary.batch, "exported"),
            summary.rows,
            summary.classes,
            console::escaped(&args.out_dir)
        );
    }
    Ok(finished(summary.batch.counts.failures() > 0))
}
