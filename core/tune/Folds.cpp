#include "tune/Folds.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <thread>
#include <vector>

namespace beamscope {

void runFolds(std::size_t count, int jobs, const std::function<void(std::size_t)> &fold) {
    std::vector<std::exception_ptr> failures(count);
    std::atomic<std::size_t> next{0};
    std::atomic<bool> failed{false};
    auto worker = [&] {
        for (std::size_t i = 0; !failed && (i = next++) < count;) {
            try {
                fold(i);
            } catch (...) {
                failures[i] = std::current_exception();
                failed = true;
            }
        }
    };
    const std::size_t threads = std::min(count, std::size_t(std::max(1, jobs)));
    if (threads <= 1) {
        worker();
    } else {
        std::vector<std::thread> pool;
        for (std::size_t t = 0; t < threads; ++t)
            pool.emplace_back(worker);
        for (std::thread &t : pool)
            t.join();
    }
    for (const std::exception_ptr &failure : failures)
        if (failure) std::rethrow_exception(failure);
}

} // namespace beamscope
