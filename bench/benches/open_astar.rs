//! The OPEN-set harness: A* with the octile heuristic over Moving AI sets,
//! once per OPEN set of the catalogue, every result checked against the
//! published optimal length.
//!
//! ```text
//! cargo bench -p cairns-bench --bench open_astar -- [--every N] [--sets a,b]
//!     [--structs a,b] [--slow-every N] [--csv FILE] [--plot FILE]
//! ```
//!
//! Defaults: every 20th scenario of the `dao`, `maze`, `room`, `random`,
//! `street` and `sc1` sets, every structure. The default heap
//! (`OpenKind::default()`, `quaternary-heap`) always runs, on every
//! query, as the baseline.
//!
//! Per query it records the time and the largest OPEN size; queries are
//! grouped by the largest OPEN size *under the default heap* (`<100`,
//! `100-800`, `800-1500`, `1500-10000`, `>10000`). For each family and
//! group it prints each structure's median time per query and the ratio of
//! that median to the default heap's median on the same queries.
//!
//! The linear-scan structures (`unsorted-array`, `sorted-array`,
//! `sorted-list`, `indexed-array`, `hash-table`) take seconds on one query
//! with a large OPEN set, so on large maps (more than [`LARGE_MAP`] cells)
//! they run only on every `--slow-every`-th loaded query (default 10). The
//! output marks those rows `sampled`; their ratios are still on the same
//! queries as the baseline's median.
//!
//! `--csv FILE` writes the tables; `--plot FILE` draws median time per
//! query against OPEN size (log-log, one line per structure) as PNG.
//! Relative paths are taken from the workspace root (cargo runs benches in
//! the bench crate's directory). The figures in `docs/open-sets.md` come
//! from:
//!
//! ```text
//! nice cargo bench -p cairns-bench --bench open_astar -- --every 100 \
//!     --csv docs/data/open-sets.csv --plot docs/open-sets.png
//! ```

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::hint::black_box;
use std::path::PathBuf;
use std::time::Instant;

use cairns::heuristic::Octile;
use cairns::movingai::runner::{Checker, Instance, Reference, median};
use cairns::open::OpenKind;
use cairns::search::{AStar, Cached, SearchCache, Searcher};
use cairns::with_open_set;
use cairns_bench::plot::{self, Chart, Series};
use cairns_bench::{BenchArgs, load_set, time_checked};

/// The benchmark sets run by default.
const SETS: [&str; 6] = ["dao", "maze", "room", "random", "street", "sc1"];

/// Structures whose pop or push scans OPEN: sampled on large maps.
const SLOW: [&str; 5] = [
    "unsorted-array",
    "sorted-array",
    "sorted-list",
    "indexed-array",
    "hash-table",
];

/// Maps with more cells than this are "large": slow structures are sampled
/// there.
const LARGE_MAP: usize = 100_000;

/// The OPEN-size groups: label and upper bound (exclusive).
const GROUPS: [(&str, u64); 5] = [
    ("<100", 100),
    ("100-800", 800),
    ("800-1500", 1500),
    ("1500-10000", 10_000),
    (">10000", u64::MAX),
];

/// Command-line options.
struct Options {
    every: usize,
    sets: Vec<String>,
    structs: Vec<&'static str>,
    slow_every: usize,
    csv: Option<PathBuf>,
    plot: Option<PathBuf>,
}

fn parse_args() -> Options {
    let args = BenchArgs::from_env(&[
        "--every",
        "--sets",
        "--structs",
        "--slow-every",
        "--csv",
        "--plot",
    ]);
    let mut structs: Vec<&'static str> = args
        .get_list::<OpenKind>("--structs")
        .unwrap_or_else(|| OpenKind::ALL.to_vec())
        .into_iter()
        .map(OpenKind::name)
        .collect();
    // The baseline runs first and always.
    let default = OpenKind::default().name();
    structs.retain(|&s| s != default);
    structs.insert(0, default);
    Options {
        every: args.every.unwrap_or(20),
        sets: args.sets_or(&SETS),
        structs,
        slow_every: args.get::<usize>("--slow-every").unwrap_or(10).max(1),
        csv: args.csv,
        plot: args.plot,
    }
}

/// One query's baseline, under the default heap.
struct Baseline {
    family: usize,
    max_open: u64,
}

/// Runs A* (octile) with OPEN set `kind` on the queries `chosen` of
/// `inst`, checking each length, and stores each time (seconds) in `out`
/// at the query's index plus `offset`. Returns the largest OPEN size of
/// each query.
fn run_struct(
    kind: OpenKind, inst: &Instance, chosen: &[usize], out: &mut [Option<f64>], offset: usize,
) -> Vec<u64> {
    // Each structure compiled into the search as itself (the spec boxes
    // all but the default ones, `with_boxed_open!`): the times compare
    // the structures, not an indirect call.
    let graph = &inst.graph;
    let mut searcher: Box<dyn Searcher + '_> = with_open_set!(kind, |Q| Box::new(Cached::new(
        AStar::new(graph, Octile::new(graph)),
        SearchCache::with_open(Q::default())
    )));
    let mut checker = Checker::new(&inst.graph, Reference::Published);
    // One untimed query sizes the cache.
    if let Some(&q) = chosen.first() {
        let q = &inst.queries[q];
        black_box(searcher.search_cost(q.start, q.goal));
    }
    let mut max_open = Vec::with_capacity(chosen.len());
    for &qi in chosen {
        let q = &inst.queries[qi];
        let t = time_checked(&kind, inst, q, &mut checker, || {
            searcher.search_cost(q.start, q.goal)
        });
        out[offset + qi] = Some(t);
        max_open.push(searcher.stats().max_open);
    }
    max_open
}

fn group_of(max_open: u64) -> usize {
    GROUPS
        .iter()
        .position(|&(_, hi)| max_open < hi)
        .unwrap_or(GROUPS.len() - 1)
}

/// The median time of `s` over the queries `which` where it ran, the
/// baseline's median over the same queries, and their count.
fn compare(times: &[Vec<Option<f64>>], s: usize, which: &[usize]) -> (f64, f64, usize) {
    let mut mine = Vec::new();
    let mut base = Vec::new();
    for &q in which {
        if let (Some(t), Some(b)) = (times[s][q], times[0][q]) {
            mine.push(t);
            base.push(b);
        }
    }
    let n = mine.len();
    (median(&mine), median(&base), n)
}

fn fmt_time(s: f64) -> String {
    if s >= 1e-1 {
        format!("{s:.2}s")
    } else if s >= 1e-3 {
        format!("{:.2}ms", s * 1e3)
    } else {
        format!("{:.1}us", s * 1e6)
    }
}

fn main() {
    let o = parse_args();
    let structs = &o.structs;
    let mut baselines: Vec<Baseline> = Vec::new();
    // times[s][q]: structure s on global query q.
    let mut times: Vec<Vec<Option<f64>>> = vec![Vec::new(); structs.len()];
    // Whether a structure was sampled anywhere.
    let mut sampled = vec![false; structs.len()];
    let started = Instant::now();

    for (family, set) in o.sets.iter().enumerate() {
        let instances = load_set(set, o.every);
        let t_set = Instant::now();
        for inst in &instances {
            let offset = baselines.len();
            let n = inst.queries.len();
            for t in &mut times {
                t.resize(offset + n, None);
            }
            let all: Vec<usize> = (0..n).collect();
            let large = inst.graph.grid().width() as usize * inst.graph.grid().height() as usize
                > LARGE_MAP;
            let some: Vec<usize> = if large {
                (0..n).step_by(o.slow_every).collect()
            } else {
                all.clone()
            };
            for (s, &name) in structs.iter().enumerate() {
                let slow = SLOW.contains(&name);
                let chosen = if slow { &some } else { &all };
                sampled[s] |= slow && large && o.slow_every > 1;
                let kind: OpenKind = name.parse().expect("names come from OpenKind::ALL");
                let max_open = run_struct(kind, inst, chosen, &mut times[s], offset);
                if s == 0 {
                    baselines.extend(max_open.iter().map(|&m| Baseline {
                        family,
                        max_open: m,
                    }));
                }
            }
        }
        eprintln!(
            "{set}: {} maps, {} queries, {:.1}s",
            instances.len(),
            instances.iter().map(|i| i.queries.len()).sum::<usize>(),
            t_set.elapsed().as_secs_f64()
        );
    }

    let csv = report(&o, &sampled, &times, &baselines);
    println!(
        "\ntotal {:.1}s for {} queries",
        started.elapsed().as_secs_f64(),
        baselines.len()
    );

    if let Some(path) = &o.csv {
        std::fs::write(path, csv).unwrap_or_else(|e| panic!("writing {}: {e}", path.display()));
        println!("wrote {}", path.display());
    }
    if let Some(path) = &o.plot {
        let chart = chart(structs, &sampled, &times, &baselines);
        plot::write_png(&chart, path).unwrap_or_else(|e| panic!("{e}: {}", e.io_error()));
        println!("wrote {}", path.display());
    }
}

/// Prints the tables per family and OPEN-size group; returns them as CSV.
fn report(
    o: &Options, sampled: &[bool], times: &[Vec<Option<f64>>], baselines: &[Baseline],
) -> String {
    let structs = &o.structs;
    let mut csv = String::from(
        "family,group,struct,queries,sampled,median_us,default_median_us,ratio_to_default\n",
    );
    let name_w = structs.iter().map(|s| s.len()).max().unwrap_or(10) + 2;
    let mut families: Vec<(String, Vec<usize>)> = o
        .sets
        .iter()
        .enumerate()
        .map(|(f, set)| {
            let qs = (0..baselines.len())
                .filter(|&q| baselines[q].family == f)
                .collect();
            (set.clone(), qs)
        })
        .collect();
    if o.sets.len() > 1 {
        families.push(("all".to_string(), (0..baselines.len()).collect()));
    }
    let default = OpenKind::default();
    println!(
        "\nA* (octile) with each OPEN set: median time per query, and in brackets the ratio of \
         that median to {default}'s median on the same queries (<1 is faster).\n\
         Groups by the largest OPEN size of the query under {default}. Every {} scenario(s); \
         linear-scan structures ({}) on every {}th of those on maps of more than {LARGE_MAP} cells \
         (rows marked *).",
        o.every,
        SLOW.join(", "),
        o.slow_every
    );
    for (fam, qs) in &families {
        let mut by_group: Vec<Vec<usize>> = vec![Vec::new(); GROUPS.len()];
        for &q in qs {
            by_group[group_of(baselines[q].max_open)].push(q);
        }
        let counts: Vec<String> = GROUPS
            .iter()
            .zip(&by_group)
            .map(|((label, _), g)| format!("{label}: {}", g.len()))
            .collect();
        println!("\n== {fam}: {} queries ({})", qs.len(), counts.join(", "));
        let mut header = format!("{:<name_w$}{:>20}", "structure", "all");
        for (label, _) in GROUPS {
            let _ = write!(header, "{label:>20}");
        }
        println!("{header}");
        for (s, &name) in structs.iter().enumerate() {
            let mark = if sampled[s] { "*" } else { "" };
            let mut line = format!("{:<name_w$}", format!("{name}{mark}"));
            let cells = std::iter::once(("all", qs.as_slice())).chain(
                GROUPS
                    .iter()
                    .map(|g| g.0)
                    .zip(by_group.iter().map(Vec::as_slice)),
            );
            for (label, which) in cells {
                let (mine, base, n) = compare(times, s, which);
                if n == 0 {
                    let _ = write!(line, "{:>20}", "-");
                    continue;
                }
                let ratio = mine / base;
                let _ = write!(line, "{:>20}", format!("{} ({ratio:.2})", fmt_time(mine)));
                let _ = writeln!(
                    csv,
                    "{fam},{label},{name},{n},{},{:.3},{:.3},{ratio:.4}",
                    sampled[s],
                    mine * 1e6,
                    base * 1e6
                );
            }
            println!("{line}");
        }
    }
    csv
}

/// Median time per query against the OPEN size under the default heap, in
/// bins of a quarter decade, one series per structure. Only the queries
/// that every structure ran are plotted, so that each bin compares the
/// structures on the same queries; a bin needs at least three of them.
fn chart(
    structs: &[&str], sampled: &[bool], times: &[Vec<Option<f64>>], baselines: &[Baseline],
) -> Chart {
    let bin = |m: u64| ((m.max(1) as f64).log10() * 4.0).floor() as i64;
    let common: Vec<usize> = (0..baselines.len())
        .filter(|&q| times.iter().all(|t| t[q].is_some()))
        .collect();
    let series = structs
        .iter()
        .enumerate()
        .map(|(s, &name)| {
            let mut bins: BTreeMap<i64, (Vec<f64>, Vec<f64>)> = BTreeMap::new();
            for &q in &common {
                if let Some(t) = times[s][q] {
                    let m = baselines[q].max_open;
                    let e = bins.entry(bin(m)).or_default();
                    e.0.push(m as f64);
                    e.1.push(t);
                }
            }
            let points = bins
                .into_values()
                .filter(|(x, _)| x.len() >= 3)
                .map(|(x, t)| (median(&x), median(&t)))
                .collect();
            let mark = if sampled[s] { "*" } else { "" };
            Series {
                name: format!("{name}{mark}"),
                points,
            }
        })
        .collect();
    Chart {
        title: format!(
            "A* octile: median time per query; {} queries run by all",
            common.len()
        ),
        x_label: format!("largest OPEN size of the query ({})", OpenKind::default()),
        y_label: "time per query".to_string(),
        x_ticks: plot::count_tick,
        y_ticks: plot::seconds_tick,
        series,
    }
}
