//! The plugin code compiled natively: the SDK's `Document` of each language
//! called as the host calls the component, stage by stage.

use std::time::{Duration, Instant};

use sha2::{Digest, Sha256};

use lingo_plugin_sdk::Document;
use lingo_plugin_sdk::Language;
use lingo_plugin_sdk::bindings::exports::lingo::plugin::syntax::GuestDocument;

use crate::Counts;
use crate::files::{Lang, Source};

/// The calls of the host's `analyze`, in its order.
const STAGES: [&str; 9] = [
    "parse (document new)",
    "symbols",
    "references",
    "imports",
    "locals",
    "diagnostics",
    "metrics",
    "declared types",
    "module of",
];

/// Time spent in each stage over one pass.
#[derive(Clone, Default)]
pub struct Stages([Duration; STAGES.len()]);

impl Stages {
    /// The time of all stages together.
    pub fn total(&self) -> Duration {
        self.0.iter().sum()
    }

    /// Per stage, the median over the passes.
    pub fn median(passes: &[Stages]) -> Stages {
        let mut median = Stages::default();
        for (stage, slot) in median.0.iter_mut().enumerate() {
            let mut times: Vec<Duration> = passes.iter().map(|p| p.0[stage]).collect();
            times.sort();
            *slot = times[times.len() / 2];
        }
        median
    }

    pub fn print(&self, total: Duration) {
        println!("| native stage | time | share |");
        println!("|---|--:|--:|");
        for (name, time) in STAGES.iter().zip(&self.0) {
            println!(
                "| {name} | {:.3} s | {:.1}% |",
                time.as_secs_f64(),
                100.0 * time.as_secs_f64() / total.as_secs_f64()
            );
        }
    }
}

/// One pass over every file, natively, with the digest of every fact
/// (sha256 over the `Debug` text of each fact list of each file, in file
/// order; hashed outside the timed stages).
pub fn pass(lang: Lang, files: &[Source]) -> (Counts, Stages, String) {
    match lang {
        Lang::Rust => pass_of::<lingo_plugin_rust::Rust>(files),
        Lang::TypeScript => pass_of::<lingo_plugin_typescript::TypeScript>(files),
        Lang::Go => pass_of::<lingo_plugin_go::Go>(files),
        Lang::CSharp => pass_of::<lingo_plugin_csharp::CSharp>(files),
        Lang::Python => pass_of::<lingo_plugin_python::Python>(files),
        Lang::Java => pass_of::<lingo_plugin_java::Java>(files),
    }
}

fn pass_of<L: Language>(files: &[Source]) -> (Counts, Stages, String) {
    let mut counts = Counts::default();
    let mut stages = Stages::default();
    let mut digest = Sha256::new();
    for file in files {
        let mut clock = Instant::now();
        let mut lap = |stage: usize| {
            let now = Instant::now();
            stages.0[stage] += now - clock;
            clock = now;
        };
        let document = Document::<L>::new(file.path.clone(), file.text.clone());
        let _ = document.language();
        lap(0);
        let symbols = document.symbols();
        lap(1);
        let references = document.references();
        lap(2);
        let imports = document.imports();
        lap(3);
        let locals = document.locals();
        lap(4);
        let diagnostics = document.diagnostics();
        lap(5);
        let metrics = document.metrics();
        lap(6);
        let declared_types = document.declared_types();
        lap(7);
        let module_of = document.module_of(&file.path, &[]);
        lap(8);
        counts.symbols += symbols.len();
        counts.references += references.len();
        counts.locals += locals.len();
        counts.metrics += metrics.len();
        counts.declared_types += declared_types.len();
        digest.update(file.path.as_bytes());
        for facts in [
            format!("{symbols:?}"),
            format!("{references:?}"),
            format!("{imports:?}"),
            format!("{locals:?}"),
            format!("{diagnostics:?}"),
            format!("{metrics:?}"),
            format!("{declared_types:?}"),
            format!("{module_of:?}"),
        ] {
            digest.update(facts.as_bytes());
            digest.update([0]);
        }
    }
    let digest: String = digest
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    (counts, stages, digest)
}

/// Tree-sitter alone: each file parsed with its plugin's grammar.
pub fn parse_only(lang: Lang, files: &[Source]) {
    let grammar = |path: &str| match lang {
        Lang::Rust => lingo_plugin_rust::Rust::grammar(path).1,
        Lang::TypeScript => lingo_plugin_typescript::TypeScript::grammar(path).1,
        Lang::Go => lingo_plugin_go::Go::grammar(path).1,
        Lang::CSharp => lingo_plugin_csharp::CSharp::grammar(path).1,
        Lang::Python => lingo_plugin_python::Python::grammar(path).1,
        Lang::Java => lingo_plugin_java::Java::grammar(path).1,
    };
    let mut parser = tree_sitter::Parser::new();
    for file in files {
        parser
            .set_language(&grammar(&file.path))
            .expect("a grammar the SDK's tree-sitter reads");
        let tree = parser.parse(&file.text, None);
        std::hint::black_box(tree);
    }
}

/// The tree work the plugin code is built on, on the same trees: a cursor
/// walk over every node, and the language's queries (its three files'
/// patterns, matched in one pass; the matches only iterated). Parsing is
/// not counted.
pub fn query_passes(lang: Lang, files: &[Source]) {
    match lang {
        Lang::Rust => query_passes_of::<lingo_plugin_rust::Rust>(files),
        Lang::TypeScript => query_passes_of::<lingo_plugin_typescript::TypeScript>(files),
        Lang::Go => query_passes_of::<lingo_plugin_go::Go>(files),
        Lang::CSharp => query_passes_of::<lingo_plugin_csharp::CSharp>(files),
        Lang::Python => query_passes_of::<lingo_plugin_python::Python>(files),
        Lang::Java => query_passes_of::<lingo_plugin_java::Java>(files),
    }
}

fn query_passes_of<L: Language>(files: &[Source]) {
    use tree_sitter::StreamingIterator;
    let mut parser = tree_sitter::Parser::new();
    let (mut walk, mut nodes) = (Duration::ZERO, 0usize);
    let (mut query_time, mut matched) = (Duration::ZERO, 0usize);
    for file in files {
        let (language, grammar) = L::grammar(&file.path);
        parser.set_language(&grammar).expect("the plugin's grammar");
        let Some(tree) = parser.parse(&file.text, None) else {
            continue;
        };
        let started = Instant::now();
        let mut cursor = tree.walk();
        'walk: loop {
            nodes += 1;
            if cursor.goto_first_child() {
                continue;
            }
            while !cursor.goto_next_sibling() {
                if !cursor.goto_parent() {
                    break 'walk;
                }
            }
        }
        walk += started.elapsed();
        let started = Instant::now();
        let mut cursor = tree_sitter::QueryCursor::new();
        cursor.set_max_start_depth(Some(lingo_plugin_sdk::MAX_QUERY_START_DEPTH));
        let query = L::queries(language).query();
        let mut matches = cursor.matches(query, tree.root_node(), file.text.as_bytes());
        while matches.next().is_some() {
            matched += 1;
        }
        query_time += started.elapsed();
    }
    println!("| tree work, one core | time | count |");
    println!("|---|--:|--:|");
    println!(
        "| cursor walk, every node | {:.3} s | {nodes} nodes |",
        walk.as_secs_f64()
    );
    println!(
        "| the queries, one pass | {:.3} s | {matched} matches |",
        query_time.as_secs_f64()
    );
}
