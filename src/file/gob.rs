//! A Go `encoding/gob` decoder, exactly as much of it as a footer needs:
//! type definitions (struct, slice, array, map, and the marshaler kinds) and
//! values of builtin types, decoded into a small generic tree that the
//! footer layer reads by field *name*. Nothing here assumes type ids or field
//! numbers of the footer; the stream describes itself.
//!
//! Every count and length is checked against the bytes left before it is
//! used, and nesting is bounded, so hostile input costs at most its own size.

use std::rc::Rc;

use crate::error::{corrupt_footer, Error, ErrorKind, Result};

/// A decoded gob value. Integers keep their gob kind (int/uint) so the
/// footer layer can insist on the kind it expects.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Value {
    Bool(bool),
    Int(i64),
    Uint(u64),
    Float(f64),
    /// `[]byte` and `string` both arrive as length-prefixed bytes.
    Bytes(Vec<u8>),
    Slice(Vec<Value>),
    /// Fields in stream order, by the name the type definition gives them.
    Struct(Vec<(Rc<str>, Value)>),
    /// A value of a kind the footer never uses (map, complex, marshaled
    /// bytes): decoded to stay in step with the stream, then dropped.
    Skipped,
}

impl Value {
    pub fn field(&self, name: &str) -> Option<&Value> {
        match self {
            Value::Struct(fields) => fields.iter().find(|(n, _)| &**n == name).map(|(_, v)| v),
            _ => None,
        }
    }
}

// Builtin type ids fixed by gob itself.
const T_BOOL: i64 = 1;
const T_INT: i64 = 2;
const T_UINT: i64 = 3;
const T_FLOAT: i64 = 4;
const T_BYTES: i64 = 5;
const T_STRING: i64 = 6;
const T_COMPLEX: i64 = 7;
const T_INTERFACE: i64 = 8;

/// Deep enough for any real footer; shallow enough that a self-referential
/// type cannot exhaust the stack.
const MAX_DEPTH: usize = 32;

/// Type definitions by id. A footer defines a handful, so a list beats a
/// hash map (and keeps hashing code out of the wasm).
#[derive(Default)]
struct Types(Vec<(i64, WireType)>);

impl Types {
    fn get(&self, id: &i64) -> Option<&WireType> {
        self.0.iter().find(|(i, _)| i == id).map(|(_, t)| t)
    }
    fn insert(&mut self, id: i64, t: WireType) {
        match self.0.iter_mut().find(|(i, _)| *i == id) {
            Some(slot) => slot.1 = t,
            None => self.0.push((id, t)),
        }
    }
}

#[derive(Debug)]
enum WireType {
    Array {
        elem: i64,
        len: u64,
    },
    Slice {
        elem: i64,
    },
    Struct {
        fields: Vec<(Rc<str>, i64)>,
    },
    Map {
        key: i64,
        elem: i64,
    },
    /// GobEncoder, BinaryMarshaler, TextMarshaler: the value is opaque bytes.
    Opaque,
}

/// Low-level reads over one message. Gob integers are not little-endian
/// like the rest of the format: see FORMAT.md section 2.
struct Decoder<'a> {
    buf: &'a [u8],
    pos: usize,
    /// The footer byte of `buf[0]`.
    base: usize,
    /// Where the value being read starts (the last integer's, or the
    /// last `value`'s, first byte): what an error points at.
    at: usize,
}

impl<'a> Decoder<'a> {
    #[inline(never)]
    fn err(&self, what: &str) -> crate::error::Error {
        corrupt_footer(format!("gob: {what} at footer byte {}", self.base + self.at))
    }

    fn byte(&mut self) -> Result<u8> {
        let b = *self.buf.get(self.pos).ok_or_else(|| self.err("stream ends inside a value"))?;
        self.pos += 1;
        Ok(b)
    }

    // Read at every field, count and length of the footer: one copy, not one per site.
    #[inline(never)]
    fn uint(&mut self) -> Result<u64> {
        self.at = self.pos;
        let b = self.byte()?;
        if b < 0x80 {
            return Ok(b as u64);
        }
        let n = (!b).wrapping_add(1) as usize; // 0xFF -> 1 byte ... 0xF8 -> 8 bytes
        if n > 8 {
            return Err(self.err(&format!("unsigned integer with byte count marker {:#04x}", u32::from(b))));
        }
        let bytes = self.take(n)?;
        Ok(bytes.iter().fold(0u64, |acc, &x| (acc << 8) | x as u64))
    }

    #[inline(never)]
    fn int(&mut self) -> Result<i64> {
        let u = self.uint()?;
        Ok(if u & 1 != 0 { !(u >> 1) as i64 } else { (u >> 1) as i64 })
    }

    #[inline(never)]
    fn take(&mut self, n: usize) -> Result<&'a [u8]> {
        if n > self.buf.len() - self.pos {
            return Err(self.err(&format!("length {n} exceeds the {} bytes left", self.buf.len() - self.pos)));
        }
        let s = &self.buf[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    #[inline(never)]
    fn bytes(&mut self) -> Result<&'a [u8]> {
        let n = self.uint()?;
        let n = usize::try_from(n).map_err(|_| self.err("byte length overflows"))?;
        self.take(n)
    }

    /// An element count, bounded by the bytes left: every gob element takes
    /// at least one byte, so a larger count is a lie, not an allocation.
    #[inline(never)]
    fn count(&mut self) -> Result<usize> {
        let n = self.uint()?;
        if n > (self.buf.len() - self.pos) as u64 {
            return Err(self.err(&format!("count {n} exceeds the {} bytes left", self.buf.len() - self.pos)));
        }
        Ok(n as usize)
    }

    /// Walks a struct body: (field delta, value) pairs ended by a 0 delta.
    fn each_field(&mut self, mut f: impl FnMut(&mut Self, usize) -> Result<()>) -> Result<()> {
        self.fields(&mut f)
    }

    // One loop for every struct kind (out of line, over `dyn`): the closures
    // given to `each_field` are then the only per-kind code in the .wasm.
    #[inline(never)]
    fn fields(&mut self, f: &mut dyn FnMut(&mut Self, usize) -> Result<()>) -> Result<()> {
        let mut field: i64 = -1;
        loop {
            let delta = self.uint()?;
            if delta == 0 {
                return Ok(());
            }
            if delta > 1 << 20 {
                return Err(self.err(&format!("field delta {delta}")));
            }
            field += delta as i64;
            f(self, field as usize)?;
        }
    }

    #[inline(never)]
    fn string(&mut self) -> Result<Rc<str>> {
        let b = self.bytes()?;
        let s = core::str::from_utf8(b).map_err(|_| self.err("type or field name is not UTF-8"))?;
        Ok(Rc::from(s))
    }

    // --- type definitions: the wireType struct and its parts, whose field
    // numbers gob itself fixes ---

    /// CommonType { Name string, Id int }: we only need to step over it.
    fn common_type(&mut self) -> Result<()> {
        self.each_field(|d, f| match f {
            0 => d.bytes().map(drop),
            1 => d.int().map(drop),
            _ => Err(d.err("unknown CommonType field")),
        })
    }

    fn wire_type(&mut self) -> Result<WireType> {
        let mut found = None;
        self.each_field(|d, f| {
            // (Before the kind is read: the error points at its field number.)
            if found.is_some() {
                return Err(d.err("wireType defines more than one kind"));
            }
            let t = match f {
                0 => {
                    let (mut elem, mut len) = (0, 0);
                    d.each_field(|d, f| match f {
                        0 => d.common_type(),
                        1 => d.int().map(|v| elem = v),
                        2 => d
                            .int()
                            .and_then(|v| u64::try_from(v).map_err(|_| d.err("negative array length")))
                            .map(|v| len = v),
                        _ => Err(d.err("unknown ArrayType field")),
                    })?;
                    WireType::Array { elem, len }
                }
                1 => {
                    let mut elem = 0;
                    d.each_field(|d, f| match f {
                        0 => d.common_type(),
                        1 => d.int().map(|v| elem = v),
                        _ => Err(d.err("unknown SliceType field")),
                    })?;
                    WireType::Slice { elem }
                }
                2 => {
                    let mut fields = Vec::new();
                    d.each_field(|d, f| match f {
                        0 => d.common_type(),
                        1 => {
                            let n = d.count()?;
                            for _ in 0..n {
                                let (mut name, mut id): (Rc<str>, i64) = (Rc::from(""), 0);
                                d.each_field(|d, f| match f {
                                    0 => d.string().map(|s| name = s),
                                    1 => d.int().map(|v| id = v),
                                    _ => Err(d.err("unknown fieldType field")),
                                })?;
                                fields.push((name, id));
                            }
                            Ok(())
                        }
                        _ => Err(d.err("unknown StructType field")),
                    })?;
                    WireType::Struct { fields }
                }
                3 => {
                    let (mut key, mut elem) = (0, 0);
                    d.each_field(|d, f| match f {
                        0 => d.common_type(),
                        1 => d.int().map(|v| key = v),
                        2 => d.int().map(|v| elem = v),
                        _ => Err(d.err("unknown MapType field")),
                    })?;
                    WireType::Map { key, elem }
                }
                4..=6 => {
                    d.each_field(|d, f| match f {
                        0 => d.common_type(),
                        _ => Err(d.err("unknown GobEncoderType field")),
                    })?;
                    WireType::Opaque
                }
                _ => return Err(d.err(&format!("unknown wireType field {f}"))),
            };
            found = Some(t);
            Ok(())
        })?;
        found.ok_or_else(|| self.err("empty wireType"))
    }

    // --- values ---

    /// A slice's or array's `n` elements. `n` is at most the bytes left,
    /// but an element is 16 bytes on wasm32 against one on the wire: room
    /// is made as they arrive (fallibly), so a count that lies costs no more
    /// than the elements that are there (a 128 MB footer's count reserved
    /// 2 GB of wasm memory at once, or trapped).
    fn items(&mut self, types: &Types, elem: i64, n: usize, depth: usize) -> Result<Vec<Value>> {
        let mut items = Vec::new();
        for _ in 0..n {
            let v = self.value(types, elem, depth + 1)?;
            if items.try_reserve(1).is_err() {
                return Err(Error::new(ErrorKind::TooLarge, "the footer's values do not fit in memory"));
            }
            items.push(v);
        }
        Ok(items)
    }

    fn value(&mut self, types: &Types, id: i64, depth: usize) -> Result<Value> {
        self.at = self.pos;
        if depth > MAX_DEPTH {
            return Err(self.err("values nested too deeply"));
        }
        Ok(match id {
            T_BOOL => match self.uint()? {
                0 => Value::Bool(false),
                1 => Value::Bool(true),
                v => return Err(self.err(&format!("bool value {v}"))),
            },
            T_INT => Value::Int(self.int()?),
            T_UINT => Value::Uint(self.uint()?),
            // Floats travel as byte-reversed IEEE bits.
            T_FLOAT => Value::Float(f64::from_bits(self.uint()?.swap_bytes())),
            T_BYTES | T_STRING => Value::Bytes(self.bytes()?.to_vec()),
            T_COMPLEX => {
                self.uint()?;
                self.uint()?;
                Value::Skipped
            }
            T_INTERFACE => return Err(self.err("interface values are not supported in a footer")),
            _ => match types.get(&id) {
                None => return Err(self.err(&format!("value of undefined type id {id}"))),
                Some(WireType::Struct { fields }) => {
                    let mut out = Vec::new();
                    self.each_field(|d, f| {
                        let (name, fid) =
                            fields.get(f).ok_or_else(|| d.err(&format!("struct field number {f} not in its type")))?;
                        let v = d.value(types, *fid, depth + 1)?;
                        out.push((name.clone(), v));
                        Ok(())
                    })?;
                    Value::Struct(out)
                }
                Some(WireType::Slice { elem }) => {
                    let n = self.count()?;
                    Value::Slice(self.items(types, *elem, n, depth)?)
                }
                Some(WireType::Array { elem, len }) => {
                    let n = self.count()?;
                    if n as u64 != *len {
                        return Err(self.err(&format!("array of {n} elements, type says {len}")));
                    }
                    Value::Slice(self.items(types, *elem, n, depth)?)
                }
                Some(WireType::Map { key, elem }) => {
                    let n = self.count()?;
                    for _ in 0..n {
                        self.value(types, *key, depth + 1)?;
                        self.value(types, *elem, depth + 1)?;
                    }
                    Value::Skipped
                }
                Some(WireType::Opaque) => {
                    self.bytes()?;
                    Value::Skipped
                }
            },
        })
    }
}

/// Decodes a gob stream holding type definitions and then exactly one
/// value, and returns that value. The whole stream must be consumed.
pub(crate) fn decode_single_value(stream: &[u8]) -> Result<Value> {
    let mut outer = Decoder { buf: stream, pos: 0, base: 0, at: 0 };
    let mut types = Types::default();
    // Definitions may refer forward, so values are decoded only once every
    // definition before them has been read; the footer is the last message.
    while outer.pos < stream.len() {
        let len = outer.uint()?;
        let len = usize::try_from(len).map_err(|_| outer.err("message length overflows"))?;
        let start = outer.pos;
        let body = outer.take(len)?;
        // Its positions are the footer's: an error says the footer byte.
        let mut msg = Decoder { buf: body, pos: 0, base: start, at: 0 };
        let id = msg.int()?;
        if id < 0 {
            let t = msg.wire_type()?;
            types.insert(-id, t);
        } else {
            if id == 0 {
                return Err(msg.err("value message with type id 0"));
            }
            let value = msg.value(&types, id, 0)?;
            // Bytes left over: the first of them is pointed at.
            msg.at = msg.pos;
            if msg.pos != body.len() {
                return Err(msg.err("value message not consumed exactly"));
            }
            outer.at = outer.pos;
            if outer.pos != stream.len() {
                return Err(outer.err("bytes after the footer value"));
            }
            return Ok(value);
        }
        msg.at = msg.pos;
        if msg.pos != body.len() {
            return Err(msg.err("type definition not consumed exactly"));
        }
    }
    Err(corrupt_footer("gob: stream has no value message"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dec(bytes: &[u8]) -> Decoder<'_> {
        Decoder { buf: bytes, pos: 0, base: 0, at: 0 }
    }

    #[test]
    fn unsigned_integers_follow_the_gob_rules() {
        assert_eq!(dec(&[0x7f]).uint().unwrap(), 127);
        assert_eq!(dec(&[0xff, 0x80]).uint().unwrap(), 128);
        assert_eq!(dec(&[0xfe, 0x01, 0x00]).uint().unwrap(), 256);
        assert_eq!(dec(&[0xf8, 1, 2, 3, 4, 5, 6, 7, 8]).uint().unwrap(), 0x0102030405060708);
        assert!(dec(&[0xf7, 0, 0, 0, 0, 0, 0, 0, 0, 0]).uint().is_err());
        assert!(dec(&[0xfe, 0x01]).uint().is_err());
    }

    #[test]
    fn signed_integers_use_the_complement_bit() {
        assert_eq!(dec(&[0x00]).int().unwrap(), 0);
        assert_eq!(dec(&[0x01]).int().unwrap(), -1);
        assert_eq!(dec(&[0x02]).int().unwrap(), 1);
        assert_eq!(dec(&[0x03]).int().unwrap(), -2);
        // -129 = !(256>>1): u = 257
        assert_eq!(dec(&[0xfe, 0x01, 0x01]).int().unwrap(), -129);
    }

    #[test]
    fn counts_larger_than_the_input_are_refused() {
        assert!(dec(&[0xfc, 0x7f, 0xff, 0xff, 0xff]).count().is_err());
        assert!(dec(&[0x05, 1, 2, 3]).bytes().is_err());
    }

    /// An error gives the footer byte where the faulty value starts (its
    /// count, length or marker byte), not the byte after it relative to
    /// its message; a stream's extra bytes, the first of them.
    #[test]
    fn errors_give_the_footer_byte_of_the_faulty_value() {
        for (stream, want) in [
            // A value message (type id 1, bool) holding 256: at byte 2.
            (&[0x04, 0x02, 0xfe, 0x01, 0x00][..], "bool value 256 at footer byte 2"),
            // A type definition (a slice), then the same value at byte 7.
            (&[0x04, 0x03, 0x02, 0x00, 0x00, 0x04, 0x02, 0xfe, 0x01, 0x00], "bool value 256 at footer byte 7"),
            (&[0x02, 0x00, 0x01], "value message with type id 0 at footer byte 1"),
            (&[0x03, 0x02, 0xfe, 0x01], "length 2 exceeds the 1 bytes left at footer byte 2"),
            (&[0x05, 0x02], "length 5 exceeds the 1 bytes left at footer byte 0"),
            (&[0x03, 0x02, 0x01, 0x07], "value message not consumed exactly at footer byte 3"),
            (&[0x02, 0x02, 0x01, 0x01], "bytes after the footer value at footer byte 3"),
        ] {
            let e = decode_single_value(stream).unwrap_err();
            assert_eq!(e.message, format!("gob: {want}"), "{stream:02x?}");
        }
    }

    #[test]
    fn empty_stream_has_no_value() {
        assert!(decode_single_value(&[]).is_err());
    }
}
