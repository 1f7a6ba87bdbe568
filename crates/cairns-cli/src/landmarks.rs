//! `cairns landmarks build`: place landmarks on a map, build their distance
//! table and save it for `scen --landmarks` and `path --landmarks`.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, bail};
use cairns::graph::NodeId;
use cairns::grid::{Grid, Neighborhood};
use cairns::landmarks::research::{CompressedTable, Compression, place_centroid};
use cairns::landmarks::{Directedness, LandmarkTable, grid_hash};
use cairns::movingai::read_scen;
use cairns::saved::TableKind;

use crate::Outcome;
use crate::choose::{BuildInput, BuildReport, OutputFile};
use cairns::spec::{PLACEMENT_SEED, PlacementKind, build_table, parse_landmark_count};

/// Options of `cairns landmarks build`.
#[derive(Debug, clap::Args)]
#[command(about = "Place K landmarks on a map, build their table and save it")]
pub struct BuildArgs {
    /// The `.map` file.
    pub map: PathBuf,
    /// The number of landmarks, 1 to 64.
    #[arg(short = 'k', value_name = "K", value_parser = parse_landmark_count)]
    pub k: usize,
    /// How the landmarks are placed.
    #[arg(long, default_value_t = PlacementKind::default())]
    pub placement: PlacementKind,
    /// The seed of the placement.
    #[arg(long, default_value_t = PLACEMENT_SEED)]
    pub seed: u64,
    /// Movement rule, by name (any name below; the first is the one
    /// printed).
    /// A table only loads for the rule it was built for.
    #[arg(long, default_value = "octile", value_parser = crate::choose::neighborhood_names())]
    pub neighborhood: Neighborhood,
    /// Terrain costs and the agent's size (a table loads only for the size
    /// it was built for).
    #[command(flatten)]
    pub rules: crate::choose::MapRules,
    /// The table file to write.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: PathBuf,
    /// Place the landmarks at the centres of the goals of this `.scen`
    /// file (k-means on the goals' cells, seeded by `--seed`: the
    /// "Centroid" placement, for a game whose queries head for known
    /// places) instead of by `--placement`.
    #[arg(long, value_name = "SCEN", conflicts_with = "placement")]
    pub centroid_of: Option<PathBuf>,
    /// Save a compressed table that keeps, for each cell, only its M
    /// nearest of the K landmarks (1 to K): about 5 M bytes per cell
    /// instead of 8 K, searched as `dh:K:keepM` (A* only).
    #[arg(long, value_name = "M")]
    pub keep: Option<usize>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

pub fn build(args: &BuildArgs) -> anyhow::Result<Outcome> {
    if let Some(m) = args.keep
        && !(1..=args.k).contains(&m)
    {
        bail!(
            "--keep {m}: a cell can keep 1 to {} of the {} landmarks",
            args.k,
            args.k
        );
    }
    let grid = args.rules.read_map(&args.map)?;
    let graph = args.rules.graph(grid, args.neighborhood)?;
    let hash = grid_hash(graph.grid(), args.neighborhood);
    // Before the build, which may take seconds: a path that cannot be
    // written fails now.
    let output = OutputFile::create(&args.output)?;
    let t0 = Instant::now();
    let progress = crate::progress::Spinner::new(&format!("building {} landmarks", args.k));
    let (table, placed) = if let Some(scen) = &args.centroid_of {
        let goals = goals_of(scen, graph.grid())?;
        let landmarks = place_centroid(&graph, args.k, &goals, args.seed);
        if landmarks.len() < args.k {
            bail!(
                "{}: {} distinct goal cells with a legal move, fewer than the {} landmarks asked for",
                scen.display(),
                landmarks.len(),
                args.k
            );
        }
        let table = LandmarkTable::build(&graph, &landmarks, Directedness::Symmetric);
        let placed = format!(
            "at the centres of {} goals of {}",
            goals.len(),
            scen.display()
        );
        (table, placed)
    } else {
        let table = build_table(&graph, args.k, args.placement.with_seed(args.seed))
            .with_context(|| args.map.display().to_string())?;
        (table, args.placement.to_string())
    };
    let compressed = args
        .keep
        .map(|m| CompressedTable::new(&table, m, Compression::Nearest));
    let build_s = t0.elapsed().as_secs_f64();
    drop(progress);

    let mut details = vec![format!(
        "landmarks   {} placed {placed} (seed {})",
        table.landmark_count(),
        args.seed
    )];
    let bytes = if let Some(c) = &compressed {
        output.save("compressed landmark table", |w| c.save(w, hash))?;
        details.push(format!(
            "compressed  the {} nearest per cell: search it as dh:{}:keep{}",
            c.kept(),
            args.k,
            c.kept()
        ));
        c.memory_bytes()
    } else {
        output.save("landmark table", |w| table.save(w, hash))?;
        table.memory_bytes()
    };
    BuildReport {
        input: BuildInput::Map(&args.map, &graph),
        details,
        build_s,
        bytes,
        output: &args.output,
        listing: (table.landmarks().iter().enumerate())
            .map(|(i, &l)| {
                let (x, y) = graph.coords(l);
                format!("L{i:<3} {x},{y}")
            })
            .collect(),
        json: args.json.then(|| {
            let landmarks: Vec<[u32; 2]> = (table.landmarks().iter())
                .map(|&l| {
                    let (x, y) = graph.coords(l);
                    [x, y]
                })
                .collect();
            serde_json::json!({
                "table": if compressed.is_some() {
                    TableKind::CompressedLandmarks.name()
                } else {
                    TableKind::Landmarks.name()
                },
                "placement": placed,
                "seed": args.seed,
                "landmarks": landmarks,
                "kept": compressed.as_ref().map(CompressedTable::kept),
            })
        }),
    }
    .print()?;
    Ok(Outcome::Success)
}

/// The goal cells of every scenario of `scen`, each checked against `grid`
/// (on the map, passable, the scenario made for a map of its size). Every
/// error names the file and line.
fn goals_of(scen: &Path, grid: &Grid) -> anyhow::Result<Vec<NodeId>> {
    let file = read_scen(scen)?;
    file.scenarios
        .iter()
        .map(|s| {
            s.endpoints(grid)
                .map(|(_, goal)| goal)
                .with_context(|| scen.display().to_string())
        })
        .collect()
}
