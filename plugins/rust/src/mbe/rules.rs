//! A `macro_rules!` definition read into its rules: each a matcher (tokens,
//! `$name:fragment`s, `$(...) sep op` repetitions, groups) and a transcriber.

use super::ExpandError;
use super::lexer::{Delimiter, Group, Kind, Token, Tree, lex};

/// What a `$name:fragment` matches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fragment {
    Ident,
    Lifetime,
    Literal,
    Vis,
    Block,
    Meta,
    Path,
    Ty,
    Expr,
    Stmt,
    Pat,
    PatParam,
    Item,
    Tt,
}

impl Fragment {
    fn named(name: &str) -> Option<Fragment> {
        Some(match name {
            "ident" => Fragment::Ident,
            "lifetime" => Fragment::Lifetime,
            "literal" => Fragment::Literal,
            "vis" => Fragment::Vis,
            "block" => Fragment::Block,
            "meta" => Fragment::Meta,
            "path" => Fragment::Path,
            "ty" => Fragment::Ty,
            "expr" | "expr_2021" => Fragment::Expr,
            "stmt" => Fragment::Stmt,
            "pat" => Fragment::Pat,
            "pat_param" => Fragment::PatParam,
            "item" => Fragment::Item,
            "tt" => Fragment::Tt,
            _ => return None,
        })
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RepeatOp {
    /// `*`: any number of times.
    Any,
    /// `+`: at least once.
    AtLeastOnce,
    /// `?`: at most once.
    AtMostOnce,
}

/// `$( items ) separator op`.
#[derive(Clone, Debug)]
pub struct Repeat<T> {
    pub items: Vec<T>,
    pub separator: Option<Token>,
    pub op: RepeatOp,
}

/// One element of a rule's left-hand side.
#[derive(Clone, Debug)]
pub enum Matcher {
    Token(Token),
    Fragment { name: String, fragment: Fragment },
    Repeat(Repeat<Matcher>),
    Group(Delimiter, Vec<Matcher>),
}

/// One element of a rule's right-hand side.
#[derive(Clone, Debug)]
pub enum Transcriber {
    Token(Token),
    /// `$name`.
    Variable(String),
    /// `$crate`.
    Crate,
    Repeat(Repeat<Transcriber>),
    Group(Delimiter, Vec<Transcriber>),
}

/// `(matcher) => { transcriber }`.
#[derive(Clone, Debug)]
pub struct Rule {
    pub matcher: Vec<Matcher>,
    pub transcriber: Vec<Transcriber>,
}

/// A `macro_rules!` macro: its name and rules, tried in order.
#[derive(Clone, Debug)]
pub struct MacroRules {
    pub name: String,
    pub rules: Vec<Rule>,
}

impl MacroRules {
    /// Read `macro_rules! name { rules }` (attributes and doc comments
    /// before it allowed), the text of a definition wherever it is written.
    pub fn parse(definition: &str) -> Result<MacroRules, ExpandError> {
        let trees = lex(definition, None).map_err(ExpandError::Lex)?;
        let mut at = 0;
        // Attributes and doc comments.
        while at < trees.len() {
            match &trees[at] {
                Tree::Token(t) if t.kind == Kind::DocComment => at += 1,
                Tree::Token(t) if t.is("#") => at += 2,
                _ => break,
            }
        }
        let malformed = |why: &str| ExpandError::Definition(why.to_string());
        if !trees.get(at).is_some_and(|t| t.is("macro_rules"))
            || !trees.get(at + 1).is_some_and(|t| t.is("!"))
        {
            return Err(malformed("not a `macro_rules!` definition"));
        }
        let name = match trees.get(at + 2) {
            Some(Tree::Token(t)) if t.kind == Kind::Ident => {
                t.text.trim_start_matches("r#").to_string()
            }
            _ => return Err(malformed("no macro name")),
        };
        let Some(Tree::Group(body)) = trees.get(at + 3) else {
            return Err(malformed("no rules"));
        };
        let rules = parse_rules(body)?;
        Ok(MacroRules { name, rules })
    }
}

/// `(matcher) => {transcriber}` separated by `;`.
fn parse_rules(body: &Group) -> Result<Vec<Rule>, ExpandError> {
    let malformed = |why: &str| ExpandError::Definition(why.to_string());
    let mut rules = Vec::new();
    let mut trees = body.trees.iter().peekable();
    while let Some(tree) = trees.next() {
        let Tree::Group(matcher) = tree else {
            return Err(malformed("a rule's matcher is not delimited"));
        };
        if !trees.next().is_some_and(|t| t.is("=>")) {
            return Err(malformed("a rule has no `=>`"));
        }
        let Some(Tree::Group(transcriber)) = trees.next() else {
            return Err(malformed("a rule's transcriber is not delimited"));
        };
        rules.push(Rule {
            matcher: matchers(&matcher.trees)?,
            transcriber: transcribers(&transcriber.trees)?,
        });
        if trees.peek().is_some_and(|t| t.is(";")) {
            trees.next();
        }
    }
    if rules.is_empty() {
        return Err(malformed("no rules"));
    }
    Ok(rules)
}

/// After `$( … )`: an optional separator and the operator.
fn repetition_tail<'t>(
    rest: &mut impl Iterator<Item = &'t Tree>,
) -> Result<(Option<Token>, RepeatOp), ExpandError> {
    let op_of = |t: &Token| match &*t.text {
        "*" => Some(RepeatOp::Any),
        "+" => Some(RepeatOp::AtLeastOnce),
        "?" => Some(RepeatOp::AtMostOnce),
        _ => None,
    };
    let missing = || ExpandError::Definition("a repetition has no `*`, `+` or `?`".into());
    let Some(Tree::Token(first)) = rest.next() else {
        return Err(missing());
    };
    if let Some(op) = op_of(first) {
        return Ok((None, op));
    }
    match rest.next() {
        Some(Tree::Token(op)) => match op_of(op) {
            Some(RepeatOp::AtMostOnce) | None => Err(missing()),
            Some(op) => Ok((Some(first.clone()), op)),
        },
        _ => Err(missing()),
    }
}

fn matchers(trees: &[Tree]) -> Result<Vec<Matcher>, ExpandError> {
    let mut out = Vec::new();
    let mut rest = trees.iter().peekable();
    while let Some(tree) = rest.next() {
        match tree {
            Tree::Group(group) => {
                out.push(Matcher::Group(group.delimiter, matchers(&group.trees)?))
            }
            Tree::Token(dollar) if dollar.is("$") => match rest.next() {
                Some(Tree::Group(group)) if group.delimiter == Delimiter::Paren => {
                    let (separator, op) = repetition_tail(&mut rest)?;
                    out.push(Matcher::Repeat(Repeat {
                        items: matchers(&group.trees)?,
                        separator,
                        op,
                    }));
                }
                Some(Tree::Token(name)) if name.kind == Kind::Ident => {
                    if !rest.next().is_some_and(|t| t.is(":")) {
                        return Err(ExpandError::Definition(format!(
                            "`${}` has no fragment specifier",
                            name.text
                        )));
                    }
                    let fragment = match rest.next() {
                        Some(Tree::Token(f)) => Fragment::named(&f.text).ok_or_else(|| {
                            ExpandError::Unsupported(format!("fragment `{}`", f.text))
                        })?,
                        _ => return Err(ExpandError::Definition("no fragment specifier".into())),
                    };
                    out.push(Matcher::Fragment {
                        name: name.text.to_string(),
                        fragment,
                    });
                }
                _ => return Err(ExpandError::Definition("a lone `$` in a matcher".into())),
            },
            Tree::Token(token) => out.push(Matcher::Token(token.clone())),
        }
    }
    Ok(out)
}

fn transcribers(trees: &[Tree]) -> Result<Vec<Transcriber>, ExpandError> {
    let mut out = Vec::new();
    let mut rest = trees.iter().peekable();
    while let Some(tree) = rest.next() {
        match tree {
            Tree::Group(group) => out.push(Transcriber::Group(
                group.delimiter,
                transcribers(&group.trees)?,
            )),
            Tree::Token(dollar) if dollar.is("$") => match rest.peek() {
                Some(Tree::Group(group)) if group.delimiter == Delimiter::Paren => {
                    rest.next();
                    let (separator, op) = repetition_tail(&mut rest)?;
                    out.push(Transcriber::Repeat(Repeat {
                        items: transcribers(&group.trees)?,
                        separator,
                        op,
                    }));
                }
                Some(Tree::Token(name)) if name.is("crate") => {
                    rest.next();
                    out.push(Transcriber::Crate);
                }
                Some(Tree::Token(name)) if name.kind == Kind::Ident => {
                    out.push(Transcriber::Variable(name.text.to_string()));
                    rest.next();
                }
                // A `$` the transcriber writes out.
                _ => out.push(Transcriber::Token(dollar.clone())),
            },
            Tree::Token(token) => out.push(Transcriber::Token(token.clone())),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_of_a_definition() {
        let rules = MacroRules::parse(
            "/// Docs.\n#[macro_export]\nmacro_rules! cfg_rt {\n  ($($item:item)*) => { $( #[cfg(feature = \"rt\")] $item )* };\n  (@x $a:expr, $($b:tt),+ $(,)?) => { $crate::f($a) }\n}",
        )
        .unwrap();
        assert_eq!(rules.name, "cfg_rt");
        assert_eq!(rules.rules.len(), 2);
        let Matcher::Repeat(repeat) = &rules.rules[0].matcher[0] else {
            panic!()
        };
        assert_eq!(repeat.op, RepeatOp::Any);
        assert!(matches!(
            repeat.items[0],
            Matcher::Fragment {
                fragment: Fragment::Item,
                ..
            }
        ));
        let second = &rules.rules[1].matcher;
        assert!(
            matches!(&second[4], Matcher::Repeat(r) if r.separator.as_ref().is_some_and(|s| s.is(",")) && r.op == RepeatOp::AtLeastOnce)
        );
        assert!(
            matches!(&second[5], Matcher::Repeat(r) if r.separator.is_none() && r.op == RepeatOp::AtMostOnce)
        );
        assert!(matches!(rules.rules[1].transcriber[0], Transcriber::Crate));
    }

    #[test]
    fn malformed_definitions_are_refused() {
        for text in [
            "fn f() {}",
            "macro_rules! m {}",
            "macro_rules! m { ($x) => {} }",
            "macro_rules! m { ($x:expr) {} }",
            "macro_rules! m { ($($x:expr)) => {} }",
        ] {
            assert!(
                matches!(MacroRules::parse(text), Err(ExpandError::Definition(_))),
                "{text}"
            );
        }
        assert!(matches!(
            MacroRules::parse("macro_rules! m { ($x:nonsense) => {} }"),
            Err(ExpandError::Unsupported(_))
        ));
    }
}
