//! `docs/MINOR_CODES.md` is the registry of `rtorb_giop::minor`, as a
//! table: this test renders the registry and compares. Run it with
//! `RTORB_BLESS=1` to write the file after changing the registry.

use std::path::PathBuf;

use rtorb_cdr::OMG_VMCID;
use rtorb_giop::minor::REGISTRY;

fn render() -> String {
    let mut out = String::from(
        "# Minor codes\n\n\
         Every minor code rtorb raises, with the system exception it goes with and\n\
         what it means. A code under the OMG's VMCID (`0x4f4d0000`) is the one the\n\
         CORBA specification assigns; the others are rtorb's own (`0x5254xxxx`).\n\
         In Rust each is a constant of `rtorb::minor` (the same as\n\
         `rtorb_giop::minor`), and a `SystemException` prints the meaning with the\n\
         code.\n\n\
         This file is generated from the registry by\n\
         `RTORB_BLESS=1 cargo test -p rtorb-giop --test minor_table`.\n\n\
         | exception | minor | constant | meaning |\n\
         | --- | --- | --- | --- |\n",
    );
    let mut rows: Vec<_> = REGISTRY.iter().collect();
    rows.sort_by_key(|m| (m.kind.name(), m.code));
    for m in rows {
        let code = if m.code & 0xffff_f000 == OMG_VMCID {
            format!("OMG {}", m.code & 0xfff)
        } else {
            format!("`{:#010x}`", m.code)
        };
        out.push_str(&format!(
            "| `{}` | {code} | `{}` | {} |\n",
            m.kind.name(),
            m.name,
            m.meaning
        ));
    }
    out
}

#[test]
fn the_documented_table_is_the_registry() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/MINOR_CODES.md");
    let text = render();
    if std::env::var_os("RTORB_BLESS").is_some_and(|v| v == "1") {
        std::fs::write(&path, &text).expect("write docs/MINOR_CODES.md");
        return;
    }
    let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        on_disk == text,
        "{} differs from the registry in rtorb_giop::minor; run \
         `RTORB_BLESS=1 cargo test -p rtorb-giop --test minor_table`",
        path.display()
    );
}
