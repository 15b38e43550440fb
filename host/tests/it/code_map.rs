//! ARCHITECTURE.md's code map names every crate of the host: a heading
//! `` ### `host/<dir>` — `<package>` `` per crate under `host/`, as its
//! `Cargo.toml` names it.

use std::path::Path;

#[test]
fn every_host_crate_has_an_entry_in_the_code_map() {
    let host = Path::new(env!("CARGO_MANIFEST_DIR"));
    let architecture =
        std::fs::read_to_string(host.join("../ARCHITECTURE.md")).expect("read ARCHITECTURE.md");
    let mut missing = Vec::new();
    let mut crates = 0;
    for entry in std::fs::read_dir(host).expect("read host/") {
        let dir = entry.expect("an entry").path();
        let Ok(manifest) = std::fs::read_to_string(dir.join("Cargo.toml")) else {
            continue;
        };
        let manifest: toml::Table = manifest.parse().expect("a Cargo.toml");
        let package = manifest["package"]["name"]
            .as_str()
            .expect("a package name");
        let folder = dir.file_name().unwrap().to_string_lossy();
        let heading = format!("### `host/{folder}` — `{package}`");
        crates += 1;
        if !architecture.lines().any(|line| line == heading) {
            missing.push(heading);
        }
    }
    assert!(crates >= 10, "found {crates} crates under host/");
    assert!(
        missing.is_empty(),
        "ARCHITECTURE.md has no code map entry:\n{}",
        missing.join("\n")
    );
}
