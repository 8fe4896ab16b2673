//! Encoding and decoding the Cubit requests and replies as whole messages,
//! in GIOP 1.0, 1.1 and 1.2 and in GIOPlite, and the heap allocations
//! each encode and decode makes.
//!
//! ```text
//! cargo bench -p rtorb-giop --bench cubit_codec
//! ```
//!
//! Before the timings, the binary prints a table of message sizes and of
//! allocations per call (averaged over [`ALLOC_ITERATIONS`] calls, counted
//! by a global allocator that wraps the system one).
//!
//! - encode: build the request (or reply) header, start a
//!   [`MessageWriter`] in a reused buffer, write the arguments (results)
//!   with [`CdrEncode`], and finish the message to bytes.
//! - decode: [`decode_message`] (or [`decode_lite`]) and decode the
//!   arguments (results) from [`Message::body_decoder`].
//!
//! The 1024-octet `cube_octet_sequence` is also encoded with the octet
//! sequence referenced rather than copied, finished with
//! [`MessageWriter::finish_chunks`] (the `chunks` rows).
use std::hint::black_box;
use std::time::Duration;

use bytes::{Bytes, BytesMut};
use criterion::{BenchmarkId, Criterion};
use rtorb_cdr::{
    CdrDecode, CdrEncode, CdrError, DEFAULT_ZERO_COPY_THRESHOLD, Decoder, Encoder, Encoding,
    TransmissionCodeSets, Version,
};
use rtorb_giop::framing::{FrameDecoder, FrameProtocol};
use rtorb_giop::lite::{
    lite_reply, lite_reply_with_buffer, lite_request, lite_request_with_buffer,
};
use rtorb_giop::message::{
    Message, MessageWriter, ReplyHeader, ReplyStatus, RequestHeader, decode_message,
};
use rtorb_giop::{GiopError, decode_lite};
use rtorb_test_support::alloc::{CountingAllocator, start_counting, stop_counting};

// ---------------------------------------------------------------------------
// Allocation counting

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

/// Calls averaged when counting allocations.
const ALLOC_ITERATIONS: u64 = 1000;

/// Average allocator calls per call of `f`.
#[derive(Debug, Clone, Copy)]
struct AllocCount {
    allocs: f64,
    reallocs: f64,
    bytes: f64,
}

impl std::fmt::Display for AllocCount {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", trim(self.allocs))?;
        if self.reallocs > 0.0 {
            write!(f, " +{}r", trim(self.reallocs))?;
        }
        write!(f, " ({} B)", trim(self.bytes))
    }
}

fn trim(v: f64) -> String {
    if (v - v.round()).abs() < 0.005 {
        format!("{}", v.round() as i64)
    } else {
        format!("{v:.2}")
    }
}

fn count_allocs<R>(mut f: impl FnMut() -> R) -> AllocCount {
    // One call first, so that one-time work (promoting a shared buffer)
    // is not averaged in.
    black_box(f());
    start_counting();
    for _ in 0..ALLOC_ITERATIONS {
        black_box(f());
    }
    let counts = stop_counting();
    let n = ALLOC_ITERATIONS as f64;
    AllocCount {
        allocs: counts.allocs as f64 / n,
        reallocs: counts.reallocs as f64 / n,
        bytes: counts.bytes as f64 / n,
    }
}

// ---------------------------------------------------------------------------
// The Cubit operations

/// `Cubit::Many`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Many {
    o: u8,
    l: i32,
    s: i16,
}

impl CdrEncode for Many {
    fn encode(&self, e: &mut Encoder) -> Result<(), CdrError> {
        self.o.encode(e)?;
        self.l.encode(e)?;
        self.s.encode(e)
    }
}

impl CdrDecode for Many {
    const MIN_WIRE_SIZE: usize = 7;
    fn decode(d: &mut Decoder) -> Result<Self, CdrError> {
        Ok(Many {
            o: u8::decode(d)?,
            l: i32::decode(d)?,
            s: i16::decode(d)?,
        })
    }
}

/// The argument of an operation, which is also the type of its result.
#[derive(Debug, Clone, PartialEq)]
enum Value {
    Void,
    Octet(u8),
    Short(i16),
    Long(i32),
    Struct(Many),
    LongSeq(Vec<i32>),
    OctetSeq(Bytes),
}

impl Value {
    fn encode(&self, e: &mut Encoder) -> Result<(), CdrError> {
        match self {
            Value::Void => Ok(()),
            Value::Octet(v) => v.encode(e),
            Value::Short(v) => v.encode(e),
            Value::Long(v) => v.encode(e),
            Value::Struct(v) => v.encode(e),
            Value::LongSeq(v) => v.encode(e),
            Value::OctetSeq(v) => v.encode(e),
        }
    }

    /// Reads a value of the same type as `self`.
    fn decode_like(&self, d: &mut Decoder) -> Result<Value, CdrError> {
        Ok(match self {
            Value::Void => Value::Void,
            Value::Octet(_) => Value::Octet(u8::decode(d)?),
            Value::Short(_) => Value::Short(i16::decode(d)?),
            Value::Long(_) => Value::Long(i32::decode(d)?),
            Value::Struct(_) => Value::Struct(Many::decode(d)?),
            Value::LongSeq(_) => Value::LongSeq(Vec::<i32>::decode(d)?),
            Value::OctetSeq(_) => Value::OctetSeq(Bytes::decode(d)?),
        })
    }
}

/// One benchmarked call: an operation and its argument.
struct Case {
    operation: &'static str,
    label: &'static str,
    value: Value,
}

fn cases() -> Vec<Case> {
    let case = |operation, label, value| Case {
        operation,
        label,
        value,
    };
    let many = Many { o: 3, l: 3, s: 3 };
    vec![
        case("cube_void", "cube_void", Value::Void),
        case("cube_octet", "cube_octet", Value::Octet(3)),
        case("cube_short", "cube_short", Value::Short(3)),
        case("cube_long", "cube_long", Value::Long(3)),
        case("cube_struct", "cube_struct", Value::Struct(many)),
        case(
            "cube_long_sequence",
            "cube_long_sequence_1",
            Value::LongSeq(vec![3]),
        ),
        case(
            "cube_long_sequence",
            "cube_long_sequence_1024",
            Value::LongSeq(vec![3; 1024]),
        ),
        case(
            "cube_octet_sequence",
            "cube_octet_sequence_1",
            Value::OctetSeq(Bytes::from(vec![3u8])),
        ),
        case(
            "cube_octet_sequence",
            "cube_octet_sequence_1024",
            Value::OctetSeq(Bytes::from(vec![3u8; 1024])),
        ),
    ]
}

// ---------------------------------------------------------------------------
// Protocols and the codec under test

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Protocol {
    Giop(Version),
    Lite,
}

const PROTOCOLS: [Protocol; 4] = [
    Protocol::Giop(Version::V1_0),
    Protocol::Giop(Version::V1_1),
    Protocol::Giop(Version::V1_2),
    Protocol::Lite,
];

impl Protocol {
    fn label(self) -> &'static str {
        match self {
            Protocol::Giop(Version::V1_0) => "giop1.0",
            Protocol::Giop(Version::V1_1) => "giop1.1",
            Protocol::Giop(_) => "giop1.2",
            Protocol::Lite => "lite",
        }
    }

    fn encoding(self) -> Encoding {
        let version = match self {
            Protocol::Giop(v) => v,
            Protocol::Lite => Version::V1_2,
        };
        Encoding::native().with_version(version)
    }

    fn decode(self, message: Bytes) -> Result<Message, GiopError> {
        match self {
            Protocol::Giop(_) => decode_message(message),
            Protocol::Lite => decode_lite(message),
        }
    }
}

/// Whether the request or the reply of a call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Direction {
    Request,
    Reply,
}

/// How the encoded message is finished.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Finish {
    /// Octet sequences copied; [`MessageWriter::finish`].
    Contiguous,
    /// Large octet sequences referenced; [`MessageWriter::finish_chunks`].
    Chunks,
}

const REQUEST_ID: u32 = 1;

/// An encoded message.
enum Encoded {
    /// From [`MessageWriter::finish`].
    One(Bytes),
    /// From [`MessageWriter::finish_chunks`].
    Chunks(Vec<Bytes>),
}

impl Encoded {
    fn to_vec(&self) -> Vec<u8> {
        match self {
            Encoded::One(b) => b.to_vec(),
            Encoded::Chunks(c) => c.concat(),
        }
    }
}

/// Starts the message (in `buf` if given, else in a buffer the writer
/// allocates), writes the value, and finishes it.
fn encode(
    protocol: Protocol,
    direction: Direction,
    case: &Case,
    buf: Option<BytesMut>,
    finish: Finish,
) -> Encoded {
    let enc = protocol.encoding();
    let mut w = match direction {
        Direction::Request => {
            let header =
                RequestHeader::new(REQUEST_ID, Bytes::from_static(b"Cubit"), case.operation);
            match (protocol, buf) {
                (Protocol::Giop(_), Some(buf)) => {
                    MessageWriter::request_with_buffer(buf, enc, &header)
                }
                (Protocol::Giop(_), None) => MessageWriter::request(enc, &header),
                (Protocol::Lite, Some(buf)) => lite_request_with_buffer(buf, enc, &header),
                (Protocol::Lite, None) => lite_request(enc, &header),
            }
        }
        Direction::Reply => {
            let header = ReplyHeader::new(REQUEST_ID, ReplyStatus::NoException);
            match (protocol, buf) {
                (Protocol::Giop(_), Some(buf)) => {
                    MessageWriter::reply_with_buffer(buf, enc, &header)
                }
                (Protocol::Giop(_), None) => MessageWriter::reply(enc, &header),
                (Protocol::Lite, Some(buf)) => lite_reply_with_buffer(buf, enc, &header),
                (Protocol::Lite, None) => lite_reply(enc, &header),
            }
        }
    }
    .expect("the Cubit headers are representable in every protocol");
    if case.value != Value::Void {
        let body = w.body();
        if finish == Finish::Chunks {
            body.set_zero_copy_threshold(DEFAULT_ZERO_COPY_THRESHOLD);
        }
        case.value.encode(body).expect("the Cubit values encode");
    }
    match finish {
        Finish::Contiguous => Encoded::One(w.finish().expect("the message fits")),
        Finish::Chunks => Encoded::Chunks(w.finish_chunks().expect("the message fits")),
    }
}

/// A sender's buffer, reused for every message once the previous one has
/// been dropped.
struct Pool(BytesMut);

impl Pool {
    fn new() -> Pool {
        Pool(BytesMut::with_capacity(16 * 1024))
    }

    fn take(&mut self) -> BytesMut {
        // Reclaims the whole allocation when no message refers to it.
        self.0.reserve(8 * 1024);
        self.0.split_off(0)
    }
}

/// Encodes into the reused buffer of `pool`.
fn encode_one(
    protocol: Protocol,
    direction: Direction,
    case: &Case,
    pool: &mut Pool,
    finish: Finish,
) -> Encoded {
    encode(protocol, direction, case, Some(pool.take()), finish)
}

/// Decodes the message and the value in its body.
fn decode(protocol: Protocol, message: &Bytes, case: &Case) -> Value {
    let m = protocol
        .decode(message.clone())
        .expect("the message decodes");
    let mut d = m
        .body_decoder(message, TransmissionCodeSets::DEFAULT)
        .expect("requests and replies have bodies");
    case.value.decode_like(&mut d).expect("the value decodes")
}

/// The encoded message, as a receiver's framing would hand it out.
fn wire_message(protocol: Protocol, direction: Direction, case: &Case) -> Bytes {
    let message = encode(protocol, direction, case, None, Finish::Contiguous);
    let mut framing = FrameDecoder::new(match protocol {
        Protocol::Giop(_) => FrameProtocol::Giop,
        Protocol::Lite => FrameProtocol::Lite,
    });
    framing
        .push(&message.to_vec())
        .expect("the header is valid");
    framing
        .next_frame()
        .expect("the header is valid")
        .expect("the message is whole")
}

// ---------------------------------------------------------------------------
// Allocation and size report

fn report() {
    let cases = cases();
    println!(
        "Cubit messages: size in octets, and allocations per call over {ALLOC_ITERATIONS} calls \
         (alloc calls, +r reallocs, (bytes allocated)); encode reuses a buffer, \"new buf\" \
         uses the writer's own buffer; native byte order"
    );
    println!();
    println!(
        "| operation | protocol | request octets | request encode | request encode, new buf \
         | request decode | reply octets | reply encode | reply decode |"
    );
    println!("|---|---|---:|---:|---:|---:|---:|---:|---:|");
    for case in &cases {
        for protocol in PROTOCOLS {
            let mut row = format!("| {} | {} |", case.label, protocol.label());
            for direction in [Direction::Request, Direction::Reply] {
                let msg = wire_message(protocol, direction, case);
                let mut pool = Pool::new();
                let enc = count_allocs(|| {
                    encode_one(protocol, direction, case, &mut pool, Finish::Contiguous)
                });
                let fresh =
                    count_allocs(|| encode(protocol, direction, case, None, Finish::Contiguous));
                let dec = count_allocs(|| decode(protocol, &msg, case));
                row += &format!(" {} | {enc} |", msg.len());
                if direction == Direction::Request {
                    row += &format!(" {fresh} |");
                }
                row += &format!(" {dec} |");
            }
            println!("{row}");
        }
    }
    println!();
    println!("Zero-copy octet sequence (finish_chunks):");
    println!();
    println!("| operation | protocol | request chunks | request encode | reply encode |");
    println!("|---|---|---:|---:|---:|");
    for case in cases.iter().filter(|c| zero_copy_applies(c)) {
        for protocol in PROTOCOLS {
            let mut pool = Pool::new();
            let chunks = encode_one(
                protocol,
                Direction::Request,
                case,
                &mut pool,
                Finish::Chunks,
            );
            let Encoded::Chunks(chunks) = chunks else {
                unreachable!("finish_chunks gives chunks")
            };
            let sizes: Vec<String> = chunks.iter().map(|c| c.len().to_string()).collect();
            drop(chunks);
            let req = count_allocs(|| {
                encode_one(
                    protocol,
                    Direction::Request,
                    case,
                    &mut pool,
                    Finish::Chunks,
                )
            });
            let rep = count_allocs(|| {
                encode_one(protocol, Direction::Reply, case, &mut pool, Finish::Chunks)
            });
            println!(
                "| {} | {} | {} | {req} | {rep} |",
                case.label,
                protocol.label(),
                sizes.join(" + ")
            );
        }
    }
    println!();
}

fn zero_copy_applies(case: &Case) -> bool {
    matches!(&case.value, Value::OctetSeq(b) if b.len() >= DEFAULT_ZERO_COPY_THRESHOLD)
}

// ---------------------------------------------------------------------------
// Timings

fn bench_direction(c: &mut Criterion, direction: Direction) {
    let cases = cases();
    let name = match direction {
        Direction::Request => "request",
        Direction::Reply => "reply",
    };

    let mut group = c.benchmark_group(format!("{name}_encode"));
    for case in &cases {
        for protocol in PROTOCOLS {
            let mut pool = Pool::new();
            group.bench_function(BenchmarkId::new(case.label, protocol.label()), |b| {
                b.iter(|| {
                    encode_one(
                        protocol,
                        direction,
                        black_box(case),
                        &mut pool,
                        Finish::Contiguous,
                    )
                })
            });
        }
    }
    for case in cases.iter().filter(|c| zero_copy_applies(c)) {
        for protocol in PROTOCOLS {
            let mut pool = Pool::new();
            let id = format!("{}_chunks", case.label);
            group.bench_function(BenchmarkId::new(id, protocol.label()), |b| {
                b.iter(|| {
                    encode_one(
                        protocol,
                        direction,
                        black_box(case),
                        &mut pool,
                        Finish::Chunks,
                    )
                })
            });
        }
    }
    group.finish();

    let mut group = c.benchmark_group(format!("{name}_decode"));
    for case in &cases {
        for protocol in PROTOCOLS {
            let msg = wire_message(protocol, direction, case);
            group.bench_function(BenchmarkId::new(case.label, protocol.label()), |b| {
                b.iter(|| decode(protocol, black_box(&msg), case))
            });
        }
    }
    group.finish();
}

fn requests(c: &mut Criterion) {
    bench_direction(c, Direction::Request);
}

fn replies(c: &mut Criterion) {
    bench_direction(c, Direction::Reply);
}

/// Short runs: 152 benchmarks in about three minutes on a small machine.
fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_millis(250))
        .measurement_time(Duration::from_millis(650))
        .sample_size(50)
}

fn main() {
    // Checks first that every case round-trips, so the timings measure
    // working code.
    for case in cases() {
        for protocol in PROTOCOLS {
            for direction in [Direction::Request, Direction::Reply] {
                let msg = wire_message(protocol, direction, &case);
                assert_eq!(decode(protocol, &msg, &case), case.value);
                let mut pool = Pool::new();
                let chunks = encode_one(protocol, direction, &case, &mut pool, Finish::Chunks);
                assert_eq!(chunks.to_vec(), msg.to_vec());
            }
        }
    }
    report();
    let mut c = config().configure_from_args();
    requests(&mut c);
    replies(&mut c);
    c.final_summary();
}
