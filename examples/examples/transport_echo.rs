//! Echoes GIOP messages over any registered transport.
//!
//! ```text
//! cargo run -p rtorb-examples --example transport_echo -- uiop:///tmp/rtorb-echo.sock
//! cargo run -p rtorb-examples --example transport_echo -- iiop://127.0.0.1:0
//! cargo run -p rtorb-examples --example transport_echo -- "iiop://[::1]:0/?giop=lite"
//! ```
//!
//! A listener on the endpoint given echoes every frame it receives; a
//! client connects to the endpoint the listener published, sends a few
//! requests of growing size (the largest as a gathered chain of buffers),
//! checks that each comes back unchanged, and prints the sizes.

use std::process::ExitCode;
use std::thread;
use std::time::{Duration, Instant};

use bytes::Bytes;
use rtorb::transport::{FrameReader, ProtocolRegistry, Transport, TransportError};
use rtorb_cdr::{DEFAULT_ZERO_COPY_THRESHOLD, Encoding};
use rtorb_giop::FrameProtocol;
use rtorb_giop::lite::lite_request;
use rtorb_giop::message::{MessageWriter, RequestHeader};

/// Echoes frames until the peer closes the connection.
fn echo(mut conn: Box<dyn Transport>) -> Result<usize, TransportError> {
    let mut reader = FrameReader::new(conn.messaging());
    let mut n = 0;
    while let Some(frame) = reader.read_frame(&mut *conn)? {
        conn.write_all_vectored(std::slice::from_ref(&frame))?;
        n += 1;
    }
    Ok(n)
}

/// A request with `size` octets of arguments, as a chain of buffers.
fn message(
    messaging: FrameProtocol,
    id: u32,
    size: usize,
) -> Result<Vec<Bytes>, Box<dyn std::error::Error>> {
    let header = RequestHeader::new(id, Bytes::from_static(b"Echo"), "echo");
    let mut w = match messaging {
        FrameProtocol::Giop => MessageWriter::request(Encoding::native(), &header)?,
        FrameProtocol::Lite => lite_request(Encoding::native(), &header)?,
    };
    w.body()
        .set_zero_copy_threshold(DEFAULT_ZERO_COPY_THRESHOLD);
    let payload: Bytes = (0..size).map(|i| i as u8).collect::<Vec<u8>>().into();
    w.body().write_octet_seq_bytes(&payload)?;
    w.body().write_u32(id);
    Ok(w.finish_chunks()?)
}

fn run(endpoint: &str) -> Result<(), Box<dyn std::error::Error>> {
    let registry = ProtocolRegistry::with_default_protocols();
    let acceptor = registry.listen(endpoint)?;
    let published = acceptor.endpoint().clone_box();
    println!("listening on {published}");
    let server = thread::spawn(move || -> Result<usize, TransportError> {
        let conn = acceptor.accept()?;
        println!("server: connection from {}", conn.peer());
        echo(conn)
    });

    let mut client = registry.connect(&*published, Some(Duration::from_secs(5)))?;
    client.set_read_timeout(Some(Duration::from_secs(10)))?;
    let mut reader = FrameReader::new(client.messaging());
    for (id, size) in [
        (1u32, 0usize),
        (2, 100),
        (3, 64 * 1024),
        (4, 4 * 1024 * 1024),
    ] {
        let chain = message(client.messaging(), id, size)?;
        let sent: Vec<u8> = chain.iter().flat_map(|c| c.iter().copied()).collect();
        let start = Instant::now();
        client.write_all_vectored(&chain)?;
        let back = reader
            .read_frame(&mut *client)?
            .ok_or("the server closed the connection")?;
        if back[..] != sent[..] {
            return Err(format!("message {id} came back changed").into());
        }
        println!(
            "message {id}: {} octets in {} buffer(s), echoed in {:?}",
            sent.len(),
            chain.len(),
            start.elapsed()
        );
    }
    client.shutdown(std::net::Shutdown::Write)?;
    let echoed = server.join().map_err(|_| "the server thread panicked")??;
    println!("server echoed {echoed} messages");
    Ok(())
}

fn main() -> ExitCode {
    let endpoint = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "uiop:///tmp/rtorb-echo.sock".to_owned());
    match run(&endpoint) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("transport_echo: {e}");
            ExitCode::FAILURE
        }
    }
}
