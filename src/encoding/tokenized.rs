//! Tokenized (FORMAT.md section 6): values as token ids of a BPE
//! tokenizer, with bytes the vocab cannot express carried as escapes.
//!
//! ```text
//! representation u8, boundaries u8, V u32, T u32, E u32, L u32,
//! L x u16 table, V x u32 boundaries, id stream, E escape bytes
//! ```

use super::bits::MsbBits;
use super::{count_mismatch, stream_reader, BytesBuilder};
use crate::bytes::{bits_needed, le_u32};
use crate::column::Values;
use crate::error::{corrupt_chunk, try_vec, Result};
use crate::tokenizer::Tokenizer;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IdRepresentation {
    /// T x uint16.
    Raw,
    /// LEB128 indices into a table of distinct ids, most frequent first.
    Remap,
    /// Ids packed at the width of the largest id, MSB first.
    Bits,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Boundaries {
    Counts,
    Offsets,
    Deltas,
}

impl IdRepresentation {
    pub fn name(self) -> &'static str {
        match self {
            IdRepresentation::Raw => "Raw",
            IdRepresentation::Remap => "Remap",
            IdRepresentation::Bits => "Bits",
        }
    }
}

impl Boundaries {
    pub fn name(self) -> &'static str {
        match self {
            Boundaries::Counts => "Counts",
            Boundaries::Offsets => "Offsets",
            Boundaries::Deltas => "Deltas",
        }
    }
}

/// The parsed layout of a tokenized stream, borrowed from it.
pub struct TokenizedLayout<'a> {
    pub representation: IdRepresentation,
    pub boundaries: Boundaries,
    pub values: usize,
    pub tokens: usize,
    pub escapes: usize,
    table: &'a [u8],
    boundary_stream: &'a [u8],
    pub id_stream: &'a [u8],
    pub escape_bytes: &'a [u8],
}

impl<'a> TokenizedLayout<'a> {
    pub fn parse(stream: &'a [u8]) -> Result<Self> {
        let mut r = stream_reader(stream);
        let representation = match r.u8("id representation")? {
            0 => IdRepresentation::Raw,
            1 => IdRepresentation::Remap,
            2 => IdRepresentation::Bits,
            t => return Err(corrupt_chunk(format!("unknown tokenized id representation {t}"))),
        };
        let boundaries = match r.u8("boundary layout")? {
            0 => Boundaries::Counts,
            1 => Boundaries::Offsets,
            2 => Boundaries::Deltas,
            t => return Err(corrupt_chunk(format!("unknown tokenized boundary layout {t}"))),
        };
        let values = r.len32("value count")?;
        let tokens = r.len32("token count")?;
        let escapes = r.len32("escape count")?;
        let table_len = r.len32("table length")?;
        let table = r.take_array(table_len, 2, "id table")?;
        let boundary_stream = r.take_array(values, 4, "boundary stream")?;
        let rest = r.rest();
        if escapes > rest.len() {
            return Err(corrupt_chunk(format!(
                "{escapes} escape bytes declared but only {} bytes follow the boundaries",
                rest.len()
            )));
        }
        let (id_stream, escape_bytes) = rest.split_at(rest.len() - escapes);
        Ok(TokenizedLayout {
            representation,
            boundaries,
            values,
            tokens,
            escapes,
            table,
            boundary_stream,
            id_stream,
            escape_bytes,
        })
    }

    pub fn table_len(&self) -> usize {
        self.table.len() / 2
    }

    fn table_entry(&self, i: usize) -> u16 {
        u16::from_le_bytes([self.table[2 * i], self.table[2 * i + 1]])
    }

    /// The Bits layout's id width.
    pub fn bits_width(&self) -> Option<u32> {
        (self.representation == IdRepresentation::Bits && self.table_len() == 1)
            .then(|| bits_needed(self.table_entry(0) as u64))
    }

    /// Token index where each value starts, plus T at the end: V + 1 entries,
    /// checked never to decrease and to end exactly at T.
    pub fn value_starts(&self) -> Result<Vec<u32>> {
        let (v, t) = (self.values, self.tokens as u64);
        let mut starts = try_vec::<u32>(v + 1, "token boundaries")?;
        let b = |i: usize| le_u32(self.boundary_stream, 4 * i);
        let mut pos = 0u64;
        let mut count = 0i64;
        for i in 0..v {
            starts.push(pos as u32);
            match self.boundaries {
                Boundaries::Counts => pos += b(i) as u64,
                Boundaries::Offsets => {
                    let o = b(i) as u64;
                    if (i == 0 && o != 0) || o < pos || o > t {
                        return Err(corrupt_chunk(format!(
                            "token offset {o} of value {i} is out of order or past {t} tokens"
                        )));
                    }
                    *starts.last_mut().unwrap_or(&mut 0) = o as u32;
                    pos = o;
                }
                Boundaries::Deltas => {
                    let u = b(i) as i64;
                    count += (u >> 1) ^ -(u & 1);
                    if count < 0 {
                        return Err(corrupt_chunk(format!("token count of value {i} decodes below zero")));
                    }
                    pos += count as u64;
                }
            }
            if pos > t {
                return Err(corrupt_chunk(format!("value {i} ends at token {pos}, past the {t} tokens")));
            }
        }
        if self.boundaries != Boundaries::Offsets && pos != t {
            return Err(corrupt_chunk(format!("token counts sum to {pos}, the chunk holds {t} tokens")));
        }
        if v == 0 && t != 0 {
            return Err(corrupt_chunk(format!("{t} tokens but no values")));
        }
        starts.push(t as u32);
        Ok(starts)
    }

    /// The id stream resolved to ids, checked against its representation.
    fn ids(&self) -> Result<Ids<'a>> {
        let t = self.tokens;
        match self.representation {
            IdRepresentation::Raw => {
                if self.table_len() != 0 {
                    return Err(corrupt_chunk("Raw ids with a non-empty table"));
                }
                if self.id_stream.len() as u64 != 2 * t as u64 {
                    return Err(corrupt_chunk(format!(
                        "{t} Raw ids need {} bytes, found {}",
                        2 * t as u64,
                        self.id_stream.len()
                    )));
                }
                Ok(Ids::Raw(self.id_stream))
            }
            IdRepresentation::Remap => {
                // Every varint takes at least a byte, which bounds T here.
                if t > self.id_stream.len() {
                    return Err(corrupt_chunk(format!("{t} Remap ids cannot fit in {} bytes", self.id_stream.len())));
                }
                let mut ids = try_vec::<u16>(t, "token ids")?;
                let s = self.id_stream;
                let mut p = 0usize;
                for k in 0..t {
                    let mut idx = 0u64;
                    let mut shift = 0;
                    loop {
                        let b =
                            *s.get(p).ok_or_else(|| corrupt_chunk(format!("Remap id stream ends inside token {k}")))?;
                        p += 1;
                        idx |= ((b & 0x7f) as u64) << shift;
                        if b & 0x80 == 0 {
                            break;
                        }
                        shift += 7;
                        if shift > 28 {
                            return Err(corrupt_chunk(format!("Remap varint of token {k} is longer than 5 bytes")));
                        }
                    }
                    if idx >= self.table_len() as u64 {
                        return Err(corrupt_chunk(format!(
                            "Remap index {idx} of token {k} is outside the {}-entry table",
                            self.table_len()
                        )));
                    }
                    ids.push(self.table_entry(idx as usize));
                }
                if p != s.len() {
                    return Err(corrupt_chunk(format!(
                        "Remap varints end at byte {p} of a {}-byte id stream",
                        s.len()
                    )));
                }
                Ok(Ids::Remapped(ids))
            }
            IdRepresentation::Bits => {
                let w = self.bits_width().ok_or_else(|| {
                    corrupt_chunk(format!("Bits ids need a 1-entry table, found {}", self.table_len()))
                })?;
                Ok(Ids::Bits(MsbBits::new(self.id_stream, t, w)?, self.table_entry(0) as u32))
            }
        }
    }
}

enum Ids<'a> {
    Raw(&'a [u8]),
    Remapped(Vec<u16>),
    /// Packed ids and the largest id the table declares.
    Bits(MsbBits<'a>, u32),
}

impl Ids<'_> {
    /// Calls `f` with every id in order, stopping at the first error.
    fn try_for_each(&self, mut f: impl FnMut(u32) -> Result<()>) -> Result<()> {
        match self {
            Ids::Raw(s) => s.chunks_exact(2).try_for_each(|c| f(u16::from_le_bytes([c[0], c[1]]) as u32)),
            Ids::Remapped(v) => v.iter().try_for_each(|&id| f(id as u32)),
            Ids::Bits(bits, max) => {
                let mut res = Ok(());
                bits.for_each(|id| {
                    if res.is_ok() {
                        res = if id > *max {
                            Err(corrupt_chunk(format!("Bits id {id} exceeds the declared largest id {max}")))
                        } else {
                            f(id)
                        };
                    }
                });
                res
            }
        }
    }
}

pub(super) fn decode(n: usize, rows: usize, stream: &[u8], tok: &Tokenizer) -> Result<Values> {
    let layout = TokenizedLayout::parse(stream)?;
    if layout.values != n {
        return Err(count_mismatch("Tokenized stream", layout.values, n));
    }
    let starts = layout.value_starts()?;
    let ids = layout.ids()?;
    let escape = tok.escape_id();

    // Pass 1: every id known, escapes counted, output sized exactly.
    let (mut total, mut escapes) = (0u64, 0usize);
    let mut k = 0usize;
    ids.try_for_each(|id| {
        if id == escape {
            escapes += 1;
            total += 1;
        } else {
            match tok.token(id) {
                Some(b) => total += b.len() as u64,
                None => {
                    return Err(corrupt_chunk(format!(
                        "token {k} has id {id}, which the tokenizer does not define (escape id {escape})"
                    )))
                }
            }
        }
        k += 1;
        Ok(())
    })?;
    if escapes != layout.escapes {
        return Err(corrupt_chunk(format!(
            "ids use {escapes} escapes but the stream carries {} escape bytes",
            layout.escapes
        )));
    }

    // Pass 2: write values. Ids were validated, so lookups cannot fail.
    let mut out = BytesBuilder::with_capacity(n, rows, total)?;
    let mut esc = layout.escape_bytes.iter();
    let mut next_end = 1usize; // index into `starts` of the current value's end
    let mut token = 0u32;
    while next_end < starts.len() && starts[next_end] == token {
        out.end_value();
        next_end += 1;
    }
    ids.try_for_each(|id| {
        if id == escape {
            out.append_slice(core::slice::from_ref(esc.next().unwrap_or(&0)));
        } else {
            let (bytes, start, len) = tok.token_span(id);
            out.append(bytes, start, len);
        }
        token += 1;
        while next_end < starts.len() && starts[next_end] == token {
            out.end_value();
            next_end += 1;
        }
        Ok(())
    })?;
    out.finish()
}
