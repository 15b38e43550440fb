# Shared by the bench scripts: crates.io sources through cargo's registry.
# Source it; it needs CARGO_HOME, WORK and a `say` function.

crate_source() {  # name version -> the unpacked crate in the cargo registry
  local src
  src="$(ls -d "$CARGO_HOME"/registry/src/*/"$1-$2" 2>/dev/null | head -1 || true)"
  if [ -z "$src" ]; then
    say "fetching $1 $2 into the cargo registry"
    local f="$WORK/fetch-$1"
    mkdir -p "$f/src" && echo 'fn main() {}' > "$f/src/main.rs"
    printf '[package]\nname = "fetch"\nversion = "0.0.0"\nedition = "2021"\n[dependencies]\n%s = "=%s"\n' "$1" "$2" > "$f/Cargo.toml"
    (cd "$f" && cargo fetch >&2)
    src="$(ls -d "$CARGO_HOME"/registry/src/*/"$1-$2" | head -1)"
  fi
  echo "$src"
}
