// runFolds: folds run in index order; after a failure no further fold starts, the folds below it
// run to their end, and the first failure in index order is rethrown whatever the number of jobs.
#include "tune/Folds.h"

#include "util/Error.h"

#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <set>
#include <string>

using namespace beamscope;

namespace {

/// What a run of runFolds did: the folds that ran, and the message it threw ("" when none).
struct Outcome {
    std::set<std::size_t> ran;
    std::string error;
};

Outcome runWithFailures(std::size_t count, int jobs, const std::set<std::size_t> &failing) {
    Outcome out;
    std::mutex mutex;
    try {
        runFolds(count, jobs, [&](std::size_t i) {
            {
                std::lock_guard<std::mutex> lock(mutex);
                out.ran.insert(i);
            }
            if (failing.count(i)) throw Error("fold " + std::to_string(i) + " failed");
        });
    } catch (const Error &e) {
        out.error = e.what();
    }
    return out;
}

TEST(Folds, EveryFoldRunsOnceWhenNoneFails) {
    for (int jobs : {1, 3, 16}) {
        std::atomic<int> calls{0};
        std::set<std::size_t> seen;
        std::mutex mutex;
        runFolds(10, jobs, [&](std::size_t i) {
            ++calls;
            std::lock_guard<std::mutex> lock(mutex);
            seen.insert(i);
        });
        EXPECT_EQ(calls, 10) << jobs;
        EXPECT_EQ(seen.size(), 10u) << jobs;
    }
}

TEST(Folds, OneJobStopsAtTheFirstFailure) {
    const Outcome out = runWithFailures(8, 1, {2, 5});
    EXPECT_EQ(out.ran, (std::set<std::size_t>{0, 1, 2})); // 3.. never start
    EXPECT_EQ(out.error, "fold 2 failed");
}

TEST(Folds, ManyJobsRethrowTheFirstFailureInIndexOrderAfterRunningEveryFoldBelowIt) {
    for (int repeat = 0; repeat < 20; ++repeat) {
        const Outcome out = runWithFailures(40, 4, {7, 3, 30});
        EXPECT_EQ(out.error, "fold 3 failed");
        for (std::size_t i = 0; i <= 3; ++i)
            EXPECT_TRUE(out.ran.count(i)) << i;
    }
}

} // namespace
