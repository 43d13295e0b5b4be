//! Errors are values: a kind a program can match on, a location a person can
//! find in a hex editor, and a sentence that says what was wrong.

use core::fmt;

/// What went wrong, independent of where. The `as_str` names are the
/// contract shared with the corpus JSON and the JavaScript API.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// The file (or a range handed in) is shorter than what it must contain.
    Truncated,
    /// The leading magic is not `ABCD`.
    BadMagic,
    /// The version byte is neither 1 nor 2.
    UnsupportedVersion,
    /// The footer length or the footer's gob stream is inconsistent.
    CorruptFooter,
    /// A column chunk's header, blocks, compressed data or encoded stream is inconsistent.
    CorruptChunk,
    /// A codec tag this reader does not implement (Zstd, or an unknown tag).
    UnsupportedCodec,
    /// An encoding tag this reader does not know.
    UnsupportedEncoding,
    /// A tokenized column names a tokenizer digest that is not registered.
    UnknownTokenizer,
    /// A caller asked for something that does not exist (row group, column, range).
    OutOfRange,
    /// A `tokenizer.json` could not be understood.
    InvalidTokenizer,
    /// A decoded result would not fit this reader's limits (4 GiB of string data,
    /// or memory that cannot be allocated).
    TooLarge,
}

impl ErrorKind {
    pub const ALL: [ErrorKind; 11] = [
        ErrorKind::Truncated,
        ErrorKind::BadMagic,
        ErrorKind::UnsupportedVersion,
        ErrorKind::CorruptFooter,
        ErrorKind::CorruptChunk,
        ErrorKind::UnsupportedCodec,
        ErrorKind::UnsupportedEncoding,
        ErrorKind::UnknownTokenizer,
        ErrorKind::OutOfRange,
        ErrorKind::InvalidTokenizer,
        ErrorKind::TooLarge,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            ErrorKind::Truncated => "truncated",
            ErrorKind::BadMagic => "bad_magic",
            ErrorKind::UnsupportedVersion => "unsupported_version",
            ErrorKind::CorruptFooter => "corrupt_footer",
            ErrorKind::CorruptChunk => "corrupt_chunk",
            ErrorKind::UnsupportedCodec => "unsupported_codec",
            ErrorKind::UnsupportedEncoding => "unsupported_encoding",
            ErrorKind::UnknownTokenizer => "unknown_tokenizer",
            ErrorKind::OutOfRange => "out_of_range",
            ErrorKind::InvalidTokenizer => "invalid_tokenizer",
            ErrorKind::TooLarge => "too_large",
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Where an error was found. Every part is optional because some errors
/// (a bad magic) have no row group, and some (a bad varint deep in a
/// decompressed stream) have no file offset.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Location {
    pub row_group: Option<u32>,
    pub column: Option<u32>,
    /// Absolute byte offset in the file (for `invalid_tokenizer`, in the tokenizer.json).
    pub offset: Option<u64>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    pub kind: ErrorKind,
    pub message: String,
    pub location: Location,
}

pub type Result<T> = core::result::Result<T, Error>;

impl Error {
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Error { kind, message: message.into(), location: Location::default() }
    }

    /// Sets the file offset unless a deeper layer already set a more precise one.
    pub fn at_offset(mut self, offset: u64) -> Self {
        self.location.offset.get_or_insert(offset);
        self
    }

    /// Adds the chunk's coordinates; the layer that knows them calls this.
    pub fn in_chunk(mut self, row_group: usize, column: usize) -> Self {
        self.location.row_group.get_or_insert(row_group as u32);
        self.location.column.get_or_insert(column as u32);
        self
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind, self.message)?;
        let loc = self.location;
        let mut sep = " (";
        if let Some(rg) = loc.row_group {
            write!(f, "{sep}row group {rg}")?;
            sep = ", ";
        }
        if let Some(c) = loc.column {
            write!(f, "{sep}column {c}")?;
            sep = ", ";
        }
        if let Some(o) = loc.offset {
            write!(f, "{sep}byte offset {o}")?;
            sep = ", ";
        }
        if sep == ", " {
            f.write_str(")")?;
        }
        Ok(())
    }
}

impl std::error::Error for Error {}

/// Shorthands used by every layer, so a rule and its error read as one line.
pub(crate) fn corrupt_chunk(message: impl Into<String>) -> Error {
    Error::new(ErrorKind::CorruptChunk, message)
}

pub(crate) fn corrupt_footer(message: impl Into<String>) -> Error {
    Error::new(ErrorKind::CorruptFooter, message)
}

/// Reserves exactly `n` elements or reports `too_large` instead of aborting:
/// an allocation failure in wasm would trap the whole module.
pub(crate) fn try_vec<T>(n: usize, what: &str) -> Result<Vec<T>> {
    let mut v = Vec::new();
    try_room(&mut v, n, what)?;
    Ok(v)
}

/// Makes room for `n` elements beyond the `Vec`'s length (allocating only
/// when it has less), or reports `too_large` as [`try_vec`] does.
pub(crate) fn try_room<T>(v: &mut Vec<T>, n: usize, what: &str) -> Result<()> {
    v.try_reserve_exact(n).map_err(|_| no_room(v.len(), n, core::mem::size_of::<T>(), what))
}

/// [`try_room`]'s error: `n` more elements of `size` bytes after `len`.
/// One allocation holds at most isize::MAX bytes: in wasm32, 2 GiB - 1,
/// reached before its memory's 4 GiB (a chunk's values are one allocation).
#[cold]
#[inline(never)]
fn no_room(len: usize, n: usize, size: usize, what: &str) -> Error {
    let why = if len.saturating_add(n).saturating_mul(size) > isize::MAX as usize {
        "more than one allocation may hold (2 GiB in wasm)"
    } else {
        "out of memory"
    };
    Error::new(ErrorKind::TooLarge, format!("cannot allocate {n} elements of {size} bytes for {what}: {why}"))
}
