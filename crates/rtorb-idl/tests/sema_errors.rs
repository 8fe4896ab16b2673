//! Wrong IDL gives exactly the expected first error, at the expected place.

use proptest::prelude::*;
use rtorb_idl::lexer::SingleFile;
use rtorb_idl::parser::parse;
use rtorb_idl::sema::analyze;

/// (IDL, expected first error as `line:col: message`).
const CASES: &[(&str, &str)] = &[
    ("struct S { T t; };", "1:12: cannot find `T` in this scope"),
    (
        "module M {}; typedef M::X Y;",
        "1:22: cannot find `X` in `M`",
    ),
    (
        "typedef long A; typedef short A;",
        "1:31: redefinition of `A`",
    ),
    (
        "typedef long A; typedef short a;",
        "1:31: `a` differs from `A` only in case",
    ),
    (
        "module M { typedef long T; interface I { attribute T x; typedef short T; }; };",
        "1:71: `T` is defined in a scope where it was already used",
    ),
    (
        "interface A { typedef long T; }; interface B { typedef long T; }; interface C : A, B { T f(); };",
        "1:88: ambiguous name `T`",
    ),
    (
        "struct S { S s; };",
        "1:12: illegal recursion: `S` contains itself other than through a sequence",
    ),
    (
        "struct S; struct T { S s; }; struct S { long x; };",
        "1:22: `S` is used as a member before it is defined",
    ),
    (
        "struct S;",
        "1:8: struct `S` is forward-declared but never defined",
    ),
    (
        "interface I { oneway void f(out long x); };",
        "1:29: oneway operation `f` cannot have `out` parameter `x`",
    ),
    (
        "interface I { oneway long f(); };",
        "1:22: oneway operation `f` must return void",
    ),
    (
        "exception E {}; interface I { oneway void f() raises (E); };",
        "1:55: oneway operation `f` cannot raise exceptions",
    ),
    (
        "union U switch (float) { case 1: long a; };",
        "1:17: `float` cannot discriminate a union (expected an integer, char, wchar, boolean or enum type)",
    ),
    (
        "union U switch (short) { case 1: long a; case 1: long b; };",
        "1:47: duplicate case label `1`",
    ),
    (
        "union U switch (short) { case 70000: long a; };",
        "1:31: case label out of range: 70000 does not fit in `short`",
    ),
    (
        "union U switch (long) { case \"x\": long a; };",
        "1:30: mismatched types: expected `long`, found string constant",
    ),
    (
        "union U switch (long) { default: long a; default: long b; };",
        "1:42: more than one default case",
    ),
    (
        "union U switch (boolean) { case TRUE: long a; case FALSE: long b; default: long c; };",
        "1:67: default case is unreachable: the labels cover every value of `boolean`",
    ),
    ("enum E { A, B, A };", "1:16: redefinition of `A`"),
    (
        "const short X = 40000;",
        "1:17: constant overflow: 40000 does not fit in `short`",
    ),
    (
        "const unsigned long X = -1;",
        "1:25: constant overflow: -1 does not fit in `unsigned long`",
    ),
    (
        "const long long X = 9223372036854775807 * 4;",
        "1:41: constant overflow: intermediate result out of range",
    ),
    ("const long X = 1 / 0;", "1:18: division by zero"),
    (
        "const long X = 1 << 64;",
        "1:18: shift count 64 out of range (0 to 63)",
    ),
    (
        "const double X = 1.0 % 2.0;",
        "1:22: operator `%` cannot be applied to floating-point constants",
    ),
    (
        "const string X = 1;",
        "1:18: mismatched types: expected `string`, found integer constant",
    ),
    (
        "const boolean X = TRUE + FALSE;",
        "1:24: operator `+` cannot be applied to boolean constants",
    ),
    (
        "enum E { A }; enum F { B }; const E X = B;",
        "1:41: mismatched types: expected `E`, found an enumerator of another enum",
    ),
    (
        "typedef long A[0];",
        "1:16: array dimension must be positive, found 0",
    ),
    (
        "typedef sequence<long, 0> S;",
        "1:24: sequence bound must be positive, found 0",
    ),
    (
        "typedef string<0> S;",
        "1:16: string bound must be positive, found 0",
    ),
    (
        "struct S { long x; }; interface I { void f() raises (S); };",
        "1:54: `S` is not an exception",
    ),
    (
        "interface A { void f(); }; interface B : A { void f(); };",
        "1:51: `f` is already defined in base `A`",
    ),
    (
        "interface A { void f(); }; interface B { long f(); }; interface C : A, B {};",
        "1:65: `C` inherits `f` from both `A` and `B`",
    ),
    (
        "interface I : I {};",
        "1:15: interface `I` inherits from itself",
    ),
    (
        "interface A {}; interface B : A, A {};",
        "1:34: `A` is inherited more than once",
    ),
    (
        "local interface L {}; interface I : L {};",
        "1:37: interface `I` is not local and cannot inherit from local interface `L`",
    ),
    (
        "valuetype A { public long x; }; valuetype B { public long y; }; valuetype C : A, B {};",
        "1:82: value type `C` inherits from more than one concrete value type",
    ),
    (
        "interface I {}; interface J {}; valuetype V supports I, J { public long x; };",
        "1:57: value type `V` supports more than one non-abstract interface",
    ),
    ("const long X = 1; typedef X Y;", "1:27: `X` is not a type"),
    (
        "interface A; interface B : A {};",
        "1:28: interface `A` is inherited before it is defined",
    ),
    (
        "struct S { long S; };",
        "1:17: `S` redefines the name of its enclosing scope `S`",
    ),
    (
        "module M { typedef long M; };",
        "1:25: `M` redefines the name of its enclosing scope `M`",
    ),
    // The names of a scope and of its members collide in any case, as
    // omniidl checks them.
    (
        "interface A { void a(); };",
        "1:20: `a` redefines the name of its enclosing scope `A`",
    ),
    (
        "struct S { long s; };",
        "1:17: `s` redefines the name of its enclosing scope `S`",
    ),
    (
        "module N { module n { }; };",
        "1:19: `n` redefines the name of its enclosing scope `N`",
    ),
    (
        "interface J { attribute long j; };",
        "1:30: `j` redefines the name of its enclosing scope `J`",
    ),
    (
        "exception E { long e; };",
        "1:20: `e` redefines the name of its enclosing scope `E`",
    ),
    (
        "union U switch (long) { case 1: long u; };",
        "1:38: `u` redefines the name of its enclosing scope `U`",
    ),
    (
        "union U switch (enum u { a, b }) { case a: long x; };",
        "1:22: `u` redefines the name of its enclosing scope `U`",
    ),
    (
        "module M { struct m { long x; }; };",
        "1:19: `m` redefines the name of its enclosing scope `M`",
    ),
    (
        "module M { enum E { m }; };",
        "1:21: `m` redefines the name of its enclosing scope `M`",
    ),
    (
        "module M { typedef long x; }; module M { typedef long m; };",
        "1:55: `m` redefines the name of its enclosing scope `M`",
    ),
    (
        "struct S { struct s2 { long x; } s; };",
        "1:34: `s` redefines the name of its enclosing scope `S`",
    ),
    (
        "interface I { const long i = 1; };",
        "1:26: `i` redefines the name of its enclosing scope `I`",
    ),
    (
        "interface I { exception i {}; };",
        "1:25: `i` redefines the name of its enclosing scope `I`",
    ),
    (
        "interface I; interface I { void i(); };",
        "1:33: `i` redefines the name of its enclosing scope `I`",
    ),
    (
        "valuetype V { public long v; };",
        "1:27: `v` redefines the name of its enclosing scope `V`",
    ),
    (
        "valuetype V { factory v(); };",
        "1:23: `v` redefines the name of its enclosing scope `V`",
    ),
    (
        "abstract valuetype V { void v(); };",
        "1:29: `v` redefines the name of its enclosing scope `V`",
    ),
    // A value type inherits the operations and attributes of the
    // interfaces it supports (and those its value bases support), as it
    // does those of its value bases: its own names may not take them,
    // whatever their kind (omniidl agrees on each).
    (
        "interface I { void f(); }; valuetype V supports I { void F(); };",
        "1:58: `F` is already defined in supported interface `I`",
    ),
    (
        "interface I { attribute long f; }; valuetype V supports I { public long f; };",
        "1:73: `f` is already defined in supported interface `I`",
    ),
    (
        "interface J { void g(); }; interface I : J { void f(); }; valuetype V supports I { void g(); };",
        "1:89: `g` is already defined in supported interface `J`",
    ),
    (
        "interface I { void f(); }; valuetype V supports I { factory f(); };",
        "1:61: `f` is already defined in supported interface `I`",
    ),
    (
        "interface I { void f(); }; abstract valuetype A supports I {}; valuetype B : A { void f(); };",
        "1:87: `f` is already defined in supported interface `I`",
    ),
    (
        "abstract valuetype A { void f(); }; interface I { void f(); }; valuetype B : A supports I {};",
        "1:74: `B` inherits `f` from both `A` and `I`",
    ),
    (
        "valuetype A { void f(); }; valuetype B : A { public long f; };",
        "1:58: `f` is already defined in base `A`",
    ),
    (
        "valuetype A { attribute long f; }; valuetype B : A { factory f(); };",
        "1:62: `f` is already defined in base `A`",
    ),
    (
        "typedef fixed<32, 2> F;",
        "1:15: fixed-point digits must be from 1 to 31, found 32",
    ),
    (
        "const fixed F = 12345678901234567890123456789012.0d;",
        "1:17: constant overflow: fixed-point literal has more than 31 digits",
    ),
    (
        "typedef long T;\n#pragma ID T \"IDL:a:1.0\"\n#pragma ID T \"IDL:b:1.0\"\n",
        "3:1: repository id of `T` is already set to \"IDL:a:1.0\"",
    ),
];

#[test]
fn each_wrong_specification_gives_its_error() {
    let mut wrong = Vec::new();
    for (idl, expected) in CASES {
        let spec =
            parse(idl, &SingleFile::new("t.idl")).unwrap_or_else(|e| panic!("{idl}: {}", e[0]));
        let got = match analyze(&spec) {
            Ok(_) => "no error".to_string(),
            Err(errors) => {
                let e = &errors[0];
                format!("{}:{}: {}", e.location.line, e.location.column, e.message)
            }
        };
        if got != *expected {
            wrong.push(format!("{idl}\n  expected {expected}\n  got      {got}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn redefinition_notes_the_first_definition() {
    let spec = parse(
        "typedef long A;\ntypedef short A;",
        &SingleFile::new("t.idl"),
    )
    .expect("parses");
    let errors = analyze(&spec).expect_err("redefinition");
    assert_eq!(
        errors[0].to_string(),
        "error: redefinition of `A`\n  --> t.idl:2:15\n  note: `A` was first defined here\n  --> t.idl:1:14"
    );
}

fn idl_piece() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "module M {",
        "};",
        "interface I",
        ": I",
        ": J",
        "{",
        "}",
        ";",
        "struct S",
        "union U switch (",
        "long",
        "short",
        "E",
        ")",
        "case 1:",
        "case A:",
        "default:",
        "enum E { A, B }",
        "typedef",
        "sequence<S>",
        "sequence<long, 2>",
        "S",
        "T",
        "x",
        "y",
        "[2]",
        "const long C = ",
        "C",
        "1 << 70",
        "-1",
        "1/0",
        "valuetype V",
        "supports I",
        "exception X",
        "raises (X)",
        "void f(in T t)",
        "oneway",
        "attribute long a",
        "::M::S",
        "M::I",
        "#pragma prefix \"p\"\n",
        "#pragma ID I \"x\"\n",
        "typeprefix M \"q\"",
        "local",
        "abstract",
        "struct S;",
        "interface J;",
        "string<C>",
    ])
    .prop_map(str::to_string)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// Whatever parses, analysis answers without panicking.
    #[test]
    fn analysis_never_panics(pieces in prop::collection::vec(idl_piece(), 0..40)) {
        let text = pieces.join(" ");
        if let Ok(spec) = parse(&text, &SingleFile::new("r.idl")) {
            let _ = analyze(&spec);
        }
    }
}
