//! Column types and their tags (FORMAT.md section 5, "Type tags").

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ColumnType {
    Bool,
    Int8,
    Int16,
    Int32,
    Int64,
    Uint8,
    Uint16,
    Uint32,
    Uint64,
    Float32,
    Float64,
    Bytes,
    String,
}

impl ColumnType {
    pub fn from_tag(tag: u8) -> Option<Self> {
        use ColumnType::*;
        Some(match tag {
            1 => Bool,
            2 => Int8,
            3 => Int16,
            4 => Int32,
            5 => Int64,
            6 => Uint8,
            7 => Uint16,
            8 => Uint32,
            9 => Uint64,
            10 => Float32,
            11 => Float64,
            12 => Bytes,
            13 => String,
            _ => return None,
        })
    }

    pub fn tag(self) -> u8 {
        use ColumnType::*;
        match self {
            Bool => 1,
            Int8 => 2,
            Int16 => 3,
            Int32 => 4,
            Int64 => 5,
            Uint8 => 6,
            Uint16 => 7,
            Uint32 => 8,
            Uint64 => 9,
            Float32 => 10,
            Float64 => 11,
            Bytes => 12,
            String => 13,
        }
    }

    pub fn name(self) -> &'static str {
        use ColumnType::*;
        match self {
            Bool => "bool",
            Int8 => "int8",
            Int16 => "int16",
            Int32 => "int32",
            Int64 => "int64",
            Uint8 => "uint8",
            Uint16 => "uint16",
            Uint32 => "uint32",
            Uint64 => "uint64",
            Float32 => "float32",
            Float64 => "float64",
            Bytes => "bytes",
            String => "string",
        }
    }

    /// Bytes per value in Plain form; `None` for the variable-length types.
    pub fn width(self) -> Option<usize> {
        use ColumnType::*;
        match self {
            Bool | Int8 | Uint8 => Some(1),
            Int16 | Uint16 => Some(2),
            Int32 | Uint32 | Float32 => Some(4),
            Int64 | Uint64 | Float64 => Some(8),
            Bytes | String => None,
        }
    }

    pub fn is_integer(self) -> bool {
        use ColumnType::*;
        matches!(self, Int8 | Int16 | Int32 | Int64 | Uint8 | Uint16 | Uint32 | Uint64)
    }

    pub fn is_variable(self) -> bool {
        self.width().is_none()
    }
}

impl core::fmt::Display for ColumnType {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}
