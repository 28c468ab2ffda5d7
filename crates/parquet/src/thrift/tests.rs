//! The compact protocol against byte strings assembled by hand from the specification
//! (apache/thrift `doc/specs/thrift-compact-protocol.md`).

use super::*;
use crate::format::Statistics;

fn reader(bytes: &[u8]) -> CompactReader<'_> {
    CompactReader::new(bytes)
}

fn err_text<T: std::fmt::Debug>(r: quiver_arrow::Result<T>) -> String {
    r.expect_err("an error").to_string()
}

#[test]
fn varints() {
    assert_eq!(reader(&[0x00]).varint().unwrap(), 0);
    assert_eq!(reader(&[0x7f]).varint().unwrap(), 127);
    assert_eq!(reader(&[0x80, 0x01]).varint().unwrap(), 128);
    assert_eq!(reader(&[0xac, 0x02]).varint().unwrap(), 300);
    let max = [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01];
    assert_eq!(reader(&max).varint().unwrap(), u64::MAX);
    // The 10th byte may only hold the 64th bit.
    let over = [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02];
    assert!(err_text(reader(&over).varint()).contains("overflows 64 bits"));
    // 11 bytes (the 10th with its continuation bit set).
    let long = [
        0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x81, 0x00,
    ];
    assert!(err_text(reader(&long).varint()).contains("overflows"));
    assert!(err_text(reader(&[0x80]).varint()).contains("unexpected end"));
    assert!(err_text(reader(&[]).varint()).contains("unexpected end"));
}

/// ULEB128 of `v`, byte by byte (the specification's definition), as the oracle.
fn uleb128(mut v: u64) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let b = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(b);
            return out;
        }
        out.push(b | 0x80);
    }
}

/// Every varint length from 1 to 10 bytes, at every distance from the end of the input (the
/// word-at-a-time path needs 8 bytes left), followed by bytes with and without the
/// continuation bit: decoded and skipped to the value and length of the byte-wise oracle.
#[test]
fn varints_of_every_length_and_position() {
    let noise = crate::encoding::test_util::noise(7, 4096);
    let mut values: Vec<u64> = (0..64).flat_map(|b| [1u64 << b, (1u64 << b) - 1]).collect();
    values.push(u64::MAX);
    values.extend(noise.chunks(8).map(|c| {
        let v = u64::from_le_bytes(c.try_into().unwrap());
        v >> (v % 64) // every magnitude
    }));
    for (i, &v) in values.iter().enumerate() {
        let enc = uleb128(v);
        for tail in [0usize, 1, 3, 7, 8, 12] {
            let mut bytes = enc.clone();
            bytes.extend_from_slice(&noise[i % 100..i % 100 + tail]);
            let mut r = reader(&bytes);
            assert_eq!(r.varint().unwrap(), v, "{v} with {tail} bytes after it");
            assert_eq!(r.position(), enc.len(), "length of {v}");
            let mut r = reader(&bytes);
            r.skip(ValueType::I64).unwrap();
            assert_eq!(r.position(), enc.len(), "skipped length of {v}");
        }
    }
    // A varint cut short, with and without 8 bytes to look at, fails both ways.
    for cut in 1..=9 {
        let bytes = vec![0x80u8; cut];
        assert!(err_text(reader(&bytes).varint()).contains("unexpected end"));
        assert!(reader(&bytes).skip(ValueType::I64).is_err());
    }
}

#[test]
fn zigzag_integers() {
    for (bytes, v) in [
        (&[0x00][..], 0),
        (&[0x01], -1),
        (&[0x02], 1),
        (&[0x03], -2),
        (&[0xfe, 0xff, 0xff, 0xff, 0x0f], i32::MAX),
        (&[0xff, 0xff, 0xff, 0xff, 0x0f], i32::MIN),
    ] {
        assert_eq!(reader(bytes).i32().unwrap(), v, "{bytes:?}");
    }
    // 2^32 does not fit an i32; 2^16 does not fit an i16.
    let e = err_text(reader(&[0x80, 0x80, 0x80, 0x80, 0x10]).i32());
    assert!(e.contains("too large"), "{e}");
    assert!(err_text(reader(&[0x80, 0x80, 0x04]).i16()).contains("too large"));
    assert_eq!(reader(&[0xfe, 0xff, 0x03]).i16().unwrap(), i16::MAX);
    let max = [0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01];
    assert_eq!(reader(&max).i64().unwrap(), i64::MAX);
    let min = [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01];
    assert_eq!(reader(&min).i64().unwrap(), i64::MIN);
    assert_eq!(reader(&[0xfe]).i8().unwrap(), -2);
}

#[test]
fn doubles_and_binary() {
    let mut r = reader(&[0, 0, 0, 0, 0, 0, 0xf8, 0x3f]);
    assert_eq!(r.double().unwrap(), 1.5);
    assert!(err_text(reader(&[0; 7]).double()).contains("double of 8 bytes"));
    let mut r = reader(b"\x03abc\x00");
    assert_eq!(r.binary().unwrap(), b"abc");
    assert_eq!(r.position(), 4);
    assert_eq!(reader(b"\x02hi").string().unwrap(), "hi");
    let e = err_text(reader(b"\x04abc").binary());
    assert!(
        e.contains("binary of 4 bytes at byte 1 runs past the end (3 bytes left)"),
        "{e}"
    );
    // A length of 2^63: an error, not an allocation.
    let huge = [0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01];
    assert!(err_text(reader(&huge).binary()).contains("runs past the end"));
    assert!(err_text(reader(b"\x02\xff\xfe").string()).contains("not UTF-8"));
}

/// The fields of a struct as (id, type, raw value bytes), read through `read_struct`.
fn fields(bytes: &[u8]) -> quiver_arrow::Result<Vec<(i16, ValueType, Vec<u8>)>> {
    let mut r = reader(bytes);
    let mut out = Vec::new();
    r.read_struct("Test", |r, f| {
        let start = r.position();
        r.skip_field(f)?;
        let mut raw = r.buffer()[start..r.position()].to_vec();
        if f.ty == ValueType::Bool {
            raw.push(u8::from(f.bool_value));
        }
        out.push((f.id, f.ty, raw));
        Ok(())
    })?;
    assert_eq!(r.remaining(), 0, "the struct is all of the input");
    Ok(out)
}

#[test]
fn short_and_long_field_headers() {
    let bytes = [
        0x15, 0xac, 0x02, // id 1 (delta 1), i32 150
        0x11, // id 2 (delta 1), bool true
        0x32, // id 5 (delta 3), bool false
        0x38, 0x01, b'x', // id 8 (delta 3), binary "x"
        0x06, 0xd8, 0x04, 0x02, // long form: i64, id 300 (zigzag 600), value 1
        0x03, 0x03, 0x7f, // long form: i8, id -2 (zigzag 3), value 127
        0x00,
    ];
    let f = fields(&bytes).unwrap();
    let ids: Vec<i16> = f.iter().map(|x| x.0).collect();
    assert_eq!(ids, [1, 2, 5, 8, 300, -2]);
    assert_eq!(f[0].1, ValueType::I32);
    assert_eq!((f[1].1, f[1].2.as_slice()), (ValueType::Bool, &[1][..]));
    assert_eq!((f[2].1, f[2].2.as_slice()), (ValueType::Bool, &[0][..]));
    assert_eq!(f[3].2, b"\x01x");
    assert_eq!(f[4].1, ValueType::I64);
    assert_eq!(f[5].2, [0x7f]);
}

#[test]
fn field_header_errors() {
    // Type code 13 does not exist.
    let e = err_text(fields(&[0x1d, 0x00]));
    assert!(e.contains("invalid field type 13 at byte 0"), "{e}");
    // Id 32767 then a delta of 1 overflows i16.
    let e = err_text(fields(&[0x05, 0xfe, 0xff, 0x03, 0x00, 0x15, 0x00, 0x00]));
    assert!(e.contains("field id overflows"), "{e}");
    // No stop byte.
    assert!(err_text(fields(&[0x15, 0x02])).contains("unexpected end"));
}

#[test]
fn lists() {
    let mut r = reader(&[0x35, 0x02, 0x04, 0x06]);
    assert_eq!(r.list::<i32>().unwrap(), [1, 2, 3]);
    // Long form: 0xf5 then the size as a varint.
    let mut long = vec![0xf5, 20];
    long.extend(std::iter::repeat_n(0x02, 20));
    assert_eq!(reader(&long).list::<i32>().unwrap(), vec![1; 20]);
    // bool elements are one byte: 1 true, 0 or 2 false; type code 1 or 2.
    let mut r = reader(&[0x31, 0x01, 0x02, 0x00]);
    assert_eq!(r.list::<bool>().unwrap(), [true, false, false]);
    assert_eq!(reader(&[0x12, 0x01]).list::<bool>().unwrap(), [true]);
    assert!(err_text(reader(&[0x11, 0x07]).list::<bool>()).contains("not 0, 1 or 2"));
    let mut r = reader(b"\x28\x01a\x02bc");
    assert_eq!(r.list::<&[u8]>().unwrap(), [&b"a"[..], b"bc"]);
    // The element type must be what the field holds.
    let e = err_text(reader(&[0x16, 0x02]).list::<i32>());
    assert!(e.contains("holds i64, expected i32"), "{e}");
    // Sizes are checked against the bytes left before allocating.
    let e = err_text(reader(&[0x45, 0x02, 0x04, 0x06]).list::<i32>());
    assert!(
        e.contains("declares 4 i32 elements but only 3 bytes are left"),
        "{e}"
    );
    let e = err_text(reader(&[0x27, 0, 0, 0, 0, 0, 0, 0, 0]).list::<f64>());
    assert!(
        e.contains("declares 2 double elements but only 8 bytes"),
        "{e}"
    );
    let huge = [0xfc, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01];
    assert!(err_text(reader(&huge).list_header()).contains("only 0 bytes are left"));
    assert!(err_text(reader(&[0x1f, 0x00]).list_header()).contains("invalid list element type 15"));
    assert!(err_text(reader(&[0x10, 0x00]).list_header()).contains("invalid list element type 0"));
    // An empty list's element type is not checked: fastparquet writes `0x00` (type 0), and a
    // typed read of it (or of an empty list of another type) is an empty list.
    for bytes in [&[0x00][..], &[0xf0, 0x00], &[0x06]] {
        assert_eq!(reader(bytes).list::<i32>().unwrap(), Vec::<i32>::new());
        assert_eq!(reader(bytes).list_header().unwrap().1, 0);
    }
    let mut r = reader(&[0x00, 0x05]);
    r.skip(ValueType::List).unwrap();
    assert_eq!(r.remaining(), 1);
}

#[test]
fn skipping_every_type() {
    for (ty, bytes) in [
        (ValueType::Bool, &[0x01][..]),
        (ValueType::I8, &[0xff]),
        (ValueType::I16, &[0xfe, 0x03]),
        (ValueType::I32, &[0x80, 0x01]),
        (ValueType::I64, &[0x01]),
        (ValueType::Double, &[0; 8]),
        (ValueType::Binary, b"\x02ab"),
        (ValueType::List, &[0x25, 0x01, 0x02]),
        (ValueType::Set, &[0x13, 0x09]),
        (
            ValueType::List,
            &[0x27, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
        ),
        // map<binary, i32> of 2 entries.
        (
            ValueType::Map,
            &[0x02, 0x85, 0x01, b'a', 0x02, 0x01, b'b', 0x04],
        ),
        (ValueType::Map, &[0x00]),
        // A struct holding a list of structs, each with a map and a nested struct.
        (
            ValueType::Struct,
            &[
                0x19, 0x2c, // id 1: list of 2 structs
                0x1b, 0x01, 0x55, 0x02, 0x04, 0x00, // { 1: map<i32,i32>{1: 2} }
                0x1c, 0x15, 0x02, 0x00, 0x00, // { 1: { 1: i32 1 } }
                0x00,
            ],
        ),
    ] {
        let mut r = reader(bytes);
        r.skip(ty)
            .unwrap_or_else(|e| panic!("{ty:?} {bytes:?}: {e}"));
        assert_eq!(r.remaining(), 0, "{ty:?} {bytes:?}");
        // Every truncation is an error, never a panic.
        for cut in 0..bytes.len() {
            assert!(
                reader(&bytes[..cut]).skip(ty).is_err(),
                "{ty:?} cut at {cut}"
            );
        }
    }
    let e = err_text(reader(&[0x03, 0x55, 0x02]).skip(ValueType::Map));
    assert!(
        e.contains("declares 3 entries but only 1 bytes are left"),
        "{e}"
    );
    assert!(err_text(reader(&[0x01, 0xd5]).skip(ValueType::Map)).contains("invalid map type 13"));
}

#[test]
fn unknown_fields_are_skipped() {
    // Statistics { 3: null_count = 5, 15: unknown struct { 1: list<struct{..}>, 2: map },
    // 9 (long form, going back): nan_count = 1, 7: is_max_value_exact = true }
    let bytes = [
        0x36, 0x0a, // id 3, i64 5
        0xcc, // id 15 (delta 12), struct
        0x19, 0x1c, 0x18, 0x01, b'z', 0x00, // 1: list of 1 struct { 1: binary "z" }
        0x1b, 0x01, 0x88, 0x00, 0x01, b'v', // 2: map<binary, binary>{"": "v"}
        0x00, // end of the unknown struct
        0x06, 0x12, 0x02, // long form: i64, id 9, value 1
        0x01, 0x0e, // long form: bool true, id 7
        0x00,
    ];
    let mut r = reader(&bytes);
    let s = Statistics::read(&mut r).unwrap();
    assert_eq!(r.remaining(), 0);
    assert_eq!(s.null_count, Some(5));
    assert_eq!(s.nan_count, Some(1));
    assert_eq!(s.is_max_value_exact, Some(true));
    assert_eq!(s.min, None);
}

#[test]
fn a_field_of_the_wrong_type_is_skipped() {
    // Statistics { 3: null_count as binary "ab", 4: distinct_count = 2 }
    let s = Statistics::read(&mut reader(b"\x38\x02ab\x16\x04\x00")).unwrap();
    assert_eq!((s.null_count, s.distinct_count), (None, Some(2)));
}

fn nested_structs(depth: usize) -> Vec<u8> {
    let mut bytes = vec![0x1c; depth - 1];
    bytes.extend(std::iter::repeat_n(0x00, depth));
    bytes
}

#[test]
fn nesting_is_limited() {
    let ok = nested_structs(MAX_DEPTH as usize);
    reader(&ok).skip_struct().unwrap();
    let too_deep = nested_structs(MAX_DEPTH as usize + 1);
    let e = err_text(reader(&too_deep).skip_struct());
    assert!(e.contains("nesting deeper than 64"), "{e}");
    let e = err_text(Statistics::read(&mut reader(&too_deep)));
    assert!(e.contains("nesting deeper than 64"), "{e}");
    // Lists count as a level too.
    let mut lists = vec![0x19; 100];
    lists.push(0x00);
    assert!(err_text(reader(&lists).skip(ValueType::List)).contains("nesting deeper"));
}

#[test]
fn errors_name_struct_field_and_offset() {
    // Statistics { 1: max = binary of 9 bytes, only 2 present }
    let e = err_text(Statistics::read(&mut reader(b"\x18\x09ab")));
    assert!(e.starts_with("Statistics field 1 at byte 0: "), "{e}");
    assert!(e.contains("binary of 9 bytes at byte 2"), "{e}");
}

#[test]
fn writer_matches_the_hand_assembled_bytes() {
    let mut w = CompactWriter::new();
    w.struct_begin();
    w.field(1, &150i32);
    w.field_bool(2, true);
    w.field_bool(5, false);
    w.field(8, &&b"x"[..]);
    w.field(300, &1i64);
    w.field(-2, &127i8);
    w.struct_end();
    assert_eq!(
        w.as_bytes(),
        [
            0x15, 0xac, 0x02, 0x11, 0x32, 0x38, 0x01, b'x', 0x06, 0xd8, 0x04, 0x02, 0x03, 0x03,
            0x7f, 0x00
        ]
    );
    let mut w = CompactWriter::new();
    w.list(&[1i32, 2, 3]);
    w.list(&[1i32; 20]);
    w.list(&[true, false]);
    let mut want = vec![0x35, 0x02, 0x04, 0x06, 0xf5, 20];
    want.extend(std::iter::repeat_n(0x02, 20));
    want.extend([0x21, 0x01, 0x02]);
    assert_eq!(w.as_bytes(), want);
}

#[test]
fn writer_round_trips_extremes() {
    let mut w = CompactWriter::new();
    for v in [0, 1, -1, i64::MAX, i64::MIN, 1 << 40] {
        w.i64(v);
    }
    for v in [i32::MAX, i32::MIN, -300] {
        w.i32(v);
    }
    for v in [i16::MAX, i16::MIN] {
        w.i16(v);
    }
    w.double(-0.25);
    w.binary(b"hello");
    let bytes = w.into_bytes();
    let mut r = reader(&bytes);
    for v in [0, 1, -1, i64::MAX, i64::MIN, 1 << 40] {
        assert_eq!(r.i64().unwrap(), v);
    }
    for v in [i32::MAX, i32::MIN, -300] {
        assert_eq!(r.i32().unwrap(), v);
    }
    for v in [i16::MAX, i16::MIN] {
        assert_eq!(r.i16().unwrap(), v);
    }
    assert_eq!(r.double().unwrap(), -0.25);
    assert_eq!(r.binary().unwrap(), b"hello");
    assert_eq!(r.remaining(), 0);
}

#[test]
fn thrift_list_views_the_encoded_elements() {
    // list<string> of 2: header 0x28 (size 2, binary), then "ab" and "c" with their lengths.
    let bytes = [0x28, 2, b'a', b'b', 1, b'c', 0xee];
    let mut r = reader(&bytes);
    let list = ThriftList::<&str>::read(&mut r).unwrap();
    assert_eq!(r.position(), 6, "the list ends before the trailing byte");
    assert_eq!((list.len(), list.is_empty()), (2, false));
    assert_eq!(list.to_vec(), ["ab", "c"]);
    assert_eq!(list.join("."), "ab.c");
    assert_eq!(format!("{list:?}"), r#"["ab", "c"]"#);
    let mut w = CompactWriter::new();
    list.write(&mut w);
    assert_eq!(w.into_bytes(), &bytes[..6], "written back as read");
    // Equal by elements: the same values from other bytes (a long-form header).
    let long = [0xf8, 2, 2, b'a', b'b', 1, b'c'];
    assert_eq!(ThriftList::<&str>::read(&mut reader(&long)).unwrap(), list);
}

#[test]
fn thrift_list_checks_every_element_when_read() {
    // The second string is not UTF-8: an error at read time, naming the element.
    let e = err_text(ThriftList::<&str>::read(&mut reader(&[
        0x28, 1, b'a', 1, 0xff,
    ])));
    assert!(e.contains("element 1") && e.contains("UTF-8"), "{e}");
    // Elements of another type.
    let e = err_text(ThriftList::<&str>::read(&mut reader(&[0x15, 2])));
    assert!(e.contains("holds i32, expected binary"), "{e}");
    // An i32 element that overflows.
    let e = err_text(ThriftList::<i32>::read(&mut reader(&[
        0x15, 0xff, 0xff, 0xff, 0xff, 0x7f,
    ])));
    assert!(e.contains("too large"), "{e}");
    // from_encoded: bytes left over are an error.
    let e = err_text(ThriftList::<i32>::from_encoded(&[2, 4, 6], 2));
    assert!(e.contains("1 bytes after"), "{e}");
    let ok = ThriftList::<i32>::from_encoded(&[2, 4, 5], 3).unwrap();
    assert_eq!(ok.to_vec(), [1, 2, -3]);
    assert_eq!(ThriftList::<i32>::encode(&[1, 2, -3]), [2, 4, 5]);
}
