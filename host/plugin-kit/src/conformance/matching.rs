//! Matching expected entries to actual ones: one to one, any order, only the given fields.

use serde_json::Value;

use super::facts::Actual;
use super::fixture::{Category, Entry};

/// A field whose expected and actual values differ.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldDiff {
    pub field: String,
    pub expected: Value,
    pub actual: Value,
}

/// The actual entry nearest to an unmatched expected one.
#[derive(Debug, Clone)]
pub enum Closest {
    /// There are no actual entries at all.
    Nothing,
    /// The nearest actual entry and how it differs.
    Differs {
        actual: usize,
        diffs: Vec<FieldDiff>,
    },
    /// Actual entries match, but each is already matched by another expected
    /// entry (the expectation is duplicated).
    Taken { actual: usize },
}

/// The outcome of one category of one file.
#[derive(Debug, Default)]
pub struct CategoryOutcome {
    /// Expected entries without an actual entry, with the closest one.
    pub missing: Vec<(usize, Closest)>,
    /// Actual entries no expected entry matched (only when exhaustive).
    pub unexpected: Vec<usize>,
}

/// How `actual` differs from `expected` on the fields `expected` gives.
pub fn diffs(expected: &Entry, actual: &Actual) -> Vec<FieldDiff> {
    let mut out = Vec::new();
    for (field, want) in expected {
        let got = actual.fields.get(*field).cloned().unwrap_or(Value::Null);
        match (want, &got) {
            // Objects (Halstead counts) compare only the sub-fields given.
            (Value::Object(want), Value::Object(got)) => {
                for (key, value) in want {
                    let got = got.get(key).cloned().unwrap_or(Value::Null);
                    if *value != got {
                        out.push(FieldDiff {
                            field: format!("{field}.{key}"),
                            expected: value.clone(),
                            actual: got,
                        });
                    }
                }
            }
            _ if *want != got => out.push(FieldDiff {
                field: field.to_string(),
                expected: want.clone(),
                actual: got,
            }),
            _ => {}
        }
    }
    out
}

/// Match `expected` to `actual` one to one (a maximum bipartite matching,
/// trying actual entries in order), then explain what is left.
pub fn match_category(
    category: &Category,
    expected: &[Entry],
    actual: &[Actual],
    exhaustive: bool,
) -> CategoryOutcome {
    let candidates: Vec<Vec<usize>> = expected
        .iter()
        .map(|e| {
            (0..actual.len())
                .filter(|&j| diffs(e, &actual[j]).is_empty())
                .collect()
        })
        .collect();
    // owner[j]: the expected entry actual entry j is matched to.
    let mut owner: Vec<Option<usize>> = vec![None; actual.len()];
    for i in 0..expected.len() {
        let mut seen = vec![false; actual.len()];
        augment(i, &candidates, &mut owner, &mut seen);
    }
    let mut matched = vec![false; expected.len()];
    for i in owner.iter().flatten() {
        matched[*i] = true;
    }
    let mut outcome = CategoryOutcome::default();
    for (i, entry) in expected.iter().enumerate() {
        if matched[i] {
            continue;
        }
        let closest = if let Some(&taken) = candidates[i].first() {
            Closest::Taken { actual: taken }
        } else {
            closest(category, entry, actual, &owner)
        };
        outcome.missing.push((i, closest));
    }
    if exhaustive {
        outcome.unexpected = (0..actual.len()).filter(|&j| owner[j].is_none()).collect();
    }
    outcome
}

/// Kuhn's augmenting path from expected entry `i`.
fn augment(
    i: usize,
    candidates: &[Vec<usize>],
    owner: &mut [Option<usize>],
    seen: &mut [bool],
) -> bool {
    for &j in &candidates[i] {
        if seen[j] {
            continue;
        }
        seen[j] = true;
        let free = match owner[j] {
            None => true,
            Some(other) => augment(other, candidates, owner, seen),
        };
        if free {
            owner[j] = Some(i);
            return true;
        }
    }
    false
}

/// The actual entry agreeing with `entry` on the most given fields (the
/// category's first identity field counting double), unmatched ones first.
fn closest(
    category: &Category,
    entry: &Entry,
    actual: &[Actual],
    owner: &[Option<usize>],
) -> Closest {
    let key = category.identity.first().copied();
    let mut best: Option<(usize, (usize, bool), Vec<FieldDiff>)> = None;
    for (j, candidate) in actual.iter().enumerate() {
        let diffs = diffs(entry, candidate);
        let agreeing: usize = entry
            .iter()
            .filter(|(field, _)| {
                !diffs
                    .iter()
                    .any(|d| d.field.split('.').next() == Some(*field))
            })
            .map(|(field, _)| if Some(*field) == key { 2 } else { 1 })
            .sum();
        let score = (agreeing, owner[j].is_none());
        if best.as_ref().is_none_or(|(_, s, _)| score > *s) {
            best = Some((j, score, diffs));
        }
    }
    match best {
        None => Closest::Nothing,
        Some((actual, _, diffs)) => Closest::Differs { actual, diffs },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conformance::fixture::SYMBOLS;
    use serde_json::json;

    fn actual(name: &str, kind: &str) -> Actual {
        let Value::Object(fields) = json!({"name": name, "kind": kind}) else {
            unreachable!()
        };
        Actual {
            fields,
            label: name.into(),
        }
    }

    fn entry(name: &str, kind: Option<&str>) -> Entry {
        let mut e = vec![("name", json!(name))];
        if let Some(kind) = kind {
            e.push(("kind", json!(kind)));
        }
        e
    }

    #[test]
    fn a_looser_entry_does_not_steal_the_only_match_of_a_stricter_one() {
        // `a` (name only) could take either; `a method` only the second.
        let actual = [actual("a", "function"), actual("a", "method")];
        let expected = [entry("a", None), entry("a", Some("method"))];
        let outcome = match_category(&SYMBOLS, &expected, &actual, true);
        assert!(outcome.missing.is_empty(), "{outcome:?}");
        assert!(outcome.unexpected.is_empty(), "{outcome:?}");
    }

    #[test]
    fn duplicates_and_near_misses_are_explained() {
        let actual = [actual("Foo", "struct"), actual("Bar", "class")];
        let expected = [
            entry("Bar", None),
            entry("Bar", None),
            entry("Foo", Some("class")),
        ];
        let outcome = match_category(&SYMBOLS, &expected, &actual, true);
        assert!(matches!(
            outcome.missing[0],
            (1, Closest::Taken { actual: 1 })
        ));
        let (2, Closest::Differs { actual: 0, diffs }) = &outcome.missing[1] else {
            panic!("{outcome:?}")
        };
        assert_eq!(
            diffs,
            &[FieldDiff {
                field: "kind".into(),
                expected: json!("class"),
                actual: json!("struct")
            }]
        );
        assert_eq!(outcome.unexpected, [0]);
    }
}
