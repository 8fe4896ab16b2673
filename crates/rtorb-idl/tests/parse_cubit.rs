//! The project's Cubit benchmark interface parses into the expected tree.

use rtorb_idl::ast::*;
use rtorb_idl::lexer::SingleFile;
use rtorb_idl::parser::parse;

const CUBIT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../idl/cubit.idl");

#[test]
fn cubit_idl_parses() {
    let text = std::fs::read_to_string(CUBIT).unwrap_or_else(|e| panic!("{CUBIT}: {e}"));
    let spec = parse(&text, &SingleFile::new("cubit.idl")).expect("cubit.idl parses");
    assert_eq!(spec.definitions.len(), 1);
    let Definition::Interface(cubit) = &spec.definitions[0] else {
        panic!("{:?}", spec.definitions[0])
    };
    assert_eq!(cubit.name.name, "Cubit");
    assert_eq!(cubit.kind, InterfaceKind::Plain);
    assert!(cubit.inherits.is_empty());
    assert_eq!(cubit.location.to_string(), "cubit.idl:10:1");

    let ops: Vec<&Operation> = cubit
        .body
        .iter()
        .filter_map(|e| match e {
            Export::Operation(op) => Some(op),
            _ => None,
        })
        .collect();
    let names: Vec<&str> = ops.iter().map(|o| o.name.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "cube_void",
            "cube_octet",
            "cube_short",
            "cube_long",
            "cube_struct",
            "cube_long_sequence",
            "cube_octet_sequence",
            "shutdown"
        ]
    );
    assert!(ops[0].return_type.is_none() && ops[0].params.is_empty() && !ops[0].oneway);
    let octet = TypeKind::Base(BaseType::Octet);
    assert_eq!(ops[1].return_type.as_ref().map(|t| &t.kind), Some(&octet));
    assert_eq!(ops[1].params.len(), 1);
    assert_eq!(ops[1].params[0].direction, Direction::In);
    assert_eq!(ops[1].params[0].type_spec.kind, octet);
    assert_eq!(ops[1].params[0].name.name, "o");
    assert_eq!(
        ops[2].params[0].type_spec.kind,
        TypeKind::Base(BaseType::Short)
    );
    assert_eq!(
        ops[3].params[0].type_spec.kind,
        TypeKind::Base(BaseType::Long)
    );
    assert!(matches!(&ops[4].params[0].type_spec.kind, TypeKind::Scoped(n) if n.parts == ["Many"]));
    assert!(ops[7].oneway && ops[7].return_type.is_none());
    assert_eq!(ops[7].name.location.to_string(), "cubit.idl:25:15");

    let Export::Type(TypeDcl::Struct(many)) = &cubit.body[4] else {
        panic!("{:?}", cubit.body[4])
    };
    assert_eq!(many.name.name, "Many");
    let members: Vec<(&str, &TypeKind)> = many
        .members
        .iter()
        .map(|m| (m.declarators[0].name.name.as_str(), &m.type_spec.kind))
        .collect();
    assert_eq!(
        members,
        [
            ("o", &TypeKind::Base(BaseType::Octet)),
            ("l", &TypeKind::Base(BaseType::Long)),
            ("s", &TypeKind::Base(BaseType::Short))
        ]
    );
    let Export::Type(TypeDcl::Typedef(seq)) = &cubit.body[6] else {
        panic!()
    };
    assert_eq!(seq.declarators[0].name.name, "long_seq");
    let TypeKind::Sequence { element, bound } = &seq.type_spec.kind else {
        panic!()
    };
    assert_eq!(element.kind, TypeKind::Base(BaseType::Long));
    assert!(bound.is_none());
    assert_eq!(cubit.body.len(), 11);
}
