//! C#'s conditional compilation: the text the compiler sees, for the parser.
//!
//! tree-sitter-c-sharp reads `#if` directives as nodes of the tree, which
//! fails where they split a statement or a `switch` section (`#if` around
//! one `case`, `#if`/`#else` each holding half of an `if`), and then a
//! whole region becomes one syntax error. The compiler instead skips the
//! branches whose condition is false. This module does the same, keeping
//! every byte offset: the directive lines `#if`, `#elif`, `#else`,
//! `#endif`, `#define` and `#undef`, and every line of a skipped branch,
//! become spaces; newlines stay.
//!
//! No symbol is defined but those the file itself `#define`s: the project's
//! `DefineConstants` are not visible to a plugin, and a build without them
//! is what `#if !SYMBOL` usually guards. A condition that does not read as
//! C#'s preprocessor grammar is false. A line of a multi-line (verbatim or
//! raw) string that starts with `#` is read as a directive, as it is not
//! by the compiler; such strings are rare enough to accept that.

/// Nesting of parentheses and `!` a condition may have before it is read
/// as false.
const MAX_CONDITION_DEPTH: usize = 64;

/// The source as the compiler sees it, or `None` when the file has no
/// conditional directive.
pub fn compiled_text(source: &str) -> Option<String> {
    if !source.contains('#') {
        return None;
    }
    let mut out = String::with_capacity(source.len());
    let mut defined: Vec<String> = Vec::new();
    let mut branches: Vec<Branch> = Vec::new();
    let mut changed = false;
    for line in source.split_inclusive('\n') {
        let active = branches.last().is_none_or(|b| b.active);
        let blank = match directive(line) {
            Some((name, rest)) => {
                let conditional = apply(name, rest, active, &mut branches, &mut defined);
                conditional || !active
            }
            None => !active,
        };
        if blank {
            changed = true;
            blank_into(&mut out, line);
        } else {
            out.push_str(line);
        }
    }
    changed.then_some(out)
}

/// One `#if` ... `#endif` being read.
struct Branch {
    /// Whether the code around the `#if` is compiled.
    outer_active: bool,
    /// Whether one of its branches so far was taken.
    taken: bool,
    /// Whether the current branch is compiled.
    active: bool,
}

/// Applies the directive `name` (with the text after it) to the branch
/// stack and the defined symbols; true when it is one of those this module
/// blanks (conditional directives, `#define`, `#undef`).
fn apply(
    name: &str,
    rest: &str,
    active: bool,
    branches: &mut Vec<Branch>,
    defined: &mut Vec<String>,
) -> bool {
    match name {
        "if" => {
            let holds = active && condition(rest, defined);
            branches.push(Branch {
                outer_active: active,
                taken: holds,
                active: holds,
            });
        }
        "elif" => {
            if let Some(branch) = branches.last_mut() {
                let holds = branch.outer_active && !branch.taken && condition(rest, defined);
                branch.active = holds;
                branch.taken |= holds;
            }
        }
        "else" => {
            if let Some(branch) = branches.last_mut() {
                branch.active = branch.outer_active && !branch.taken;
                branch.taken = true;
            }
        }
        "endif" => {
            branches.pop();
        }
        "define" | "undef" => {
            if active && let Some(symbol) = symbol_of(rest) {
                defined.retain(|d| d != symbol);
                if name == "define" {
                    defined.push(symbol.to_string());
                }
            }
        }
        _ => return false,
    }
    true
}

/// The directive a line holds (`#` first after whitespace): its name and
/// the text after it.
fn directive(line: &str) -> Option<(&str, &str)> {
    let after_hash = line.trim_start().strip_prefix('#')?.trim_start();
    let end = after_hash
        .find(|c: char| !c.is_ascii_alphabetic())
        .unwrap_or(after_hash.len());
    Some((&after_hash[..end], &after_hash[end..]))
}

/// The symbol a `#define` or `#undef` names.
fn symbol_of(rest: &str) -> Option<&str> {
    let rest = rest.trim_start();
    let end = rest
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    (end > 0).then(|| &rest[..end])
}

/// A skipped line written blank: line breaks stay, any other character
/// becomes as many spaces as it has UTF-8 bytes.
fn blank_into(out: &mut String, line: &str) {
    for c in line.chars() {
        match c {
            '\n' | '\r' => out.push(c),
            _ => out.extend(std::iter::repeat_n(' ', c.len_utf8())),
        }
    }
}

/// Whether a condition holds with `defined` symbols; false when it does
/// not read as a condition.
fn condition(text: &str, defined: &[String]) -> bool {
    let text = text.split("//").next().unwrap_or("");
    let tokens = match tokenize(text) {
        Some(tokens) => tokens,
        None => return false,
    };
    let mut reader = Reader {
        tokens: &tokens,
        at: 0,
        defined,
        depth: 0,
    };
    match reader.or() {
        Some(value) if reader.at == tokens.len() => value,
        _ => false,
    }
}

/// A token of a preprocessor condition.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Token<'a> {
    Symbol(&'a str),
    Not,
    And,
    Or,
    Equal,
    NotEqual,
    Open,
    Close,
}

fn tokenize(text: &str) -> Option<Vec<Token<'_>>> {
    let mut tokens = Vec::new();
    let mut rest = text.trim_start();
    while !rest.is_empty() {
        let (token, len) = if rest.starts_with("&&") {
            (Token::And, 2)
        } else if rest.starts_with("||") {
            (Token::Or, 2)
        } else if rest.starts_with("==") {
            (Token::Equal, 2)
        } else if rest.starts_with("!=") {
            (Token::NotEqual, 2)
        } else if rest.starts_with('!') {
            (Token::Not, 1)
        } else if rest.starts_with('(') {
            (Token::Open, 1)
        } else if rest.starts_with(')') {
            (Token::Close, 1)
        } else {
            let len = rest
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            if len == 0 {
                return None;
            }
            (Token::Symbol(&rest[..len]), len)
        };
        tokens.push(token);
        rest = rest[len..].trim_start();
    }
    Some(tokens)
}

/// A recursive-descent reader of a condition's tokens, its depth bounded.
struct Reader<'t, 'a> {
    tokens: &'t [Token<'a>],
    at: usize,
    defined: &'t [String],
    depth: usize,
}

impl<'a> Reader<'_, 'a> {
    fn peek(&self) -> Option<Token<'a>> {
        self.tokens.get(self.at).cloned()
    }

    fn or(&mut self) -> Option<bool> {
        let mut value = self.and()?;
        while self.peek() == Some(Token::Or) {
            self.at += 1;
            value |= self.and()?;
        }
        Some(value)
    }

    fn and(&mut self) -> Option<bool> {
        let mut value = self.equality()?;
        while self.peek() == Some(Token::And) {
            self.at += 1;
            value &= self.equality()?;
        }
        Some(value)
    }

    fn equality(&mut self) -> Option<bool> {
        let mut value = self.unary()?;
        loop {
            match self.peek() {
                Some(Token::Equal) => {
                    self.at += 1;
                    value = value == self.unary()?;
                }
                Some(Token::NotEqual) => {
                    self.at += 1;
                    value = value != self.unary()?;
                }
                _ => return Some(value),
            }
        }
    }

    fn unary(&mut self) -> Option<bool> {
        self.depth += 1;
        if self.depth > MAX_CONDITION_DEPTH {
            return None;
        }
        let value = match self.peek()? {
            Token::Not => {
                self.at += 1;
                !self.unary()?
            }
            Token::Open => {
                self.at += 1;
                let inner = self.or()?;
                if self.peek() != Some(Token::Close) {
                    return None;
                }
                self.at += 1;
                inner
            }
            Token::Symbol(name) => {
                self.at += 1;
                match name {
                    "true" => true,
                    "false" => false,
                    _ => self.defined.iter().any(|d| d == name),
                }
            }
            _ => return None,
        };
        self.depth -= 1;
        Some(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn compiled(source: &str) -> String {
        let text = compiled_text(source).unwrap_or_else(|| source.to_string());
        assert_eq!(text.len(), source.len());
        text
    }

    /// The lines of the compiled text that are not blank.
    fn kept(source: &str) -> Vec<String> {
        compiled(source)
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| l.trim().to_string())
            .collect()
    }

    #[test]
    fn a_file_without_directives_is_parsed_as_it_is() {
        assert_eq!(compiled_text("class A { }\n// #if X\n"), None);
        assert_eq!(compiled_text("class A { }\n#region R\n#endregion\n"), None);
    }

    #[test]
    fn the_branch_of_an_undefined_symbol_is_skipped_and_its_negation_kept() {
        let source = "switch (t) {\n#if !DISABLE_SINGLE\ncase 1: return 1;\n#endif\n#if PROTO\ncase 2: return 2;\n#endif\n}\n";
        assert_eq!(kept(source), ["switch (t) {", "case 1: return 1;", "}"]);
    }

    #[test]
    fn else_and_elif_take_the_first_branch_that_holds() {
        let source =
            "#define B\n#if A\na();\n#elif B && !A\nb();\n#elif true\nc();\n#else\nd();\n#endif\n";
        assert_eq!(kept(source), ["b();"]);
        let source = "#if A\na();\n#else\nd();\n#endif\n";
        assert_eq!(kept(source), ["d();"]);
    }

    #[test]
    fn nested_branches_inside_a_skipped_one_stay_skipped() {
        let source = "#if A\n#if !B\nx();\n#else\ny();\n#endif\n#else\nz();\n#endif\n";
        assert_eq!(kept(source), ["z();"]);
    }

    #[test]
    fn defines_apply_from_their_line_and_undef_removes() {
        let source = "#define X\n#if X\none();\n#endif\n#undef X\n#if X\ntwo();\n#endif\n";
        assert_eq!(kept(source), ["one();"]);
    }

    #[test]
    fn offsets_and_newlines_are_kept_with_multibyte_text() {
        let source = "a();\r\n#if X\né = \"ü\";\n#endif\nb();\n";
        let text = compiled(source);
        assert_eq!(text.len(), source.len());
        for (a, b) in text.bytes().zip(source.bytes()) {
            assert_eq!(a == b'\n', b == b'\n');
        }
        assert!(text.starts_with("a();\r\n"));
        assert!(text.ends_with("b();\n"));
    }

    #[test]
    fn conditions_follow_the_preprocessor_grammar() {
        let defined = vec!["A".to_string()];
        let holds = |c: &str| condition(c, &defined);
        assert!(holds("A"));
        assert!(!holds("B"));
        assert!(holds("A || B"));
        assert!(!holds("A && B"));
        assert!(holds("!(A && B)"));
        assert!(holds("A == true"));
        assert!(holds("B != A // a comment"));
        // Not a condition: false.
        assert!(!holds("A &&"));
        assert!(!holds("(A"));
        assert!(!holds("A B"));
        assert!(!holds("A + 1"));
        assert!(!holds(""));
    }

    #[test]
    fn deep_or_unbalanced_input_ends() {
        let deep = format!("#if {}A\nx();\n#endif\n", "!".repeat(100_000));
        assert_eq!(kept(&deep), Vec::<String>::new());
        let parens = format!("#if {}A\nx();\n#endif\n", "(".repeat(100_000));
        assert_eq!(kept(&parens), Vec::<String>::new());
        // Stray #endif and #else, and an #if never closed.
        let stray = "#endif\n#else\na();\n#if !A\nb();\n";
        assert_eq!(kept(stray), ["a();", "b();"]);
    }
}
