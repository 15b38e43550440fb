use std::path::Path;
use lingo::runtime::{Limits, PluginRegistry, RuntimeConfig};

#[test]
fn dump() {
    let registry = PluginRegistry::load(&RuntimeConfig {
        extra_plugins: vec![],
        include_built_in: true,
        cache_dir: Some(Path::new(env!("CARGO_TARGET_TMPDIR")).join("lingo-cache")),
        limits: Limits::default(),
    })
    .unwrap();
    let file = std::env::var("DUMP").unwrap();
    let source = std::fs::read_to_string(&file).unwrap();
    let facts = registry.for_path(Path::new("x.rs")).unwrap().analyze("src/x.rs", &source, &[]).unwrap();
    let mut out = String::new();
    for (i, s) in facts.symbols.iter().enumerate() {
        out += &format!("S{i} {} {:?} {} span {}:{}-{}:{} name {}:{}-{}:{} cont {:?} {:?} sig {:?} doc {:?} {:?} {:?}\n", s.name, s.kind, s.language_kind, s.span.start.line, s.span.start.character, s.span.end.line, s.span.end.character, s.name_span.start.line, s.name_span.start.character, s.name_span.end.line, s.name_span.end.character, s.container, s.container_name, s.signature, s.doc, s.visibility, s.modifiers);
    }
    for r in &facts.references {
        out += &format!("R {} {:?} {}:{} q{:?} m{} enc {:?} loc {:?}\n", r.name, r.kind, r.span.start.line, r.span.start.character, r.qualifier, r.is_member, r.enclosing, r.local);
    }
    for (i, l) in facts.locals.iter().enumerate() {
        out += &format!("L{i} {} {} {}:{} scope {}:{}-{}:{}\n", l.name, l.language_kind, l.span.start.line, l.span.start.character, l.scope.start.line, l.scope.start.character, l.scope.end.line, l.scope.end.character);
    }
    for i in &facts.imports {
        out += &format!("I {:?}\n", i);
    }
    for d in &facts.diagnostics {
        out += &format!("D {:?}\n", d);
    }
    for m in &facts.metrics {
        out += &format!("M {} {:?}\n", facts.symbols[m.symbol as usize].name, m);
    }
    out += &format!("modules {:?}\n", facts.modules);
    std::fs::write("/tmp/dump.txt", out).unwrap();
}
