//! The text layout of generated boards: where each digit goes in a record, and the preformatted template whose
//! spaces and newlines are laid out once so that filling a buffer only writes digits. The template is the text
//! [`Grid::write`] gives the empty board, so generated boards are written exactly as every other board.
//!
//! Boards are written in the [`Format::Line`] or [`Format::Grid`] format ([`Format::Csv`] is refused by
//! [`crate::generate::check`] and read as lines here): grid records are separated by a blank line, and the output
//! ends with the newline of the last row.

pub(crate) use crate::format::Format;
use crate::grid::{Grid, CELLS};
use crate::record::TextLayout;

/// Bytes of one board in the grid format, with the blank line that separates it from the next.
const GRID_STRIDE: usize = 9 * 18 + 1;
/// Bytes of one board in the line format.
const LINE_STRIDE: usize = CELLS + 1;

/// The board-text geometry of each format, for generated boards.
impl Format {
    /// Bytes from the start of one board to the start of the next.
    pub(crate) const fn stride(self) -> usize {
        match self {
            Format::Grid => GRID_STRIDE,
            Format::Line | Format::Csv => LINE_STRIDE,
        }
    }

    /// Total size of `boards` boards in this format.
    #[cfg(test)]
    pub(crate) const fn output_len(self, boards: u64) -> u64 {
        match self {
            Format::Grid if boards > 0 => boards * GRID_STRIDE as u64 - 1,
            Format::Grid => 0,
            Format::Line | Format::Csv => boards * LINE_STRIDE as u64,
        }
    }

    /// Offset of each cell's digit (row-major) inside one board's record.
    pub(crate) const fn offsets(self) -> [u16; CELLS] {
        let mut t = [0u16; CELLS];
        let mut i = 0;
        while i < CELLS {
            t[i] = match self {
                Format::Grid => ((i / 9) * 18 + (i % 9) * 2) as u16,
                Format::Line | Format::Csv => i as u16,
            };
            i += 1;
        }
        t
    }

    /// One board's record with `0` in every digit place (the empty board's text); for the grid format it ends
    /// with the separating blank line.
    pub(crate) fn record_template(self) -> Vec<u8> {
        let mut r = Vec::with_capacity(self.stride());
        match self {
            Format::Grid => {
                Grid::EMPTY.write(crate::grid::TextLayout::Grid, b'0', &mut r);
                r.extend_from_slice(b"\n\n");
            }
            Format::Line | Format::Csv => {
                Grid::EMPTY.write(crate::grid::TextLayout::Line, b'0', &mut r);
                r.push(b'\n');
            }
        }
        r
    }
}

/// A run's layout: the format, its digit offsets, and a template of `chunk` records that is copied into each
/// buffer before digits are written over the placeholders.
#[derive(Debug, Clone)]
pub struct BoardTemplate {
    /// The format.
    pub format: Format,
    /// Bytes per record, see [`Format::stride`].
    pub stride: usize,
    /// Digit offsets inside a record, see [`Format::offsets`].
    pub offsets: [u16; CELLS],
    template: Vec<u8>,
}

impl BoardTemplate {
    /// A layout whose template holds `chunk` records.
    pub fn new(format: Format, chunk: usize) -> BoardTemplate {
        BoardTemplate {
            format,
            stride: format.stride(),
            offsets: format.offsets(),
            template: format.record_template().repeat(chunk),
        }
    }

    /// Appends the fixed bytes of `boards` records to `buf` (at most the chunk size given to [`BoardTemplate::new`]).
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

/// Appends one puzzle: a line with `.` blanks, or nine rows with `0` blanks after a separating blank line (none
/// before the first puzzle), as `sudoku generate` writes boards.
pub(crate) fn write_puzzle(p: &Grid, format: Format, first: bool, out: &mut Vec<u8>) {
    match format {
        Format::Line | Format::Csv => p.write(TextLayout::Line, b'.', out),
        Format::Grid => {
            if !first {
                out.push(b'\n');
            }
            p.write(TextLayout::Grid, b'0', out);
        }
    }
    out.push(b'\n');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_have_the_documented_bytes() {
        let grid = Format::Grid.record_template();
        let row = b"0 0 0 0 0 0 0 0 0\n";
        assert_eq!(grid.len(), Format::Grid.stride());
        assert_eq!(&grid[..], &[&row.repeat(9)[..], b"\n"].concat()[..]);
        assert_eq!(
            Format::Line.record_template(),
            [&[b'0'; 81][..], b"\n"].concat()
        );
        // Every digit place holds a placeholder digit, and nothing else does.
        for format in [Format::Grid, Format::Line] {
            let t = format.record_template();
            let offsets = format.offsets();
            let digits = t.iter().filter(|&&b| b == b'0').count();
            assert_eq!(digits, 81);
            assert!(offsets.iter().all(|&o| t[o as usize] == b'0'));
        }
    }

    #[test]
    fn the_last_grid_board_has_no_blank_line_after_it() {
        assert_eq!(Format::Grid.output_len(1), 162);
        assert_eq!(Format::Grid.output_len(3), 3 * 163 - 1);
        assert_eq!(Format::Grid.output_len(0), 0);
        assert_eq!(Format::Line.output_len(3), 3 * 82);
        let layout = BoardTemplate::new(Format::Grid, 2);
        let (mut all, mut last) = (Vec::new(), Vec::new());
        layout.lay_out(2, false, &mut all);
        layout.lay_out(2, true, &mut last);
        assert_eq!(all.len(), 326);
        assert_eq!(&all[..325], &last[..]);
        assert!(last.ends_with(b"0\n") && all.ends_with(b"0\n\n"));
    }

    #[test]
    fn put_writes_digits_in_row_major_order() {
        let layout = BoardTemplate::new(Format::Grid, 1);
        let mut buf = Vec::new();
        layout.lay_out(1, true, &mut buf);
        let mut cells = [0u8; CELLS];
        for (i, c) in cells.iter_mut().enumerate() {
            *c = (i % 9) as u8;
        }
        layout.put(&mut buf, 0, &cells);
        let text = String::from_utf8(buf).unwrap();
        assert_eq!(text, "1 2 3 4 5 6 7 8 9\n".repeat(9));
    }
}
