//! The hex text format of recorded fixtures.
//!
//! A fixture file holds one message as lower-case hex, 16 octets per line.
//! Readers ignore whitespace and lines starting with `#`, so a file may
//! carry comments. The format is simple enough that any crate's tests can
//! read it without this one.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Formats `bytes` as lower-case hex, 16 octets per line, each line ending
/// in a newline.
pub fn to_hex(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 2 + bytes.len() / 16 + 1);
    for line in bytes.chunks(16) {
        for b in line {
            let _ = write!(out, "{b:02x}");
        }
        out.push('\n');
    }
    out
}

/// Parses hex text: whitespace and `#` comment lines are ignored.
pub fn from_hex(text: &str) -> Result<Vec<u8>, String> {
    let digits: Vec<u8> = text
        .lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .flat_map(|l| l.bytes())
        .filter(|b| !b.is_ascii_whitespace())
        .collect();
    if digits.len() % 2 != 0 {
        return Err("odd number of hex digits".into());
    }
    digits
        .chunks(2)
        .map(|pair| {
            let s = std::str::from_utf8(pair).map_err(|e| e.to_string())?;
            u8::from_str_radix(s, 16).map_err(|_| format!("bad hex digits {s:?}"))
        })
        .collect()
}

/// Reads every `*.hex` file of `dir`, sorted by file name, as
/// `(file name, bytes)`.
pub fn read_fixture_dir(dir: &Path) -> Result<Vec<(String, Vec<u8>)>, String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "hex"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|p| {
            let name = p
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let text = std::fs::read_to_string(&p).map_err(|e| format!("{}: {e}", p.display()))?;
            let bytes = from_hex(&text).map_err(|e| format!("{}: {e}", p.display()))?;
            Ok((name, bytes))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_layout() {
        let bytes: Vec<u8> = (0u8..=20).collect();
        let text = to_hex(&bytes);
        assert_eq!(text, "000102030405060708090a0b0c0d0e0f\n1011121314\n");
        assert_eq!(from_hex(&text), Ok(bytes));
    }

    #[test]
    fn comments_and_errors() {
        assert_eq!(
            from_hex("# note\nde ad\n  BE ef\n"),
            Ok(vec![0xde, 0xad, 0xbe, 0xef])
        );
        assert_eq!(from_hex("abc"), Err("odd number of hex digits".to_owned()));
        assert_eq!(from_hex("zz"), Err("bad hex digits \"zz\"".to_owned()));
        assert_eq!(from_hex(""), Ok(vec![]));
    }
}
