// cairns visualizer: drag the start (circle), the goal (crossed square) and
// the landmarks (numbered triangles), paint walls, compare two searches,
// zoom, pan and play them step by step. Plain JavaScript, no build step.
"use strict";

const $ = (id) => document.getElementById(id);
const view = $("view");
const ctx = view.getContext("2d");
const params = new URLSearchParams(location.search);

// Margin around the map, in screen pixels, so that markers on its edge are
// never clipped.
const PAD = 14;

const st = {
  // base: the map's own walls; walls: with the edits applied. One byte per cell.
  map: null, width: 0, height: 0, base: null, walls: null,
  // The view: screen pixels per cell and the screen position of cell (0, 0).
  zoom: 1, fitZoom: 1, ox: PAD, oy: PAD,
  from: null, to: null, landmarks: [], selected: "from",
  // Wall edits in order, and how many edits each stroke made (for undo).
  edits: [], tableEdits: [], strokes: [],
  result: null, heat: null, help: null, owners: null, error: null,
  // The searches the shown result is of, and the control changed last
  // (a refusal is written beside it).
  searches: null, cause: null,
  inFlight: false, pending: false, drag: null, requests: 0,
  play: null, hoverOwner: null,
};

function decodeBase64(s) {
  // Native where the browser has it (Chromium 140, Firefox 133): a drag
  // under a shading decodes a byte per cell on every answer.
  if (Uint8Array.fromBase64) return Uint8Array.fromBase64(s);
  const bin = atob(s);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

function parsePoint(s) {
  if (!s) return null;
  const p = s.split(",").map(Number);
  return p.length === 2 && p.every(Number.isInteger) ? p : null;
}

function parsePoints(s) {
  if (!s) return null;
  const ps = s.split(";").map(parsePoint);
  return ps.every((p) => p) ? ps : null;
}

async function api(path, body) {
  const opts = body === undefined ? {} : {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body),
  };
  const r = await fetch(path, opts);
  const data = await r.json();
  if (!r.ok) throw new Error(data.error || r.statusText);
  return data;
}

async function loadMap(name, fromUrl) {
  const m = await api("/api/map?name=" + encodeURIComponent(name));
  st.map = m.name; st.width = m.width; st.height = m.height;
  st.base = new Uint8Array(m.width * m.height);
  m.rows.forEach((row, y) => {
    for (let x = 0; x < row.length; x++) st.base[y * m.width + x] = ".GS".includes(row[x]) ? 0 : 1;
  });
  st.walls = st.base.slice();
  const urlLandmarks = fromUrl && parsePoints(params.get("landmarks"));
  st.landmarks = urlLandmarks || m.landmarks;
  $("lm-count").value = Math.max(1, st.landmarks.length);
  st.image = new ImageData(m.width, m.height);
  st.offscreen = document.createElement("canvas");
  st.offscreen.width = m.width; st.offscreen.height = m.height;
  st.edits = []; st.tableEdits = []; st.strokes = [];
  st.from = (fromUrl && parsePoint(params.get("from"))) || m.from;
  st.to = (fromUrl && parsePoint(params.get("to"))) || m.to;
  $("endpoints-note").textContent = fromUrl && params.has("from")
    ? "start and goal from the link" : "start and goal: " + m.endpoints;
  st.result = null; st.heat = null; st.play = null;
  fit();
  await update();
}

// Sizes the canvas to the space left of the side panel and below the
// header, and the map to fill it, keeping its aspect.
function fit() {
  const stage = $("stage");
  const w = Math.max(200, stage.clientWidth - 2);
  const top = stage.getBoundingClientRect().top + window.scrollY;
  const h = Math.max(200, window.innerHeight - top - 14);
  document.querySelector("aside").style.maxHeight = Math.max(200, window.innerHeight - top - 8) + "px";
  if (!st.width) return;
  st.fitZoom = Math.min((w - 2 * PAD) / st.width, (h - 2 * PAD) / st.height);
  st.zoom = st.fitZoom;
  view.width = w;
  view.height = Math.min(h, Math.ceil(st.height * st.zoom + 2 * PAD));
  st.ox = (view.width - st.width * st.zoom) / 2;
  st.oy = (view.height - st.height * st.zoom) / 2;
}

// Zooms by `factor` keeping the screen point (cx, cy) over the same cell.
function zoomAt(cx, cy, factor) {
  const z = Math.min(64, Math.max(st.fitZoom * 0.5, st.zoom * factor));
  st.ox = cx - (cx - st.ox) * (z / st.zoom);
  st.oy = cy - (cy - st.oy) * (z / st.zoom);
  st.zoom = z;
  draw();
}

function pan(dx, dy) { st.ox += dx; st.oy += dy; draw(); }

// Search A's or B's algorithm, as chosen in its menu.
function searchOf(k) { return $(k === "a" ? "search" : "search-b").value || "astar"; }
const UNINFORMED = ["dijkstra", "bfs"];
// Whether a side's heuristic is the landmarks'.
function usesDh(k) {
  const h = k === "a" ? $("heuristic").value : $("compare").value;
  return h.startsWith("dh") && !UNINFORMED.includes(searchOf(k));
}

// The shading the search request asks for with the searches (one request
// per change, however many shadings are on).
function shadeRequest() {
  const v = $("shade").value;
  if (v === "heat" || v === "heat-b") return { kind: "heat", b: v === "heat-b" };
  if ((v === "help" || v === "goals") && st.landmarks.length) return { kind: v, landmark: helpLandmark() };
  return null;
}

// What the shading asked for depends on: a request whose shading has the
// same inputs as the one shown asks for none and keeps it (a start drag
// under "where landmark helps", a goal drag under "goals landmark helps").
function shadeKey(req) {
  const sh = req.shade;
  if (!sh) return null;
  const scene = [req.map, req.landmarks, req.neighborhood, req.size, req.walls, req.table_walls, req.directed];
  const ends = sh.kind === "help" ? [req.to] : sh.kind === "goals" ? [req.from]
    : [req.from, req.to, sh.b ? req.compare : req.heuristic, sh.b ? req.compare_search : req.search];
  return JSON.stringify([sh, scene, ends]);
}

function request() {
  const [sa, sb] = [searchOf("a"), searchOf("b")];
  const hb = $("compare").value;
  return {
    map: st.map, from: st.from, to: st.to, search: sa, compare_search: sb,
    // Dijkstra and BFS take no heuristic: that side searches with zero.
    heuristic: UNINFORMED.includes(sa) ? "zero" : $("heuristic").value,
    compare: hb ? (UNINFORMED.includes(sb) ? "zero" : hb) : null,
    landmarks: st.landmarks, neighborhood: Number($("neighborhood").value), size: agentSize(),
    open: $("open").value || null, walls: st.edits, table_walls: st.tableEdits,
    directed: $("directed").checked,
    // While a marker is dragged or walls painted: one cold run per search,
    // for a sooner answer; the release asks again with warm runs, and for
    // which landmark gives each cell's estimate.
    warm: !st.drag,
    shade: shadeRequest(),
    owners: !st.drag && st.landmarks.length > 0 && (usesDh("a") || usesDh("b")),
  };
}

// Writes what is shown into the address bar, so that a view can be shared.
function writeUrl() {
  const q = new URLSearchParams();
  q.set("map", st.map);
  q.set("search", searchOf("a"));
  if (searchOf("b") !== searchOf("a")) q.set("search-b", searchOf("b"));
  q.set("from", st.from.join(","));
  q.set("to", st.to.join(","));
  q.set("heuristic", $("heuristic").value);
  q.set("compare", $("compare").value);
  if ($("open").value) q.set("open", $("open").value);
  if ($("neighborhood").value !== "8") q.set("neighborhood", $("neighborhood").value);
  if (agentSize() !== 1) q.set("size", String(agentSize()));
  if ($("directed").checked) q.set("directed", "1");
  if ($("shade").value) q.set("shade", $("shade").value);
  q.set("landmarks", st.landmarks.map((p) => p.join(",")).join(";"));
  history.replaceState(null, "", "?" + q.toString().replace(/%2C/g, ",").replace(/%3B/g, ";"));
}

// The one code path for every change: drags, edits, menus and URL
// parameters. One request per change: the shading comes with the searches.
async function update() {
  if (st.inFlight) { st.pending = true; return; }
  st.inFlight = true;
  try {
    do {
      st.pending = false;
      stopPlayback();
      const t0 = performance.now();
      const searches = { a: searchOf("a"), b: searchOf("b") };
      try {
        st.requests++;
        const req = request();
        const key = shadeKey(req);
        const kept = key !== null && key === st.shadeKey && (st.heat || st.help);
        if (kept) req.shade = null;
        const tf = performance.now();
        const r = await api("/api/search", req);
        st.fetchMillis = performance.now() - tf;
        st.result = r; st.searches = searches;
        if (!kept) { st.heat = r.heat || null; st.help = r.help || null; st.shadeKey = key; }
        st.owners = r.owners ? decodeBase64(r.owners) : null;
        st.error = null;
        writeUrl();
      } catch (e) {
        // A refused combination clears the picture: the old result under
        // the new menu value would say something false.
        st.result = null; st.bits = null; st.heat = null; st.help = null; st.owners = null; st.shadeKey = null;
        st.error = e.message;
      }
      const t1 = performance.now();
      show();
      st.shownAt = performance.now();
      st.showMillis = st.shownAt - t1;
      $("latency").textContent = (performance.now() - t0).toFixed(1);
    } while (st.pending);
  } finally {
    st.inFlight = false;
  }
  $("status").textContent = "ready";
}

// The error, in the side panel and beside the control changed last.
function showError() {
  $("error").textContent = st.error || "";
  let el = $("refusal");
  if (!st.error) { if (el) el.remove(); return; }
  if (!el) {
    el = document.createElement("span");
    el.id = "refusal"; el.className = "refusal"; el.setAttribute("role", "alert");
  }
  const cause = $(st.cause || "search");
  (cause.closest(".group, label") || cause).after(el);
  el.textContent = "\u2190 refused: " + st.error;
}

function fmt(n) { return n.toLocaleString("en-US"); }

// What a search expands: JPS expands jump points, the others cells.
function unit(search) { return search === "jps" || search === "jps+" || search === "jps+bb" ? "jump points" : "cells"; }

// "B (dh) expands 2.6x fewer cells than A (octile)"; the search's name is
// given when it is not A*, and a ratio only between the same units.
function ratioText(r, s) {
  const name = (k, o) => k + " (" + (s[k.toLowerCase()] === "astar" ? "" : s[k.toLowerCase()] + ", ") + o.heuristic + ")";
  const [ua, ub] = [unit(s.a), unit(s.b)];
  if (!r.b) return name("A", r.a) + " expands " + fmt(r.a.expanded) + " " + ua;
  const a = r.a.expanded, b = r.b.expanded;
  if (ua !== ub) {
    return name("A", r.a) + " expands " + fmt(a) + " " + ua + ", " + name("B", r.b) + " " + fmt(b) + " " + ub;
  }
  if (a === b) return name("B", r.b) + " and " + name("A", r.a) + " expand as many " + ua + ": " + fmt(a);
  const fewer = b < a;
  const x = fewer ? a / Math.max(1, b) : b / Math.max(1, a);
  return name("B", r.b) + " expands " + x.toFixed(1) + "x " + (fewer ? "fewer" : "more") + " " + ua + " than " + name("A", r.a);
}

function show() {
  const r = st.result;
  showError();
  for (const k of ["a", "b"]) {
    const o = r && r[k];
    $("name-" + k).textContent = o ? searchName(k) + " " + o.heuristic : "";
    $("count-" + k).textContent = o ? fmt(o.expanded) : "-";
    $("time-" + k).textContent = o ? o.millis.toFixed(2) : "-";
    $("cost-" + k).textContent = o && o.cost !== null ? o.cost.toFixed(4) : "-";
  }
  $("ratio").textContent = r ? ratioText(r, st.searches)
    : st.error ? "No picture: the last change was refused (the red note beside it says why)" : "";
  $("ratio").className = r || !st.error ? "ratio" : "ratio refused";
  if (r) {
    const runs = (o) => o.runs + (o.runs === 1 ? " run" : " runs");
    $("timing-note").textContent = (r.a.warm === false
      ? "server ms: one cold run of each search (while dragging; warm runs on release)"
      : "server ms: the search alone on the server, median of " + runs(r.a) + (r.b ? " (A), " + runs(r.b) + " (B)" : "")
        + " after one warm-up; at most 5 ms of timed runs per search")
      + ". The whole request took " + r.total_millis.toFixed(1) + " ms on the server; the round trip below adds the network, decoding and drawing.";
    $("path-length").textContent = r.a.cost === null ? "none" : r.a.cost.toFixed(4);
    $("path-steps").textContent = r.a.cost === null ? "-" : String(r.a.path.length - 1);
    $("stale").textContent = r.stale ? "STALE (walls changed: repair)" : "fresh";
    $("stale").className = r.stale ? "stale" : "";
    // One line per table the searches ran with (kind, size, built now or
    // kept by the server), as the CLI's table report.
    const uses = r.a.tables.concat(r.b ? r.b.tables : []);
    const seen = new Set();
    $("table-time").textContent = uses
      .filter((u) => !seen.has(u.kind) && seen.add(u.kind))
      .map((u) => u.kind + " " + (u.bytes / 1048576).toFixed(1) + " MiB, "
        + (u.built_millis === null ? "kept" : "built in " + u.built_millis.toFixed(1) + " ms"))
      .join("; ");
    st.bits = {
      a: decodeBase64(r.a.explored.bitmap),
      b: r.b ? decodeBase64(r.b.explored.bitmap) : null,
      unreachable: decodeBase64(r.unreachable.bitmap),
    };
  } else {
    $("timing-note").textContent = "";
    $("table-time").textContent = "";
    $("path-length").textContent = "-";
    $("path-steps").textContent = "-";
  }
  const jps = (s) => unit(s) === "jump points";
  $("legend-jump").hidden = !(r && (jps(st.searches.a) || jps(st.searches.b)));
  $("legend-edited").hidden = !st.edits.some((e) => e[2] === 1);
  $("legend-erased").hidden = !st.edits.some((e) => e[2] === 0);
  $("heat-info").textContent = st.heat
    ? "heat: mean h/d " + st.heat.mean.toFixed(3) + ", overestimates " + st.heat.over
    : st.help ? helpInfo() : "";
  $("owners-note").textContent = ownersNote();
  // The shading is decoded once per answer that brings one (a drag that
  // keeps it redraws from the bytes already decoded).
  const source = st.heat || st.help;
  if (!st.shade || st.shade.source !== source || st.shade.kind !== $("shade").value) {
    st.shade = shading();
    if (st.shade) {
      st.shade.source = source;
      st.shade.kind = $("shade").value;
    }
  }
  showStale(r);
  drawColorBar();
  draw();
}

function searchName(k) { return st.searches ? st.searches[k] : searchOf(k); }

function helpInfo() {
  const l = helpLandmark() + 1;
  return $("shade").value === "goals"
    ? "landmark " + l + " raises the estimate from the start to " + fmt(st.help.helped) + " of "
      + fmt(st.help.cells) + " goals, by up to " + st.help.max.toFixed(2)
    : "landmark " + l + " raises the estimate towards the goal on " + fmt(st.help.helped) + " of "
      + fmt(st.help.cells) + " cells, by up to " + st.help.max.toFixed(2);
}

// Which landmarks give the estimates of the cells the dh search expanded:
// a landmark that gives none cannot change this query when dragged.
function ownersNote() {
  const side = usesDh("b") && st.bits && st.bits.b ? "b" : usesDh("a") ? "a" : null;
  if (!st.owners || !side || !st.bits) return "";
  const bits = st.bits[side];
  const counts = new Array(st.landmarks.length).fill(0);
  let octile = 0, n = 0;
  for (let i = 0; i < st.owners.length; i++) {
    if (!bit(bits, i)) continue;
    n++;
    const o = st.owners[i];
    if (o < counts.length) counts[o]++; else if (o === 254) octile++;
  }
  if (!n) return "";
  const used = counts.map((c, l) => [l, c]).filter(([, c]) => c > 0).sort((x, y) => y[1] - x[1]);
  const idle = counts.map((c, l) => [l, c]).filter(([, c]) => c === 0).map(([l]) => l + 1);
  const pct = (c) => Math.round(100 * c / n) + "%";
  return side.toUpperCase() + "'s estimates on the cells it expanded come from landmark "
    + used.map(([l, c]) => (l + 1) + " (" + pct(c) + ")").join(", ")
    + (octile ? ", octile alone (" + pct(octile) + ")" : "")
    + (idle.length ? ". Landmark" + (idle.length > 1 ? "s " : " ") + idle.join(", ")
      + " give" + (idle.length > 1 ? "" : "s") + " none: the others dominate this query, so moving "
      + (idle.length > 1 ? "them" : "it") + " changes little." : ".");
}

// The landmark whose help is shaded: the selected one, else the first.
function helpLandmark() {
  return typeof st.selected === "number" && st.selected < st.landmarks.length ? st.selected : 0;
}

// The shading over the map: one byte per cell from the server and a table
// of 256 colours for them (0: no shading there), with what the colour bar
// says. The heat map's scale is stretched from the smallest h/d shown to
// the largest, so that the differences between good heuristics are not
// all one colour. `value(i)` is the cell's place on the bar, 0 to 1 (-1:
// none, 2: an overestimate).
function shading() {
  const lut = new Uint32Array(256);
  const fill = (stops, from, to, at) => {
    for (let b = from; b <= to; b++) { const [r, g, bl] = ramp(stops, at(b)); lut[b] = rgb(r, g, bl); }
  };
  if (st.heat) {
    const bytes = decodeBase64(st.heat.ratio);
    let lo = 255, hi = 0;
    for (let i = 0; i < bytes.length; i++) { const b = bytes[i]; if (b <= 200) { if (b < lo) lo = b; if (b > hi) hi = b; } }
    if (lo > hi) { lo = 0; hi = 200; }
    const span = Math.max(1, hi - lo);
    const at = (b) => (b - lo) / span;
    fill(VIRIDIS, 0, 200, at);
    lut[254] = COLOR.over;
    const of = $("shade").value === "heat-b" ? "B" : "A";
    return { bytes, lut, value: (i) => (bytes[i] === 255 ? -1 : bytes[i] === 254 ? 2 : at(bytes[i])), ramp: VIRIDIS,
      title: "h/d of " + of + "'s heuristic (stretched: " + (lo / 200).toFixed(2) + " to " + (hi / 200).toFixed(2) + ")",
      lo: (lo / 200).toFixed(2), hi: (hi / 200).toFixed(2) };
  }
  if (st.help) {
    const bytes = decodeBase64(st.help.gain);
    fill(GAIN, 0, 254, (b) => b / 254);
    const goals = $("shade").value === "goals";
    return { bytes, lut, value: (i) => (bytes[i] === 255 ? -1 : bytes[i] / 254), ramp: GAIN,
      title: goals ? "goals from the start that landmark " + (helpLandmark() + 1) + " helps (estimate above octile)"
        : "how much landmark " + (helpLandmark() + 1) + " raises the estimate above octile",
      lo: "0", hi: st.help.max.toFixed(2) };
  }
  return null;
}

// Sequential ramps, ordered in lightness so that they read in grey too.
// Viridis' stops (dark blue to yellow) for h/d; for a landmark's gain one
// from pale cream (no gain: far from the wall grey) to dark red.
const VIRIDIS = [[68, 1, 84], [59, 82, 139], [33, 145, 140], [94, 201, 98], [253, 231, 37]];
const GAIN = [[255, 250, 225], [253, 204, 138], [252, 141, 89], [215, 48, 31], [127, 0, 0]];
function ramp(stops, t) {
  const x = Math.min(1, Math.max(0, t)) * (stops.length - 1);
  const k = Math.min(stops.length - 2, Math.floor(x)), f = x - k;
  return stops[k].map((c, j) => Math.round(c + (stops[k + 1][j] - c) * f));
}

function drawColorBar() {
  const sh = st.shade;
  $("shade-key").hidden = !sh;
  if (!sh) return;
  const bar = $("colorbar"), bc = bar.getContext("2d");
  // Drawn again only for another ramp (not on every answer of a drag).
  if (st.barRamp !== sh.ramp) {
    st.barRamp = sh.ramp;
    for (let x = 0; x < bar.width; x++) {
      const [r, g, b] = ramp(sh.ramp, x / (bar.width - 1));
      bc.fillStyle = "rgb(" + r + "," + g + "," + b + ")";
      bc.fillRect(x, 0, 1, bar.height);
    }
  }
  $("shade-title").textContent = sh.title + ":";
  $("shade-title").title = "explored cells keep their region's colour on their edge";
  $("bar-lo").textContent = sh.lo;
  $("bar-hi").textContent = sh.hi;
}

// With a stale table, the searches that used it may return a longer path:
// both are drawn, and the difference is written out.
function showStale(r) {
  st.stalePaths = [];
  let note = "";
  if (r && r.stale && r.shortest && r.shortest.cost !== null) {
    for (const [k, o] of [["A", r.a], ["B", r.b]]) {
      if (!o || !o.heuristic.startsWith("dh") || o.cost === null) continue;
      const extra = o.cost - r.shortest.cost;
      if (extra > 1e-6) {
        st.stalePaths.push(o.path);
        note += k + " (" + o.heuristic + ", stale table): not shortest: +" + extra.toFixed(2) + " ";
      }
    }
  }
  $("stale-note").textContent = note.trim();
  $("legend-stale").hidden = st.stalePaths.length === 0;
}

// Colours as little-endian RGBA words for a Uint32Array over the pixels.
// Orange, sky blue and purple (Okabe and Ito) stay apart under the common
// kinds of colour blindness, and differ in lightness too. In playback each
// search's frontier is a darker shade of its own colour.
const rgb = (r, g, b) => (255 << 24 | b << 16 | g << 8 | r) >>> 0;
const COLOR = {
  wall: rgb(48, 48, 56), free: rgb(255, 255, 255), over: rgb(255, 0, 255),
  edited: rgb(140, 70, 20), erased: rgb(255, 240, 190), unreachable: rgb(190, 190, 190),
  a: rgb(245, 176, 65), b: rgb(93, 173, 226), both: rgb(125, 91, 166),
  frontierA: rgb(166, 86, 0), frontierB: rgb(0, 80, 160),
};
const CSS = {
  a: "rgb(245,176,65)", b: "rgb(93,173,226)", both: "rgb(125,91,166)",
  path: "rgb(255,212,0)", stale: "rgb(204,121,167)", start: "rgb(0,158,115)", goal: "rgb(213,94,0)", landmark: "rgb(240,228,66)",
};
// Below this many pixels per cell, the explored cells under the path are
// drawn this many pixels wide (a halo), so that their colour shows on both
// sides of the line (which, anti-aliased, takes about 3 pixels).
const HALO = 6;

const bit = (bits, i) => bits && (bits[i >> 3] >> (i & 7)) & 1;

// Whether cell i was expanded by search s (0: A, 1: B), in playback or in
// the finished result.
function expandedBy(s, i) {
  const p = st.play;
  if (p) return p.state[s] ? p.state[s][i] === 2 : false;
  const bits = st.bits || {};
  return !!bit(s ? bits.b : bits.a, i);
}

// Which search reached each cell, one byte per cell (REGION_A, REGION_B:
// expanded by A, B, drawn as an area; FRONTIER_A, FRONTIER_B: on OPEN in
// playback; SEEN: expanded by either, jump points included), in a buffer
// kept between draws.
const REGION_A = 1, REGION_B = 2, FRONTIER_A = 4, FRONTIER_B = 8, SEEN = 16;
function regions(n, play, dotA, dotB) {
  const bits = st.bits || {};
  const of = st.regionsOf;
  if (!play && of && of.bits === bits && of.dotA === dotA && of.dotB === dotB) return st.regions;
  st.regionsOf = play ? null : { bits, dotA, dotB };
  if (!st.regions || st.regions.length !== n) st.regions = new Uint8Array(n);
  const reg = st.regions;
  reg.fill(0);
  if (play) {
    const [sa, sb] = play.state;
    for (let i = 0; i < n; i++) {
      const a = sa[i], b = sb ? sb[i] : 0;
      reg[i] = (a === 2 ? (dotA ? 0 : REGION_A) | SEEN : a === 1 ? FRONTIER_A : 0)
        | (b === 2 ? (dotB ? 0 : REGION_B) | SEEN : b === 1 ? FRONTIER_B : 0);
    }
    return reg;
  }
  const A = bits.a, B = bits.b;
  if (!A) return reg;
  // Eight cells a byte; most bytes of a large map are empty.
  for (let k = 0; k < A.length; k++) {
    const a = A[k], b = B ? B[k] : 0;
    if (!(a | b)) continue;
    for (let j = 0, i = k << 3; j < 8 && i < n; j++, i++) {
      const ea = (a >> j) & 1, eb = (b >> j) & 1;
      if (ea | eb) reg[i] = SEEN | (dotA ? 0 : ea * REGION_A) | (dotB ? 0 : eb * REGION_B);
    }
  }
  return reg;
}

function draw() {
  if (!st.image) return;
  const w = st.width, h = st.height, n = w * h;
  const px = new Uint32Array(st.image.data.buffer);
  const bits = st.bits || {};
  const play = st.play;
  // JPS expands only jump points: drawn as dots, not as areas.
  const dots = [0, 1].map((s) => unit(searchName(s ? "b" : "a")) === "jump points");
  const reg = regions(n, play, dots[0], dots[1]);
  // The shading's byte per cell and its colours (0: none there).
  const shade = st.shade && st.shade.bytes, lut = st.shade && st.shade.lut;
  const U = bits.unreachable;
  const walls = st.walls, base = st.base;
  const REGION = [0, COLOR.a, COLOR.b, COLOR.both];
  // The loop below runs once per cell on every answer of a drag: typed
  // arrays, small integers and no calls.
  for (let i = 0; i < n; i++) {
    if (walls[i]) { px[i] = base[i] ? COLOR.wall : COLOR.edited; continue; }
    let c = base[i] ? COLOR.erased : COLOR.free;
    if (U && (U[i >> 3] >> (i & 7)) & 1) c = COLOR.unreachable;
    const shaded = shade ? lut[shade[i]] : 0;
    if (shaded) c = shaded;
    const r = reg[i];
    if (r & 3) {
      // Under shading, an explored cell keeps its region's colour only on
      // the region's edge (a 4-neighbour not explored, or the map's
      // border): the shading shows through, the area stays seen.
      let edge = !shaded;
      if (!edge) {
        const x = i % w;
        edge = x === 0 || x === w - 1 || i < w || i >= n - w
          || !(reg[i - 1] & SEEN) || !(reg[i + 1] & SEEN) || !(reg[i - w] & SEEN) || !(reg[i + w] & SEEN);
      }
      if (edge) c = REGION[r & 3];
    } else if (r & FRONTIER_B) c = COLOR.frontierB;
    else if (r & FRONTIER_A) c = COLOR.frontierA;
    px[i] = c;
  }
  const oc = st.offscreen.getContext("2d");
  oc.putImageData(st.image, 0, 0);
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.fillStyle = "#ddd";
  ctx.fillRect(0, 0, view.width, view.height);
  ctx.imageSmoothingEnabled = false;
  const z = st.zoom;
  ctx.drawImage(st.offscreen, st.ox, st.oy, w * z, h * z);
  const centre = (n) => [st.ox + ((n % w) + 0.5) * z, st.oy + (Math.floor(n / w) + 0.5) * z];
  const regionCss = (a, b) => (a && b ? CSS.both : a ? CSS.a : CSS.b);
  // Jump points: dots at least 6 px wide, coloured by which search took them.
  if ((dots[0] || dots[1]) && (st.result || play)) {
    const r = Math.max(3, z * 0.35);
    for (let i = 0; i < w * h; i++) {
      const a = dots[0] && expandedBy(0, i), b = dots[1] && expandedBy(1, i);
      if (!a && !b) continue;
      const [x, y] = centre(i);
      ctx.beginPath(); ctx.arc(x, y, r, 0, 2 * Math.PI);
      ctx.fillStyle = regionCss(a, b);
      ctx.fill(); ctx.lineWidth = 1; ctx.strokeStyle = "#111"; ctx.stroke();
    }
  }
  // The path: a thin yellow line (outlined once cells are large), so that
  // the cells under it keep their colour; below HALO px per cell, the
  // explored cells under it are drawn HALO px wide. With a stale table,
  // the shortest path is the yellow one and a longer path found with the
  // table is dashed over it.
  const trace = (path) => {
    ctx.beginPath();
    path.forEach((n, k) => { const [x, y] = centre(n); if (k) ctx.lineTo(x, y); else ctx.moveTo(x, y); });
    ctx.lineJoin = "round"; ctx.lineCap = "round";
  };
  if (st.result && (!play || play.done)) {
    const shortest = st.stalePaths && st.stalePaths.length ? st.result.shortest.path : st.result.a.path;
    if (z < HALO) {
      for (const n of shortest) {
        const a = !dots[0] && expandedBy(0, n), b = !dots[1] && expandedBy(1, n);
        if (!a && !b) continue;
        const [x, y] = centre(n);
        ctx.fillStyle = regionCss(a, b);
        // Whole pixels, so that the halo is its colour, not a blend.
        ctx.fillRect(Math.round(x - HALO / 2), Math.round(y - HALO / 2), HALO, HALO);
      }
    }
    if (shortest.length > 1) {
      trace(shortest);
      const core = Math.max(1.5, z * 0.2);
      if (z >= 6) { ctx.strokeStyle = "#111"; ctx.lineWidth = core + 2; ctx.stroke(); }
      ctx.strokeStyle = CSS.path; ctx.lineWidth = core; ctx.stroke();
    }
    for (const p of st.stalePaths || []) {
      trace(p);
      ctx.setLineDash([8, 5]);
      ctx.strokeStyle = "#111"; ctx.lineWidth = Math.max(3, z * 0.35) + 2; ctx.stroke();
      ctx.strokeStyle = CSS.stale; ctx.lineWidth = Math.max(3, z * 0.35); ctx.stroke();
      ctx.setLineDash([]);
    }
  }
  const r = Math.max(7, z * 0.6);
  const at = (p) => [st.ox + (p[0] + 0.5) * z, st.oy + (p[1] + 0.5) * z];
  const outline = () => { ctx.lineWidth = 4; ctx.strokeStyle = "#fff"; ctx.stroke(); ctx.lineWidth = 2; ctx.strokeStyle = "#111"; ctx.stroke(); };
  ctx.font = "bold 11px sans-serif";
  ctx.textBaseline = "middle";
  st.landmarks.forEach((l, k) => {
    const [x, y] = at(l);
    ctx.beginPath(); ctx.moveTo(x, y - r); ctx.lineTo(x + r, y + r * 0.75); ctx.lineTo(x - r, y + r * 0.75); ctx.closePath();
    ctx.fillStyle = CSS.landmark; ctx.fill(); outline();
    // Numbered from 1, as the notes and the shading's title name them.
    const label = String(k + 1), tw = ctx.measureText(label).width;
    ctx.fillStyle = "rgba(255,255,255,0.85)";
    ctx.fillRect(x + r + 1, y - 7, tw + 4, 14);
    ctx.fillStyle = "#111";
    ctx.fillText(label, x + r + 3, y);
    // The landmark that gives the estimate of the cell under the pointer.
    if (st.hoverOwner === k) {
      ctx.beginPath(); ctx.arc(x, y, r + 6, 0, 2 * Math.PI);
      ctx.lineWidth = 3; ctx.strokeStyle = "#d55e00"; ctx.stroke();
    }
  });
  // The agent's footprint at the start and the goal: its k x k block from
  // the top-left cell it stands on.
  if (agentSize() > 1) {
    const k = agentSize();
    for (const [p, color] of [[st.from, CSS.start], [st.to, CSS.goal]]) {
      ctx.beginPath(); ctx.rect(st.ox + p[0] * z, st.oy + p[1] * z, k * z, k * z);
      ctx.setLineDash([5, 3]); ctx.lineWidth = 2.5; ctx.strokeStyle = color; ctx.stroke(); ctx.setLineDash([]);
    }
  }
  {
    const [x, y] = at(st.to);
    ctx.beginPath(); ctx.rect(x - r, y - r, 2 * r, 2 * r);
    ctx.fillStyle = CSS.goal; ctx.fill(); outline();
    ctx.beginPath(); ctx.moveTo(x - r * 0.6, y - r * 0.6); ctx.lineTo(x + r * 0.6, y + r * 0.6);
    ctx.moveTo(x + r * 0.6, y - r * 0.6); ctx.lineTo(x - r * 0.6, y + r * 0.6);
    ctx.lineWidth = 2.5; ctx.strokeStyle = "#fff"; ctx.stroke();
  }
  {
    const [x, y] = at(st.from);
    ctx.beginPath(); ctx.arc(x, y, r, 0, 2 * Math.PI);
    ctx.fillStyle = CSS.start; ctx.fill(); outline();
  }
  // The marker the keyboard moves, when the map has the focus.
  if (document.activeElement === view) {
    const p = handle(st.selected);
    if (p) {
      const [x, y] = at(p);
      ctx.beginPath(); ctx.arc(x, y, r + 6, 0, 2 * Math.PI);
      ctx.setLineDash([4, 3]); ctx.lineWidth = 2; ctx.strokeStyle = "#0072b2"; ctx.stroke(); ctx.setLineDash([]);
    }
  }
}

// "from", "to" or a landmark's index.
function handle(name) {
  if (name === "from") return st.from;
  if (name === "to") return st.to;
  return st.landmarks[name] || null;
}

function screenXY(ev) {
  const r = view.getBoundingClientRect();
  return [ev.clientX - r.left, ev.clientY - r.top];
}

function cellAt(ev) {
  const [sx, sy] = screenXY(ev);
  const x = Math.floor((sx - st.ox) / st.zoom), y = Math.floor((sy - st.oy) / st.zoom);
  return [Math.min(st.width - 1, Math.max(0, x)), Math.min(st.height - 1, Math.max(0, y))];
}

// The marker under the pointer: markers are drawn at least 7 px wide, so
// they are hit in screen pixels, not cells.
function hit(ev) {
  const [sx, sy] = screenXY(ev);
  const r = Math.max(7, st.zoom * 0.6) + 3;
  const near = (p) => Math.abs(st.ox + (p[0] + 0.5) * st.zoom - sx) <= r && Math.abs(st.oy + (p[1] + 0.5) * st.zoom - sy) <= r;
  if (near(st.from)) return "from";
  if (near(st.to)) return "to";
  const l = st.landmarks.findIndex(near);
  return l >= 0 ? l : null;
}

// What the cell under the pointer is: which search expanded it, and which
// landmark gives the estimate there (ringed on the map).
function hover(c) {
  const i = c[1] * st.width + c[0];
  let t = "cell (" + c[0] + ", " + c[1] + ")";
  let owner = null;
  if (st.walls[i]) t += ": wall";
  else {
    const a = expandedBy(0, i), b = expandedBy(1, i);
    t += a || b ? ": expanded by " + (a && b ? "A and B" : a ? "A" : "B") : ": not expanded";
    if (st.owners) {
      const o = st.owners[i];
      if (o < 254) { owner = o; t += "; landmark " + (o + 1) + " gives the largest estimate from here to the goal"; }
      else if (o === 254) t += "; no landmark beats the octile distance here";
    } else if (!usesDh("a") && !usesDh("b")) t += "; choose dh for A or B to see which landmark gives the estimate";
    const v = st.shade ? st.shade.value(i) : -1;
    if (v >= 0 && v <= 1) t += "; shading " + v.toFixed(2) + " of the bar";
  }
  $("hover").textContent = t;
  if (owner !== st.hoverOwner) { st.hoverOwner = owner; draw(); }
}

view.addEventListener("pointerdown", (ev) => {
  view.focus();
  if (ev.shiftKey || ev.button === 1) {
    const [x, y] = screenXY(ev);
    st.drag = { pan: true, x, y };
    capture(ev);
    return;
  }
  const c = cellAt(ev);
  const tool = $("tool").value;
  if (tool === "add-landmark") { addLandmark(c); return; }
  if (tool === "remove-landmark") { const h = hit(ev); if (typeof h === "number") removeLandmark(h); return; }
  if (tool !== "drag") {
    st.drag = { paint: tool === "wall" ? 1 : 0, last: c, edits: 0 };
    capture(ev);
    paint([c]);
    return;
  }
  const h = hit(ev);
  st.drag = h === null ? null : { point: handle(h) };
  if (h !== null) {
    const changed = st.selected !== h;
    st.selected = h; capture(ev); draw();
    // The shading is of the selected landmark.
    if (changed && typeof h === "number" && ["help", "goals"].includes($("shade").value)) update();
  }
});

// Keeps the drag's moves coming when the pointer leaves the canvas. A
// pointer the browser does not know (a script's event) cannot be captured.
function capture(ev) {
  try { view.setPointerCapture(ev.pointerId); } catch (_) { /* no such pointer */ }
}

view.addEventListener("pointermove", (ev) => {
  if (!st.drag) { if (st.image) hover(cellAt(ev)); return; }
  if (st.drag.pan) {
    const [x, y] = screenXY(ev);
    pan(x - st.drag.x, y - st.drag.y);
    st.drag.x = x; st.drag.y = y;
    return;
  }
  const c = cellAt(ev);
  if (st.drag.paint !== undefined) { paint(line(st.drag.last, c).slice(1)); st.drag.last = c; return; }
  moveTo(st.drag.point, c);
});

// The agent's side in cells: it covers the k x k cells from its top-left
// cell, where it stands.
function agentSize() {
  return Number($("size").value);
}

// Whether the agent's block fits with its top-left cell at c: every cell
// of it on the map and free.
function fits(c) {
  const k = agentSize();
  if (c[0] + k > st.width || c[1] + k > st.height) return false;
  for (let y = c[1]; y < c[1] + k; y++) {
    for (let x = c[0]; x < c[0] + k; x++) if (st.walls[y * st.width + x]) return false;
  }
  return true;
}

// Moves a marker to cell c if the agent fits there and it is new.
function moveTo(point, c) {
  if (!fits(c)) return;
  if (point[0] === c[0] && point[1] === c[1]) return;
  point[0] = c[0]; point[1] = c[1];
  if (st.drag) st.drag.moved = true;
  st.cause = null;
  update();
}

view.addEventListener("pointerup", () => {
  const d = st.drag;
  st.drag = null;
  if (d && d.edits) st.strokes.push(d.edits);
  if (d && d.moved) update();
});

// Landmarks: one added on a free cell, one removed, or a number placed by a
// strategy on the server. The count box follows the landmarks.
function addLandmark(c) {
  if (!fits(c) || st.landmarks.length >= 32) return;
  if (st.landmarks.some((p) => p[0] === c[0] && p[1] === c[1])) return;
  st.landmarks.push(c.slice());
  st.selected = st.landmarks.length - 1;
  $("lm-count").value = st.landmarks.length;
  update();
}

function removeLandmark(l) {
  st.landmarks.splice(l, 1);
  st.selected = "from";
  $("lm-count").value = Math.max(1, st.landmarks.length);
  update();
}

async function placeLandmarks() {
  const res = await api("/api/landmarks", {
    map: st.map, count: Number($("lm-count").value), placement: $("lm-placement").value,
    neighborhood: Number($("neighborhood").value), size: agentSize(), walls: st.edits,
  });
  st.landmarks = res.landmarks;
  st.selected = "from";
  await update();
}

view.addEventListener("wheel", (ev) => {
  ev.preventDefault();
  const [x, y] = screenXY(ev);
  zoomAt(x, y, Math.exp(-ev.deltaY * 0.0015));
}, { passive: false });

// Keyboard: arrows move the selected marker (Shift: pan), +/- zoom, 0 fits,
// s/g/l select the start, the goal, the next landmark; space plays, "."
// and "," step, z undoes a wall edit.
view.addEventListener("keydown", (ev) => {
  const arrows = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  const k = ev.key;
  if (arrows[k]) {
    const [dx, dy] = arrows[k];
    if (ev.shiftKey) pan(-dx * 40, -dy * 40);
    else {
      const p = handle(st.selected);
      const c = [Math.min(st.width - 1, Math.max(0, p[0] + dx)), Math.min(st.height - 1, Math.max(0, p[1] + dy))];
      moveTo(p, c);
    }
  } else if (k === "+" || k === "=") zoomAt(view.width / 2, view.height / 2, 1.25);
  else if (k === "-" || k === "_") zoomAt(view.width / 2, view.height / 2, 0.8);
  else if (k === "0") { fit(); draw(); }
  else if (k === "s") st.selected = "from";
  else if (k === "g") st.selected = "to";
  else if (k === "l" && st.landmarks.length) {
    st.selected = typeof st.selected === "number" ? (st.selected + 1) % st.landmarks.length : 0;
    if (["help", "goals"].includes($("shade").value)) update();
  }
  else if (k === " ") togglePlay();
  else if (k === ".") stepBy(1);
  else if (k === ",") stepBy(-1);
  else if (k === "z") undoEdit();
  else return;
  ev.preventDefault();
  draw();
});
view.addEventListener("focus", () => draw());
view.addEventListener("blur", () => draw());
view.addEventListener("pointerleave", () => { $("hover").textContent = ""; if (st.hoverOwner !== null) { st.hoverOwner = null; draw(); } });

// The cells from p to q, both included, in steps of one cell (so a fast
// stroke leaves no gaps).
function line(p, q) {
  const n = Math.max(Math.abs(q[0] - p[0]), Math.abs(q[1] - p[1]));
  const out = [];
  for (let k = 0; k <= n; k++) {
    const t = n === 0 ? 0 : k / n;
    out.push([Math.round(p[0] + (q[0] - p[0]) * t), Math.round(p[1] + (q[1] - p[1]) * t)]);
  }
  return out;
}

// Paints (or erases) cells with the brush (a square of 1, 3 or 5 cells
// centred on each): every cell that changes becomes one edit, and the
// whole batch one request.
function paint(cells) {
  const v = st.drag.paint;
  const r = (Number($("brush").value) - 1) / 2;
  let changed = false;
  for (const [cx, cy] of cells) {
    for (let y = Math.max(0, cy - r); y <= Math.min(st.height - 1, cy + r); y++) {
      for (let x = Math.max(0, cx - r); x <= Math.min(st.width - 1, cx + r); x++) {
        const on = (p) => p[0] === x && p[1] === y;
        if (v === 1 && (on(st.from) || on(st.to) || st.landmarks.some(on))) continue;
        const i = y * st.width + x;
        if (st.walls[i] === v) continue;
        st.walls[i] = v;
        st.edits.push([x, y, v]);
        st.drag.edits++;
        changed = true;
      }
    }
  }
  if (changed) { st.drag.moved = true; st.cause = null; update(); }
}

// The walls from the map's own and the edits, in order.
function applyEdits() {
  st.walls = st.base.slice();
  for (const [x, y, v] of st.edits) st.walls[y * st.width + x] = v;
}

// Undoes the last stroke's edits.
function undoEdit() {
  const n = st.strokes.pop();
  if (!n) return;
  st.edits = st.edits.slice(0, st.edits.length - n);
  applyEdits();
  update();
}

function clearEdits() {
  if (!st.edits.length) return;
  st.edits = []; st.strokes = [];
  applyEdits();
  update();
}

// Playback: the searches' events (expanded cells and cells put on OPEN) in
// order, replayed a number of expansions per frame. state[s][cell] is 0
// (not reached), 1 (on OPEN) or 2 (expanded). The scrub slider and step
// back replay from the start to the step asked for.
const SPEEDS = [1, 4, 16, 64, 256, 1024, 4096];
// Timers rather than animation frames: frames do not come in a headless
// browser's virtual time, and 30 steps a second read well.
const FRAME_MS = 33;

async function startPlayback() {
  const res = await api("/api/search", { ...request(), trace: true, shade: null, owners: false });
  const decode = (o) => o && new Uint32Array(decodeBase64(o.trace).buffer);
  const traces = [decode(res.a), decode(res.b)].filter((t) => t);
  const totals = [res.a, res.b].filter((o) => o).map((o) => o.expanded);
  st.play = {
    traces, totals, total: Math.max(...totals), playing: false, done: false,
    state: traces.map(() => new Uint8Array(st.width * st.height)),
  };
  rewind(st.play);
  $("scrub").max = String(st.play.total);
  $("legend-frontier").hidden = false;
}

function rewind(p) {
  p.pos = p.traces.map(() => 0);
  p.expanded = p.traces.map(() => 0);
  p.step = 0;
  for (const s of p.state) s.fill(0);
}

// Advances (or, for an earlier step, replays from the start) every search
// to `step` expansions.
function advance(step) {
  const p = st.play;
  const to = Math.max(0, Math.min(step, p.total));
  if (to < p.step) rewind(p);
  p.step = to;
  p.traces.forEach((t, s) => {
    const state = p.state[s];
    while (p.pos[s] < t.length) {
      const word = t[p.pos[s]];
      const open = word >>> 31;
      if (!open && p.expanded[s] >= p.step) break;
      const n = word & 0x7fffffff;
      if (open) { if (state[n] !== 2) state[n] = 1; } else { state[n] = 2; p.expanded[s]++; }
      p.pos[s]++;
    }
  });
  p.done = p.traces.every((t, s) => p.pos[s] >= t.length);
  $("scrub").value = String(p.step);
  const side = (s) => "ABC"[s] + ": " + fmt(p.expanded[s]) + " of " + fmt(p.totals[s]) + " expanded"
    + (p.expanded[s] >= p.totals[s] ? " (done)" : "");
  $("step-info").textContent = "step " + fmt(p.step) + " of " + fmt(p.total) + "; " + p.traces.map((_, s) => side(s)).join("; ");
  draw();
}

function stopPlayback() {
  st.play = null;
  $("step-info").textContent = "";
  $("legend-frontier").hidden = true;
  $("play").textContent = "\u25B6 play";
}

async function stepBy(d) {
  if (!st.play) await startPlayback();
  st.play.playing = false;
  advance(st.play.step + d);
  $("play").textContent = "\u25B6 play";
}

function showSpeed() {
  $("speed-unit").textContent = SPEEDS[Number($("speed").value)] + " expansions a frame, 30 frames a second";
}

async function togglePlay() {
  if (!st.play || st.play.done) await startPlayback();
  const p = st.play;
  p.playing = !p.playing;
  $("play").textContent = p.playing ? "\u275A\u275A pause" : "\u25B6 play";
  const tick = () => {
    if (st.play !== p || !p.playing) return;
    advance(p.step + SPEEDS[Number($("speed").value)]);
    if (p.done) { p.playing = false; $("play").textContent = "\u25B6 play"; return; }
    setTimeout(tick, FRAME_MS);
  };
  setTimeout(tick, 0);
}

const failed = (e) => { st.error = e.message; showError(); };
$("play").addEventListener("click", () => togglePlay().catch(failed));
$("step").addEventListener("click", () => stepBy(1).catch(failed));
$("back").addEventListener("click", () => stepBy(-1).catch(failed));
$("scrub").addEventListener("input", () => {
  if (!st.play) return;
  st.play.playing = false;
  $("play").textContent = "\u25B6 play";
  advance(Number($("scrub").value));
});
$("speed").addEventListener("input", showSpeed);
$("reset").addEventListener("click", () => { stopPlayback(); draw(); });
$("zoom-in").addEventListener("click", () => zoomAt(view.width / 2, view.height / 2, 1.25));
$("zoom-out").addEventListener("click", () => zoomAt(view.width / 2, view.height / 2, 0.8));
$("zoom-fit").addEventListener("click", () => { fit(); draw(); });
$("repair").addEventListener("click", () => { st.tableEdits = st.edits.slice(); update(); });
$("undo").addEventListener("click", undoEdit);
$("clear-edits").addEventListener("click", clearEdits);
for (const id of ["search", "search-b", "heuristic", "compare", "open", "neighborhood", "shade", "directed"]) {
  $(id).addEventListener("change", () => { st.cause = id; update(); });
}
// Another agent size: the landmarks are placed again (as many, by the same
// strategy) on the cells the new agent fits, which places and searches.
$("size").addEventListener("change", () => {
  st.cause = "size";
  (st.landmarks.length > 0 ? placeLandmarks() : update()).catch(failed);
});
$("lm-place").addEventListener("click", () => { st.cause = "lm-place"; placeLandmarks().catch(failed); });
$("map").addEventListener("change", () => { st.cause = "map"; loadMap($("map").value, false).catch(failed); });
// A resize refits the map unless the user zoomed or panned: then the view
// keeps its zoom and the cell at the canvas's centre.
window.addEventListener("resize", () => {
  const fitted = st.zoom === st.fitZoom;
  const [z, ox, oy, w, h] = [st.zoom, st.ox, st.oy, view.width, view.height];
  fit();
  if (!fitted) { st.zoom = z; st.ox = ox + (view.width - w) / 2; st.oy = oy + (view.height - h) / 2; }
  draw();
});

(async () => {
  try {
    showSpeed();
    const m = await api("/api/maps");
    // The maps grouped by their set (the folder under --maps they came
    // from), the set as the menu's group label.
    const groups = new Map();
    m.maps.forEach((name, k) => {
      const set = (m.sets && m.sets[k]) || "";
      if (!groups.has(set)) groups.set(set, []);
      groups.get(set).push(name);
    });
    for (const [set, names] of groups) {
      const parent = set ? document.createElement("optgroup") : $("map");
      if (set) { parent.label = set; $("map").append(parent); }
      for (const name of names) {
        const short = set && name.startsWith(set + "/") ? name.slice(set.length + 1) : name;
        parent.append(new Option(short, name));
      }
    }
    for (const name of m.open_sets) $("open").add(new Option(name, name));
    for (const name of m.searches) { $("search").add(new Option(name, name)); $("search-b").add(new Option(name, name)); }
    for (const id of ["search", "heuristic", "compare", "open", "neighborhood", "size", "shade"]) if (params.has(id)) $(id).value = params.get(id);
    $("search-b").value = params.get("search-b") || $("search").value;
    $("directed").checked = params.get("directed") === "1";
    const name = params.get("map") || m.maps[0];
    $("map").value = name;
    await loadMap(name, true);
    if (params.get("selftest")) await selftest(params.get("selftest"));
  } catch (e) {
    $("error").textContent = e.message;
    $("status").textContent = "error";
  }
})();

// ?selftest=MODE drives the page through the same handlers a user reaches
// (pointer, wheel and key events on the canvas, changes of the menus) and
// writes what the page showed into #selftest, for tests that read the DOM:
// - drag (&drag_to=x,y[&drag_from=x,y][&paint=x0,y0,x1,y1]): drags the
//   start (or the marker at drag_from) to drag_to in about twelve moves,
//   waiting for each answer, then paints a wall stroke in one move;
// - zoom: two wheel notches in and a "+" key over the canvas;
// - pan: a shift-drag of 100 px right and 50 down, then shift+left arrow;
// - play: plays the search at full speed to its end;
// - search (&to_search=NAME): chooses a search in the menu;
// - size (&to_size=K): chooses the agent's size in the menu;
// - keys: moves the start two cells right with the arrow key;
// - landmark-add (&at=x,y): clicks a cell with the "add landmark" tool;
// - landmark-remove (&index=k): clicks landmark k with the "remove landmark" tool;
// - place (&count=k&placement=NAME): places k landmarks with the strategy;
// - directed: ticks "directed table";
// - shade (&to_shade=heat|help): chooses a shading, with its colour bar;
// - stale (&erase=x0,y0,x1,y1): erases walls along a stroke, leaving the
//   landmark table stale;
// - pixels: counts the canvas's pixels of each region colour and says
//   where the strip (the ratio and the legend) is;
// - refuse (&side=a|b&to_search=NAME): chooses a search for A or B, and
//   counts the region colours before and after;
// - hover (&at=x,y): moves the pointer over a cell without a button;
// - undo (&paint=x0,y0,x1,y1&brush=N): paints a stroke with the brush,
//   undoes it, paints it again and clears the edits.
async function selftest(mode) {
  const report = {};
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const settle = async () => { while (st.inFlight || st.pending) await sleep(2); };
  const firePx = (type, sx, sy, extra) => {
    const r = view.getBoundingClientRect();
    view.dispatchEvent(new PointerEvent(type, {
      bubbles: true, cancelable: true, pointerId: 1, pointerType: "mouse", isPrimary: true,
      button: 0, buttons: type === "pointerup" ? 0 : 1, clientX: r.left + sx, clientY: r.top + sy, ...extra,
    }));
  };
  const fire = (type, [x, y]) => firePx(type, st.ox + (x + 0.5) * st.zoom, st.oy + (y + 0.5) * st.zoom);
  const key = (k, shiftKey) => view.dispatchEvent(new KeyboardEvent("keydown", { key: k, shiftKey, bubbles: true, cancelable: true }));
  const shown = () => ({
    a: $("count-a").textContent, b: $("count-b").textContent,
    length: $("path-length").textContent, error: $("error").textContent, ratio: $("ratio").textContent,
  });
  const viewState = () => ({ zoom: st.zoom, fit: st.fitZoom, ox: st.ox, oy: st.oy });
  const latencies = [], server = [], drawing = [], fetches = [];
  // Pixels of each region colour on the canvas, and of the path's.
  const pixels = () => {
    const d = ctx.getImageData(0, 0, view.width, view.height).data;
    const n = { a: 0, b: 0, both: 0, path: 0 };
    const want = { a: [245, 176, 65], b: [93, 173, 226], both: [125, 91, 166], path: [255, 212, 0] };
    for (let i = 0; i < d.length; i += 4) {
      for (const k in want) if (d[i] === want[k][0] && d[i + 1] === want[k][1] && d[i + 2] === want[k][2]) n[k]++;
    }
    return n;
  };
  const rect = (id) => { const r = $(id).getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  if (mode === "drag") {
    const to = parsePoint(params.get("drag_to"));
    if (to) {
      $("tool").value = "drag";
      const cells = line(parsePoint(params.get("drag_from")) || st.from, to);
      const stride = Math.max(1, Math.ceil(cells.length / 12));
      const moves = cells.filter((_, k) => k > 0 && (k % stride === 0 || k === cells.length - 1));
      fire("pointerdown", cells[0]);
      await settle();
      const r0 = st.requests;
      for (const c of moves) {
        const t0 = performance.now(), sent = st.requests;
        fire("pointermove", c);
        await settle();
        // Until the answer was drawn (not until this loop saw it: it polls).
        latencies.push((st.requests > sent ? st.shownAt : performance.now()) - t0);
        if (st.result) server.push(st.result.total_millis);
        drawing.push(st.showMillis);
        fetches.push(st.fetchMillis);
      }
      // Requests sent per move, the shading's included.
      report.requests = (st.requests - r0) / moves.length;
      fire("pointerup", to);
      await settle();
      report.drag = { from: st.from.slice(), landmarks: st.landmarks.map((p) => p.slice()), ...shown() };
    }
    const stroke = params.get("paint") && params.get("paint").split(",").map(Number);
    if (stroke && stroke.length === 4) {
      $("tool").value = "wall";
      const before = st.edits.length;
      fire("pointerdown", [stroke[0], stroke[1]]);
      fire("pointermove", [stroke[2], stroke[3]]);
      fire("pointerup", [stroke[2], stroke[3]]);
      await settle();
      report.paint = { edits: st.edits.slice(before), ...shown() };
      $("tool").value = "drag";
    }
  } else if (mode === "zoom") {
    report.before = viewState();
    const [cx, cy] = [st.ox + (st.to[0] + 0.5) * st.zoom, st.oy + (st.to[1] + 0.5) * st.zoom];
    const r = view.getBoundingClientRect();
    for (let k = 0; k < 2; k++) {
      view.dispatchEvent(new WheelEvent("wheel", { deltaY: -300, clientX: r.left + cx, clientY: r.top + cy, bubbles: true, cancelable: true }));
    }
    report.wheel = viewState();
    // The cell under the pointer stays under it.
    report.under = [Math.floor((cx - st.ox) / st.zoom), Math.floor((cy - st.oy) / st.zoom)];
    view.focus();
    key("+");
    report.after = viewState();
  } else if (mode === "pan") {
    report.before = viewState();
    firePx("pointerdown", 200, 200, { shiftKey: true });
    firePx("pointermove", 250, 225, { shiftKey: true });
    firePx("pointermove", 300, 250, { shiftKey: true });
    firePx("pointerup", 300, 250, { shiftKey: true });
    report.dragged = viewState();
    view.focus();
    key("ArrowLeft", true);
    report.after = viewState();
    report.from = st.from.slice();
  } else if (mode === "play") {
    $("speed").value = "6";
    $("speed").dispatchEvent(new Event("input"));
    await togglePlay();
    while (st.play && !st.play.done) await sleep(10);
    report.play = { step: st.play.step, total: st.play.total, expanded: st.play.expanded.slice(), done: st.play.done,
      info: $("step-info").textContent, ...shown() };
    $("back").click();
    await sleep(20);
    report.back = { step: st.play.step, expanded: st.play.expanded.slice() };
    $("scrub").value = "0";
    $("scrub").dispatchEvent(new Event("input"));
    report.scrubbed = { step: st.play.step, expanded: st.play.expanded.slice() };
  } else if (mode === "search") {
    $("search").value = params.get("to_search") || "jps";
    $("search").dispatchEvent(new Event("change"));
    await settle();
    report.search = { url: location.search, ...shown() };
  } else if (mode === "size") {
    const before = st.landmarks;
    $("size").value = params.get("to_size") || "2";
    $("size").dispatchEvent(new Event("change"));
    // The landmarks are placed again for the agent first, then searched.
    while (before.length > 0 && st.landmarks === before && !$("error").textContent) await sleep(5);
    await settle();
    report.size = { url: location.search, fits: [fits(st.from), fits(st.to)], landmarks_fit: st.landmarks.every(fits), ...shown() };
  } else if (mode === "landmark-add" || mode === "landmark-remove") {
    const before = st.landmarks.map((p) => p.slice());
    const at = mode === "landmark-add" ? parsePoint(params.get("at")) : st.landmarks[Number(params.get("index") || 0)].slice();
    $("tool").value = mode === "landmark-add" ? "add-landmark" : "remove-landmark";
    fire("pointerdown", at);
    fire("pointerup", at);
    await settle();
    $("tool").value = "drag";
    report.landmarks = { before, after: st.landmarks, count: $("lm-count").value, url: location.search, ...shown() };
  } else if (mode === "place") {
    const before = st.landmarks;
    $("lm-count").value = params.get("count") || "4";
    $("lm-placement").value = params.get("placement") || "sampled";
    $("lm-place").click();
    while (st.landmarks === before && !$("error").textContent) await sleep(5);
    await settle();
    report.place = { landmarks: st.landmarks, url: location.search, ...shown() };
  } else if (mode === "directed") {
    $("directed").checked = true;
    $("directed").dispatchEvent(new Event("change"));
    await settle();
    report.directed = { url: location.search, table: $("table-time").textContent, ...shown() };
  } else if (mode === "shade") {
    $("shade").value = params.get("to_shade") || "heat";
    $("shade").dispatchEvent(new Event("change"));
    await settle();
    const bar = $("colorbar").getContext("2d");
    report.shade = {
      shown: !$("shade-key").hidden, title: $("shade-title").textContent, lo: $("bar-lo").textContent,
      hi: $("bar-hi").textContent, info: $("heat-info").textContent,
      ends: [Array.from(bar.getImageData(0, 7, 1, 1).data), Array.from(bar.getImageData($("colorbar").width - 1, 7, 1, 1).data)],
      ...shown(),
    };
  } else if (mode === "stale") {
    const e = params.get("erase").split(",").map(Number);
    $("tool").value = "erase";
    fire("pointerdown", [e[0], e[1]]);
    fire("pointermove", [e[2], e[3]]);
    fire("pointerup", [e[2], e[3]]);
    await settle();
    $("tool").value = "drag";
    const r = st.result;
    report.stale = {
      edits: st.edits, stale: $("stale").textContent, note: $("stale-note").textContent,
      shortest: r && r.shortest ? r.shortest.cost : null, costs: [r.a.cost, r.b ? r.b.cost : null],
      dashed: (st.stalePaths || []).length, ...shown(),
    };
  } else if (mode === "pixels") {
    await settle();
    report.pixels = {
      ...shown(), ratio_text: $("ratio").textContent,
      inner: [window.innerWidth, window.innerHeight], zoom: st.zoom, fit: st.fitZoom,
      expanded: [st.result.a.expanded, st.result.b ? st.result.b.expanded : 0],
      counts: pixels(), ratio: rect("ratio"), legend: rect("legend"), canvas: rect("view"),
    };
  } else if (mode === "refuse") {
    const id = params.get("side") === "a" ? "search" : "search-b";
    const before = pixels();
    $(id).value = params.get("to_search") || "theta";
    $(id).dispatchEvent(new Event("change"));
    await settle();
    const refusal = $("refusal");
    report.refuse = {
      before, after: pixels(), shown_result: st.result !== null,
      beside: !!refusal && refusal.previousElementSibling.contains($(id)),
      refusal: refusal ? refusal.textContent : "", refusal_rect: refusal ? rect("refusal") : null,
      inner: [window.innerWidth, window.innerHeight], ...shown(),
    };
  } else if (mode === "hover") {
    const c = parsePoint(params.get("at"));
    firePx("pointermove", st.ox + (c[0] + 0.5) * st.zoom, st.oy + (c[1] + 0.5) * st.zoom, { buttons: 0 });
    report.hover = { text: $("hover").textContent, owner: st.hoverOwner, note: $("owners-note").textContent, ...shown() };
  } else if (mode === "undo") {
    const s = params.get("paint").split(",").map(Number);
    $("brush").value = params.get("brush") || "3";
    $("tool").value = "wall";
    const stroke = async () => {
      fire("pointerdown", [s[0], s[1]]);
      fire("pointermove", [s[2], s[3]]);
      fire("pointerup", [s[2], s[3]]);
      await settle();
      return { edits: st.edits.length, ...shown() };
    };
    const first = await stroke();
    $("undo").click(); await settle();
    const undone = { edits: st.edits.length, ...shown() };
    const again = await stroke();
    await stroke();
    $("clear-edits").click(); await settle();
    report.undo = { first, undone, again, cleared: { edits: st.edits.length, ...shown() } };
    $("tool").value = "drag";
  } else if (mode === "keys") {
    view.focus();
    key("s");
    const before = st.from.slice();
    key("ArrowRight"); await settle();
    key("ArrowRight"); await settle();
    report.keys = { before, after: st.from.slice(), url: location.search, ...shown() };
  }
  latencies.sort((x, y) => x - y);
  server.sort((x, y) => x - y);
  report.latency = {
    median: latencies[latencies.length >> 1] || 0, max: latencies[latencies.length - 1] || 0, n: latencies.length,
    // The server's own time for the request (total_millis), median.
    server: server[server.length >> 1] || 0,
    // The page's own time to show an answer (decoding and drawing), median.
    drawing: drawing.sort((x, y) => x - y)[drawing.length >> 1] || 0,
    // From sending the request to having its answer parsed, median.
    fetch: fetches.sort((x, y) => x - y)[fetches.length >> 1] || 0,
  };
  $("selftest").textContent = JSON.stringify(report);
}
