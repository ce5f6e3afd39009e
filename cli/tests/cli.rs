//! The one integration test binary: drives the `sudoku` CLI end to end. One module per area; shared helpers in
//! `util`.

#[cfg(feature = "parquet")]
mod corrupt_tables;
mod dataset;
mod dumps;
mod explain_json;
mod generate;
mod human;
mod page;
mod readme;
mod safety;
mod solve;
#[cfg(feature = "parquet")]
mod table_layouts;
#[cfg(feature = "parquet")]
mod tables;
mod tools;
mod usage;
mod util;
