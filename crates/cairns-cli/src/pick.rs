//! `cairns choose`: the search to run on a map, given what may be spent
//! before its first query (the library's [`cairns::spec::choose`]).

use std::path::PathBuf;

use cairns::spec::{Allowance, choose};

use crate::Outcome;
use crate::choose::MapRules;

/// Options of `cairns choose`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The `.map` file.
    pub map: PathBuf,
    /// Seconds of building allowed before the first query.
    #[arg(long, default_value_t = Allowance::default().seconds, value_name = "S")]
    pub seconds: f64,
    /// Bytes of tables allowed in memory (no limit by default).
    #[arg(long, value_name = "BYTES")]
    pub memory: Option<u64>,
    /// Movement rule, by name (any name below; the first is the one
    /// printed).
    #[arg(long, default_value = "octile", value_parser = crate::choose::neighborhood_names())]
    pub neighborhood: cairns::grid::Neighborhood,
    #[command(flatten)]
    pub rules: MapRules,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &Args) -> anyhow::Result<Outcome> {
    if !(args.seconds >= 0.0 && args.seconds.is_finite()) {
        anyhow::bail!("--seconds must be a finite number of seconds, 0 or more");
    }
    let grid = args.rules.read_map(&args.map)?;
    let graph = args.rules.graph(grid, args.neighborhood)?;
    let allowance = Allowance {
        seconds: args.seconds,
        bytes: args.memory.unwrap_or(u64::MAX),
    };
    let choice = crate::progress::during("choosing a search", || choose(&graph, allowance));
    let search = choice.spec.algorithm.name();
    let heuristic = choice.spec.heuristic.as_ref().map(ToString::to_string);
    if args.json {
        let out = serde_json::json!({
            "search": search,
            "spec": choice.spec.to_string(),
            "preprocess_s_at_most": choice.seconds,
            "table_bytes_at_most": choice.bytes,
            "why": choice.why,
            "run": run_command(args, search, heuristic.as_deref()),
        });
        println!("{out}");
    } else {
        println!("search: {}", choice.spec);
        println!("why: {}", choice.why);
        println!(
            "before the first query: up to {:.1} s and {} bytes",
            choice.seconds, choice.bytes
        );
        println!("run: {}", run_command(args, search, heuristic.as_deref()));
    }
    Ok(Outcome::Success)
}

/// The `cairns path` command that runs the search chosen, with the
/// heuristic it chose and every option of `args` that changes the answer
/// (the movement rule unless it is the default, the terrain costs), quoted
/// for a POSIX shell.
fn run_command(args: &Args, search: &str, heuristic: Option<&str>) -> String {
    let mut words = vec![
        "cairns".to_string(),
        "path".to_string(),
        shell_word(&args.map.display().to_string()),
        "--search".to_string(),
        shell_word(search),
    ];
    if let Some(h) = heuristic {
        words.push(format!("--heuristic {}", shell_word(h)));
    }
    if args.neighborhood != cairns::grid::Neighborhood::default() {
        words.push(format!("--neighborhood {}", args.neighborhood));
    }
    if let Some(costs) = &args.rules.terrain {
        words.push(format!("--terrain {}", shell_word(&costs.to_string())));
    }
    if args.rules.size > 1 {
        words.push(format!("--size {}", args.rules.size));
    }
    words.push("--from X,Y --to X,Y".to_string());
    words.join(" ")
}

/// `word` as one word of a POSIX shell: as it is when it holds only
/// characters no shell reads specially, in single quotes otherwise.
fn shell_word(word: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "+,-./:=@_%".contains(c);
    if !word.is_empty() && word.chars().all(plain) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}
