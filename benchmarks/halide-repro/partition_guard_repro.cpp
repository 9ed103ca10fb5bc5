// Standalone reproducer (libHalide only, no Beamscope code) of the Halide 21 loop-partitioning
// miscompile behind lens_blur's greedy#2 crash (issue 12; docs/reliability.md, "The crash").
//
// f is computed at root with its y loop split by 64 with TailStrategy::GuardWithIf and the tile
// split again by 4 into a serial loop ys that is NOT unrolled: lowering puts
// `if (likely(f.s0.y <= f.s0.y.max))` inside ys. f is read by its consumer out, by a clamped
// 2x-downsampled pyramid level (down, down2) and by a clamped row gather (g), so f's required
// y range stays a symbolic min/max of several consumers' bounds (in the 3-D program this was
// reduced from, leaving out down2 or g made the bug go away). Halide's PartitionLoops then "solves"
// the guard to true over the whole yo loop (HL_DEBUG_CODEGEN=3: "Partitioning loop over f$1.s0.y.yo
// ... condition: (uint1)1, min: neg_inf, max: pos_inf") and emits no epilogue: the single, partial
// tile writes all its 64 rows. f's allocation holds 50 rows of 66 bytes (3,300), so 14 rows (924
// bytes) are written past its end. Whether the guard encloses the x loop does not matter
// (reorder(ys, x, yt, yo) fails alike); whether ys is unrolled does. The output values are still
// right, so only the overrun shows it (in lens_blur it corrupted the heap).
//
// The allocations come from a custom malloc that puts 4 KiB of canary bytes after each one;
// free reports how many bytes past the end were overwritten. The output is also compared with
// the same algorithm unscheduled (every Func inlined). The program runs the schedule twice:
// as above, then with ys unrolled: PartitionLoops then solves each copy's guard correctly and
// keeps a guarded epilogue (Beamscope's workaround, core/codegen/ScheduleCalls.cpp).
//
// Build and run (against the Halide wheel in .venv that Beamscope's CMake finds):
//   benchmarks/halide-repro/run.sh          # exit status 1 from this program = reproduced
//   HL_DEBUG_CODEGEN=3 BUILD_ONLY=1 benchmarks/halide-repro/run.sh; shows the partitioning:
//   HL_DEBUG_CODEGEN=3 /tmp/halide-repro/partition_guard_repro 2>&1 | grep -A8 'loop over f'
// Not part of the build or the test suite.
#include "Halide.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>

using namespace Halide;

namespace {

constexpr size_t kCanaryBytes = 4096;
constexpr uint8_t kCanary = 0xAB;
std::map<void *, size_t> g_sizes;
int g_overruns = 0;

void *canaryMalloc(JITUserContext *, size_t bytes) {
    auto *p =
        static_cast<uint8_t *>(std::aligned_alloc(128, ((bytes + kCanaryBytes + 127) / 128) * 128));
    std::memset(p + bytes, kCanary, kCanaryBytes);
    g_sizes[p] = bytes;
    return p;
}

void canaryFree(JITUserContext *, void *p) {
    const size_t bytes = g_sizes[p];
    const uint8_t *after = static_cast<uint8_t *>(p) + bytes;
    size_t overrun = 0;
    for (size_t i = 0; i < kCanaryBytes; ++i)
        if (after[i] != kCanary) overrun = i + 1;
    if (overrun) {
        std::printf("  allocation of %zu bytes: %zu bytes past its end overwritten\n", bytes,
                    overrun);
        ++g_overruns;
    }
    g_sizes.erase(p);
    std::free(p);
}

// Runs the pipeline, with f scheduled as described (ys unrolled or not) when `schedule`, else
// unscheduled; prints how many output values differ from `expected` when it is given.
void run(const Buffer<uint8_t> &input, const Buffer<uint8_t> *expected, bool schedule, bool unroll,
         Buffer<uint8_t> &result) {
    ImageParam in(UInt(8), 2, "in");
    Var x("x"), y("y"), yo("yo"), yi("yi"), yt("yt"), ys("ys");
    Func f("f"), down("down"), down2("down2"), g("g"), out("out");
    Expr w = in.dim(0).extent(), h = in.dim(1).extent();
    f(x, y) = in(clamp(x, 0, w - 1), clamp(y, 0, h - 1));
    down(x, y) = f(2 * x, 2 * y) / 2 + f(2 * x + 1, 2 * y + 1) / 2;
    down2(x, y) = down(clamp(2 * x, 0, max(w / 2, 1) - 1), clamp(2 * y, 0, max(h / 2, 1) - 1));
    g(x, y) = f(x, clamp(2 * y, 0, h - 1));
    out(x, y) = f(x + 2, y + 2) / 3 + down2(x / 2, y / 2) / 3 + g(x, y / 2) / 3;
    if (schedule) {
        down.compute_root();
        down2.compute_root();
        g.compute_root();
        f.compute_root()
            .split(y, yo, yi, 64, TailStrategy::GuardWithIf)
            .split(yi, yt, ys, 4, TailStrategy::GuardWithIf)
            .reorder(x, ys, yt, yo);
        if (unroll) f.unroll(ys);
    }
    in.set(input);
    Pipeline p(out);
    p.jit_handlers().custom_malloc = canaryMalloc;
    p.jit_handlers().custom_free = canaryFree;
    result = p.realize({input.width(), input.height()}, get_host_target());
    if (!expected) return;
    int wrong = 0;
    result.for_each_element([&](int i, int j) { wrong += result(i, j) != (*expected)(i, j); });
    std::printf("  %d of %d output values differ from the unscheduled pipeline\n", wrong,
                int(result.number_of_elements()));
}

} // namespace

int main() {
    const int width = 64, height = 48;
    Buffer<uint8_t> input(width, height);
    input.for_each_element([&](int i, int j) { input(i, j) = uint8_t((i * 7 + j * 3) & 255); });

    Buffer<uint8_t> expected, result;
    run(input, nullptr, false, false, expected);

    int overrunsPerRun[2] = {0, 0};
    for (int unroll = 0; unroll <= 1; ++unroll) {
        std::printf("f: y split 64 (GuardWithIf), then 4; ys %s\n",
                    unroll ? "unrolled" : "not unrolled");
        const int before = g_overruns;
        run(input, &expected, true, unroll, result);
        overrunsPerRun[unroll] = g_overruns - before;
        std::printf("  %s\n", overrunsPerRun[unroll] ? "WROTE PAST AN ALLOCATION"
                                                     : "every allocation intact");
    }
    const bool reproduced = overrunsPerRun[0] > 0 && overrunsPerRun[1] == 0;
    std::printf("%s\n", reproduced ? "reproduced: the guard was dropped only without unrolling"
                                   : "not reproduced with this Halide");
    return reproduced ? 1 : 0;
}
