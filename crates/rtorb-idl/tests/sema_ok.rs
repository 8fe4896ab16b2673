//! A correct specification using every construct: names resolve, constants
//! evaluate, repository ids follow the prefixes and pragmas.

use rtorb_idl::lexer::SingleFile;
use rtorb_idl::parser::parse;
use rtorb_idl::sema::*;

fn model() -> Model {
    let text = include_str!("sema/ok/constructs.idl");
    let spec = parse(text, &SingleFile::new("constructs.idl")).expect("parses");
    analyze(&spec).unwrap_or_else(|e| {
        panic!(
            "{}",
            e.iter()
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join("\n")
        )
    })
}

fn get(m: &Model, name: &[&str]) -> DeclId {
    m.lookup(name).unwrap_or_else(|| panic!("no {name:?}"))
}

fn value(m: &Model, name: &[&str]) -> ConstValue {
    match &m.decl(get(m, name)).kind {
        DeclKind::Const(c) => c.value.clone(),
        other => panic!("{other:?}"),
    }
}

#[test]
fn constants_evaluate() {
    let m = model();
    assert_eq!(value(&m, &["Outer", "A"]), ConstValue::Long(13));
    assert_eq!(value(&m, &["Outer", "B"]), ConstValue::UShort(65535));
    assert_eq!(value(&m, &["Outer", "C"]), ConstValue::Long(-1));
    assert_eq!(value(&m, &["Outer", "D"]), ConstValue::LongLong(1 << 40));
    assert_eq!(value(&m, &["Outer", "F"]), ConstValue::Double(3.0));
    assert_eq!(
        value(&m, &["Outer", "X"]),
        ConstValue::Fixed(FixedValue {
            digits: 25,
            scale: 1
        })
    );
    assert_eq!(value(&m, &["Outer", "CH"]), ConstValue::Char('z'));
    assert_eq!(
        value(&m, &["Outer", "S"]),
        ConstValue::String("abcd".into())
    );
    assert_eq!(value(&m, &["Outer", "T"]), ConstValue::Boolean(true));
    assert_eq!(
        value(&m, &["Outer", "FAV"]),
        ConstValue::Enumerator(get(&m, &["Outer", "green"]))
    );
}

#[test]
fn repository_ids_follow_prefixes_and_pragmas() {
    let m = model();
    let id = |n: &[&str]| m.decl(get(&m, n)).repository_id.clone().expect("id");
    assert_eq!(id(&["Outer"]), "IDL:rtorb.test/Outer:1.0");
    assert_eq!(
        id(&["Outer", "Derived"]),
        "IDL:rtorb.test/Outer/Derived:1.0"
    );
    assert_eq!(id(&["Outer", "Inner", "Again"]), "IDL:other.org/Again:1.0");
    assert_eq!(
        id(&["Outer", "Inner", "More"]),
        "IDL:rtorb.test/Outer/Inner/More:1.0"
    );
    assert_eq!(id(&["Outer", "Late"]), "IDL:rtorb.test/Outer/Late:1.0");
    assert_eq!(id(&["Esc", "L"]), "IDL:tp.org/Esc/L:1.0");
    assert_eq!(id(&["Versioned"]), "IDL:rtorb.test/Versioned:2.5");
    assert_eq!(id(&["Named"]), "LOCAL:named");
    assert_eq!(m.decl(get(&m, &["Outer", "red"])).repository_id, None);
}

#[test]
fn names_resolve_to_declarations() {
    let m = model();
    let node = get(&m, &["Outer", "Node"]);
    let DeclKind::Struct(s) = &m.decl(node).kind else {
        panic!()
    };
    let seq = get(&m, &["Outer", "NodeSeq"]);
    assert_eq!(s.members[1].ty, Type::Named(seq));
    // The sequence names the definition, not the forward declaration.
    let DeclKind::Alias(a) = &m.decl(seq).kind else {
        panic!()
    };
    assert_eq!(
        a.target,
        Type::Sequence {
            element: Box::new(Type::Named(node)),
            bound: None
        }
    );
    let again = get(&m, &["Outer", "Inner", "Again"]);
    let DeclKind::Alias(a) = &m.decl(again).kind else {
        panic!()
    };
    assert_eq!(a.target, Type::Named(get(&m, &["Outer", "Total"])));
    assert_eq!(m.unalias(&a.target), &Type::Long);
    let DeclKind::Alias(tc) = &m.decl(get(&m, &["TC"])).kind else {
        panic!()
    };
    assert_eq!(tc.target, Type::TypeCode);
    let DeclKind::Alias(mx) = &m.decl(get(&m, &["Outer", "Matrix"])).kind else {
        panic!()
    };
    assert_eq!(
        mx.target,
        Type::Array {
            element: Box::new(Type::Long),
            dims: vec![2, 13]
        }
    );
    let DeclKind::Alias(b) = &m.decl(get(&m, &["Outer", "Bounded"])).kind else {
        panic!()
    };
    assert_eq!(b.target, Type::String(Some(13)));
}

#[test]
fn interfaces_list_inherited_operations() {
    let m = model();
    let base = get(&m, &["Outer", "Base"]);
    let derived = get(&m, &["Outer", "Derived"]);
    let DeclKind::Interface(late) = &m.decl(get(&m, &["Outer", "Late"])).kind else {
        panic!()
    };
    assert_eq!(late.bases, [derived]);
    assert_eq!(late.all_bases, [derived, base]);
    let ops: Vec<(&str, bool, DeclId)> = late
        .operations
        .iter()
        .map(|o| (o.name.as_str(), o.inherited, o.defined_in))
        .collect();
    assert_eq!(ops, [("get", true, derived), ("ping", true, base)]);
    assert_eq!(late.attributes[0].name, "n");
    assert_eq!(late.operations[1].raises, [get(&m, &["Outer", "Failed"])]);
    let DeclKind::Interface(d) = &m.decl(derived).kind else {
        panic!()
    };
    assert!(!d.operations[0].inherited);
    assert_eq!(d.operations[0].params[1].direction, Direction::Out);
}

#[test]
fn unions_and_modules() {
    let m = model();
    let DeclKind::Union(u) = &m.decl(get(&m, &["Outer", "Choice"])).kind else {
        panic!()
    };
    assert_eq!(u.discriminator, Type::Named(get(&m, &["Outer", "Color"])));
    assert_eq!(
        u.cases[1].labels,
        [
            ConstValue::Enumerator(get(&m, &["Outer", "green"])),
            ConstValue::Enumerator(get(&m, &["Outer", "blue"]))
        ]
    );
    assert!(u.covers_all && u.default_case.is_none());
    // The reopened module is one declaration with both openings' contents.
    let outer = get(&m, &["Outer"]);
    assert_eq!(m.top.iter().filter(|&&t| t == outer).count(), 1);
    let DeclKind::Module(md) = &m.decl(outer).kind else {
        panic!()
    };
    assert_eq!(md.contents.last(), Some(&get(&m, &["Outer", "Late"])));
}
