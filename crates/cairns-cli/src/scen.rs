//! `cairns scen`: run a Moving AI scenario file and check every length.

use std::fmt::Write as _;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context as _, bail};
use cairns::grid::Neighborhood;
use cairns::movingai::runner::{self, Instance, InstanceErrorKind, Reference, Summary};
use cairns::spec::Prepared;
use indicatif::{ProgressBar, ProgressStyle};

use crate::Outcome;
use crate::choose::{MapRules, SearchArgs};

/// Options of `cairns scen`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The `.scen` file.
    pub scen: PathBuf,
    /// The `.map` file; by default the one beside the scenario file, named
    /// after it (`NAME.map.scen` -> `NAME.map`).
    #[arg(long)]
    pub map: Option<PathBuf>,
    /// The search: algorithm, heuristic, OPEN set.
    #[command(flatten)]
    pub search: SearchArgs,
    /// Movement rule, by name (any name below; the first is the one
    /// printed). The published lengths are those of the octile rule: under
    /// another, every cost is checked against Dijkstra on the same rule.
    #[arg(long, default_value = "octile", value_parser = crate::choose::neighborhood_names())]
    pub neighborhood: Neighborhood,
    /// Terrain costs: the published lengths then no longer apply, so every
    /// cost is checked against Dijkstra on the same costs.
    #[command(flatten)]
    pub rules: MapRules,
    /// Run only every Nth scenario.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub every: u32,
    /// What each cost is checked against: the published length, or a
    /// Dijkstra search (for files whose lengths are known to be wrong).
    #[arg(long, value_enum, default_value_t = Against::Published)]
    pub against: Against,
    /// Do not fail (exit 1) on scenarios that do not fit the map (an
    /// endpoint off the map or on a wall): count them and go on.
    #[arg(long)]
    pub skip_data_errors: bool,
    /// Run the queries on N threads, one search cache per thread (0: one
    /// per core). The costs and expansions are those of a serial run; the
    /// times are per query on its thread.
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub threads: usize,
    /// Print one JSON object instead of the table. With no query (an
    /// empty file, or --every leaving none) the means and medians are 0.
    #[arg(long)]
    pub json: bool,
    /// Also write one tab-separated line per query to FILE (`-` for
    /// stdout, which then holds the table alone: the summary, text or
    /// JSON, goes to stderr): `id` (0-based, in file order), `line`
    /// (the scenario's line in the file), `cost` (`none` when no path was
    /// found), `expanded` and `nanos` (the search alone).
    #[arg(long, value_name = "FILE")]
    pub per_query: Option<PathBuf>,
}

/// The reference a scenario's cost is checked against.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Against {
    /// The optimal length printed in the file.
    Published,
    /// A Dijkstra search on the same map.
    Dijkstra,
}

impl From<Against> for Reference {
    fn from(a: Against) -> Reference {
        match a {
            Against::Published => Reference::Published,
            Against::Dijkstra => Reference::Dijkstra,
        }
    }
}

pub fn run(args: &Args) -> anyhow::Result<Outcome> {
    let every = args.every as usize;
    let loaded = match &args.rules.terrain {
        Some(costs) => Instance::load_with_terrain(&args.scen, args.map.as_deref(), every, costs),
        None => Instance::load(&args.scen, args.map.as_deref(), every),
    };
    let instance = match loaded {
        Ok(instance) => instance,
        Err(e) if matches!(e.kind(), InstanceErrorKind::Map { .. }) && args.map.is_none() => {
            // `{:#}`: the system's reason too.
            bail!("{:#} (give the map with --map)", anyhow::Error::from(e))
        }
        Err(e) => return Err(e.into()),
    };
    let instance = instance.under(args.neighborhood);
    let sampled = instance.queries.len();
    let instance = instance.for_size(args.rules.size)?;
    // The scenarios whose endpoints are too tight for the agent.
    let tight = sampled - instance.queries.len();
    let prepared = args.search.prepare(&instance.graph)?;
    let bar = ProgressBar::new(instance.queries.len() as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} scenarios {elapsed}")
            .expect("static template"),
    );
    let threads = match args.threads {
        0 => std::thread::available_parallelism().map_or(1, usize::from),
        n => n,
    };
    let summary = if threads > 1 {
        runner::run_threads(
            &instance,
            || prepared.searcher(),
            reference(args, &instance),
            threads,
        )
    } else {
        let mut searcher = prepared.searcher();
        runner::run(
            &instance,
            &mut *searcher,
            reference(args, &instance),
            &mut |done| {
                bar.set_position(done as u64);
            },
        )
    };
    bar.finish_and_clear();
    report(args, (&instance, tight), &prepared, &summary)
}

/// Writes the per-query table of `--per-query` to `path` (`-`: stdout).
fn write_per_query(path: &Path, instance: &Instance, summary: &Summary) -> anyhow::Result<()> {
    let mut text = String::from("id\tline\tcost\texpanded\tnanos\n");
    let rows = instance
        .queries
        .iter()
        .zip(&summary.costs)
        .zip(summary.expansions.iter().zip(&summary.times));
    for (id, ((query, cost), (expanded, seconds))) in rows.enumerate() {
        let cost = cost.map_or_else(|| "none".to_owned(), |c| format!("{c:.9}"));
        // Whole nanoseconds, like warthog's `nanos` column.
        let nanos = (seconds * 1e9).round();
        writeln!(text, "{id}\t{}\t{cost}\t{expanded}\t{nanos}", query.line)?;
    }
    if path == Path::new("-") {
        io::stdout().lock().write_all(text.as_bytes())?;
    } else {
        std::fs::write(path, text).with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(())
}

/// Whether `--per-query -` writes the per-query table to stdout.
fn per_query_on_stdout(args: &Args) -> bool {
    args.per_query.as_deref() == Some(Path::new("-"))
}

/// What the costs are checked against: `--against`, or Dijkstra under
/// `--terrain` (even costs that equal the Moving AI rule's) or a movement
/// rule other than octile ([`Instance::reference`]), whose costs the
/// published lengths do not know.
fn reference(args: &Args, instance: &Instance) -> Reference {
    if args.rules.terrain.is_some() {
        Reference::Dijkstra
    } else {
        instance.reference(args.against.into())
    }
}

/// The summary of `--json`: one object, whose names the other commands'
/// `--json` reuse where they mean the same thing.
fn summary_json(
    args: &Args, (instance, tight): (&Instance, usize), prepared: &Prepared<'_>, summary: &Summary,
) -> serde_json::Value {
    let spec = prepared.spec();
    let mismatches = summary.mismatches.len();
    serde_json::json!({
        "scen": args.scen.display().to_string(),
        "map": instance.map_path.display().to_string(),
        "spec": spec.to_string(),
        "search": spec.algorithm.name(),
        "heuristic": prepared.heuristic_label(),
        "table_files": args.search.tables.files.iter().map(|p| p.display().to_string()).collect::<Vec<_>>(),
        "tables": crate::choose::tables_json(prepared),
        "preprocess_s": prepared.preprocess_s(),
        "table_bytes": prepared.table_bytes(),
        "open": spec.open_kind().name(),
        "canonical": spec.algorithm == cairns::spec::Algorithm::Canonical,
        "against": reference(args, instance).name(),
        "neighborhood": args.neighborhood.token(),
        "terrain": args.rules.terrain.as_ref().map(ToString::to_string),
        "size": instance.graph.size(),
        "too_tight": tight,
        "queries": summary.queries,
        "mismatches": mismatches,
        "data_errors": summary.data_errors,
        "mean_expanded": summary.mean_expanded(),
        "max_open": summary.max_open,
        "mean_us": summary.mean_us(),
        "median_us": summary.median_us(),
        "total_s": summary.total_s,
        "threads": args.threads,
        "weight": spec.weight.map(cairns::spec::Weight::get),
        "any_angle": spec.any_angle(),
        "mean_cost_ratio": summary.mean_cost_ratio(),
        "max_cost_ratio": summary.cost_ratio_max,
    })
}

/// Prints the problems (to stderr) and the summary of a run.
fn report(
    args: &Args, (instance, tight): (&Instance, usize), prepared: &Prepared<'_>, summary: &Summary,
) -> anyhow::Result<Outcome> {
    let scen_name = args.scen.display();
    let problems: Vec<String> = instance
        .data_errors
        .iter()
        .map(|e| format!("data error: {e}"))
        .chain(summary.mismatches.iter().map(ToString::to_string))
        .collect();
    for p in problems.iter().take(20) {
        eprintln!("{scen_name}: {p}");
    }
    if problems.len() > 20 {
        eprintln!("{scen_name}: ... and {} more", problems.len() - 20);
    }
    let spec = prepared.spec();
    // With the per-query table on stdout, the summary goes to stderr, so
    // that stdout is the table alone.
    let mut out: Box<dyn Write> = if per_query_on_stdout(args) {
        Box::new(io::stderr().lock())
    } else {
        Box::new(io::stdout().lock())
    };
    let mismatches = summary.mismatches.len();
    if args.json {
        let json = summary_json(args, (instance, tight), prepared, summary);
        crate::json::write(&mut out, &json)?;
    } else {
        writeln!(out, "search       {}", spec.algorithm)?;
        writeln!(out, "heuristic    {}", prepared.heuristic_label())?;
        writeln!(out, "open set     {}", spec.open_kind())?;
        if args.neighborhood != Neighborhood::Octile {
            let rule = args.neighborhood.token();
            writeln!(out, "movement     {rule} (checked against dijkstra)")?;
        }
        if let Some(costs) = &args.rules.terrain {
            writeln!(out, "terrain      {costs} (checked against dijkstra)")?;
        }
        if args.rules.size > 1 {
            let k = args.rules.size;
            writeln!(
                out,
                "size         {k} (checked against dijkstra; {tight} scenarios too tight for a {k}x{k} agent left out)"
            )?;
        }
        crate::choose::write_tables(&mut out, prepared, 12)?;
        writeln!(out, "scenarios    {}", summary.queries)?;
        writeln!(out, "matched      {}", summary.queries - mismatches)?;
        writeln!(out, "mismatches   {mismatches}")?;
        writeln!(out, "data errors  {}", summary.data_errors)?;
        if let Some(w) = spec.weight {
            writeln!(out, "weight       {w} (costs at most {w}x optimal)")?;
        }
        if spec.any_angle() {
            writeln!(
                out,
                "any-angle    lengths between the straight line and {}x the octile optimum",
                spec.bound()
            )?;
        }
        if spec.weight.is_some() || spec.any_angle() {
            writeln!(
                out,
                "cost ratio   mean {:.4}, max {:.4} (of the octile optimum)",
                summary.mean_cost_ratio(),
                summary.cost_ratio_max
            )?;
        }
        writeln!(out, "mean expanded {:.1}", summary.mean_expanded())?;
        writeln!(out, "mean us      {:.1}", summary.mean_us())?;
        writeln!(out, "median us    {:.1}", summary.median_us())?;
        writeln!(out, "total s      {:.3}", summary.total_s)?;
    }
    drop(out);
    if let Some(path) = &args.per_query {
        write_per_query(path, instance, summary)?;
    }
    let data_fail = summary.data_errors > 0 && !args.skip_data_errors;
    if data_fail {
        eprintln!(
            "{scen_name}: {} scenario(s) do not fit the map (--skip-data-errors to go on)",
            summary.data_errors
        );
    }
    Ok(if mismatches > 0 || data_fail {
        Outcome::NotFound
    } else {
        Outcome::Success
    })
}
