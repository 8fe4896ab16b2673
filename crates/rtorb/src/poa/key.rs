//! Object keys made by the POA, and their parsing on the request path.
//!
//! See the [module documentation](super#object-keys) for the layout.

/// First three octets of every key the POA makes.
pub(crate) const MAGIC: [u8; 3] = *b"RTK";
/// Fourth octet of a key of a TRANSIENT POA (direct POA index).
pub(crate) const KIND_TRANSIENT: u8 = b'T';
/// Fourth octet of a key of a PERSISTENT POA (POA path).
pub(crate) const KIND_PERSISTENT: u8 = b'P';

/// Length of a transient key before the object id.
pub(crate) const TRANSIENT_HEADER: usize = 4 + 8 + 4 + 4;
/// Length of a system-assigned object id of a TRANSIENT POA.
pub(crate) const TRANSIENT_SYSTEM_ID: usize = 8;
/// Length of a system-assigned object id of a PERSISTENT POA.
pub(crate) const PERSISTENT_SYSTEM_ID: usize = 16;
/// Most octets a POA name may have (its length is written as a `u16`).
pub(crate) const MAX_NAME: usize = u16::MAX as usize;

/// Whether `key` starts like a key the POA makes.
pub(crate) fn is_poa_key(key: &[u8]) -> bool {
    key.len() >= 4 && key[..3] == MAGIC
}

/// A slot of a table and the generation it had when the key was made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct SlotRef {
    pub(crate) slot: u32,
    pub(crate) generation: u32,
}

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    let s = b.get(at..at + 4)?;
    Some(u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
}

fn u64_at(b: &[u8], at: usize) -> Option<u64> {
    let s = b.get(at..at + 8)?;
    let mut a = [0u8; 8];
    a.copy_from_slice(s);
    Some(u64::from_le_bytes(a))
}

fn u16_at(b: &[u8], at: usize) -> Option<u16> {
    let s = b.get(at..at + 2)?;
    Some(u16::from_le_bytes([s[0], s[1]]))
}

/// The parts of a transient key: ORB instance, POA slot, object id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct TransientKey<'k> {
    pub(crate) instance: u64,
    pub(crate) poa: SlotRef,
    pub(crate) id: &'k [u8],
}

/// Writes a transient key.
pub(crate) fn transient_key(instance: u64, poa: SlotRef, id: &[u8]) -> Vec<u8> {
    let mut k = Vec::with_capacity(TRANSIENT_HEADER + id.len());
    k.extend_from_slice(&MAGIC);
    k.push(KIND_TRANSIENT);
    k.extend_from_slice(&instance.to_le_bytes());
    k.extend_from_slice(&poa.slot.to_le_bytes());
    k.extend_from_slice(&poa.generation.to_le_bytes());
    k.extend_from_slice(id);
    k
}

/// Reads a transient key; `None` if `key` is not one.
pub(crate) fn parse_transient(key: &[u8]) -> Option<TransientKey<'_>> {
    if key.len() < TRANSIENT_HEADER || key[..3] != MAGIC || key[3] != KIND_TRANSIENT {
        return None;
    }
    Some(TransientKey {
        instance: u64_at(key, 4)?,
        poa: SlotRef {
            slot: u32_at(key, 12)?,
            generation: u32_at(key, 16)?,
        },
        id: &key[TRANSIENT_HEADER..],
    })
}

/// The encoded path of a POA (every name from the Root POA's child down
/// to it, each as a `u16` length and its octets), as it appears in a
/// persistent key and as the persistent POAs are found by.
pub(crate) fn encode_path<'a>(names: impl IntoIterator<Item = &'a str>) -> Vec<u8> {
    let mut p = Vec::new();
    for n in names {
        let len = u16::try_from(n.len()).unwrap_or(u16::MAX);
        p.extend_from_slice(&len.to_le_bytes());
        p.extend_from_slice(&n.as_bytes()[..usize::from(len)]);
    }
    p
}

/// The names of an encoded path; `None` if it is malformed.
pub(crate) fn decode_path(mut p: &[u8]) -> Option<Vec<&str>> {
    let mut names = Vec::new();
    while !p.is_empty() {
        let len = usize::from(u16_at(p, 0)?);
        let name = p.get(2..2 + len)?;
        names.push(std::str::from_utf8(name).ok()?);
        p = &p[2 + len..];
    }
    Some(names)
}

/// Writes a persistent key from an encoded path.
pub(crate) fn persistent_key(path: &[u8], id: &[u8]) -> Option<Vec<u8>> {
    let len = u16::try_from(path.len()).ok()?;
    let mut k = Vec::with_capacity(6 + path.len() + id.len());
    k.extend_from_slice(&MAGIC);
    k.push(KIND_PERSISTENT);
    k.extend_from_slice(&len.to_le_bytes());
    k.extend_from_slice(path);
    k.extend_from_slice(id);
    Some(k)
}

/// Reads a persistent key into its encoded path and object id.
pub(crate) fn parse_persistent(key: &[u8]) -> Option<(&[u8], &[u8])> {
    if key.len() < 6 || key[..3] != MAGIC || key[3] != KIND_PERSISTENT {
        return None;
    }
    let len = usize::from(u16_at(key, 4)?);
    let path = key.get(6..6 + len)?;
    Some((path, &key[6 + len..]))
}

/// A system-assigned object id: the object's slot, and for a PERSISTENT
/// POA the ORB instance that assigned it.
pub(crate) fn system_id(instance: Option<u64>, object: SlotRef) -> Vec<u8> {
    let mut id = Vec::with_capacity(PERSISTENT_SYSTEM_ID);
    if let Some(i) = instance {
        id.extend_from_slice(&i.to_le_bytes());
    }
    id.extend_from_slice(&object.slot.to_le_bytes());
    id.extend_from_slice(&object.generation.to_le_bytes());
    id
}

/// Reads a system-assigned id: for a TRANSIENT POA (`instance` `None`)
/// eight octets, for a PERSISTENT one sixteen starting with `instance`.
/// `None` if `id` is not one this ORB instance assigned.
pub(crate) fn parse_system_id(id: &[u8], instance: Option<u64>) -> Option<SlotRef> {
    let at = match instance {
        None if id.len() == TRANSIENT_SYSTEM_ID => 0,
        Some(i) if id.len() == PERSISTENT_SYSTEM_ID && u64_at(id, 0)? == i => 8,
        _ => return None,
    };
    Some(SlotRef {
        slot: u32_at(id, at)?,
        generation: u32_at(id, at + 4)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transient_keys_round_trip() {
        let poa = SlotRef {
            slot: 7,
            generation: 3,
        };
        let id = system_id(
            None,
            SlotRef {
                slot: 9,
                generation: 1,
            },
        );
        let k = transient_key(0xabcd, poa, &id);
        let t = parse_transient(&k).unwrap();
        assert_eq!((t.instance, t.poa, t.id), (0xabcd, poa, &id[..]));
        assert_eq!(
            parse_system_id(t.id, None),
            Some(SlotRef {
                slot: 9,
                generation: 1
            })
        );
        assert_eq!(parse_system_id(t.id, Some(0xabcd)), None);
        assert!(parse_transient(&k[..TRANSIENT_HEADER - 1]).is_none());
        assert!(parse_persistent(&k).is_none());
    }

    #[test]
    fn persistent_keys_round_trip() {
        let path = encode_path(["a", "bé", ""]);
        assert_eq!(decode_path(&path).unwrap(), vec!["a", "bé", ""]);
        let k = persistent_key(&path, b"id").unwrap();
        assert_eq!(parse_persistent(&k), Some((&path[..], &b"id"[..])));
        assert!(decode_path(&path[..path.len() - 1]).is_none());
        assert!(parse_persistent(&k[..5]).is_none());
        let mut bad = k.clone();
        bad[4] = 0xff;
        assert!(parse_persistent(&bad).is_none());
    }
}
