//! The `serde::Serializer` that writes canonical JSON bytes straight into a
//! [`CanonicalWriter`], without building a tree.

use serde::ser::{self, Impossible, Serialize};

use super::{
    decimal_str, push_decimal, write_int_u128, write_int_u64, write_str, CanonicalError,
    CanonicalWriter, ObjectFrame,
};

type Result<T> = core::result::Result<T, CanonicalError>;

/// Writes the elements of one JSON array (a sequence, tuple, or the array of a tuple
/// variant). Handed out by the serializer; not built directly.
pub struct SeqWriter<'a> {
    w: &'a mut CanonicalWriter,
    first: bool,
    /// A tuple variant: close the `{"Variant":` wrapper too.
    variant: bool,
}

/// Writes the entries of one JSON object (a map, struct, or the object of a struct
/// variant), sorting them at the end. Handed out by the serializer; not built directly.
pub struct ObjectWriter<'a> {
    w: &'a mut CanonicalWriter,
    frame: ObjectFrame,
    /// A struct variant: close the `{"Variant":` wrapper too.
    variant: bool,
}

/// Writes one object key. Handed out by the serializer; not built directly.
pub struct KeyWriter<'a> {
    w: &'a mut CanonicalWriter,
    frame: &'a mut ObjectFrame,
}

/// `fmt::Write` into a JSON string body, escaping as it goes.
struct Escaper<'a>(&'a mut Vec<u8>);

impl core::fmt::Write for Escaper<'_> {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        super::escape_into(self.0, s);
        Ok(())
    }
}

impl CanonicalWriter {
    fn open_variant(&mut self, variant: &str) {
        let out = self.out();
        out.push(b'{');
        write_str(out, variant);
        out.push(b':');
    }
}

impl<'a> ser::Serializer for &'a mut CanonicalWriter {
    type Ok = ();
    type Error = CanonicalError;
    type SerializeSeq = SeqWriter<'a>;
    type SerializeTuple = SeqWriter<'a>;
    type SerializeTupleStruct = SeqWriter<'a>;
    type SerializeTupleVariant = SeqWriter<'a>;
    type SerializeMap = ObjectWriter<'a>;
    type SerializeStruct = ObjectWriter<'a>;
    type SerializeStructVariant = ObjectWriter<'a>;

    fn serialize_bool(self, v: bool) -> Result<()> {
        self.out()
            .extend_from_slice(if v { b"true" } else { b"false" });
        Ok(())
    }

    fn serialize_i8(self, v: i8) -> Result<()> {
        self.serialize_i64(i64::from(v))
    }

    fn serialize_i16(self, v: i16) -> Result<()> {
        self.serialize_i64(i64::from(v))
    }

    fn serialize_i32(self, v: i32) -> Result<()> {
        self.serialize_i64(i64::from(v))
    }

    fn serialize_i64(self, v: i64) -> Result<()> {
        write_int_u64(self.out(), v < 0, v.unsigned_abs());
        Ok(())
    }

    fn serialize_i128(self, v: i128) -> Result<()> {
        write_int_u128(self.out(), v < 0, v.unsigned_abs());
        Ok(())
    }

    fn serialize_u8(self, v: u8) -> Result<()> {
        self.serialize_u64(u64::from(v))
    }

    fn serialize_u16(self, v: u16) -> Result<()> {
        self.serialize_u64(u64::from(v))
    }

    fn serialize_u32(self, v: u32) -> Result<()> {
        self.serialize_u64(u64::from(v))
    }

    fn serialize_u64(self, v: u64) -> Result<()> {
        write_int_u64(self.out(), false, v);
        Ok(())
    }

    fn serialize_u128(self, v: u128) -> Result<()> {
        write_int_u128(self.out(), false, v);
        Ok(())
    }

    fn serialize_f32(self, _v: f32) -> Result<()> {
        Err(CanonicalError::Float)
    }

    fn serialize_f64(self, _v: f64) -> Result<()> {
        Err(CanonicalError::Float)
    }

    fn serialize_char(self, v: char) -> Result<()> {
        let mut buf = [0; 4];
        write_str(self.out(), v.encode_utf8(&mut buf));
        Ok(())
    }

    fn serialize_str(self, v: &str) -> Result<()> {
        write_str(self.out(), v);
        Ok(())
    }

    fn serialize_bytes(self, v: &[u8]) -> Result<()> {
        let out = self.out();
        out.push(b'[');
        for (i, &b) in v.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            push_decimal(out, false, u128::from(b));
        }
        out.push(b']');
        Ok(())
    }

    fn serialize_none(self) -> Result<()> {
        self.serialize_unit()
    }

    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<()> {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result<()> {
        self.out().extend_from_slice(b"null");
        Ok(())
    }

    fn serialize_unit_struct(self, _name: &'static str) -> Result<()> {
        self.serialize_unit()
    }

    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<()> {
        self.static_str(variant);
        Ok(())
    }

    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<()> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<()> {
        self.open_variant(variant);
        value.serialize(&mut *self)?;
        self.out().push(b'}');
        Ok(())
    }

    fn serialize_seq(self, _len: Option<usize>) -> Result<SeqWriter<'a>> {
        self.out().push(b'[');
        Ok(SeqWriter {
            w: self,
            first: true,
            variant: false,
        })
    }

    fn serialize_tuple(self, len: usize) -> Result<SeqWriter<'a>> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_struct(self, _name: &'static str, len: usize) -> Result<SeqWriter<'a>> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<SeqWriter<'a>> {
        self.open_variant(variant);
        self.out().push(b'[');
        Ok(SeqWriter {
            w: self,
            first: true,
            variant: true,
        })
    }

    fn serialize_map(self, _len: Option<usize>) -> Result<ObjectWriter<'a>> {
        let frame = self.begin_object();
        Ok(ObjectWriter {
            w: self,
            frame,
            variant: false,
        })
    }

    fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<ObjectWriter<'a>> {
        self.serialize_map(None)
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<ObjectWriter<'a>> {
        self.open_variant(variant);
        let frame = self.begin_object();
        Ok(ObjectWriter {
            w: self,
            frame,
            variant: true,
        })
    }

    fn collect_str<T: ?Sized + core::fmt::Display>(self, value: &T) -> Result<()> {
        use core::fmt::Write;
        let out = self.out();
        out.push(b'"');
        write!(Escaper(out), "{value}").map_err(|_| CanonicalError::Custom {
            message: "a Display implementation failed".into(),
        })?;
        out.push(b'"');
        Ok(())
    }
}

impl SeqWriter<'_> {
    fn element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        if !self.first {
            self.w.out().push(b',');
        }
        self.first = false;
        value.serialize(&mut *self.w)
    }

    fn finish(self) -> Result<()> {
        let out = self.w.out();
        out.push(b']');
        if self.variant {
            out.push(b'}');
        }
        Ok(())
    }
}

impl ser::SerializeSeq for SeqWriter<'_> {
    type Ok = ();
    type Error = CanonicalError;
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.element(value)
    }
    fn end(self) -> Result<()> {
        self.finish()
    }
}

impl ser::SerializeTuple for SeqWriter<'_> {
    type Ok = ();
    type Error = CanonicalError;
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.element(value)
    }
    fn end(self) -> Result<()> {
        self.finish()
    }
}

impl ser::SerializeTupleStruct for SeqWriter<'_> {
    type Ok = ();
    type Error = CanonicalError;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.element(value)
    }
    fn end(self) -> Result<()> {
        self.finish()
    }
}

impl ser::SerializeTupleVariant for SeqWriter<'_> {
    type Ok = ();
    type Error = CanonicalError;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.element(value)
    }
    fn end(self) -> Result<()> {
        self.finish()
    }
}

impl ObjectWriter<'_> {
    fn field<T: ?Sized + Serialize>(&mut self, key: &'static str, value: &T) -> Result<()> {
        self.w.static_key(&mut self.frame, key);
        value.serialize(&mut *self.w)?;
        self.w.end_value(&mut self.frame);
        Ok(())
    }

    fn finish(self) -> Result<()> {
        self.w.end_object(self.frame)?;
        if self.variant {
            self.w.out().push(b'}');
        }
        Ok(())
    }
}

impl ser::SerializeMap for ObjectWriter<'_> {
    type Ok = ();
    type Error = CanonicalError;

    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<()> {
        self.w.begin_key(&mut self.frame);
        key.serialize(KeyWriter {
            w: &mut *self.w,
            frame: &mut self.frame,
        })?;
        self.w.end_key();
        Ok(())
    }

    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        value.serialize(&mut *self.w)?;
        self.w.end_value(&mut self.frame);
        Ok(())
    }

    fn end(self) -> Result<()> {
        self.finish()
    }
}

impl ser::SerializeStruct for ObjectWriter<'_> {
    type Ok = ();
    type Error = CanonicalError;
    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<()> {
        self.field(key, value)
    }
    fn end(self) -> Result<()> {
        self.finish()
    }
}

impl ser::SerializeStructVariant for ObjectWriter<'_> {
    type Ok = ();
    type Error = CanonicalError;
    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<()> {
        self.field(key, value)
    }
    fn end(self) -> Result<()> {
        self.finish()
    }
}

impl KeyWriter<'_> {
    fn int(self, negative: bool, magnitude: u128) -> Result<()> {
        let mut buf = [0; 41];
        self.w
            .push_key(self.frame, decimal_str(&mut buf, negative, magnitude));
        Ok(())
    }
}

impl ser::Serializer for KeyWriter<'_> {
    type Ok = ();
    type Error = CanonicalError;
    type SerializeSeq = Impossible<(), CanonicalError>;
    type SerializeTuple = Impossible<(), CanonicalError>;
    type SerializeTupleStruct = Impossible<(), CanonicalError>;
    type SerializeTupleVariant = Impossible<(), CanonicalError>;
    type SerializeMap = Impossible<(), CanonicalError>;
    type SerializeStruct = Impossible<(), CanonicalError>;
    type SerializeStructVariant = Impossible<(), CanonicalError>;

    fn serialize_bool(self, v: bool) -> Result<()> {
        self.w
            .push_key(self.frame, if v { "true" } else { "false" });
        Ok(())
    }
    fn serialize_i8(self, v: i8) -> Result<()> {
        self.serialize_i128(i128::from(v))
    }
    fn serialize_i16(self, v: i16) -> Result<()> {
        self.serialize_i128(i128::from(v))
    }
    fn serialize_i32(self, v: i32) -> Result<()> {
        self.serialize_i128(i128::from(v))
    }
    fn serialize_i64(self, v: i64) -> Result<()> {
        self.serialize_i128(i128::from(v))
    }
    fn serialize_i128(self, v: i128) -> Result<()> {
        self.int(v < 0, v.unsigned_abs())
    }
    fn serialize_u8(self, v: u8) -> Result<()> {
        self.serialize_u128(u128::from(v))
    }
    fn serialize_u16(self, v: u16) -> Result<()> {
        self.serialize_u128(u128::from(v))
    }
    fn serialize_u32(self, v: u32) -> Result<()> {
        self.serialize_u128(u128::from(v))
    }
    fn serialize_u64(self, v: u64) -> Result<()> {
        self.serialize_u128(u128::from(v))
    }
    fn serialize_u128(self, v: u128) -> Result<()> {
        self.int(false, v)
    }
    fn serialize_f32(self, _v: f32) -> Result<()> {
        Err(CanonicalError::Float)
    }
    fn serialize_f64(self, _v: f64) -> Result<()> {
        Err(CanonicalError::Float)
    }
    fn serialize_char(self, v: char) -> Result<()> {
        let mut buf = [0; 4];
        self.w.push_key(self.frame, v.encode_utf8(&mut buf));
        Ok(())
    }
    fn serialize_str(self, v: &str) -> Result<()> {
        self.w.push_key(self.frame, v);
        Ok(())
    }
    fn serialize_bytes(self, _v: &[u8]) -> Result<()> {
        Err(CanonicalError::KeyNotString)
    }
    fn serialize_none(self) -> Result<()> {
        Err(CanonicalError::KeyNotString)
    }
    fn serialize_some<T: ?Sized + Serialize>(self, _value: &T) -> Result<()> {
        Err(CanonicalError::KeyNotString)
    }
    fn serialize_unit(self) -> Result<()> {
        Err(CanonicalError::KeyNotString)
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<()> {
        Err(CanonicalError::KeyNotString)
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<()> {
        self.w.push_key(self.frame, variant);
        Ok(())
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<()> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _value: &T,
    ) -> Result<()> {
        Err(CanonicalError::KeyNotString)
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Self::SerializeSeq> {
        Err(CanonicalError::KeyNotString)
    }
    fn serialize_tuple(self, _len: usize) -> Result<Self::SerializeTuple> {
        Err(CanonicalError::KeyNotString)
    }
    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleStruct> {
        Err(CanonicalError::KeyNotString)
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleVariant> {
        Err(CanonicalError::KeyNotString)
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Self::SerializeMap> {
        Err(CanonicalError::KeyNotString)
    }
    fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<Self::SerializeStruct> {
        Err(CanonicalError::KeyNotString)
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStructVariant> {
        Err(CanonicalError::KeyNotString)
    }
    fn collect_str<T: ?Sized + core::fmt::Display>(self, value: &T) -> Result<()> {
        self.w.push_key(self.frame, &value.to_string());
        Ok(())
    }
}
