//! # columns-wasm
//!
//! A reader for files of the `columns` columnar format (magic `ABCD`,
//! versions 1 and 2), built to run in WebAssembly.
//!
//! The core never does I/O. A caller hands it the bytes it asks for:
//!
//! 1. [`file::head_probe_range`] and [`file::tail_range`] → [`file::read_prelude`]
//!    (magic, version, footer location);
//! 2. [`file::Prelude::header_range`] → digests, [`file::Prelude::footer_range`]
//!    → [`file::decode_footer`] → [`FileMeta::assemble`]: every chunk's range is known;
//! 3. one chunk's bytes → [`read_column`] → a typed [`Column`].
//!
//! [`FileMeta::from_bytes`] does steps 1-2 for a file already in memory.
//! Errors are [`Error`] values with a [`ErrorKind`] and a [`Location`].

mod bytes;
pub mod chunk;
pub mod codec;
pub mod column;
pub mod encoding;
pub mod error;
pub mod file;
pub mod inspect;
pub mod plan;
pub mod read;
pub mod reuse;
pub mod stats;
pub mod tokenizer;
pub mod types;
#[cfg(target_arch = "wasm32")]
pub mod wasm;

pub use codec::Codec;
pub use column::{Column, Values};
pub use encoding::Encoding;
pub use error::{Error, ErrorKind, Location, Result};
pub use file::{ChunkMeta, ColumnSchema, FileMeta, RowGroup};
pub use read::read_column;
pub use stats::Scalar;
pub use tokenizer::{Digest, Registry, Tokenizer};
pub use types::ColumnType;
