//! The plugin code compiled natively: the SDK's `Document` of each language
//! called as the host calls the component, stage by stage.

use std::time::{Duration, Instant};

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

/// One pass over every file, natively.
pub fn pass(lang: Lang, files: &[Source]) -> (Counts, Stages) {
    match lang {
        Lang::Rust => pass_of::<lingo_plugin_rust::Rust>(files),
        Lang::TypeScript => pass_of::<lingo_plugin_typescript::TypeScript>(files),
        Lang::Go => pass_of::<lingo_plugin_go::Go>(files),
        Lang::CSharp => pass_of::<lingo_plugin_csharp::CSharp>(files),
    }
}

fn pass_of<L: Language>(files: &[Source]) -> (Counts, Stages) {
    let mut counts = Counts::default();
    let mut stages = Stages::default();
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
        counts.symbols += document.symbols().len();
        lap(1);
        counts.references += document.references().len();
        lap(2);
        let _ = document.imports();
        lap(3);
        counts.locals += document.locals().len();
        lap(4);
        let _ = document.diagnostics();
        lap(5);
        counts.metrics += document.metrics().len();
        lap(6);
        counts.declared_types += document.declared_types().len();
        lap(7);
        let _ = document.module_of(&file.path, &[]);
        lap(8);
    }
    (counts, stages)
}

/// Tree-sitter alone: each file parsed with its plugin's grammar.
pub fn parse_only(lang: Lang, files: &[Source]) {
    let grammar = |path: &str| match lang {
        Lang::Rust => lingo_plugin_rust::Rust::grammar(path).1,
        Lang::TypeScript => lingo_plugin_typescript::TypeScript::grammar(path).1,
        Lang::Go => lingo_plugin_go::Go::grammar(path).1,
        Lang::CSharp => lingo_plugin_csharp::CSharp::grammar(path).1,
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
