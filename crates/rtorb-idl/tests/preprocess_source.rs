//! The preprocessor on inline sources: macro expansion, the line map,
//! comments, continuations, `#line`, `#pragma`, warnings and the API.

use rtorb_idl::preprocess::{LineOrigin, Preprocessed, Preprocessor};
use rtorb_idl::{Location, Severity};

fn run(text: &str) -> Preprocessed {
    run_with(&Preprocessor::new(), text)
}

fn run_with(pp: &Preprocessor, text: &str) -> Preprocessed {
    pp.run_source("t.idl", text).unwrap_or_else(|d| {
        panic!(
            "{}",
            d.iter()
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join("\n")
        )
    })
}

fn errors(text: &str) -> Vec<(u32, u32, String)> {
    match Preprocessor::new().run_source("t.idl", text) {
        Ok(out) => panic!("no errors:\n{}", out.text),
        Err(d) => d
            .into_iter()
            .filter(|d| d.severity == Severity::Error)
            .map(|d| (d.location.line, d.location.column, d.message))
            .collect(),
    }
}

fn lines(out: &Preprocessed) -> Vec<&str> {
    out.text.lines().collect()
}

#[test]
fn object_like_macros() {
    let out = run("#define A 1\n#define B A + A\n#define EMPTY\nB EMPTY;\n");
    assert_eq!(out.text, "\n\n\n1 + 1 ;\n");
    // No self-recursion, directly or through another macro.
    let out = run("#define X X + 1\n#define P Q\n#define Q P\nX; P; Q;\n");
    assert_eq!(lines(&out)[3], "X + 1; P; Q;");
    // Not inside literals or comments, and not in parts of other words.
    let out = run("#define N 7\nN \"N\" 'N' /* N */ // N\nNN N_ _N 0xN N\n");
    assert_eq!(lines(&out)[1], "7 \"N\" 'N' /* N */ // N");
    assert_eq!(lines(&out)[2], "NN N_ _N 0xN 7");
    // #undef ends a macro.
    let out = run("#define N 7\n#undef N\nN\n");
    assert_eq!(lines(&out)[2], "N");
}

#[test]
fn function_like_macros() {
    let out = run(concat!(
        "#define MAX(a, b) ((a) > (b) ? (a) : (b))\n",
        "#define STR(x) #x\n",
        "#define CAT(a, b) a ## b\n",
        "#define TWICE(x) MAX(x, x)\n",
        "#define LIST(...) { __VA_ARGS__ }\n",
        "#define NONE() nothing\n",
        "MAX(1, (2, 3))\n",
        "STR( a  \"q\"  b )\n",
        "CAT(Long, Name) CAT(x, ) CAT(, y)\n",
        "TWICE(MAX(1, 2))\n",
        "LIST(1, 2, 3) LIST()\n",
        "NONE() MAX NONE\n",
    ));
    let l = lines(&out);
    assert_eq!(l[6], "((1) > ((2, 3)) ? (1) : ((2, 3)))");
    assert_eq!(l[7], "\"a \\\"q\\\" b\"");
    assert_eq!(l[8], "LongName x y");
    assert_eq!(
        l[9],
        "((((1) > (2) ? (1) : (2))) > (((1) > (2) ? (1) : (2))) ? (((1) > (2) ? (1) : (2))) : (((1) > (2) ? (1) : (2))))"
    );
    assert_eq!(l[10], "{ 1, 2, 3 } {  }");
    assert_eq!(l[11], "nothing MAX NONE");
}

#[test]
fn command_line_definitions() {
    let mut pp = Preprocessor::new();
    pp.define("SIZE", "16")
        .define("FLAG", "")
        .define("SQ(x)", "((x)*(x))");
    pp.define("GONE", "1").undefine("GONE");
    let out = run_with(
        &pp,
        "SIZE FLAG SQ(3) GONE\n#ifdef FLAG\nflag\n#endif\n#if defined(GONE)\ngone\n#endif\n",
    );
    assert_eq!(out.text, "16  ((3)*(3)) GONE\n\nflag\n\n\n\n\n");
    // A preprocessor can run many times; every run starts afresh.
    let again = run_with(&pp, "#define SIZE 1\nSIZE\n");
    assert_eq!(lines(&again)[1], "1");
    let third = run_with(&pp, "SIZE\n");
    assert_eq!(third.text, "16\n");
    let bad = Preprocessor::new()
        .define("3x", "1")
        .run_source("t.idl", "")
        .unwrap_err();
    assert_eq!(bad[0].message, "in -D3x: macro names must be identifiers");
    assert_eq!(bad[0].location, Location::new("<command line>", 1, 1));
}

#[test]
fn comments_are_kept_and_hide_directives() {
    let src = "/** Doc\n#define HIDDEN 1\n */\n#ifdef HIDDEN\nno\n#endif\n// #error not run\ninterface I {};\n";
    let out = run(src);
    assert_eq!(
        out.text,
        "/** Doc\n#define HIDDEN 1\n */\n\n\n\n// #error not run\ninterface I {};\n"
    );
    // A comment opened on a directive line stays a comment in the output.
    let out = run("#define A 1 /* the comment\n   goes on */ A\n");
    assert_eq!(out.text, "/*\n   goes on */ 1\n");
    let out = run("#if 0 /* skipped\n#endif */\nx\n#endif\n");
    assert_eq!(out.text, "\n\n\n\n");
    let out = run("#if 1 /* kept\n#endif */\nx\n#endif\n");
    assert_eq!(out.text, "/*\n#endif */\nx\n\n");
}

#[test]
fn line_map_follows_continuations_includes_and_comments() {
    let src = "a\n/* two\n   lines */\n#define LONG 1 + \\\n  2\nb LONG \\\n c\nd\n";
    let out = run(src);
    assert_eq!(out.text, "a\n/* two\n   lines */\n\n\nb 1 + 2  c\n\nd\n");
    let lines_of: Vec<u32> = out.line_map.iter().map(|o| o.line).collect();
    assert_eq!(lines_of, [1, 2, 3, 4, 5, 6, 7, 8]);
    assert!(out.line_map.iter().all(|o| &*o.file == "t.idl"));
    assert_eq!(
        out.origin(6),
        Some(&LineOrigin {
            file: "t.idl".into(),
            line: 6
        })
    );
    assert_eq!(out.origin(0), None);
    assert_eq!(out.origin(9), None);
    assert_eq!(out.location(8, 3), Location::new("t.idl", 8, 3));
    // Past the end: the last line there is.
    assert_eq!(out.location(100, 1), Location::new("t.idl", 8, 1));
    // CRLF line ends and a missing final newline.
    let out = run("x\r\ny");
    assert_eq!(out.text, "x\ny\n");
    assert_eq!(out.line_map.len(), 2);
    let empty = run("");
    assert_eq!(empty.text, "");
    assert_eq!(empty.location(1, 1), Location::new("t.idl", 1, 1));
}

#[test]
fn pragmas_pass_through_unchanged() {
    let src = "#define P omg.org\n#pragma prefix \"P\"\n  #  pragma ID X \"IDL:X:1.0\" // why\n#pragma once\n#if 0\n#pragma prefix \"no\"\n#endif\n";
    let out = run(src);
    assert_eq!(
        lines(&out),
        [
            "",
            "#pragma prefix \"P\"",
            "  #  pragma ID X \"IDL:X:1.0\" // why",
            "",
            "",
            "",
            ""
        ]
    );
}

#[test]
fn line_directive_renumbers() {
    let out = run("a\n#line 100\nb\n#line 7 \"other.idl\"\nc\n# 20 \"third.idl\" 2\nd\n");
    let map: Vec<(String, u32)> = out
        .line_map
        .iter()
        .map(|o| (o.file.to_string(), o.line))
        .collect();
    assert_eq!(
        map,
        [
            ("t.idl".to_string(), 1),
            ("t.idl".to_string(), 2),
            ("t.idl".to_string(), 100),
            ("t.idl".to_string(), 101),
            ("other.idl".to_string(), 7),
            ("other.idl".to_string(), 8),
            ("third.idl".to_string(), 20),
        ]
    );
}

#[test]
fn warnings_are_collected() {
    let out = run(
        "#define A 1\n#define A 1\n#define A 2\n#warning careful\n#ifdef A junk\n#endif junk\n",
    );
    let w: Vec<(u32, String)> = out
        .warnings
        .iter()
        .map(|d| (d.location.line, d.message.clone()))
        .collect();
    assert_eq!(
        w,
        [
            (3, "`A` redefined".to_string()),
            (4, "#warning careful".to_string()),
            (5, "extra tokens at end of #ifdef directive".to_string()),
            (6, "extra tokens at end of #endif directive".to_string()),
        ]
    );
    assert!(out.warnings.iter().all(|d| d.severity == Severity::Warning));
    assert_eq!(out.warnings[0].notes[0].0, Location::new("t.idl", 1, 9));
}

#[test]
fn error_columns() {
    assert_eq!(
        errors("  #bogus\n"),
        [(1, 4, "unknown directive `#bogus`".to_string())]
    );
    assert_eq!(
        errors("#if 1 +\n#endif\n"),
        [(
            1,
            8,
            "missing operand at the end of #if expression".to_string()
        )]
    );
    assert_eq!(
        errors("#if 2 / 0\n#endif\n"),
        [(1, 7, "division by zero in #if".to_string())]
    );
    assert_eq!(
        errors("#include <x.idl>\n"),
        [(
            1,
            2,
            "#include file `x.idl` not found (searched: no include paths)".to_string()
        )]
    );
    assert_eq!(
        errors("#include \"x.idl\"\n"),
        [(
            1,
            2,
            "#include file `x.idl` not found (searched: .)".to_string()
        )]
    );
    assert_eq!(
        errors("#include \"\"\n"),
        [(1, 2, "empty file name in #include".to_string())]
    );
}

#[test]
fn expansion_is_bounded() {
    let mut src = String::from("#define M0 x x x x x x x x\n");
    for i in 1..12 {
        src.push_str(&format!(
            "#define M{i} M{p} M{p} M{p} M{p} M{p} M{p} M{p} M{p}\n",
            p = i - 1
        ));
    }
    src.push_str("M11\n");
    let e = errors(&src);
    assert_eq!(e.len(), 1);
    assert!(
        e[0].2.starts_with("macro expansion too large"),
        "{}",
        e[0].2
    );
    assert_eq!(e[0].0, 13);
}

#[test]
fn not_utf8_is_an_error() {
    let dir = std::env::temp_dir().join(format!("rtorb-pp-utf8-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bad.idl");
    std::fs::write(&path, b"\xEF\xBB\xBFok\nab\xFFcd\n").unwrap();
    let e = Preprocessor::new().run_file(&path).unwrap_err();
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(e.len(), 1);
    assert_eq!((e[0].location.line, e[0].location.column), (2, 3));
    assert!(e[0].message.ends_with("is not valid UTF-8"));
}

#[test]
fn include_explosion_is_bounded() {
    let dir = std::env::temp_dir().join(format!("rtorb-pp-boom-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Unguarded self-inclusion, twice per level: stops at the depth limit,
    // with one error.
    let boom = dir.join("boom.idl");
    std::fs::write(&boom, "#include \"boom.idl\"\n#include \"boom.idl\"\n").unwrap();
    let e = Preprocessor::new().run_file(&boom).unwrap_err();
    assert_eq!(e.len(), 1);
    assert_eq!(
        e[0].message,
        "#include nested too deeply (more than 64 levels) at `boom.idl`"
    );
    // Shallow but wide: stops at the include count limit.
    std::fs::write(dir.join("leaf.idl"), "x\n").unwrap();
    std::fs::write(dir.join("mid.idl"), "#include \"leaf.idl\"\n".repeat(150)).unwrap();
    let wide = dir.join("wide.idl");
    std::fs::write(&wide, "#include \"mid.idl\"\n".repeat(150)).unwrap();
    let e = Preprocessor::new().run_file(&wide).unwrap_err();
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(e.len(), 1);
    assert_eq!(
        e[0].message,
        "too many #include directives (more than 20000)"
    );
}

#[test]
fn errors_are_capped() {
    let e = Preprocessor::new()
        .run_source("t.idl", &"#bad\n".repeat(500))
        .unwrap_err();
    assert_eq!(e.len(), 100);
    assert_eq!(e[99].message, "too many errors (more than 100); stopping");
}
