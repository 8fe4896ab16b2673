//! Property tests: everything encoded decodes to itself, in both byte
//! orders, every GIOP version, and at every starting alignment.

use proptest::prelude::*;
use rtorb_cdr::{
    ByteOrder, Bytes, CdrDecode, CdrEncode, CodeSetId, Decoder, Encoder, Encoding, Fixed,
    LongDouble, TransmissionCodeSets, Version,
};

fn encodings() -> impl Strategy<Value = Encoding> {
    (
        prop_oneof![Just(ByteOrder::Big), Just(ByteOrder::Little)],
        prop_oneof![
            Just(Version::V1_0),
            Just(Version::V1_1),
            Just(Version::V1_2)
        ],
        prop_oneof![Just(CodeSetId::ISO_8859_1), Just(CodeSetId::UTF_8)],
    )
        .prop_map(|(order, version, char_data)| {
            Encoding::native()
                .with_order(order)
                .with_version(version)
                .with_codesets(TransmissionCodeSets {
                    char_data,
                    wchar_data: CodeSetId::UTF_16,
                })
        })
}

/// Encodes `v` after `skew` leading octets and decodes it back.
fn round_trip<T>(v: &T, enc: Encoding, skew: usize) -> T
where
    T: CdrEncode + CdrDecode,
{
    let mut e = Encoder::new(enc);
    for _ in 0..skew {
        e.write_u8(0xee);
    }
    v.encode(&mut e).unwrap();
    let bytes = e.into_bytes();
    let mut d = Decoder::new(bytes, enc);
    d.skip(skew).unwrap();
    let out = T::decode(&mut d).unwrap();
    assert!(d.is_empty(), "decoder left {} bytes", d.remaining());
    out
}

fn text_for(enc: Encoding) -> BoxedStrategy<String> {
    if enc.codesets.char_data == CodeSetId::UTF_8 {
        "[^\u{0}]{0,40}".boxed()
    } else {
        "[\u{1}-\u{ff}]{0,40}".boxed()
    }
}

#[derive(Debug, Clone, PartialEq)]
struct Record {
    flag: bool,
    octet: u8,
    short: i16,
    ushort: u16,
    long: i32,
    ulong: u32,
    llong: i64,
    ullong: u64,
    float: f32,
    double: f64,
    ld: LongDouble,
    name: String,
    longs: Vec<i32>,
    doubles: Vec<f64>,
    blob: Bytes,
    nested: Vec<Vec<u16>>,
    array: [i16; 3],
}

impl CdrEncode for Record {
    fn encode(&self, e: &mut Encoder) -> rtorb_cdr::Result<()> {
        self.flag.encode(e)?;
        self.octet.encode(e)?;
        self.short.encode(e)?;
        self.ushort.encode(e)?;
        self.long.encode(e)?;
        self.ulong.encode(e)?;
        self.llong.encode(e)?;
        self.ullong.encode(e)?;
        self.float.encode(e)?;
        self.double.encode(e)?;
        self.ld.encode(e)?;
        self.name.encode(e)?;
        self.longs.encode(e)?;
        self.doubles.encode(e)?;
        self.blob.encode(e)?;
        self.nested.encode(e)?;
        self.array.encode(e)
    }
}

impl CdrDecode for Record {
    fn decode(d: &mut Decoder) -> rtorb_cdr::Result<Self> {
        Ok(Record {
            flag: CdrDecode::decode(d)?,
            octet: CdrDecode::decode(d)?,
            short: CdrDecode::decode(d)?,
            ushort: CdrDecode::decode(d)?,
            long: CdrDecode::decode(d)?,
            ulong: CdrDecode::decode(d)?,
            llong: CdrDecode::decode(d)?,
            ullong: CdrDecode::decode(d)?,
            float: CdrDecode::decode(d)?,
            double: CdrDecode::decode(d)?,
            ld: CdrDecode::decode(d)?,
            name: CdrDecode::decode(d)?,
            longs: CdrDecode::decode(d)?,
            doubles: CdrDecode::decode(d)?,
            blob: CdrDecode::decode(d)?,
            nested: CdrDecode::decode(d)?,
            array: CdrDecode::decode(d)?,
        })
    }
}

fn record(enc: Encoding) -> impl Strategy<Value = Record> {
    (
        (
            any::<bool>(),
            any::<u8>(),
            any::<i16>(),
            any::<u16>(),
            any::<i32>(),
            any::<u32>(),
            any::<i64>(),
            any::<u64>(),
        ),
        (
            any::<u32>().prop_map(f32::from_bits),
            any::<u64>().prop_map(f64::from_bits),
            any::<[u8; 16]>().prop_map(LongDouble),
            text_for(enc),
            proptest::collection::vec(any::<i32>(), 0..50),
            proptest::collection::vec(any::<u64>().prop_map(f64::from_bits), 0..20),
            proptest::collection::vec(any::<u8>(), 0..100).prop_map(Bytes::from),
            proptest::collection::vec(proptest::collection::vec(any::<u16>(), 0..5), 0..5),
            any::<[i16; 3]>(),
        ),
    )
        .prop_map(
            |(
                (flag, octet, short, ushort, long, ulong, llong, ullong),
                (float, double, ld, name, longs, doubles, blob, nested, array),
            )| Record {
                flag,
                octet,
                short,
                ushort,
                long,
                ulong,
                llong,
                ullong,
                float,
                double,
                ld,
                name,
                longs,
                doubles,
                blob,
                nested,
                array,
            },
        )
}

/// Floats compared by bits so that NaN payloads must survive too.
fn same(a: &Record, b: &Record) -> bool {
    a.float.to_bits() == b.float.to_bits()
        && a.double.to_bits() == b.double.to_bits()
        && a.doubles
            .iter()
            .map(|f| f.to_bits())
            .eq(b.doubles.iter().map(|f| f.to_bits()))
        && Record {
            float: 0.0,
            double: 0.0,
            doubles: vec![],
            ..a.clone()
        } == Record {
            float: 0.0,
            double: 0.0,
            doubles: vec![],
            ..b.clone()
        }
}

proptest! {
    #[test]
    fn records_round_trip((enc, r) in encodings().prop_flat_map(|e| (Just(e), record(e))), skew in 0usize..8) {
        let back = round_trip(&r, enc, skew);
        prop_assert!(same(&r, &back), "{:?} != {:?}", r, back);
    }

    #[test]
    fn wide_text_round_trips(
        s in "[^\u{0}]{0,30}",
        order in prop_oneof![Just(ByteOrder::Big), Just(ByteOrder::Little)],
        version in prop_oneof![Just(Version::V1_1), Just(Version::V1_2)],
        skew in 0usize..8,
    ) {
        let enc = Encoding::native().with_order(order).with_version(version);
        let mut e = Encoder::new(enc);
        for _ in 0..skew { e.write_u8(1); }
        e.write_wstring(&s).unwrap();
        let c = s.chars().find(|c| version == Version::V1_2 || (*c as u32) < 0x10000);
        if let Some(c) = c { e.write_wchar(c).unwrap(); }
        let mut d = Decoder::new(e.into_bytes(), enc);
        d.skip(skew).unwrap();
        prop_assert_eq!(d.read_wstring().unwrap(), s.clone());
        if let Some(c) = c { prop_assert_eq!(d.read_wchar().unwrap(), c); }
        prop_assert!(d.is_empty());
    }

    #[test]
    fn fixed_round_trips(neg in any::<bool>(), digits in proptest::collection::vec(0u8..10, 0..31), scale_pick in any::<u8>()) {
        let scale = if digits.is_empty() { 0 } else { (scale_pick as usize % (digits.len() + 1)) as i16 };
        let f = Fixed::new(neg, &digits, scale).unwrap();
        let bcd = f.to_bcd();
        prop_assert_eq!(bcd.len(), Fixed::wire_len(f.digits()));
        let mut e = Encoder::new(Encoding::native());
        e.write_fixed(&f);
        let mut d = Decoder::new(e.into_bytes(), Encoding::native());
        prop_assert_eq!(d.read_fixed(f.digits(), f.scale()).unwrap(), f);
    }

    #[test]
    fn long_double_f64_conversion_is_exact(bits in any::<u64>()) {
        let v = f64::from_bits(bits);
        let back = LongDouble::from_f64(v).to_f64();
        if v.is_nan() { prop_assert!(back.is_nan()); } else { prop_assert_eq!(back.to_bits(), v.to_bits()); }
    }
}
