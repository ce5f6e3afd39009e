//! What a format hands each record to ([`Answerer`]): the one interface between the formats and the work done on
//! a record, a [`Job`] or [`read_all`](super::read_all)'s keeper of grids.

use crate::grid::TextLayout;
use crate::record::{Answer, Failure, Job, Record};

/// What a format hands each record to: the answer for one whole record, and the status of an answered record in
/// JSON Lines output. Every [`Job`] is one, through its own [`Job::run_record`] and [`Job::json_status`];
/// [`read_all`](super::read_all) keeps the records' grids with one of its own.
pub(crate) trait Answerer {
    /// Appends the answer for `record`, shaped for `layout`, or returns why there is none.
    fn run_record(
        &self,
        record: &Record<'_>,
        layout: TextLayout,
        out: &mut Vec<u8>,
    ) -> Result<Answer, Failure>;

    /// The `"status"` of an answered record in JSON Lines output.
    fn json_status(&self) -> &'static str;

    /// How many output rows each CSV row answered with [`CsvAnswer::Rewrite`] gives ([`Job::copies`]): 1 unless
    /// said otherwise.
    fn copies(&self) -> u32 {
        1
    }

    /// The answer for copy `copy` (below [`Answerer::copies`]) of `record`: [`Answerer::run_record`] unless said
    /// otherwise.
    fn run_copy(
        &self,
        record: &Record<'_>,
        copy: u32,
        layout: TextLayout,
        out: &mut Vec<u8>,
    ) -> Result<Answer, Failure> {
        let _ = copy;
        self.run_record(record, layout, out)
    }
}

impl<J: Job + ?Sized> Answerer for J {
    #[inline]
    fn run_record(
        &self,
        record: &Record<'_>,
        layout: TextLayout,
        out: &mut Vec<u8>,
    ) -> Result<Answer, Failure> {
        Job::run_record(self, record, layout, out)
    }

    #[inline]
    fn json_status(&self) -> &'static str {
        Job::json_status(self)
    }

    #[inline]
    fn copies(&self) -> u32 {
        Job::copies(self)
    }

    #[inline]
    fn run_copy(
        &self,
        record: &Record<'_>,
        copy: u32,
        layout: TextLayout,
        out: &mut Vec<u8>,
    ) -> Result<Answer, Failure> {
        Job::run_copy(self, record, copy, layout, out)
    }
}
