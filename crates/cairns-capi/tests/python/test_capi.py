"""The cairns C API through ctypes: malformed maps, NULL and wrong handles,
too-small buffers, wrong lengths and random bytes get error codes and
messages, never a crash (a crash kills this process and fails the run).

    python3 -m unittest crates/cairns-capi/tests/python/test_capi.py

The library is target/release/libcairns_capi.so (build it with
`cargo build -p cairns-capi --release`), or the path in CAIRNS_CAPI_LIB.
"""

import ctypes as C
import math
import os
import random
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[4]
LIB = os.environ.get("CAIRNS_CAPI_LIB", str(ROOT / "target/release/libcairns_capi.so"))

OK, NO_PATH, PAUSED = 0, 1, 2
ERR_NULL, ERR_HANDLE, ERR_ARGUMENT, ERR_PARSE, ERR_IO = -1, -2, -3, -4, -5
ERR_SPEC, ERR_ENDPOINT, ERR_UNSUPPORTED, ERR_TABLE, ERR_BUFFER = -6, -7, -8, -9, -10
FOUR, OCTILE, OCTILE_CUT = 4, 8, 9

P, I32, U32, SZ, F64 = C.c_void_p, C.c_int32, C.c_uint32, C.c_size_t, C.c_double
PI32, PSZ, PF64, PU8 = C.POINTER(I32), C.POINTER(SZ), C.POINTER(F64), C.POINTER(C.c_uint8)


class Progress(C.Structure):
    _fields_ = [("x", I32), ("y", I32), ("cost", F64), ("h", F64)]


def load():
    lib = C.CDLL(LIB)
    sig = {
        "cairns_last_error": (C.c_char_p, []),
        "cairns_map_parse": (I32, [C.c_char_p, SZ, I32, C.POINTER(P)]),
        "cairns_map_read": (I32, [C.c_char_p, I32, C.POINTER(P)]),
        "cairns_map_from_walls": (I32, [C.c_char_p, SZ, U32, U32, I32, C.POINTER(P)]),
        "cairns_map_from_costs": (I32, [C.POINTER(C.c_float), SZ, U32, U32, I32, C.POINTER(P)]),
        "cairns_map_width": (U32, [P]),
        "cairns_map_free": (I32, [P]),
        "cairns_engine_new": (I32, [P, C.c_char_p, C.POINTER(P)]),
        "cairns_engine_new_with_tables": (I32, [P, C.c_char_p, C.POINTER(C.c_char_p), PSZ, SZ, C.POINTER(P)]),
        "cairns_engine_free": (I32, [P]),
        "cairns_engine_spec": (I32, [P, C.c_char_p, SZ, PSZ]),
        "cairns_engine_table_count": (SZ, [P]),
        "cairns_engine_save_table": (I32, [P, SZ, C.c_char_p, SZ, PSZ]),
        "cairns_engine_set_walls": (I32, [P, PI32, C.c_char_p, SZ]),
        "cairns_engine_field": (I32, [P, PI32, SZ, PF64, PI32, SZ]),
        "cairns_searcher_new": (I32, [P, C.POINTER(P)]),
        "cairns_searcher_free": (I32, [P]),
        "cairns_search_cost": (I32, [P, I32, I32, I32, I32, PF64]),
        "cairns_search_path": (I32, [P, I32, I32, I32, I32, PI32, SZ, PSZ, PF64]),
        "cairns_searcher_last_path": (I32, [P, PI32, SZ, PSZ]),
        "cairns_search_nearest": (I32, [P, PI32, SZ, PI32, SZ, PI32, SZ, PSZ, PF64]),
        "cairns_search_budgeted": (I32, [P, PI32, SZ, PI32, SZ, C.c_uint64, F64, C.POINTER(Progress)]),
    }
    for name, (restype, argtypes) in sig.items():
        f = getattr(lib, name)
        f.restype, f.argtypes = restype, argtypes
    return lib


MAP = b"type octile\nheight 3\nwidth 9\nmap\n....@....\n.@@.@.@@.\n.........\n"


def points(*xy):
    return (I32 * len(xy))(*xy)


class CApi(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not Path(LIB).exists():
            raise FileNotFoundError(f"{LIB} is missing: cargo build -p cairns-capi --release")
        cls.lib = load()

    def error(self):
        return self.lib.cairns_last_error().decode()

    def parse(self, text, movement=OCTILE):
        out = P()
        status = self.lib.cairns_map_parse(text, len(text), movement, C.byref(out))
        if status == OK:
            self.addCleanup(self.lib.cairns_map_free, out)
        else:
            self.assertIsNone(out.value, "no map is made from bad input")
        return status, out

    def engine(self, spec=b"astar", text=MAP):
        status, m = self.parse(text)
        self.assertEqual(status, OK)
        e = P()
        self.assertEqual(self.lib.cairns_engine_new(m, spec, C.byref(e)), OK, self.error())
        self.addCleanup(self.lib.cairns_engine_free, e)
        s = P()
        self.assertEqual(self.lib.cairns_searcher_new(e, C.byref(s)), OK)
        self.addCleanup(self.lib.cairns_searcher_free, s)
        return m, e, s

    def test_malformed_maps_name_their_line(self):
        cases = {
            b"type octile\nheight 1\nwidth 2\nmap\n.Q\n": "line 5: unknown tile 'Q' at (1, 0)",
            b"type octile\nheight 2\nwidth 2\nmap\n..\n": "line",
            b"type octile\nheight 1\nwidth 3\nmap\n..\n": "line 5",
            b"": "empty",
        }
        for text, message in cases.items():
            status, _ = self.parse(text)
            self.assertEqual(status, ERR_PARSE, text)
            self.assertIn(message, self.error())
        out = P()
        self.assertEqual(self.lib.cairns_map_read(b"/nonexistent/x.map", OCTILE, C.byref(out)), ERR_IO)
        self.assertIn("/nonexistent/x.map", self.error())

    def test_random_bytes_never_crash(self):
        rng = random.Random(35)
        alphabet = b".@TGSOW\n \r\t0123456789typeoctilheghwdmap"
        for _ in range(300):
            n = rng.randrange(0, 120)
            text = bytes(rng.choice(alphabet) for _ in range(n))
            if rng.random() < 0.5:
                text = b"type octile\nheight %d\nwidth %d\nmap\n" % (rng.randrange(-1, 5), rng.randrange(-1, 5)) + text
            status, _ = self.parse(text)
            self.assertIn(status, (OK, ERR_PARSE), (text, self.error()))
        for _ in range(100):
            spec = bytes(rng.choice(b"astrjps+/dh:0123456789@.-kepbinay") for _ in range(rng.randrange(0, 20)))
            status, m = self.parse(MAP)
            e = P()
            status = self.lib.cairns_engine_new(m, spec, C.byref(e))
            self.assertIn(status, (OK, ERR_SPEC, ERR_TABLE), (spec, self.error()))
            self.lib.cairns_engine_free(e)

    def test_null_and_wrong_handles(self):
        m, e, s = self.engine()
        cost = F64()
        self.assertEqual(self.lib.cairns_search_cost(None, 0, 0, 8, 0, C.byref(cost)), ERR_NULL)
        self.assertEqual(self.lib.cairns_search_cost(s, 0, 0, 8, 0, None), ERR_NULL)
        self.assertEqual(self.lib.cairns_search_cost(m, 0, 0, 8, 0, C.byref(cost)), ERR_HANDLE)
        self.assertIn("not a cairns_searcher", self.error())
        self.assertEqual(self.lib.cairns_search_cost(e, 0, 0, 8, 0, C.byref(cost)), ERR_HANDLE)
        out = P()
        self.assertEqual(self.lib.cairns_searcher_new(m, C.byref(out)), ERR_HANDLE)
        self.assertEqual(self.lib.cairns_engine_new(s, b"astar", C.byref(out)), ERR_HANDLE)
        self.assertEqual(self.lib.cairns_engine_free(m), ERR_HANDLE, "a map is not freed as an engine")
        self.assertEqual(self.lib.cairns_map_width(e), 0)
        self.assertEqual(self.lib.cairns_map_width(m), 9)
        self.assertEqual(self.lib.cairns_engine_new(m, None, C.byref(out)), ERR_NULL)
        self.assertEqual(self.lib.cairns_map_free(None), OK)

    def test_too_small_buffers_say_what_they_need(self):
        _, e, s = self.engine()
        length, cost = SZ(), F64()
        small = (I32 * 4)()
        status = self.lib.cairns_search_path(s, 0, 0, 8, 0, small, 2, C.byref(length), C.byref(cost))
        self.assertEqual(status, ERR_BUFFER)
        self.assertEqual(cost.value, 12.0)
        n = length.value
        self.assertGreater(n, 2)
        full = (I32 * (2 * n))()
        self.assertEqual(self.lib.cairns_searcher_last_path(s, full, n, C.byref(length)), OK)
        self.assertEqual((full[0], full[1], full[2 * n - 2], full[2 * n - 1]), (0, 0, 8, 0))
        spec = C.create_string_buffer(3)
        self.assertEqual(self.lib.cairns_engine_spec(e, spec, 3, C.byref(length)), ERR_BUFFER)
        spec = C.create_string_buffer(length.value + 1)
        self.assertEqual(self.lib.cairns_engine_spec(e, spec, length.value + 1, C.byref(length)), OK)
        self.assertEqual(spec.value, b"astar/octile/quaternary-heap")
        self.assertEqual(self.lib.cairns_search_path(s, 0, 0, 8, 0, None, 5, C.byref(length), C.byref(cost)), ERR_NULL)

    def test_wrong_lengths(self):
        out = P()
        walls = bytes(12)
        self.assertEqual(self.lib.cairns_map_from_walls(walls, 11, 4, 3, OCTILE, C.byref(out)), ERR_ARGUMENT)
        self.assertEqual(self.error(), "cells holds 11 values, but a 4x3 grid has 12 cells")
        self.assertEqual(self.lib.cairns_map_from_walls(walls, 12, 4, 3, OCTILE_CUT, C.byref(out)), OK)
        self.lib.cairns_map_free(out)
        costs = (C.c_float * 12)(*([1.0] * 11 + [float("nan")]))
        self.assertEqual(self.lib.cairns_map_from_costs(costs, 12, 4, 3, FOUR, C.byref(out)), ERR_ARGUMENT)
        self.assertIn("cell (3, 2)", self.error())
        _, e, s = self.engine()
        distance = (F64 * 26)()
        self.assertEqual(self.lib.cairns_engine_field(e, points(8, 0), 1, distance, None, 26), ERR_ARGUMENT)
        distance = (F64 * 27)()
        self.assertEqual(self.lib.cairns_engine_field(e, points(8, 0), 1, distance, None, 27), OK)
        self.assertEqual(distance[2 * 9 + 8], 2.0)
        self.assertTrue(math.isinf(distance[4]))
        progress = Progress()
        status = self.lib.cairns_search_budgeted(s, points(0, 0), 1, None, 1, 0, math.inf, C.byref(progress))
        self.assertEqual(status, ERR_NULL)
        status = self.lib.cairns_search_budgeted(s, points(0, 0), 1, points(8, 0), 1, 3, math.inf, C.byref(progress))
        self.assertEqual(status, PAUSED)
        self.assertEqual(self.lib.cairns_engine_set_walls(e, points(9, 0), b"\x01", 1), ERR_ENDPOINT)

    def test_points_off_the_map_and_on_walls(self):
        _, _, s = self.engine()
        cost = F64()
        for start, goal in [((-1, 0), (8, 0)), ((0, 0), (9, 0)), ((0, 0), (0, 3)), ((0, 0), (4, 0))]:
            status = self.lib.cairns_search_cost(s, *start, *goal, C.byref(cost))
            self.assertEqual(status, ERR_ENDPOINT, (start, goal))
        self.assertEqual(self.error(), "goal (4, 0) is on a blocked tile '@' in the map")

    def test_bad_tables_are_refused(self):
        m, e, _ = self.engine(b"jps+/dh:2")
        length = SZ()
        self.assertEqual(self.lib.cairns_engine_save_table(e, 0, None, 0, C.byref(length)), ERR_BUFFER)
        saved = C.create_string_buffer(length.value)
        self.assertEqual(self.lib.cairns_engine_save_table(e, 0, saved, length.value, C.byref(length)), OK)
        data = saved.raw
        rng = random.Random(7)
        for trial in range(60):
            bad = bytearray(data)
            if trial % 3 == 0:
                bad = bad[: rng.randrange(len(bad))]
            elif trial % 3 == 1:
                bad[rng.randrange(len(bad))] ^= 1 + rng.randrange(255)
            else:
                bad = bytearray(rng.randbytes(rng.randrange(64)))
            tables = (C.c_char_p * 1)(bytes(bad))
            lens = (SZ * 1)(len(bad))
            out = P()
            status = self.lib.cairns_engine_new_with_tables(m, b"jps+/dh:2", tables, lens, 1, C.byref(out))
            self.assertEqual(status, ERR_TABLE, (trial, self.error()))
            self.assertTrue(self.error().startswith("tables[0]: cannot load the table"))
        tables = (C.c_char_p * 1)(data)
        lens = (SZ * 1)(len(data))
        out = P()
        self.assertEqual(self.lib.cairns_engine_new_with_tables(m, b"jps+/dh:2", tables, lens, 1, C.byref(out)), OK)
        self.lib.cairns_engine_free(out)


if __name__ == "__main__":
    unittest.main()
