//! Expansion of `macro_rules!` macros by example, for indexing: an
//! invocation in item position is matched against the macro's rules and
//! written out as text the grammar parses, with each token's place in the
//! file where it came from the invocation. Invocations the output makes
//! are expanded in turn. Depth, output size and matching work are bounded.

mod lexer;
mod matcher;
mod rules;
mod transcribe;

use std::collections::HashMap;
use std::rc::Rc;

pub use lexer::LexError;
use lexer::{Delimiter, Kind, Origin, Tree, lex};
use matcher::{Steps, match_rule};
pub use rules::MacroRules;
use transcribe::{Room, transcribe};

/// Invocations expanded inside an expansion, nested at most this deep.
pub const MAX_DEPTH: usize = 32;
/// Tokens one invocation may expand to, nested expansions included.
pub const MAX_TOKENS: usize = 50_000;
/// Trees looked at while matching one invocation, nested ones included.
pub const MAX_STEPS: usize = 1_000_000;

/// Why an invocation is not expanded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExpandError {
    Lex(LexError),
    /// The definition is not one `macro_rules!` accepts.
    Definition(String),
    /// Something the expander does not do (a fragment it does not know).
    Unsupported(String),
    /// No rule matches the invocation.
    NoRuleMatches(String),
    /// A bound was reached: nesting depth, output size or matching steps.
    Budget(&'static str),
}

/// One expanded invocation: the text the grammar parses, and where each of
/// its tokens came from.
#[derive(Debug, PartialEq, Eq)]
pub struct Expansion {
    pub text: String,
    /// The tokens of `text` in order: their byte range in `text`, and their
    /// range in the file when they are written in the invocation.
    pub pieces: Vec<Piece>,
    /// The names of the invocations in item position the expansion made
    /// of macros the expander does not know: left as written.
    pub unknown: Vec<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece {
    pub start: u32,
    pub end: u32,
    pub origin: Option<Origin>,
}

/// The `macro_rules!` macros an invocation may name, by name, and how
/// `$crate` is written where they expand.
pub struct Expander {
    macros: HashMap<String, Vec<Rc<MacroRules>>>,
    krate: String,
}

impl Expander {
    /// The expander of `macros`; of several of one name, the first whose
    /// rules match an invocation expands it.
    pub fn new(macros: impl IntoIterator<Item = Rc<MacroRules>>, krate: &str) -> Self {
        let mut by_name: HashMap<String, Vec<Rc<MacroRules>>> = HashMap::new();
        for rules in macros {
            by_name.entry(rules.name.clone()).or_default().push(rules);
        }
        Expander {
            macros: by_name,
            krate: krate.to_string(),
        }
    }

    pub fn knows(&self, name: &str) -> bool {
        self.macros.contains_key(name)
    }

    /// The items `name!` makes from its arguments `arguments` (the
    /// delimited group, delimiters included), written at byte `base` of the
    /// file.
    pub fn expand_items(
        &self,
        name: &str,
        arguments: &str,
        base: u32,
    ) -> Result<Expansion, ExpandError> {
        let trees = lex(arguments, Some(base)).map_err(ExpandError::Lex)?;
        let [Tree::Group(group)] = trees.as_slice() else {
            return Err(ExpandError::Definition(
                "the arguments are not one group".into(),
            ));
        };
        let mut room = Room(MAX_TOKENS);
        let mut steps = Steps(MAX_STEPS);
        let mut unknown = Vec::new();
        let items = self.expand(name, &group.trees, 0, &mut room, &mut steps, &mut unknown)?;
        unknown.dedup();
        Ok(Expansion {
            unknown,
            ..render(&items)
        })
    }

    /// `name!` over `input`, and the invocations in item position its output makes.
    fn expand(
        &self,
        name: &str,
        input: &[Tree],
        depth: usize,
        room: &mut Room,
        steps: &mut Steps,
        unknown: &mut Vec<String>,
    ) -> Result<Vec<Tree>, ExpandError> {
        if depth >= MAX_DEPTH {
            return Err(ExpandError::Budget("nesting depth"));
        }
        let definitions = self
            .macros
            .get(name)
            .ok_or_else(|| ExpandError::NoRuleMatches(name.to_string()))?;
        let mut output = None;
        'definitions: for definition in definitions {
            for rule in &definition.rules {
                if let Some(bindings) = match_rule(&rule.matcher, input, steps)? {
                    output = Some(transcribe(&rule.transcriber, &bindings, &self.krate, room)?);
                    break 'definitions;
                }
            }
        }
        let output = output.ok_or_else(|| ExpandError::NoRuleMatches(name.to_string()))?;
        let mut items = Vec::with_capacity(output.len());
        let mut at = 0;
        while at < output.len() {
            if let Some((inner, arguments, end)) = invocation_at(&output, at) {
                if self.knows(inner) {
                    let expanded =
                        self.expand(inner, arguments, depth + 1, room, steps, unknown)?;
                    items.extend(expanded);
                } else {
                    unknown.push(inner.to_string());
                    items.extend_from_slice(&output[at..end]);
                }
                at = end;
            } else {
                items.push(output[at].clone());
                at += 1;
            }
        }
        Ok(items)
    }
}

/// A macro invocation in item position at `trees[at]` (`name! (…);`,
/// `name! { … }`, `$crate::name! …`, after the start, a `;`, a block or an
/// attribute): its name, its arguments and where it ends.
fn invocation_at(trees: &[Tree], at: usize) -> Option<(&str, &[Tree], usize)> {
    let item_start = match at.checked_sub(1).map(|before| &trees[before]) {
        None => true,
        Some(Tree::Token(token)) => &*token.text == ";",
        Some(Tree::Group(group)) => {
            matches!(group.delimiter, Delimiter::Brace | Delimiter::Bracket)
        }
    };
    if !item_start {
        return None;
    }
    let mut n = at;
    // A path to the macro: `crate::`, `$crate::`, `::`.
    if trees.get(n).is_some_and(|t| t.is("::")) {
        n += 1;
    }
    let name = loop {
        let segment = trees
            .get(n)
            .and_then(Tree::token)
            .filter(|t| t.kind == Kind::Ident)?;
        if !trees.get(n + 1).is_some_and(|t| t.is("::")) {
            break segment;
        }
        n += 2;
        if n > at + 32 {
            return None;
        }
    };
    if !trees.get(n + 1).is_some_and(|t| t.is("!")) {
        return None;
    }
    let Some(Tree::Group(group)) = trees.get(n + 2) else {
        return None;
    };
    let mut end = n + 3;
    if group.delimiter != Delimiter::Brace && trees.get(end).is_some_and(|t| t.is(";")) {
        end += 1;
    }
    Some((&name.text, &group.trees, end))
}

/// A level of trees being rendered: the trees, the next one's index, and
/// the closing delimiter to write after them with its origin.
type Level<'t> = (&'t [Tree], usize, Option<(&'static str, Option<Origin>)>);

/// The text of `trees`, tokens apart by a space (a doc comment ends its
/// line), with the piece each token is.
fn render(trees: &[Tree]) -> Expansion {
    let mut text = String::new();
    let mut pieces = Vec::new();
    // (trees, next index, closing delimiter) for each open group.
    let mut stack: Vec<Level> = vec![(trees, 0, None)];
    while let Some((level, at, close)) = stack.last_mut() {
        let Some(tree) = level.get(*at) else {
            let close = *close;
            stack.pop();
            if let Some((delimiter, origin)) = close {
                piece(&mut text, &mut pieces, delimiter, origin);
            }
            continue;
        };
        *at += 1;
        match tree {
            Tree::Token(token) => {
                piece(&mut text, &mut pieces, &token.text, token.origin);
                if token.kind == Kind::DocComment {
                    text.push('\n');
                }
            }
            Tree::Group(group) => {
                piece(&mut text, &mut pieces, group.delimiter.open(), group.open);
                stack.push((
                    &group.trees,
                    0,
                    Some((group.delimiter.close(), group.close)),
                ));
            }
        }
    }
    Expansion {
        text,
        pieces,
        unknown: Vec::new(),
    }
}

fn piece(text: &mut String, pieces: &mut Vec<Piece>, token: &str, origin: Option<Origin>) {
    let previous = pieces
        .last()
        .map_or("", |p| &text[p.start as usize..p.end as usize]);
    if !text.is_empty() && !text.ends_with('\n') && spaced(previous, token) {
        text.push(' ');
    }
    let start = text.len() as u32;
    text.push_str(token);
    pieces.push(Piece {
        start,
        end: text.len() as u32,
        origin,
    });
}

/// Whether a space goes between `previous` and `token` in rendered code:
/// everywhere, as the parser reads it alike, except around the
/// punctuation written tight in Rust (`a::b`, `f(x, y)`, `Vec<u8>`,
/// `&self`, `#[attr]`), so that signatures read as written. Never between
/// two tokens that would run into one.
fn spaced(previous: &str, token: &str) -> bool {
    let word = |t: &str| {
        t.chars()
            .next()
            .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '\'' || c == '"')
    };
    let tight_after = ["(", "[", "::", ".", "#", "&", "<", "!"];
    let tight_before = [",", ";", ".", ")", "]", "::", "?", ":", ">"];
    if tight_before.contains(&token) && !(token == ":" && previous == ":") {
        return false;
    }
    if tight_after.contains(&previous) {
        // `&&`, `<<`, `::<`, `!=`: a space keeps them apart.
        return !(word(token) || ["(", "[", "&", "'", "*"].contains(&token))
            || (previous == "&" && token == "&");
    }
    // `Vec<`, `f(` and `name!` after a word.
    if word(previous) && ["<", "(", "!"].contains(&token) {
        return false;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    const CFG: &str = "macro_rules! cfg_sync {\n    ($($item:item)*) => {\n        $(\n            #[cfg(feature = \"sync\")]\n            $item\n        )*\n    }\n}";

    fn expander(definitions: &[&str]) -> Expander {
        Expander::new(
            definitions
                .iter()
                .map(|d| Rc::new(MacroRules::parse(d).unwrap())),
            "crate",
        )
    }

    /// The expansion of the invocation `source` (`name! …`) and, for each
    /// identifier written in the invocation, the text at its origin.
    fn expand(expander: &Expander, source: &str) -> (String, Vec<String>) {
        let bang = source.find('!').unwrap();
        let expansion = expander
            .expand_items(
                &source[..bang],
                source[bang + 1..].trim_end_matches(';'),
                bang as u32 + 1,
            )
            .unwrap();
        let from_invocation = expansion
            .pieces
            .iter()
            .filter_map(|p| p.origin)
            .map(|(s, e)| source[s as usize..e as usize].to_string())
            .filter(|t| t.chars().all(|c| c.is_alphanumeric() || c == '_'))
            .collect();
        (expansion.text, from_invocation)
    }

    #[test]
    fn items_pass_through_with_their_places() {
        let (text, places) = expand(
            &expander(&[CFG]),
            "cfg_sync! {\n    pub mod mutex;\n    pub use mutex::{Mutex, MutexGuard};\n}",
        );
        assert_eq!(
            text,
            "#[cfg(feature = \"sync\")] pub mod mutex; #[cfg(feature = \"sync\")] pub use mutex:: { Mutex, MutexGuard };"
        );
        assert_eq!(
            places,
            [
                "pub",
                "mod",
                "mutex",
                "pub",
                "use",
                "mutex",
                "Mutex",
                "MutexGuard"
            ]
        );
    }

    #[test]
    fn nested_invocations_expand_in_turn() {
        let feature = "macro_rules! feature {\n  (#![$meta:meta] $($item:item)*) => { $( #[cfg($meta)] $item )* }\n}";
        let outer = "macro_rules! cfg_rt {\n  ($($item:item)*) => { $crate::feature! { #![feature = \"rt\"] $($item)* } }\n}";
        let (text, places) = expand(&expander(&[feature, outer]), "cfg_rt! { fn spawn() {} }");
        assert_eq!(text, "#[cfg(feature = \"rt\")] fn spawn() { }");
        assert_eq!(places, ["fn", "spawn"]);
    }

    #[test]
    fn rules_are_tried_in_order_with_repetitions_and_separators() {
        let m = "macro_rules! make {\n  () => {};\n  ($name:ident: $($field:ident: $ty:ty),* $(,)?) => { pub struct $name { $(pub $field: $ty),* } };\n}";
        let (text, places) = expand(&expander(&[m]), "make!(Point: x: Vec<u8>, y: u32,);");
        assert_eq!(text, "pub struct Point { pub x: Vec<u8>, pub y: u32 }");
        assert_eq!(places, ["Point", "x", "Vec", "u8", "y", "u32"]);
        let (empty, _) = expand(&expander(&[m]), "make!();");
        assert_eq!(empty, "");
    }

    #[test]
    fn nested_repetitions() {
        let m = "macro_rules! enums {\n  ($($name:ident { $($variant:ident)* })*) => { $(enum $name { $($variant,)* })* };\n}";
        let (text, _) = expand(&expander(&[m]), "enums! { A { X Y } B { Z } }");
        assert_eq!(text, "enum A { X, Y, } enum B { Z, }");
    }

    #[test]
    fn an_invocation_no_rule_matches_is_an_error() {
        let m = "macro_rules! one { ($x:ident) => { struct $x; }; }";
        let e = expander(&[m]);
        assert_eq!(
            e.expand_items("one", "(1 2)", 0),
            Err(ExpandError::NoRuleMatches("one".into()))
        );
        assert!(matches!(
            e.expand_items("one", "(a", 0),
            Err(ExpandError::Lex(_))
        ));
    }

    #[test]
    fn hostile_macros_are_refused_within_their_bounds() {
        // Endless recursion.
        let endless = expander(&["macro_rules! again { () => { again! {} }; }"]);
        assert_eq!(
            endless.expand_items("again", "{}", 0),
            Err(ExpandError::Budget("nesting depth"))
        );
        // Exponential: every level doubles the output.
        let doubling = expander(&[
            "macro_rules! twice { () => { struct S; }; ($x:tt $($rest:tt)*) => { twice! { $($rest)* } twice! { $($rest)* } }; }",
        ]);
        assert_eq!(
            doubling.expand_items("twice", &format!("{{ {} }}", "a ".repeat(30)), 0),
            Err(ExpandError::Budget("expansion size"))
        );
        // A huge output from one rule.
        let huge = expander(&["macro_rules! big { ($($x:tt)*) => { $( $x $x $x $x )* }; }"]);
        let input = format!("{{ {} }}", "a ".repeat(MAX_TOKENS / 2));
        assert_eq!(
            huge.expand_items("big", &input, 0),
            Err(ExpandError::Budget("expansion size"))
        );
    }

    #[test]
    fn each_piece_is_a_token_of_the_text_and_of_the_invocation() {
        let e = expander(&[CFG]);
        let source = "cfg_sync! { pub struct Semaphore; }";
        let expansion = e.expand_items("cfg_sync", &source[9..], 9).unwrap();
        for piece in &expansion.pieces {
            let token = &expansion.text[piece.start as usize..piece.end as usize];
            match piece.origin {
                Some((s, end)) => assert_eq!(&source[s as usize..end as usize], token),
                None => assert!("#[cfg(feature=\"sync\")]".contains(token), "{token}"),
            }
        }
    }

    #[test]
    fn rendered_code_reads_as_written_and_never_runs_tokens_together() {
        let reader = "macro_rules! reader {\n  ($name:ident, $ty:ty) => { impl<R> $name<R> { fn get(&mut self) -> $ty { 0 } } }\n}";
        let (text, _) = expand(&expander(&[reader]), "reader!(ReadU8, u8)");
        assert_eq!(text, "impl<R> ReadU8<R> { fn get(&mut self) -> u8 { 0 } }");
        for (previous, token) in [("a", "b"), ("&", "&"), ("<", "<"), ("!", "="), ("1", "x")] {
            assert!(spaced(previous, token), "{previous} {token}");
        }
    }
}
