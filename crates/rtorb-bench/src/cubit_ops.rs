//! The operations of the Cubit benchmark, which its client, its server
//! and the raw-socket floor share, and the GIOP messages they exchange.

use bytes::Bytes;
use rtorb_cdr::{ByteOrder, Encoder};
use rtorb_test_support::wire;

/// One benchmarked operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Op {
    /// The name in tables and JSON (`long_seq_1024`).
    pub(crate) name: &'static str,
    /// The IDL operation it calls (`cube_long_sequence`).
    pub(crate) idl: &'static str,
    /// The number of elements of a sequence argument (0: not a sequence).
    pub(crate) len: usize,
}

/// The operations named in `names` (every one when `names` is empty), in
/// the order of [`OPS`]; an unknown name is an error listing the known ones.
pub(crate) fn select(names: &[String]) -> Result<Vec<&'static Op>, String> {
    if let Some(bad) = names.iter().find(|n| !OPS.iter().any(|op| op.name == *n)) {
        let known: Vec<&str> = OPS.iter().map(|op| op.name).collect();
        return Err(format!(
            "unknown operation {bad:?}; known: {}",
            known.join(", ")
        ));
    }
    Ok(OPS
        .iter()
        .filter(|op| names.is_empty() || names.iter().any(|n| n == op.name))
        .collect())
}

/// Every benchmarked operation, in the order they run.
pub(crate) const OPS: [Op; 9] = [
    Op {
        name: "void",
        idl: "cube_void",
        len: 0,
    },
    Op {
        name: "octet",
        idl: "cube_octet",
        len: 0,
    },
    Op {
        name: "short",
        idl: "cube_short",
        len: 0,
    },
    Op {
        name: "long",
        idl: "cube_long",
        len: 0,
    },
    Op {
        name: "struct",
        idl: "cube_struct",
        len: 0,
    },
    Op {
        name: "long_seq_1",
        idl: "cube_long_sequence",
        len: 1,
    },
    Op {
        name: "long_seq_1024",
        idl: "cube_long_sequence",
        len: 1024,
    },
    Op {
        name: "octet_seq_1",
        idl: "cube_octet_sequence",
        len: 1,
    },
    Op {
        name: "octet_seq_1024",
        idl: "cube_octet_sequence",
        len: 1024,
    },
];

/// The index in [`OPS`] of the call a server sees: its IDL operation and,
/// for a sequence, its length (1 or longer).
pub(crate) fn index_of(idl: &str, len: usize) -> Option<usize> {
    OPS.iter()
        .position(|o| o.idl == idl && (o.len == 0 || (o.len == 1) == (len <= 1)))
}

/// Writes the argument (or the result: the same type) of `op`.
fn write_value(op: &Op, e: &mut Encoder) -> Result<(), rtorb_cdr::CdrError> {
    match op.idl {
        "cube_void" => Ok(()),
        "cube_octet" => {
            e.write_u8(3);
            Ok(())
        }
        "cube_short" => {
            e.write_i16(3);
            Ok(())
        }
        "cube_long" => {
            e.write_i32(3);
            Ok(())
        }
        "cube_struct" => {
            e.write_u8(3);
            e.write_i32(3);
            e.write_i16(3);
            Ok(())
        }
        "cube_long_sequence" => e.write_prim_seq(&vec![3i32; op.len]),
        _ => e.write_octet_seq(&vec![3u8; op.len]),
    }
}

/// The GIOP 1.2 request and reply of `op`, in the machine's byte order,
/// to the object key `Cubit`: what the raw-socket floor exchanges.
pub(crate) fn giop_messages(op: &Op) -> Result<(Bytes, Bytes), String> {
    let key = Bytes::from_static(b"Cubit");
    let failed = |e: rtorb_giop::GiopError| format!("{}: {e}", op.name);
    let request =
        wire::request(ByteOrder::NATIVE, 1, key, op.idl, |e| write_value(op, e)).map_err(failed)?;
    let reply = wire::reply_with(ByteOrder::NATIVE, 1, |e| write_value(op, e)).map_err(failed)?;
    Ok((request, reply))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_op_is_found_by_what_the_server_sees() {
        for (i, op) in OPS.iter().enumerate() {
            assert_eq!(index_of(op.idl, op.len), Some(i), "{op:?}");
        }
        assert_eq!(index_of("shutdown", 0), None);
    }

    #[test]
    fn operations_are_selected_by_name_in_table_order() {
        let all = select(&[]).unwrap();
        assert_eq!(all.len(), OPS.len());
        let some = select(&["long_seq_1024".to_owned(), "void".to_owned()]).unwrap();
        let names: Vec<&str> = some.iter().map(|op| op.name).collect();
        assert_eq!(names, ["void", "long_seq_1024"]);
        let err = select(&["cube".to_owned()]).unwrap_err();
        assert!(
            err.contains("unknown operation \"cube\"") && err.contains("void"),
            "{err}"
        );
    }

    #[test]
    fn message_sizes_are_those_of_giop_1_2() {
        // As `cargo run -p rtorb-giop --example giop_sizes` prints them.
        let sizes: Vec<(usize, usize)> = OPS
            .iter()
            .map(|op| {
                let (q, r) = giop_messages(op).unwrap();
                (q.len(), r.len())
            })
            .collect();
        assert_eq!(sizes[0], (56, 24));
        assert_eq!(sizes[3], (60, 28));
        assert_eq!(sizes[4], (66, 34));
        assert_eq!(sizes[6], (4164, 4124));
        assert_eq!(sizes[8], (1092, 1052));
    }
}
