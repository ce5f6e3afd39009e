//! Dataset tools on whole records: the canonical forms (minlex and pattern-first, [`Canonicalizer`]) and the
//! dedupe [`Key`] (module `canon`), uniformly random equivalent transformations ([`Transform::random`], the type
//! re-exported from the board layer), and the batch jobs built on them and on the solver ([`Solve`], [`Check`],
//! [`Count`], [`Canon`], [`Dedupe`], [`Shuffle`]; module `jobs`), the class-safe [`Split`] into train, validation
//! and test (module `split`, the exact fractions of each stratum in module `strata`) and the [`Copies`] of `shuffle --copies` (module `copies`) and
//! the numpy arrays of [`export_npy`] (module `export`).
//!
//! ```
//! use sudoku_batch::tools::{canon, Key, Transform};
//! use sudoku_batch::Grid;
//!
//! let puzzle: Grid = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
//!     .parse()
//!     .unwrap();
//! let shuffled = Transform::random(7, 0).apply(&puzzle);
//! let (a, b) = (canon(&puzzle).unwrap(), canon(&shuffled).unwrap());
//! assert_eq!(a, b);
//! assert_eq!(Key::of(&a).unwrap().to_grid(), Some(a));
//! ```

mod canon;
mod copies;
mod export;
mod jobs;
mod split;
mod strata;

pub use crate::grid::Transform;
pub use canon::{canon, Canonicalizer, Form, Key};
pub(crate) use canon::{canon_with_transform_as, class_key};
pub use copies::Copies;
pub use export::{export_npy, ExportError, ExportSummary};
pub use jobs::{Canon, Check, Count, Dedupe, Shuffle, Solve};
pub use split::{split_files, FractionError, Split};
pub use strata::{Side, Sides, Strata, StrataError};
