// CUPTI's activity API through dlopen: buffers are handed to CUPTI on request and parsed when it
// returns them; kernel records (CONCURRENT_KERNEL: kernels keep overlapping as they would) are
// kept in a process-wide list that collect() drains.
#include "measure/KernelActivity.h"

#include "measure/Measurement.h"

#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <mutex>
#include <type_traits>

#if BEAMSCOPE_HAVE_CUPTI
#include <cupti.h>
#endif

namespace beamscope {

std::vector<KernelTime> summarizeKernelRuns(const std::vector<std::vector<KernelRecord>> &runs) {
    std::map<std::string, std::vector<double>> perRun; // name -> ms in each run
    std::map<std::string, int> launches;
    for (size_t r = 0; r < runs.size(); ++r) {
        std::map<std::string, int> launchesThisRun;
        for (const KernelRecord &k : runs[r]) {
            std::vector<double> &ms = perRun[k.name];
            ms.resize(runs.size(), 0.0);
            if (k.endNs > k.startNs) ms[r] += double(k.endNs - k.startNs) * 1e-6;
            ++launchesThisRun[k.name];
        }
        for (const auto &[name, n] : launchesThisRun)
            launches[name] = std::max(launches[name], n);
    }
    std::vector<KernelTime> out;
    for (const auto &[name, ms] : perRun)
        out.push_back({name, summarizeTimes(ms).median, launches[name]});
    std::sort(out.begin(), out.end(), [](const KernelTime &a, const KernelTime &b) {
        return a.ms != b.ms ? a.ms > b.ms : a.name < b.name;
    });
    return out;
}

#if BEAMSCOPE_HAVE_CUPTI

namespace {

constexpr size_t kBufferBytes = 1 << 20;
constexpr size_t kBufferAlignment = 8; // CUPTI's ACTIVITY_RECORD_ALIGNMENT

struct Cupti {
    void *handle = nullptr;
    decltype(&cuptiActivityRegisterCallbacks) registerCallbacks = nullptr;
    decltype(&cuptiActivityEnable) enable = nullptr;
    decltype(&cuptiActivityDisable) disable = nullptr;
    decltype(&cuptiActivityFlushAll) flushAll = nullptr;
    decltype(&cuptiActivityGetNextRecord) nextRecord = nullptr;
    decltype(&cuptiGetResultString) resultString = nullptr;

    std::string error(const char *call, CUptiResult r) const {
        const char *text = nullptr;
        if (resultString) resultString(r, &text);
        return std::string("CUPTI ") + call + ": " + (text ? text : "error " + std::to_string(r));
    }
};

std::mutex g_mutex; // guards g_records (CUPTI may return buffers on a thread of its own)
std::vector<KernelRecord> g_records;
Cupti g_cupti;

void CUPTIAPI bufferRequested(uint8_t **buffer, size_t *size, size_t *maxNumRecords) {
    *buffer = static_cast<uint8_t *>(std::aligned_alloc(kBufferAlignment, kBufferBytes));
    *size = *buffer ? kBufferBytes : 0;
    *maxNumRecords = 0; // as many as fit
}

void CUPTIAPI bufferCompleted(CUcontext, uint32_t, uint8_t *buffer, size_t, size_t validSize) {
    CUpti_Activity *record = nullptr;
    std::vector<KernelRecord> parsed;
    while (g_cupti.nextRecord(buffer, validSize, &record) == CUPTI_SUCCESS) {
        if (record->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL &&
            record->kind != CUPTI_ACTIVITY_KIND_KERNEL) {
            continue;
        }
        // The header's newest kernel record; its leading fields (start, end, name) are the same
        // in every version CUPTI 13 writes.
        const auto *k = reinterpret_cast<const CUpti_ActivityKernel10 *>(record);
        parsed.push_back({k->name ? k->name : "", k->start, k->end});
    }
    std::free(buffer);
    const std::lock_guard<std::mutex> lock(g_mutex);
    g_records.insert(g_records.end(), parsed.begin(), parsed.end());
}

/// Loads CUPTI once per process; "" when its functions are there.
std::string loadCupti() {
    if (g_cupti.handle) return "";
    const char *env = std::getenv("BEAMSCOPE_CUPTI");
    const std::string path = env && *env ? env : "libcupti.so.13";
    void *h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!h) return "CUPTI not loaded (" + path + "): " + dlerror();
    Cupti c;
    c.handle = h;
    const auto load = [&](auto &fn, const char *name) {
        fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(h, name));
        return fn != nullptr;
    };
    if (!load(c.registerCallbacks, "cuptiActivityRegisterCallbacks") ||
        !load(c.enable, "cuptiActivityEnable") || !load(c.disable, "cuptiActivityDisable") ||
        !load(c.flushAll, "cuptiActivityFlushAll") ||
        !load(c.nextRecord, "cuptiActivityGetNextRecord") ||
        !load(c.resultString, "cuptiGetResultString")) {
        dlclose(h);
        return "CUPTI (" + path + ") lacks the activity API";
    }
    g_cupti = c;
    return "";
}

} // namespace

KernelActivity::KernelActivity() {
    m_unavailable = loadCupti();
    if (!m_unavailable.empty()) return;
    if (CUptiResult r = g_cupti.registerCallbacks(bufferRequested, bufferCompleted);
        r != CUPTI_SUCCESS) {
        m_unavailable = g_cupti.error("cuptiActivityRegisterCallbacks", r);
        return;
    }
    if (CUptiResult r = g_cupti.enable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL); r != CUPTI_SUCCESS) {
        m_unavailable = g_cupti.error("cuptiActivityEnable", r);
        return;
    }
    const std::lock_guard<std::mutex> lock(g_mutex);
    g_records.clear();
    m_recording = true;
}

KernelActivity::~KernelActivity() {
    if (!m_recording) return;
    g_cupti.disable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    g_cupti.flushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    const std::lock_guard<std::mutex> lock(g_mutex);
    g_records.clear();
}

std::vector<KernelRecord> KernelActivity::collect() {
    if (!m_recording) return {};
    g_cupti.flushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    const std::lock_guard<std::mutex> lock(g_mutex);
    std::vector<KernelRecord> out;
    out.swap(g_records);
    return out;
}

#else // built without CUPTI's headers

KernelActivity::KernelActivity()
    : m_unavailable("Beamscope was built without CUPTI's headers (cupti.h)") {}

KernelActivity::~KernelActivity() = default;

std::vector<KernelRecord> KernelActivity::collect() {
    return {};
}

#endif

} // namespace beamscope
