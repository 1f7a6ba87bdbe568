// engine: the cairns C API from C++, as a game engine uses it: a map from
// a byte array, one engine shared by worker threads (a searcher each),
// paths into growing buffers, wall edits (a goal-bounding table filled in
// again on a thread of its own), a flow field, the nearest goal,
// a budgeted search, and a table saved and loaded. Every answer is
// checked; the program exits 1 when one is wrong, 2 on an error.
//
//   engine [MAP]    (a Moving AI .map file; default: a map drawn below)
//
// Build (docs/engines.md):
//   g++ -std=c++17 -Wall -Wextra -O2 -I crates/cairns-capi/include
//       crates/cairns-capi/examples/engine.cpp -L target/release -lcairns_capi
//       -Wl,-rpath,$PWD/target/release -pthread -o target/engine
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "cairns.h"

namespace {

// Handles owned by unique_ptr: freed once, whatever happens.
struct MapFree { void operator()(cairns_map *m) const { cairns_map_free(m); } };
struct EngineFree { void operator()(cairns_engine *e) const { cairns_engine_free(e); } };
struct SearcherFree { void operator()(cairns_searcher *s) const { cairns_searcher_free(s); } };
using Map = std::unique_ptr<cairns_map, MapFree>;
using Engine = std::unique_ptr<cairns_engine, EngineFree>;
using Searcher = std::unique_ptr<cairns_searcher, SearcherFree>;

// A status that is an error becomes an exception with the library's message.
cairns_status check(cairns_status status, const char *what) {
    if (status < 0)
        throw std::runtime_error(std::string(what) + ": " + cairns_status_name(status) + ": " +
                                 cairns_last_error());
    return status;
}

int failures = 0;
void expect(bool ok, const std::string &what) {
    if (!ok) {
        std::fprintf(stderr, "engine: FAILED: %s\n", what.c_str());
        failures++;
    }
}

Engine make_engine(const cairns_map *map, const char *spec) {
    cairns_engine *e = nullptr;
    check(cairns_engine_new(map, spec, &e), spec);
    return Engine(e);
}

Searcher make_searcher(const cairns_engine *engine) {
    cairns_searcher *s = nullptr;
    check(cairns_searcher_new(engine, &s), "searcher");
    return Searcher(s);
}

struct Point { int32_t x, y; };

// A path as points, the buffer grown to the length the library asks for.
std::vector<Point> path(cairns_searcher *s, Point a, Point b, double &cost) {
    std::vector<Point> points(4);
    size_t len = 0;
    cairns_status st = cairns_search_path(s, a.x, a.y, b.x, b.y, &points[0].x, points.size(), &len, &cost);
    if (st == CAIRNS_ERR_BUFFER_TOO_SMALL) {
        points.resize(len);
        st = cairns_searcher_last_path(s, &points[0].x, points.size(), &len);
    }
    check(st, "path");
    points.resize(len);
    return points;
}

double step_cost(Point a, Point b) { return (a.x != b.x && a.y != b.y) ? std::sqrt(2.0) : 1.0; }

// A 64x48 map of rooms: walls every 12 cells with doors.
std::vector<uint8_t> rooms(uint32_t w, uint32_t h) {
    std::vector<uint8_t> walls(w * h, 0);
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            bool wall = (x % 12 == 11 && y % 12 != 5) || (y % 12 == 11 && x % 12 != 3);
            walls[y * w + x] = wall ? 1 : 0;
        }
    return walls;
}

}  // namespace

int main(int argc, char **argv) try {
    cairns_map *raw = nullptr;
    uint32_t w = 64, h = 48;
    if (argc > 1) {
        check(cairns_map_read(argv[1], CAIRNS_MOVE_OCTILE, &raw), argv[1]);
    } else {
        std::vector<uint8_t> walls = rooms(w, h);
        check(cairns_map_from_walls(walls.data(), walls.size(), w, h, CAIRNS_MOVE_OCTILE, &raw), "map");
    }
    Map map(raw);
    w = cairns_map_width(map.get());
    h = cairns_map_height(map.get());

    // Corner cutting: a diagonal past one wall's corner. On a 2x2 map with
    // one wall, the diagonal between the two cells beside it is allowed.
    {
        std::vector<uint8_t> walls = {0, 1, 0, 0};
        cairns_map *cut = nullptr;
        check(cairns_map_from_walls(walls.data(), walls.size(), 2, 2, CAIRNS_MOVE_OCTILE_CUT, &cut),
              "corner-cutting map");
        Map cut_map(cut);
        Engine cut_engine = make_engine(cut_map.get(), "astar");
        Searcher s = make_searcher(cut_engine.get());
        double cost = 0;
        std::vector<Point> points = path(s.get(), {0, 0}, {1, 1}, cost);
        expect(points.size() == 2 && cost > 1.414 && cost < 1.415,
               "corner cutting: one diagonal past the wall's corner");
    }

    Engine engine = make_engine(map.get(), "jps+/dh:4");
    Engine plain = make_engine(map.get(), "astar");

    // Open cells to query between.
    std::vector<Point> cells;
    for (int32_t y = 0; y < (int32_t)h; y += 7)
        for (int32_t x = 0; x < (int32_t)w; x += 5) {
            uint32_t label;
            if (cairns_engine_component(plain.get(), x, y, &label) == CAIRNS_OK) cells.push_back({x, y});
        }
    std::vector<std::pair<Point, Point>> queries;
    for (size_t i = 0; i + 1 < cells.size() && queries.size() < 200; i++)
        queries.push_back({cells[i], cells[(i * 7 + 3) % cells.size()]});

    // Serial answers with A*, then two threads with a searcher each on jps+.
    std::vector<double> serial(queries.size()), threaded(queries.size());
    {
        Searcher s = make_searcher(plain.get());
        for (size_t i = 0; i < queries.size(); i++)
            check(cairns_search_cost(s.get(), queries[i].first.x, queries[i].first.y,
                                     queries[i].second.x, queries[i].second.y, &serial[i]),
                  "cost");
    }
    std::vector<std::thread> workers;
    for (size_t t = 0; t < 2; t++)
        workers.emplace_back([&, t] {
            Searcher s = make_searcher(engine.get());  // one per thread
            for (size_t i = t; i < queries.size(); i += 2)
                cairns_search_cost(s.get(), queries[i].first.x, queries[i].first.y, queries[i].second.x,
                                   queries[i].second.y, &threaded[i]);
        });
    for (auto &w : workers) w.join();
    for (size_t i = 0; i < queries.size(); i++)
        expect(std::fabs(serial[i] - threaded[i]) < 1e-9 || serial[i] == threaded[i],
               "query " + std::to_string(i) + ": jps+/dh:4 on a thread answers as astar");

    // A path: legal steps whose costs add up to the cost.
    Searcher s = make_searcher(engine.get());
    Point a = queries.front().first, b = queries.front().second;
    double cost = 0;
    std::vector<Point> p = path(s.get(), a, b, cost);
    double sum = 0;
    for (size_t i = 1; i < p.size(); i++) sum += step_cost(p[i - 1], p[i]);
    expect(!p.empty() && p.front().x == a.x && p.back().y == b.y, "the path runs from start to goal");
    expect(std::fabs(sum - cost) < 1e-4, "the path's steps add up to its cost");

    // A flow field to b: following next from a walks a shortest path.
    std::vector<double> distance(w * h);
    std::vector<int32_t> next(w * h);
    check(cairns_engine_field(plain.get(), &b.x, 1, distance.data(), next.data(), distance.size()), "field");
    expect(std::fabs(distance[a.y * w + a.x] - cost) < 1e-6, "the field's distance is the path cost");
    int32_t c = a.y * (int32_t)w + a.x, steps = 0;
    while (next[c] >= 0 && steps++ < (int32_t)(w * h)) c = next[c];
    expect(c == b.y * (int32_t)w + b.x, "the flow field leads to the goal");

    // The nearest of two goals, and a budgeted search that pauses.
    Point goals[2] = {b, queries[1].second};
    size_t len = 0;
    std::vector<Point> buf(w * h);
    double nearest = 0;
    check(cairns_search_nearest(s.get(), &a.x, 1, &goals[0].x, 2, &buf[0].x, buf.size(), &len, &nearest),
          "nearest");
    double c2 = 0;
    cairns_search_cost(s.get(), a.x, a.y, goals[1].x, goals[1].y, &c2);
    expect(nearest == std::fmin(cost, c2), "the nearest goal is the nearer one");
    cairns_searcher *budgeted = nullptr;
    check(cairns_searcher_new(plain.get(), &budgeted), "searcher");
    Searcher owned(budgeted);
    cairns_progress progress;
    cairns_status st = check(cairns_search_budgeted(budgeted, &a.x, 1, &b.x, 1, 3, INFINITY, &progress), "budget");
    expect(st == CAIRNS_PAUSED || cost < 3, "three expansions pause a long search");

    // Tables out and back in: the loaded engine answers as the built one.
    size_t tables = cairns_engine_table_count(engine.get());
    std::vector<std::vector<uint8_t>> saved(tables);
    std::vector<const uint8_t *> ptrs;
    std::vector<size_t> lens;
    for (size_t i = 0; i < tables; i++) {
        size_t need = 0;
        cairns_engine_save_table(engine.get(), i, nullptr, 0, &need);  // the size
        saved[i].resize(need);
        check(cairns_engine_save_table(engine.get(), i, saved[i].data(), need, &need), "save");
        ptrs.push_back(saved[i].data());
        lens.push_back(need);
    }
    Engine loaded;
    {
        cairns_engine *raw_loaded = nullptr;
        check(cairns_engine_new_with_tables(map.get(), "jps+/dh:4", ptrs.data(), lens.data(), tables, &raw_loaded),
              "load");
        loaded.reset(raw_loaded);
    }
    Searcher from_saved = make_searcher(loaded.get());
    for (size_t i = 0; i < queries.size(); i += 7) {
        double x = -1;
        cairns_search_cost(from_saved.get(), queries[i].first.x, queries[i].first.y, queries[i].second.x,
                           queries[i].second.y, &x);
        expect(x == threaded[i], "the loaded tables answer query " + std::to_string(i) + " as the built ones");
    }
    // A table cut short is refused with a message, not misread.
    {
        cairns_engine *refused = nullptr;
        size_t cut = lens[0] / 2;
        expect(cairns_engine_new_with_tables(map.get(), "jps+/dh:4", ptrs.data(), &cut, 1, &refused) ==
                       CAIRNS_ERR_TABLE && refused == nullptr,
               "a cut table is refused");
    }

    // A wall edit: close the cells of the path (not its ends); the engine's
    // tables follow, and jps+/dh:4 still answers as a fresh A*.
    std::vector<int32_t> xy;
    std::vector<uint8_t> wall;
    for (size_t i = 1; i + 1 < p.size(); i++) {
        xy.push_back(p[i].x);
        xy.push_back(p[i].y);
        wall.push_back(1);
    }
    // Safe mode on a landmark A*: the edit is answered at once, the repair
    // goes on in steps (a game's frames), every answer optimal meanwhile.
    Engine later = make_engine(map.get(), "astar/dh:4");
    Searcher s_later = make_searcher(later.get());
    // Goal bounding: an edit drops the boxes (built on the older map); a
    // thread of its own builds them again while the searcher answers.
    Engine bounded = make_engine(map.get(), "jps+bb");
    Searcher s_bounded = make_searcher(bounded.get());
    check(cairns_engine_set_walls(engine.get(), xy.data(), wall.data(), wall.size()), "edit");
    check(cairns_engine_set_walls(plain.get(), xy.data(), wall.data(), wall.size()), "edit");
    check(cairns_engine_set_walls_later(later.get(), xy.data(), wall.data(), wall.size()), "edit later");
    check(cairns_engine_set_walls(bounded.get(), xy.data(), wall.data(), wall.size()), "edit bounded");
    int filled = 0;
    cairns_status fill_status = CAIRNS_OK;
    std::thread filler([&] {
        for (int round = 0; !filled && round < 1000 && fill_status == CAIRNS_OK; round++)
            fill_status = cairns_engine_fill_boxes(bounded.get(), 0.05, &filled);
    });
    Searcher fresh = make_searcher(plain.get());
    auto answers_as_astar = [&](cairns_searcher *searcher, const std::string &when) {
        for (size_t i = 0; i < queries.size(); i += 5) {
            double x1 = -1, x2 = -1;
            cairns_status s1 = cairns_search_cost(searcher, queries[i].first.x, queries[i].first.y,
                                                  queries[i].second.x, queries[i].second.y, &x1);
            cairns_status s2 = cairns_search_cost(fresh.get(), queries[i].first.x, queries[i].first.y,
                                                  queries[i].second.x, queries[i].second.y, &x2);
            expect(s1 == s2 && (x1 == x2 || std::fabs(x1 - x2) < 1e-9),
                   when + ", query " + std::to_string(i) + " answers as A*");
        }
    };
    answers_as_astar(s.get(), "after the edit");
    answers_as_astar(s_later.get(), "after the edit answered later");
    answers_as_astar(s_bounded.get(), "after the edit, goal bounding filling in");
    filler.join();
    check(fill_status, "fill boxes");
    expect(filled == 1, "every jump point has its boxes again");
    answers_as_astar(s_bounded.get(), "after the edit, goal bounding filled in");
    int done = 0, frames = 0;
    while (!done && frames < 100000) {
        check(cairns_engine_repair_step(later.get(), 2000, &done), "repair step");
        frames++;
    }
    expect(done == 1, "the repair ends");
    answers_as_astar(s_later.get(), "after " + std::to_string(frames) + " repair steps");

    std::printf("%zu queries on 2 threads, %zu tables saved (%zu bytes), %d failures\n", queries.size(),
                tables, tables ? lens[0] : 0, failures);
    return failures == 0 ? 0 : 1;
} catch (const std::exception &e) {
    std::fprintf(stderr, "engine: %s\n", e.what());
    return 2;
}
