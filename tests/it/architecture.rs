//! The service crate stays walkable (`docs/architecture.md`): its root has
//! at most twelve modules and no two of them import each other, directly
//! or through others — an arrow A → B for each `crate::B` that A's files
//! name, as `shared/tools/module_circles.py` draws them; the game core
//! imports nothing of the store, the wire forms, the API, the budgets, JSON
//! or the OS; no source file is over 600 lines, no page module over 400.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files
}

/// Each top-level module of `src` and the modules its files name.
fn imports(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut modules: BTreeMap<String, Vec<PathBuf>> = BTreeMap::new();
    for entry in std::fs::read_dir(src).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        if path.is_dir() {
            modules.insert(name, rust_files(&path));
        } else if name != "lib" && name != "main" && path.extension().is_some_and(|e| e == "rs") {
            modules.insert(name, vec![path]);
        }
    }
    let mut edges = BTreeMap::new();
    for (module, files) in &modules {
        let mut named = BTreeSet::new();
        for file in files {
            let text = std::fs::read_to_string(file).unwrap();
            for (i, _) in text.match_indices("crate::") {
                let rest = &text[i + "crate::".len()..];
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_ascii_lowercase() || *c == '_' || c.is_ascii_digit())
                    .collect();
                let before = text[..i].chars().next_back();
                if before.is_none_or(|c| !(c.is_alphanumeric() || c == '_'))
                    && modules.contains_key(&name)
                    && &name != module
                {
                    named.insert(name);
                }
            }
            // `use crate::{a, b::c}` names each of its first segments.
            for (i, _) in text.match_indices("use crate::{") {
                let group = &text[i + "use crate::{".len()..];
                let group = &group[..group.find('}').unwrap_or(group.len())];
                for item in group.split(',') {
                    let first = item.trim().split([':', ' ', '{']).next().unwrap_or("").to_string();
                    if modules.contains_key(&first) && &first != module {
                        named.insert(first);
                    }
                }
            }
        }
        edges.insert(module.clone(), named);
    }
    edges
}

/// The modules from which `start` is reached again, if any: a circle.
fn circle_through(edges: &BTreeMap<String, BTreeSet<String>>, start: &str) -> Option<Vec<String>> {
    let mut path = vec![start.to_string()];
    let mut seen = BTreeSet::new();
    fn walk(
        edges: &BTreeMap<String, BTreeSet<String>>,
        start: &str,
        path: &mut Vec<String>,
        seen: &mut BTreeSet<String>,
    ) -> bool {
        let here = path.last().unwrap().clone();
        for next in &edges[&here] {
            if next == start {
                return true;
            }
            if seen.insert(next.clone()) {
                path.push(next.clone());
                if walk(edges, start, path, seen) {
                    return true;
                }
                path.pop();
            }
        }
        false
    }
    walk(edges, start, &mut path, &mut seen).then_some(path)
}

#[test]
fn the_service_crate_has_at_most_twelve_root_modules_and_no_import_circle() {
    let src = root().join("crates/leapfrog/src");
    let edges = imports(&src);
    assert!(
        edges.len() <= 12,
        "{} modules at the root of crates/leapfrog/src: {:?}",
        edges.len(),
        edges.keys()
    );
    for module in edges.keys() {
        if let Some(circle) = circle_through(&edges, module) {
            panic!("an import circle: {} -> {module}", circle.join(" -> "));
        }
    }
}

#[test]
fn a_circle_is_found() {
    let edges: BTreeMap<String, BTreeSet<String>> = [
        ("a".to_string(), BTreeSet::from(["b".to_string()])),
        ("b".to_string(), BTreeSet::from(["c".to_string()])),
        ("c".to_string(), BTreeSet::from(["a".to_string()])),
        ("d".to_string(), BTreeSet::from(["a".to_string()])),
    ]
    .into();
    assert_eq!(circle_through(&edges, "a"), Some(vec!["a".into(), "b".into(), "c".into()]));
    assert_eq!(circle_through(&edges, "d"), None);
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn the_game_core_imports_nothing_of_the_store_the_wire_the_api_json_or_the_os() {
    let forbidden = [
        "crate::store",
        "crate::wire",
        "crate::api",
        "crate::compute",
        "crate::play",
        "crate::events",
        "crate::server",
        "serde_json",
        "rand::",
        "SystemTime",
        "chrono",
        "std::fs",
        "std::env",
        "tokio",
        "sqlx",
    ];
    for file in rust_files(&root().join("crates/leapfrog/src/game")) {
        let text = std::fs::read_to_string(&file).unwrap();
        // Its tests may use what they like.
        let code =
            if file.ends_with("tests.rs") { "" } else { text.split("#[cfg(test)]").next().unwrap_or("") };
        for name in forbidden {
            assert!(!code.contains(name), "{} names {name}", file.display());
        }
    }
}

#[test]
fn no_source_file_is_over_600_lines_and_no_page_module_over_400() {
    let mut files = Vec::new();
    for dir in ["crates", "tests"] {
        files.extend(
            rust_files(&root().join(dir))
                .into_iter()
                .filter(|f| !f.components().any(|c| c.as_os_str() == "target")),
        );
    }
    for file in files {
        let lines = std::fs::read_to_string(&file).unwrap().lines().count();
        assert!(lines <= 600, "{} has {lines} lines, over 600", file.display());
    }
    let web = root().join("crates/leapfrog/web/src");
    for entry in std::fs::read_dir(&web).unwrap() {
        let file = entry.unwrap().path();
        let name = file.file_name().unwrap().to_string_lossy().to_string();
        // The API's types, generated from the spec.
        if name.ends_with(".ts") && name != "api.d.ts" {
            let lines = std::fs::read_to_string(&file).unwrap().lines().count();
            assert!(lines <= 400, "{} has {lines} lines, over 400", file.display());
        }
    }
}
