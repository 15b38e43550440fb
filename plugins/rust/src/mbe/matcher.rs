//! Matching an invocation's token trees against a rule's matcher, binding
//! each `$name` to the trees it took. Repetitions are greedy and fragments
//! end where Rust's follow sets say they must, as rustc's matcher decides
//! for the macros it accepts; the work is bounded by a step budget.

use std::collections::HashMap;

use super::ExpandError;
use super::lexer::{Delimiter, Kind, Tree};
use super::rules::{Fragment, Matcher, RepeatOp};

/// What a `$name` is bound to: the trees of one match, or one binding per
/// round of the repetition it is inside.
#[derive(Clone, Debug)]
pub enum Binding {
    Trees(Vec<Tree>),
    Rounds(Vec<Binding>),
}

pub type Bindings = HashMap<String, Binding>;

/// Matching work left: each tree looked at costs one step.
pub struct Steps(pub usize);

impl Steps {
    fn take(&mut self) -> Result<(), ExpandError> {
        self.0 = self
            .0
            .checked_sub(1)
            .ok_or(ExpandError::Budget("matching steps"))?;
        Ok(())
    }
}

/// The bindings of `matcher` over all of `input`, or `None` when it does not match.
pub fn match_rule(
    matcher: &[Matcher],
    input: &[Tree],
    steps: &mut Steps,
) -> Result<Option<Bindings>, ExpandError> {
    let mut bindings = Bindings::new();
    let mut at = 0;
    if !match_sequence(matcher, input, &mut at, &mut bindings, steps)? || at != input.len() {
        return Ok(None);
    }
    Ok(Some(bindings))
}

/// Match `matcher` against `input` from `*at`, advancing it; `false` (and
/// `*at` unspecified) when it does not match.
fn match_sequence(
    matcher: &[Matcher],
    input: &[Tree],
    at: &mut usize,
    bindings: &mut Bindings,
    steps: &mut Steps,
) -> Result<bool, ExpandError> {
    for element in matcher {
        steps.take()?;
        match element {
            Matcher::Token(token) => {
                if !input.get(*at).is_some_and(|t| t.is(&token.text)) {
                    return Ok(false);
                }
                *at += 1;
            }
            Matcher::Group(delimiter, inner) => {
                let Some(group) = input.get(*at).and_then(|t| t.group(*delimiter)) else {
                    return Ok(false);
                };
                let mut inside = 0;
                if !match_sequence(inner, &group.trees, &mut inside, bindings, steps)?
                    || inside != group.trees.len()
                {
                    return Ok(false);
                }
                *at += 1;
            }
            Matcher::Fragment { name, fragment } => {
                let Some(end) = fragment_end(*fragment, input, *at) else {
                    return Ok(false);
                };
                bindings.insert(name.clone(), Binding::Trees(input[*at..end].to_vec()));
                *at = end;
            }
            Matcher::Repeat(repeat) => {
                let mut rounds: Vec<Bindings> = Vec::new();
                loop {
                    if repeat.op == RepeatOp::AtMostOnce && !rounds.is_empty() {
                        break;
                    }
                    let mut next = *at;
                    if let Some(separator) =
                        repeat.separator.as_ref().filter(|_| !rounds.is_empty())
                    {
                        if !input.get(next).is_some_and(|t| t.is(&separator.text)) {
                            break;
                        }
                        next += 1;
                    }
                    let mut round = Bindings::new();
                    let before = next;
                    if !match_sequence(&repeat.items, input, &mut next, &mut round, steps)?
                        || next == before
                    {
                        break;
                    }
                    *at = next;
                    rounds.push(round);
                }
                if repeat.op == RepeatOp::AtLeastOnce && rounds.is_empty() {
                    return Ok(false);
                }
                for name in repeated_names(&repeat.items) {
                    let per_round = rounds
                        .iter_mut()
                        .map(|round| round.remove(&name).unwrap_or(Binding::Rounds(Vec::new())))
                        .collect();
                    bindings.insert(name, Binding::Rounds(per_round));
                }
            }
        }
    }
    Ok(true)
}

/// The `$name`s a matcher binds, at any depth.
fn repeated_names(matcher: &[Matcher]) -> Vec<String> {
    let mut names = Vec::new();
    for element in matcher {
        match element {
            Matcher::Fragment { name, .. } => names.push(name.clone()),
            Matcher::Repeat(repeat) => names.extend(repeated_names(&repeat.items)),
            Matcher::Group(_, inner) => names.extend(repeated_names(inner)),
            Matcher::Token(_) => {}
        }
    }
    names
}

/// Where a fragment that starts at `input[at]` ends, or `None` when none starts there.
fn fragment_end(fragment: Fragment, input: &[Tree], at: usize) -> Option<usize> {
    let token = |n: usize| input.get(n).and_then(Tree::token);
    let is_kind = |n: usize, kind: Kind| token(n).is_some_and(|t| t.kind == kind);
    match fragment {
        Fragment::Tt => (at < input.len()).then_some(at + 1),
        Fragment::Ident => token(at)
            .is_some_and(|t| t.kind == Kind::Ident && !t.is("_"))
            .then_some(at + 1),
        Fragment::Lifetime => is_kind(at, Kind::Lifetime).then_some(at + 1),
        Fragment::Literal => {
            let negative = input.get(at).is_some_and(|t| t.is("-"));
            let literal = at + usize::from(negative);
            let value = is_kind(literal, Kind::Literal)
                || token(literal).is_some_and(|t| t.is("true") || t.is("false"));
            value.then_some(literal + 1)
        }
        Fragment::Vis => Some(visibility_end(input, at)),
        Fragment::Block => input.get(at)?.group(Delimiter::Brace).map(|_| at + 1),
        Fragment::Meta => {
            let path = path_end(input, at)?;
            match input.get(path) {
                Some(Tree::Group(_)) => Some(path + 1),
                Some(t) if t.is("=") => Some(until(input, path + 1, &[","], false).max(path + 2)),
                _ => Some(path),
            }
            .filter(|end| *end <= input.len())
        }
        Fragment::Path => path_end(input, at),
        Fragment::Ty => non_empty(at, until(input, at, TY_FOLLOW, true)),
        Fragment::Expr | Fragment::Stmt => non_empty(at, until(input, at, EXPR_FOLLOW, false)),
        Fragment::Pat => non_empty(at, until(input, at, PAT_FOLLOW, false)),
        Fragment::PatParam => non_empty(at, until(input, at, PAT_PARAM_FOLLOW, false)),
        Fragment::Item => item_end(input, at),
    }
}

/// What may follow an expression or statement fragment.
const EXPR_FOLLOW: &[&str] = &["=>", ",", ";"];
/// What may follow a type or path fragment (besides a block).
const TY_FOLLOW: &[&str] = &["=>", ",", ";", "=", "|", ":", ">", ">>", "as", "where", "{"];
const PAT_FOLLOW: &[&str] = &["=>", ",", "=", "if", "in"];
const PAT_PARAM_FOLLOW: &[&str] = &["=>", ",", "=", "|", "if", "in"];

fn non_empty(start: usize, end: usize) -> Option<usize> {
    (end > start).then_some(end)
}

/// The first tree from `at` that is a token of `stops` outside angle
/// brackets (with `angles`: `<`…`>` of generics are counted), or the end.
fn until(input: &[Tree], at: usize, stops: &[&str], angles: bool) -> usize {
    let mut depth = 0usize;
    for (n, tree) in input.iter().enumerate().skip(at) {
        let Some(token) = tree.token() else {
            // A block after a type (`$t:ty { … }`) ends it.
            if angles && depth == 0 && n > at && tree.group(Delimiter::Brace).is_some() {
                return n;
            }
            continue;
        };
        if angles {
            match &*token.text {
                "<" | "<<" => {
                    depth += token.text.len();
                    continue;
                }
                ">" | ">>" if depth > 0 => {
                    depth = depth.saturating_sub(token.text.len());
                    continue;
                }
                _ => {}
            }
        }
        if depth == 0 && stops.iter().any(|s| token.is(s)) {
            return n;
        }
    }
    input.len()
}

/// `pub`, `pub(crate)`, `pub(in path)`, or nothing.
fn visibility_end(input: &[Tree], at: usize) -> usize {
    if !input.get(at).is_some_and(|t| t.is("pub")) {
        return at;
    }
    match input.get(at + 1).and_then(|t| t.group(Delimiter::Paren)) {
        Some(group)
            if group
                .trees
                .first()
                .is_some_and(|t| t.is("crate") || t.is("self") || t.is("super") || t.is("in")) =>
        {
            at + 2
        }
        _ => at + 1,
    }
}

/// A path: `::`-separated identifiers, each with optional generic arguments
/// (`<…>`, `::<…>`) or a function's sugar (`Fn(A) -> B`).
fn path_end(input: &[Tree], at: usize) -> Option<usize> {
    let mut n = at;
    if input.get(n).is_some_and(|t| t.is("::")) {
        n += 1;
    }
    loop {
        let segment = input.get(n).and_then(Tree::token)?;
        if segment.kind != Kind::Ident {
            return None;
        }
        n += 1;
        if input.get(n).is_some_and(|t| t.is("::")) && input.get(n + 1).is_some_and(|t| t.is("<")) {
            n += 1;
        }
        if input.get(n).is_some_and(|t| t.is("<")) {
            n = angle_end(input, n)?;
        } else if input
            .get(n)
            .and_then(|t| t.group(Delimiter::Paren))
            .is_some()
        {
            n += 1;
            if input.get(n).is_some_and(|t| t.is("->")) {
                n = until(input, n + 1, TY_FOLLOW, true);
            }
        }
        if input.get(n).is_some_and(|t| t.is("::"))
            && input
                .get(n + 1)
                .and_then(Tree::token)
                .is_some_and(|t| t.kind == Kind::Ident)
        {
            n += 1;
            continue;
        }
        return Some(n);
    }
}

/// The end of the generic arguments opening at `input[at]` (a `<`).
fn angle_end(input: &[Tree], at: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (n, tree) in input.iter().enumerate().skip(at) {
        let Some(token) = tree.token() else { continue };
        match &*token.text {
            "<" => depth += 1,
            "<<" => depth += 2,
            ">" | ">>" | ">=" | ">>=" => {
                let closes = token.text.chars().filter(|c| *c == '>').count();
                depth = depth.checked_sub(closes)?;
                if depth == 0 {
                    return Some(n + 1);
                }
            }
            ";" | "=>" => return None,
            _ => {}
        }
    }
    None
}

/// An item: its attributes, its visibility, and everything through the `;`
/// that ends it or the block that does (`fn`, `struct S { … }`, `impl`,
/// `mod m { … }`, `foo! { … }`), the block only for items that cannot hold
/// one before their end (`const`, `static`, `type`, `use`, `let`).
fn item_end(input: &[Tree], at: usize) -> Option<usize> {
    let mut n = at;
    loop {
        match input.get(n) {
            Some(Tree::Token(t)) if t.kind == Kind::DocComment => n += 1,
            Some(t) if t.is("#") => {
                n += 1;
                if input.get(n).is_some_and(|t| t.is("!")) {
                    n += 1;
                }
                input.get(n)?.group(Delimiter::Bracket)?;
                n += 1;
            }
            _ => break,
        }
    }
    n = visibility_end(input, n);
    let first = input.get(n).and_then(Tree::token)?;
    if first.kind != Kind::Ident {
        return None;
    }
    let next_is = |text: &str| input.get(n + 1).is_some_and(|t| t.is(text));
    let ends_at_semicolon_only = match &*first.text {
        "const" => !(next_is("fn") || next_is("unsafe") || next_is("async")),
        "static" | "type" | "use" | "let" => true,
        "extern" => next_is("crate"),
        _ => false,
    };
    for (m, tree) in input.iter().enumerate().skip(n) {
        if tree.is(";") {
            return Some(m + 1);
        }
        if !ends_at_semicolon_only && tree.group(Delimiter::Brace).is_some() {
            return Some(m + 1);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::super::lexer::lex;
    use super::*;

    fn ends(fragment: Fragment, text: &str) -> Option<String> {
        let input = lex(text, None).unwrap();
        let end = fragment_end(fragment, &input, 0)?;
        Some(
            input[..end]
                .iter()
                .map(|t| match t {
                    Tree::Token(t) => t.text.to_string(),
                    Tree::Group(g) => format!("{}…{}", g.delimiter.open(), g.delimiter.close()),
                })
                .collect::<Vec<_>>()
                .join(" "),
        )
    }

    #[test]
    fn fragments_end_where_rust_says() {
        let cases: &[(Fragment, &str, Option<&str>)] = &[
            (Fragment::Expr, "a + f(b), c", Some("a + f (…)")),
            (Fragment::Expr, "x => y", Some("x")),
            (Fragment::Expr, ", x", None),
            (
                Fragment::Ty,
                "HashMap<K, Vec<V>>, x",
                Some("HashMap < K , Vec < V >>"),
            ),
            (Fragment::Ty, "&'a mut [u8; 4] = x", Some("& 'a mut […]")),
            (Fragment::Ty, "fn(A) -> B; x", Some("fn (…) -> B")),
            (
                Fragment::Path,
                "a::b::<C>::d e",
                Some("a :: b :: < C > :: d"),
            ),
            (Fragment::Path, "Fn(u8) -> u8, x", Some("Fn (…) -> u8")),
            (Fragment::Ident, "_ x", None),
            (Fragment::Ident, "self x", Some("self")),
            (Fragment::Literal, "-1 x", Some("- 1")),
            (Fragment::Literal, "\"s\" x", Some("\"s\"")),
            (Fragment::Vis, "pub(crate) fn", Some("pub (…)")),
            (Fragment::Vis, "pub (A, B)", Some("pub")),
            (Fragment::Vis, "fn", Some("")),
            (Fragment::Meta, "any(unix, windows)", Some("any (…)")),
            (Fragment::Meta, "doc = \"x\", y", Some("doc = \"x\"")),
            (Fragment::Meta, "test", Some("test")),
            (
                Fragment::Pat,
                "Some(x) | None => y",
                Some("Some (…) | None"),
            ),
            (Fragment::PatParam, "Some(x) | None", Some("Some (…)")),
            (Fragment::Block, "{ a } b", Some("{…}")),
            (
                Fragment::Item,
                "/// d\n#[cfg(x)] pub(crate) fn f() -> u8 { 1 } struct S;",
                Some("/// d # […] pub (…) fn f (…) -> u8 {…}"),
            ),
            (
                Fragment::Item,
                "pub struct S(u8); fn",
                Some("pub struct S (…) ;"),
            ),
            (
                Fragment::Item,
                "const X: S = S { a: 1 }; fn",
                Some("const X : S = S {…} ;"),
            ),
            (
                Fragment::Item,
                "pub use a::{b, c}; fn",
                Some("pub use a :: {…} ;"),
            ),
            (
                Fragment::Item,
                "extern crate alloc; fn",
                Some("extern crate alloc ;"),
            ),
            (
                Fragment::Item,
                "impl<T> X for Y<T> where T: Z { } fn",
                Some("impl < T > X for Y < T > where T : Z {…}"),
            ),
            (Fragment::Item, "mod m; fn", Some("mod m ;")),
            (Fragment::Item, "1 + 2;", None),
        ];
        for (fragment, text, expected) in cases {
            assert_eq!(
                ends(*fragment, text).as_deref(),
                *expected,
                "{fragment:?} of {text:?}"
            );
        }
    }

    #[test]
    fn steps_bound_the_work() {
        let rules =
            super::super::rules::MacroRules::parse("macro_rules! m { ($($a:tt)*) => {} }").unwrap();
        let input = lex(&"x ".repeat(1000), None).unwrap();
        assert!(
            match_rule(&rules.rules[0].matcher, &input, &mut Steps(100_000))
                .unwrap()
                .is_some()
        );
        assert!(matches!(
            match_rule(&rules.rules[0].matcher, &input, &mut Steps(500)),
            Err(ExpandError::Budget(_))
        ));
    }
}
