//! The JSON API under `/api/`.

use std::sync::Arc;
use std::time::Instant;

use axum::Json;
use axum::extract::rejection::JsonRejection;
use axum::extract::{RawQuery, State};
use axum::http::{Method, StatusCode, Uri};
use cairns::graph::{NodeId, Reversed};
use cairns::grid::{Grid, GridGraph, Neighborhood};
use cairns::landmarks::{LandmarkTable, place};
use cairns::open::OpenKind;
use cairns::saved::TableKind;
use cairns::search::{Dijkstra, SearchCache, Searcher};
use cairns::spec::{
    Algorithm, HeuristicSpec, LandmarkMode, PLACEMENT_SEED, PlacementKind, SearchSpec, SpecError,
};
use tokio::sync::Semaphore;

use crate::catalogue::{GraphKey, LandmarkKey, Landmarks, Served};
use crate::gains::{help_of, owners_of};
use crate::limits;
use crate::regions::{Trace, far_apart, longest_scenario, reachable_from};
use crate::state::{AppState, Endpoints, OutcomeKey, StateError, StateErrorKind};
use crate::wire::{
    ApiError, Explored, HeatRequest, HeatResponse, HelpResponse, MapInfo, Maps, Scene,
    SearchOutcome, SearchRequest, SearchResponse, Shade, Shortest, TableUse, bad, base64,
};

/// The most landmarks a request may place.
pub(crate) const MAX_LANDMARKS: usize = 32;
/// The most wall edits a request may carry.
const MAX_EDITS: usize = 1 << 16;
/// Landmarks suggested for a new map.
const SUGGESTED_LANDMARKS: usize = 8;
/// The most timed runs of one search; the time shown is their median.
const TIMED_RUNS: usize = 5;
/// Timed runs stop early once they have taken this long in all (seconds,
/// kept small: a drag pays it on every move),
/// so that a drag over a large map stays responsive.
const TIMING_BUDGET: f64 = 0.005;

/// The request's fault (400) or the server's own maps' (500), with the
/// whole chain of causes in the message.
impl From<StateError> for ApiError {
    fn from(e: StateError) -> Self {
        let status = match e.kind() {
            StateErrorKind::UnknownMap { .. }
            | StateErrorKind::EditOutside { .. }
            | StateErrorKind::EditValue { .. } => StatusCode::BAD_REQUEST,
            _ => StatusCode::INTERNAL_SERVER_ERROR,
        };
        let mut msg = e.to_string();
        let mut source = std::error::Error::source(&e);
        while let Some(s) = source {
            msg = format!("{msg}: {s}");
            source = s.source();
        }
        ApiError::new(status, msg)
    }
}

pub(crate) async fn not_found() -> ApiError {
    ApiError::new(StatusCode::NOT_FOUND, "no such page")
}

/// A route that exists, asked with a method it does not take (the `Allow`
/// header, set by the router, says which it takes).
pub(crate) async fn method_not_allowed(method: Method, uri: Uri) -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        format!("{} does not take {method}", uri.path()),
    )
}

pub(crate) async fn maps(State(state): State<Arc<AppState>>) -> Json<Maps> {
    Json(Maps {
        maps: state.map_names(),
        sets: state.map_sets(),
        open_sets: OpenKind::ALL.iter().map(|k| k.name()).collect(),
        searches: Algorithm::ALL.iter().map(|a| a.name()).collect(),
    })
}

/// Decodes `%XX` and `+` in a query value.
fn percent_decode(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' => {
                let hex = s.get(i + 1..i + 3)?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                i += 2;
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8(out).ok()
}

pub(crate) async fn map(
    State(state): State<Arc<AppState>>, RawQuery(query): RawQuery,
) -> Result<Json<MapInfo>, ApiError> {
    let name = query
        .as_deref()
        .unwrap_or("")
        .split('&')
        .find_map(|kv| kv.strip_prefix("name="))
        .ok_or_else(|| bad("missing ?name="))?;
    let name = percent_decode(name).ok_or_else(|| bad("badly encoded map name"))?;
    at_work(state, move |state| {
        let grid = state.grid(&name)?;
        let base = graph(state, &name, (Neighborhood::Octile, 1), &[])?;
        let graph = base.engine.graph();
        let suggested = state.suggested(&name, || {
            place(
                graph,
                SUGGESTED_LANDMARKS,
                PlacementKind::default().with_seed(PLACEMENT_SEED),
            )
        });
        let scen = state.scen_path(&name).map(std::path::Path::to_path_buf);
        let ends = state.endpoints(&name, || {
            let at = |n| xy(&grid, n);
            if let Some((a, b, line)) = scen.and_then(|p| longest_scenario(graph, &p)) {
                return Endpoints {
                    from: at(a),
                    to: at(b),
                    source: format!("scenario line {line}"),
                };
            }
            let (a, b) = far_apart(graph).unwrap_or((NodeId(0), NodeId(0)));
            Endpoints {
                from: at(a),
                to: at(b),
                source: "far apart".to_string(),
            }
        });
        Ok(MapInfo {
            width: grid.width(),
            height: grid.height(),
            rows: grid.to_ascii().lines().map(str::to_string).collect(),
            landmarks: suggested.iter().map(|&n| xy(&grid, n)).collect(),
            from: ends.from,
            to: ends.to,
            endpoints: ends.source.clone(),
            name,
        })
    })
    .await
}

/// Runs CPU-bound work off the async workers once one of the `turns`
/// ([`Limits::max_concurrent_work`](crate::Limits::max_concurrent_work)) is
/// free, holding it until the work ends (even when the request has been
/// answered by then, past its deadline).
pub(crate) async fn blocking<T: Send + 'static>(
    turns: Arc<Semaphore>, f: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let turn = turns.acquire_owned().await.map_err(|_| {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the server is shutting down",
        )
    })?;
    tokio::task::spawn_blocking(move || {
        let _turn = turn;
        f()
    })
    .await
    .map_err(|_| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "the search failed"))?
}

/// Runs `work` on the state, on a blocking thread in a turn of the work
/// guard ([`blocking`]), and answers with its JSON.
pub(crate) async fn at_work<T: Send + 'static>(
    state: Arc<AppState>, work: impl FnOnce(&AppState) -> Result<T, ApiError> + Send + 'static,
) -> Result<Json<T>, ApiError> {
    blocking(state.guards().work(), move || work(&state).map(Json)).await
}

pub(crate) fn xy(grid: &Grid, n: NodeId) -> [u32; 2] {
    let (x, y) = grid.coords(n);
    [x, y]
}

/// A map with the request's edits, as a graph, plus what the heuristics need.
pub(crate) struct Prepared {
    /// The engine holding the graph ([`AppState::graph`]).
    pub(crate) base: Arc<Served>,
    /// The identity of the graph, for what is kept per graph.
    pub(crate) key: GraphKey,
    /// The landmark table, if the request uses one.
    pub(crate) table: Option<PreparedTable>,
}

/// The page's landmark table as a request holds it.
pub(crate) struct PreparedTable {
    pub(crate) table: Arc<Landmarks>,
    pub(crate) key: LandmarkKey,
    /// Whether it was built before some of the request's wall edits.
    pub(crate) stale: bool,
    /// The milliseconds spent building it for this request (`None` when
    /// it was kept).
    pub(crate) millis: Option<f64>,
}

impl Prepared {
    /// The graph: the map with the request's edits.
    pub(crate) fn graph(&self) -> &GridGraph {
        self.base.engine.graph()
    }

    /// The landmark table prepared, or an error.
    pub(crate) fn landmark_table(&self) -> Result<&LandmarkTable, ApiError> {
        self.table
            .as_ref()
            .and_then(|t| t.table.landmarks())
            .ok_or_else(|| bad("no landmark table"))
    }
}

/// The movement rule of a request: 4, 8 (octile, no corner cutting), 9
/// (octile with corner cutting) or 10 (octile squeezing between walls), as
/// the C API numbers them.
pub(crate) fn neighborhood(n: u8) -> Result<Neighborhood, ApiError> {
    match n {
        4 => Ok(Neighborhood::Four),
        8 => Ok(Neighborhood::Octile),
        9 => Ok(Neighborhood::OctileCornerCutting),
        10 => Ok(Neighborhood::OctileSqueeze),
        _ => Err(bad(format!(
            "neighborhood must be 4, 8, 9 (octile with corner cutting) or 10 (octile squeezing between walls), not {n}"
        ))),
    }
}

/// The number of a movement rule in requests ([`neighborhood`]'s inverse).
fn rule_number(nb: Neighborhood) -> u8 {
    match nb {
        Neighborhood::Four => 4,
        Neighborhood::Octile => 8,
        Neighborhood::OctileCornerCutting => 9,
        Neighborhood::OctileSqueeze => 10,
    }
}

/// Reads a name of the library's vocabulary; the error lists the valid
/// names.
pub(crate) fn parse<T: std::str::FromStr<Err = SpecError>>(name: &str) -> Result<T, ApiError> {
    name.parse().map_err(|e: SpecError| bad(e.to_string()))
}

/// The node of `[x, y]` as a start, goal or landmark: on the map and
/// open to the agent ([`GridGraph::endpoint`]).
pub(crate) fn cell(graph: &GridGraph, what: &str, [x, y]: [u32; 2]) -> Result<NodeId, ApiError> {
    graph
        .endpoint(x.into(), y.into())
        .map_err(|e| bad(e.describe(what, "the map")))
}

/// The engine holding the graph of `map` under the rule `nb` for an agent
/// of `size` with `edits` ([`AppState::graph`]).
pub(crate) fn graph(
    state: &AppState, map: &str, (nb, size): (Neighborhood, u32), edits: &[[u32; 3]],
) -> Result<Arc<Served>, ApiError> {
    graph_keyed(state, map, (nb, size), edits).map(|(g, _)| g)
}

/// [`graph`] and its key.
fn graph_keyed(
    state: &AppState, map: &str, (nb, size): (Neighborhood, u32), edits: &[[u32; 3]],
) -> Result<(Arc<Served>, GraphKey), ApiError> {
    if edits.len() > MAX_EDITS {
        return Err(bad(format!("more than {MAX_EDITS} wall edits")));
    }
    let key = GraphKey {
        map: map.to_string(),
        edits: edits.to_vec(),
        rule: rule_number(nb),
        size,
    };
    Ok((state.graph(&key, nb)?, key))
}

/// The graph of `scene` with its edits and, when `uses_dh`, its landmark
/// table.
pub(crate) fn prepare(state: &AppState, c: &Scene, uses_dh: bool) -> Result<Prepared, ApiError> {
    let mut prep = prepare_graph(state, c)?;
    prep.table = prepare_table(state, c, uses_dh, &prep.base)?;
    Ok(prep)
}

/// The graph stage of [`prepare`]: the graph with its edits, no table.
fn prepare_graph(state: &AppState, c: &Scene) -> Result<Prepared, ApiError> {
    let nb = neighborhood(c.neighborhood)?;
    let (base, key) = graph_keyed(state, &c.map, (nb, c.size), &c.walls)?;
    Ok(Prepared {
        base,
        key,
        table: None,
    })
}

/// The table stage of [`prepare`], for `base` (the graph stage's): the
/// landmark table if the request uses one.
fn prepare_table(
    state: &AppState, c: &Scene, uses_dh: bool, base: &Arc<Served>,
) -> Result<Option<PreparedTable>, ApiError> {
    if !uses_dh {
        return Ok(None);
    }
    let nb = neighborhood(c.neighborhood)?;
    let graph = base.engine.graph();
    if c.landmarks.is_empty() || c.landmarks.len() > MAX_LANDMARKS {
        return Err(bad(format!(
            "dh needs 1 to {MAX_LANDMARKS} landmarks, got {}",
            c.landmarks.len()
        )));
    }
    limits::check_table_request(
        state.limits(),
        c.landmarks.len(),
        c.directed,
        graph.width(),
        graph.height(),
    )?;
    let table_edits = c.table_walls.as_deref().unwrap_or(&c.walls);
    let stale = table_edits != c.walls;
    let table_base = if stale {
        self::graph(state, &c.map, (nb, c.size), table_edits)?
    } else {
        Arc::clone(base)
    };
    let table_graph = table_base.engine.graph();
    let nodes = c
        .landmarks
        .iter()
        .map(|&p| cell(table_graph, "landmark", p))
        .collect::<Result<Vec<_>, _>>()?;
    let key = LandmarkKey {
        graph: GraphKey {
            map: c.map.clone(),
            edits: table_edits.to_vec(),
            rule: c.neighborhood,
            size: c.size,
        },
        landmarks: nodes,
        directed: c.directed,
    };
    let t0 = Instant::now();
    let (table, built) = state.landmark_table(key.clone(), table_graph)?;
    let millis = built.then(|| t0.elapsed().as_secs_f64() * 1e3);
    Ok(Some(PreparedTable {
        table,
        key,
        stale,
        millis,
    }))
}

/// Runs one search of `spec` (its names already checked) and describes it.
/// What one search of a request asks: its ends and how to run it.
#[derive(Clone, Copy)]
struct Query {
    start: NodeId,
    goal: NodeId,
    /// Record the events for playback.
    traced: bool,
    /// Warm-up and timed runs (else one cold run).
    warm: bool,
}

fn run_search(
    state: &AppState, prep: &Prepared, spec: SearchSpec, label: &str, query: Query,
) -> Result<SearchOutcome, ApiError> {
    let Query {
        start,
        goal,
        traced,
        warm,
    } = query;
    let graph: &GridGraph = prep.graph();
    let table = prep
        .table
        .as_ref()
        .filter(|_| spec.heuristic.is_some_and(HeuristicSpec::is_landmarks));
    // A cold search without a table asked again with the same graph, ends
    // and search (search A while a landmark is dragged) has the same
    // answer: the kept one, with the time its run took.
    let kept = (!warm && !traced && table.is_none()).then(|| OutcomeKey {
        graph: prep.key.clone(),
        search: format!("{spec} {label}"),
        start,
        goal,
    });
    if let Some(hit) = kept.as_ref().and_then(|key| state.outcome(key)) {
        return Ok(hit);
    }
    // The engine of the search on this graph, kept or made now (building
    // or repairing the tables its spec needs), given the page's landmark
    // table if the search reads it.
    let nb = graph.neighborhood();
    let given = table.map(|t| (&t.key, &t.table));
    let (served, made) = state.engine(&prep.base, (&prep.key, nb), spec, given)?;
    // What the page prints of its tables: the page's landmark table's
    // build time is the request's (`prepare_table`), the others' their
    // engine's when it was made now (none for one another engine gave).
    let uses: Vec<TableUse> = served
        .engine
        .report()
        .iter()
        .map(|r| TableUse {
            kind: r.kind.name().to_string(),
            bytes: r.bytes,
            built_millis: if !served.was_given(r.kind) {
                made.then_some(r.seconds * 1e3)
            } else if r.kind == TableKind::Landmarks {
                table.and_then(|t| t.millis)
            } else {
                None // another engine's, kept
            },
        })
        .collect();
    // Its own cache, handed back to the engine when dropped.
    let mut searcher = served.engine.searcher();
    // One warm-up run, then up to TIMED_RUNS timed runs within the budget;
    // or, not warm, one timed run.
    let t0 = Instant::now();
    let cost = searcher.search_cost(start, goal);
    let cold = t0.elapsed().as_secs_f64();
    let mut times = Vec::with_capacity(TIMED_RUNS);
    if !warm {
        times.push(cold);
    }
    let mut spent = 0.0;
    while times.len() < TIMED_RUNS && (times.is_empty() || spent < TIMING_BUDGET) && warm {
        let t0 = Instant::now();
        std::hint::black_box(searcher.search_cost(start, goal));
        let t = t0.elapsed().as_secs_f64();
        spent += t;
        times.push(t);
    }
    times.sort_by(f64::total_cmp);
    let millis = times[times.len() / 2] * 1e3;
    let mut trace = None;
    let mut trace_truncated = false;
    if traced {
        let mut t = Trace::default();
        searcher.search_observed(start, goal, &mut t);
        trace = Some(base64(&t.bytes()));
        trace_truncated = t.truncated;
    }
    let mut path = Vec::new();
    if cost.is_some() {
        searcher.path_into(goal, &mut path);
    }
    let mut bits = vec![0u8; graph.grid().len().div_ceil(8)];
    let mut count = 0;
    for i in 0..graph.grid().len() {
        if searcher.is_closed(NodeId(i as u32)) {
            bits[i / 8] |= 1 << (i % 8);
            count += 1;
        }
    }
    let stats = searcher.stats();
    let outcome = SearchOutcome {
        heuristic: label.to_string(),
        cost,
        path: path.iter().map(|n| n.0).collect(),
        expanded: stats.expanded,
        generated: stats.generated,
        explored: Explored {
            count,
            bitmap: base64(&bits),
        },
        millis,
        runs: times.len(),
        warm,
        trace,
        trace_truncated,
        tables: uses,
    };
    if let Some(key) = kept {
        state.keep_outcome(key, outcome.clone());
    }
    Ok(outcome)
}

/// The heuristic named `name` for a request with `landmarks` landmark
/// cells: a bare `dh` is theirs; `dh:K` must count them.
fn heuristic(name: &str, landmarks: usize) -> Result<HeuristicSpec, ApiError> {
    match parse(name)? {
        HeuristicSpec::Landmarks { count: Some(k), .. } if k != landmarks => Err(bad(format!(
            "{name} asks for {k} landmarks, but the request places {landmarks}"
        ))),
        // Each request is one query with a new searcher: nothing to adapt
        // to, and a copy of the table per request.
        HeuristicSpec::Landmarks {
            mode: LandmarkMode::Adapt,
            ..
        } => Err(bad(format!(
            "{name}: adaptive landmarks follow a stream of queries; the page searches one at a time (place the landmarks instead)"
        ))),
        h => Ok(h),
    }
}

/// Answers `POST /api/search`: validates the request, then runs
/// heuristic A's search and, if asked, heuristic B's.
pub(crate) async fn search(
    State(state): State<Arc<AppState>>, body: Result<Json<SearchRequest>, JsonRejection>,
) -> Result<Json<SearchResponse>, ApiError> {
    let Json(req) = body?;
    at_work(state, move |state| search_blocking(state, &req)).await
}

/// The work of `POST /api/search`, also usable without a server.
pub(crate) fn search_blocking(
    state: &AppState, req: &SearchRequest,
) -> Result<SearchResponse, ApiError> {
    let t0 = Instant::now();
    let algorithm: Algorithm = req
        .search
        .as_deref()
        .map(parse)
        .transpose()?
        .unwrap_or_default();
    let algorithm_b: Algorithm = req
        .compare_search
        .as_deref()
        .map(parse)
        .transpose()?
        .unwrap_or(algorithm);
    let open: Option<OpenKind> = req.open.as_deref().map(parse).transpose()?;
    let scene = &req.scene;
    let n = scene.landmarks.len();
    let ha = heuristic(&req.heuristic, n)?;
    let hb = req
        .compare
        .as_deref()
        .map(|b| heuristic(b, n))
        .transpose()?;
    let nb = neighborhood(scene.neighborhood)?;
    let specs: Vec<(SearchSpec, &str)> = std::iter::once((algorithm, ha, req.heuristic.as_str()))
        .chain(
            hb.zip(req.compare.as_deref())
                .map(|(h, label)| (algorithm_b, h, label)),
        )
        .map(|(algorithm, h, label)| {
            let spec = SearchSpec {
                algorithm,
                heuristic: Some(h),
                open,
                weight: None,
                pull: false,
            };
            // Unsupported combinations say why; an inadmissible heuristic
            // is allowed (the page shows what it does).
            spec.resolve_inadmissible(nb)
                .map(|spec| (spec, label))
                .map_err(|e| bad(e.to_string()))
        })
        .collect::<Result<_, _>>()?;
    let uses_dh = ha.is_landmarks() || hb.is_some_and(HeuristicSpec::is_landmarks);
    let uses_table = uses_dh
        || matches!(req.shade, Some(Shade::Help { .. } | Shade::Goals { .. }))
        || (req.owners && n > 0);
    let mut prep = prepare_graph(state, scene)?;
    let start = cell(prep.graph(), "start", req.from)?;
    let goal = cell(prep.graph(), "goal", req.to)?;
    let query = Query {
        start,
        goal,
        traced: req.trace,
        warm: req.warm,
    };
    let shading = req
        .shade
        .is_some()
        .then_some(|prep: &Prepared| shade(prep, req.shade, (ha, hb), n, (start, goal)));
    let (a, b, (heat, help)) =
        run_both(state, &mut prep, scene, uses_table, &specs, query, shading)?;
    let owners = (req.owners && n > 0)
        .then(|| owners_of(prep.graph(), prep.landmark_table()?, goal))
        .transpose()?;
    let stale = prep.table.as_ref().is_some_and(|t| t.stale);
    let shortest = stale.then(|| shortest(&prep.base, start, goal));
    let reachable = reachable_from(prep.graph(), start);
    let mut bits = vec![0u8; reachable.len().div_ceil(8)];
    let mut count = 0;
    for (i, &r) in reachable.iter().enumerate() {
        if !r && prep.graph().is_passable(NodeId(i as u32)) {
            bits[i / 8] |= 1 << (i % 8);
            count += 1;
        }
    }
    Ok(SearchResponse {
        width: prep.graph().width(),
        height: prep.graph().height(),
        a,
        b,
        unreachable: Explored {
            count,
            bitmap: base64(&bits),
        },
        stale,
        shortest,
        table_millis: prep.table.as_ref().and_then(|t| t.millis),
        total_millis: t0.elapsed().as_secs_f64() * 1e3,
        heat,
        help,
        owners,
    })
}

/// The shading a search request asks for (see [`Shade`]), on its prepared
/// graph: a heat map of heuristic A or B, or a landmark's gains.
fn shade(
    prep: &Prepared, shade: Option<Shade>, (ha, hb): (HeuristicSpec, Option<HeuristicSpec>),
    landmarks: usize, (start, goal): (NodeId, NodeId),
) -> Result<(Option<HeatResponse>, Option<HelpResponse>), ApiError> {
    Ok(match shade {
        None => (None, None),
        Some(Shade::Heat { b }) => {
            let h = if b { hb.unwrap_or(ha) } else { ha };
            (Some(heat_of(prep, h, Some(start), goal)?), None)
        }
        Some(shade @ (Shade::Help { landmark } | Shade::Goals { landmark })) => {
            // Help toward the goal, or the goals a landmark helps from the
            // start.
            let goals = matches!(shade, Shade::Goals { .. });
            let at = if goals { start } else { goal };
            let table = prep.landmark_table()?;
            let help = help_of(prep.graph(), table, landmarks, landmark, at, goals)?;
            (None, Some(help))
        }
    })
}

/// Runs search A and, if asked, search B of a request, filling in the
/// table of `prep` (its graph stage done), and then `shading` (with the
/// table ready) if asked, on up to three threads: when only B uses the
/// landmark table, A runs while the table is built or updated (a landmark
/// drag), then B; otherwise, for a cold request, A and B run side by side
/// once the table is ready. On a cold request the shading runs beside the
/// searches that follow the table; warm runs (on release) stay one at a
/// time, so that no time includes another's use of the machine. The
/// longer work stays on this thread (the table, the gains beside B): on a
/// loaded machine a thread woken for it may wait for a core.
fn run_both<T: Default + Send>(
    state: &AppState, prep: &mut Prepared, scene: &Scene, uses_table: bool,
    specs: &[(SearchSpec, &str)], query: Query,
    shading: Option<impl FnOnce(&Prepared) -> Result<T, ApiError> + Send>,
) -> Result<(SearchOutcome, Option<SearchOutcome>, T), ApiError> {
    let (spec_a, label_a) = specs[0];
    let run_a = |prep: &Prepared| run_search(state, prep, spec_a, label_a, query);
    let run_b = |prep: &Prepared| {
        specs
            .get(1)
            .map(|&(spec, label)| run_search(state, prep, spec, label, query))
            .transpose()
    };
    let cold = !query.warm;
    let shaded = cold && shading.is_some();
    let shading = |prep: &Prepared| shading.map_or_else(|| Ok(T::default()), |f| f(prep));
    let a_uses_table = spec_a.heuristic.is_some_and(HeuristicSpec::is_landmarks);
    if uses_table && !a_uses_table {
        let (a, table) = {
            let prep: &Prepared = prep;
            let (table, a) = beside(
                true,
                || prepare_table(state, scene, uses_table, &prep.base),
                || run_a(prep),
            )?;
            (a, table)
        };
        prep.table = table?;
        let prep: &Prepared = prep;
        let (shade, b) = beside(shaded, || shading(prep), || run_b(prep))?;
        return Ok((a?, b?, shade?));
    }
    prep.table = prepare_table(state, scene, uses_table, &prep.base)?;
    let prep: &Prepared = prep;
    let (searches, shade) = beside(
        shaded,
        || beside(cold && specs.len() > 1, || run_a(prep), || run_b(prep)),
        || shading(prep),
    )?;
    let (a, b) = searches?;
    Ok((a?, b?, shade?))
}

/// `first()` and `second()`: one after the other, or with `together` at
/// once, `second` on a thread of its own.
fn beside<A: Send, B: Send>(
    together: bool, first: impl FnOnce() -> A + Send, second: impl FnOnce() -> B + Send,
) -> Result<(A, B), ApiError> {
    if !together {
        let a = first();
        return Ok((a, second()));
    }
    std::thread::scope(|scope| {
        let b = scope.spawn(second);
        let a = first();
        let b = b
            .join()
            .map_err(|_| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "the search failed"))?;
        Ok((a, b))
    })
}

/// The shortest path from `start` to `goal` on the graph of `base`, by
/// its engine: A* with the movement rule's distance, no landmark table
/// ([`graph_spec`](crate::state::graph_spec)).
fn shortest(base: &Served, start: NodeId, goal: NodeId) -> Shortest {
    let mut searcher = base.engine.searcher();
    let cost = searcher.search_cost(start, goal);
    let mut path = Vec::new();
    if cost.is_some() {
        searcher.path_into(goal, &mut path);
    }
    Shortest {
        cost,
        path: path.iter().map(|n| n.0).collect(),
    }
}

/// `h / d` per cell as a byte (see [`HeatResponse::ratio`]), the mean ratio
/// and the number of cells where `h > d`.
fn heat_ratios(graph: &GridGraph, estimates: &[f64], cache: &SearchCache) -> (Vec<u8>, f64, usize) {
    let mut sum = 0.0;
    let mut n = 0usize;
    let mut over = 0;
    let bytes = (0..graph.grid().len() as u32)
        .map(|i| {
            let node = NodeId(i);
            match cache.g(node) {
                Some(d) if d > 0.0 && graph.is_passable(node) => {
                    let r = estimates[i as usize] / d;
                    sum += r.min(1.0);
                    n += 1;
                    if r > 1.0 + 1e-9 {
                        over += 1;
                        254
                    } else {
                        (r.clamp(0.0, 1.0) * 200.0).round() as u8
                    }
                }
                _ => 255,
            }
        })
        .collect();
    (bytes, if n == 0 { 0.0 } else { sum / n as f64 }, over)
}

/// Answers `POST /api/heat`: one reverse Dijkstra from the goal for the true
/// distances, then `h / d` for every reached cell.
pub(crate) async fn heat(
    State(state): State<Arc<AppState>>, body: Result<Json<HeatRequest>, JsonRejection>,
) -> Result<Json<HeatResponse>, ApiError> {
    let Json(req) = body?;
    at_work(state, move |state| {
        let h = heuristic(&req.heuristic, req.scene.landmarks.len())?;
        let prep = prepare(state, &req.scene, h.is_landmarks())?;
        let goal = cell(prep.graph(), "goal", req.to)?;
        let start = req
            .from
            .map(|from| cell(prep.graph(), "start", from))
            .transpose()?;
        heat_of(&prep, h, start, goal)
    })
    .await
}

/// The heat map of `h` towards `goal` on the prepared graph (its table,
/// if `h` needs one, prepared too).
fn heat_of(
    prep: &Prepared, h: HeuristicSpec, start: Option<NodeId>, goal: NodeId,
) -> Result<HeatResponse, ApiError> {
    let t0 = Instant::now();
    // Every distance to the goal, not a search of the page's: a cache of
    // its own, the size of the map, which it fills.
    let mut cache = SearchCache::new();
    Dijkstra::new(Reversed(prep.graph())).all(goal, &mut cache);
    let table = prep.table.as_ref().and_then(|t| t.table.landmarks());
    let result = h
        .estimates(prep.graph(), table, start, goal)
        .map(|estimates| heat_ratios(prep.graph(), &estimates, &cache));
    let (bytes, mean, over) = result.map_err(|e| bad(e.to_string()))?;
    Ok(HeatResponse {
        width: prep.graph().width(),
        height: prep.graph().height(),
        ratio: base64(&bytes),
        mean,
        over,
        millis: t0.elapsed().as_secs_f64() * 1e3,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A request on map `m` with every option at its default (A octile,
    /// warm runs).
    fn request(from: [u32; 2], to: [u32; 2]) -> SearchRequest {
        let body = serde_json::json!({ "map": "m", "from": from, "to": to });
        serde_json::from_value(body).unwrap()
    }

    /// A 48x48 map of rooms of side 7 drawn from `seed`, its free cells in
    /// row order, and a server state serving it as map `m`.
    fn rooms(seed: u64) -> (cairns::grid::Grid, Vec<[u32; 2]>, AppState) {
        let grid = cairns::grid::MapKind::Rooms { room_size: 7 }
            .generate(48, 48, seed)
            .unwrap();
        let free = (0..48)
            .flat_map(|y| (0..48).map(move |x| [x, y]))
            .filter(|&[x, y]| grid.is_passable(x, y))
            .collect();
        let state = AppState::with_grid("m", grid.clone()).unwrap();
        (grid, free, state)
    }

    #[test]
    fn base64_matches_rfc_4648_vectors() {
        for (input, want) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64(input.as_bytes()), want);
        }
    }

    /// JPS+ searches borrow one cached jump table per graph: a drag of the
    /// start reuses it, a wall edit builds another beside it (the cache of
    /// every table kind keeps both), and every answer equals a searcher
    /// that builds its own table.
    #[test]
    fn jps_plus_reuses_the_graphs_jump_table() {
        let (grid, free, state) = rooms(2);
        let to = *free.last().unwrap();
        let wall = free[free.len() / 2];
        for (k, &from) in free.iter().step_by(97).take(4).enumerate() {
            let walls = if k < 3 {
                vec![]
            } else {
                vec![[wall[0], wall[1], 1]]
            };
            let mut req = SearchRequest {
                search: Some("jps+".into()),
                ..request(from, to)
            };
            req.scene.walls.clone_from(&walls);
            let answer = search_blocking(&state, &req).unwrap();
            assert_eq!(
                state.tables_kept(TableKind::Jumps),
                if k < 3 { 1 } else { 2 }
            );
            let mut edited = grid.clone();
            for [x, y, _] in walls {
                edited.set(x, y, cairns::grid::Tile::OutOfBounds);
            }
            let graph = GridGraph::new(edited, Neighborhood::Octile);
            let spec: SearchSpec = "jps+".parse().unwrap();
            let mut fresh = spec.searcher(&graph, &[]).unwrap();
            let cost = fresh.search_cost(grid.node(from[0], from[1]), grid.node(to[0], to[1]));
            assert_eq!(answer.a.cost, cost, "{from:?}");
            assert_eq!(answer.a.expanded, fresh.stats().expanded, "{from:?}");
            // The answer names the table: built for the first request and
            // the wall edit, kept from the cache in between.
            let [used] = &answer.a.tables[..] else {
                panic!("one table: {:?}", answer.a.tables)
            };
            assert_eq!(used.kind, "jumps");
            assert_eq!(used.bytes, 48 * 48 * 16);
            assert_eq!(used.built_millis.is_some(), k == 0 || k == 3, "move {k}");
        }
    }

    /// Search B (`jps+/dh`) takes search A's (`jps+`) jump table from A's
    /// engine instead of building its own: one jump table kept, built for
    /// A, kept for B; B answers as a searcher that builds every table.
    #[test]
    fn search_b_shares_search_as_jump_table() {
        let (grid, free, state) = rooms(4);
        let (from, to) = (free[0], *free.last().unwrap());
        let mut req = SearchRequest {
            search: Some("jps+".into()),
            compare: Some("dh".into()),
            ..request(from, to)
        };
        req.scene.landmarks = vec![free[free.len() / 3], free[2 * free.len() / 3]];
        let answer = search_blocking(&state, &req).unwrap();
        assert_eq!(state.tables_kept(TableKind::Jumps), 1);
        let jumps = |o: &SearchOutcome| {
            o.tables
                .iter()
                .find(|t| t.kind == "jumps")
                .map(|t| t.built_millis.is_some())
        };
        let b = answer.b.unwrap();
        assert_eq!((jumps(&answer.a), jumps(&b)), (Some(true), Some(false)));
        let graph = GridGraph::new(grid.clone(), Neighborhood::Octile);
        let (start, goal) = (grid.node(from[0], from[1]), grid.node(to[0], to[1]));
        let fresh = over_scene_table(&graph, &req, "jps+/dh:2", (start, goal));
        assert_eq!((b.cost, b.expanded), fresh);
    }

    /// The cost and expansions of `spec` from `start` to `goal` over a
    /// landmark table of `req`'s scene built here: what the server's
    /// answer must equal.
    fn over_scene_table(
        graph: &GridGraph, req: &SearchRequest, spec: &str, (start, goal): (NodeId, NodeId),
    ) -> (Option<f64>, u64) {
        let grid = graph.grid();
        let lms: Vec<NodeId> = req
            .scene
            .landmarks
            .iter()
            .map(|p| grid.node(p[0], p[1]))
            .collect();
        let table = LandmarkTable::build(graph, &lms, cairns::landmarks::Directedness::Symmetric);
        let spec: SearchSpec = spec.parse().unwrap();
        let tables = [table.into()];
        let mut fresh = spec.searcher(graph, &tables).unwrap();
        let cost = fresh.search_cost(start, goal);
        (cost, fresh.stats().expanded)
    }

    /// A landmark drag: search A (octile, no table) is answered from the
    /// kept outcome while the landmarks move, search B is run again with
    /// each table, and both equal fresh searches; a warm request runs A
    /// again.
    #[test]
    fn a_landmark_drag_keeps_search_a_and_reruns_b() {
        let (grid, free, state) = rooms(3);
        let graph = GridGraph::new(grid.clone(), Neighborhood::Octile);
        let (from, to) = (free[0], *free.last().unwrap());
        let (start, goal) = (grid.node(from[0], from[1]), grid.node(to[0], to[1]));
        let mut first_a = None;
        for (k, &landmark) in free.iter().step_by(131).take(4).enumerate() {
            let mut req = SearchRequest {
                compare: Some("dh".into()),
                warm: k == 3,
                ..request(from, to)
            };
            req.scene.landmarks = vec![free[free.len() / 2], landmark];
            let answer = search_blocking(&state, &req).unwrap();
            let (a, b) = (answer.a, answer.b.unwrap());
            match &first_a {
                None => first_a = Some(a.clone()),
                // The kept answer, its time included; the warm one is run again.
                Some(kept) => assert_eq!(a.millis == kept.millis, k < 3, "move {k}"),
            }
            let mut octile = SearchSpec::default().searcher(&graph, &[]).unwrap();
            assert_eq!(a.cost, octile.search_cost(start, goal));
            assert_eq!(a.expanded, octile.stats().expanded);
            let dh = over_scene_table(&graph, &req, "astar/dh:2", (start, goal));
            assert_eq!((b.cost, b.expanded), dh, "move {k}");
        }
    }

    #[test]
    fn percent_decoding() {
        assert_eq!(percent_decode("a%20b+c.map").as_deref(), Some("a b c.map"));
        assert_eq!(percent_decode("%zz"), None);
        assert_eq!(percent_decode("%4"), None);
    }
}
