// StructuralHash against stored values: the hash is defined on a schedule's structure alone, so
// it must be the same in every build, run and platform (it keys buckets, the 4.5 penalties and
// the measurement database). Comparing two hashes computed in one process could not show that.
#include "ScheduleTestUtil.h"

#include "search/SearchReport.h"
#include "search/StructuralHash.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace beamscope;
using namespace beamscope::testing;

TEST(StructuralHash, MatchesStoredValues) {
    // The hash is fixed by its definition, not by this build: the values below were computed once
    // (2026-11-26) and stored, so a change of the definition, of the state it reads or of the
    // platform's arithmetic fails here. Depths 0..kMaxHashDepth of two states.
    const std::vector<std::string> placed = {
        "84fb27c2bad149ef", "0a13ece66737fd23", "c0d7bb78c1749e3d", "919ea454022003dc",
        "56e3e8bdace1db11", "b450ff8124f2bd3a", "a4182e45ab75563f"};
    const std::vector<std::string> handMade = {
        "bef8792105543925", "13a1dd12f225b135", "c6952884d8c043ae", "c4acb6ec6fff8e17",
        "da499ca0f3713f94", "84d3d74277c744f3", "3ac97ebc93f04ed8"};
    const StatePtr first = placeRest(ScheduleState::initial(stencilChainDag(2)));
    const StatePtr second = handMadeStencilChain(stencilChainDag(3));
    ASSERT_EQ(placed.size(), size_t(kMaxHashDepth + 1));
    for (int depth = 0; depth <= kMaxHashDepth; ++depth) {
        EXPECT_EQ(hashToHex(structuralHash(*first, depth)), placed[size_t(depth)]) << depth;
        EXPECT_EQ(hashToHex(structuralHash(*second, depth)), handMade[size_t(depth)]) << depth;
    }
    // Depths past the last clamp to it.
    EXPECT_EQ(structuralHash(*first, 99), structuralHash(*first, kMaxHashDepth));
}
