/* scen: answers a Moving AI scenario file through the cairns C API and
 * checks every cost against the published optimal length.
 *
 *   scen MAP SCEN [SPEC]      (SPEC: any search spec, default "jps")
 *
 * Prints "N queries, M mismatches" and exits 0 when M is 0, 1 on a
 * mismatch, 2 on an error (the library's message on stderr).
 *
 * Build (docs/engines.md):
 *   cargo build -p cairns-capi --release
 *   gcc -std=c11 -Wall -Wextra -O2 -I crates/cairns-capi/include \
 *       crates/cairns-capi/examples/scen.c -L target/release -lcairns_capi \
 *       -Wl,-rpath,$PWD/target/release -o target/scen
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cairns.h"

static int fail(const char *what) {
    fprintf(stderr, "scen: %s: %s\n", what, cairns_last_error());
    return 2;
}

/* The number of decimals printed in a length such as "3.82843". */
static unsigned decimals_of(const char *text) {
    const char *dot = strchr(text, '.');
    unsigned n = 0;
    if (dot == NULL) return 0;
    for (const char *p = dot + 1; *p >= '0' && *p <= '9'; p++) n++;
    return n;
}

int main(int argc, char **argv) {
    if (argc < 3 || argc > 4) {
        fprintf(stderr, "usage: scen MAP SCEN [SPEC]\n");
        return 2;
    }
    const char *spec = argc == 4 ? argv[3] : "jps";
    cairns_map *map = NULL;
    cairns_engine *engine = NULL;
    cairns_searcher *searcher = NULL;
    FILE *scen = NULL;
    int status = 2;

    if (cairns_map_read(argv[1], CAIRNS_MOVE_OCTILE, &map) != CAIRNS_OK) {
        status = fail("cannot load the map");
        goto done;
    }
    if (cairns_engine_new(map, spec, &engine) != CAIRNS_OK) {
        status = fail("cannot prepare the search");
        goto done;
    }
    if (cairns_searcher_new(engine, &searcher) != CAIRNS_OK) {
        status = fail("cannot make a searcher");
        goto done;
    }
    scen = fopen(argv[2], "r");
    if (scen == NULL) {
        perror(argv[2]);
        goto done;
    }

    char line[4096];
    unsigned long queries = 0, mismatches = 0, number = 0;
    unsigned width = cairns_map_width(map), height = cairns_map_height(map);
    while (fgets(line, sizeof line, scen) != NULL) {
        number++;
        if (strncmp(line, "version", 7) == 0) continue;
        const char *sep = " \t\r\n";
        char *field[9];
        int n = 0;
        for (char *tok = strtok(line, sep); tok != NULL && n < 9; tok = strtok(NULL, sep))
            field[n++] = tok;
        if (n == 0) continue;
        if (n < 9) {
            fprintf(stderr, "%s: line %lu: expected 9 fields, found %d\n", argv[2], number, n);
            goto done;
        }
        unsigned w = (unsigned)strtoul(field[2], NULL, 10), h = (unsigned)strtoul(field[3], NULL, 10);
        if (w != width || h != height) {
            fprintf(stderr, "%s: line %lu: the scenario is for a %ux%u map, the map is %ux%u\n",
                    argv[2], number, w, h, width, height);
            goto done;
        }
        int sx = atoi(field[4]), sy = atoi(field[5]), gx = atoi(field[6]), gy = atoi(field[7]);
        double optimal = strtod(field[8], NULL);
        double cost = 0.0;
        cairns_status found = cairns_search_cost(searcher, sx, sy, gx, gy, &cost);
        queries++;
        if (found < 0) {
            fprintf(stderr, "%s: line %lu: %s\n", argv[2], number, cairns_last_error());
            mismatches++;
        } else if (!cairns_lengths_match(cost, optimal, decimals_of(field[8]))) {
            fprintf(stderr, "%s: line %lu: mismatch from (%d, %d) to (%d, %d): %.8f, published %s\n",
                    argv[2], number, sx, sy, gx, gy, cost, field[8]);
            mismatches++;
        }
    }
    printf("%lu queries, %lu mismatches\n", queries, mismatches);
    status = mismatches == 0 ? 0 : 1;

done:
    if (scen != NULL) fclose(scen);
    cairns_searcher_free(searcher);
    cairns_engine_free(engine);
    cairns_map_free(map);
    return status;
}
