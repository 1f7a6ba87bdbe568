//! `cairns table build`: prepare a search on a map and save the table it
//! builds before its first query, for `--table FILE` (`path`, `scen`,
//! `render`).

use std::ffi::OsString;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::bail;
use cairns::grid::GridGraph;
use cairns::saved::TableKind;
use cairns::spec::{Algorithm, Given, HeuristicSpec, Prepared, Table};

use crate::Outcome;
use crate::choose::{BuildInput, BuildReport, MapRules, OutputFile, SearchArgs};

/// Options of `cairns table build`.
#[derive(Debug, clap::Args)]
#[command(
    about = "Build the table a search needs on a map and save it",
    long_about = "Build the table a search needs on a map and save it. The search is \
                  --search's, jps+ by default (astar with --heuristic dh:K, whose \
                  table is the landmarks')."
)]
pub struct BuildArgs {
    /// The `.map` file.
    pub map: PathBuf,
    /// The table file to write.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: PathBuf,
    /// Movement rule, by name (any name below; the first is the one
    /// printed).
    /// A table only loads for the rule it was built for.
    #[arg(long, default_value = "octile", value_parser = crate::choose::neighborhood_names())]
    pub neighborhood: cairns::grid::Neighborhood,
    /// The search whose table to build: jps+ unless --search names
    /// another (or --heuristic dh:K, the landmark table, for astar).
    #[command(flatten)]
    pub search: SearchArgs,
    #[command(flatten)]
    pub rules: MapRules,
    /// The most seconds to spend building the table of `jps+bb` or `sub`,
    /// instead of the budget their searches build within (8 s on a
    /// 512x512 map, less on smaller ones). Past it, the jump points left
    /// get no boxes and the subgoals left stay in the hierarchy's core:
    /// queries stay optimal, only slower.
    #[arg(long, value_name = "SECONDS")]
    pub seconds: Option<f64>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// The search of `args` with its table built within `seconds` (`--seconds`):
/// goal bounding's boxes or the subgoal graph's hierarchy, then checked
/// against the graph as a given table is.
fn prepare_within<'g>(
    args: &BuildArgs, graph: &'g GridGraph, seconds: f64,
) -> anyhow::Result<Prepared<'g>> {
    let Ok(budget) = Duration::try_from_secs_f64(seconds) else {
        bail!("--seconds takes a number of seconds, 0 or more, not {seconds}");
    };
    let spec = search_of(args).spec_for(&[]);
    let Some(&kind) = spec
        .algorithm
        .tables()
        .iter()
        .find(|&&k| Table::is_budgeted(k))
    else {
        let cut: Vec<&str> = Algorithm::ALL
            .into_iter()
            .filter(|a| a.tables().iter().any(|&k| Table::is_budgeted(k)))
            .map(Algorithm::name)
            .collect();
        bail!(
            "--seconds bounds the build of {}, not {}",
            cut.join(" and "),
            spec.algorithm
        );
    };
    // The spec's own checks of the movement and the terrain, before the
    // build (`prepare_with` runs them again on the table given).
    let spec = spec.resolve_inadmissible(graph.neighborhood())?;
    spec.check_terrain(graph)?;
    let t0 = Instant::now();
    let table = crate::progress::during(&format!("building the table of {spec}"), || {
        Table::build_within(kind, graph, budget).expect("a kind a budget cuts")
    });
    let seconds = t0.elapsed().as_secs_f64();
    Ok(spec.prepare_with(graph, [Given { table, seconds }])?)
}

/// The command line with each table kind's older build command
/// ([`TableInfo::old_command`](cairns::saved::TableInfo::old_command):
/// `cairns jump-table build MAP -o FILE`) spelled as it is now, `cairns
/// table build --search jps+ MAP -o FILE`.
pub fn old_commands_spelled_out(args: impl IntoIterator<Item = OsString>) -> Vec<OsString> {
    let mut args: Vec<OsString> = args.into_iter().collect();
    let named = |i: usize| args.get(i).and_then(|a| a.to_str());
    let search = TableKind::ALL
        .into_iter()
        .filter(|k| k.info().old_command.is_some() && k.info().old_command == named(1))
        .find_map(Algorithm::using);
    if let Some(search) = search
        && named(2) == Some("build")
    {
        let now = ["table", "build", "--search", search.name()];
        args.splice(1..3, now.map(OsString::from));
    }
    args
}

/// The search of `args`: jps+ when neither `--search` (nor `--jps`,
/// `--canonical`) nor a differential `--heuristic` names one, since the
/// library's default search, astar, builds no table.
fn search_of(args: &BuildArgs) -> SearchArgs {
    let mut search = args.search.clone();
    let named = search.algorithm.is_some() || search.jps || search.canonical;
    if !named && !search.heuristic.is_some_and(HeuristicSpec::is_landmarks) {
        search.algorithm = Some(Algorithm::JpsPlus);
    }
    search
}

pub fn build(args: &BuildArgs) -> anyhow::Result<Outcome> {
    let grid = args.rules.read_map(&args.map)?;
    let graph = args.rules.graph(grid, args.neighborhood)?;
    // Before the build, which may take seconds: a path that cannot be
    // written fails now.
    let output = OutputFile::create(&args.output)?;
    let prepared = match args.seconds {
        None => search_of(args).prepare(&graph)?,
        Some(seconds) => prepare_within(args, &graph, seconds)?,
    };
    let spec = prepared.spec();
    let (table, report) = match (prepared.tables(), prepared.report()) {
        ([table], [report]) => (table, report),
        ([], _) => {
            let some: Vec<&str> = Algorithm::ALL
                .into_iter()
                .filter(|a| !a.tables().is_empty())
                .map(Algorithm::name)
                .collect();
            bail!(
                "{spec} builds no table before its first query ({} and any search with --heuristic dh:K do)",
                some.join(", ")
            )
        }
        (tables, _) => {
            let kinds: Vec<&str> = tables.iter().map(|t| t.kind().name()).collect();
            bail!(
                "{spec} builds {} tables ({}); a file holds one: build them one search at a time",
                tables.len(),
                kinds.join(", ")
            )
        }
    };
    output.save(&table.kind().to_string(), |w| table.save_for(w, &graph))?;
    BuildReport {
        input: BuildInput::Map(&args.map, &graph),
        details: std::iter::once(format!("table       {}", table.kind().name()))
            .chain(
                table
                    .details()
                    .into_iter()
                    .map(|(label, value)| format!("{label:<11} {value}")),
            )
            .collect(),
        build_s: report.seconds,
        bytes: report.bytes,
        output: &args.output,
        listing: Vec::new(),
        json: args.json.then(|| {
            serde_json::json!({
                "search": spec.algorithm.name(),
                "spec": spec.to_string(),
                "table": table.kind().name(),
            })
        }),
    }
    .print()?;
    Ok(Outcome::Success)
}
