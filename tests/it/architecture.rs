//! What Cargo cannot say about the house (`docs/architecture.md`). Each
//! layer is a crate, so Cargo's graph is the layering; these tests keep it
//! from growing an edge by accident (the game core building sqlx, the
//! services building actix), and keep every crate walkable: no import
//! circle between the modules at its root (an arrow A → B for each
//! `crate::B` A's files name, as `shared/tools/module_circles.py` draws
//! them), units a reader holds in their head, and each crate's and
//! module's doc naming its parts.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

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
    files.sort();
    files
}

/// Every crate of the workspace, by its folder under `crates/`.
fn crates() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root().join("crates"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("Cargo.toml").exists())
        .collect();
    dirs.sort();
    dirs
}

/// The service's own crates: every crate but the rules engine and the search.
fn service_crates() -> Vec<PathBuf> {
    crates()
        .into_iter()
        .filter(|c| c.file_name().unwrap().to_string_lossy().starts_with("leapfrog"))
        .collect()
}

/// The packages `package` is built with (its normal, build and dev
/// dependencies, transitively), as `cargo tree` lists them.
fn built_with(package: &str) -> BTreeSet<String> {
    let out = std::process::Command::new(env!("CARGO"))
        .args(["tree", "--quiet", "--offline", "-p", package, "-e", "normal,build,dev", "--prefix", "none"])
        .args(["--format", "{p}"])
        .current_dir(root())
        .output()
        .unwrap();
    assert!(out.status.success(), "cargo tree -p {package}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .map(str::to_string)
        .collect()
}

#[test]
fn handlers_name_no_store_type_for_the_http_crate_does_not_depend_on_the_store() {
    let manifest = std::fs::read_to_string(root().join("crates/leapfrog-http/Cargo.toml")).unwrap();
    assert!(!manifest.contains("leapfrog-store"), "leapfrog-http names the store among its dependencies");
}

#[test]
fn each_layer_is_built_without_the_layers_above_it_and_the_core_without_io() {
    // (package, what it must never be built with, its tests included)
    let walls: [(&str, &[&str]); 6] = [
        (
            "leapfrog-core",
            &[
                "leapfrog-wire",
                "leapfrog-store",
                "leapfrog-service",
                "leapfrog-http",
                "serde_json",
                "sqlx",
                "tokio",
            ],
        ),
        (
            "leapfrog-wire",
            &["leapfrog-store", "leapfrog-service", "leapfrog-http", "sqlx", "actix-web", "tokio"],
        ),
        (
            "leapfrog-store",
            &["leapfrog-wire", "leapfrog-service", "leapfrog-http", "actix-web", "utoipa", "clap"],
        ),
        ("leapfrog-service", &["leapfrog-http", "actix-web", "actix-rt", "actix-http", "clap"]),
        ("leapfrog-http", &["leapfrog"]),
        // The WebAssembly package: the engine and the wire alone.
        ("leapfrog-js", &["leapfrog-service", "leapfrog-store", "sqlx", "actix-web", "tokio"]),
    ];
    for (package, never) in walls {
        let built = built_with(package);
        for name in never {
            assert!(!built.contains(*name), "{package} is built with {name}");
        }
    }
}

/// Each module at the root of `src` and the modules of the same root its
/// files name outside their tests (`crate::x`, `use crate::{x, …}`, and
/// `super::x` in a root module's own file).
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
        for file in files.iter().filter(|f| !f.ends_with("tests.rs")) {
            let text = std::fs::read_to_string(file).unwrap();
            let text = non_test(&text);
            let at_root = file.parent() == Some(src) || file.ends_with(format!("{module}/mod.rs"));
            let prefixes: &[&str] = if at_root { &["crate::", "super::"] } else { &["crate::"] };
            for prefix in prefixes {
                for (i, _) in text.match_indices(prefix) {
                    let before = text[..i].chars().next_back();
                    if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                        continue;
                    }
                    let rest = &text[i + prefix.len()..];
                    if let Some(group) = rest.strip_prefix('{') {
                        let group = &group[..group.find('}').unwrap_or(group.len())];
                        for item in group.split(',') {
                            named.insert(item.trim().split([':', ' ', '{']).next().unwrap_or("").to_string());
                        }
                    } else {
                        let name: String = rest
                            .chars()
                            .take_while(|c| c.is_ascii_lowercase() || *c == '_' || c.is_ascii_digit())
                            .collect();
                        named.insert(name);
                    }
                }
            }
        }
        named.retain(|n| modules.contains_key(n) && n != module);
        edges.insert(module.clone(), named);
    }
    edges
}

/// The modules from which `start` is reached again, if any: a circle.
fn circle_through(edges: &BTreeMap<String, BTreeSet<String>>, start: &str) -> Option<Vec<String>> {
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
    let mut path = vec![start.to_string()];
    let mut seen = BTreeSet::new();
    walk(edges, start, &mut path, &mut seen).then_some(path)
}

#[test]
fn no_crate_has_an_import_circle_between_its_root_modules() {
    for krate in crates() {
        let edges = imports(&krate.join("src"));
        for module in edges.keys() {
            if let Some(circle) = circle_through(&edges, module) {
                panic!("an import circle in {}: {} -> {module}", krate.display(), circle.join(" -> "));
            }
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

#[test]
fn the_game_core_names_nothing_of_json_randomness_clocks_or_the_os() {
    let forbidden =
        ["serde_json", "rand::", "SystemTime", "Instant::now", "chrono", "std::fs", "std::env", "std::net"];
    for file in rust_files(&root().join("crates/leapfrog-core/src")) {
        let text = std::fs::read_to_string(&file).unwrap();
        // Its tests may use what they like.
        let code = if file.ends_with("tests.rs") { "" } else { non_test(&text) };
        for name in forbidden {
            assert!(!code.contains(name), "{} names {name}", file.display());
        }
    }
}

#[test]
fn the_store_reaches_its_runtime_and_its_connections_in_one_module() {
    // `run.rs` holds the hop and the helpers every method calls; the root
    // uses the hop for the store's opening, migration and closing alone; the
    // group committer (`group`, `batch`, `direct`) runs on a thread or task
    // of its own, already on the database's side.
    let hop = ["on_db(", "on_runtime("];
    let connections = [".read().await", ".write().await", ".begin().await"];
    for file in rust_files(&root().join("crates/leapfrog-store/src")) {
        let name = file.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(&file).unwrap();
        let code = non_test(&text);
        if ["run.rs", "group.rs", "batch.rs", "direct.rs"].contains(&name.as_str()) {
            continue;
        }
        let hops = hop.iter().map(|h| code.matches(h).count()).sum::<usize>();
        let allowed = if name == "lib.rs" { 4 } else { 0 };
        assert!(hops <= allowed, "{} goes to the database's runtime {hops} times itself", file.display());
        for c in connections {
            assert!(
                !code.contains(c),
                "{} takes a connection itself ({c}): use the helpers of run.rs",
                file.display()
            );
        }
    }
}

/// A file's text before its first `#[cfg(test)]`.
fn non_test(text: &str) -> &str {
    text.split("#[cfg(test)]").next().unwrap_or("")
}

/// The functions of `code` over `limit` lines (from the `fn` line to its
/// closing brace), as (name, first line, lines).
fn long_functions(code: &str, limit: usize) -> Vec<(String, usize, usize)> {
    let lines: Vec<&str> = code.lines().collect();
    let mut long = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some(name) = fn_name(line) else { continue };
        let mut depth = 0i64;
        let mut opened = false;
        for (j, body) in lines[i..].iter().enumerate() {
            let body = braces_only(body);
            if !opened && body.contains(';') && !body.contains('{') {
                break; // a declaration without a body
            }
            for c in body.chars() {
                match c {
                    '{' => {
                        depth += 1;
                        opened = true;
                    }
                    '}' => depth -= 1,
                    _ => {}
                }
            }
            if opened && depth <= 0 {
                if j + 1 > limit {
                    long.push((name.clone(), i + 1, j + 1));
                }
                break;
            }
        }
    }
    long
}

/// The name of the function a line begins, if it begins one.
fn fn_name(line: &str) -> Option<String> {
    let mut words = line.split_whitespace().peekable();
    while let Some(word) = words.next() {
        match word {
            "pub" | "const" | "async" | "unsafe" | "extern" => {}
            w if w.starts_with("pub(") || w.starts_with('"') => {}
            "fn" => {
                let name = words.peek()?;
                return Some(name.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect());
            }
            _ => return None,
        }
    }
    None
}

/// A line without its strings, characters and comment: enough to count braces.
fn braces_only(line: &str) -> String {
    let mut out = String::new();
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                while let Some(s) = chars.next() {
                    match s {
                        '\\' => {
                            chars.next();
                        }
                        '"' => break,
                        _ => {}
                    }
                }
            }
            '\'' if matches!(chars.clone().nth(1), Some('\'')) || chars.peek() == Some(&'\\') => {
                for s in chars.by_ref() {
                    if s == '\'' {
                        break;
                    }
                }
            }
            '/' if chars.peek() == Some(&'/') => break,
            _ => out.push(c),
        }
    }
    out
}

#[test]
fn the_service_crates_have_no_function_over_80_lines_and_no_file_over_500() {
    for krate in service_crates() {
        for file in rust_files(&krate.join("src")) {
            if file.ends_with("tests.rs") {
                continue;
            }
            let text = std::fs::read_to_string(&file).unwrap();
            let code = non_test(&text);
            let lines = code.lines().count();
            assert!(lines <= 500, "{} has {lines} lines of code, over 500", file.display());
            if let Some((name, line, length)) = long_functions(code, 80).first() {
                panic!("{}:{line} `{name}` has {length} lines, over 80", file.display());
            }
        }
    }
}

#[test]
fn a_long_function_is_measured_and_braces_in_strings_are_not_counted() {
    let body = "    let _ = \"}\";\n".repeat(81);
    let code = format!("pub(crate) async fn long() {{\n{body}}}\nfn short() {{}}\nfn declared();\n");
    assert_eq!(long_functions(&code, 80), vec![("long".to_string(), 1, 83)]);
    assert!(long_functions(&code, 83).is_empty());
}

#[test]
fn no_source_file_is_over_600_lines_and_no_page_module_over_400() {
    let mut files = Vec::new();
    for dir in ["crates", "tests"] {
        files.extend(rust_files(&root().join(dir)).into_iter().filter(|f| {
            !f.components().any(|c| c.as_os_str() == "target" || c.as_os_str() == "node_modules")
        }));
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

/// The modules a file declares (`mod x;`, `pub mod x;`), tests aside.
fn declared_modules(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| {
            let l = l.trim_start();
            let l = l.strip_prefix("pub ").or_else(|| l.strip_prefix("pub(crate) ")).unwrap_or(l);
            let name = l.strip_prefix("mod ")?.strip_suffix(';')?;
            (name != "tests").then(|| name.to_string())
        })
        .collect()
}

#[test]
fn each_crate_and_module_doc_names_its_parts() {
    for krate in service_crates() {
        for file in rust_files(&krate.join("src")) {
            let text = std::fs::read_to_string(&file).unwrap();
            let doc: String =
                text.lines().filter_map(|l| l.strip_prefix("//!")).collect::<Vec<_>>().join("\n");
            for module in declared_modules(&text) {
                assert!(
                    doc.contains(&format!("`{module}`")) || doc.contains(&format!("`{module}/`")),
                    "{}'s doc does not name its module `{module}`",
                    file.display()
                );
            }
        }
    }
}

#[test]
fn the_readme_and_the_architecture_name_every_crate() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let architecture = std::fs::read_to_string(root().join("docs/architecture.md")).unwrap();
    for krate in crates() {
        let name = krate.file_name().unwrap().to_string_lossy().to_string();
        assert!(readme.contains(&format!("`{name}`")), "README.md does not name the crate `{name}`");
        assert!(architecture.contains(&format!("`{name}`")), "docs/architecture.md does not name `{name}`");
    }
}
