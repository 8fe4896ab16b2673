//! System calls on the descriptor of a stream socket, whatever its
//! family: sending, receiving, shutting down, blocking mode, timeouts and
//! duplication. Each goes straight to the kernel through `rustix` (or, for
//! gathered sends, `socket2`), so that every stream transport gets the same
//! short path for its I/O. Also the listen backlog of listening sockets.

use std::io::{self, IoSlice};
use std::net::Shutdown;
use std::os::fd::{AsFd, OwnedFd};
use std::time::Duration;

use rustix::net::sockopt::Timeout;

/// Sends `bufs` on a connected stream socket: one buffer with `send`,
/// several with `sendmsg`. Either takes the socket layer's direct path,
/// where `writev` goes through the file layer first (and per-write file
/// notifications); a round trip of small messages is measurably cheaper.
/// Timeouts and nonblocking mode apply as to `writev`; a closed peer gives
/// `BrokenPipe` without raising `SIGPIPE`.
pub(crate) fn send_gathered<S: AsFd>(stream: &S, bufs: &[IoSlice<'_>]) -> io::Result<usize> {
    match bufs {
        [] => Ok(0),
        // The system call itself: no C library wrapper marking a
        // cancellation point around it.
        [one] => Ok(rustix::net::send(
            stream,
            one,
            rustix::net::SendFlags::NOSIGNAL,
        )?),
        _ => socket2::SockRef::from(stream).send_vectored(bufs),
    }
}

/// Sends all of `message` on a connected stream socket with `send`,
/// continuing after partial writes and retrying on `Interrupted`; as
/// [`send_gathered`] for one buffer, without a gather list.
pub(crate) fn send_all<S: AsFd>(stream: &S, message: &[u8]) -> io::Result<()> {
    let mut rest = message;
    while !rest.is_empty() {
        match rustix::net::send(stream, rest, rustix::net::SendFlags::NOSIGNAL) {
            Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
            Ok(n) => rest = rest.get(n..).unwrap_or_default(),
            Err(rustix::io::Errno::INTR) => {}
            Err(e) => return Err(e.into()),
        }
    }
    Ok(())
}

/// Receives what has arrived on a connected stream socket into `buf`
/// (blocking within the socket's timeout, or `WouldBlock` when
/// nonblocking), through the system call itself.
pub(crate) fn recv<S: AsFd>(stream: &S, buf: &mut [u8]) -> io::Result<usize> {
    let (got, _) = rustix::net::recv(stream, buf, rustix::net::RecvFlags::empty())?;
    Ok(got)
}

/// Copies what has arrived on a connected stream socket into `buf`
/// without consuming it or waiting (`WouldBlock` when nothing has), in
/// any blocking mode: 0 means the peer closed its side.
pub(crate) fn peek<S: AsFd>(stream: &S, buf: &mut [u8]) -> io::Result<usize> {
    let flags = rustix::net::RecvFlags::PEEK | rustix::net::RecvFlags::DONTWAIT;
    let (got, _) = rustix::net::recv(stream, buf, flags)?;
    Ok(got)
}

/// Shuts down the reading, writing or both halves of a connected socket.
pub(crate) fn shutdown<S: AsFd>(socket: &S, how: Shutdown) -> io::Result<()> {
    let how = match how {
        Shutdown::Read => rustix::net::Shutdown::Read,
        Shutdown::Write => rustix::net::Shutdown::Write,
        Shutdown::Both => rustix::net::Shutdown::Both,
    };
    Ok(rustix::net::shutdown(socket, how)?)
}

/// Switches a socket (connected or listening) to nonblocking mode or back.
pub(crate) fn set_nonblocking<S: AsFd>(socket: &S, nonblocking: bool) -> io::Result<()> {
    Ok(rustix::io::ioctl_fionbio(socket, nonblocking)?)
}

/// Sets how long a blocking receive may wait (`None`: for ever). A zero
/// timeout is refused (`InvalidInput`), as it would mean "for ever" to the
/// kernel; one shorter than a microsecond waits a microsecond.
pub(crate) fn set_read_timeout<S: AsFd>(socket: &S, timeout: Option<Duration>) -> io::Result<()> {
    Ok(rustix::net::sockopt::set_socket_timeout(
        socket,
        Timeout::Recv,
        timeout,
    )?)
}

/// Sets how long a blocking send may wait, as [`set_read_timeout`].
pub(crate) fn set_write_timeout<S: AsFd>(socket: &S, timeout: Option<Duration>) -> io::Result<()> {
    Ok(rustix::net::sockopt::set_socket_timeout(
        socket,
        Timeout::Send,
        timeout,
    )?)
}

/// The largest listen backlog asked for by default.
const MAX_BACKLOG: i32 = 65535;

/// The listen backlog of a new listening socket: the system's maximum
/// (`net.core.somaxconn`, which the kernel would cap a larger request to
/// anyway), at most 65535; `fallback` where it cannot be read. Under
/// connect churn a short backlog overflows, and a connection attempt that
/// finds it full waits for its SYN to be sent again, a second later.
pub(crate) fn system_backlog(fallback: i32) -> i32 {
    std::fs::read_to_string("/proc/sys/net/core/somaxconn")
        .ok()
        .and_then(|s| s.trim().parse::<i32>().ok())
        .filter(|n| *n > 0)
        .map_or(fallback, |n| n.min(MAX_BACKLOG))
}

/// Sets the backlog of a listening socket (`listen` again, which changes
/// only the backlog of a socket already listening).
pub(crate) fn set_backlog<S: AsFd>(listener: &S, backlog: i32) -> io::Result<()> {
    Ok(rustix::net::listen(listener, backlog)?)
}

/// A second descriptor for the same socket (closed on `exec`).
pub(crate) fn duplicate<S: AsFd>(socket: &S) -> io::Result<OwnedFd> {
    socket.as_fd().try_clone_to_owned()
}

#[cfg(test)]
mod tests {
    use std::io::{IoSlice, Read};
    use std::net::{Shutdown, TcpListener, TcpStream};
    use std::os::unix::net::UnixStream;
    use std::time::Duration;

    use super::{
        duplicate, recv, send_all, send_gathered, set_nonblocking, set_read_timeout,
        set_write_timeout, shutdown,
    };

    #[test]
    fn send_all_sends_every_octet_of_a_message_larger_than_the_socket_buffer() {
        let (a, mut b) = UnixStream::pair().expect("a socket pair");
        let message: Vec<u8> = (0..4 * 1024 * 1024u32).map(|i| i as u8).collect();
        let reader = std::thread::spawn(move || {
            let mut got = Vec::new();
            b.read_to_end(&mut got).expect("read");
            got
        });
        send_all(&a, &message).expect("send");
        drop(a);
        assert_eq!(reader.join().expect("reader"), message);
    }

    #[test]
    fn send_gathered_sends_one_buffer_and_a_chain_in_order() {
        let (a, mut b) = UnixStream::pair().expect("a socket pair");
        let sent = send_gathered(&a, &[IoSlice::new(b"GIOP")]).expect("send");
        assert_eq!(sent, 4);
        let chain = [IoSlice::new(b"ab"), IoSlice::new(b""), IoSlice::new(b"cde")];
        assert_eq!(send_gathered(&a, &chain).expect("sendmsg"), 5);
        assert_eq!(send_gathered(&a, &[]).expect("nothing"), 0);
        let mut got = [0u8; 9];
        b.read_exact(&mut got).expect("read");
        assert_eq!(&got, b"GIOPabcde");
    }

    #[test]
    fn send_gathered_to_a_closed_peer_is_an_error_not_a_signal() {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let a = TcpStream::connect(listener.local_addr().expect("address")).expect("connect");
        let (b, _) = listener.accept().expect("accept");
        drop(b);
        // The first send may be accepted before the reset arrives; a later
        // one fails, as an error (`send` passes MSG_NOSIGNAL, so this holds
        // in a host program that left SIGPIPE at its default).
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        let err = loop {
            if let Err(e) = send_gathered(&a, &[IoSlice::new(b"x"), IoSlice::new(b"y")]) {
                break e;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "no error once the peer has gone"
            );
            std::thread::yield_now();
        };
        assert!(
            matches!(
                err.kind(),
                std::io::ErrorKind::BrokenPipe | std::io::ErrorKind::ConnectionReset
            ),
            "{err}"
        );
    }

    #[test]
    fn a_nonblocking_receive_with_nothing_arrived_would_block() {
        let (a, _b) = UnixStream::pair().expect("a socket pair");
        set_nonblocking(&a, true).expect("nonblocking");
        let err = recv(&a, &mut [0u8; 4]).expect_err("nothing has arrived");
        assert_eq!(err.kind(), std::io::ErrorKind::WouldBlock);
        set_nonblocking(&a, false).expect("blocking");
    }

    #[test]
    fn timeouts_are_set_as_the_standard_library_sets_them() {
        let (a, _b) = UnixStream::pair().expect("a socket pair");
        let err = set_read_timeout(&a, Some(Duration::ZERO)).expect_err("zero");
        assert_eq!(err.kind(), std::io::ErrorKind::InvalidInput);
        let err = set_write_timeout(&a, Some(Duration::ZERO)).expect_err("zero");
        assert_eq!(err.kind(), std::io::ErrorKind::InvalidInput);
        // The kernel rounds a timeout to its clock tick: what it keeps is
        // compared with what it keeps from the standard library's call.
        for t in [
            Some(Duration::from_nanos(1)),
            Some(Duration::from_millis(250)),
            Some(Duration::from_secs(3600)),
            None,
        ] {
            a.set_read_timeout(t).expect("std read timeout");
            let by_std = a.read_timeout().expect("read back");
            a.set_read_timeout(None).expect("reset");
            set_read_timeout(&a, t).expect("read timeout");
            assert_eq!(a.read_timeout().expect("read back"), by_std, "{t:?}");

            a.set_write_timeout(t).expect("std write timeout");
            let by_std = a.write_timeout().expect("read back");
            a.set_write_timeout(None).expect("reset");
            set_write_timeout(&a, t).expect("write timeout");
            assert_eq!(a.write_timeout().expect("read back"), by_std, "{t:?}");
        }
    }

    #[test]
    fn a_duplicate_shares_the_connection_and_shutdown_ends_it() {
        let (a, mut b) = UnixStream::pair().expect("a socket pair");
        let second = UnixStream::from(duplicate(&a).expect("duplicate"));
        send_all(&second, b"via the second handle").expect("send");
        let mut got = [0u8; 21];
        b.read_exact(&mut got).expect("read");
        assert_eq!(&got, b"via the second handle");
        shutdown(&a, Shutdown::Write).expect("shutdown");
        assert_eq!(b.read(&mut got).expect("end of stream"), 0);
    }
}
