//! Valuetypes as omniORB 4.2.5 writes them
//! (`interop/fixtures/omniorb-4.2.5/values/`): rtorb reads them with the
//! code generated from `idl/values.idl`, whose `vals::Point` and
//! `vals::Point3` have the repository ids of the fixture's IDL, and writes
//! the shared truncatable value to the same octets.

use std::collections::HashMap;
use std::sync::Arc;

use rtorb::value::downcast_value;
use rtorb_cdr::valuetype::{read_value, write_value};
use rtorb_cdr::{ByteOrder, Bytes, CdrDecode, Decoder, Encoder, Encoding};
use rtorb_idl_tests::values_idl::vals::*;

fn fixtures() -> HashMap<String, Vec<u8>> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../interop/fixtures/omniorb-4.2.5/values/values.txt"
    );
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter_map(|l| l.split_once(' '))
        .map(|(name, hex)| {
            let bytes = (0..hex.len())
                .step_by(2)
                .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
                .collect();
            (name.to_string(), bytes)
        })
        .collect()
}

fn le() -> Encoding {
    Encoding::native().with_order(ByteOrder::Little)
}

fn own() -> Option<(&'static str, rtorb_cdr::valuetype::StateReader)> {
    Some((Point::REPOSITORY_ID, Point::unmarshal))
}

#[test]
fn rtorb_reads_and_writes_omniorb_values() {
    Point3::register_factory();
    let f = fixtures();
    // A Point sent without a repository id: the declared type is used.
    let mut d = Decoder::new(Bytes::from(f["point"].clone()), le());
    assert_eq!(Point::decode(&mut d).unwrap(), Point { x: 3, y: -4 });
    assert!(d.is_empty());
    // One Point3 in two members: chunked, then an indirection.
    let mut d = Decoder::new(Bytes::from(f["holder"].clone()), le());
    let a = read_value::<dyn PointValue>(&mut d, own())
        .unwrap()
        .unwrap();
    let b = read_value::<dyn PointValue>(&mut d, own())
        .unwrap()
        .unwrap();
    assert!(d.is_empty());
    assert!(Arc::ptr_eq(&a, &b));
    let p3 = downcast_value::<Point3, _>(&*a).expect("a Point3");
    assert_eq!((p3.x, p3.y, p3.z), (1, 2, 3));
    // rtorb writes the same octets.
    let mut e = Encoder::new(le());
    write_value(&mut e, Some(&a)).unwrap();
    write_value(&mut e, Some(&b)).unwrap();
    assert_eq!(e.into_bytes().to_vec(), f["holder"]);
    // A null value, then a Point.
    let mut d = Decoder::new(Bytes::from(f["nullfirst"].clone()), le());
    assert!(
        read_value::<dyn PointValue>(&mut d, own())
            .unwrap()
            .is_none()
    );
    let p = read_value::<dyn PointValue>(&mut d, own())
        .unwrap()
        .unwrap();
    assert_eq!(downcast_value::<Point, _>(&*p), Some(&Point { x: 5, y: 6 }));
}
