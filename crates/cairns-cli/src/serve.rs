//! `cairns serve`: the browser visualizer (`cairns-web`).

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Context;
use cairns_web::{AppState, Limits};

use crate::Outcome;

/// Options of `cairns serve`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The `.map` file to show first; without one, the demo's generated map.
    pub map: Option<PathBuf>,
    /// Port to listen on (0 picks a free one).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// Also offer every `.map` file of this folder and its subfolders (the
    /// menu groups them by folder); may be given more than once.
    #[arg(long, value_name = "DIR")]
    pub maps: Vec<PathBuf>,
    /// Address to bind.
    #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    pub bind: IpAddr,
    /// Connections served at once; more are answered 503 and closed. Keep
    /// it below the file-descriptor limit (`ulimit -n`).
    #[arg(long, default_value_t = Limits::default().max_connections)]
    pub max_connections: usize,
    /// Memory for landmark tables, cached or in use, in MiB; one request's
    /// table may take at most a third of it.
    #[arg(long, value_name = "MIB", default_value_t = Limits::default().table_memory >> 20)]
    pub table_memory: usize,
}

pub fn run(args: &Args) -> anyhow::Result<Outcome> {
    let mut state = match &args.map {
        Some(path) => AppState::with_map_file(path)?,
        None => AppState::with_default_map(),
    };
    for dir in &args.maps {
        state = state.add_maps_dir(dir)?;
    }
    let table_memory = args.table_memory.saturating_mul(1 << 20);
    let state = state.with_limits(Limits {
        max_connections: args.max_connections,
        table_memory,
        max_table_bytes: table_memory / 3,
        ..Limits::default()
    });
    let addr = SocketAddr::new(args.bind, args.port);
    cairns_web::serve_blocking(addr, Arc::new(state), |bound| {
        eprintln!("cairns: serving on http://{bound}/");
    })
    .with_context(|| format!("serving on {addr}"))?;
    Ok(Outcome::Success)
}
