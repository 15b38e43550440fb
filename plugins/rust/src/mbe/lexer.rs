//! Rust source text to token trees, as `macro_rules!` sees it: identifiers,
//! lifetimes, literals, punctuation (multi-character operators glued) and
//! doc comments, grouped by their delimiters.

use std::rc::Rc;

/// What a token is, as far as matching and transcribing need to know.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// An identifier or keyword (`r#raw` ones included).
    Ident,
    /// `'a`, `'static`, `'_`.
    Lifetime,
    /// A string, character, byte or number literal, with its suffix.
    Literal,
    /// An operator or other punctuation, multi-character ones as one token.
    Punct,
    /// `/// text`, `//! text`, `/** text */`: an attribute to the matcher.
    DocComment,
}

/// A byte range of the file an invocation is written in.
pub type Origin = (u32, u32);

/// One token. `origin` is where it is written in the file being indexed:
/// `None` for a token of a macro's definition (another place, maybe another
/// file) or one the expander made.
#[derive(Clone, Debug)]
pub struct Token {
    pub kind: Kind,
    pub text: Rc<str>,
    pub origin: Option<Origin>,
}

impl Token {
    pub fn is(&self, text: &str) -> bool {
        &*self.text == text
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Delimiter {
    Paren,
    Bracket,
    Brace,
}

impl Delimiter {
    pub fn open(self) -> &'static str {
        match self {
            Delimiter::Paren => "(",
            Delimiter::Bracket => "[",
            Delimiter::Brace => "{",
        }
    }

    pub fn close(self) -> &'static str {
        match self {
            Delimiter::Paren => ")",
            Delimiter::Bracket => "]",
            Delimiter::Brace => "}",
        }
    }
}

/// A delimited group: its delimiters' origins and the trees inside.
#[derive(Clone, Debug)]
pub struct Group {
    pub delimiter: Delimiter,
    pub open: Option<Origin>,
    pub close: Option<Origin>,
    pub trees: Vec<Tree>,
}

#[derive(Clone, Debug)]
pub enum Tree {
    Token(Token),
    Group(Group),
}

impl Tree {
    pub fn token(&self) -> Option<&Token> {
        match self {
            Tree::Token(token) => Some(token),
            Tree::Group(_) => None,
        }
    }

    /// Whether this is the token `text`.
    pub fn is(&self, text: &str) -> bool {
        self.token().is_some_and(|t| t.is(text))
    }

    pub fn group(&self, delimiter: Delimiter) -> Option<&Group> {
        match self {
            Tree::Group(group) if group.delimiter == delimiter => Some(group),
            _ => None,
        }
    }
}

/// Why text is not a sequence of token trees.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LexError {
    /// A closing delimiter without its opening one, or of another kind.
    Unbalanced(usize),
    /// A string, character or block comment that does not end.
    Unterminated(usize),
    /// Groups nested deeper than [`MAX_NESTING`].
    TooDeep(usize),
}

/// Groups nested deeper than this are refused, so that every walk over
/// trees may recurse.
pub const MAX_NESTING: usize = 128;

/// Operators of more than one character, longest first.
const GLUED: &[&str] = &[
    "<<=", ">>=", "...", "..=", "::", "->", "=>", "==", "!=", "<=", ">=", "&&", "||", "+=", "-=",
    "*=", "/=", "%=", "^=", "&=", "|=", "<<", ">>", "..",
];

/// The token trees of `text`. With `base`, each token's origin is its range
/// in the file, `text` starting at byte `base`; without, origins are `None`.
pub fn lex(text: &str, base: Option<u32>) -> Result<Vec<Tree>, LexError> {
    let bytes = text.as_bytes();
    let origin = |start: usize, end: usize| base.map(|b| (b + start as u32, b + end as u32));
    // Open groups, innermost last; the bottom entry is the top level.
    let mut stack: Vec<OpenGroup> = vec![(None, Vec::new())];
    let mut at = 0;
    while at < bytes.len() {
        let c = bytes[at];
        let start = at;
        let kind = match c {
            b' ' | b'\t' | b'\n' | b'\r' => {
                at += 1;
                continue;
            }
            b'/' if bytes.get(at + 1) == Some(&b'/') => {
                let end = text[at..].find('\n').map_or(bytes.len(), |n| at + n);
                let doc = (text[at..].starts_with("///") && !text[at..].starts_with("////"))
                    || text[at..].starts_with("//!");
                at = end;
                if !doc {
                    continue;
                }
                Kind::DocComment
            }
            b'/' if bytes.get(at + 1) == Some(&b'*') => {
                at = block_comment_end(bytes, at).ok_or(LexError::Unterminated(start))?;
                let comment = &text[start..at];
                let doc = (comment.starts_with("/**")
                    && !comment.starts_with("/***")
                    && comment.len() > 4)
                    || comment.starts_with("/*!");
                if !doc {
                    continue;
                }
                Kind::DocComment
            }
            b'(' | b'[' | b'{' => {
                let delimiter = match c {
                    b'(' => Delimiter::Paren,
                    b'[' => Delimiter::Bracket,
                    _ => Delimiter::Brace,
                };
                if stack.len() > MAX_NESTING {
                    return Err(LexError::TooDeep(at));
                }
                stack.push((Some((delimiter, at)), Vec::new()));
                at += 1;
                continue;
            }
            b')' | b']' | b'}' => {
                let (Some((delimiter, open)), trees) = stack.pop().unwrap_or((None, Vec::new()))
                else {
                    return Err(LexError::Unbalanced(at));
                };
                if delimiter.close().as_bytes()[0] != c {
                    return Err(LexError::Unbalanced(at));
                }
                at += 1;
                let group = Group {
                    delimiter,
                    open: origin(open, open + 1),
                    close: origin(start, at),
                    trees,
                };
                push(&mut stack, Tree::Group(group));
                continue;
            }
            b'"' => {
                at = string_end(bytes, at + 1, b'"').ok_or(LexError::Unterminated(start))?;
                at = ident_end(text, at);
                Kind::Literal
            }
            b'\'' => match lifetime_or_char(text, at) {
                Some((end, kind)) => {
                    at = end;
                    kind
                }
                None => return Err(LexError::Unterminated(start)),
            },
            b'0'..=b'9' => {
                at = number_end(text, at);
                Kind::Literal
            }
            _ if starts_ident(text, at) => {
                let end = ident_end(text, at);
                let word = &text[at..end];
                match (word, bytes.get(end)) {
                    ("r" | "br" | "cr", Some(b'"' | b'#')) if raw_string_start(bytes, end) => {
                        at = raw_string_end(bytes, end).ok_or(LexError::Unterminated(start))?;
                        at = ident_end(text, at);
                        Kind::Literal
                    }
                    ("b" | "c", Some(b'"')) => {
                        at = string_end(bytes, end + 1, b'"')
                            .ok_or(LexError::Unterminated(start))?;
                        at = ident_end(text, at);
                        Kind::Literal
                    }
                    ("b", Some(b'\'')) => {
                        at = string_end(bytes, end + 1, b'\'')
                            .ok_or(LexError::Unterminated(start))?;
                        Kind::Literal
                    }
                    ("r", Some(b'#')) if starts_ident(text, end + 1) => {
                        at = ident_end(text, end + 1);
                        Kind::Ident
                    }
                    _ => {
                        at = end;
                        Kind::Ident
                    }
                }
            }
            _ => {
                let glued = GLUED.iter().find(|op| text[at..].starts_with(**op));
                at += glued.map_or_else(
                    || text[at..].chars().next().map_or(1, char::len_utf8),
                    |op| op.len(),
                );
                Kind::Punct
            }
        };
        let token = Token {
            kind,
            text: text[start..at].trim_end().into(),
            origin: origin(start, at),
        };
        push(&mut stack, Tree::Token(token));
    }
    match stack.pop() {
        Some((None, trees)) if stack.is_empty() => Ok(trees),
        Some((Some((_, open)), _)) => Err(LexError::Unbalanced(open)),
        _ => Err(LexError::Unbalanced(bytes.len())),
    }
}

/// A group being read: its delimiter and where it opened (`None` for the
/// top level), and the trees read so far.
type OpenGroup = (Option<(Delimiter, usize)>, Vec<Tree>);

fn push(stack: &mut [OpenGroup], tree: Tree) {
    if let Some((_, trees)) = stack.last_mut() {
        trees.push(tree);
    }
}

fn starts_ident(text: &str, at: usize) -> bool {
    text[at..]
        .chars()
        .next()
        .is_some_and(|c| c == '_' || c.is_alphabetic())
}

fn ident_end(text: &str, at: usize) -> usize {
    text[at..]
        .char_indices()
        .find(|(_, c)| !(*c == '_' || c.is_alphanumeric()))
        .map_or(text.len(), |(n, _)| at + n)
}

/// The end of a string or character literal whose body starts at `at`.
fn string_end(bytes: &[u8], mut at: usize, quote: u8) -> Option<usize> {
    while at < bytes.len() {
        match bytes[at] {
            b'\\' => at += 2,
            c if c == quote => return Some(at + 1),
            _ => at += 1,
        }
    }
    None
}

/// Whether a raw string's `#`s and quote follow at `at` (after `r`).
fn raw_string_start(bytes: &[u8], at: usize) -> bool {
    let hashes = bytes[at..].iter().take_while(|b| **b == b'#').count();
    bytes.get(at + hashes) == Some(&b'"')
}

fn raw_string_end(bytes: &[u8], at: usize) -> Option<usize> {
    let hashes = bytes[at..].iter().take_while(|b| **b == b'#').count();
    let body = at + hashes + 1;
    let mut closing = vec![b'"'];
    closing.extend(std::iter::repeat_n(b'#', hashes));
    bytes[body..]
        .windows(closing.len())
        .position(|w| w == closing.as_slice())
        .map(|n| body + n + closing.len())
}

fn block_comment_end(bytes: &[u8], mut at: usize) -> Option<usize> {
    let mut depth = 0usize;
    while at + 1 < bytes.len() {
        match (bytes[at], bytes[at + 1]) {
            (b'/', b'*') => {
                depth += 1;
                at += 2;
            }
            (b'*', b'/') => {
                depth -= 1;
                at += 2;
                if depth == 0 {
                    return Some(at);
                }
            }
            _ => at += 1,
        }
    }
    None
}

/// `'a` (a lifetime) or `'a'`, `'\n'` (a character), starting at the quote.
fn lifetime_or_char(text: &str, at: usize) -> Option<(usize, Kind)> {
    let bytes = text.as_bytes();
    if bytes.get(at + 1) == Some(&b'\\') {
        return string_end(bytes, at + 1, b'\'').map(|end| (end, Kind::Literal));
    }
    let c = text[at + 1..].chars().next()?;
    let after = at + 1 + c.len_utf8();
    if bytes.get(after) == Some(&b'\'') {
        return Some((after + 1, Kind::Literal));
    }
    (c == '_' || c.is_alphabetic()).then(|| (ident_end(text, at + 1), Kind::Lifetime))
}

/// The end of a number literal: digits, `_`, a fraction (not `..`), an
/// exponent and a suffix.
fn number_end(text: &str, start: usize) -> usize {
    let bytes = text.as_bytes();
    let hex = text[start..].starts_with("0x") || text[start..].starts_with("0X");
    let mut at = start;
    let mut seen_dot = false;
    while at < bytes.len() {
        let c = bytes[at];
        if c.is_ascii_alphanumeric() || c == b'_' {
            at += 1;
            if !hex && (c == b'e' || c == b'E') && matches!(bytes.get(at), Some(b'+' | b'-')) {
                at += 1;
            }
        } else if c == b'.'
            && !seen_dot
            && !hex
            && bytes.get(at + 1).is_some_and(|d| d.is_ascii_digit())
        {
            seen_dot = true;
            at += 1;
        } else {
            break;
        }
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(trees: &[Tree]) -> Vec<String> {
        let mut out = Vec::new();
        for tree in trees {
            match tree {
                Tree::Token(t) => out.push(format!("{:?}:{}", t.kind, t.text)),
                Tree::Group(g) => {
                    out.push(g.delimiter.open().to_string());
                    out.extend(texts(&g.trees));
                    out.push(g.delimiter.close().to_string());
                }
            }
        }
        out
    }

    #[test]
    fn tokens_of_rust_text() {
        let trees = lex(
            "pub fn f<'a>(x: &'a str) -> Vec<u8> { x.len() >>= 1..=2; 'c'; b\"x\"; r#\"q\"#; 1.5e-3f64; 1..2 } // no\n/// doc",
            Some(10),
        )
        .unwrap();
        assert_eq!(
            texts(&trees).join(" "),
            "Ident:pub Ident:fn Ident:f Punct:< Lifetime:'a Punct:> ( Ident:x Punct:: Punct:& \
             Lifetime:'a Ident:str ) Punct:-> Ident:Vec Punct:< Ident:u8 Punct:> { Ident:x Punct:. \
             Ident:len ( ) Punct:>>= Literal:1 Punct:..= Literal:2 Punct:; Literal:'c' Punct:; \
             Literal:b\"x\" Punct:; Literal:r#\"q\"# Punct:; Literal:1.5e-3f64 Punct:; Literal:1 \
             Punct:.. Literal:2 } DocComment:/// doc"
        );
        let Tree::Token(first) = &trees[0] else {
            panic!()
        };
        assert_eq!(first.origin, Some((10, 13)));
    }

    #[test]
    fn unbalanced_and_unterminated_text_is_refused() {
        assert_eq!(lex("(]", None).unwrap_err(), LexError::Unbalanced(1));
        assert_eq!(lex("{ (", None).unwrap_err(), LexError::Unbalanced(2));
        assert_eq!(lex(")", None).unwrap_err(), LexError::Unbalanced(0));
        assert_eq!(lex("\"abc", None).unwrap_err(), LexError::Unterminated(0));
        assert_eq!(
            lex("/* /* */", None).unwrap_err(),
            LexError::Unterminated(0)
        );
        let deep = "(".repeat(MAX_NESTING + 2) + &")".repeat(MAX_NESTING + 2);
        assert!(matches!(lex(&deep, None), Err(LexError::TooDeep(_))));
    }
}
