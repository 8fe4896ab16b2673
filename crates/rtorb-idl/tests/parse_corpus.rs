//! The parser on a file using every construct, on wrong inputs, and on
//! random token soup.

use proptest::prelude::*;
use rtorb_idl::ast::*;
use rtorb_idl::lexer::{SingleFile, TokenKind, tokenize};
use rtorb_idl::parser::parse;

fn parse_str(text: &str) -> Result<Specification, Vec<rtorb_idl::Diagnostic>> {
    parse(text, &SingleFile::new("t.idl"))
}

fn corpus() -> Specification {
    let text = include_str!("parse/constructs.idl");
    match parse(text, &SingleFile::new("constructs.idl")) {
        Ok(s) => s,
        Err(errors) => panic!(
            "{}",
            errors
                .iter()
                .map(|e| e.to_string())
                .collect::<Vec<_>>()
                .join("\n")
        ),
    }
}

fn module_body(spec: &Specification, index: usize) -> &[Definition] {
    match &spec.definitions[index] {
        Definition::Module(m) => &m.definitions,
        other => panic!("expected a module, got {other:?}"),
    }
}

fn find<'a>(defs: &'a [Definition], name: &str) -> &'a Definition {
    defs.iter()
        .find(|d| {
            let n = match d {
                Definition::Module(m) => &m.name,
                Definition::Interface(i) => &i.name,
                Definition::InterfaceForward(i) => &i.name,
                Definition::ValueType(v) => &v.name,
                Definition::ValueBox(v) => &v.name,
                Definition::ValueForward(v) => &v.name,
                Definition::Type(TypeDcl::Struct(s)) => &s.name,
                Definition::Type(TypeDcl::Union(u)) => &u.name,
                Definition::Type(TypeDcl::Enum(e)) => &e.name,
                Definition::Type(TypeDcl::Native(n)) => &n.name,
                Definition::Type(TypeDcl::StructForward(f) | TypeDcl::UnionForward(f)) => &f.name,
                Definition::Type(TypeDcl::Typedef(t)) => &t.declarators[0].name,
                Definition::Const(c) => &c.name,
                Definition::Except(e) => &e.name,
                _ => return false,
            };
            n.name == name
        })
        .unwrap_or_else(|| panic!("no definition `{name}`"))
}

fn int(v: u64) -> ExprKind {
    ExprKind::Literal(Literal::Integer(v))
}

#[test]
fn top_level_pragma_and_reopened_module() {
    let spec = corpus();
    assert_eq!(spec.definitions.len(), 3);
    match &spec.definitions[0] {
        Definition::Pragma(p) => {
            assert_eq!(p.kind, PragmaKind::Prefix("rtorb.test".into()));
            assert_eq!((p.location.line, p.location.column), (1, 1));
        }
        other => panic!("{other:?}"),
    }
    let Definition::Module(m) = &spec.definitions[1] else {
        panic!()
    };
    assert_eq!(m.name.name, "Corpus");
    assert_eq!(m.doc.as_deref(), Some("The whole grammar."));
    assert_eq!((m.location.line, m.location.column), (3, 1));
    let Definition::Module(again) = &spec.definitions[2] else {
        panic!()
    };
    assert_eq!(again.name.name, "Corpus");
}

#[test]
fn constant_expressions() {
    let spec = corpus();
    let body = module_body(&spec, 1);
    let Definition::Const(size) = find(body, "SIZE") else {
        panic!()
    };
    assert_eq!(size.type_spec.kind, TypeKind::Base(BaseType::Long));
    // `|` is the loosest operator: (... ) | (0x10 ^ (010 & (~1 << 2 >> 1)))
    let ExprKind::Binary {
        op: BinaryOp::Or,
        rhs,
        ..
    } = &size.value.kind
    else {
        panic!("{:?}", size.value)
    };
    let ExprKind::Binary {
        op: BinaryOp::Xor,
        lhs: hex,
        rhs: and,
    } = &rhs.kind
    else {
        panic!()
    };
    assert_eq!(hex.kind, int(16));
    let ExprKind::Binary {
        op: BinaryOp::And,
        lhs: oct,
        rhs: shifts,
    } = &and.kind
    else {
        panic!()
    };
    assert_eq!(oct.kind, int(8));
    let ExprKind::Binary {
        op: BinaryOp::Shr,
        lhs: shl,
        rhs: one,
    } = &shifts.kind
    else {
        panic!()
    };
    assert_eq!(one.kind, int(1));
    let ExprKind::Binary {
        op: BinaryOp::Shl,
        lhs: not,
        ..
    } = &shl.kind
    else {
        panic!()
    };
    assert!(matches!(
        &not.kind,
        ExprKind::Unary {
            op: UnaryOp::Not,
            ..
        }
    ));

    let Definition::Const(big) = find(body, "BIG") else {
        panic!()
    };
    assert_eq!(big.type_spec.kind, TypeKind::Base(BaseType::ULongLong));
    assert_eq!(big.value.kind, int(u64::MAX));
    let Definition::Const(pi) = find(body, "PI") else {
        panic!()
    };
    assert_eq!(pi.value.kind, ExprKind::Literal(Literal::Float(0.25)));
    let Definition::Const(price) = find(body, "PRICE") else {
        panic!()
    };
    assert_eq!(price.type_spec.kind, TypeKind::FixedAny);
    assert_eq!(
        price.value.kind,
        ExprKind::Literal(Literal::Fixed("12.50".into()))
    );
    let Definition::Const(c) = find(body, "C") else {
        panic!()
    };
    assert_eq!(c.value.kind, ExprKind::Literal(Literal::Char('A')));
    let Definition::Const(wc) = find(body, "WC") else {
        panic!()
    };
    assert_eq!(wc.value.kind, ExprKind::Literal(Literal::WChar('é')));
    let Definition::Const(g) = find(body, "GREETING") else {
        panic!()
    };
    assert_eq!(
        g.value.kind,
        ExprKind::Literal(Literal::String("hello, world\n".into()))
    );
    let Definition::Const(w) = find(body, "WIDE") else {
        panic!()
    };
    assert_eq!(w.type_spec.kind, TypeKind::WString(None));
    assert_eq!(
        w.value.kind,
        ExprKind::Literal(Literal::WString("wide".into()))
    );
    let Definition::Const(yes) = find(body, "YES") else {
        panic!()
    };
    assert_eq!(yes.value.kind, ExprKind::Literal(Literal::Boolean(true)));
    let Definition::Const(o) = find(body, "O") else {
        panic!()
    };
    let ExprKind::Unary {
        op: UnaryOp::Neg,
        operand,
    } = &o.value.kind
    else {
        panic!()
    };
    assert!(matches!(
        &operand.kind,
        ExprKind::Unary {
            op: UnaryOp::Neg,
            ..
        }
    ));
    let Definition::Const(r) = find(body, "REF") else {
        panic!()
    };
    let ExprKind::Binary {
        op: BinaryOp::Add,
        lhs,
        rhs,
    } = &r.value.kind
    else {
        panic!()
    };
    let ExprKind::Name(abs) = &lhs.kind else {
        panic!()
    };
    assert!(abs.absolute);
    assert_eq!(abs.parts, ["Corpus", "SIZE"]);
    assert_eq!(abs.to_string(), "::Corpus::SIZE");
    let ExprKind::Name(rel) = &rhs.kind else {
        panic!()
    };
    assert!(!rel.absolute);
    assert_eq!((rel.location.line, rel.location.column), (14, 37));
}

#[test]
fn typedefs_and_template_types() {
    let spec = corpus();
    let body = module_body(&spec, 1);
    let Definition::Type(TypeDcl::Typedef(m)) = find(body, "Matrix") else {
        panic!()
    };
    assert_eq!(m.declarators.len(), 2);
    assert_eq!(m.declarators[0].array_sizes.len(), 2);
    assert_eq!(m.declarators[0].array_sizes[0].kind, int(3));
    assert_eq!(m.declarators[1].name.name, "Single");
    assert!(m.declarators[1].array_sizes.is_empty());

    let Definition::Type(TypeDcl::Typedef(n)) = find(body, "Nested") else {
        panic!()
    };
    let TypeKind::Sequence {
        element,
        bound: None,
    } = &n.type_spec.kind
    else {
        panic!()
    };
    let TypeKind::Sequence {
        element: inner,
        bound: Some(b),
    } = &element.kind
    else {
        panic!()
    };
    assert_eq!(inner.kind, TypeKind::Base(BaseType::Long));
    assert_eq!(b.kind, int(4));

    let Definition::Type(TypeDcl::Typedef(n)) = find(body, "Names") else {
        panic!()
    };
    let TypeKind::Sequence { element, .. } = &n.type_spec.kind else {
        panic!()
    };
    assert!(matches!(&element.kind, TypeKind::String(Some(b)) if b.kind == int(8)));
    let Definition::Type(TypeDcl::Typedef(f)) = find(body, "Money") else {
        panic!()
    };
    let TypeKind::Fixed { digits, scale } = &f.type_spec.kind else {
        panic!()
    };
    assert_eq!((digits.kind.clone(), scale.kind.clone()), (int(9), int(2)));
    let Definition::Type(TypeDcl::Typedef(w)) = find(body, "WName") else {
        panic!()
    };
    assert!(matches!(&w.type_spec.kind, TypeKind::WString(Some(_))));
    for (name, base) in [
        ("us", BaseType::UShort),
        ("ul", BaseType::ULong),
        ("ll", BaseType::LongLong),
        ("ld", BaseType::LongDouble),
        ("AnyT", BaseType::Any),
        ("Obj", BaseType::Object),
        ("VB", BaseType::ValueBase),
    ] {
        let Definition::Type(TypeDcl::Typedef(t)) = find(body, name) else {
            panic!()
        };
        assert_eq!(t.type_spec.kind, TypeKind::Base(base), "{name}");
    }
    assert!(matches!(
        find(body, "Fwd"),
        Definition::Type(TypeDcl::StructForward(_))
    ));
    assert!(matches!(
        find(body, "UFwd"),
        Definition::Type(TypeDcl::UnionForward(_))
    ));
    assert!(matches!(
        find(body, "Handle"),
        Definition::Type(TypeDcl::Native(_))
    ));
}

#[test]
fn constructed_types_and_doc_comments() {
    let spec = corpus();
    let body = module_body(&spec, 1);
    let Definition::Type(TypeDcl::Struct(p)) = find(body, "Point") else {
        panic!()
    };
    assert_eq!(p.doc.as_deref(), Some("A point.\nIn two dimensions."));
    assert_eq!(p.members.len(), 3);
    assert_eq!(p.members[0].doc.as_deref(), Some("X coordinate."));
    assert_eq!(p.members[0].declarators.len(), 2);
    let TypeKind::Struct(inner) = &p.members[1].type_spec.kind else {
        panic!()
    };
    assert_eq!(inner.name.name, "Inner");
    let TypeKind::Enum(color) = &p.members[2].type_spec.kind else {
        panic!()
    };
    assert_eq!(color.enumerators.len(), 2);

    let Definition::Type(TypeDcl::Enum(k)) = find(body, "Kind") else {
        panic!()
    };
    assert_eq!(k.enumerators[0].doc.as_deref(), Some("First."));
    assert_eq!(k.enumerators[1].name.name, "TWO");

    let Definition::Type(TypeDcl::Union(u)) = find(body, "Choice") else {
        panic!()
    };
    assert!(matches!(&u.switch_type.kind, TypeKind::Scoped(n) if n.parts == ["Kind"]));
    assert_eq!(u.cases.len(), 2);
    assert_eq!(u.cases[0].labels.len(), 2);
    assert_eq!(u.cases[0].declarator.name.name, "number");
    assert!(matches!(u.cases[1].labels[0], CaseLabel::Default(_)));
    let TypeKind::Union(sub) = &u.cases[1].type_spec.kind else {
        panic!()
    };
    assert_eq!(sub.switch_type.kind, TypeKind::Base(BaseType::Boolean));

    let Definition::Except(e) = find(body, "Failed") else {
        panic!()
    };
    assert_eq!(e.members.len(), 1);
    let Definition::Except(e) = find(body, "Empty") else {
        panic!()
    };
    assert!(e.members.is_empty());
}

#[test]
fn interfaces() {
    let spec = corpus();
    let body = module_body(&spec, 1);
    let Definition::InterfaceForward(f) = find(body, "Shape") else {
        panic!()
    };
    assert_eq!(f.kind, InterfaceKind::Abstract);
    let Definition::InterfaceForward(f) = find(body, "Local") else {
        panic!()
    };
    assert_eq!(f.kind, InterfaceKind::Local);
    let Definition::Interface(d) = find(body, "Derived") else {
        panic!()
    };
    assert_eq!(d.kind, InterfaceKind::Plain);
    assert_eq!(d.inherits.len(), 2);
    assert!(d.inherits[1].absolute);
    assert_eq!(d.body.len(), 9);
    let Export::Attribute(count) = &d.body[0] else {
        panic!()
    };
    assert!(count.readonly);
    assert_eq!(count.get_raises[0].parts, ["Failed"]);
    let Export::Attribute(name) = &d.body[1] else {
        panic!()
    };
    assert!(!name.readonly);
    assert_eq!(name.get_raises[0].parts, ["Failed"]);
    assert_eq!(name.set_raises[0].parts, ["Empty"]);
    let Export::Attribute(ab) = &d.body[2] else {
        panic!()
    };
    assert_eq!(ab.names.len(), 2);
    let Export::Operation(op) = &d.body[3] else {
        panic!()
    };
    assert!(!op.oneway);
    assert!(op.return_type.is_none());
    let dirs: Vec<_> = op.params.iter().map(|p| p.direction).collect();
    assert_eq!(dirs, [Direction::In, Direction::Out, Direction::InOut]);
    assert_eq!(op.params[1].type_spec.kind, TypeKind::String(None));
    assert_eq!(op.raises.len(), 2);
    assert_eq!(op.context, ["USER", "HOST*"]);
    let Export::Operation(fire) = &d.body[4] else {
        panic!()
    };
    assert!(fire.oneway);
    let Export::Operation(wh) = &d.body[5] else {
        panic!()
    };
    assert!(matches!(&wh.return_type, Some(t) if matches!(&t.kind, TypeKind::Scoped(_))));
    assert!(matches!(&d.body[6], Export::Type(TypeDcl::Typedef(_))));
    assert!(matches!(&d.body[7], Export::Const(_)));
    assert!(matches!(&d.body[8], Export::Except(_)));
}

#[test]
fn value_types() {
    let spec = corpus();
    let body = module_body(&spec, 1);
    let Definition::ValueBox(b) = find(body, "Boxed") else {
        panic!()
    };
    assert_eq!(b.type_spec.kind, TypeKind::Base(BaseType::Long));
    let Definition::ValueBox(b) = find(body, "BoxedSeq") else {
        panic!()
    };
    assert!(matches!(b.type_spec.kind, TypeKind::Sequence { .. }));
    let Definition::ValueForward(f) = find(body, "Fwd2") else {
        panic!()
    };
    assert!(!f.is_abstract);
    let Definition::ValueType(a) = find(body, "AbsV") else {
        panic!()
    };
    assert_eq!(a.kind, ValueKind::Abstract);
    let Definition::ValueType(n) = find(body, "Node") else {
        panic!()
    };
    assert_eq!(n.kind, ValueKind::Plain);
    assert!(n.truncatable);
    assert_eq!(n.inherits[0].parts, ["AbsV"]);
    assert_eq!(n.supports[0].parts, ["Base"]);
    assert_eq!(n.body.len(), 5);
    let ValueElement::State(s) = &n.body[0] else {
        panic!()
    };
    assert!(s.public);
    let ValueElement::State(s) = &n.body[1] else {
        panic!()
    };
    assert!(!s.public);
    let ValueElement::Factory(f) = &n.body[2] else {
        panic!()
    };
    assert_eq!(f.name.name, "create");
    assert_eq!(f.params.len(), 1);
    assert_eq!(f.raises.len(), 1);
    let ValueElement::Factory(f) = &n.body[3] else {
        panic!()
    };
    assert!(f.params.is_empty());
    assert!(matches!(
        &n.body[4],
        ValueElement::Export(Export::Operation(_))
    ));
    let Definition::ValueType(c) = find(body, "Custom") else {
        panic!()
    };
    assert_eq!(c.kind, ValueKind::Custom);
}

#[test]
fn typeid_typeprefix_and_pragmas() {
    let spec = corpus();
    let body = module_body(&spec, 1);
    let n = body.len();
    let Definition::TypeId(t) = &body[n - 4] else {
        panic!("{:?}", body[n - 4])
    };
    assert_eq!(t.name.parts, ["Point"]);
    assert_eq!(t.id, "IDL:corpus/Point:1.0");
    let Definition::TypePrefix(t) = &body[n - 3] else {
        panic!()
    };
    assert_eq!(t.prefix, "example.org");
    let Definition::Pragma(p) = &body[n - 2] else {
        panic!()
    };
    let PragmaKind::Id { name, id } = &p.kind else {
        panic!()
    };
    assert_eq!(
        (name.parts.as_slice(), id.as_str()),
        (&["Point".to_string()][..], "IDL:corpus/Point:2.0")
    );
    assert_eq!((p.location.line, p.location.column), (83, 1));
    let Definition::Pragma(p) = &body[n - 1] else {
        panic!()
    };
    assert!(matches!(
        &p.kind,
        PragmaKind::Version {
            major: 3,
            minor: 4,
            ..
        }
    ));
}

#[test]
fn escaped_identifiers() {
    let spec = parse_str("struct _struct { long _interface; };").expect("parses");
    let Definition::Type(TypeDcl::Struct(s)) = &spec.definitions[0] else {
        panic!()
    };
    assert_eq!(s.name.name, "struct");
    assert!(s.name.escaped);
    assert_eq!(s.members[0].declarators[0].name.name, "interface");
}

#[test]
fn pragma_inside_a_declaration_follows_it() {
    let spec = parse_str("struct S {\n#pragma prefix \"p\"\n long a; };\nconst long X = 1;")
        .expect("parses");
    assert!(matches!(
        &spec.definitions[0],
        Definition::Type(TypeDcl::Struct(_))
    ));
    assert!(matches!(&spec.definitions[1], Definition::Pragma(_)));
    assert!(matches!(&spec.definitions[2], Definition::Const(_)));
}

/// (input, expected errors as "line:col: message").
const WRONG: &[(&str, &[&str])] = &[
    (
        "module M {\n  struct S { long a; }\n};",
        &["3:1: expected `;` after struct declaration, found `}`"],
    ),
    (
        "interface I { void f(long x); };",
        &["1:22: expected a parameter direction (`in`, `out` or `inout`), found keyword `long`"],
    ),
    (
        "const long X = ;",
        &["1:16: expected an expression, found `;`"],
    ),
    (
        "typedef long;\nstruct T { short s };\nenum E { A, };",
        &[
            "1:13: expected an identifier for the declarator, found `;`",
            "2:20: expected `;` after member, found `}`",
            "3:13: expected an identifier in the enumerator list, found `}`",
        ],
    ),
    (
        "module M { const long x = 1; ",
        &["1:30: expected `}` to close the module, found end of file"],
    ),
    ("}", &["1:1: expected a definition, found `}`"]),
    (
        "Interface I {};",
        &[
            "1:1: identifier `Interface` collides with keyword `interface` (IDL keywords are case-insensitive)",
            "1:1: expected a definition, found identifier `Interface`",
        ],
    ),
    (
        "component C { };",
        &["1:1: CORBA Component Model constructs are not supported: `component`"],
    ),
    (
        "home H manages C { };",
        &["1:1: CORBA Component Model constructs are not supported: `home`"],
    ),
    (
        "const char c = 'ab';",
        &["1:16: character literal holds more than one character"],
    ),
    (
        "const char c = '\\u0041';",
        &["1:17: `\\u` escapes are only allowed in wide literals"],
    ),
    (
        "const string s = \"abc;\n",
        &[
            "1:18: unterminated string literal",
            "2:1: expected `;` after constant declaration, found end of file",
        ],
    ),
    (
        "const long x = 09;",
        &["1:16: invalid digit in octal literal `09`"],
    ),
    (
        "const long x = 99999999999999999999;",
        &["1:16: integer literal is too large"],
    ),
    ("/* open", &["1:1: unterminated comment"]),
    (
        "const long x = 1 $ 2;",
        &[
            "1:18: unexpected character `$`",
            "1:20: expected `;` after constant declaration, found integer literal",
        ],
    ),
    (
        "#include <x.idl>",
        &["1:1: unexpected preprocessor directive `#include` (the input must be preprocessed)"],
    ),
    (
        "#pragma ID \"x\"",
        &["1:1: expected a scoped name after `#pragma ID`"],
    ),
    (
        "union U switch (long) { long x; };",
        &["1:25: expected `case` or `default` in the union body, found keyword `long`"],
    ),
    (
        "interface A : { };",
        &["1:15: expected an identifier in the inheritance list, found `{`"],
    ),
    (
        "typedef sequence<long x;",
        &["1:23: expected `>` to close the sequence type, found identifier `x`"],
    ),
];

#[test]
fn wrong_inputs_report_exact_errors() {
    for (input, expected) in WRONG {
        let errors = parse_str(input).expect_err(input);
        let got: Vec<String> = errors
            .iter()
            .map(|e| {
                assert_eq!(&*e.location.file, "t.idl");
                format!("{}:{}: {}", e.location.line, e.location.column, e.message)
            })
            .collect();
        assert_eq!(&got, expected, "for input {input:?}");
    }
}

#[test]
fn recovery_reports_several_errors() {
    let text = "module M {\n  struct A { long };\n  struct B { long b; };\n  const long C = ;\n  interface I { void f(in long); };\n};\n";
    let errors = parse_str(text).expect_err("errors");
    let at: Vec<_> = errors
        .iter()
        .map(|e| (e.location.line, e.location.column))
        .collect();
    assert_eq!(at, [(2, 19), (4, 18), (5, 31)]);
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let depth = 10_000;
    let modules = "module m { ".repeat(depth) + &"};".repeat(depth);
    let errors = parse_str(&modules).expect_err("too deep");
    assert!(
        errors[0].message.starts_with("nesting is deeper than"),
        "{}",
        errors[0]
    );
    let expr = format!(
        "const long x = {}1{};",
        "(".repeat(depth),
        ")".repeat(depth)
    );
    let minus = format!("const long x = {}1;", "-".repeat(depth));
    let seq = format!(
        "typedef {}long{} t;",
        "sequence<".repeat(depth),
        ">".repeat(depth)
    );
    for (what, source) in [
        ("parentheses", expr),
        ("minus signs", minus),
        ("sequences", seq),
    ] {
        let errors = parse_str(&source).expect_err(what);
        assert!(
            errors[0].message.starts_with("nesting is deeper than"),
            "{what}: {}",
            errors[0]
        );
    }
    // Moderate nesting is fine.
    let ok = "module m { ".repeat(20) + "const long x = ((((1))));" + &"};".repeat(20);
    assert!(parse_str(&ok).is_ok());
}

#[test]
fn lexer_tokens_and_locations() {
    let (tokens, errors) = tokenize(
        "\tlong _x = 0x1F + 017 + 1.5e3 + 2.5d;\n  L'\\x41' '\\101' '\\n' \"a\\tb\" ::",
        &SingleFile::new("f"),
    );
    assert!(errors.is_empty(), "{errors:?}");
    let kinds: Vec<_> = tokens.iter().map(|t| t.kind.clone()).collect();
    assert_eq!(
        kinds[1],
        TokenKind::Identifier {
            name: "x".into(),
            escaped: true
        }
    );
    assert_eq!(kinds[3], TokenKind::Integer(31));
    assert_eq!(kinds[5], TokenKind::Integer(15));
    assert_eq!(kinds[7], TokenKind::Float(1500.0));
    assert_eq!(kinds[9], TokenKind::Fixed("2.5".into()));
    assert_eq!(kinds[11], TokenKind::WChar('A'));
    assert_eq!(kinds[12], TokenKind::Char('A'));
    assert_eq!(kinds[13], TokenKind::Char('\n'));
    assert_eq!(kinds[14], TokenKind::String("a\tb".into()));
    assert_eq!(*kinds.last().unwrap(), TokenKind::Eof);
    assert_eq!((tokens[0].location.line, tokens[0].location.column), (1, 2));
    assert_eq!(
        (tokens[11].location.line, tokens[11].location.column),
        (2, 3)
    );
}

#[test]
fn source_map_closure_translates_lines() {
    let map = |line: u32| {
        (
            std::sync::Arc::<str>::from(if line < 2 { "a.idl" } else { "b.idl" }),
            line + 10,
        )
    };
    let errors = parse("const long x = 1;\n}", &map).expect_err("error");
    assert_eq!(errors[0].location.to_string(), "b.idl:12:1");
}

fn token_soup() -> impl Strategy<Value = String> {
    let pieces = prop::sample::select(vec![
        "module",
        "interface",
        "struct",
        "union",
        "switch",
        "case",
        "default",
        "enum",
        "typedef",
        "sequence",
        "<",
        ">",
        ">>",
        "{",
        "}",
        "(",
        ")",
        "[",
        "]",
        ";",
        ",",
        ":",
        "::",
        "=",
        "-",
        "~",
        "long",
        "string",
        "fixed",
        "valuetype",
        "abstract",
        "custom",
        "attribute",
        "readonly",
        "raises",
        "in",
        "out",
        "void",
        "oneway",
        "const",
        "x",
        "_y",
        "1",
        "0x1",
        "1.5",
        "2d",
        "'c'",
        "\"s\"",
        "L\"w\"",
        "\n#pragma prefix \"p\"\n",
        "\n#pragma ID x \"i\"\n",
        "/**d*/",
        "// c\n",
        "factory",
        "public",
        "native",
        "exception",
        "typeid",
        "typeprefix",
        "'",
        "\"",
        "/*",
        "#",
        "$",
        "\u{e9}",
    ]);
    prop::collection::vec(pieces, 0..60).prop_map(|v| v.join(" "))
}

proptest! {
    #[test]
    fn parser_never_panics_on_token_soup(text in token_soup()) {
        let _ = parse_str(&text);
    }

    #[test]
    fn parser_never_panics_on_arbitrary_text(text in "\\PC{0,200}") {
        let _ = parse_str(&text);
    }
}
