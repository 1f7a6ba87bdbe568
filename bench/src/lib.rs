//! Shared pieces of the cairns benchmarks: one argument parser and the
//! loading of a benchmark set through the library's scenario runner
//! ([`cairns::movingai::runner`]). Benchmarks add only their timing policy
//! (rounds, rotation, minimum of rounds, criterion) around
//! [`Instance::queries`] and [`Checker::check`](cairns::movingai::runner::Checker::check).

pub mod plot;
pub mod roads;

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use std::hint::black_box;
use std::time::Instant;

use cairns::movingai::runner::{Checker, Instance, Query, median};
use cairns::search::Searcher;
use cairns::spec::{Engine, SearchSpec};

/// Loads every map of a set of the data directory (`dao`, `maze`, ...)
/// with every `every`-th scenario, sorted by name
/// ([`Instance::load_dir`]).
///
/// # Panics
///
/// When the data is missing or a file does not load: benchmark data is
/// expected to be valid.
pub fn load_set(set: &str, every: usize) -> Vec<Instance> {
    Instance::load_dir(&cairns_testdata::data_dir().join(set), every)
        .unwrap_or_else(|e| panic!("loading the {set} set: {e}"))
}

/// Loads one scenario file of the data directory (`dao/den520d.map.scen`)
/// with its map, keeping every `every`-th scenario.
///
/// # Panics
///
/// When the file is missing or does not load.
pub fn load_file(relative: &str, every: usize) -> Instance {
    Instance::load(&cairns_testdata::file(relative), None, every).unwrap_or_else(|e| panic!("{e}"))
}

/// Times one query of `inst` (`search` alone) and checks its cost with
/// `checker`; returns the seconds.
///
/// # Panics
///
/// When the cost is wrong, naming `what`, the map and the line.
pub fn time_checked(
    what: &dyn fmt::Display, inst: &Instance, query: &Query, checker: &mut Checker<'_>,
    search: impl FnOnce() -> Option<f64>,
) -> f64 {
    let t0 = Instant::now();
    let cost = black_box(search());
    let seconds = t0.elapsed().as_secs_f64();
    assert!(
        checker.check(query, cost),
        "{what} on {} line {}: {cost:?} vs published {}",
        inst.name,
        query.line,
        query.optimal
    );
    seconds
}

/// One side of [`alternated`]: its name and its search of one query.
pub type Side<'a> = (&'a str, Timed<'a>);

/// What a side of [`alternated`] times: one query's cost, or `None` for no
/// path.
pub type Timed<'a> = &'a mut dyn FnMut(&Query) -> Option<f64>;

/// Times two sides on every query of `inst`, each cost checked with
/// `checker` ([`time_checked`]), the side that goes first alternating from
/// query to query.
pub fn alternated(inst: &Instance, checker: &mut Checker<'_>, mut sides: [Side<'_>; 2]) -> Paired {
    let mut times = [Vec::new(), Vec::new()];
    for (q, query) in inst.queries.iter().enumerate() {
        for side in [q % 2, 1 - q % 2] {
            let (what, search) = &mut sides[side];
            times[side].push(time_checked(what, inst, query, checker, || search(query)));
        }
    }
    let per_query: Vec<f64> = times[1].iter().zip(&times[0]).map(|(b, a)| b / a).collect();
    Paired {
        ratio: median(&per_query),
        times,
    }
}

/// [`alternated`] with a searcher of each of two engines: the two named
/// `sides` on the queries of `inst`, each cost checked with `checker`.
pub fn alternated_engines(
    inst: &Instance, checker: &mut Checker<'_>, sides: [(&str, &Engine); 2],
) -> Paired {
    let [(a_name, a), (b_name, b)] = sides;
    let (mut a, mut b) = (a.searcher(), b.searcher());
    alternated(
        inst,
        checker,
        [
            (a_name, &mut |q| a.search_cost(q.start, q.goal)),
            (b_name, &mut |q| b.search_cost(q.start, q.goal)),
        ],
    )
}

/// What [`alternated`] measured: the seconds per query of each side.
#[derive(Debug)]
pub struct Paired {
    /// The seconds of each query, per side.
    pub times: [Vec<f64>; 2],
    /// The median over the queries of the per-query ratio of the second
    /// side's time to the first's.
    pub ratio: f64,
}

/// The table the paired benches print, one per set: a row per map and
/// spec ([`Paired`]), then per spec the geometric mean over the maps of
/// the ratio of the second side to the first.
#[derive(Debug)]
pub struct RatioTable {
    specs: Vec<String>,
    sides: [&'static str; 2],
    /// Each spec's ratios over the maps of the set so far.
    ratios: Vec<Vec<f64>>,
}

impl RatioTable {
    /// A table of `specs`, each timed on the two `sides`.
    pub fn new(specs: &[String], sides: [&'static str; 2]) -> RatioTable {
        RatioTable {
            specs: specs.to_vec(),
            sides,
            ratios: vec![Vec::new(); specs.len()],
        }
    }

    /// The column of the ratio: the second side over the first.
    fn ratio_column(&self) -> String {
        format!("{}/{}", self.sides[1], self.sides[0])
    }

    /// The header of a set's table, which starts the set (no ratios yet).
    pub fn start_set(&mut self) -> String {
        self.ratios.iter_mut().for_each(Vec::clear);
        let ratio = self.ratio_column();
        let width = ratio.len().max(10);
        format!(
            "{:<16} {:>7} {:<10} {:>10} {:>10} {ratio:>width$}",
            "map", "queries", "spec", self.sides[0], self.sides[1]
        )
    }

    /// The row of spec `k` on `inst`: its query count, each side's median
    /// microseconds per query and the ratio, which the set's summary
    /// counts.
    pub fn row(&mut self, k: usize, inst: &Instance, paired: &Paired) -> String {
        self.ratios[k].push(paired.ratio);
        let width = self.ratio_column().len().max(10);
        format!(
            "{:<16} {:>7} {:<10} {:>10.2} {:>10.2} {:>width$.3}",
            inst.name,
            inst.queries.len(),
            self.specs[k],
            median(&paired.times[0]) * 1e6,
            median(&paired.times[1]) * 1e6,
            paired.ratio
        )
    }

    /// Spec `k`'s [`row`](Self::row) on `inst`, timing the table's two
    /// sides: `searches` in the order of its sides, [`alternated`], each
    /// cost checked with `checker`.
    pub fn timed_row(
        &mut self, k: usize, inst: &Instance, checker: &mut Checker<'_>, searches: [Timed<'_>; 2],
    ) -> String {
        let [a, b] = searches;
        let paired = alternated(inst, checker, [(self.sides[0], a), (self.sides[1], b)]);
        self.row(k, inst, &paired)
    }

    /// Each spec's geometric mean over the set's maps of its ratios.
    pub fn means(&self) -> Vec<f64> {
        self.ratios.iter().map(|r| geometric_mean(r)).collect()
    }

    /// One line per spec timed on the set: the geometric mean over the
    /// set's maps of its ratios.
    pub fn summary(&self, set: &str) -> Vec<String> {
        let [a, b] = self.sides;
        self.specs
            .iter()
            .zip(&self.ratios)
            .filter(|(_, ratios)| !ratios.is_empty())
            .map(|(spec, ratios)| {
                format!(
                    "{set}: {spec}: geometric mean over {} maps of the median per-query ratio {b} / {a} = {:.3}",
                    ratios.len(),
                    geometric_mean(ratios)
                )
            })
            .collect()
    }
}

/// Prints the head of a markdown table: the column names, then the row
/// that aligns the first column left and each other one right.
pub fn print_table_head(columns: &[&str]) {
    println!("| {} |", columns.join(" | "));
    println!("|---|{}", "---:|".repeat(columns.len().saturating_sub(1)));
}

/// The geometric mean of positive values; 0 for none.
pub fn geometric_mean(values: &[f64]) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    (values.iter().map(|v| v.ln()).sum::<f64>() / values.len() as f64).exp()
}

/// The command line of a scenario benchmark, parsed once:
///
/// ```text
/// [SET...] [--sets a,b] [--every N] [--rounds N] [--csv FILE] [--plot FILE]
///     [--configs a,b] [--OTHER VALUE...]
/// ```
///
/// Each benchmark says which flags it takes ([`BenchArgs::from_env`]);
/// any other flag is an error naming the ones it takes. Cargo's `--bench`
/// is ignored. Numbers must be positive. `--csv` and `--plot` paths are
/// taken from the workspace root unless absolute (cargo runs benchmarks in
/// the bench crate's directory).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BenchArgs {
    /// The sets named, positionally or with `--sets a,b`, in order.
    pub sets: Vec<String>,
    /// `--every N`: run every `N`-th scenario.
    pub every: Option<usize>,
    /// `--rounds N`: rounds of timing.
    pub rounds: Option<usize>,
    /// `--csv FILE`.
    pub csv: Option<PathBuf>,
    /// `--plot FILE`.
    pub plot: Option<PathBuf>,
    /// `--configs a,b`: which configurations to run (each bench says how
    /// they are named).
    pub configs: Option<Vec<String>>,
    /// The benchmark's own flags with their values, as given.
    other: Vec<(String, String)>,
    /// The benchmark's own flags without a value that were given.
    switches: Vec<String>,
}

/// The map `relative` of the data directory (`maze/maze512-1-0.map`) as
/// an octile graph.
///
/// # Panics
///
/// With the file's error when it does not load.
pub fn octile_map(relative: &str) -> cairns::grid::GridGraph {
    let grid = cairns::movingai::read_map(&cairns_testdata::file(relative))
        .unwrap_or_else(|e| panic!("{e}"));
    cairns::grid::GridGraph::new(grid, cairns::grid::Neighborhood::Octile)
}

/// The command line of a wall-edit benchmark: the maps named (or
/// `default`), `--edits N` (40 unless given) and `--seed S` (1).
pub fn edit_args(default: &[&str]) -> (Vec<String>, usize, u64) {
    let args = BenchArgs::from_env(&["--edits", "--seed"]);
    let edits = args.get("--edits").unwrap_or(40);
    let seed = args.get("--seed").unwrap_or(1);
    (args.sets_or(default), edits, seed)
}

/// A wall-edit benchmark's map and cells: the map `relative` of the data
/// directory with every 5th scenario of its `.scen` as `(start, goal)`
/// pairs, and `edits` passable cells of it drawn from `seed` (a cell may
/// come twice), the cells each edit closes.
///
/// # Panics
///
/// When the map or its scenarios do not load, or the map has no
/// passable cell.
pub fn edit_set(
    relative: &str, edits: usize, seed: u64,
) -> (
    cairns::grid::GridGraph,
    Vec<(cairns::graph::NodeId, cairns::graph::NodeId)>,
    Vec<cairns::graph::NodeId>,
) {
    use cairns::graph::{Graph, NodeId};
    let inst = load_file(&format!("{relative}.scen"), 5);
    let queries = inst.queries.iter().map(|q| (q.start, q.goal)).collect();
    let free: Vec<NodeId> = (0..inst.graph.node_bound() as u32)
        .map(NodeId)
        .filter(|&n| inst.graph.is_passable(n))
        .collect();
    assert!(!free.is_empty(), "{relative} has no passable cell");
    let mut rng = cairns::rng::SplitMix64::new(seed);
    let cells = (0..edits).map(|_| free[rng.index(free.len())]).collect();
    (inst.graph, queries, cells)
}

/// Mean microseconds per query of `searcher` over `queries` (one after
/// the other), each cost checked against `want` (the other engine's
/// answers on the same map, `jps+`'s in the wall-edit benchmarks).
///
/// # Panics
///
/// When a cost differs from the one wanted.
pub fn mean_us(
    searcher: &mut cairns::spec::EngineSearcher,
    queries: &[(cairns::graph::NodeId, cairns::graph::NodeId)], want: &[Option<f64>],
) -> f64 {
    use cairns::search::Searcher;
    let t0 = Instant::now();
    for (&(a, b), want) in queries.iter().zip(want) {
        let got = searcher.search_cost(a, b);
        let same = match (got, want) {
            (Some(x), Some(y)) => (x - y).abs() < 1e-9,
            (x, y) => x == *y,
        };
        assert!(same, "({a:?}, {b:?}): {got:?} against {want:?}");
    }
    t0.elapsed().as_secs_f64() * 1e6 / queries.len() as f64
}

/// The least of 3 rounds' [`mean_us`].
pub fn least_us(
    searcher: &mut cairns::spec::EngineSearcher,
    queries: &[(cairns::graph::NodeId, cairns::graph::NodeId)], want: &[Option<f64>],
) -> f64 {
    (0..3)
        .map(|_| mean_us(searcher, queries, want))
        .fold(f64::MAX, f64::min)
}

/// The queries of `queries` that neither start nor end at `cell` (a cell
/// a wall-edit benchmark closes), and their costs on `reference`'s map:
/// what [`mean_us`] checks against.
pub fn open_queries(
    reference: &mut cairns::spec::EngineSearcher,
    queries: &[(cairns::graph::NodeId, cairns::graph::NodeId)], cell: cairns::graph::NodeId,
) -> (
    Vec<(cairns::graph::NodeId, cairns::graph::NodeId)>,
    Vec<Option<f64>>,
) {
    use cairns::search::Searcher;
    let open: Vec<_> = queries
        .iter()
        .copied()
        .filter(|&(a, b)| a != cell && b != cell)
        .collect();
    let want = open
        .iter()
        .map(|&(a, b)| reference.search_cost(a, b))
        .collect();
    (open, want)
}

/// The least of 3 rounds' [`mean_us`] of each of two searchers, their
/// rounds in turn.
pub fn least_us_in_turn(
    [a, b]: [&mut cairns::spec::EngineSearcher; 2],
    queries: &[(cairns::graph::NodeId, cairns::graph::NodeId)], want: &[Option<f64>],
) -> (f64, f64) {
    let (mut a_us, mut b_us) = (f64::MAX, f64::MAX);
    for _ in 0..3 {
        a_us = a_us.min(mean_us(a, queries, want));
        b_us = b_us.min(mean_us(b, queries, want));
    }
    (a_us, b_us)
}

/// A `jps+` engine on a copy of `graph`: the baseline the preprocessed
/// tiers are measured beside, and what the wall-edit benchmarks check
/// their answers against.
///
/// # Panics
///
/// When `graph` is not an octile map without terrain costs.
pub fn jps_plus_engine(graph: &cairns::grid::GridGraph) -> Engine {
    spec_engine(graph, "jps+").0
}

/// An engine of `spec` on `graph`, built now, with the seconds and bytes
/// of its tables (their reports summed).
///
/// # Panics
///
/// When `spec` does not parse or does not run on `graph`.
pub fn spec_engine(graph: &cairns::grid::GridGraph, spec: &str) -> (Engine, f64, usize) {
    let parsed: SearchSpec = spec.parse().expect("a spec");
    let engine =
        Engine::new(graph.clone(), &parsed).unwrap_or_else(|e| panic!("{spec} on this map: {e}"));
    let seconds = engine.report().iter().map(|r| r.seconds).sum();
    let bytes = engine.report().iter().map(|r| r.bytes).sum();
    (engine, seconds, bytes)
}

/// The value `f` returns and the milliseconds it took.
pub fn timed_ms<T>(f: impl FnOnce() -> T) -> (T, f64) {
    let t0 = Instant::now();
    let value = f();
    (value, t0.elapsed().as_secs_f64() * 1e3)
}

/// Closes `cell` of `graph` (a wall-edit benchmark's copy of `whole`'s
/// map) and the same cell of `whole` by [`Engine::edited`]: the edited
/// engine, the milliseconds the edit took and the cell's `(x, y)`, where
/// the benchmark opens `graph` again when its edit is measured.
///
/// # Panics
///
/// When the engine refuses the edit.
pub fn close_cell(
    whole: &Engine, graph: &mut cairns::grid::GridGraph, cell: cairns::graph::NodeId,
) -> (Engine, f64, (u32, u32)) {
    use cairns::grid::Tile;
    let (x, y) = graph.coords(cell);
    graph.set_tile(x, y, Tile::Tree);
    let (edited, ms) = timed_ms(|| whole.edited(&[(x, y, Tile::Tree)]).expect("an edit"));
    (edited, ms, (x, y))
}

/// The median of each column of the figures `one_edit` measures for each
/// of `cells`: a wall-edit benchmark's row for one map.
pub fn edit_medians<const N: usize>(
    cells: Vec<cairns::graph::NodeId>, one_edit: impl FnMut(cairns::graph::NodeId) -> [f64; N],
) -> [f64; N] {
    let figures: Vec<[f64; N]> = cells.into_iter().map(one_edit).collect();
    std::array::from_fn(|i| median(&figures.iter().map(|f| f[i]).collect::<Vec<_>>()))
}

/// A command line a benchmark cannot run with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArgError(String);

impl fmt::Display for ArgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ArgError {}

impl BenchArgs {
    /// Parses the process's arguments for a benchmark taking the flags
    /// `takes` (each with one value: `--every`, `--sets`, `--rounds`,
    /// `--csv`, `--plot`, `--configs` or a flag of its own, read with
    /// [`get`](Self::get)).
    ///
    /// Prints the error and exits with status 2 on a bad command line.
    pub fn from_env(takes: &[&str]) -> BenchArgs {
        BenchArgs::from_env_with_switches(takes, &[])
    }

    /// [`from_env`](Self::from_env) for a benchmark that also takes the
    /// flags without a value `switches` (read with [`has`](Self::has)).
    pub fn from_env_with_switches(takes: &[&str], switches: &[&str]) -> BenchArgs {
        BenchArgs::parse_with_switches(std::env::args().skip(1), takes, switches)
            .unwrap_or_else(|e| exit(&e))
    }

    /// Parses `args` (without the program name) for a benchmark taking
    /// the flags `takes`.
    ///
    /// # Errors
    ///
    /// A flag not in `takes`, a flag without its value, or a number that is
    /// not a positive integer.
    pub fn parse(
        args: impl IntoIterator<Item = String>, takes: &[&str],
    ) -> Result<BenchArgs, ArgError> {
        BenchArgs::parse_with_switches(args, takes, &[])
    }

    /// [`parse`](Self::parse) for a benchmark that also takes the flags
    /// without a value `switches`.
    ///
    /// # Errors
    ///
    /// Those of [`parse`](Self::parse).
    pub fn parse_with_switches(
        args: impl IntoIterator<Item = String>, takes: &[&str], switches: &[&str],
    ) -> Result<BenchArgs, ArgError> {
        let mut out = BenchArgs::default();
        let mut args = args.into_iter();
        while let Some(arg) = args.next() {
            if arg == "--bench" {
                continue;
            }
            if !arg.starts_with('-') {
                out.sets.push(arg);
                continue;
            }
            if switches.contains(&arg.as_str()) {
                out.switches.push(arg);
                continue;
            }
            if !takes.contains(&arg.as_str()) {
                return Err(ArgError(format!(
                    "unknown option {arg} (this benchmark takes {}, and set names)",
                    takes
                        .iter()
                        .chain(switches)
                        .copied()
                        .collect::<Vec<_>>()
                        .join(", ")
                )));
            }
            let value = args
                .next()
                .ok_or_else(|| ArgError(format!("{arg} needs a value")))?;
            match arg.as_str() {
                "--every" => out.every = Some(positive(&arg, &value)?),
                "--rounds" => out.rounds = Some(positive(&arg, &value)?),
                "--sets" => out.sets.extend(list(&value)),
                "--csv" => out.csv = Some(from_root(&value)),
                "--plot" => out.plot = Some(from_root(&value)),
                "--configs" => out.configs = Some(list(&value)),
                _ => out.other.push((arg, value)),
            }
        }
        Ok(out)
    }

    /// The sets named, or `default` when none was.
    pub fn sets_or(&self, default: &[&str]) -> Vec<String> {
        if self.sets.is_empty() {
            default.iter().map(|s| (*s).to_string()).collect()
        } else {
            self.sets.clone()
        }
    }

    /// The specs of `--specs` (comma-separated), or `default`: their names
    /// as given, and each parsed.
    ///
    /// Prints the error and exits with status 2 when one does not parse.
    pub fn specs_or(&self, default: &[&str]) -> (Vec<String>, Vec<SearchSpec>) {
        let names: Vec<String> = self
            .get_list("--specs")
            .unwrap_or_else(|| default.iter().map(|s| (*s).to_string()).collect());
        let specs = parse_list("--specs", &names);
        (names, specs)
    }

    /// Whether the switch `flag` (a flag without a value) was given.
    pub fn has(&self, flag: &str) -> bool {
        self.switches.iter().any(|s| s == flag)
    }

    /// The value of one of the benchmark's own flags (the last one given),
    /// parsed; `None` when it was not given.
    ///
    /// Prints the error and exits with status 2 when the value does not
    /// parse.
    pub fn get<T: FromStr>(&self, flag: &str) -> Option<T>
    where
        T::Err: fmt::Display,
    {
        let (_, value) = self.other.iter().rev().find(|(f, _)| f == flag)?;
        Some(
            value
                .parse()
                .unwrap_or_else(|e| exit(&ArgError(format!("{flag} {value}: {e}")))),
        )
    }

    /// The comma-separated values of one of the benchmark's own flags, each
    /// parsed (`--structs pairing-heap,radix-heap` as
    /// [`OpenKind`](cairns::open::OpenKind)s).
    ///
    /// Prints the error and exits with status 2 when a value does not parse.
    pub fn get_list<T: FromStr>(&self, flag: &str) -> Option<Vec<T>>
    where
        T::Err: fmt::Display,
    {
        let (_, value) = self.other.iter().rev().find(|(f, _)| f == flag)?;
        Some(parse_list(flag, &list(value)))
    }
}

/// Parses each of `values` given to `flag`; prints the error and exits
/// with status 2 when one does not parse.
pub fn parse_list<T: FromStr>(flag: &str, values: &[String]) -> Vec<T>
where
    T::Err: fmt::Display,
{
    values
        .iter()
        .map(|v| {
            v.parse()
                .unwrap_or_else(|e| exit(&ArgError(format!("{flag} {v}: {e}"))))
        })
        .collect()
}

fn exit(e: &ArgError) -> ! {
    eprintln!("error: {e}");
    std::process::exit(2)
}

fn positive(flag: &str, value: &str) -> Result<usize, ArgError> {
    value
        .parse()
        .ok()
        .filter(|&n| n > 0)
        .ok_or_else(|| ArgError(format!("{flag} takes a positive number, got {value:?}")))
}

fn list(value: &str) -> Vec<String> {
    value
        .split(',')
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

/// `path`, relative to the workspace root unless absolute.
fn from_root(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str], takes: &[&str]) -> Result<BenchArgs, ArgError> {
        BenchArgs::parse(args.iter().map(|s| (*s).to_string()), takes)
    }

    #[test]
    fn sets_flags_and_cargo_bench() {
        let a = parse(
            &[
                "dao",
                "--every",
                "20",
                "--bench",
                "--sets",
                "maze,room",
                "--slow-every",
                "3",
            ],
            &["--every", "--sets", "--slow-every"],
        )
        .unwrap();
        assert_eq!(a.sets, ["dao", "maze", "room"]);
        assert_eq!(a.every, Some(20));
        assert_eq!(a.rounds, None);
        assert_eq!(a.get::<usize>("--slow-every"), Some(3));
        assert_eq!(a.get::<usize>("--maps"), None);
        assert_eq!(a.sets_or(&["x"]), ["dao", "maze", "room"]);
        assert_eq!(BenchArgs::default().sets_or(&["x"]), ["x"]);
    }

    #[test]
    fn switches_take_no_value() {
        let takes = ["--rounds"];
        let a = BenchArgs::parse_with_switches(
            ["--alt", "ny", "--rounds", "2"].map(String::from),
            &takes,
            &["--alt"],
        )
        .unwrap();
        assert!(a.has("--alt"));
        assert_eq!(
            (a.sets.as_slice(), a.rounds),
            (&["ny".to_string()][..], Some(2))
        );
        let without =
            BenchArgs::parse_with_switches(["ny".to_string()], &takes, &["--alt"]).unwrap();
        assert!(!without.has("--alt"));
        // A switch the benchmark does not take is an error naming those it does.
        let e = parse(&["--alt"], &takes).unwrap_err();
        assert!(e.to_string().contains("unknown option --alt"), "{e}");
    }

    #[test]
    fn paths_are_taken_from_the_workspace_root() {
        let a = parse(
            &["--csv", "docs/x.csv", "--plot", "/tmp/p.png"],
            &["--csv", "--plot"],
        )
        .unwrap();
        assert!(a.csv.unwrap().ends_with("bench/../docs/x.csv"));
        assert_eq!(a.plot.unwrap(), Path::new("/tmp/p.png"));
    }

    #[test]
    fn bad_command_lines_say_why() {
        let e = parse(&["--rounds", "2"], &["--every"]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown option --rounds (this benchmark takes --every, and set names)"
        );
        let e = parse(&["--every"], &["--every"]).unwrap_err();
        assert_eq!(e.to_string(), "--every needs a value");
        let e = parse(&["--every", "0"], &["--every"]).unwrap_err();
        assert_eq!(e.to_string(), "--every takes a positive number, got \"0\"");
    }
}
