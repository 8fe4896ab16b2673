//! The Rust source of an operation table, golden for Cubit (the same text
//! is compiled and looked up in `crates/rtorb/tests/op_table_cubit.rs`),
//! and the lists no table is built for.

use rtorb_idl::phf::{PerfectHash, PhfError};

/// The operations of `Cubit` (the workspace's `idl/cubit.idl`), in
/// declaration order.
const CUBIT: [&str; 8] = [
    "cube_void",
    "cube_octet",
    "cube_short",
    "cube_long",
    "cube_struct",
    "cube_long_sequence",
    "cube_octet_sequence",
    "shutdown",
];

const CUBIT_OPS: &str = r#"static CUBIT_OPS: ::rtorb::codegen::OpTable<'static> = ::rtorb::codegen::OpTable {
    seed: 0xdde61a46db7dd424,
    disp: &[0, 69],
    names: &[
        "cube_void",
        "cube_struct",
        "cube_octet_sequence",
        "shutdown",
        "cube_short",
        "cube_octet",
        "cube_long",
        "cube_long_sequence",
    ],
    index: &[0, 4, 6, 7, 2, 1, 3, 5],
};
"#;

#[test]
fn cubit_table_renders_as_the_golden_static() {
    let table = PerfectHash::generate(&CUBIT).unwrap();
    assert_eq!(table.render_static("CUBIT_OPS"), CUBIT_OPS);
    assert_eq!(table.seed(), 0xdde6_1a46_db7d_d424);
    assert_eq!(table.displacements(), &[0, 69]);
    assert_eq!(table.slots(), &[0, 4, 6, 7, 2, 1, 3, 5]);
    for (i, name) in CUBIT.iter().enumerate() {
        assert_eq!(table.lookup(name.as_bytes()), Some(i));
        assert_eq!(
            table
                .slot_names()
                .nth(table.slots().iter().position(|&s| s == i).unwrap()),
            Some(*name)
        );
    }
    assert_eq!(table.lookup(b"cube_double"), None);
    assert_eq!(table.lookup(b""), None);
}

#[test]
fn long_lists_of_numbers_wrap_at_sixteen() {
    let names: Vec<String> = (0..20).map(|i| format!("op_{i}")).collect();
    let text = PerfectHash::generate(&names)
        .unwrap()
        .render_static("TWENTY");
    let index = text.split("index: &[\n").nth(1).unwrap();
    let lines: Vec<&str> = index.lines().take(3).collect();
    assert_eq!(lines[0].split(", ").count(), 16);
    assert_eq!(lines[1].split(", ").count(), 4);
    assert_eq!(lines[2], "    ],");
    assert!(text.ends_with("    ],\n};\n"));
}

#[test]
fn empty_interface_renders_empty_lists() {
    let table = PerfectHash::generate::<&str>(&[]).unwrap();
    let text = table.render_static("NONE");
    assert!(text.contains("    disp: &[],\n    names: &[],\n    index: &[],\n"));
    assert_eq!(table.lookup(b"anything"), None);
    assert_eq!(table.lookup(b""), None);
}

#[test]
fn names_are_rendered_as_escaped_literals() {
    let table = PerfectHash::generate(&["say \"hi\"", "back\\slash"]).unwrap();
    let text = table.render_static("ODD");
    assert!(text.contains(r#"        "say \"hi\"","#), "{text}");
    assert!(text.contains(r#"        "back\\slash","#), "{text}");
}

#[test]
fn a_name_listed_twice_is_refused() {
    assert_eq!(
        PerfectHash::generate(&["a", "_get_x", "a"]),
        Err(PhfError::DuplicateOperation("a".to_owned()))
    );
}
