// cairns visualizer: drag the start (circle), the goal (crossed square) and
// the landmarks (triangles), paint walls, compare two heuristics, zoom, pan
// and play a search step by step. Plain JavaScript, no build step.
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
  edits: [], tableEdits: [],
  result: null, heat: null, help: null,
  inFlight: false, pending: false, drag: null,
  play: null,
};

function decodeBase64(s) {
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
  st.edits = []; st.tableEdits = [];
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
  const h = Math.max(240, window.innerHeight - top - 14);
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

function selectedSearch() { return $("search").value || "astar"; }

function request() {
  const search = selectedSearch();
  const informed = !["dijkstra", "bfs"].includes(search);
  return {
    map: st.map, from: st.from, to: st.to, search,
    heuristic: informed ? $("heuristic").value : "zero",
    compare: informed ? ($("compare").value || null) : null,
    landmarks: st.landmarks, neighborhood: Number($("neighborhood").value),
    open: $("open").value || null, walls: st.edits, table_walls: st.tableEdits,
    directed: $("directed").checked,
    // While a marker is dragged or walls painted: one cold run per search,
    // for a sooner answer; the release asks again with warm runs.
    warm: !st.drag,
  };
}

// Writes what is shown into the address bar, so that a view can be shared.
function writeUrl() {
  const q = new URLSearchParams();
  q.set("map", st.map);
  q.set("search", selectedSearch());
  q.set("from", st.from.join(","));
  q.set("to", st.to.join(","));
  q.set("heuristic", $("heuristic").value);
  q.set("compare", $("compare").value);
  if ($("open").value) q.set("open", $("open").value);
  if ($("neighborhood").value !== "8") q.set("neighborhood", $("neighborhood").value);
  if ($("directed").checked) q.set("directed", "1");
  if ($("shade").value) q.set("shade", $("shade").value);
  q.set("landmarks", st.landmarks.map((p) => p.join(",")).join(";"));
  history.replaceState(null, "", "?" + q.toString().replace(/%2C/g, ",").replace(/%3B/g, ";"));
}

// The one code path for every change: drags, edits, menus and URL parameters.
async function update() {
  if (st.inFlight) { st.pending = true; return; }
  st.inFlight = true;
  try {
    do {
      st.pending = false;
      st.play = null;
      const t0 = performance.now();
      try {
        const req = request();
        st.result = await api("/api/search", req);
        const shade = $("shade").value;
        const common = { map: req.map, to: req.to, landmarks: req.landmarks, neighborhood: req.neighborhood,
          walls: req.walls, table_walls: req.table_walls, directed: req.directed };
        st.heat = shade === "heat" ? await api("/api/heat", { ...common, from: req.from, heuristic: req.heuristic }) : null;
        st.help = shade === "help" && st.landmarks.length
          ? await api("/api/landmark-help", { ...common, landmark: helpLandmark() }) : null;
        $("error").textContent = "";
        writeUrl();
      } catch (e) {
        $("error").textContent = e.message;
      }
      $("latency").textContent = (performance.now() - t0).toFixed(1);
      show();
    } while (st.pending);
  } finally {
    st.inFlight = false;
  }
  $("status").textContent = "ready";
}

function fmt(n) { return n.toLocaleString("en-US"); }

// "B (dh) expands 2.6x fewer cells than A (octile)".
function ratioText(r) {
  if (!r.b) return "A (" + r.a.heuristic + ") expands " + fmt(r.a.expanded) + " cells";
  const a = r.a.expanded, b = r.b.expanded;
  const name = (k, o) => k + " (" + o.heuristic + ")";
  if (a === b) return name("B", r.b) + " and " + name("A", r.a) + " expand as many cells: " + fmt(a);
  const fewer = b < a;
  const x = fewer ? a / Math.max(1, b) : b / Math.max(1, a);
  return name("B", r.b) + " expands " + x.toFixed(1) + "x " + (fewer ? "fewer" : "more") + " cells than " + name("A", r.a);
}

function show() {
  const r = st.result;
  if (r) {
    for (const [k, o] of [["a", r.a], ["b", r.b]]) {
      $("name-" + k).textContent = o ? o.heuristic : "";
      $("count-" + k).textContent = o ? fmt(o.expanded) : "-";
      $("time-" + k).textContent = o ? o.millis.toFixed(2) : "-";
      $("cost-" + k).textContent = o && o.cost !== null ? o.cost.toFixed(4) : "-";
    }
    $("ratio").textContent = ratioText(r);
    const runs = (o) => o.runs + (o.runs === 1 ? " run" : " runs");
    $("timing-note").textContent = r.a.warm === false
      ? "times on the server: one cold run per search (while dragging; warm runs on release)"
      : "times on the server: median of " + runs(r.a) + (r.b ? " (A), " + runs(r.b) + " (B)" : "")
        + " after one warm-up; at most 5 ms of timed runs per search";
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
  }
  $("legend-jump").hidden = selectedSearch() !== "jps";
  $("heat-info").textContent = st.heat
    ? "heat: mean h/d " + st.heat.mean.toFixed(3) + ", overestimates " + st.heat.over
    : st.help ? "landmark " + (helpLandmark() + 1) + " raises the estimate on " + fmt(st.help.helped) + " of "
      + fmt(st.help.cells) + " cells, by up to " + st.help.max.toFixed(2) : "";
  st.shade = shading();
  showStale(r);
  drawColorBar();
  draw();
}

// The landmark whose help is shaded: the selected one, else the first.
function helpLandmark() {
  return typeof st.selected === "number" && st.selected < st.landmarks.length ? st.selected : 0;
}

// The shading over the map, as one value in [0, 1] per cell (-1: none,
// 2: an overestimate), with what the colour bar says. The heat map's scale
// is stretched from the smallest h/d shown to the largest, so that the
// differences between good heuristics are not all one colour.
function shading() {
  if (st.heat) {
    const bytes = decodeBase64(st.heat.ratio);
    let lo = 255, hi = 0;
    for (const b of bytes) if (b <= 200) { lo = Math.min(lo, b); hi = Math.max(hi, b); }
    if (lo > hi) { lo = 0; hi = 200; }
    const span = Math.max(1, hi - lo);
    const t = new Float32Array(bytes.length);
    bytes.forEach((b, i) => { t[i] = b === 255 ? -1 : b === 254 ? 2 : (b - lo) / span; });
    return { t, title: "h/d of A's heuristic (stretched: " + (lo / 200).toFixed(2) + " to " + (hi / 200).toFixed(2) + ")",
      lo: (lo / 200).toFixed(2), hi: (hi / 200).toFixed(2) };
  }
  if (st.help) {
    const bytes = decodeBase64(st.help.gain);
    const t = new Float32Array(bytes.length);
    bytes.forEach((b, i) => { t[i] = b === 255 ? -1 : b / 254; });
    return { t, title: "how much landmark " + (helpLandmark() + 1) + " raises the estimate above octile",
      lo: "0", hi: st.help.max.toFixed(2) };
  }
  return null;
}

// A sequential ramp (viridis' stops): dark blue for low, yellow for high,
// ordered in lightness so that it reads in grey too.
const RAMP = [[68, 1, 84], [59, 82, 139], [33, 145, 140], [94, 201, 98], [253, 231, 37]];
function ramp(t) {
  const x = Math.min(1, Math.max(0, t)) * (RAMP.length - 1);
  const k = Math.min(RAMP.length - 2, Math.floor(x)), f = x - k;
  return RAMP[k].map((c, j) => Math.round(c + (RAMP[k + 1][j] - c) * f));
}

function drawColorBar() {
  const sh = st.shade;
  $("shade-key").hidden = !sh;
  if (!sh) return;
  const bar = $("colorbar"), bc = bar.getContext("2d");
  for (let x = 0; x < bar.width; x++) {
    const [r, g, b] = ramp(x / (bar.width - 1));
    bc.fillStyle = "rgb(" + r + "," + g + "," + b + ")";
    bc.fillRect(x, 0, 1, bar.height);
  }
  $("shade-title").textContent = sh.title + "; explored cells keep their region's colour on their edge";
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
// kinds of colour blindness, and differ in lightness too.
const rgb = (r, g, b) => (255 << 24 | b << 16 | g << 8 | r) >>> 0;
const COLOR = {
  wall: rgb(48, 48, 56), free: rgb(255, 255, 255), over: rgb(255, 0, 255),
  edited: rgb(140, 70, 20), erased: rgb(255, 240, 190), unreachable: rgb(190, 190, 190),
  a: rgb(245, 176, 65), b: rgb(93, 173, 226), both: rgb(125, 91, 166),
  frontier: rgb(0, 158, 115),
};
const CSS = {
  a: "rgb(245,176,65)", b: "rgb(93,173,226)", both: "rgb(125,91,166)",
  path: "rgb(255,212,0)", stale: "rgb(204,121,167)", start: "rgb(0,158,115)", goal: "rgb(213,94,0)", landmark: "rgb(240,228,66)",
};

const bit = (bits, i) => bits && (bits[i >> 3] >> (i & 7)) & 1;

// Whether cell i, explored, has a 4-neighbour that is not (by the same
// searches), or lies on the map's border.
function edge(bits, play, i, w, h) {
  const seen = (j) => play
    ? play.state[0][j] === 2 || (play.state[1] && play.state[1][j] === 2)
    : bit(bits.a, j) || bit(bits.b, j);
  const x = i % w, y = (i - x) / w;
  if (x === 0 || y === 0 || x === w - 1 || y === h - 1) return true;
  return !seen(i - 1) || !seen(i + 1) || !seen(i - w) || !seen(i + w);
}

function draw() {
  if (!st.image) return;
  const w = st.width, h = st.height;
  const px = new Uint32Array(st.image.data.buffer);
  const bits = st.bits || {};
  const play = st.play;
  const shade = st.shade && st.shade.t;
  const jps = selectedSearch() === "jps";
  for (let i = 0; i < w * h; i++) {
    let c;
    if (st.walls[i]) c = st.base[i] ? COLOR.wall : COLOR.edited;
    else {
      c = st.base[i] ? COLOR.erased : COLOR.free;
      if (bit(bits.unreachable, i)) c = COLOR.unreachable;
      const t = shade ? shade[i] : -1;
      if (t === 2) c = COLOR.over;
      else if (t >= 0) { const [r, g, b] = ramp(t); c = rgb(r, g, b); }
      let a, b;
      if (play) {
        a = play.state[0][i] === 2; b = play.state[1] && play.state[1][i] === 2;
        if (!a && !b && (play.state[0][i] === 1 || (play.state[1] && play.state[1][i] === 1))) c = COLOR.frontier;
      } else if (!jps) {
        a = bit(bits.a, i); b = bit(bits.b, i);
      }
      // Under shading, an explored cell keeps its region's colour only on
      // the region's edge: the shading shows through, the area stays seen.
      if ((a || b) && shade && t >= 0 && !edge(bits, play, i, w, h)) { a = false; b = false; }
      if (a && b) c = COLOR.both; else if (a) c = COLOR.a; else if (b) c = COLOR.b;
    }
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
  // JPS expands only its jump points: dots, coloured by which search took them.
  if (jps && !play && st.result) {
    const r = Math.max(2.5, z * 0.35);
    for (let i = 0; i < w * h; i++) {
      const a = bit(bits.a, i), b = bit(bits.b, i);
      if (!a && !b) continue;
      const [x, y] = centre(i);
      ctx.beginPath(); ctx.arc(x, y, r, 0, 2 * Math.PI);
      ctx.fillStyle = a && b ? CSS.both : a ? CSS.a : CSS.b;
      ctx.fill(); ctx.lineWidth = 1; ctx.strokeStyle = "#111"; ctx.stroke();
    }
  }
  // The path: a yellow line with a dark outline, visible over every region
  // whatever the zoom. With a stale table, the shortest path is the yellow
  // one and a longer path found with the table is dashed over it.
  const trace = (path) => {
    ctx.beginPath();
    path.forEach((n, k) => { const [x, y] = centre(n); if (k) ctx.lineTo(x, y); else ctx.moveTo(x, y); });
    ctx.lineJoin = "round"; ctx.lineCap = "round";
  };
  if (st.result && (!play || play.done)) {
    const shortest = st.stalePaths && st.stalePaths.length ? st.result.shortest.path : st.result.a.path;
    if (shortest.length > 1) {
      trace(shortest);
      ctx.strokeStyle = "#111"; ctx.lineWidth = Math.max(4, z * 0.5) + 3; ctx.stroke();
      ctx.strokeStyle = CSS.path; ctx.lineWidth = Math.max(4, z * 0.5); ctx.stroke();
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
  for (const l of st.landmarks) {
    const [x, y] = at(l);
    ctx.beginPath(); ctx.moveTo(x, y - r); ctx.lineTo(x + r, y + r * 0.75); ctx.lineTo(x - r, y + r * 0.75); ctx.closePath();
    ctx.fillStyle = CSS.landmark; ctx.fill(); outline();
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
    st.drag = { paint: tool === "wall" ? 1 : 0, last: c };
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
    if (changed && typeof h === "number" && $("shade").value === "help") update();
  }
});

// Keeps the drag's moves coming when the pointer leaves the canvas. A
// pointer the browser does not know (a script's event) cannot be captured.
function capture(ev) {
  try { view.setPointerCapture(ev.pointerId); } catch (_) { /* no such pointer */ }
}

view.addEventListener("pointermove", (ev) => {
  if (!st.drag) return;
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

// Moves a marker to cell c if it is free and new.
function moveTo(point, c) {
  if (st.walls[c[1] * st.width + c[0]]) return;
  if (point[0] === c[0] && point[1] === c[1]) return;
  point[0] = c[0]; point[1] = c[1];
  if (st.drag) st.drag.moved = true;
  update();
}

view.addEventListener("pointerup", () => {
  const moved = st.drag && st.drag.moved;
  st.drag = null;
  if (moved) update();
});

// Landmarks: one added on a free cell, one removed, or a number placed by a
// strategy on the server. The count box follows the landmarks.
function addLandmark(c) {
  if (st.walls[c[1] * st.width + c[0]] || st.landmarks.length >= 32) return;
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
    neighborhood: Number($("neighborhood").value), walls: st.edits,
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
// s/g/l select the start, the goal, the next landmark; space plays.
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
    if ($("shade").value === "help") update();
  }
  else if (k === " ") togglePlay();
  else if (k === ".") stepOnce();
  else return;
  ev.preventDefault();
  draw();
});
view.addEventListener("focus", () => draw());
view.addEventListener("blur", () => draw());

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

// Paints (or erases) cells: every cell that changes becomes one edit, and
// the whole batch one request.
function paint(cells) {
  const v = st.drag.paint;
  let changed = false;
  for (const [x, y] of cells) {
    const on = (p) => p[0] === x && p[1] === y;
    if (v === 1 && (on(st.from) || on(st.to) || st.landmarks.some(on))) continue;
    const i = y * st.width + x;
    if (st.walls[i] === v) continue;
    st.walls[i] = v;
    st.edits.push([x, y, v]);
    changed = true;
  }
  if (changed) { st.drag.moved = true; update(); }
}

// Playback: the searches' events (expanded cells and cells put on OPEN) in
// order, replayed a number of expansions per frame. state[s][cell] is 0
// (not reached), 1 (on OPEN) or 2 (expanded).
const SPEEDS = [1, 4, 16, 64, 256, 1024, 4096];
// Timers rather than animation frames: frames do not come in a headless
// browser's virtual time, and 30 steps a second read well.
const FRAME_MS = 33;

async function startPlayback() {
  const res = await api("/api/search", { ...request(), trace: true });
  const decode = (o) => o && new Uint32Array(decodeBase64(o.trace).buffer);
  const traces = [decode(res.a), decode(res.b)].filter((t) => t);
  st.play = {
    traces, pos: traces.map(() => 0), expanded: traces.map(() => 0), step: 0,
    state: traces.map(() => new Uint8Array(st.width * st.height)),
    total: Math.max(...[res.a, res.b].filter((o) => o).map((o) => o.expanded)),
    playing: false, done: false,
  };
  $("legend-frontier").hidden = false;
}

// Advances every search to `step` expansions.
function advance(step) {
  const p = st.play;
  p.step = Math.min(step, p.total);
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
  $("step-info").textContent = "step " + fmt(p.step) + " of " + fmt(p.total) + (p.done ? " (done)" : "");
  draw();
}

async function stepOnce() {
  if (!st.play) await startPlayback();
  st.play.playing = false;
  advance(st.play.step + 1);
  $("play").textContent = "\u25B6 play";
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

$("play").addEventListener("click", () => togglePlay().catch((e) => { $("error").textContent = e.message; }));
$("step").addEventListener("click", () => stepOnce().catch((e) => { $("error").textContent = e.message; }));
$("reset").addEventListener("click", () => { st.play = null; $("step-info").textContent = ""; $("legend-frontier").hidden = true; draw(); });
$("zoom-in").addEventListener("click", () => zoomAt(view.width / 2, view.height / 2, 1.25));
$("zoom-out").addEventListener("click", () => zoomAt(view.width / 2, view.height / 2, 0.8));
$("zoom-fit").addEventListener("click", () => { fit(); draw(); });
$("repair").addEventListener("click", () => { st.tableEdits = st.edits.slice(); update(); });
for (const id of ["search", "heuristic", "compare", "open", "neighborhood", "shade", "directed"]) $(id).addEventListener("change", () => update());
$("lm-place").addEventListener("click", () => placeLandmarks().catch((e) => { $("error").textContent = e.message; }));
$("map").addEventListener("change", () => loadMap($("map").value, false).catch((e) => { $("error").textContent = e.message; }));
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
    const m = await api("/api/maps");
    for (const name of m.maps) $("map").add(new Option(name, name));
    for (const name of m.open_sets) $("open").add(new Option(name, name));
    for (const name of m.searches) $("search").add(new Option(name, name));
    for (const id of ["search", "heuristic", "compare", "open", "neighborhood", "shade"]) if (params.has(id)) $(id).value = params.get(id);
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
// - keys: moves the start two cells right with the arrow key;
// - landmark-add (&at=x,y): clicks a cell with the "add landmark" tool;
// - landmark-remove (&index=k): clicks landmark k with the "remove landmark" tool;
// - place (&count=k&placement=NAME): places k landmarks with the strategy;
// - directed: ticks "directed table";
// - shade (&to_shade=heat|help): chooses a shading, with its colour bar;
// - stale (&erase=x0,y0,x1,y1): erases walls along a stroke, leaving the
//   landmark table stale.
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
  const latencies = [];
  if (mode === "drag") {
    const to = parsePoint(params.get("drag_to"));
    if (to) {
      $("tool").value = "drag";
      const cells = line(parsePoint(params.get("drag_from")) || st.from, to);
      const stride = Math.max(1, Math.ceil(cells.length / 12));
      const moves = cells.filter((_, k) => k > 0 && (k % stride === 0 || k === cells.length - 1));
      fire("pointerdown", cells[0]);
      for (const c of moves) {
        const t0 = performance.now();
        fire("pointermove", c);
        await settle();
        latencies.push(performance.now() - t0);
      }
      fire("pointerup", to);
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
    await togglePlay();
    while (st.play && !st.play.done) await sleep(10);
    report.play = { step: st.play.step, total: st.play.total, expanded: st.play.expanded, done: st.play.done, ...shown() };
  } else if (mode === "search") {
    $("search").value = params.get("to_search") || "jps";
    $("search").dispatchEvent(new Event("change"));
    await settle();
    report.search = { url: location.search, ...shown() };
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
  } else if (mode === "keys") {
    view.focus();
    key("s");
    const before = st.from.slice();
    key("ArrowRight"); await settle();
    key("ArrowRight"); await settle();
    report.keys = { before, after: st.from.slice(), url: location.search, ...shown() };
  }
  latencies.sort((x, y) => x - y);
  report.latency = { median: latencies[latencies.length >> 1] || 0, max: latencies[latencies.length - 1] || 0, n: latencies.length };
  $("selftest").textContent = JSON.stringify(report);
}
