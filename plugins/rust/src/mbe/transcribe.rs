//! A rule's transcriber written out with the bindings of its match:
//! variables replaced by their trees, repetitions repeated once per round.

use std::rc::Rc;

use super::ExpandError;
use super::lexer::{Group, Kind, Token, Tree};
use super::matcher::{Binding, Bindings};
use super::rules::{Repeat, Transcriber};

/// Output tokens left: a transcription past it is refused.
pub struct Room(pub usize);

impl Room {
    fn take(&mut self, tokens: usize) -> Result<(), ExpandError> {
        self.0 = self
            .0
            .checked_sub(tokens)
            .ok_or(ExpandError::Budget("expansion size"))?;
        Ok(())
    }
}

/// The trees `transcriber` makes from `bindings`; `$crate` is written `krate`.
pub fn transcribe(
    transcriber: &[Transcriber],
    bindings: &Bindings,
    krate: &str,
    room: &mut Room,
) -> Result<Vec<Tree>, ExpandError> {
    let mut out = Vec::new();
    let mut rounds = Vec::new();
    write(transcriber, bindings, krate, &mut rounds, room, &mut out)?;
    Ok(out)
}

fn write(
    transcriber: &[Transcriber],
    bindings: &Bindings,
    krate: &str,
    rounds: &mut Vec<usize>,
    room: &mut Room,
    out: &mut Vec<Tree>,
) -> Result<(), ExpandError> {
    for element in transcriber {
        match element {
            Transcriber::Token(token) => {
                room.take(1)?;
                out.push(Tree::Token(token.clone()));
            }
            Transcriber::Crate => {
                room.take(1)?;
                out.push(Tree::Token(Token {
                    kind: Kind::Ident,
                    text: Rc::from(krate),
                    origin: None,
                }));
            }
            Transcriber::Variable(name) => match bindings.get(name) {
                Some(binding) => match at_round(binding, rounds) {
                    Some(Binding::Trees(trees)) => {
                        room.take(trees.len())?;
                        out.extend(trees.iter().cloned());
                    }
                    _ => {
                        return Err(ExpandError::Definition(format!(
                            "`${name}` is still repeating at this depth"
                        )));
                    }
                },
                // Not a variable of the matcher: written as it is.
                None => {
                    room.take(2)?;
                    for text in ["$", name.as_str()] {
                        out.push(Tree::Token(Token {
                            kind: if text == "$" {
                                Kind::Punct
                            } else {
                                Kind::Ident
                            },
                            text: Rc::from(text),
                            origin: None,
                        }));
                    }
                }
            },
            Transcriber::Group(delimiter, inner) => {
                room.take(2)?;
                let mut trees = Vec::new();
                write(inner, bindings, krate, rounds, room, &mut trees)?;
                out.push(Tree::Group(Group {
                    delimiter: *delimiter,
                    open: None,
                    close: None,
                    trees,
                }));
            }
            Transcriber::Repeat(repeat) => {
                let count = round_count(repeat, bindings, rounds)?;
                for round in 0..count {
                    if round > 0
                        && let Some(separator) = &repeat.separator
                    {
                        room.take(1)?;
                        out.push(Tree::Token(separator.clone()));
                    }
                    rounds.push(round);
                    let written = write(&repeat.items, bindings, krate, rounds, room, out);
                    rounds.pop();
                    written?;
                }
            }
        }
    }
    Ok(())
}

/// `binding` in the rounds `rounds` names, as deep as it repeats.
fn at_round<'b>(binding: &'b Binding, rounds: &[usize]) -> Option<&'b Binding> {
    let mut binding = binding;
    for round in rounds {
        match binding {
            Binding::Rounds(each) => binding = each.get(*round)?,
            Binding::Trees(_) => return Some(binding),
        }
    }
    Some(binding)
}

/// How many times a repetition is written: the rounds of the variables
/// inside it that repeat at this depth, which must agree.
fn round_count(
    repeat: &Repeat<Transcriber>,
    bindings: &Bindings,
    rounds: &[usize],
) -> Result<usize, ExpandError> {
    let mut count = None;
    for name in variables(&repeat.items) {
        let Some(Binding::Rounds(each)) = bindings.get(&name).and_then(|b| at_round(b, rounds))
        else {
            continue;
        };
        match count {
            None => count = Some(each.len()),
            Some(n) if n != each.len() => {
                return Err(ExpandError::Definition(format!(
                    "`${name}` repeats {} times, another variable beside it {n}",
                    each.len()
                )));
            }
            Some(_) => {}
        }
    }
    count.ok_or_else(|| ExpandError::Definition("a repetition with no repeating variable".into()))
}

fn variables(transcriber: &[Transcriber]) -> Vec<String> {
    let mut names = Vec::new();
    for element in transcriber {
        match element {
            Transcriber::Variable(name) => names.push(name.clone()),
            Transcriber::Repeat(repeat) => names.extend(variables(&repeat.items)),
            Transcriber::Group(_, inner) => names.extend(variables(inner)),
            Transcriber::Token(_) | Transcriber::Crate => {}
        }
    }
    names
}
