// P/Invoke declarations of the cairns C API (include/cairns.h) for C#:
// Unity (Mono or IL2CPP) and Godot's .NET. Not compiled in CI; keep in step
// with the header by hand (docs/engines.md). The native library is
// libcairns_capi.so (Linux), libcairns_capi.dylib (macOS) or
// cairns_capi.dll (Windows), from `cargo build -p cairns-capi --release`.
//
// Handles are IntPtr: free each with its _free function (the SafeHandle
// classes below do that). Points are (x, y) pairs of ints; arrays over the
// grid are indexed by cell, y * width + x.
using System;
using System.Runtime.InteropServices;

namespace Cairns
{
    public enum Status : int
    {
        Ok = 0,
        NoPath = 1,
        Paused = 2,
        ErrNull = -1,
        ErrHandle = -2,
        ErrArgument = -3,
        ErrParse = -4,
        ErrIo = -5,
        ErrSpec = -6,
        ErrEndpoint = -7,
        ErrUnsupported = -8,
        ErrTable = -9,
        ErrBufferTooSmall = -10,
        ErrPanic = -11,
    }

    public enum Movement : int
    {
        Four = 4,
        Octile = 8,       // no corner cutting: the Moving AI rule
        OctileCut = 9,    // corner cutting: a diagonal past one wall, never between two
        OctileSqueeze = 10, // a diagonal even between two walls that touch at a corner
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct Progress
    {
        public int X, Y;   // the goal reached, or the best node so far when paused
        public double Cost, H;
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct Stats
    {
        public ulong Expanded, Generated, Updated, Reopened, MaxOpen;
    }

    public static class Native
    {
        const string Lib = "cairns_capi";

        [DllImport(Lib)] public static extern IntPtr cairns_last_error();
        [DllImport(Lib)] public static extern IntPtr cairns_status_name(int status);
        [DllImport(Lib)] public static extern IntPtr cairns_version();
        [DllImport(Lib)] public static extern int cairns_lengths_match(double computed, double printed, uint decimals);

        [DllImport(Lib)] public static extern Status cairns_map_from_walls(byte[] cells, UIntPtr len, uint width, uint height, int movement, out IntPtr map);
        [DllImport(Lib)] public static extern Status cairns_map_from_costs(float[] costs, UIntPtr len, uint width, uint height, int movement, out IntPtr map);
        [DllImport(Lib)] public static extern Status cairns_map_parse(byte[] text, UIntPtr len, int movement, out IntPtr map);
        [DllImport(Lib)] public static extern Status cairns_map_read([MarshalAs(UnmanagedType.LPUTF8Str)] string path, int movement, out IntPtr map);
        [DllImport(Lib)] public static extern Status cairns_map_with_size(IntPtr map, uint size, out IntPtr sized);
        [DllImport(Lib)] public static extern uint cairns_map_width(IntPtr map);
        [DllImport(Lib)] public static extern uint cairns_map_height(IntPtr map);
        [DllImport(Lib)] public static extern Status cairns_map_free(IntPtr map);

        [DllImport(Lib)] public static extern Status cairns_engine_new(IntPtr map, [MarshalAs(UnmanagedType.LPUTF8Str)] string spec, out IntPtr engine);
        [DllImport(Lib)] public static extern Status cairns_engine_new_with_tables(IntPtr map, [MarshalAs(UnmanagedType.LPUTF8Str)] string spec, IntPtr[] tables, UIntPtr[] lens, UIntPtr count, out IntPtr engine);
        [DllImport(Lib)] public static extern Status cairns_engine_free(IntPtr engine);
        [DllImport(Lib)] public static extern Status cairns_engine_spec(IntPtr engine, byte[] buf, UIntPtr capacity, out UIntPtr len);
        [DllImport(Lib)] public static extern UIntPtr cairns_engine_table_count(IntPtr engine);
        [DllImport(Lib)] public static extern Status cairns_engine_save_table(IntPtr engine, UIntPtr index, byte[] buf, UIntPtr capacity, out UIntPtr len);
        [DllImport(Lib)] public static extern Status cairns_engine_component(IntPtr engine, int x, int y, out uint label);
        [DllImport(Lib)] public static extern Status cairns_engine_set_walls(IntPtr engine, int[] xy, byte[] walls, UIntPtr count);
        [DllImport(Lib)] public static extern Status cairns_engine_set_walls_later(IntPtr engine, int[] xy, byte[] walls, UIntPtr count);
        [DllImport(Lib)] public static extern Status cairns_engine_repair_step(IntPtr engine, UIntPtr budget, out int done);
        [DllImport(Lib)] public static extern Status cairns_engine_field(IntPtr engine, int[] goals, UIntPtr count, double[] distance, int[] next, UIntPtr cells);

        [DllImport(Lib)] public static extern Status cairns_searcher_new(IntPtr engine, out IntPtr searcher);
        [DllImport(Lib)] public static extern Status cairns_searcher_free(IntPtr searcher);
        [DllImport(Lib)] public static extern Status cairns_search_cost(IntPtr searcher, int sx, int sy, int gx, int gy, out double cost);
        [DllImport(Lib)] public static extern Status cairns_search_path(IntPtr searcher, int sx, int sy, int gx, int gy, int[] xy, UIntPtr capacity, out UIntPtr len, out double cost);
        [DllImport(Lib)] public static extern Status cairns_searcher_last_path(IntPtr searcher, int[] xy, UIntPtr capacity, out UIntPtr len);
        [DllImport(Lib)] public static extern Status cairns_search_nearest(IntPtr searcher, int[] sources, UIntPtr sourceCount, int[] goals, UIntPtr goalCount, int[] xy, UIntPtr capacity, out UIntPtr len, out double cost);
        [DllImport(Lib)] public static extern Status cairns_search_budgeted(IntPtr searcher, int[] sources, UIntPtr sourceCount, int[] goals, UIntPtr goalCount, ulong maxExpansions, double maxCost, out Progress progress);
        [DllImport(Lib)] public static extern Status cairns_searcher_stats(IntPtr searcher, out Stats stats);

        /// The calling thread's last error message.
        public static string LastError() => Marshal.PtrToStringUTF8(cairns_last_error()) ?? "";

        /// Throws on an error status, with the library's message.
        public static Status Check(Status status)
        {
            if ((int)status < 0) throw new InvalidOperationException($"{status}: {LastError()}");
            return status;
        }
    }

    /// A searcher: one per thread. A path grows its buffer to the length
    /// the library asks for.
    public sealed class Searcher : IDisposable
    {
        IntPtr handle;
        int[] buffer = new int[256];

        public Searcher(IntPtr engine) => Native.Check(Native.cairns_searcher_new(engine, out handle));

        /// The path from (sx, sy) to (gx, gy) as x, y pairs, or null when there is none.
        public int[] Path(int sx, int sy, int gx, int gy, out double cost)
        {
            var status = Native.cairns_search_path(handle, sx, sy, gx, gy, buffer, (UIntPtr)(buffer.Length / 2), out var len, out cost);
            if (status == Status.ErrBufferTooSmall)
            {
                buffer = new int[2 * (int)len];
                status = Native.cairns_searcher_last_path(handle, buffer, len, out len);
            }
            if (Native.Check(status) == Status.NoPath) return null;
            var points = new int[2 * (int)len];
            Array.Copy(buffer, points, points.Length);
            return points;
        }

        public void Dispose()
        {
            if (handle != IntPtr.Zero) Native.cairns_searcher_free(handle);
            handle = IntPtr.Zero;
        }
    }
}
