//! A Parquet file's footer read a few row groups at a time: its record batches without ever holding the whole
//! footer or the metadata of every row group, so that memory stays flat however many row groups the file has.
//!
//! The footer (Thrift compact, at the end of the file) is read twice with positional reads through a small buffer:
//! first for the schema, row count and key-value metadata (the Arrow schema), its row groups skipped; then row group
//! by row group as reading goes on. Each set of row groups holding at least the batch size's rows (or
//! [`MAX_GROUPS`] groups) is read by the `parquet` crate's own Arrow reader; statistics and index locations are
//! dropped from their metadata (they serve filters, and a run reads every row).

use std::fs::File;
use std::io::{self, BufReader, Read};
use std::os::unix::fs::FileExt;
use std::sync::Arc;

use arrow_array::{RecordBatch, RecordBatchReader};
use arrow_schema::{ArrowError, SchemaRef};
use parquet::arrow::arrow_reader::{
    ArrowReaderMetadata, ArrowReaderOptions, ParquetRecordBatchReader,
    ParquetRecordBatchReaderBuilder,
};
use parquet::errors::ParquetError;
use parquet::file::metadata::{FileMetaData, ParquetMetaData, RowGroupMetaData};
use parquet::format::{KeyValue, RowGroup, SchemaElement};
use parquet::schema::types::{SchemaDescPtr, SchemaDescriptor};
use parquet::thrift::TSerializable;
use thrift::protocol::{TCompactInputProtocol, TInputProtocol, TType};

use super::table_guard as guard;

/// Most row groups read together, whatever their rows (their metadata is what a set holds in memory).
const MAX_GROUPS: usize = 1024;

/// The bytes `at..end` of a file, read with positional reads (the reader of the row groups moves the file's own
/// position).
struct Span {
    file: Arc<File>,
    at: u64,
    end: u64,
}

impl Read for Span {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let left = usize::try_from(self.end - self.at).unwrap_or(usize::MAX);
        let want = buf.len().min(left);
        if want == 0 {
            return Ok(0);
        }
        let n = self.file.read_at(&mut buf[..want], self.at)?;
        self.at += n as u64;
        Ok(n)
    }
}

type Protocol = TCompactInputProtocol<BufReader<Span>>;

/// The record batches of a Parquet file, read a set of row groups at a time.
pub(crate) struct RowGroups {
    file: Arc<File>,
    /// The file's length in bytes.
    len: u64,
    meta: FileMetaData,
    schema: SchemaRef,
    /// The footer, where the next row group's metadata starts.
    footer: Protocol,
    /// Row groups not read yet.
    left: usize,
    /// Rows of each batch (and at least the rows of each set of row groups).
    batch_rows: usize,
    current: Option<ParquetRecordBatchReader>,
}

impl RowGroups {
    /// Opens the Parquet `file` (which ends in `PAR1`); its rows as the footer says.
    pub(crate) fn open(file: File, batch_rows: usize) -> Result<(RowGroups, i64), ParquetError> {
        let file = Arc::new(file);
        let len = file.metadata()?.len();
        let mut tail = [0u8; 8];
        file.read_exact_at(&mut tail, len.saturating_sub(8))?;
        let footer_len = u64::from(u32::from_le_bytes([tail[0], tail[1], tail[2], tail[3]]));
        if footer_len + 12 > len {
            return Err(ParquetError::General(format!(
                "the footer says it has {footer_len} bytes, in a file of {len}"
            )));
        }
        let start = len - 8 - footer_len;
        let protocol = || {
            TCompactInputProtocol::new(BufReader::with_capacity(
                64 * 1024,
                Span {
                    file: file.clone(),
                    at: start,
                    end: len - 8,
                },
            ))
        };
        let meta = header(&mut protocol())?;
        let mut footer = protocol();
        let left = to_row_groups(&mut footer)?;
        let rows = meta.num_rows();
        let schema = reader_metadata(&meta, Vec::new())?.schema().clone();
        Ok((
            RowGroups {
                file,
                len,
                meta,
                schema,
                footer,
                left,
                batch_rows,
                current: None,
            },
            rows,
        ))
    }

    /// A reader of the next set of row groups.
    fn next_set(&mut self) -> Result<ParquetRecordBatchReader, ParquetError> {
        let descr: SchemaDescPtr = self.meta.schema_descr_ptr();
        let mut groups = Vec::new();
        let mut rows = 0usize;
        while self.left > 0 && rows < self.batch_rows && groups.len() < MAX_GROUPS {
            let mut group = RowGroup::read_from_in_protocol(&mut self.footer)?;
            self.left -= 1;
            for c in &mut group.columns {
                if let Some(m) = &mut c.meta_data {
                    m.statistics = None;
                    m.size_statistics = None;
                    m.encoding_stats = None;
                }
                c.column_index_offset = None;
                c.column_index_length = None;
                c.offset_index_offset = None;
                c.offset_index_length = None;
            }
            check_ranges(&group, self.len)?;
            check_pages(&self.file, &group)?;
            rows = rows.saturating_add(usize::try_from(group.num_rows).unwrap_or(0));
            groups.push(RowGroupMetaData::from_thrift(descr.clone(), group)?);
        }
        let meta = reader_metadata(&self.meta, groups)?;
        ParquetRecordBatchReaderBuilder::new_with_metadata(self.file.try_clone()?, meta)
            .with_batch_size(self.batch_rows)
            .build()
    }
}

impl Iterator for RowGroups {
    type Item = Result<RecordBatch, ArrowError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(reader) = &mut self.current {
                match reader.next() {
                    Some(batch) => return Some(batch),
                    None => self.current = None,
                }
            }
            if self.left == 0 {
                return None;
            }
            match self.next_set() {
                Ok(reader) => self.current = Some(reader),
                Err(e) => {
                    self.left = 0;
                    let message = match e {
                        ParquetError::General(m) => m,
                        e => e.to_string(),
                    };
                    return Some(Err(ArrowError::ParquetError(message)));
                }
            }
        }
    }
}

impl RecordBatchReader for RowGroups {
    fn schema(&self) -> SchemaRef {
        self.schema.clone()
    }
}

/// Fails unless every column chunk of `group` lies within the file's `len` bytes (the reader takes the footer's
/// offsets and sizes as they are, and panics on a negative one).
fn check_ranges(group: &RowGroup, len: u64) -> Result<(), ParquetError> {
    let within = |v: i64| u64::try_from(v).is_ok_and(|v| v <= len);
    for c in &group.columns {
        let Some(m) = &c.meta_data else {
            return Err(ParquetError::General(
                "a column chunk without metadata".into(),
            ));
        };
        let start = m.dictionary_page_offset.unwrap_or(m.data_page_offset);
        let ok = [m.data_page_offset, start, m.total_compressed_size]
            .into_iter()
            .all(within)
            && within(start.saturating_add(m.total_compressed_size))
            // Its uncompressed size may be larger than the file: it is not checked.
            && m.total_uncompressed_size >= 0;
        if !ok {
            return Err(ParquetError::General(format!(
                "a column chunk of the footer lies outside the file (offset {}, {} bytes, in {len})",
                start, m.total_compressed_size
            )));
        }
    }
    Ok(())
}

/// Fails unless the page headers of every column chunk of `group` (which lies within the file) declare sizes its
/// bytes can hold ([`guard::check_parquet_pages`]): the reader allocates by them.
fn check_pages(file: &File, group: &RowGroup) -> Result<(), ParquetError> {
    for (i, c) in group.columns.iter().enumerate() {
        if let Some(m) = &c.meta_data {
            let start = m.dictionary_page_offset.unwrap_or(m.data_page_offset);
            // `check_ranges` found both within the file.
            let (start, size) = (start as u64, m.total_compressed_size as u64);
            guard::check_parquet_pages(file, start, start + size).map_err(|e| {
                ParquetError::General(format!("column chunk {} of a row group: {e}", i + 1))
            })?;
        }
    }
    Ok(())
}

/// The metadata the Arrow reader needs for `groups` of a file of `meta`.
fn reader_metadata(
    meta: &FileMetaData,
    groups: Vec<RowGroupMetaData>,
) -> Result<ArrowReaderMetadata, ParquetError> {
    let whole = ParquetMetaData::new(meta.clone(), groups);
    ArrowReaderMetadata::try_new(Arc::new(whole), ArrowReaderOptions::new())
}

/// The footer's fields other than its row groups (which are skipped).
fn header(footer: &mut Protocol) -> Result<FileMetaData, ParquetError> {
    let mut version = 0;
    let mut schema: Vec<SchemaElement> = Vec::new();
    let mut num_rows = 0;
    let mut key_value: Option<Vec<KeyValue>> = None;
    let mut created_by = None;
    footer.read_struct_begin()?;
    loop {
        let field = footer.read_field_begin()?;
        if field.field_type == TType::Stop {
            break;
        }
        match field.id {
            Some(1) => version = footer.read_i32()?,
            Some(2) => schema = read_list(footer, SchemaElement::read_from_in_protocol)?,
            Some(3) => num_rows = footer.read_i64()?,
            Some(5) => key_value = Some(read_list(footer, KeyValue::read_from_in_protocol)?),
            Some(6) => created_by = Some(footer.read_string()?),
            Some(8) | Some(9) => {
                return Err(ParquetError::General(
                    "an encrypted Parquet file, which is not read".into(),
                ))
            }
            _ => skip(footer, field.field_type, 32)?,
        }
        footer.read_field_end()?;
    }
    if schema.is_empty() {
        return Err(ParquetError::General("the footer has no schema".into()));
    }
    let root = parquet::schema::types::from_thrift(&schema)?;
    let descr = Arc::new(SchemaDescriptor::new(root));
    Ok(FileMetaData::new(
        version, num_rows, created_by, key_value, descr, None,
    ))
}

/// Reads the footer up to its first row group; the number of row groups (0 when it has none).
fn to_row_groups(footer: &mut Protocol) -> Result<usize, ParquetError> {
    footer.read_struct_begin()?;
    loop {
        let field = footer.read_field_begin()?;
        if field.field_type == TType::Stop {
            return Ok(0);
        }
        if field.id == Some(4) {
            let list = footer.read_list_begin()?;
            return usize::try_from(list.size)
                .map_err(|_| ParquetError::General("a negative count of row groups".into()));
        }
        skip(footer, field.field_type, 32)?;
        footer.read_field_end()?;
    }
}

fn read_list<T>(
    footer: &mut Protocol,
    read: fn(&mut Protocol) -> thrift::Result<T>,
) -> Result<Vec<T>, ParquetError> {
    let list = footer.read_list_begin()?;
    // Grown as elements are read: the count is the file's word, not an allocation size.
    let mut items = Vec::new();
    for _ in 0..list.size {
        items.push(read(footer)?);
    }
    footer.read_list_end()?;
    Ok(items)
}

/// Reads past a value of type `t`, nested at most `depth` deep. Thrift's own `skip` reads a `binary` as a string
/// and fails on bytes that are not UTF-8 (statistics of numbers).
fn skip(footer: &mut Protocol, t: TType, depth: u8) -> Result<(), ParquetError> {
    if depth == 0 {
        return Err(ParquetError::General("the footer nests too deep".into()));
    }
    match t {
        TType::Bool => drop(footer.read_bool()?),
        TType::I08 => drop(footer.read_i8()?),
        TType::I16 => drop(footer.read_i16()?),
        TType::I32 => drop(footer.read_i32()?),
        TType::I64 => drop(footer.read_i64()?),
        TType::Double => drop(footer.read_double()?),
        TType::String => drop(footer.read_bytes()?),
        TType::Struct => {
            footer.read_struct_begin()?;
            loop {
                let field = footer.read_field_begin()?;
                if field.field_type == TType::Stop {
                    break;
                }
                skip(footer, field.field_type, depth - 1)?;
                footer.read_field_end()?;
            }
            footer.read_struct_end()?;
        }
        TType::List => {
            let list = footer.read_list_begin()?;
            for _ in 0..list.size {
                skip(footer, list.element_type, depth - 1)?;
            }
            footer.read_list_end()?;
        }
        TType::Set => {
            let set = footer.read_set_begin()?;
            for _ in 0..set.size {
                skip(footer, set.element_type, depth - 1)?;
            }
            footer.read_set_end()?;
        }
        TType::Map => {
            let map = footer.read_map_begin()?;
            for _ in 0..map.size {
                if let (Some(k), Some(v)) = (map.key_type, map.value_type) {
                    skip(footer, k, depth - 1)?;
                    skip(footer, v, depth - 1)?;
                }
            }
            footer.read_map_end()?;
        }
        other => {
            return Err(ParquetError::General(format!(
                "a footer field of Thrift type {other:?}"
            )))
        }
    }
    Ok(())
}
