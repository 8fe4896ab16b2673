//! The OSF character and code set registry, as far as ORBs publish its ids
//! in `TAG_CODE_SETS` components and `CodeSets` service contexts: one
//! table of ids, short names and titles, used to name code sets when a
//! reference is printed and to read them from configuration.
//!
//! Names are matched ignoring case and every character that is not a letter
//! or a digit, so `ISO-8859-1`, `iso8859_1` and `ISO 8859-1` are the same;
//! a code set may also be given by its number, `0x05010001` or `83951617`.
//!
//! ```
//! use rtorb_cdr::CodeSetId;
//!
//! assert_eq!("utf8".parse::<CodeSetId>(), Ok(CodeSetId::UTF_8));
//! assert_eq!("0x0001000F".parse::<CodeSetId>().unwrap().name(), Some("ISO-8859-15"));
//! assert_eq!(CodeSetId(0x0001_0109).to_string(), "UTF-16 (0x00010109)");
//! assert_eq!(CodeSetId(0x1234_5678).to_string(), "0x12345678 (unregistered)");
//! ```

use super::CodeSetId;

/// One code set of the registry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RegisteredCodeSet {
    /// Its registry id.
    pub id: CodeSetId,
    /// The short name rtorb prints and accepts (`UTF-8`, `ISO-8859-1`).
    pub name: &'static str,
    /// What the registry calls it.
    pub title: &'static str,
}

const fn cs(id: u32, name: &'static str, title: &'static str) -> RegisteredCodeSet {
    RegisteredCodeSet {
        id: CodeSetId(id),
        name,
        title,
    }
}

/// The code sets rtorb names, in order of id.
///
/// The ISO 8859 parts 11, 13, 14 and 16 are not in the registry's last
/// edition; their ids follow its numbering of the other parts, as ORBs
/// (omniORB, JacORB) publish them.
pub static REGISTRY: &[RegisteredCodeSet] = &[
    cs(
        0x0001_0001,
        "ISO-8859-1",
        "ISO 8859-1:1987, Latin alphabet no. 1",
    ),
    cs(
        0x0001_0002,
        "ISO-8859-2",
        "ISO 8859-2:1987, Latin alphabet no. 2",
    ),
    cs(
        0x0001_0003,
        "ISO-8859-3",
        "ISO 8859-3:1988, Latin alphabet no. 3",
    ),
    cs(
        0x0001_0004,
        "ISO-8859-4",
        "ISO 8859-4:1988, Latin alphabet no. 4",
    ),
    cs(
        0x0001_0005,
        "ISO-8859-5",
        "ISO/IEC 8859-5:1988, Latin/Cyrillic",
    ),
    cs(0x0001_0006, "ISO-8859-6", "ISO 8859-6:1987, Latin/Arabic"),
    cs(0x0001_0007, "ISO-8859-7", "ISO 8859-7:1987, Latin/Greek"),
    cs(0x0001_0008, "ISO-8859-8", "ISO 8859-8:1988, Latin/Hebrew"),
    cs(
        0x0001_0009,
        "ISO-8859-9",
        "ISO/IEC 8859-9:1989, Latin alphabet no. 5",
    ),
    cs(
        0x0001_000a,
        "ISO-8859-10",
        "ISO/IEC 8859-10:1992, Latin alphabet no. 6",
    ),
    cs(0x0001_000b, "ISO-8859-11", "ISO/IEC 8859-11, Latin/Thai"),
    cs(
        0x0001_000d,
        "ISO-8859-13",
        "ISO/IEC 8859-13, Latin alphabet no. 7",
    ),
    cs(
        0x0001_000e,
        "ISO-8859-14",
        "ISO/IEC 8859-14, Latin alphabet no. 8",
    ),
    cs(
        0x0001_000f,
        "ISO-8859-15",
        "ISO/IEC 8859-15:1999, Latin alphabet no. 9",
    ),
    cs(
        0x0001_0010,
        "ISO-8859-16",
        "ISO/IEC 8859-16, Latin alphabet no. 10",
    ),
    cs(0x0001_0020, "ISO-646", "ISO 646:1991 IRV (US-ASCII)"),
    cs(0x0001_0100, "UCS-2", "ISO/IEC 10646-1:1993, UCS-2, level 1"),
    cs(
        0x0001_0101,
        "UCS-2-level-2",
        "ISO/IEC 10646-1:1993, UCS-2, level 2",
    ),
    cs(
        0x0001_0102,
        "UCS-2-level-3",
        "ISO/IEC 10646-1:1993, UCS-2, level 3",
    ),
    cs(0x0001_0104, "UCS-4", "ISO/IEC 10646-1:1993, UCS-4, level 1"),
    cs(
        0x0001_0105,
        "UCS-4-level-2",
        "ISO/IEC 10646-1:1993, UCS-4, level 2",
    ),
    cs(
        0x0001_0106,
        "UCS-4-level-3",
        "ISO/IEC 10646-1:1993, UCS-4, level 3",
    ),
    cs(0x0001_0108, "UTF-1", "ISO/IEC 10646-1:1993, UTF-1"),
    cs(0x0001_0109, "UTF-16", "ISO/IEC 10646-1:1993, UTF-16"),
    cs(
        0x0003_0001,
        "JIS-X0201",
        "JIS X0201:1976, Japanese phonetic characters",
    ),
    cs(
        0x0003_0004,
        "JIS-X0208-1978",
        "JIS X0208:1978, Japanese Kanji",
    ),
    cs(
        0x0003_0005,
        "JIS-X0208-1983",
        "JIS X0208:1983, Japanese Kanji",
    ),
    cs(
        0x0003_0006,
        "JIS-X0208-1990",
        "JIS X0208:1990, Japanese Kanji",
    ),
    cs(
        0x0003_000a,
        "JIS-X0212",
        "JIS X0212:1990, supplementary Japanese Kanji",
    ),
    cs(0x0003_0010, "EUC-JP", "JIS eucJP:1993, Japanese EUC"),
    cs(
        0x0004_0001,
        "KS-C5601",
        "KS C5601:1987, Korean Hangul and Hanja",
    ),
    cs(
        0x0004_0002,
        "KS-C5657",
        "KS C5657:1991, supplementary Korean",
    ),
    cs(0x0004_000a, "EUC-KR", "KS eucKR:1991, Korean EUC"),
    cs(
        0x0005_0001,
        "CNS-11643-1986",
        "CNS 11643:1986, Taiwanese Hanzi",
    ),
    cs(
        0x0005_0002,
        "CNS-11643-1992",
        "CNS 11643:1992, Taiwanese extended Hanzi",
    ),
    cs(0x0005_000a, "EUC-TW-1991", "CNS eucTW:1991, Taiwanese EUC"),
    cs(0x0005_0010, "EUC-TW", "CNS eucTW:1993, Taiwanese EUC"),
    cs(0x000b_0001, "TIS-620", "TIS 620-2529, Thai"),
    cs(
        0x000d_0001,
        "TTB-CCDC",
        "TTB CCDC:1984, Chinese code for data communications",
    ),
    cs(0x0500_0010, "OSF-UJIS", "OSF Japanese UJIS"),
    cs(0x0500_0011, "OSF-SJIS-1", "OSF Japanese SJIS-1"),
    cs(0x0500_0012, "OSF-SJIS-2", "OSF Japanese SJIS-2"),
    cs(0x0501_0001, "UTF-8", "X/Open UTF-8"),
    cs(0x0502_0001, "JVC-eucJP", "JVC eucJP"),
    cs(0x0502_0002, "JVC-SJIS", "JVC Shift JIS"),
    cs(0x1000_0001, "DEC-Kanji", "DEC Kanji"),
    cs(0x1000_0002, "Super-DEC-Kanji", "Super DEC Kanji"),
    cs(0x1000_0003, "DEC-Shift-JIS", "DEC Shift JIS"),
    cs(0x1001_0001, "HP-roman8", "HP roman8, Western European"),
    cs(0x1001_0002, "HP-kana8", "HP kana8, Japanese katakana"),
    cs(0x1001_0003, "HP-arabic8", "HP arabic8"),
    cs(0x1001_0004, "HP-greek8", "HP greek8"),
    cs(0x1001_0005, "HP-hebrew8", "HP hebrew8"),
    cs(0x1001_0006, "HP-turkish8", "HP turkish8"),
    cs(0x1001_0007, "HP15CN", "HP15CN, simplified Chinese"),
    cs(0x1001_0008, "HP-big5", "HP big5, traditional Chinese"),
    cs(
        0x1001_0009,
        "HP-japanese15",
        "HP japanese15, Shift JIS for mainframes",
    ),
    cs(0x1001_000a, "HP-sjishi", "HP sjishi, Shift JIS"),
    cs(0x1001_000b, "HP-sjispc", "HP sjispc, Shift JIS for PCs"),
    cs(0x1001_000c, "HP-ujis", "HP ujis, Japanese EUC"),
    cs(
        0x1002_0025,
        "IBM-037",
        "IBM-037 (CCSID 00037), EBCDIC for the Americas",
    ),
    cs(
        0x1002_0111,
        "IBM-273",
        "IBM-273 (CCSID 00273), EBCDIC for Austria, Germany",
    ),
    cs(
        0x1002_0115,
        "IBM-277",
        "IBM-277 (CCSID 00277), EBCDIC for Denmark, Norway",
    ),
    cs(
        0x1002_0116,
        "IBM-278",
        "IBM-278 (CCSID 00278), EBCDIC for Finland, Sweden",
    ),
    cs(
        0x1002_0118,
        "IBM-280",
        "IBM-280 (CCSID 00280), EBCDIC for Italy",
    ),
    cs(
        0x1002_011a,
        "IBM-282",
        "IBM-282 (CCSID 00282), EBCDIC for Portugal",
    ),
    cs(
        0x1002_011c,
        "IBM-284",
        "IBM-284 (CCSID 00284), EBCDIC for Spain",
    ),
    cs(
        0x1002_011d,
        "IBM-285",
        "IBM-285 (CCSID 00285), EBCDIC for the UK",
    ),
    cs(
        0x1002_0129,
        "IBM-297",
        "IBM-297 (CCSID 00297), EBCDIC for France",
    ),
    cs(0x1002_01b5, "IBM-437", "IBM-437 (CCSID 00437), PC USA"),
    cs(
        0x1002_01f4,
        "IBM-500",
        "IBM-500 (CCSID 00500), EBCDIC international",
    ),
    cs(
        0x1002_0352,
        "IBM-850",
        "IBM-850 (CCSID 00850), PC multilingual",
    ),
    cs(0x1002_0354, "IBM-852", "IBM-852 (CCSID 00852), PC Latin-2"),
    cs(0x1002_0357, "IBM-855", "IBM-855 (CCSID 00855), PC Cyrillic"),
    cs(0x1002_0359, "IBM-857", "IBM-857 (CCSID 00857), PC Turkish"),
    cs(
        0x1002_0362,
        "IBM-866",
        "IBM-866 (CCSID 00866), PC Cyrillic 2",
    ),
    cs(0x1002_0365, "IBM-869", "IBM-869 (CCSID 00869), PC Greek"),
    cs(0x1002_036a, "IBM-874", "IBM-874 (CCSID 00874), PC Thai"),
    cs(0x1002_03a4, "IBM-932", "IBM-932 (CCSID 00932), PC Japanese"),
    cs(
        0x1002_03af,
        "IBM-943",
        "IBM-943 (CCSID 00943), PC Japanese for open systems",
    ),
    cs(0x1002_03b5, "IBM-949", "IBM-949 (CCSID 00949), PC Korean"),
    cs(
        0x1002_03b6,
        "IBM-950",
        "IBM-950 (CCSID 00950), PC traditional Chinese",
    ),
    cs(0x1002_03ca, "IBM-970", "IBM-970 (CCSID 00970), Korean EUC"),
    cs(
        0x1002_0417,
        "IBM-1047",
        "IBM-1047 (CCSID 01047), EBCDIC Latin-1 open systems",
    ),
    cs(
        0x1002_04e2,
        "IBM-1250",
        "IBM-1250 (CCSID 01250), MS Windows Latin-2",
    ),
    cs(
        0x1002_04e3,
        "IBM-1251",
        "IBM-1251 (CCSID 01251), MS Windows Cyrillic",
    ),
    cs(
        0x1002_04e4,
        "IBM-1252",
        "IBM-1252 (CCSID 01252), MS Windows Latin-1",
    ),
    cs(
        0x1002_04e5,
        "IBM-1253",
        "IBM-1253 (CCSID 01253), MS Windows Greek",
    ),
    cs(
        0x1002_04e6,
        "IBM-1254",
        "IBM-1254 (CCSID 01254), MS Windows Turkish",
    ),
    cs(
        0x1002_04e7,
        "IBM-1255",
        "IBM-1255 (CCSID 01255), MS Windows Hebrew",
    ),
    cs(
        0x1002_04e8,
        "IBM-1256",
        "IBM-1256 (CCSID 01256), MS Windows Arabic",
    ),
    cs(
        0x1002_04e9,
        "IBM-1257",
        "IBM-1257 (CCSID 01257), MS Windows Baltic",
    ),
    cs(
        0x1002_0567,
        "IBM-1383",
        "IBM-1383 (CCSID 01383), simplified Chinese EUC",
    ),
    cs(0x1003_0001, "HTCsjis", "Hitachi SJIS 90-1"),
    cs(0x1003_0002, "HTCujis", "Hitachi eucJP 90-1"),
    cs(0x1004_0001, "Fujitsu-U90", "Fujitsu U90, Japanese EUC"),
    cs(0x1004_0002, "Fujitsu-S90", "Fujitsu S90, Japanese EUC"),
    cs(0x1004_0003, "Fujitsu-R90", "Fujitsu R90, Shift JIS"),
];

/// Why a code set could not be read from a name or number.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown code set {0:?}: give a name such as ISO-8859-1, UTF-8 or UTF-16, \
     or a registry number such as 0x05010001"
)]
pub struct UnknownCodeSet(pub String);

impl CodeSetId {
    /// The registry's entry for this id, if it has one.
    pub fn registered(self) -> Option<&'static RegisteredCodeSet> {
        REGISTRY
            .binary_search_by_key(&self, |e| e.id)
            .ok()
            .map(|i| &REGISTRY[i])
    }

    /// The short name of a registered code set (`UTF-8`, `ISO-8859-15`).
    pub fn name(self) -> Option<&'static str> {
        self.registered().map(|e| e.name)
    }

    /// The registered code set called `name` (ignoring case and every
    /// character that is not a letter or a digit).
    pub fn from_name(name: &str) -> Option<CodeSetId> {
        let wanted = fold(name);
        if wanted.is_empty() {
            return None;
        }
        REGISTRY
            .iter()
            .find(|e| fold(e.name) == wanted)
            .map(|e| e.id)
    }
}

/// Reads a code set from its name ([`CodeSetId::from_name`]) or its
/// number, in hexadecimal (`0x05010001`) or decimal.
impl std::str::FromStr for CodeSetId {
    type Err = UnknownCodeSet;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        let number = match t.get(..2) {
            Some("0x" | "0X") => u32::from_str_radix(&t[2..], 16).ok(),
            _ => t.parse::<u32>().ok(),
        };
        number
            .map(CodeSetId)
            .or_else(|| CodeSetId::from_name(t))
            .ok_or_else(|| UnknownCodeSet(s.to_owned()))
    }
}

/// The registered name and the id (`UTF-8 (0x05010001)`); an id the
/// registry does not hold shows as `0x12345678 (unregistered)`, and
/// [`CodeSetId::NONE`] as `0x00000000 (none)`.
impl std::fmt::Display for CodeSetId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.name() {
            Some(n) => write!(f, "{n} ({:#010x})", self.0),
            None if *self == CodeSetId::NONE => write!(f, "{:#010x} (none)", self.0),
            None => write!(f, "{:#010x} (unregistered)", self.0),
        }
    }
}

/// A name reduced to its lower-case letters and digits.
fn fold(name: &str) -> String {
    name.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_sorted_and_its_names_are_distinct() {
        for pair in REGISTRY.windows(2) {
            assert!(
                pair[0].id < pair[1].id,
                "{:?} before {:?}",
                pair[0],
                pair[1]
            );
        }
        for e in REGISTRY {
            assert_eq!(CodeSetId::from_name(e.name), Some(e.id), "{}", e.name);
            assert_eq!(e.id.registered(), Some(e));
        }
    }

    #[test]
    fn names_and_numbers_are_read() {
        for (s, id) in [
            ("ISO-8859-1", CodeSetId::ISO_8859_1),
            ("iso8859_1", CodeSetId::ISO_8859_1),
            ("ISO 8859-15", CodeSetId(0x0001_000f)),
            ("UTF-8", CodeSetId::UTF_8),
            ("utf16", CodeSetId::UTF_16),
            ("UCS-2", CodeSetId::UCS_2),
            ("0x00010109", CodeSetId::UTF_16),
            ("0X05010001", CodeSetId::UTF_8),
            ("65537", CodeSetId::ISO_8859_1),
            (" UTF-8 ", CodeSetId::UTF_8),
        ] {
            assert_eq!(s.parse::<CodeSetId>(), Ok(id), "{s}");
        }
        for bad in ["", "-", "UTF-7", "0x", "0x100000000", "4294967296"] {
            assert_eq!(
                bad.parse::<CodeSetId>(),
                Err(UnknownCodeSet(bad.to_owned())),
                "{bad}"
            );
        }
    }

    #[test]
    fn ids_print_with_their_names() {
        assert_eq!(CodeSetId::UTF_8.to_string(), "UTF-8 (0x05010001)");
        assert_eq!(CodeSetId::ISO_8859_1.to_string(), "ISO-8859-1 (0x00010001)");
        assert_eq!(CodeSetId(0x0001_000f).name(), Some("ISO-8859-15"));
        assert_eq!(CodeSetId(0x0001_0106).name(), Some("UCS-4-level-3"));
        assert_eq!(CodeSetId::NONE.to_string(), "0x00000000 (none)");
        assert_eq!(
            CodeSetId(0x0001_000c).to_string(),
            "0x0001000c (unregistered)"
        );
    }
}
