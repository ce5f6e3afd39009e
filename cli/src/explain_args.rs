//! The flags of `sudoku explain` beside the batch ones and the scale: how the text path is shown, where an SE path
//! stops, and the page `--html` draws.

use std::path::PathBuf;

use clap::Args;

use crate::value::parse_se_rating;

/// `explain`'s own flags.
#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// Show the candidate grid at the start and after every step.
    #[arg(long, conflicts_with = "json")]
    pub candidates: bool,
    /// As text on SE's scale: each chain step on its one line of conclusions, without its chains.
    #[arg(long, conflicts_with = "json")]
    pub brief: bool,
    /// With --scale se: stop the path before the first step SE rates above X (1.0 to 25.5, one decimal);
    /// what is left unknown is reported as above X.
    #[arg(long, value_name = "X", value_parser = parse_se_rating)]
    pub max_se: Option<u8>,
    /// Write the path as one self-contained HTML page to FILE: for every step a drawing of the grid before it
    /// (givens, placed digits, candidates; the step's cells, placement and eliminations highlighted, chains as
    /// arrows) and its text.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["json", "candidates", "brief"])]
    pub html: Option<PathBuf>,
}
