//! Prints the size in octets of every Cubit request and reply in GIOP 1.2
//! and in GIOPlite, side by side.
//!
//! ```text
//! cargo run -p rtorb-giop --example giop_sizes
//! ```

use bytes::Bytes;
use rtorb_cdr::{ByteOrder, Encoder, Encoding, Version};
use rtorb_giop::lite::{lite_reply, lite_request};
use rtorb_giop::message::{MessageWriter, RESPONSE_NONE, ReplyHeader, ReplyStatus, RequestHeader};

/// The Cubit operations, with a function writing their argument (and, the
/// results being of the same type, their result).
type WriteArgs = fn(&mut Encoder);

const OPS: &[(&str, WriteArgs)] = &[
    ("cube_void", |_| {}),
    ("cube_octet", |e| e.write_u8(3)),
    ("cube_short", |e| e.write_i16(3)),
    ("cube_long", |e| e.write_i32(3)),
    ("cube_struct", |e| {
        e.write_u8(3);
        e.write_i32(3);
        e.write_i16(3);
    }),
    ("cube_long_sequence", |e| {
        e.write_prim_seq(&[3i32; 1024]).unwrap();
    }),
    ("cube_octet_sequence", |e| {
        e.write_octet_seq(&[3u8; 1024]).unwrap();
    }),
    ("shutdown", |_| {}),
];

fn sizes(op: &'static str, write: WriteArgs) -> [usize; 4] {
    let enc = Encoding::native()
        .with_order(ByteOrder::Little)
        .with_version(Version::V1_2);
    let mut req = RequestHeader::new(1, Bytes::from_static(b"Cubit"), op);
    let oneway = op == "shutdown";
    if oneway {
        req.response_flags = RESPONSE_NONE;
    }
    let rep = ReplyHeader::new(1, ReplyStatus::NoException);

    let mut w = MessageWriter::request(enc, &req).unwrap();
    write(w.body());
    let giop_req = w.finish().unwrap().len();
    let mut w = lite_request(enc, &req).unwrap();
    write(w.body());
    let lite_req = w.finish().unwrap().len();

    if oneway {
        return [giop_req, lite_req, 0, 0];
    }
    let mut w = MessageWriter::reply(enc, &rep).unwrap();
    write(w.body());
    let giop_rep = w.finish().unwrap().len();
    let mut w = lite_reply(enc, &rep).unwrap();
    write(w.body());
    let lite_rep = w.finish().unwrap().len();
    [giop_req, lite_req, giop_rep, lite_rep]
}

fn main() {
    println!(
        "{:<20} {:>9} {:>9} {:>7}   {:>9} {:>9} {:>7}",
        "operation", "GIOP 1.2", "GIOPlite", "saved", "GIOP 1.2", "GIOPlite", "saved"
    );
    println!(
        "{:<20} {:^27}   {:^27}",
        "", "request (octets)", "reply (octets)"
    );
    for (op, write) in OPS {
        let [gq, lq, gr, lr] = sizes(op, *write);
        let reply = if gr == 0 {
            format!("{:>9} {:>9} {:>7}", "-", "-", "-")
        } else {
            format!("{gr:>9} {lr:>9} {:>7}", gr - lr)
        };
        println!("{op:<20} {gq:>9} {lq:>9} {:>7}   {reply}", gq - lq);
    }
}
