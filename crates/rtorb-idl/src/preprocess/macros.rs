//! Macro definitions and their expansion.
//!
//! Expansion follows the C rules with hide sets: every token remembers the
//! macros whose expansion produced it, and a macro name in its own hide set
//! is not expanded again (so `#define X X + 1` expands `X` once).

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

use super::lex::{Kind, Tok, lex};
use crate::diag::Location;

/// A macro: object-like (`params` is `None`) or function-like.
#[derive(Debug, Clone)]
pub(super) struct Macro {
    /// Parameter names of a function-like macro; a variadic macro's last
    /// parameter is `__VA_ARGS__`.
    pub(super) params: Option<Vec<String>>,
    /// Whether the last parameter takes the remaining arguments.
    pub(super) variadic: bool,
    /// The replacement list, comments removed and white space collapsed.
    pub(super) body: Vec<Tok>,
    /// Where it was defined.
    pub(super) location: Location,
}

impl Macro {
    /// Whether two definitions are the same (a redefinition that is not).
    pub(super) fn same_as(&self, other: &Macro) -> bool {
        self.params == other.params
            && self.variadic == other.variadic
            && self.body.len() == other.body.len()
            && self
                .body
                .iter()
                .zip(&other.body)
                .all(|(a, b)| a.kind == b.kind && (a.kind == Kind::Space || a.text == b.text))
    }
}

/// Parses what follows `#define`: the name, the parameters, the body.
/// Returns the name and macro, or a message and the column it applies to.
pub(super) fn parse_define(
    toks: &[Tok],
    location: Location,
) -> Result<(String, Macro), (String, u32)> {
    let start = location.column;
    let mut i = skip_blank(toks, 0);
    let Some(name) = toks.get(i) else {
        return Err(("#define without a macro name".into(), start));
    };
    if name.kind != Kind::Ident {
        return Err(("macro names must be identifiers".into(), name.col));
    }
    if name.text == "defined" {
        return Err(("`defined` cannot be used as a macro name".into(), name.col));
    }
    let location = Location {
        column: name.col,
        ..location
    };
    i += 1;
    let mut params = None;
    let mut variadic = false;
    if toks.get(i).is_some_and(|t| t.is_punct("(")) {
        let mut list: Vec<String> = Vec::new();
        let open_col = toks[i].col;
        i += 1;
        loop {
            i = skip_blank(toks, i);
            let Some(t) = toks.get(i) else {
                return Err(("missing `)` in macro parameter list".into(), open_col));
            };
            if t.is_punct(")") && list.is_empty() {
                i += 1;
                break;
            }
            if t.is_punct("...") {
                list.push("__VA_ARGS__".into());
                variadic = true;
            } else if t.kind == Kind::Ident && t.text != "__VA_ARGS__" {
                if list.contains(&t.text) {
                    return Err((format!("duplicate macro parameter `{}`", t.text), t.col));
                }
                list.push(t.text.clone());
            } else {
                return Err((
                    format!("expected parameter name, found `{}`", t.text),
                    t.col,
                ));
            }
            i = skip_blank(toks, i + 1);
            match toks.get(i) {
                Some(t) if t.is_punct(")") => {
                    i += 1;
                    break;
                }
                Some(t) if t.is_punct(",") && !variadic => i += 1,
                Some(t) => {
                    return Err((
                        format!(
                            "expected `,` or `)` in macro parameter list, found `{}`",
                            t.text
                        ),
                        t.col,
                    ));
                }
                None => return Err(("missing `)` in macro parameter list".into(), open_col)),
            }
        }
        params = Some(list);
    }
    let mut body: Vec<Tok> = Vec::new();
    for t in &toks[i..] {
        if t.is_blank() {
            if body.last().is_some_and(|b| b.kind != Kind::Space) {
                body.push(Tok::new(Kind::Space, " ", t.col));
            }
        } else {
            body.push(t.clone());
        }
    }
    if body.last().is_some_and(|b| b.kind == Kind::Space) {
        body.pop();
    }
    let non_blank: Vec<&Tok> = body.iter().filter(|t| !t.is_blank()).collect();
    if let Some(t) = non_blank
        .first()
        .filter(|t| t.is_punct("##"))
        .or(non_blank.last().filter(|t| t.is_punct("##")))
    {
        return Err((
            "`##` cannot appear at either end of a macro body".into(),
            t.col,
        ));
    }
    if let Some(list) = &params {
        for (n, t) in non_blank.iter().enumerate() {
            if t.is_punct("#")
                && !non_blank
                    .get(n + 1)
                    .is_some_and(|p| p.kind == Kind::Ident && list.contains(&p.text))
            {
                return Err(("`#` is not followed by a macro parameter".into(), t.col));
            }
        }
    }
    let name = name.text.clone();
    Ok((
        name,
        Macro {
            params,
            variadic,
            body,
            location,
        },
    ))
}

fn skip_blank(toks: &[Tok], mut i: usize) -> usize {
    while toks.get(i).is_some_and(Tok::is_blank) {
        i += 1;
    }
    i
}

/// Most macro expansions one line may take, and most tokens it may grow to.
const MAX_STEPS: usize = 50_000;
const MAX_TOKENS: usize = 100_000;

/// Expands macros in the tokens of one line.
pub(super) struct Expander<'m> {
    macros: &'m HashMap<String, Macro>,
    steps: usize,
    /// Errors: message and column.
    pub(super) errors: Vec<(String, u32)>,
}

impl<'m> Expander<'m> {
    /// An expander over a macro table.
    pub(super) fn new(macros: &'m HashMap<String, Macro>) -> Expander<'m> {
        Expander {
            macros,
            steps: 0,
            errors: Vec::new(),
        }
    }

    /// Whether any token of the line names a macro.
    pub(super) fn needed(&self, toks: &[Tok]) -> bool {
        toks.iter()
            .any(|t| t.kind == Kind::Ident && self.macros.contains_key(&t.text))
    }

    /// Expands every macro invocation in `input`.
    pub(super) fn expand(&mut self, input: Vec<Tok>) -> Vec<Tok> {
        let mut queue: VecDeque<Tok> = input.into();
        let mut out = Vec::new();
        while let Some(tok) = queue.pop_front() {
            let Some(m) = (tok.kind == Kind::Ident && !tok.hide.iter().any(|h| **h == *tok.text))
                .then(|| self.macros.get(&tok.text))
                .flatten()
            else {
                out.push(tok);
                continue;
            };
            if self.steps >= MAX_STEPS || queue.len() + out.len() > MAX_TOKENS {
                self.errors.push((
                    format!("macro expansion too large (more than {MAX_STEPS} steps or {MAX_TOKENS} tokens)"),
                    tok.col,
                ));
                out.push(tok);
                out.extend(queue);
                return out;
            }
            self.steps += 1;
            let name: Arc<str> = Arc::from(tok.text.as_str());
            let replacement = match &m.params {
                None => {
                    let mut hide = tok.hide.clone();
                    hide.push(name);
                    self.substitute(m, &[], &hide, tok.col)
                }
                Some(params) => {
                    let mut look = 0;
                    while queue.get(look).is_some_and(Tok::is_blank) {
                        look += 1;
                    }
                    if !queue.get(look).is_some_and(|t| t.is_punct("(")) {
                        out.push(tok);
                        continue;
                    }
                    let Some((args, consumed, rparen_hide)) =
                        collect_args(&queue, look + 1, params.len(), m.variadic)
                    else {
                        self.errors.push((
                            format!("unterminated argument list invoking macro `{}`", tok.text),
                            tok.col,
                        ));
                        out.push(tok);
                        continue;
                    };
                    let args = match fit_args(args, params.len(), m.variadic) {
                        Ok(args) => args,
                        Err(given) => {
                            self.errors.push((
                                format!(
                                    "macro `{}` takes {} argument{}, but {given} {} given",
                                    tok.text,
                                    params.len(),
                                    if params.len() == 1 { "" } else { "s" },
                                    if given == 1 { "was" } else { "were" },
                                ),
                                tok.col,
                            ));
                            out.push(tok);
                            continue;
                        }
                    };
                    queue.drain(..consumed);
                    let mut hide: Vec<Arc<str>> = tok
                        .hide
                        .iter()
                        .filter(|h| rparen_hide.contains(h))
                        .cloned()
                        .collect();
                    hide.push(name);
                    self.substitute(m, &args, &hide, tok.col)
                }
            };
            for t in replacement.into_iter().rev() {
                queue.push_front(t);
            }
        }
        out
    }

    /// The body of `m` with parameters replaced by arguments, `#` and `##`
    /// applied, and `hide` added to every token.
    fn substitute(
        &mut self,
        m: &Macro,
        args: &[Vec<Tok>],
        hide: &[Arc<str>],
        col: u32,
    ) -> Vec<Tok> {
        let params: &[String] = m.params.as_deref().unwrap_or(&[]);
        let param_index = |t: &Tok| {
            (t.kind == Kind::Ident)
                .then(|| params.iter().position(|p| *p == t.text))
                .flatten()
        };
        let body = &m.body;
        let next_non_blank = |from: usize| (from..body.len()).find(|&j| !body[j].is_blank());
        let mut result: Vec<Tok> = Vec::new();
        let mut i = 0;
        while i < body.len() {
            let t = &body[i];
            if t.is_punct("#")
                && m.params.is_some()
                && let Some(j) = next_non_blank(i + 1)
                && let Some(p) = param_index(&body[j])
            {
                let arg = args.get(p).map_or(&[][..], Vec::as_slice);
                result.push(Tok::new(Kind::Str, stringify(arg), col));
                i = j + 1;
                continue;
            }
            if t.is_punct("##") {
                while result.last().is_some_and(Tok::is_blank) {
                    result.pop();
                }
                let Some(j) = next_non_blank(i + 1) else {
                    break;
                };
                let mut rhs: Vec<Tok> = match param_index(&body[j]) {
                    Some(p) => args.get(p).cloned().unwrap_or_default(),
                    None => vec![body[j].clone()],
                };
                if !rhs.is_empty()
                    && let Some(lhs) = result.pop()
                {
                    let first = rhs.remove(0);
                    result.extend(self.paste(&lhs, &first, col));
                }
                result.extend(rhs);
                i = j + 1;
                continue;
            }
            match param_index(t) {
                Some(p) => {
                    let arg = args.get(p).cloned().unwrap_or_default();
                    let before_paste =
                        next_non_blank(i + 1).is_some_and(|j| body[j].is_punct("##"));
                    if before_paste {
                        result.extend(arg);
                    } else {
                        result.extend(self.expand(arg));
                    }
                }
                None => result.push(Tok::new(t.kind, t.text.clone(), col)),
            }
            i += 1;
        }
        for t in &mut result {
            for h in hide {
                if !t.hide.contains(h) {
                    t.hide.push(h.clone());
                }
            }
            t.col = col;
        }
        result
    }

    /// `lhs ## rhs`: the spellings joined and lexed again.
    fn paste(&mut self, lhs: &Tok, rhs: &Tok, col: u32) -> Vec<Tok> {
        let text = format!("{}{}", lhs.text, rhs.text);
        let (mut toks, _) = lex(&text, false);
        if toks.len() != 1 {
            self.errors.push((
                format!(
                    "pasting `{}` and `{}` does not give a valid preprocessing token",
                    lhs.text, rhs.text
                ),
                col,
            ));
        }
        for t in &mut toks {
            t.col = col;
        }
        toks
    }
}

/// The arguments of an invocation, how many queue tokens they take, and
/// the hide set of the closing parenthesis.
type Invocation = (Vec<Vec<Tok>>, usize, Vec<Arc<str>>);

/// Reads the arguments of an invocation whose `(` is just before
/// `queue[from]`. Returns the arguments (trimmed), the number of queue
/// tokens they take up to and including the `)`, and the hide set of the
/// `)`; or `None` if the line ends first.
fn collect_args(
    queue: &VecDeque<Tok>,
    from: usize,
    params: usize,
    variadic: bool,
) -> Option<Invocation> {
    let mut args: Vec<Vec<Tok>> = vec![Vec::new()];
    let mut depth = 0usize;
    for (k, t) in queue.iter().enumerate().skip(from) {
        if t.is_punct("(") {
            depth += 1;
        } else if t.is_punct(")") {
            if depth == 0 {
                let args = args.into_iter().map(trim).collect();
                return Some((args, k + 1, t.hide.clone()));
            }
            depth -= 1;
        } else if t.is_punct(",") && depth == 0 && !(variadic && args.len() >= params) {
            args.push(Vec::new());
            continue;
        }
        if let Some(last) = args.last_mut() {
            last.push(t.clone());
        }
    }
    None
}

/// Matches the arguments given to the parameter count, or says how many
/// were given.
fn fit_args(
    mut args: Vec<Vec<Tok>>,
    params: usize,
    variadic: bool,
) -> Result<Vec<Vec<Tok>>, usize> {
    if params == 0 && args.len() == 1 && args[0].is_empty() {
        return Ok(Vec::new());
    }
    if variadic && args.len() + 1 == params {
        args.push(Vec::new());
    }
    if args.len() == params {
        Ok(args)
    } else {
        Err(args.len())
    }
}

/// Removes white space and comments at both ends.
fn trim(mut toks: Vec<Tok>) -> Vec<Tok> {
    while toks.last().is_some_and(Tok::is_blank) {
        toks.pop();
    }
    let lead = toks.iter().take_while(|t| t.is_blank()).count();
    toks.drain(..lead);
    toks
}

/// `#arg`: the argument's spelling as a string literal.
fn stringify(arg: &[Tok]) -> String {
    let mut s = String::from("\"");
    let mut space = false;
    for t in arg {
        if t.is_blank() {
            space = true;
            continue;
        }
        if space && s.len() > 1 {
            s.push(' ');
        }
        space = false;
        if matches!(t.kind, Kind::Str | Kind::Char) {
            for c in t.text.chars() {
                if c == '"' || c == '\\' {
                    s.push('\\');
                }
                s.push(c);
            }
        } else {
            s.push_str(&t.text);
        }
    }
    s.push('"');
    s
}
