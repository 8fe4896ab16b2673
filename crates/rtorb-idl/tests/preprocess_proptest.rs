//! Random input never makes the preprocessor panic, and whatever it accepts
//! keeps one line-map entry per output line.

use proptest::prelude::*;
use rtorb_idl::Severity;
use rtorb_idl::preprocess::Preprocessor;

/// Pieces of preprocessor-looking text, so that random input reaches the
/// directives and the expression evaluator, not just the plain-text path.
fn fragment() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("#define ".to_string()),
        Just("#define F(a, ...) a ## __VA_ARGS__ #a\n".to_string()),
        Just("#undef ".to_string()),
        Just("#if ".to_string()),
        Just("#ifdef ".to_string()),
        Just("#ifndef ".to_string()),
        Just("#elif ".to_string()),
        Just("#else\n".to_string()),
        Just("#endif\n".to_string()),
        Just("#include ".to_string()),
        Just("#pragma ".to_string()),
        Just("#line ".to_string()),
        Just("#error ".to_string()),
        Just("defined(".to_string()),
        Just("/*".to_string()),
        Just("*/".to_string()),
        Just("//".to_string()),
        Just("\\\n".to_string()),
        Just("\n".to_string()),
        Just("F(".to_string()),
        "[-+*/%<>=!&|^~?:(),'\"#\\\\ ]{1,3}",
        "[A-Za-z_][A-Za-z0-9_]{0,3}",
        "(0x)?[0-9a-fA-F]{1,20}[uUlL]{0,2}",
        any::<char>().prop_map(String::from),
    ]
}

fn source() -> impl Strategy<Value = String> {
    prop::collection::vec(fragment(), 0..60).prop_map(|v| v.concat())
}

fn check(text: &str) {
    let mut pp = Preprocessor::new();
    pp.define("A", "B + 1").define("B", "A");
    match pp.run_source("random.idl", text) {
        Ok(out) => {
            assert_eq!(out.text.split_terminator('\n').count(), out.line_map.len());
            // Every input line has its output line.
            let body = text.strip_prefix('\u{feff}').unwrap_or(text);
            let input_lines = body.split_terminator('\n').count();
            assert_eq!(out.line_map.len(), input_lines);
            assert!(out.line_map.iter().all(|o| o.line >= 1));
            assert!(out.warnings.iter().all(|w| w.severity == Severity::Warning));
        }
        Err(diagnostics) => {
            assert!(diagnostics.iter().any(|d| d.severity == Severity::Error));
        }
    }
}

proptest! {
    #[test]
    fn structured_input_never_panics(text in source()) {
        check(&text);
    }

    #[test]
    fn arbitrary_text_never_panics(text in "(.|\n){0,300}") {
        check(&text);
    }
}
