// PlacementPin: the pin of a placement (what Why not? asks about an imported decision) and the
// frozen pin of a state's placement (the GUI's "Freeze at current decision"), on hand-made
// stencil-chain schedules whose sizes the expectations restate; a frozen pin, resolved, holds
// for the placement it was made from.
#include "ScheduleTestUtil.h"

#include "search/PlacementPin.h"

#include <gtest/gtest.h>

using namespace beamscope;
using namespace beamscope::testing;

namespace {

using Sizes = std::vector<int64_t>;

Pin pinOf(const ScheduleState &state, const std::string &name) {
    const int node = state.dag().find(name);
    return pinOfPlacement(state.dag(), node, state.placement(node));
}

} // namespace

TEST(PlacementPin, RootAndBlockPlacementsGiveTheirSizesPerDimension) {
    auto dag = std::make_shared<const FunctionDAG>(buildApp("stencil_chain", kShortChain));
    const StatePtr state = handMadeStencilChain(dag); // output root 16x8 / 2x2, stage_3 block 1x2

    const Pin output = pinOf(*state, "output");
    EXPECT_EQ(output.func, "output");
    EXPECT_EQ(output.location, ComputeKind::Root);
    EXPECT_EQ(output.host, "");
    EXPECT_EQ(output.threads, (Sizes{16, 8}));
    EXPECT_EQ(output.serial, (Sizes{2, 2}));
    EXPECT_FALSE(output.frozen);

    const Pin stage3 = pinOf(*state, "stage_3");
    EXPECT_EQ(stage3.location, ComputeKind::Block);
    EXPECT_EQ(stage3.host, "output");
    EXPECT_TRUE(stage3.threads.empty());
    EXPECT_EQ(stage3.serial, (Sizes{1, 2}));
}

TEST(PlacementPin, ThreadAndInlinePlacementsHaveNoSizes) {
    auto dag = std::make_shared<const FunctionDAG>(buildApp("stencil_chain", kShortChain));
    StatePtr state = threadFusedStencilChain(dag); // stage_3 at output's thread level
    const Pin stage3 = pinOf(*state, "stage_3");
    EXPECT_EQ(stage3.location, ComputeKind::Thread);
    EXPECT_EQ(stage3.host, "output");
    EXPECT_TRUE(stage3.threads.empty());
    EXPECT_TRUE(stage3.serial.empty());

    state = ScheduleState::initial(dag)->withInline(dag->find("stage_1"));
    const Pin stage1 = pinOf(*state, "stage_1");
    EXPECT_EQ(stage1.location, ComputeKind::Inline);
    EXPECT_EQ(stage1.host, "");
    EXPECT_TRUE(stage1.threads.empty() && stage1.serial.empty());
}

TEST(PlacementPin, FreezingNeedsAPlacedAndTiledFunc) {
    auto dag = std::make_shared<const FunctionDAG>(buildApp("stencil_chain", kShortChain));
    const StatePtr initial = ScheduleState::initial(dag);
    const int output = dag->find("output");
    EXPECT_FALSE(freezePinFromState(*initial, output));                   // not placed
    EXPECT_FALSE(freezePinFromState(*initial->withRoot(output), output)); // root, not tiled

    const StatePtr state = handMadeStencilChain(dag);
    const std::optional<Pin> frozen = freezePinFromState(*state, output);
    ASSERT_TRUE(frozen);
    EXPECT_TRUE(frozen->frozen);
    EXPECT_EQ(frozen->location, ComputeKind::Root);
    EXPECT_EQ(frozen->threads, (Sizes{16, 8}));
    EXPECT_EQ(frozen->serial, (Sizes{2, 2}));
}

TEST(PlacementPin, AFrozenPinHoldsForThePlacementItWasMadeFrom) {
    auto dag = std::make_shared<const FunctionDAG>(buildApp("stencil_chain", kShortChain));
    const StatePtr state = handMadeStencilChain(dag);
    std::vector<Pin> pins;
    for (const char *name : {"output", "stage_3", "stage_2"}) {
        const std::optional<Pin> pin = freezePinFromState(*state, dag->find(name));
        ASSERT_TRUE(pin) << name;
        pins.push_back(*pin);
    }
    const std::vector<ResolvedPin> resolved = resolvePins(pins, *dag, GpuSpec::load("v100"));
    ASSERT_EQ(resolved.size(), pins.size());
    for (const ResolvedPin &r : resolved) {
        EXPECT_TRUE(pinSatisfied(r, *dag, state->placement(r.node))) << dag->node(r.node).name;
    }
    // ... and not for another tiling of the same Func.
    const StatePtr other = rootTiled(ScheduleState::initial(dag), "output", {32, 8}, {1, 1});
    EXPECT_FALSE(pinSatisfied(resolved[0], *dag, other->placement(dag->find("output"))));
}
