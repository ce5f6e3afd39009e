//! The job `sudoku shuffle` runs: one random copy of each record, or with `--copies` several (augmenting a
//! training set).

use sudoku_batch::batch::Job;
use sudoku_batch::tools::{Copies, Shuffle};

use crate::dataset_args::CopiesArgs;

/// The job of `shuffle`: one random equivalent copy of each record, or with --copies K of them.
pub fn job(seed: u64, args: &CopiesArgs) -> Box<dyn Job> {
    match args.copies {
        None => Box::new(Shuffle { seed }),
        Some(copies) => Box::new(Copies {
            seed,
            copies,
            keep_original: args.keep_original,
        }),
    }
}
