/* malformed: every entry point of the cairns C API fed bad input (malformed
 * maps, NULL and wrong handles, too-small buffers, wrong lengths, bad specs
 * and tables, points off the map): each must answer with the expected error
 * code and a message, never crash or leak. Run under valgrind by .ci/run.
 * Exits 1 when an answer is not the expected one. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cairns.h"

static int failures = 0;

static void expect(const char *what, cairns_status got, cairns_status want) {
    const char *message = cairns_last_error();
    if (got != want) {
        fprintf(stderr, "FAILED %s: %s, expected %s (%s)\n", what, cairns_status_name(got),
                cairns_status_name(want), message);
        failures++;
    } else if (want < 0 && message[0] == '\0') {
        fprintf(stderr, "FAILED %s: %s without a message\n", what, cairns_status_name(got));
        failures++;
    } else if (want < 0) {
        printf("%-44s %-28s %s\n", what, cairns_status_name(got), message);
    }
}

static cairns_status parse(const char *text, cairns_map **out) {
    return cairns_map_parse(text, strlen(text), CAIRNS_MOVE_OCTILE, out);
}

int main(void) {
    cairns_map *map = NULL, *bad = NULL;
    cairns_engine *engine = NULL, *bad_engine = NULL;
    cairns_searcher *searcher = NULL, *bad_searcher = NULL;

    /* Malformed maps: each names its line. */
    const char *texts[][2] = {
        {"", "an empty text"},
        {"type octile\nheight 2\nwidth 2\nmap\n..\n", "a missing row"},
        {"type octile\nheight 1\nwidth 3\nmap\n..\n", "a short row"},
        {"type octile\nheight 1\nwidth 2\nmap\n.Q\n", "an unknown tile"},
        {"type octile\nheight x\nwidth 2\nmap\n..\n", "a bad height"},
        {"type octile\nheight 99999\nwidth 99999\nmap\n", "a huge size"},
        {"type octile\nwidth 2\nmap\n..\n", "no height"},
        {"\xff\xfe\x00garbage", "binary bytes"},
    };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        expect(texts[i][1], parse(texts[i][0], &bad), CAIRNS_ERR_PARSE);
        if (bad != NULL) { fprintf(stderr, "FAILED %s: a map was made\n", texts[i][1]); failures++; }
    }
    expect("a text of 3 bytes with a NUL inside",
           cairns_map_parse("\0\0\0", 3, CAIRNS_MOVE_OCTILE, &bad), CAIRNS_ERR_PARSE);
    expect("a file that does not exist", cairns_map_read("/nonexistent/x.map", 8, &bad), CAIRNS_ERR_IO);
    expect("a NULL path", cairns_map_read(NULL, 8, &bad), CAIRNS_ERR_NULL);
    expect("a NULL text with a length", cairns_map_parse(NULL, 5, 8, &bad), CAIRNS_ERR_NULL);
    expect("a NULL out-pointer", parse("type octile\nheight 1\nwidth 1\nmap\n.\n", NULL), CAIRNS_ERR_NULL);

    /* Arrays of the wrong length, bad costs, bad movements. */
    uint8_t walls[12] = {0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0};
    float costs[12] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
    expect("walls: 11 values for 4x3", cairns_map_from_walls(walls, 11, 4, 3, 8, &bad), CAIRNS_ERR_ARGUMENT);
    expect("walls: a 0x3 grid", cairns_map_from_walls(walls, 0, 0, 3, 8, &bad), CAIRNS_ERR_ARGUMENT);
    expect("walls: 2^32 x 2^32 cells", cairns_map_from_walls(walls, 12, 0xffffffffu, 0xffffffffu, 8, &bad),
           CAIRNS_ERR_ARGUMENT);
    expect("walls: movement 7", cairns_map_from_walls(walls, 12, 4, 3, 7, &bad), CAIRNS_ERR_ARGUMENT);
    expect("walls: movement 11", cairns_map_from_walls(walls, 12, 4, 3, 11, &bad), CAIRNS_ERR_ARGUMENT);
    costs[3] = NAN;
    expect("costs: NaN", cairns_map_from_costs(costs, 12, 4, 3, 4, &bad), CAIRNS_ERR_ARGUMENT);
    costs[3] = -1;
    expect("costs: negative", cairns_map_from_costs(costs, 12, 4, 3, 4, &bad), CAIRNS_ERR_ARGUMENT);
    costs[3] = 0;
    expect("costs: zero", cairns_map_from_costs(costs, 12, 4, 3, 4, &bad), CAIRNS_ERR_ARGUMENT);
    costs[3] = 2;
    expect("costs: 13 values for 4x3", cairns_map_from_costs(costs, 13, 4, 3, 4, &bad), CAIRNS_ERR_ARGUMENT);

    /* A good map, engine and searcher to misuse. */
    expect("a good map", cairns_map_from_walls(walls, 12, 4, 3, CAIRNS_MOVE_OCTILE, &map), CAIRNS_OK);
    expect("spec: unknown", cairns_engine_new(map, "warp-drive", &bad_engine), CAIRNS_ERR_SPEC);
    expect("spec: empty", cairns_engine_new(map, "", &bad_engine), CAIRNS_ERR_SPEC);
    expect("spec: dh:99", cairns_engine_new(map, "astar/dh:99", &bad_engine), CAIRNS_ERR_SPEC);
    expect("spec: dh:20 on 10 cells", cairns_engine_new(map, "astar/dh:20", &bad_engine), CAIRNS_ERR_TABLE);
    expect("spec: NULL", cairns_engine_new(map, NULL, &bad_engine), CAIRNS_ERR_NULL);
    expect("engine: NULL map", cairns_engine_new(NULL, "astar", &bad_engine), CAIRNS_ERR_NULL);
    expect("engine: a good one", cairns_engine_new(map, "jps+/dh:2", &engine), CAIRNS_OK);
    expect("searcher: a good one", cairns_searcher_new(engine, &searcher), CAIRNS_OK);

    /* Handles of the wrong kind. */
    expect("engine from a searcher handle", cairns_engine_new((const cairns_map *)searcher, "astar", &bad_engine),
           CAIRNS_ERR_HANDLE);
    expect("searcher of a map handle", cairns_searcher_new((const cairns_engine *)map, &bad_searcher),
           CAIRNS_ERR_HANDLE);
    double cost = 0;
    expect("search with an engine handle",
           cairns_search_cost((cairns_searcher *)engine, 0, 0, 3, 2, &cost), CAIRNS_ERR_HANDLE);
    expect("free a map as an engine", cairns_engine_free((cairns_engine *)map), CAIRNS_ERR_HANDLE);
    expect("search with NULL", cairns_search_cost(NULL, 0, 0, 3, 2, &cost), CAIRNS_ERR_NULL);
    expect("search into a NULL cost", cairns_search_cost(searcher, 0, 0, 3, 2, NULL), CAIRNS_ERR_NULL);
    if (cairns_map_width(NULL) != 0 || cairns_engine_table_count((cairns_engine *)map) != 0) {
        fprintf(stderr, "FAILED: getters on bad handles\n");
        failures++;
    }

    /* Points off the map and on walls. */
    expect("start off the map", cairns_search_cost(searcher, -1, 0, 3, 2, &cost), CAIRNS_ERR_ENDPOINT);
    expect("goal off the map", cairns_search_cost(searcher, 0, 0, 4, 0, &cost), CAIRNS_ERR_ENDPOINT);
    expect("goal on a wall", cairns_search_cost(searcher, 0, 0, 1, 1, &cost), CAIRNS_ERR_ENDPOINT);
    expect("a good query", cairns_search_cost(searcher, 0, 0, 3, 2, &cost), CAIRNS_OK);

    /* Buffers too small, and lengths that lie. */
    int32_t xy[4];
    size_t len = 0;
    expect("a path into 2 points", cairns_search_path(searcher, 0, 0, 3, 2, xy, 2, &len, &cost),
           CAIRNS_ERR_BUFFER_TOO_SMALL);
    expect("a path into NULL with capacity 5", cairns_search_path(searcher, 0, 0, 3, 2, NULL, 5, &len, &cost),
           CAIRNS_ERR_NULL);
    expect("a path with a NULL len", cairns_search_path(searcher, 0, 0, 3, 2, xy, 2, NULL, &cost),
           CAIRNS_ERR_NULL);
    expect("a capacity larger than memory",
           cairns_searcher_last_path(searcher, xy, (size_t)-1, &len), CAIRNS_ERR_ARGUMENT);
    char spec[4];
    expect("the spec into 4 bytes", cairns_engine_spec(engine, spec, sizeof spec, &len),
           CAIRNS_ERR_BUFFER_TOO_SMALL);
    expect("table 9 of 2", cairns_engine_save_table(engine, 9, NULL, 0, &len), CAIRNS_ERR_ARGUMENT);
    double distance[11];
    int32_t goal[2] = {3, 2}, off[2] = {9, 9};
    expect("a field of 11 cells for 12", cairns_engine_field(engine, goal, 1, distance, NULL, 11),
           CAIRNS_ERR_ARGUMENT);
    expect("a field to a goal off the map", cairns_engine_field(engine, off, 1, NULL, NULL, 12),
           CAIRNS_ERR_ENDPOINT);
    expect("nearest of NULL goals", cairns_search_nearest(searcher, goal, 1, NULL, 2, xy, 2, &len, &cost),
           CAIRNS_ERR_NULL);
    cairns_progress progress;
    expect("a budget on jps+", cairns_search_budgeted(searcher, goal, 1, goal, 1, 5, INFINITY, &progress),
           CAIRNS_ERR_UNSUPPORTED);
    expect("an edit off the map", cairns_engine_set_walls(engine, off, walls, 1), CAIRNS_ERR_ENDPOINT);
    uint32_t label;
    expect("the component of a wall", cairns_engine_component(engine, 1, 1, &label), CAIRNS_ERR_ENDPOINT);

    /* Saved tables: garbage, cut short, for another map. */
    const uint8_t garbage[16] = "not a table!!!!";
    const uint8_t *tables[1] = {garbage};
    size_t lens[1] = {sizeof garbage};
    expect("a table of garbage", cairns_engine_new_with_tables(map, "jps+", tables, lens, 1, &bad_engine),
           CAIRNS_ERR_TABLE);
    size_t need = 0;
    cairns_engine_save_table(engine, 0, NULL, 0, &need);
    uint8_t saved[1 << 16];
    if (need > sizeof saved) need = sizeof saved;
    cairns_engine_save_table(engine, 0, saved, need, &need);
    tables[0] = saved;
    lens[0] = need - 1;
    expect("a table cut by a byte", cairns_engine_new_with_tables(map, "jps+/dh:2", tables, lens, 1, &bad_engine),
           CAIRNS_ERR_TABLE);
    saved[need / 2] ^= 0x55;
    lens[0] = need;
    expect("a table with a flipped byte",
           cairns_engine_new_with_tables(map, "jps+/dh:2", tables, lens, 1, &bad_engine), CAIRNS_ERR_TABLE);
    expect("NULL tables with a count", cairns_engine_new_with_tables(map, "jps+", NULL, lens, 1, &bad_engine),
           CAIRNS_ERR_NULL);

    if (bad != NULL || bad_engine != NULL || bad_searcher != NULL) {
        fprintf(stderr, "FAILED: a handle was made from bad input\n");
        failures++;
    }
    expect("free NULL", cairns_map_free(NULL), CAIRNS_OK);
    cairns_searcher_free(searcher);
    cairns_engine_free(engine);
    cairns_map_free(map);
    printf("%d failures\n", failures);
    return failures == 0 ? 0 : 1;
}
