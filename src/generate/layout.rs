//! The text layout of generated boards: where each digit goes in a record, and the preformatted template whose
//! spaces and newlines are laid out once so that filling a buffer only writes digits.

use crate::grid::CELLS;

/// How boards are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    /// The classic layout: 9 lines of 9 digits separated by single spaces, one blank line between boards, no
    /// trailing whitespace. The output ends with the newline of the last row (no blank line after the last board).
    #[default]
    Grid,
    /// 81 digits and a newline per board.
    Line,
}

/// Bytes of one board in the grid format, with the blank line that separates it from the next.
const GRID_STRIDE: usize = 9 * 18 + 1;
/// Bytes of one board in the line format.
const LINE_STRIDE: usize = CELLS + 1;

impl Format {
    /// Bytes from the start of one board to the start of the next.
    pub const fn stride(self) -> usize {
        match self {
            Format::Grid => GRID_STRIDE,
            Format::Line => LINE_STRIDE,
        }
    }

    /// Total size of `boards` boards in this format.
    pub const fn output_len(self, boards: u64) -> u64 {
        match self {
            Format::Grid if boards > 0 => boards * GRID_STRIDE as u64 - 1,
            Format::Grid => 0,
            Format::Line => boards * LINE_STRIDE as u64,
        }
    }

    /// Offset of each cell's digit (row-major) inside one board's record.
    pub const fn offsets(self) -> [u16; CELLS] {
        let mut t = [0u16; CELLS];
        let mut i = 0;
        while i < CELLS {
            t[i] = match self {
                Format::Grid => ((i / 9) * 18 + (i % 9) * 2) as u16,
                Format::Line => i as u16,
            };
            i += 1;
        }
        t
    }

    /// One board's record with `0` in every digit place; for the grid format it ends with the separating blank
    /// line.
    pub fn record_template(self) -> Vec<u8> {
        match self {
            Format::Grid => {
                let mut r = Vec::with_capacity(GRID_STRIDE);
                for _ in 0..9 {
                    r.extend_from_slice(b"0 0 0 0 0 0 0 0 0\n");
                }
                r.push(b'\n');
                r
            }
            Format::Line => {
                let mut r = vec![b'0'; CELLS];
                r.push(b'\n');
                r
            }
        }
    }
}

/// A run's layout: the format, its digit offsets, and a template of `chunk` records that is copied into each
/// buffer before digits are written over the placeholders.
#[derive(Debug, Clone)]
pub struct Layout {
    /// The format.
    pub format: Format,
    /// Bytes per record, see [`Format::stride`].
    pub stride: usize,
    /// Digit offsets inside a record, see [`Format::offsets`].
    pub offsets: [u16; CELLS],
    template: Vec<u8>,
}

impl Layout {
    /// A layout whose template holds `chunk` records.
    pub fn new(format: Format, chunk: usize) -> Layout {
        Layout {
            format,
            stride: format.stride(),
            offsets: format.offsets(),
            template: format.record_template().repeat(chunk),
        }
    }

    /// Appends the fixed bytes of `boards` records to `buf` (at most the chunk size given to [`Layout::new`]).
    /// With `last`, the grid format's blank line after the final board is left out.
    pub fn lay_out(&self, boards: usize, last: bool, buf: &mut Vec<u8>) {
        let mut len = boards * self.stride;
        if last && self.format == Format::Grid && len > 0 {
            len -= 1;
        }
        buf.extend_from_slice(&self.template[..len]);
    }

    /// Writes the digits of `cells` (0-based digit values 0..=8) into the record that starts at byte `record`.
    #[inline]
    pub fn put(&self, out: &mut [u8], record: usize, cells: &[u8; CELLS]) {
        let rec = &mut out[record..];
        for (&off, &d) in self.offsets.iter().zip(cells.iter()) {
            rec[off as usize] = b'1' + d;
        }
    }
}
