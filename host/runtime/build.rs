//! Builds the built-in language plugins (and the hostile test plugin) as
//! `wasm32-wasip2` components and embeds the built-in ones in the binary.
//!
//! The plugins are built by a nested `cargo build` into their own target
//! directory (`target/plugins`), so it never waits on the outer build's lock.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Built-in plugins: (package name, wasm file stem, folder under
/// `plugins/`). Embedded in the binary, each with the `info()` answer its
/// folder records in `info.json` (kept true by a test of the `it` suite).
const BUILT_IN: &[(&str, &str, &str)] = &[
    ("lingo-plugin-rust", "lingo_plugin_rust", "rust"),
    (
        "lingo-plugin-typescript",
        "lingo_plugin_typescript",
        "typescript",
    ),
    ("lingo-plugin-csharp", "lingo_plugin_csharp", "csharp"),
    ("lingo-plugin-go", "lingo_plugin_go", "go"),
    ("lingo-plugin-python", "lingo_plugin_python", "python"),
    ("lingo-plugin-java", "lingo_plugin_java", "java"),
];
/// Plugins built for the test suites only; their directory is exported.
const TEST_ONLY: &[(&str, &str)] = &[("lingo-plugin-hostile", "lingo_plugin_hostile")];

fn main() {
    let manifest_dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let workspace = manifest_dir
        .ancestors()
        .nth(2)
        .expect("host/runtime is two levels below the workspace")
        .to_path_buf();
    for watched in [
        "wit",
        "sdk",
        "plugins",
        "tests/plugins",
        "Cargo.lock",
        "Cargo.toml",
        // The wasm target's C and Rust flags.
        ".cargo/config.toml",
    ] {
        println!(
            "cargo:rerun-if-changed={}",
            workspace.join(watched).display()
        );
    }
    println!("cargo:rerun-if-env-changed=LINGO_SKIP_PLUGIN_BUILD");

    let target_dir = workspace.join("target").join("plugins");
    let out_dir = target_dir.join("wasm32-wasip2").join("plugin");
    if std::env::var_os("LINGO_SKIP_PLUGIN_BUILD").is_none() {
        build_plugins(&workspace, &target_dir);
    }

    let mut embedded = String::from(
        "/// The built-in plugins: (file name, component bytes, the bytes'\n\
         /// sha256 in hex, computed here so that a start does not hash them,\n\
         /// the `info()` answer recorded beside the plugin's source, if any).\n\
         pub static BUILT_IN_PLUGINS: &[(&str, &[u8], &str, Option<&str>)] = &[\n",
    );
    for (_, stem, folder) in BUILT_IN {
        let wasm = out_dir.join(format!("{stem}.wasm"));
        assert!(
            wasm.exists(),
            "plugin component missing: {}",
            wasm.display()
        );
        let bytes = std::fs::read(&wasm).expect("read the plugin component");
        let digest = hex::encode(<sha2::Sha256 as sha2::Digest>::digest(&bytes));
        let info = workspace.join("plugins").join(folder).join("info.json");
        let stated = if info.exists() {
            format!("Some(include_str!({info:?}))")
        } else {
            "None".to_string()
        };
        embedded.push_str(&format!(
            "    (\"{stem}.wasm\", include_bytes!({wasm:?}), \"{digest}\", {stated}),\n",
        ));
    }
    embedded.push_str("];\n");
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap()).join("embedded_plugins.rs");
    std::fs::write(out, embedded).unwrap();
    println!(
        "cargo:rustc-env=LINGO_PLUGIN_ARTIFACTS={}",
        out_dir.display()
    );
}

fn build_plugins(workspace: &Path, target_dir: &Path) {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut command = Command::new(cargo);
    command
        .current_dir(workspace)
        .args([
            "build",
            "--target",
            "wasm32-wasip2",
            "--profile",
            "plugin",
            "--target-dir",
        ])
        .arg(target_dir);
    let packages = BUILT_IN
        .iter()
        .map(|(package, ..)| package)
        .chain(TEST_ONLY.iter().map(|(package, _)| package));
    for package in packages {
        command.args(["-p", package]);
    }
    // The outer build's settings are for the host, not for the wasm target.
    for var in [
        "CARGO_ENCODED_RUSTFLAGS",
        "RUSTFLAGS",
        "CARGO_BUILD_TARGET",
        "CARGO_TARGET_DIR",
        "CARGO_PRIMARY_PACKAGE",
        "TARGET",
        "HOST",
        "OPT_LEVEL",
        "PROFILE",
        "DEBUG",
        "CC",
        "CFLAGS",
        "AR",
        "RUSTC_WRAPPER",
        "RUSTC_WORKSPACE_WRAPPER",
    ] {
        command.env_remove(var);
    }
    let status = command
        .status()
        .expect("run cargo to build the plugin components");
    assert!(
        status.success(),
        "building the plugin components failed; is the wasm toolchain installed? \
         (rustup target add wasm32-wasip2; apt-get install clang-19 llvm-19 wasi-libc)"
    );
}
