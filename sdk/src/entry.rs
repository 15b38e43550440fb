//! Entry points and unreachable code as plugins' tests compare them.

use crate::bindings::exports::lingo::plugin::syntax::GuestDocument;
use crate::document::Document;
use crate::language::Language;
use crate::types::EntryPointKind;

/// One line per entry point of `source` parsed as `path`: `name kind`
/// (`main main`, `it_counts test`), in source order, for plugins' tests.
pub fn describe_entry_points<L: Language>(path: &str, source: &str) -> Vec<String> {
    let document = Document::<L>::new(path.into(), source.into());
    let symbols = document.symbols();
    document
        .entry_points()
        .iter()
        .map(|e| {
            let kind = match e.kind {
                EntryPointKind::Main => "main",
                EntryPointKind::Initializer => "initializer",
                EntryPointKind::Test => "test",
                EntryPointKind::Benchmark => "benchmark",
                EntryPointKind::Implementation => "implementation",
                EntryPointKind::Foreign => "foreign",
                EntryPointKind::AllowedUnused => "allowed-unused",
            };
            format!("{} {kind}", symbols[e.symbol as usize].name)
        })
        .collect()
}

/// The text of each unreachable run of `source` parsed as `path`, in
/// source order, for plugins' tests.
pub fn describe_unreachable<L: Language>(path: &str, source: &str) -> Vec<String> {
    let document = Document::<L>::new(path.into(), source.into());
    document
        .unreachable()
        .iter()
        .filter_map(|s| source.get(s.start.offset as usize..s.end.offset as usize))
        .map(str::to_string)
        .collect()
}
