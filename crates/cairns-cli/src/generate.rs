//! `cairns generate`: writes a generated map, with terrain patches if asked
//! (the example maps of docs/terrain.md are made this way).

use std::io::{self, Write};
use std::path::PathBuf;

use anyhow::Context;
use cairns::grid::{Grid, MapKind, Tile, paint_terrain};
use cairns::movingai::write_map;

use crate::Outcome;

/// Options of `cairns generate`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The kind of map: `open` (no walls), `rooms:SIZE` (rooms SIZE >= 1
    /// cells wide), `maze:WIDTH` (corridors WIDTH >= 1 cells wide) or
    /// `random:PERCENT` (0 to 99 percent of the cells blocked).
    #[arg(long, default_value = "rooms:15", value_parser = parse_kind)]
    pub kind: Kind,
    /// Width in cells.
    #[arg(long, default_value_t = 128)]
    pub width: u32,
    /// Height in cells.
    #[arg(long, default_value_t = 128)]
    pub height: u32,
    /// The seed: the same options always give the same map.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Paint this many round patches of swamp (S), water (W) and trees (T)
    /// over the free cells, for searches with --terrain.
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub patches: u32,
    /// The `.map` file to write.
    #[arg(short = 'o', long = "output")]
    pub output: PathBuf,
    /// Print one JSON object (what was written) instead of text.
    #[arg(long)]
    pub json: bool,
}

/// A map kind: open, or one of the library's.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    /// No walls.
    Open,
    /// [`MapKind`].
    Generated(MapKind),
}

fn parse_kind(s: &str) -> Result<Kind, String> {
    if s == "open" {
        return Ok(Kind::Open);
    }
    let (name, n) = s.split_once(':').ok_or_else(|| {
        format!("expected open, rooms:SIZE, maze:WIDTH or random:PERCENT, got {s:?}")
    })?;
    let n: u32 = n
        .parse()
        .map_err(|_| format!("{n:?} is not a non-negative integer"))?;
    // The library takes 0 as 1 and a percent above 100 as 100; here they
    // are refused: a room or corridor has at least one cell, and at 100%
    // every cell is a wall.
    let check = |ok: bool, what: &str| {
        if ok {
            Ok(n)
        } else {
            Err(format!("{name}:{n}: {what}"))
        }
    };
    Ok(Kind::Generated(match name {
        "rooms" => MapKind::Rooms {
            room_size: check(n >= 1, "a room is at least 1 cell wide")?,
        },
        "maze" => MapKind::Maze {
            corridor_width: check(n >= 1, "a corridor is at least 1 cell wide")?,
        },
        "random" => MapKind::Random {
            obstacle_percent: check(
                n < 100,
                "the percent of cells blocked must be 0 to 99 (at 100 every cell is a wall)",
            )?,
        },
        _ => {
            return Err(format!(
                "unknown map kind {name:?} (expected open, rooms, maze or random)"
            ));
        }
    }))
}

pub fn run(args: &Args) -> anyhow::Result<Outcome> {
    let mut grid = match args.kind {
        Kind::Open => Grid::filled(args.width, args.height, Tile::Ground)?,
        Kind::Generated(kind) => kind.generate(args.width, args.height, args.seed)?,
    };
    paint_terrain(&mut grid, args.patches, args.seed);
    std::fs::write(&args.output, write_map(&grid))
        .with_context(|| format!("{}: cannot write the map", args.output.display()))?;
    let count = |t: Tile| grid.tiles().iter().filter(|&&x| x == t).count();
    if args.json {
        crate::json::print(&serde_json::json!({
            "output": args.output.display().to_string(),
            "width": grid.width(),
            "height": grid.height(),
            "ground": count(Tile::Ground),
            "swamp": count(Tile::Swamp),
            "water": count(Tile::Water),
            "trees": count(Tile::Tree),
            "walls": count(Tile::OutOfBounds),
        }))?;
        return Ok(Outcome::Success);
    }
    writeln!(
        io::stdout().lock(),
        "{}: {}x{}, {} ground, {} swamp, {} water, {} trees, {} walls",
        args.output.display(),
        grid.width(),
        grid.height(),
        count(Tile::Ground),
        count(Tile::Swamp),
        count(Tile::Water),
        count(Tile::Tree),
        count(Tile::OutOfBounds)
    )?;
    Ok(Outcome::Success)
}
