//! `cairns open-sets` and `cairns scen --open`.

use cairns::open::OpenKind;

use crate::assert_exit;
use crate::{cairns, scratch_dir};

/// A 6x4 octile map with a wall, and three scenarios with their optimal
/// lengths: around the wall, straight, and one diagonal step.
const MAP: &str = "type octile\nheight 4\nwidth 6\nmap\n..@...\n..@...\n..@...\n......\n";
const SCEN: &str = "version 1\n\
0\tt.map\t6\t4\t0\t0\t5\t0\t9.24264069\n\
0\tt.map\t6\t4\t0\t3\t5\t3\t5\n\
0\tt.map\t6\t4\t3\t0\t4\t1\t1.41421356\n";

fn write_scen(test: &str) -> String {
    let dir = scratch_dir(test);
    std::fs::write(dir.join("t.map"), MAP).expect("writing the map");
    let scen = dir.join("t.map.scen");
    std::fs::write(&scen, SCEN).expect("writing the scenarios");
    scen.to_string_lossy().into_owned()
}

#[test]
fn open_sets_lists_every_catalogue_name_once_default_first() {
    let out = cairns(&["open-sets"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).expect("utf-8 output");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), OpenKind::ALL.len());
    for (line, info) in lines.iter().zip(OpenKind::ALL.map(OpenKind::info)) {
        assert_eq!(line.split_whitespace().next(), Some(info.name));
        assert!(line.contains(info.complexity), "{line}");
    }
    assert!(lines[0].ends_with("(default)"));
}

#[test]
fn scen_runs_with_every_open_set_and_reports_it_in_json() {
    let scen = write_scen("scen_every_open_set");
    for info in OpenKind::ALL.map(OpenKind::info) {
        let out = cairns(&["scen", &scen, "--open", info.name, "--json"]);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{}: {stdout} {}",
            info.name,
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            stdout.contains(&format!("\"open\":\"{}\"", info.name)),
            "{stdout}"
        );
        assert!(stdout.contains("\"mismatches\":0"), "{stdout}");
        assert!(stdout.contains("\"queries\":3"), "{stdout}");
    }
}

#[test]
fn scen_defaults_to_the_quaternary_heap() {
    let scen = write_scen("scen_default_open_set");
    let out = cairns(&["scen", &scen, "--json"]);
    assert!(out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("\"open\":\"quaternary-heap\""), "{stdout}");
}

#[test]
fn scen_defaults_to_the_pairing_heap_under_landmarks_unless_told() {
    let scen = write_scen("scen_default_open_set_dh");
    for (extra, expected) in [
        (&[][..], "pairing-heap"),
        (
            &["--open", "indexed-binary-heap"][..],
            "indexed-binary-heap",
        ),
    ] {
        let mut args = vec!["scen", &scen, "--json", "--heuristic", "dh:2"];
        args.extend_from_slice(extra);
        let out = cairns(&args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            stdout.contains(&format!("\"open\":\"{expected}\"")),
            "{stdout}"
        );
        assert!(stdout.contains("\"mismatches\":0"), "{stdout}");
    }
}

#[test]
fn unknown_open_set_exits_2_listing_the_valid_names() {
    let scen = write_scen("scen_unknown_open_set");
    let out = cairns(&["scen", &scen, "--open", "fibonacci-heap"]);
    assert_exit(&out, 2);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("unknown OPEN set \"fibonacci-heap\""),
        "{stderr}"
    );
    for info in OpenKind::ALL.map(OpenKind::info) {
        assert!(stderr.contains(info.name), "{stderr}");
    }
}
