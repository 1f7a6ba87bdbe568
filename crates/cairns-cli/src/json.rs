//! `--json`: every command that prints results prints one JSON object,
//! with the field names of `scen --json` where they mean the same thing
//! (`queries`, `mismatches`, `mean_us`, `median_us`, `preprocess_s`,
//! `table_bytes`, `spec`, `search`, `heuristic`, `map`). The one place
//! that writes it.

use std::io::Write;

use anyhow::Context;

/// Prints `value` on one line of stdout.
pub fn print(value: &serde_json::Value) -> anyhow::Result<()> {
    write(&mut std::io::stdout().lock(), value)
}

/// Writes `value` on one line of `out` (stderr when stdout holds other
/// data: `scen --per-query -`).
pub fn write(out: &mut dyn Write, value: &serde_json::Value) -> anyhow::Result<()> {
    writeln!(out, "{value}")?;
    out.flush().context("writing the JSON summary")
}

/// Adds the fields of the object `extra` to the object `into` (a field of
/// both takes `extra`'s value); anything but two objects is left as is.
pub fn merge(into: &mut serde_json::Value, extra: serde_json::Value) {
    if let (Some(into), serde_json::Value::Object(extra)) = (into.as_object_mut(), extra) {
        into.extend(extra);
    }
}
