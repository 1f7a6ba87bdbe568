//! The lists of names in the docs are complete: every search, heuristic,
//! OPEN set, table kind and movement rule of the library's registries
//! (their `ALL` lists, whose completeness the crate's unit tests check with
//! exhaustive matches) is named where the docs list them. A name removed
//! from one of those lists, or a new variant not added to it, fails here
//! (as the `pathfinding` crate's `tests/version.rs` checks its README).

use std::path::{Path, PathBuf};

use cairns::grid::Neighborhood;
use cairns::open::OpenKind;
use cairns::saved::TableKind;
use cairns::spec::{Algorithm, GraphSearch, HeuristicSpec, PlacementKind};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn read(relative: &str) -> String {
    let path = repo().join(relative);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The `//!` doc comment of a Rust source file, as Markdown.
fn module_doc(relative: &str) -> String {
    read(relative)
        .lines()
        .filter_map(|line| line.strip_prefix("//!"))
        .map(|line| line.strip_prefix(' ').unwrap_or(line))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The section of `markdown` under the heading `heading` (the whole line,
/// `## Everything by name`), up to the next heading of the same or a
/// higher level.
fn section<'a>(markdown: &'a str, heading: &str, file: &str) -> &'a str {
    let level = heading.bytes().take_while(|&b| b == b'#').count();
    let start = markdown
        .match_indices(heading)
        .map(|(i, _)| i)
        .find(|&i| {
            (i == 0 || markdown.as_bytes()[i - 1] == b'\n')
                && markdown[i + heading.len()..].starts_with('\n')
        })
        .unwrap_or_else(|| panic!("{file} has no heading {heading:?}"))
        + heading.len();
    let rest = &markdown[start..];
    let mut in_code = false;
    let mut offset = 0;
    for line in rest.lines() {
        if line.starts_with("```") {
            in_code = !in_code;
        }
        let hashes = line.bytes().take_while(|&b| b == b'#').count();
        if !in_code && hashes > 0 && hashes <= level && line[hashes..].starts_with(' ') {
            return &rest[..offset];
        }
        offset += line.len() + 1;
    }
    rest
}

/// Asserts that each name appears in `text` in backticks.
fn names_all(text: &str, names: &[String], what: &str, place: &str) {
    let missing: Vec<&String> = names
        .iter()
        .filter(|name| !text.contains(&format!("`{name}`")))
        .collect();
    assert!(
        missing.is_empty(),
        "{place} does not name these {what}: {missing:?}"
    );
}

fn algorithms() -> Vec<String> {
    Algorithm::ALL.map(|a| a.name().to_string()).to_vec()
}

fn distances() -> Vec<String> {
    HeuristicSpec::DISTANCES.map(|h| h.to_string()).to_vec()
}

fn placements() -> Vec<String> {
    PlacementKind::ALL.map(|p| p.name().to_string()).to_vec()
}

fn open_sets() -> Vec<String> {
    OpenKind::ALL.map(|o| o.name().to_string()).to_vec()
}

fn table_kinds() -> Vec<String> {
    TableKind::ALL.map(|k| k.name().to_string()).to_vec()
}

/// The name the command line (`--neighborhood`) gives each movement rule.
/// The match is exhaustive: a new rule does not compile here until it has
/// its name.
fn movement_option(rule: Neighborhood) -> &'static str {
    match rule {
        Neighborhood::Four => "4",
        Neighborhood::Octile => "8",
        Neighborhood::OctileCornerCutting => "8-cut",
        Neighborhood::OctileSqueeze => "8-squeeze",
    }
}

fn movement_options() -> Vec<String> {
    Neighborhood::ALL
        .map(|n| movement_option(n).to_string())
        .to_vec()
}

/// Every list of names the docs keep, by what it names.
fn lists() -> [(&'static str, Vec<String>); 7] {
    [
        ("searches", algorithms()),
        (
            "graph searches",
            GraphSearch::ALL.map(|s| s.name().to_string()).to_vec(),
        ),
        ("heuristics", distances()),
        ("placements", placements()),
        ("OPEN sets", open_sets()),
        ("table kinds", table_kinds()),
        ("movement rules", movement_options()),
    ]
}

/// Checks that the section under `heading` of `file` (its module docs for
/// a `.rs` file) names every entry of each list in `which` (all when
/// empty).
fn names_lists(file: &str, heading: &str, which: &[&str]) {
    let text = if std::path::Path::new(file)
        .extension()
        .is_some_and(|e| e == "rs")
    {
        module_doc(file)
    } else {
        read(file)
    };
    let names = section(&text, heading, file);
    let place = format!("{file}, {heading:?}");
    for (what, list) in lists()
        .iter()
        .filter(|(what, _)| which.is_empty() || which.contains(what))
    {
        names_all(names, list, what, &place);
    }
}

#[test]
fn the_crate_docs_name_everything() {
    names_lists("crates/cairns/src/lib.rs", "# Everything by name", &[]);
}

#[test]
fn the_spec_docs_name_every_search_heuristic_and_table() {
    let spec = "crates/cairns/src/spec/mod.rs";
    names_lists(spec, "# Names", &["searches", "heuristics", "placements"]);
    names_lists(spec, "# Tables", &["table kinds"]);
}

#[test]
fn the_guide_names_everything() {
    names_lists("docs/guide.md", "## Everything by name", &[]);
}

#[test]
fn the_command_docs_name_every_search_and_movement_rule() {
    names_lists(
        "docs/cli.md",
        "# The `cairns` command",
        &["searches", "movement rules"],
    );
}

/// The checks above fail when a name goes missing (a check that cannot
/// fail would prove nothing).
#[test]
#[should_panic(expected = "does not name these searches: [\"sub\"]")]
fn a_missing_name_fails() {
    let doc = module_doc("crates/cairns/src/lib.rs");
    let names = section(&doc, "# Everything by name", "lib.rs").replace("`sub`", "sub");
    names_all(&names, &algorithms(), "searches", "lib.rs");
}
