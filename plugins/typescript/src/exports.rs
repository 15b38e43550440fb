//! A `package.json` `exports` (or `imports`) map as Node and tsc read it: sub-paths
//! (`"."`, `"./v4"`, patterns with one `*`), each to a target or to
//! conditions tried in the order written, the first one active wins. Read
//! with its key order kept (a JSON object's order is its meaning here).

use std::fmt;

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

/// Most levels of nested conditions followed.
const MAX_DEPTH: usize = 8;

/// One value of an `exports` map.
#[derive(Debug, Clone, PartialEq)]
pub enum Exports {
    /// `"./dist/index.js"`.
    Target(String),
    /// Keys in the order written: sub-paths (`"./x"`) or conditions.
    Map(Vec<(String, Exports)>),
    /// Fallbacks, the first that resolves.
    Array(Vec<Exports>),
    /// `null`: not exported.
    Null,
}

impl<'de> Deserialize<'de> for Exports {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Exports, D::Error> {
        struct ExportsVisitor;
        impl<'de> Visitor<'de> for ExportsVisitor {
            type Value = Exports;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an exports value: a string, an object, an array or null")
            }
            fn visit_str<E>(self, value: &str) -> Result<Exports, E> {
                Ok(Exports::Target(value.to_string()))
            }
            fn visit_unit<E>(self) -> Result<Exports, E> {
                Ok(Exports::Null)
            }
            fn visit_bool<E>(self, _: bool) -> Result<Exports, E> {
                Ok(Exports::Null)
            }
            fn visit_i64<E>(self, _: i64) -> Result<Exports, E> {
                Ok(Exports::Null)
            }
            fn visit_u64<E>(self, _: u64) -> Result<Exports, E> {
                Ok(Exports::Null)
            }
            fn visit_f64<E>(self, _: f64) -> Result<Exports, E> {
                Ok(Exports::Null)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Exports, A::Error> {
                let mut items = Vec::new();
                while let Some(item) = seq.next_element()? {
                    items.push(item);
                }
                Ok(Exports::Array(items))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Exports, A::Error> {
                let mut entries = Vec::new();
                while let Some((key, value)) = map.next_entry::<String, Exports>()? {
                    entries.push((key, value));
                }
                Ok(Exports::Map(entries))
            }
        }
        deserializer.deserialize_any(ExportsVisitor)
    }
}

/// The `exports` of a `package.json` text, when it has one.
pub fn of_package(package_json: &str) -> Option<Exports> {
    #[derive(serde::Deserialize)]
    struct Package {
        exports: Option<Exports>,
    }
    serde_json::from_str::<Package>(package_json).ok()?.exports
}

/// The `imports` of a `package.json` text (subpath imports, `#name`),
/// when it has one: a map of the same form as `exports`.
pub fn imports_of_package(package_json: &str) -> Option<Exports> {
    #[derive(serde::Deserialize)]
    struct Package {
        imports: Option<Exports>,
    }
    serde_json::from_str::<Package>(package_json).ok()?.imports
}

impl Exports {
    /// The targets (package-relative, as written) that `sub_path` (`"."`,
    /// `"./v4"`, or `"#internal"` of an `imports` map) reaches under the
    /// active `conditions`.
    pub fn targets(&self, sub_path: &str, conditions: &[&str]) -> Vec<String> {
        let entries = match self {
            // Sub-paths (`./x`) of `exports`, or the `#x` keys of `imports`.
            Exports::Map(entries)
                if entries
                    .iter()
                    .any(|(k, _)| k.starts_with('.') || k.starts_with('#')) =>
            {
                entries
            }
            // A target or conditions alone are the package's root.
            other => {
                return if sub_path == "." {
                    other.resolve(conditions, "", 0)
                } else {
                    Vec::new()
                };
            }
        };
        if let Some((_, value)) = entries.iter().find(|(key, _)| key == sub_path) {
            return value.resolve(conditions, "", 0);
        }
        let best = entries
            .iter()
            .filter_map(|(key, value)| {
                let (prefix, suffix) = key.split_once('*')?;
                let middle = sub_path.strip_prefix(prefix)?.strip_suffix(suffix)?;
                Some((prefix.len(), value, middle))
            })
            .max_by_key(|(prefix, ..)| *prefix);
        match best {
            Some((_, value, middle)) => value.resolve(conditions, middle, 0),
            None => Vec::new(),
        }
    }

    /// This value's targets: a target with `*` replaced by `star`, the
    /// first active condition's, or the first fallback that gives any.
    fn resolve(&self, conditions: &[&str], star: &str, depth: usize) -> Vec<String> {
        if depth > MAX_DEPTH {
            return Vec::new();
        }
        match self {
            Exports::Target(target) => vec![target.replace('*', star)],
            Exports::Null => Vec::new(),
            Exports::Array(items) => items
                .iter()
                .map(|item| item.resolve(conditions, star, depth + 1))
                .find(|found| !found.is_empty())
                .unwrap_or_default(),
            Exports::Map(entries) => entries
                .iter()
                .find(|(condition, _)| conditions.contains(&condition.as_str()))
                .map(|(_, value)| value.resolve(conditions, star, depth + 1))
                .unwrap_or_default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CONDITIONS: &[&str] = &["@lib/source", "types", "import", "default"];

    #[test]
    fn sub_paths_resolve_through_the_first_active_condition_in_written_order() {
        let exports = of_package(
            r#"{ "name": "thelib", "exports": {
                "./package.json": "./package.json",
                ".": { "@lib/source": "./src/index.ts", "types": "./index.d.cts", "import": "./index.js" },
                "./v4": { "types": "./v4/index.d.cts", "@lib/source": "./src/v4/index.ts" },
                "./locales/*": { "default": "./dist/locales/*.js" },
                "./internal/*": null
            } }"#,
        )
        .expect("has exports");
        assert_eq!(exports.targets(".", CONDITIONS), ["./src/index.ts"]);
        // Written order decides, not the order of the active conditions.
        assert_eq!(exports.targets("./v4", CONDITIONS), ["./v4/index.d.cts"]);
        assert_eq!(
            exports.targets("./locales/en", CONDITIONS),
            ["./dist/locales/en.js"]
        );
        assert!(exports.targets("./internal/x", CONDITIONS).is_empty());
        assert!(exports.targets("./nowhere", CONDITIONS).is_empty());
    }

    #[test]
    fn a_string_or_conditions_alone_export_the_root() {
        let plain = of_package(r#"{ "exports": "./main.js" }"#).unwrap();
        assert_eq!(plain.targets(".", CONDITIONS), ["./main.js"]);
        assert!(plain.targets("./x", CONDITIONS).is_empty());
        let conditional =
            of_package(r#"{ "exports": { "require": "./a.cjs", "import": "./a.mjs" } }"#).unwrap();
        assert_eq!(conditional.targets(".", CONDITIONS), ["./a.mjs"]);
        let fallbacks =
            of_package(r#"{ "exports": { ".": [{ "worker": "./w.js" }, "./b.js"] } }"#).unwrap();
        assert_eq!(fallbacks.targets(".", CONDITIONS), ["./b.js"]);
        assert!(of_package(r#"{ "name": "x" }"#).is_none());
        assert!(of_package("not json").is_none());
    }

    #[test]
    fn hostile_maps_end_in_nothing_not_a_crash() {
        // Nested past the parser's limit: not read.
        let deep = format!(
            r#"{{ "exports": {}"./x"{}}}"#,
            r#"{ "a": "#.repeat(5_000),
            "}".repeat(5_000)
        );
        assert!(of_package(&deep).is_none());
        // Nested conditions past MAX_DEPTH: no target, no recursion without end.
        let conditions = format!(
            r#"{{ "exports": {{ ".": {}"./x"{} }} }}"#,
            r#"{ "default": "#.repeat(20),
            "}".repeat(20)
        );
        let exports = of_package(&conditions).expect("read");
        assert!(exports.targets(".", CONDITIONS).is_empty());
        // Numbers and booleans where targets belong: not exported.
        let odd = of_package(r#"{ "exports": { ".": 7, "./y": true } }"#).unwrap();
        assert!(odd.targets(".", CONDITIONS).is_empty());
    }
}
