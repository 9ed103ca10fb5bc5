// The same Halide 21 PartitionLoops bug as partition_guard_repro.cpp, on a hand-built loop nest
// (libHalide's internal IR and its exported Halide::Internal::partition_loops, no pipeline):
//
//   for (f.s0.y.yo, 0, ((f.s0.y.max - f.s0.y.min)/64) + 1)
//    for (f.s0.y.yt, 0, 16)
//     for (f.s0.y.ys, 0, 4)
//      let f.s0.y = f.s0.y.yo*64 + f.s0.y.min + f.s0.y.yt*4 + f.s0.y.ys
//      if (likely(f.s0.y <= f.s0.y.max)) f[f.s0.y] = 1
//
// which is what a GuardWithIf split of y by 64, then by 4, lowers to. The last yo iteration
// covers rows past f.s0.y.max unless (max - min + 1) is a multiple of 64, so the guard must
// stay there. partition_loops prints the loop with the condition replaced by (uint1)1 and no
// epilogue. Run with "unrolled" for the tile's four rows written out by hand: on this bare nest
// their guards are dropped too, whereas in partition_guard_repro's full lowering an unrolled ys
// is partitioned correctly (what makes the difference there was not found). So this nest shows
// the wrong simplification, not what the workaround avoids.
//
// Build and run: benchmarks/halide-repro/run.sh (builds and runs both programs).
// Not part of the build or the test suite.
#include "Halide.h"

#include <iostream>
#include <string>

using namespace Halide;
using namespace Halide::Internal;

int main(int argc, char **argv) {
    const bool unrolled = argc > 1 && std::string(argv[1]) == "unrolled";
    auto var = [](const std::string &name) { return Variable::make(Int(32), name); };
    auto serial = [](const std::string &name, Expr extent, Stmt body) {
        return For::make(name, 0, std::move(extent), ForType::Serial, Partition::Auto,
                         DeviceAPI::None, std::move(body));
    };
    const Expr max = var("f.s0.y.max"), min = var("f.s0.y.min"), y = var("f.s0.y");
    const Expr guard = Call::make(Bool(), Call::likely, {y <= max}, Call::PureIntrinsic);
    const Stmt store =
        Store::make("f", make_const(UInt(8), 1), y, Parameter(), const_true(), ModulusRemainder());
    const Expr row = var("f.s0.y.yo") * 64 + min + var("f.s0.y.yt") * 4;
    Stmt tile;
    if (unrolled) {
        for (int ys = 3; ys >= 0; --ys) {
            Stmt one = LetStmt::make("f.s0.y", row + ys, IfThenElse::make(guard, store));
            tile = tile.defined() ? Block::make(one, tile) : one;
        }
    } else {
        tile =
            serial("f.s0.y.ys", 4,
                   LetStmt::make("f.s0.y", row + var("f.s0.y.ys"), IfThenElse::make(guard, store)));
    }
    const Stmt nest = serial("f.s0.y.yo", (max - min) / 64 + 1, serial("f.s0.y.yt", 16, tile));
    std::cout << "before partition_loops:\n" << nest << "\nafter:\n" << partition_loops(nest);
    return 0;
}
