//! "Did you mean": the names most like a wanted one, for the suggestions
//! of errors, bounded whatever the input.

/// Up to `limit` candidates most similar to `wanted`, best first. Bounded
/// whatever the input: only the first characters of names are compared,
/// only a bounded number of candidates is looked at, and the quadratic
/// Jaro-Winkler score is computed only between names of comparable length,
/// within a total amount of work.
pub fn similar<'a>(
    wanted: &str,
    candidates: impl IntoIterator<Item = &'a str>,
    limit: usize,
) -> Vec<String> {
    /// Characters of a name compared, at most.
    const MAX_CHARS: usize = 256;
    /// Candidates looked at, at most.
    const MAX_CANDIDATES: usize = 50_000;
    /// Character pairs Jaro-Winkler may visit over all candidates.
    const MAX_PAIRS: usize = 20_000_000;
    let head = |name: &str| -> String {
        name.chars()
            .take(MAX_CHARS)
            .flat_map(char::to_lowercase)
            .collect()
    };
    let wanted_lower = head(wanted);
    let wanted_len = wanted_lower.chars().count();
    let mut pairs = 0usize;
    let mut scored: Vec<(f64, &str)> = Vec::new();
    for c in candidates.into_iter().take(MAX_CANDIDATES) {
        let lower = head(c);
        let len = lower.chars().count();
        // Abbreviations (`fn` for `function`) and prefixes count too.
        let mut score: f64 = 0.0;
        if lower.starts_with(&wanted_lower) || is_abbreviation(&wanted_lower, &lower) {
            score = 0.85;
        }
        // A name over three times as long as the other hardly scores.
        let comparable = len.max(wanted_len) <= 3 * len.min(wanted_len) + 3;
        if comparable && pairs < MAX_PAIRS {
            pairs += len.max(1) * wanted_len.max(1);
            score = score.max(strsim::jaro_winkler(&wanted_lower, &lower));
        }
        if score >= 0.8 {
            scored.push((score, c));
        }
    }
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(b.1)));
    let mut out: Vec<String> = Vec::new();
    for (_, c) in scored {
        if !out.iter().any(|o| o == c) {
            out.push(c.to_string());
        }
        if out.len() == limit {
            break;
        }
    }
    out
}

/// `wanted`'s characters appear in `candidate` in order, starting with its first.
fn is_abbreviation(wanted: &str, candidate: &str) -> bool {
    if wanted.len() < 2 || wanted.chars().next() != candidate.chars().next() {
        return false;
    }
    let mut rest = candidate.chars();
    wanted.chars().all(|c| rest.any(|r| r == c))
}
