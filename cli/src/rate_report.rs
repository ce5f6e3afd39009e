//! What `sudoku rate` tells of the whole run besides the summary: the rating histogram on standard error (a table
//! for people, or a `histogram` object inside the `--stats json` summary) and, with `--plot FILE`, the
//! distribution drawn as an SVG bar chart.

use std::path::{Path, PathBuf};

use clap::Args;
use sudoku_batch::batch::BatchSummary;
use sudoku_batch::human::{Distribution, Rater, Scale};
use sudoku_batch::output::{Sink, Target};

/// `rate --plot`.
#[derive(Debug, Args)]
pub struct PlotArg {
    /// Also draw the distribution of the ratings (levels, or ER bands with --scale se) as an SVG bar chart in FILE.
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,
}

impl PlotArg {
    /// The chart's file, opened before the run so that a path it cannot be written to is refused before any rating
    /// is done; it appears whole when [`show`] finishes it, or not at all. A chart named as the ratings' own file
    /// (`target`) is refused: one would replace the other.
    pub fn open(&self, target: &Target) -> anyhow::Result<Option<Sink>> {
        let Some(path) = &self.plot else {
            return Ok(None);
        };
        if let Target::File(out) = target {
            anyhow::ensure!(
                !same_file(out, path),
                "--plot {} names the file -o writes the ratings to: give the chart another name",
                crate::console::escaped(path)
            );
        }
        Ok(Some(Sink::create(&Target::File(path.clone()))?))
    }
}

/// True when `a` and `b` name one file: the same file where both exist, else the same path once their folders are
/// resolved (symbolic links, `.` and `..`).
fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    if let (Ok(x), Ok(y)) = (std::fs::metadata(a), std::fs::metadata(b)) {
        use std::os::unix::fs::MetadataExt;
        return x.dev() == y.dev() && x.ino() == y.ino();
    }
    let resolved = |p: &Path| {
        let dir = match p.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        Some(dir.canonicalize().ok()?.join(p.file_name()?))
    };
    match (resolved(a), resolved(b)) {
        (Some(x), Some(y)) => x == y,
        _ => a == b,
    }
}

/// The summary JSON of `--stats json` with the histogram's JSON added as its last key, `histogram`.
fn with_histogram(summary: &str, histogram: &str) -> String {
    match summary.strip_suffix('}') {
        Some(head) => format!("{head},\"histogram\":{histogram}}}"),
        // Not an object: both, one a line.
        None => format!("{summary}\n{histogram}"),
    }
}

/// After a rate run on `scale`: the chart when asked (an error if FILE cannot be written), then the summary and
/// the histogram on standard error: JSON with `--stats json`, else the summary line and the table unless quiet.
pub fn show(
    rater: &Rater,
    scale: Scale,
    summary: &BatchSummary,
    chart: Option<Sink>,
    json: bool,
    quiet: bool,
    target: &sudoku_batch::output::Target,
) -> anyhow::Result<()> {
    let failed = summary.counts.failures();
    let (text, histogram, bars): (String, String, Distribution) = match scale {
        Scale::Se => {
            let mut h = rater.se_histogram();
            h.failed = failed;
            (h.to_string(), h.to_json(), h.distribution())
        }
        Scale::Levels => {
            let mut h = rater.histogram();
            h.failed = failed;
            (h.to_string(), h.to_json(), h.distribution())
        }
    };
    if let Some(mut chart) = chart {
        chart.write_all(bars.to_svg().as_bytes())?;
        chart.finish()?;
    }
    if json {
        say!("{}", with_histogram(&summary.to_json(), &histogram));
        return Ok(());
    }
    crate::show(summary, "rated", quiet, false, target);
    if !quiet {
        say!("{text}");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_histogram_is_the_summarys_last_key() {
        assert_eq!(
            with_histogram("{\"records\":3}", "{\"scale\":\"se\"}"),
            "{\"records\":3,\"histogram\":{\"scale\":\"se\"}}"
        );
    }
}
