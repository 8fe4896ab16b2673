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

/// Analyses `text` (no preprocessing beyond pragmas) and returns a lookup
/// of repository ids by scoped name.
fn ids_of(text: &str) -> impl Fn(&[&str]) -> String {
    let spec = parse(text, &SingleFile::new("prefixes.idl")).expect("parses");
    let m = analyze(&spec).unwrap_or_else(|e| panic!("{e:?}"));
    move |n: &[&str]| m.decl(get(&m, n)).repository_id.clone().expect("id")
}

#[test]
fn typeprefix_after_the_contents_applies_to_them() {
    let after = ids_of(r#"module M { struct S { long x; }; typeprefix M "example.org"; };"#);
    let before = ids_of(r#"module M { typeprefix M "example.org"; struct S { long x; }; };"#);
    let outside = ids_of(r#"module M { struct S { long x; }; }; typeprefix M "example.org";"#);
    for id in [&after, &before, &outside] {
        assert_eq!(id(&["M"]), "IDL:example.org/M:1.0");
        assert_eq!(id(&["M", "S"]), "IDL:example.org/M/S:1.0");
    }
}

#[test]
fn typeprefix_covers_every_opening_of_a_module() {
    let id = ids_of(
        r#"
        module N { struct A { long x; }; };
        module N { struct B { long x; }; typeprefix N "n.org"; };
        module N { struct C { long x; }; };
        "#,
    );
    assert_eq!(id(&["N", "A"]), "IDL:n.org/N/A:1.0");
    assert_eq!(id(&["N", "B"]), "IDL:n.org/N/B:1.0");
    assert_eq!(id(&["N", "C"]), "IDL:n.org/N/C:1.0");
}

#[test]
fn typeprefix_covers_nested_scopes_and_yields_to_an_inner_one() {
    let id = ids_of(
        r#"
        module Outer {
            module Mid { interface I { void op(); attribute long a; }; };
            module Own { struct T { long x; }; };
            typeprefix Own "own.org";
        };
        typeprefix Outer "outer.org";
        "#,
    );
    assert_eq!(id(&["Outer", "Mid"]), "IDL:outer.org/Outer/Mid:1.0");
    assert_eq!(id(&["Outer", "Mid", "I"]), "IDL:outer.org/Outer/Mid/I:1.0");
    assert_eq!(id(&["Outer", "Own"]), "IDL:own.org/Own:1.0");
    assert_eq!(id(&["Outer", "Own", "T"]), "IDL:own.org/Own/T:1.0");
}

#[test]
fn typeprefix_gives_operations_and_attributes_their_ids() {
    let text =
        r#"module M { interface I { void op(); attribute long a; }; }; typeprefix M "p.org";"#;
    let spec = parse(text, &SingleFile::new("ops.idl")).expect("parses");
    let m = analyze(&spec).unwrap_or_else(|e| panic!("{e:?}"));
    let DeclKind::Interface(i) = &m.decl(get(&m, &["M", "I"])).kind else {
        panic!("not an interface");
    };
    assert_eq!(i.operations[0].repository_id, "IDL:p.org/M/I/op:1.0");
    assert_eq!(i.attributes[0].repository_id, "IDL:p.org/M/I/a:1.0");
}

#[test]
fn typeprefix_takes_precedence_over_pragma_prefix() {
    let id = ids_of(
        "#pragma prefix \"pragma.org\"\n\
         module P { struct A { long x; }; typeprefix P \"type.org\";\n\
         #pragma prefix \"inner.org\"\n\
         struct B { long x; }; };\n\
         module Q { struct C { long x; }; };\n",
    );
    assert_eq!(id(&["P"]), "IDL:type.org/P:1.0");
    assert_eq!(id(&["P", "A"]), "IDL:type.org/P/A:1.0");
    assert_eq!(id(&["P", "B"]), "IDL:type.org/P/B:1.0");
    // Outside the typeprefix's scope the pragma still rules.
    assert_eq!(id(&["Q", "C"]), "IDL:pragma.org/Q/C:1.0");
}

#[test]
fn typeprefix_leaves_explicit_ids_alone() {
    let id = ids_of(
        "module M { struct S { long x; }; struct T { long y; };\n\
         typeid S \"IDL:chosen/S:2.0\";\n\
         #pragma ID T \"LOCAL:t\"\n\
         typeprefix M \"example.org\"; };\n",
    );
    assert_eq!(id(&["M", "S"]), "IDL:chosen/S:2.0");
    assert_eq!(id(&["M", "T"]), "LOCAL:t");
}

#[test]
fn typeprefix_covers_forward_declarations() {
    let id =
        ids_of(r#"module M { interface F; interface F { void g(); }; }; typeprefix M::F "f.org";"#);
    assert_eq!(id(&["M", "F"]), "IDL:f.org/F:1.0");
    assert_eq!(id(&["M"]), "IDL:M:1.0");
}

/// A parameter may be named like its operation, in any case (omniidl
/// accepts it too): the rule against redefining an enclosing scope's name
/// is for scopes that are declarations, which an operation is not.
#[test]
fn a_parameter_may_be_named_like_its_operation() {
    for text in [
        "interface I { void op(in long op); };",
        "interface I { void op(in long OP); };",
        "interface I { void f(in long i); };",
        "valuetype V { factory make(in long v); };",
    ] {
        let spec = parse(text, &SingleFile::new("p.idl")).expect("parses");
        assert!(analyze(&spec).is_ok(), "{text}");
    }
}

/// Names that do not collide, as omniidl has it too: an operation
/// inherited under the name of the interface inheriting it is not
/// declared there; an interface supported twice over (by a value and its
/// base) is inherited once; a value's member may take the name of an
/// interface it supports.
#[test]
fn inherited_and_supported_names_that_do_not_collide() {
    for text in [
        "interface B { void a(); }; interface A : B {};",
        "interface I { void f(); }; valuetype A supports I {}; valuetype B : A supports I {};",
        "interface I { void f(); }; valuetype V supports I { public long i; };",
    ] {
        let spec = parse(text, &SingleFile::new("p.idl")).expect("parses");
        assert!(analyze(&spec).is_ok(), "{text}");
    }
}
