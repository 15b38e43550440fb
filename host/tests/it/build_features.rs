//! The README's two commands build once: `cargo build -p lingo` and `cargo
//! test --workspace` resolve the features of every crate they share alike
//! (cargo resolves each invocation apart, so a test dependency that turns
//! on one more feature of a crate Cranelift or tokio uses rebuilds them for
//! the tests, minutes on 2 cores). When this fails, add the feature to the
//! feature-unification block of `host/Cargo.toml`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;

/// `crate -> features` of what `args` builds, from `cargo tree`.
fn features(args: &[&str]) -> BTreeMap<String, BTreeSet<String>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Command::new(cargo)
        .current_dir(&root)
        .args(["tree", "--offline", "--locked", "--prefix", "none"])
        .args(args)
        .output()
        .expect("run cargo tree");
    assert!(
        output.status.success(),
        "cargo tree {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for line in String::from_utf8_lossy(&output.stdout).lines() {
        // `name feature "f"` lines; the others name crates.
        if let Some((name, rest)) = line.split_once(" feature \"") {
            let feature = rest.split('"').next().unwrap_or_default();
            out.entry(name.to_string())
                .or_default()
                .insert(feature.to_string());
        }
    }
    out
}

#[test]
fn the_binary_and_the_tests_share_every_dependencys_features() {
    let binary = features(&["-e", "features,normal,build", "-p", "lingo"]);
    let tests = features(&["-e", "features,normal,build,dev", "--workspace"]);
    let differ: Vec<String> = binary
        .iter()
        .filter_map(|(name, built)| {
            let tested = tests.get(name)?;
            let extra: Vec<&String> = tested.difference(built).collect();
            (!extra.is_empty()).then(|| format!("{name}: the tests add {extra:?}"))
        })
        .collect();
    assert!(binary.len() > 100, "{} crates read", binary.len());
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}
