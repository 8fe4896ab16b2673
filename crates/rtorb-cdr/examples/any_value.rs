//! TypeCodes and Anys: describe `Cubit::Many` at run time, carry a value
//! of it in an Any through CDR, and read it back lazily.
//!
//! Run with `cargo run -p rtorb-cdr --example any_value`.

use rtorb_cdr::{
    Any, ByteOrder, CdrDecode, CdrEncode, Decoder, Encoder, Encoding, TypeCode, Value,
};

fn main() -> Result<(), rtorb_cdr::CdrError> {
    // struct Many { octet o; long l; short s; };
    let many = TypeCode::struct_tc(
        "IDL:Cubit/Many:1.0",
        "Many",
        [
            ("o", TypeCode::octet()),
            ("l", TypeCode::long()),
            ("s", TypeCode::short()),
        ],
    );
    let value = Value::Struct(vec![Value::Octet(2), Value::Long(-3), Value::Short(5)]);
    let any = Any::from_value(many.clone(), value.clone());

    // Write the Any (its TypeCode, then the value) in big-endian order.
    let enc = Encoding::native().with_order(ByteOrder::Big);
    let mut e = Encoder::new(enc);
    any.encode(&mut e)?;
    let bytes = e.into_bytes();
    println!(
        "Any of {} encoded in {} octets",
        many.name().unwrap_or("?"),
        bytes.len()
    );

    // Reading it back keeps the value encoded until it is asked for.
    let mut d = Decoder::new(bytes, enc);
    let back = Any::decode(&mut d)?;
    println!("decoded lazily: still encoded = {}", back.is_encoded());
    println!("TypeCode equal: {}", back.type_code().equal(&many));
    let v = back.value()?;
    println!("value: {v:?}");
    assert_eq!(v, value);
    Ok(())
}
