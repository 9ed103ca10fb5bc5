// TimingPriority (measure/TimingPriority.h): the timed runs' thread goes to SCHED_FIFO where the
// process may (probed here on a thread of its own), comes back to its own policy afterwards, and
// stays normal when not wanted or turned off.
#include "measure/TimingPriority.h"

#include <gtest/gtest.h>

#include <sched.h>
#include <stdlib.h>

#include <string>
#include <thread>

using namespace beamscope;

namespace {

/// Whether this process may put a thread at SCHED_FIFO, tried on a thread that ends at once.
bool mayUseRealTime() {
    bool may = false;
    std::thread([&] {
        sched_param p{};
        p.sched_priority = 1;
        may = sched_setscheduler(0, SCHED_FIFO, &p) == 0;
    }).join();
    return may;
}

} // namespace

TEST(TimingPriority, RaisesTheThreadWhereAllowedAndRestoresItsPolicy) {
    unsetenv("BEAMSCOPE_TIMING_PRIORITY");
    const int before = sched_getscheduler(0);
    const bool may = mayUseRealTime();
    {
        const TimingPriority priority(true);
        EXPECT_EQ(priority.raised(), may);
        EXPECT_EQ(std::string(priority.name()), may ? "realtime" : "normal");
        EXPECT_EQ(sched_getscheduler(0), may ? SCHED_FIFO : before);
    }
    EXPECT_EQ(sched_getscheduler(0), before);
}

TEST(TimingPriority, StaysNormalWhenNotWantedOrTurnedOff) {
    const int before = sched_getscheduler(0);
    {
        const TimingPriority notWanted(false); // an OpenCL (PoCL) run
        EXPECT_FALSE(notWanted.raised());
        EXPECT_EQ(sched_getscheduler(0), before);
    }
    setenv("BEAMSCOPE_TIMING_PRIORITY", "normal", 1);
    {
        const TimingPriority off(true);
        EXPECT_FALSE(off.raised());
        EXPECT_EQ(std::string(off.name()), "normal");
        EXPECT_EQ(sched_getscheduler(0), before);
    }
    unsetenv("BEAMSCOPE_TIMING_PRIORITY");
}
