//! A table output being encoded ([`Out`]): a Parquet file written one row group per chunk (its columns encoded by
//! the worker that answered the chunk, [`Parallel`]), or an Arrow IPC file or stream whose rows are gathered into
//! batches of [`OUT_BATCH`] rows; either way the bytes come back to the caller, who hands them to the run's writer.

use std::io::{self, Write};
use std::sync::Arc;

use arrow_array::RecordBatch;
use arrow_schema::{Schema, SchemaRef};
use parquet::arrow::arrow_writer::{compute_leaves, get_column_writers, ArrowColumnChunk};
use parquet::errors::ParquetError;
use parquet::file::properties::{WriterProperties, WriterPropertiesPtr};
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::types::SchemaDescriptor;

use super::table::{TableCompression, TableError, TableKind, CHUNK_ROWS};

/// Rows of each batch of an Arrow IPC output (the last one may have fewer), gathered whatever the chunks.
#[cfg_attr(not(feature = "parquet"), allow(dead_code))]
pub(crate) const OUT_BATCH: usize = 8 * 1024;

/// Bytes a table writer writes, taken away after every batch.
#[derive(Default)]
pub(super) struct Spill(Vec<u8>);

impl Write for Spill {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The output table being encoded.
pub(super) enum Out {
    /// Parquet: one row group per chunk, its columns encoded by the worker ([`Parallel`]), written in order.
    Parquet {
        file: SerializedFileWriter<Spill>,
        parallel: Arc<Parallel>,
    },
    /// Arrow IPC: rows gathered into batches of [`OUT_BATCH`] rows, encoded on the calling thread.
    Ipc(Ipc),
}

impl Out {
    /// A table of `schema` whose columns named in `plain` are written without a dictionary (Parquet), compressed
    /// with `compression` (refused when the kind cannot take it).
    pub(super) fn new(
        kind: TableKind,
        schema: SchemaRef,
        plain: Vec<String>,
        compression: TableCompression,
    ) -> Result<Out, TableError> {
        let fail = |e: &dyn std::fmt::Display| TableError::Write {
            kind,
            message: e.to_string(),
        };
        Ok(match kind {
            TableKind::Parquet => {
                let parallel = Parallel::new(schema, plain, compression).map_err(|e| fail(&e))?;
                let file = SerializedFileWriter::new(
                    Spill::default(),
                    parallel.descr.root_schema_ptr(),
                    parallel.props.clone(),
                )
                .map_err(|e| fail(&e))?;
                Out::Parquet {
                    file,
                    parallel: Arc::new(parallel),
                }
            }
            TableKind::ArrowFile | TableKind::ArrowStream => Out::Ipc(Ipc {
                encoder: IpcEncoder::new(kind, &schema, compression)?,
                schema,
                pending: Vec::new(),
                rows: 0,
            }),
        })
    }

    /// What the workers encode with, when they do.
    pub(super) fn parallel(&self) -> Option<Arc<Parallel>> {
        match self {
            Out::Parquet { parallel, .. } => Some(parallel.clone()),
            Out::Ipc(_) => None,
        }
    }

    /// Takes the next rows, with their row group when a worker encoded them; returns the bytes ready.
    pub(super) fn write(
        &mut self,
        batch: &RecordBatch,
        encoded: Option<Result<Vec<ArrowColumnChunk>, TableError>>,
    ) -> Result<Vec<u8>, TableError> {
        match self {
            Out::Ipc(ipc) => ipc.write(batch),
            Out::Parquet { file, parallel } => {
                if batch.num_rows() == 0 {
                    return Ok(Vec::new());
                }
                let chunks = match encoded {
                    Some(chunks) => chunks?,
                    None => parallel.encode(batch)?,
                };
                let fail = |e: ParquetError| TableError::Write {
                    kind: TableKind::Parquet,
                    message: e.to_string(),
                };
                let mut group = file.next_row_group().map_err(fail)?;
                for chunk in chunks {
                    chunk.append_to_row_group(&mut group).map_err(fail)?;
                }
                group.close().map_err(fail)?;
                Ok(std::mem::take(&mut file.inner_mut().0))
            }
        }
    }

    /// Ends the table; returns its last bytes.
    pub(super) fn finish(self) -> Result<Vec<u8>, TableError> {
        match self {
            Out::Ipc(ipc) => ipc.finish(),
            Out::Parquet { file, .. } => {
                file.into_inner()
                    .map(|spill| spill.0)
                    .map_err(|e| TableError::Write {
                        kind: TableKind::Parquet,
                        message: e.to_string(),
                    })
            }
        }
    }
}

/// The longest value kept in a Parquet output's statistics, in bytes.
const STATISTICS_LENGTH: usize = 64;

/// What a worker needs to encode a row group of a Parquet output.
pub(super) struct Parallel {
    descr: SchemaDescriptor,
    props: WriterPropertiesPtr,
    schema: SchemaRef,
}

impl Parallel {
    fn new(
        schema: SchemaRef,
        plain: Vec<String>,
        compression: TableCompression,
    ) -> Result<Parallel, ParquetError> {
        use parquet::basic::{Compression, ZstdLevel};
        use parquet::schema::types::ColumnPath;
        let codec = match compression {
            TableCompression::Zstd => Compression::ZSTD(ZstdLevel::try_new(1)?),
            TableCompression::Snappy => Compression::SNAPPY,
            TableCompression::Lz4 => Compression::LZ4_RAW,
            TableCompression::None => Compression::UNCOMPRESSED,
        };
        // Statistics keep at most 64 bytes of a value (as the page index does by default, and as pyarrow writes
        // them): a whole long string copied into a page header made pages that readers refuse.
        let mut props = WriterProperties::builder()
            .set_compression(codec)
            .set_max_row_group_size(CHUNK_ROWS)
            .set_statistics_truncate_length(Some(STATISTICS_LENGTH));
        // Puzzles and answers hardly repeat: a dictionary would only cost time.
        for name in plain {
            props = props.set_column_dictionary_enabled(ColumnPath::from(name), false);
        }
        let mut props = props.build();
        parquet::arrow::add_encoded_arrow_schema_to_metadata(&schema, &mut props);
        let descr = parquet::arrow::ArrowSchemaConverter::new().convert(&schema)?;
        Ok(Parallel {
            descr,
            props: Arc::new(props),
            schema,
        })
    }

    /// The columns of `batch` encoded as the column chunks of one row group.
    pub(super) fn encode(&self, batch: &RecordBatch) -> Result<Vec<ArrowColumnChunk>, TableError> {
        let run = || -> Result<Vec<ArrowColumnChunk>, ParquetError> {
            let mut writers = get_column_writers(&self.descr, &self.props, &self.schema)?;
            let mut next = writers.iter_mut();
            for (field, column) in self.schema.fields().iter().zip(batch.columns()) {
                for leaf in compute_leaves(field, column)? {
                    next.next()
                        .ok_or_else(|| ParquetError::General("a column without a writer".into()))?
                        .write(&leaf)?;
                }
            }
            writers.into_iter().map(|w| w.close()).collect()
        };
        run().map_err(|e| TableError::Write {
            kind: TableKind::Parquet,
            message: e.to_string(),
        })
    }
}

/// An Arrow IPC output: rows gathered into batches of [`OUT_BATCH`] rows whatever the chunks, so that the bytes
/// do not depend on chunk sizes or threads.
pub(super) struct Ipc {
    encoder: IpcEncoder,
    schema: SchemaRef,
    pending: Vec<RecordBatch>,
    rows: usize,
}

impl Ipc {
    /// Takes `batch`; encodes every whole [`OUT_BATCH`] of the rows taken so far and returns the bytes ready.
    fn write(&mut self, batch: &RecordBatch) -> Result<Vec<u8>, TableError> {
        if batch.num_rows() == 0 {
            return Ok(Vec::new());
        }
        self.rows += batch.num_rows();
        self.pending.push(batch.clone());
        let mut bytes = Vec::new();
        if self.rows >= OUT_BATCH {
            let all = self.gathered()?;
            let mut at = 0;
            while all.num_rows() - at >= OUT_BATCH {
                bytes.append(&mut self.encoder.write(&all.slice(at, OUT_BATCH))?);
                at += OUT_BATCH;
            }
            self.rows = all.num_rows() - at;
            if self.rows > 0 {
                self.pending.push(all.slice(at, self.rows));
            }
        }
        Ok(bytes)
    }

    /// The pending batches as one.
    fn gathered(&mut self) -> Result<RecordBatch, TableError> {
        let pending = std::mem::take(&mut self.pending);
        arrow_select::concat::concat_batches(&self.schema, &pending).map_err(|e| {
            TableError::Write {
                kind: self.encoder.kind(),
                message: e.to_string(),
            }
        })
    }

    /// Encodes the rows left and ends the table; returns its last bytes.
    fn finish(mut self) -> Result<Vec<u8>, TableError> {
        let mut bytes = Vec::new();
        if self.rows > 0 {
            let all = self.gathered()?;
            bytes = self.encoder.write(&all)?;
        }
        bytes.append(&mut self.encoder.finish()?);
        Ok(bytes)
    }
}

enum IpcEncoder {
    File(arrow_ipc::writer::FileWriter<Spill>),
    Stream(arrow_ipc::writer::StreamWriter<Spill>),
}

impl IpcEncoder {
    /// An encoder of `schema` whose buffers are compressed with `compression` (lz4 frames, zstd, or none).
    fn new(
        kind: TableKind,
        schema: &Schema,
        compression: TableCompression,
    ) -> Result<IpcEncoder, TableError> {
        use arrow_ipc::writer::{FileWriter, IpcWriteOptions, StreamWriter};
        use arrow_ipc::CompressionType;
        let codec = match compression {
            TableCompression::Lz4 => Some(CompressionType::LZ4_FRAME),
            TableCompression::Zstd => Some(CompressionType::ZSTD),
            TableCompression::None => None,
            TableCompression::Snappy => return Err(TableError::IpcCodec(compression)),
        };
        let make =
            || -> Result<IpcEncoder, arrow_schema::ArrowError> {
                let options = IpcWriteOptions::default().try_with_compression(codec)?;
                Ok(match kind {
                    TableKind::ArrowStream => IpcEncoder::Stream(
                        StreamWriter::try_new_with_options(Spill::default(), schema, options)?,
                    ),
                    _ => IpcEncoder::File(FileWriter::try_new_with_options(
                        Spill::default(),
                        schema,
                        options,
                    )?),
                })
            };
        make().map_err(|e| TableError::Write {
            kind,
            message: e.to_string(),
        })
    }

    fn kind(&self) -> TableKind {
        match self {
            IpcEncoder::File(_) => TableKind::ArrowFile,
            IpcEncoder::Stream(_) => TableKind::ArrowStream,
        }
    }

    fn fail(&self, e: arrow_schema::ArrowError) -> TableError {
        TableError::Write {
            kind: self.kind(),
            message: e.to_string(),
        }
    }

    /// Encodes `batch`; returns the bytes ready so far.
    fn write(&mut self, batch: &RecordBatch) -> Result<Vec<u8>, TableError> {
        let r = match self {
            IpcEncoder::File(w) => w.write(batch),
            IpcEncoder::Stream(w) => w.write(batch),
        };
        r.map_err(|e| self.fail(e))?;
        let spill = match self {
            IpcEncoder::File(w) => w.get_mut(),
            IpcEncoder::Stream(w) => w.get_mut(),
        };
        Ok(std::mem::take(&mut spill.0))
    }

    /// Ends the table; returns its last bytes.
    fn finish(self) -> Result<Vec<u8>, TableError> {
        let kind = self.kind();
        let fail = |e: arrow_schema::ArrowError| TableError::Write {
            kind,
            message: e.to_string(),
        };
        let spill = match self {
            IpcEncoder::File(w) => w.into_inner().map_err(fail)?,
            IpcEncoder::Stream(w) => w.into_inner().map_err(fail)?,
        };
        Ok(spill.0)
    }
}
