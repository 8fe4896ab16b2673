//! A GIOP client on a plain socket, for the hostile peers and the
//! well-behaved client that watches a server under attack: `cube_long`
//! calls made with `rtorb-test-support`'s messages, and messages read back
//! with a bound on their size.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use bytes::Bytes;
use rtorb_cdr::ByteOrder;
use rtorb_giop::header::HEADER_LEN;
use rtorb_giop::{Content, Message, MessageHeader, ReplyStatus, decode_message};
use rtorb_test_support::wire;

/// The largest reply the clients read; a larger announced size is an
/// error, not an allocation.
pub(crate) const MAX_REPLY: u32 = 1 << 20;

/// A connection to `address` whose every operation gives up after
/// `timeout`.
pub(crate) fn connect(address: SocketAddr, timeout: Duration) -> Result<TcpStream, String> {
    let s = TcpStream::connect_timeout(&address, timeout).map_err(|e| e.to_string())?;
    s.set_read_timeout(Some(timeout))
        .and_then(|()| s.set_write_timeout(Some(timeout)))
        .and_then(|()| s.set_nodelay(true))
        .map_err(|e| e.to_string())?;
    Ok(s)
}

/// A `cube_long` request with id `id` to `key` (GIOP 1.2, the machine's
/// byte order).
pub(crate) fn cube_long(id: u32, key: &Bytes, value: i32) -> Result<Bytes, String> {
    wire::request(ByteOrder::NATIVE, id, key.clone(), "cube_long", |e| {
        e.write_i32(value);
        Ok(())
    })
    .map_err(|e| e.to_string())
}

/// One `cube_long` call with id `id` on `s`; its round trip.
pub(crate) fn call(s: &mut TcpStream, key: &Bytes, id: u32) -> Result<Duration, String> {
    let request = cube_long(id, key, 3)?;
    let t = Instant::now();
    s.write_all(&request).map_err(|e| e.to_string())?;
    read_reply(s, id)?;
    Ok(t.elapsed())
}

/// A call on a new connection; whether it was answered.
pub(crate) fn call_on_new(address: SocketAddr, key: &Bytes, timeout: Duration) -> bool {
    connect(address, timeout).is_ok_and(|mut s| call(&mut s, key, 1).is_ok())
}

/// Reads one whole GIOP message of at most `max` body octets from `r` and
/// decodes it.
pub(crate) fn read_message(r: &mut impl Read, max: u32) -> Result<Message, String> {
    let mut header = [0u8; HEADER_LEN];
    r.read_exact(&mut header).map_err(|e| e.to_string())?;
    let size = MessageHeader::parse(&header, max)
        .map_err(|e| e.to_string())?
        .size as usize;
    let mut whole = vec![0u8; HEADER_LEN + size];
    whole[..HEADER_LEN].copy_from_slice(&header);
    r.read_exact(&mut whole[HEADER_LEN..])
        .map_err(|e| e.to_string())?;
    decode_message(Bytes::from(whole)).map_err(|e| e.to_string())
}

/// Reads one message from `r` and checks that it is the `NO_EXCEPTION`
/// reply to request `id`.
pub(crate) fn read_reply(r: &mut impl Read, id: u32) -> Result<(), String> {
    match read_message(r, MAX_REPLY)?.content {
        Content::Reply(reply)
            if reply.header.request_id == id
                && reply.header.reply_status == ReplyStatus::NoException =>
        {
            Ok(())
        }
        Content::Reply(reply) => Err(format!(
            "reply {} {:?} to request {id}",
            reply.header.request_id, reply.header.reply_status
        )),
        other => Err(format!("{:?} instead of a reply", other.msg_type())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reply_is_checked_for_its_id() {
        let reply = |id| {
            wire::reply_with(ByteOrder::NATIVE, id, |e| {
                e.write_i32(27);
                Ok(())
            })
            .unwrap()
        };
        assert!(read_reply(&mut &reply(3)[..], 3).is_ok());
        assert_eq!(
            read_reply(&mut &reply(4)[..], 3),
            Err("reply 4 NoException to request 3".to_owned())
        );
        // A reply header announcing 2^31 - 1 octets: refused unread.
        assert_eq!(
            read_reply(&mut &b"GIOP\x01\x02\x01\x01\xff\xff\xff\x7f"[..], 3),
            Err(format!(
                "message of {} octets exceeds the maximum of {MAX_REPLY}",
                i32::MAX
            ))
        );
        // Not even a whole header.
        assert_eq!(
            read_reply(&mut &b"HTTP"[..], 3),
            Err("failed to fill whole buffer".to_owned())
        );
    }

    #[test]
    fn a_request_is_a_cube_long_to_its_key() {
        let key = Bytes::from_static(b"Cubit");
        let m = decode_message(cube_long(4, &key, 3).unwrap()).unwrap();
        let Content::Request(r) = m.content else {
            panic!("not a request");
        };
        assert_eq!(r.header.request_id, 4);
        assert_eq!(r.header.operation.as_str(), "cube_long");
    }
}
