//! `cairns graph`: road graphs in their files' ids, every search checked
//! against Dijkstra, bad files and queries refused with their line.

use crate::{TempDir, assert_exit, assert_file_refused, cairns, json_of, stderr, stdout};

/// A road graph of `../shared/data/roads` as a command-line argument.
fn road(file: &str) -> String {
    cairns_testdata::road_file(file)
        .to_str()
        .unwrap()
        .to_owned()
}

/// Every graph search answers random Rome and Bremen queries as Dijkstra
/// does, and `--json` says so with `scen --json`'s field names.
#[test]
fn every_graph_search_matches_dijkstra_on_road_graphs() {
    for file in ["dimacs/rome99.gr", "fast_paths/bremen_time.gr"] {
        let graph = road(file);
        for search in cairns::spec::GraphSearch::ALL {
            let j = json_of(&[
                "graph",
                "queries",
                &graph,
                "--search",
                search.name(),
                "--random",
                "300",
                "--seed",
                "7",
                "--against",
                "dijkstra",
                "--json",
            ]);
            assert_eq!(j["search"], search.name(), "{j}");
            assert_eq!(j["queries"], 300, "{j}");
            assert_eq!(j["mismatches"], 0, "{j}");
            assert_eq!(j["against"], "dijkstra", "{j}");
            for field in [
                "mean_us",
                "median_us",
                "preprocess_s",
                "table_bytes",
                "no_path",
            ] {
                assert!(j[field].is_number(), "{field}: {j}");
            }
        }
    }
}

/// A queries file in the graph file's ids (from 1 in DIMACS), comments
/// and blank lines skipped; the path printed in those ids.
#[test]
fn queries_and_paths_are_in_the_files_ids() {
    let dir = TempDir::new("graph-ids");
    // 1 -> 2 -> 3 costs 3; 3 -> 1 is no arc, so 3 to 1 has no path.
    let graph = dir.file(
        "g.gr",
        "c three nodes\np sp 3 3\na 1 2 1\na 2 3 2\na 1 3 9\n",
    );
    let queries = dir.file("q.txt", "# from to\n1 3\n\n3 1\n");
    let j = json_of(&["graph", "queries", &graph, "--queries", &queries, "--json"]);
    assert_eq!(
        (j["queries"].clone(), j["no_path"].clone()),
        (2.into(), 1.into()),
        "{j}"
    );
    let j = json_of(&["graph", "path", &graph, "1", "3", "--json"]);
    assert_eq!(j["cost"], 3.0, "{j}");
    assert_eq!(j["path"], serde_json::json!([1, 2, 3]), "{j}");
    let o = cairns(&["graph", "path", &graph, "3", "1", "--search", "bidijkstra"]);
    assert_exit(&o, 1);
    assert!(stdout(&o).contains("no path from 3 to 1"), "{}", stdout(&o));
}

/// Bad queries and graphs name their file and line.
#[test]
fn bad_queries_and_graphs_name_their_file_and_line() {
    let dir = TempDir::new("graph-bad");
    let graph = dir.file("g.gr", "p sp 2 1\na 1 2 1\n");
    for (text, says) in [
        ("1 2\n1 3\n", "line 2: node 3 is out of range (ids 1 to 2)"),
        ("1 2 3\n", "line 1: expected `SOURCE TARGET`, found 3 words"),
        ("1 x\n", "line 1: \"x\" is not a node id"),
        ("0 1\n", "line 1: node 0 is out of range"),
    ] {
        let queries = dir.file("q.txt", text);
        let o = cairns(&["graph", "queries", &graph, "--queries", &queries]);
        assert_file_refused(&o, &queries, says);
    }
    let o = cairns(&["graph", "path", &graph, "1", "5"]);
    assert_file_refused(&o, &graph, "node 5 is out of range (ids 1 to 2)");
    let bad = dir.file("bad.gr", "p sp 2 1\na 1 3 1\n");
    let o = cairns(&["graph", "queries", &bad, "--random", "1"]);
    assert_file_refused(&o, &bad, "line 2:");
    let o = cairns(&["graph", "queries", &graph]);
    assert_exit(&o, 2);
}

/// `graph matrix`: every entry of the hierarchy's and the labels' matrix
/// equal to Dijkstra's single queries, and the file it writes has a row a
/// source.
#[test]
fn matrices_match_dijkstra_and_write_a_row_a_source() {
    let dir = TempDir::new("graph-matrix");
    let graph = road("dimacs/rome99.gr");
    for search in ["ch", "hl"] {
        let out = dir.path("m.csv");
        let j = json_of(&[
            "graph",
            "matrix",
            &graph,
            "--search",
            search,
            "--random",
            "30",
            "--against",
            "dijkstra",
            "-o",
            &out,
            "--json",
        ]);
        assert_eq!(
            (j["rows"].clone(), j["cols"].clone()),
            (30.into(), 30.into()),
            "{j}"
        );
        assert_eq!(j["mismatches"], 0, "{j}");
        let text = std::fs::read_to_string(&out).unwrap();
        let rows: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
        assert_eq!(rows.len(), 30);
        assert!(rows.iter().all(|r| r.split(',').count() == 30), "{text}");
    }
}

/// `graph build` saves the table of `ch`, `hl` and `alt:K`, and `graph
/// queries --table` loads it instead of building: every answer Dijkstra's,
/// and `path` and `matrix` take the file too. A file of another graph or
/// search, a search that builds nothing, and an output path that cannot be
/// written (before any build) are refused, naming the file.
#[test]
fn built_tables_load_and_answer_as_dijkstra() {
    let dir = TempDir::new("graph-build");
    let graph = road("dimacs/rome99.gr");
    for (search, table) in [
        ("ch", "hierarchy"),
        ("hl", "hub-labels"),
        ("alt:4", "landmarks"),
    ] {
        let file = dir.path(&format!("{table}.cairns"));
        let j = json_of(&[
            "graph", "build", &graph, "--search", search, "-o", &file, "--json",
        ]);
        assert_eq!(j["table"], table, "{j}");
        assert_eq!(j["spec"], search, "{j}");
        assert!(
            j["preprocess_s"].is_number() && j["file_bytes"].as_u64() > Some(1000),
            "{j}"
        );
        let j = json_of(&[
            "graph",
            "queries",
            &graph,
            "--table",
            &file,
            "--random",
            "300",
            "--against",
            "dijkstra",
            "--json",
        ]);
        assert_eq!(
            (j["spec"].as_str(), j["loaded"].as_bool()),
            (Some(search), Some(true)),
            "{j}"
        );
        assert_eq!(
            (j["queries"].as_u64(), j["mismatches"].as_u64()),
            (Some(300), Some(0)),
            "{j}"
        );
        let j = json_of(&[
            "graph",
            "matrix",
            &graph,
            "--table",
            &file,
            "--random",
            "20",
            "--against",
            "dijkstra",
            "--json",
        ]);
        assert_eq!(j["mismatches"], 0, "{j}");
        let built = json_of(&[
            "graph", "path", &graph, "1", "3000", "--search", search, "--json",
        ]);
        let loaded = json_of(&[
            "graph", "path", &graph, "1", "3000", "--table", &file, "--json",
        ]);
        assert_eq!(built["path"], loaded["path"], "{search}");
        assert!(built["cost"].is_number(), "{built}");
    }
}

/// A table of another graph or search, a file that is no table, a search
/// that builds nothing and an output path that cannot be written (before
/// any build) are refused, naming the file; the text report says what was
/// built.
#[test]
fn graph_tables_of_another_graph_or_search_are_refused() {
    let dir = TempDir::new("graph-build-refused");
    let graph = road("dimacs/rome99.gr");
    let ch = dir.path("hierarchy.cairns");
    let text = stdout(&cairns(&["graph", "build", &graph, "-o", &ch]));
    for line in [
        "table       hierarchy",
        "shortcuts",
        "build s",
        "file bytes",
        "wrote",
    ] {
        assert!(text.contains(line), "{line}: {text}");
    }
    // Another search than the file's.
    let o = cairns(&[
        "graph", "queries", &graph, "--table", &ch, "--search", "hl", "--random", "1",
    ]);
    assert_file_refused(
        &o,
        &ch,
        "the file holds a contraction hierarchy, the table of --search ch, not hl",
    );
    // Another graph.
    let small = dir.file("g.gr", "p sp 2 1\na 1 2 1\n");
    let o = cairns(&["graph", "path", &small, "1", "2", "--table", &ch]);
    assert_file_refused(&o, &ch, "contraction hierarchy: built for another graph");
    // A file that is no table.
    let o = cairns(&["graph", "path", &small, "1", "2", "--table", &small]);
    assert_file_refused(&o, &small, "not a table file cairns writes");
    // Nothing to build, and nowhere to write it.
    let o = cairns(&[
        "graph",
        "build",
        &graph,
        "--search",
        "dijkstra",
        "-o",
        &dir.path("d"),
    ]);
    assert_exit(&o, 2);
    assert!(
        String::from_utf8_lossy(&o.stderr)
            .contains("dijkstra builds no table before its first query (alt, ch, hl do)"),
        "{o:?}"
    );
    let nowhere = dir.path("no/such/dir/ch.cairns");
    let t0 = std::time::Instant::now();
    let o = cairns(&["graph", "build", &graph, "-o", &nowhere]);
    assert_file_refused(&o, &nowhere, "cannot create");
    assert!(t0.elapsed().as_secs_f64() < 5.0, "refused before the build");
}

/// An OpenStreetMap extract is read by its `.osm.pbf` name: the hierarchy
/// answers 200 random Andorra queries as Dijkstra does (the weights' lattice
/// makes the costs equal to the bit), and ids run from 0.
#[test]
fn osm_extracts_are_read_and_searched() {
    let andorra = road("osm/andorra.osm.pbf");
    let j = json_of(&[
        "graph",
        "queries",
        &andorra,
        "--search",
        "ch",
        "--random",
        "200",
        "--seed",
        "1",
        "--against",
        "dijkstra",
        "--json",
    ]);
    assert_eq!(j["format"], "OSM PBF", "{j}");
    assert_eq!(
        (j["nodes"].clone(), j["arcs"].clone()),
        (16_565.into(), 31_759.into()),
        "{j}"
    );
    assert_eq!(j["queries"], 200, "{j}");
    assert_eq!(j["mismatches"], 0, "{j}");
    assert!(j["no_path"].as_u64().unwrap() < 20, "{j}");
    let j = json_of(&["graph", "path", &andorra, "0", "16564", "--json"]);
    assert!(j["cost"].as_f64().unwrap() > 0.0, "{j}");
    assert_eq!(j["path"][0], 0, "{j}");
    let o = cairns(&["graph", "path", &andorra, "0", "16565"]);
    assert_file_refused(&o, &andorra, "node 16565 is out of range (ids 0 to 16564)");
}

/// A truncated and a corrupted extract are refused with the file, the blob
/// and its byte; so is a PBF file under another name, told by its first
/// bytes.
#[test]
fn truncated_and_corrupt_extracts_name_the_file_and_blob() {
    let dir = TempDir::new("graph-osm");
    let bytes = std::fs::read(road("osm/pyrosm-test.osm.pbf")).unwrap();
    let truncated = dir.path("cut.osm.pbf");
    std::fs::write(&truncated, &bytes[..bytes.len() / 2]).unwrap();
    let o = cairns(&["graph", "queries", &truncated, "--random", "1"]);
    assert_file_refused(&o, &truncated, "truncated PBF: the blob data needs");
    assert!(stderr(&o).contains(" (from byte "), "{}", stderr(&o));
    let mut corrupt = bytes.clone();
    let middle = corrupt.len() / 2;
    for b in &mut corrupt[middle..middle + 64] {
        *b ^= 0x5A;
    }
    let corrupted = dir.path("bad.osm.pbf");
    std::fs::write(&corrupted, &corrupt).unwrap();
    let o = cairns(&["graph", "path", &corrupted, "0", "1"]);
    assert_file_refused(&o, &corrupted, "corrupt PBF data: ");
    let renamed = dir.path("extract.bin");
    std::fs::write(&renamed, &bytes).unwrap();
    let j = json_of(&["graph", "queries", &renamed, "--random", "5", "--json"]);
    assert_eq!(
        (j["format"].clone(), j["nodes"].clone()),
        ("OSM PBF".into(), 892.into()),
        "{j}"
    );
}

/// `astar` takes an OpenStreetMap extract's coordinates, or a DIMACS `.co`
/// file's, for its straight line: the same costs as Dijkstra's, with fewer
/// nodes settled; `--coordinates` is refused for another search and for a
/// file of another node count.
#[test]
fn astar_takes_the_coordinates_of_the_graph() {
    let andorra = road("osm/andorra.osm.pbf");
    let settled = |search: &str| {
        let j = json_of(&[
            "graph",
            "queries",
            &andorra,
            "--search",
            search,
            "--random",
            "100",
            "--seed",
            "3",
            "--against",
            "dijkstra",
            "--json",
        ]);
        assert_eq!(j["mismatches"], 0, "{j}");
        j["mean_settled"].as_f64().unwrap()
    };
    let (astar, dijkstra) = (settled("astar"), settled("dijkstra"));
    // Andorra's mountain roads wind far from the straight line: 4,650
    // against 8,260 on these queries.
    assert!(astar < 0.7 * dijkstra, "astar {astar}, dijkstra {dijkstra}");

    let dir = TempDir::new("graph-co");
    // A square 1-2-3-4 of side 10 (costs 10 to 12) and its diagonal.
    let graph = dir.file(
        "g.gr",
        "p sp 4 5\na 1 2 10\na 2 3 11\na 3 4 12\na 4 1 10\na 1 3 30\n",
    );
    let co = dir.file(
        "g.co",
        "p aux sp co 4\nv 1 0 0\nv 2 10 0\nv 3 10 10\nv 4 0 10\n",
    );
    let astar_args = |co: &str| {
        let args = [
            "graph",
            "path",
            &graph,
            "1",
            "3",
            "--search",
            "astar",
            "--coordinates",
            co,
        ];
        args.map(String::from).to_vec()
    };
    let mut args = astar_args(&co);
    args.push("--json".into());
    let j = json_of(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(j["cost"], 21.0, "{j}");
    let o = cairns(&["graph", "path", &graph, "1", "3", "--coordinates", &co]);
    assert_exit(&o, 2);
    assert!(
        stderr(&o).contains("--coordinates is for --search astar"),
        "{}",
        stderr(&o)
    );
    let short = dir.file("short.co", "p aux sp co 3\nv 1 0 0\nv 2 1 0\nv 3 1 1\n");
    let o = cairns(
        &astar_args(&short)
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    );
    assert_file_refused(&o, &short, "line 1:");
}
