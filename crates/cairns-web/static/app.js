// cairns visualizer: drag start (red), goal (purple) and landmarks (green),
// paint walls, compare two heuristics. Plain JavaScript, no build step.
"use strict";

const $ = (id) => document.getElementById(id);
const view = $("view");
const ctx = view.getContext("2d");
const params = new URLSearchParams(location.search);

const st = {
  // walls: the map's walls with the edits applied, one byte per cell.
  map: null, width: 0, height: 0, walls: null, scale: 1,
  from: null, to: null, landmarks: [],
  edits: [], tableEdits: [],
  result: null, heat: null,
  inFlight: false, pending: false, drag: null,
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

async function api(path, body) {
  const opts = body === undefined ? {} : {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body),
  };
  const r = await fetch(path, opts);
  const data = await r.json();
  if (!r.ok) throw new Error(data.error || r.statusText);
  return data;
}

function firstFree(fromEnd) {
  const n = st.width * st.height;
  for (let k = 0; k < n; k++) {
    const i = fromEnd ? n - 1 - k : k;
    if (!st.walls[i]) return [i % st.width, Math.floor(i / st.width)];
  }
  return [0, 0];
}

async function loadMap(name) {
  const m = await api("/api/map?name=" + encodeURIComponent(name));
  st.map = m.name; st.width = m.width; st.height = m.height;
  st.walls = new Uint8Array(m.width * m.height);
  m.rows.forEach((row, y) => {
    for (let x = 0; x < row.length; x++) st.walls[y * m.width + x] = ".GS".includes(row[x]) ? 0 : 1;
  });
  st.landmarks = m.landmarks;
  st.image = ctx.createImageData(m.width, m.height);
  st.offscreen = new OffscreenCanvas(m.width, m.height);
  st.edits = []; st.tableEdits = [];
  st.from = parsePoint(params.get("from")) || firstFree(false);
  st.to = parsePoint(params.get("to")) || firstFree(true);
  const side = Math.max(m.width, m.height);
  st.scale = Math.max(1, Math.floor(768 / side));
  view.width = m.width * st.scale; view.height = m.height * st.scale;
  st.result = null; st.heat = null;
  await update();
}

function request() {
  return {
    map: st.map, from: st.from, to: st.to,
    heuristic: $("heuristic").value, compare: $("compare").value || null,
    landmarks: st.landmarks, neighborhood: Number($("neighborhood").value),
    open: $("open").value || null, walls: st.edits, table_walls: st.tableEdits,
  };
}

// The one code path for every change: drags, edits, menus and URL parameters.
async function update() {
  if (st.inFlight) { st.pending = true; return; }
  st.inFlight = true;
  try {
    do {
      st.pending = false;
      const t0 = performance.now();
      try {
        const req = request();
        st.result = await api("/api/search", req);
        st.heat = $("heat").checked
          ? await api("/api/heat", { map: req.map, to: req.to, heuristic: req.heuristic, landmarks: req.landmarks,
              neighborhood: req.neighborhood, walls: req.walls, table_walls: req.table_walls })
          : null;
        $("error").textContent = "";
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

function show() {
  const r = st.result;
  if (r) {
    for (const [k, o] of [["a", r.a], ["b", r.b]]) {
      $("name-" + k).textContent = o ? o.heuristic : "";
      $("count-" + k).textContent = o ? fmt(o.expanded) : "-";
      $("time-" + k).textContent = o ? o.millis.toFixed(2) : "-";
      $("cost-" + k).textContent = o && o.cost !== null ? o.cost.toFixed(4) : "-";
    }
    $("path-length").textContent = r.a.cost === null ? "none" : r.a.cost.toFixed(4);
    $("path-steps").textContent = r.a.cost === null ? "-" : String(r.a.path.length - 1);
    $("stale").textContent = r.stale ? "STALE (walls changed: repair)" : "fresh";
    $("stale").className = r.stale ? "stale" : "";
    $("table-time").textContent = r.table_millis ? "built in " + r.table_millis.toFixed(1) + " ms" : "";
  }
  $("heat-info").textContent = st.heat
    ? "heat: mean h/d " + st.heat.mean.toFixed(3) + ", overestimates " + st.heat.over : "";
  draw();
}

// Colours as little-endian RGBA words for a Uint32Array over the pixels.
const rgb = (r, g, b) => (255 << 24 | b << 16 | g << 8 | r) >>> 0;
const COLOR = {
  wall: rgb(40, 40, 48), free: rgb(255, 255, 255), over: rgb(255, 0, 255),
  a: rgb(170, 210, 255), b: rgb(60, 110, 200), path: rgb(255, 150, 0),
};

function draw() {
  const w = st.width, h = st.height;
  const img = st.image;
  const px = new Uint32Array(img.data.buffer);
  const a = st.result && decodeBase64(st.result.a.explored.bitmap);
  const b = st.result && st.result.b && decodeBase64(st.result.b.explored.bitmap);
  const heat = st.heat && decodeBase64(st.heat.ratio);
  const wall = st.walls;
  for (let i = 0; i < w * h; i++) {
    let c = wall[i] ? COLOR.wall : COLOR.free;
    if (heat && heat[i] !== 255) c = heat[i] === 254 ? COLOR.over : rgb(255, 255 - heat[i], 255 - heat[i]);
    if (a && (a[i >> 3] >> (i & 7)) & 1) c = COLOR.a;
    if (b && (b[i >> 3] >> (i & 7)) & 1) c = COLOR.b;
    px[i] = c;
  }
  if (st.result) for (const n of st.result.a.path) px[n] = COLOR.path;
  st.offscreen.getContext("2d").putImageData(img, 0, 0);
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(st.offscreen, 0, 0, w * st.scale, h * st.scale);
  const mark = (p, color, r) => {
    ctx.fillStyle = color; ctx.strokeStyle = "#111";
    const s = st.scale;
    ctx.fillRect(p[0] * s + s / 2 - r, p[1] * s + s / 2 - r, 2 * r, 2 * r);
    ctx.strokeRect(p[0] * s + s / 2 - r, p[1] * s + s / 2 - r, 2 * r, 2 * r);
  };
  for (const l of st.landmarks) mark(l, "rgb(0,170,0)", 4);
  mark(st.from, "rgb(230,0,0)", 5);
  mark(st.to, "rgb(150,0,200)", 5);
}

function cellAt(ev) {
  const r = view.getBoundingClientRect();
  const x = Math.floor((ev.clientX - r.left) / st.scale), y = Math.floor((ev.clientY - r.top) / st.scale);
  return [Math.min(st.width - 1, Math.max(0, x)), Math.min(st.height - 1, Math.max(0, y))];
}

const near = (p, q) => Math.abs(p[0] - q[0]) * st.scale <= 8 && Math.abs(p[1] - q[1]) * st.scale <= 8;

view.addEventListener("pointerdown", (ev) => {
  const c = cellAt(ev);
  const tool = $("tool").value;
  if (tool !== "drag") {
    st.drag = { paint: tool === "wall" ? 1 : 0, last: c };
    capture(ev);
    paint([c]);
    return;
  }
  if (near(c, st.from)) st.drag = { point: st.from };
  else if (near(c, st.to)) st.drag = { point: st.to };
  else {
    const l = st.landmarks.find((p) => near(c, p));
    st.drag = l ? { point: l } : null;
  }
  if (st.drag) capture(ev);
});

// Keeps the drag's moves coming when the pointer leaves the canvas. A
// pointer the browser does not know (a script's event) cannot be captured.
function capture(ev) {
  try { view.setPointerCapture(ev.pointerId); } catch (_) { /* no such pointer */ }
}

view.addEventListener("pointermove", (ev) => {
  if (!st.drag) return;
  const c = cellAt(ev);
  if (st.drag.paint !== undefined) { paint(line(st.drag.last, c).slice(1)); st.drag.last = c; return; }
  if (st.walls[c[1] * st.width + c[0]]) return;
  if (st.drag.point[0] === c[0] && st.drag.point[1] === c[1]) return;
  st.drag.point[0] = c[0]; st.drag.point[1] = c[1];
  update();
});

view.addEventListener("pointerup", () => { st.drag = null; });

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
  if (changed) update();
}

$("repair").addEventListener("click", () => { st.tableEdits = st.edits.slice(); update(); });
for (const id of ["heuristic", "compare", "open", "neighborhood", "heat"]) $(id).addEventListener("change", () => update());
$("map").addEventListener("change", () => loadMap($("map").value).catch((e) => { $("error").textContent = e.message; }));

(async () => {
  try {
    const m = await api("/api/maps");
    for (const name of m.maps) $("map").add(new Option(name, name));
    for (const name of m.open_sets) $("open").add(new Option(name, name));
    for (const id of ["heuristic", "compare"]) if (params.has(id)) $(id).value = params.get(id);
    const name = params.get("map") || m.maps[0];
    $("map").value = name;
    await loadMap(name);
    if (params.get("selftest") === "drag") await selftest();
  } catch (e) {
    $("error").textContent = e.message;
    $("status").textContent = "error";
  }
})();

// ?selftest=drag&drag_to=x,y&paint=x0,y0,x1,y1: drives the page through
// pointer events on the canvas, the same handlers a user's drag reaches:
// drags the start (or the handle at drag_from=x,y, such as a landmark) to
// drag_to in about twelve moves, waiting for each update, then paints a wall stroke
// from (x0, y0) to (x1, y1) in one move. Writes what the page showed after
// each into #selftest, for tests that read the DOM.
async function selftest() {
  const report = {};
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const settle = async () => { while (st.inFlight || st.pending) await sleep(2); };
  const fire = (type, [x, y]) => {
    const r = view.getBoundingClientRect();
    view.dispatchEvent(new PointerEvent(type, {
      bubbles: true, cancelable: true, pointerId: 1, pointerType: "mouse", isPrimary: true,
      button: 0, buttons: type === "pointerup" ? 0 : 1,
      clientX: r.left + (x + 0.5) * st.scale, clientY: r.top + (y + 0.5) * st.scale,
    }));
  };
  const shown = () => ({
    a: $("count-a").textContent, b: $("count-b").textContent,
    length: $("path-length").textContent, error: $("error").textContent,
  });
  const latencies = [];
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
    report.drag = { from: st.from.slice(), ...shown() };
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
  latencies.sort((x, y) => x - y);
  report.latency = { median: latencies[latencies.length >> 1] || 0, max: latencies[latencies.length - 1] || 0 };
  $("selftest").textContent = JSON.stringify(report);
}
