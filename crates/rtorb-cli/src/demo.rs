//! `rtorb demo`: round-trips real GIOP messages and object references and
//! prints what it did.
//!
//! Every Cubit request and reply (`idl/cubit.idl`) is encoded in
//! GIOP 1.0, 1.1, 1.2 and GIOPlite, in both byte orders, decoded again,
//! its arguments read back and compared, and re-encoded to the same
//! octets. A 1 MiB request is fragmented and reassembled, a stream of all
//! the messages is cut into odd-sized pieces and framed again, and a
//! `corbaloc:` address becomes a stringified IOR and back.

use std::fmt::Write as _;

use bytes::Bytes;
use rtorb_cdr::{ByteOrder, CdrDecode, CdrEncode, Decoder, Encoder, Encoding, Version};
use rtorb_giop::lite::{decode_lite, encode_lite, lite_reply, lite_request};
use rtorb_giop::message::{Content, Message, MessageWriter, decode_message, encode_message};
use rtorb_giop::{
    CompletionStatus, Corbaloc, FrameDecoder, FrameProtocol, ObjectReference, Reassembler,
    ReassemblyLimits, ReplyHeader, ReplyStatus, RequestHeader, SystemException,
    SystemExceptionKind, fragment_message,
};

/// `Cubit::Many`.
#[derive(Debug, Clone, PartialEq)]
struct Many {
    o: u8,
    l: i32,
    s: i16,
}

/// The argument (or result) of one Cubit operation.
#[derive(Debug, Clone, PartialEq)]
enum Arg {
    Void,
    Octet(u8),
    Short(i16),
    Long(i32),
    Struct(Many),
    LongSeq(Vec<i32>),
    OctetSeq(Bytes),
}

impl Arg {
    fn encode(&self, e: &mut Encoder) -> rtorb_cdr::Result<()> {
        match self {
            Arg::Void => Ok(()),
            Arg::Octet(v) => v.encode(e),
            Arg::Short(v) => v.encode(e),
            Arg::Long(v) => v.encode(e),
            Arg::Struct(m) => {
                m.o.encode(e)?;
                m.l.encode(e)?;
                m.s.encode(e)
            }
            Arg::LongSeq(v) => v.encode(e),
            Arg::OctetSeq(v) => v.encode(e),
        }
    }

    /// Reads a value shaped like `self`.
    fn decode_like(&self, d: &mut Decoder) -> rtorb_cdr::Result<Arg> {
        Ok(match self {
            Arg::Void => Arg::Void,
            Arg::Octet(_) => Arg::Octet(u8::decode(d)?),
            Arg::Short(_) => Arg::Short(i16::decode(d)?),
            Arg::Long(_) => Arg::Long(i32::decode(d)?),
            Arg::Struct(_) => Arg::Struct(Many {
                o: u8::decode(d)?,
                l: i32::decode(d)?,
                s: i16::decode(d)?,
            }),
            Arg::LongSeq(_) => Arg::LongSeq(Vec::decode(d)?),
            Arg::OctetSeq(_) => Arg::OctetSeq(Bytes::decode(d)?),
        })
    }

    /// What the Cubit server answers: the cube, wrapping as the type wraps.
    fn cubed(&self) -> Arg {
        match self {
            Arg::Void => Arg::Void,
            Arg::Octet(v) => Arg::Octet(v.wrapping_mul(*v).wrapping_mul(*v)),
            Arg::Short(v) => Arg::Short(v.wrapping_mul(*v).wrapping_mul(*v)),
            Arg::Long(v) => Arg::Long(v.wrapping_mul(*v).wrapping_mul(*v)),
            Arg::Struct(m) => Arg::Struct(Many {
                o: m.o.wrapping_mul(m.o).wrapping_mul(m.o),
                l: m.l.wrapping_mul(m.l).wrapping_mul(m.l),
                s: m.s.wrapping_mul(m.s).wrapping_mul(m.s),
            }),
            Arg::LongSeq(v) => Arg::LongSeq(
                v.iter()
                    .map(|x| x.wrapping_mul(*x).wrapping_mul(*x))
                    .collect(),
            ),
            Arg::OctetSeq(v) => Arg::OctetSeq(
                v.iter()
                    .map(|x| x.wrapping_mul(*x).wrapping_mul(*x))
                    .collect::<Vec<u8>>()
                    .into(),
            ),
        }
    }
}

fn cubit_calls() -> Vec<(&'static str, &'static str, Arg)> {
    vec![
        ("void", "cube_void", Arg::Void),
        ("octet", "cube_octet", Arg::Octet(3)),
        ("short", "cube_short", Arg::Short(-7)),
        ("long", "cube_long", Arg::Long(1234)),
        (
            "struct",
            "cube_struct",
            Arg::Struct(Many { o: 2, l: -3, s: 5 }),
        ),
        ("long_seq_1", "cube_long_sequence", Arg::LongSeq(vec![9])),
        (
            "long_seq_1024",
            "cube_long_sequence",
            Arg::LongSeq((0..1024).collect()),
        ),
        (
            "octet_seq_1",
            "cube_octet_sequence",
            Arg::OctetSeq(Bytes::from_static(&[4])),
        ),
        (
            "octet_seq_1024",
            "cube_octet_sequence",
            Arg::OctetSeq((0..1024).map(|i| i as u8).collect::<Vec<u8>>().into()),
        ),
    ]
}

/// An ORB messaging protocol the demo exercises.
#[derive(Debug, Clone, Copy)]
enum Protocol {
    Giop(Version),
    Lite,
}

impl Protocol {
    const ALL: [Protocol; 4] = [
        Protocol::Giop(Version::V1_0),
        Protocol::Giop(Version::V1_1),
        Protocol::Giop(Version::V1_2),
        Protocol::Lite,
    ];

    fn name(self) -> String {
        match self {
            Protocol::Giop(v) => format!("GIOP {v}"),
            Protocol::Lite => "GIOPlite".into(),
        }
    }

    fn request(self, enc: Encoding, h: &RequestHeader) -> Result<MessageWriter, String> {
        match self {
            Protocol::Giop(v) => MessageWriter::request(enc.with_version(v), h),
            Protocol::Lite => lite_request(enc, h),
        }
        .map_err(|e| e.to_string())
    }

    fn reply(self, enc: Encoding, h: &ReplyHeader) -> Result<MessageWriter, String> {
        match self {
            Protocol::Giop(v) => MessageWriter::reply(enc.with_version(v), h),
            Protocol::Lite => lite_reply(enc, h),
        }
        .map_err(|e| e.to_string())
    }

    fn decode(self, bytes: Bytes) -> Result<Message, String> {
        match self {
            Protocol::Giop(_) => decode_message(bytes),
            Protocol::Lite => decode_lite(bytes),
        }
        .map_err(|e| e.to_string())
    }

    fn encode(self, m: &Message) -> Result<Bytes, String> {
        match self {
            Protocol::Giop(_) => encode_message(m),
            Protocol::Lite => encode_lite(m),
        }
        .map_err(|e| e.to_string())
    }
}

/// Decodes `bytes`, reads its body like `expect`, checks it, and checks that
/// re-encoding the message gives the same octets.
fn check_round_trip(p: Protocol, bytes: &Bytes, expect: &Arg) -> Result<(), String> {
    let msg = p.decode(bytes.clone())?;
    let mut d = msg
        .body_decoder(bytes, Default::default())
        .ok_or("message has no body")?;
    let got = expect.decode_like(&mut d).map_err(|e| e.to_string())?;
    if &got != expect {
        return Err(format!("{} decoded {got:?}, expected {expect:?}", p.name()));
    }
    if !d.is_empty() {
        return Err(format!("{} left {} octets unread", p.name(), d.remaining()));
    }
    let again = p.encode(&msg)?;
    if again != bytes {
        return Err(format!("{} re-encoded differently", p.name()));
    }
    Ok(())
}

/// Runs the demo.
pub(crate) fn run() -> Result<String, String> {
    let mut out = String::new();
    // Every GIOP message sent, in order, for the framing step.
    let mut stream: Vec<Bytes> = Vec::new();
    sizes(&mut out, &mut stream)?;
    let enc = Encoding::native()
        .with_order(ByteOrder::Big)
        .with_version(Version::V1_2);
    dump_request(&mut out, enc)?;
    exception_reply(&mut out, enc)?;
    fragments(&mut out, enc, &mut stream)?;
    framing(&mut out, &stream)?;
    references(&mut out)?;
    Ok(out)
}

/// Every Cubit call as a request and a reply in every protocol and both
/// byte orders, each checked and added to `stream`: their sizes.
fn sizes(out: &mut String, stream: &mut Vec<Bytes>) -> Result<(), String> {
    let key = Bytes::from_static(b"Cubit");
    let mut checked = 0usize;
    let _ = writeln!(out, "Cubit requests and replies, octets on the wire");
    let _ = writeln!(
        out,
        "{:<16} {:>21} {:>21} {:>21} {:>21}",
        "operation", "GIOP 1.0 req/rep", "GIOP 1.1 req/rep", "GIOP 1.2 req/rep", "GIOPlite req/rep"
    );
    for (label, op, arg) in cubit_calls() {
        let mut row = format!("{label:<16}");
        for p in Protocol::ALL {
            let mut sizes = (0, 0);
            for order in [ByteOrder::Big, ByteOrder::Little] {
                let enc = Encoding::native().with_order(order);
                let header = RequestHeader::new(checked as u32, key.clone(), op);
                let mut w = p.request(enc, &header)?;
                arg.encode(w.body()).map_err(|e| e.to_string())?;
                let req = w.finish().map_err(|e| e.to_string())?;
                check_round_trip(p, &req, &arg)?;

                let reply_header = ReplyHeader::new(checked as u32, ReplyStatus::NoException);
                let mut w = p.reply(enc, &reply_header)?;
                let result = arg.cubed();
                result.encode(w.body()).map_err(|e| e.to_string())?;
                let rep = w.finish().map_err(|e| e.to_string())?;
                check_round_trip(p, &rep, &result)?;

                sizes = (req.len(), rep.len());
                if matches!(p, Protocol::Giop(_)) {
                    stream.push(req);
                    stream.push(rep);
                }
                checked += 2;
            }
            let _ = write!(row, " {:>21}", format!("{} / {}", sizes.0, sizes.1));
        }
        let _ = writeln!(out, "{row}");
    }
    let _ = writeln!(
        out,
        "{checked} messages encoded, decoded, checked and re-encoded byte for byte \
         (both byte orders)\n"
    );
    Ok(())
}

/// One request in `enc`, dumped in hex and text.
fn dump_request(out: &mut String, enc: Encoding) -> Result<(), String> {
    let key = Bytes::from_static(b"Cubit");
    let mut w = MessageWriter::request(enc, &RequestHeader::new(1, key, "cube_long"))
        .map_err(|e| e.to_string())?;
    w.body().write_i32(1234);
    let req = w.finish().map_err(|e| e.to_string())?;
    let _ = writeln!(out, "GIOP 1.2 big-endian request cube_long(1234):");
    for chunk in req.chunks(16) {
        let hex: Vec<String> = chunk.iter().map(|b| format!("{b:02x}")).collect();
        let text: String = chunk
            .iter()
            .map(|b| {
                if b.is_ascii_graphic() {
                    *b as char
                } else {
                    '.'
                }
            })
            .collect();
        let _ = writeln!(out, "  {:<48} {text}", hex.join(" "));
    }
    out.push('\n');
    Ok(())
}

/// A system exception reply in `enc`, decoded again.
fn exception_reply(out: &mut String, enc: Encoding) -> Result<(), String> {
    let ex = SystemException::new(
        SystemExceptionKind::Marshal,
        0x4f4d_0004,
        CompletionStatus::No,
    );
    let mut w = MessageWriter::reply(enc, &ReplyHeader::new(2, ReplyStatus::SystemException))
        .map_err(|e| e.to_string())?;
    ex.encode(w.body()).map_err(|e| e.to_string())?;
    let rep = w.finish().map_err(|e| e.to_string())?;
    let msg = decode_message(rep.clone()).map_err(|e| e.to_string())?;
    let Content::Reply(reply) = &msg.content else {
        return Err("expected a reply".into());
    };
    let back = reply
        .system_exception(msg.order)
        .map_err(|e| e.to_string())?;
    if back != ex {
        return Err(format!("system exception came back as {back:?}"));
    }
    let _ = writeln!(
        out,
        "System exception reply: {} minor {:#010x} completed {} ({} octets)\n",
        back.repository_id(),
        back.minor,
        back.completed.name(),
        rep.len()
    );
    Ok(())
}

/// A 1 MiB request in `enc` fragmented and reassembled; the fragments
/// added to `stream`.
fn fragments(out: &mut String, enc: Encoding, stream: &mut Vec<Bytes>) -> Result<(), String> {
    let key = Bytes::from_static(b"Cubit");
    let big = Arg::OctetSeq(
        (0..1 << 20)
            .map(|i| (i % 251) as u8)
            .collect::<Vec<u8>>()
            .into(),
    );
    let mut w = MessageWriter::request(enc, &RequestHeader::new(3, key, "cube_octet_sequence"))
        .map_err(|e| e.to_string())?;
    big.encode(w.body()).map_err(|e| e.to_string())?;
    let whole = w.finish().map_err(|e| e.to_string())?;
    let pieces = fragment_message(&whole, 16 * 1024).map_err(|e| e.to_string())?;
    let mut reassembler = Reassembler::new(ReassemblyLimits::default());
    let mut rebuilt = None;
    for piece in &pieces {
        stream.push(piece.clone());
        if let Some(m) = reassembler.push(piece.clone()).map_err(|e| e.to_string())? {
            rebuilt = Some(m);
        }
    }
    let rebuilt = rebuilt.ok_or("reassembly did not complete")?;
    check_round_trip(Protocol::Giop(Version::V1_2), &rebuilt, &big)?;
    let _ = writeln!(
        out,
        "A {} octet request cut into {} GIOP 1.2 fragments of at most 16 KiB and \
         reassembled: arguments intact\n",
        whole.len(),
        pieces.len()
    );
    Ok(())
}

/// The whole `stream`, cut into 7-octet pieces, framed again.
fn framing(out: &mut String, stream: &[Bytes]) -> Result<(), String> {
    let mut framer = FrameDecoder::new(FrameProtocol::Giop);
    let wire: Vec<u8> = stream.iter().flat_map(|m| m.iter().copied()).collect();
    let mut frames = 0usize;
    for piece in wire.chunks(7) {
        framer.push(piece).map_err(|e| e.to_string())?;
        while let Some(frame) = framer.next_frame().map_err(|e| e.to_string())? {
            if stream.get(frames) != Some(&frame) {
                return Err(format!("frame {frames} differs from what was sent"));
            }
            frames += 1;
        }
    }
    if frames != stream.len() {
        return Err(format!("framed {frames} of {} messages", stream.len()));
    }
    let _ = writeln!(
        out,
        "A stream of {frames} messages ({} octets) fed in 7-octet pieces: {frames} \
         frames recovered, each identical\n",
        wire.len()
    );
    Ok(())
}

/// A `corbaloc` URL made into an IOR and read back.
fn references(out: &mut String) -> Result<(), String> {
    let url = "corbaloc:iiop:1.2@127.0.0.1:2809,iiop:1.1@[::1]:2810/Cubit";
    let loc = Corbaloc::parse(url).map_err(|e| e.to_string())?;
    let reference = loc.to_ior("IDL:Cubit:1.0").map_err(|e| e.to_string())?;
    let ior = reference.to_stringified().map_err(|e| e.to_string())?;
    let back = ObjectReference::from_stringified(&ior).map_err(|e| e.to_string())?;
    if back.type_id != reference.type_id || back.profiles.len() != reference.profiles.len() {
        return Err("the reference did not survive stringification".into());
    }
    let _ = writeln!(out, "{url}\n  -> {ior}");
    for p in back.iiop_profiles() {
        let _ = writeln!(
            out,
            "  -> IIOP {}.{} {}:{} key {:?}",
            p.version.major,
            p.version.minor,
            p.host,
            p.port,
            String::from_utf8_lossy(&p.object_key)
        );
    }
    Ok(())
}
