// GpuSpec: JSON (de)serialization through one field table, preset lookup, derived helpers.
//
// Contents: the field table (key, member, minimum) - derived helpers - fromJson/toJson -
// preset directory and load() - dump().
#include "schedule/GpuSpec.h"

#include "util/Error.h"
#include "util/InstallLayout.h"
#include "util/Text.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <limits>
#include <ostream>
#include <sstream>
#include <type_traits>
#include <variant>

namespace beamscope {
namespace {

namespace fs = std::filesystem;

using Member = std::variant<std::string GpuSpec::*, int GpuSpec::*, std::int64_t GpuSpec::*,
                            double GpuSpec::*>;

/// One serialized field: its JSON key, where it lives, and the smallest value it may take.
struct Field {
    const char *key;
    Member member;
    double minimum; // ignored for strings
    bool required;
};

/// Every field, in declaration order; fromJson, toJson and dump all walk this table.
const std::vector<Field> &fields() {
    static const std::vector<Field> table = {
        {"name", &GpuSpec::name, 0, true},
        {"description", &GpuSpec::description, 0, false},
        {"sm_count", &GpuSpec::smCount, 1, true},
        {"warp_size", &GpuSpec::warpSize, 1, true},
        {"max_threads_per_block", &GpuSpec::maxThreadsPerBlock, 1, true},
        {"max_threads_per_sm", &GpuSpec::maxThreadsPerSm, 1, true},
        {"max_warps_per_sm", &GpuSpec::maxWarpsPerSm, 1, true},
        {"max_blocks_per_sm", &GpuSpec::maxBlocksPerSm, 1, true},
        {"shared_memory_per_block_bytes", &GpuSpec::sharedMemoryPerBlockBytes, 0, true},
        {"shared_memory_per_block_optin_bytes", &GpuSpec::sharedMemoryPerBlockOptinBytes, 0, true},
        {"shared_memory_per_sm_bytes", &GpuSpec::sharedMemoryPerSmBytes, 0, true},
        {"registers_per_sm", &GpuSpec::registersPerSm, 1, true},
        {"registers_per_block_max", &GpuSpec::registersPerBlockMax, 1, true},
        {"registers_per_thread_max", &GpuSpec::registersPerThreadMax, 1, true},
        {"l2_cache_bytes", &GpuSpec::l2CacheBytes, 0, true},
        {"global_memory_bandwidth_gbs", &GpuSpec::globalMemoryBandwidthGBs, 1e-9, true},
        {"global_transaction_bytes", &GpuSpec::globalTransactionBytes, 1, true},
        {"shared_memory_banks", &GpuSpec::sharedMemoryBanks, 1, true},
        {"shared_bank_width_bytes", &GpuSpec::sharedBankWidthBytes, 1, true},
        {"clock_ghz", &GpuSpec::clockGHz, 1e-9, true},
        {"fp32_lanes_per_sm", &GpuSpec::fp32LanesPerSm, 1, true},
        {"kernel_launch_overhead_us", &GpuSpec::kernelLaunchOverheadUs, 0, true},
        {"compute_capability", &GpuSpec::computeCapability, 0, true},
        {"stores_write_back", &GpuSpec::storesWriteBack, 0, false},
    };
    return table;
}

const char *const kPresetNames[] = {"v100", "a100", "h100", "h200", "rtx4090", "pocl-cpu"};

std::string joinedPresetNames() {
    std::string out;
    for (const char *name : kPresetNames)
        out += (out.empty() ? "" : ", ") + std::string(name);
    return out;
}

/// First line of a (possibly multi-line) message.
std::string firstLine(const std::string &text) {
    return text.substr(0, text.find('\n'));
}

std::string formatNumber(double value) {
    std::ostringstream out;
    out << value;
    return out.str();
}

/// Reads one field's JSON value into spec, checking type and minimum.
void readField(const Field &field, const nlohmann::json &value, const std::string &source,
               GpuSpec &spec) {
    const std::string where = source + ": key '" + field.key + "'";
    const auto checkMinimum = [&](double number) {
        if (number >= field.minimum) return;
        throw Error(where + " must be " + (field.minimum > 0 ? "positive" : "non-negative") +
                    ", got " + formatNumber(number));
    };
    std::visit(
        [&](auto member) {
            using T = std::remove_reference_t<decltype(spec.*member)>;
            if constexpr (std::is_same_v<T, std::string>) {
                if (!value.is_string()) throw Error(where + " must be a string");
                spec.*member = value.get<std::string>();
            } else if constexpr (std::is_same_v<T, double>) {
                if (!value.is_number()) throw Error(where + " must be a number");
                checkMinimum(value.get<double>());
                spec.*member = value.get<double>();
            } else {
                if (!value.is_number_integer()) throw Error(where + " must be an integer");
                std::int64_t number = 0;
                if (value.is_number_unsigned()) {
                    const std::uint64_t raw = value.get<std::uint64_t>();
                    if (raw > static_cast<std::uint64_t>(std::numeric_limits<T>::max())) {
                        throw Error(where + " is out of range");
                    }
                    number = static_cast<std::int64_t>(raw);
                } else {
                    number = value.get<std::int64_t>();
                }
                checkMinimum(static_cast<double>(number));
                if (number > std::numeric_limits<T>::max()) throw Error(where + " is out of range");
                spec.*member = static_cast<T>(number);
            }
        },
        field.member);
}

/// Relations between fields that a hand-edited file might break.
void checkConsistency(const GpuSpec &spec, const std::string &source) {
    const auto require = [&](bool ok, const std::string &what) {
        if (!ok) throw Error(source + ": inconsistent values: " + what);
    };
    require(spec.maxThreadsPerBlock <= spec.maxThreadsPerSm,
            "max_threads_per_block > max_threads_per_sm");
    require(spec.maxThreadsPerSm <= spec.maxWarpsPerSm * spec.warpSize,
            "max_threads_per_sm > max_warps_per_sm * warp_size");
    require(spec.sharedMemoryPerBlockBytes <= spec.sharedMemoryPerBlockOptinBytes,
            "shared_memory_per_block_bytes > shared_memory_per_block_optin_bytes");
    require(spec.sharedMemoryPerBlockOptinBytes <= spec.sharedMemoryPerSmBytes,
            "shared_memory_per_block_optin_bytes > shared_memory_per_sm_bytes");
    require(spec.registersPerBlockMax <= spec.registersPerSm,
            "registers_per_block_max > registers_per_sm");
}

GpuSpec loadFile(const std::string &path) {
    const std::string source = "GPU file '" + path + "'";
    std::ifstream in(path);
    if (!in) throw Error(source + ": cannot open");
    nlohmann::json json;
    try {
        json = nlohmann::json::parse(in);
    } catch (const nlohmann::json::exception &e) {
        throw Error(source + ": invalid JSON: " + firstLine(e.what()));
    }
    return GpuSpec::fromJson(json, source);
}

} // namespace

// ---- derived helpers ------------------------------------------------------------------------

double GpuSpec::peakGflops() const {
    return double(smCount) * fp32LanesPerSm * 2.0 * clockGHz;
}

int GpuSpec::maxActiveWarps() const {
    return smCount * maxWarpsPerSm;
}

int GpuSpec::maxActiveThreads() const {
    return smCount * maxThreadsPerSm;
}

int GpuSpec::maxActiveBlocks() const {
    return smCount * maxBlocksPerSm;
}

double GpuSpec::globalBytesPerClock() const {
    return globalMemoryBandwidthGBs / clockGHz;
}

int GpuSpec::sharedBytesPerClockPerSm() const {
    return sharedMemoryBanks * sharedBankWidthBytes;
}

double GpuSpec::flopsPerByte() const {
    return peakGflops() / globalMemoryBandwidthGBs;
}

int GpuSpec::warpsPerBlock(int threads) const {
    return threads <= 0 ? 0 : (threads + warpSize - 1) / warpSize;
}

int GpuSpec::activeBlocksPerSm(int threadsPerBlock, std::int64_t sharedBytesPerBlock,
                               int registersPerThread) const {
    if (threadsPerBlock <= 0 || threadsPerBlock > maxThreadsPerBlock) return 0;
    if (sharedBytesPerBlock < 0 || sharedBytesPerBlock > sharedMemoryPerBlockBytes) return 0;
    if (registersPerThread < 0 || registersPerThread > registersPerThreadMax) return 0;
    const int warps = warpsPerBlock(threadsPerBlock);
    const std::int64_t registersPerBlock = std::int64_t(registersPerThread) * warps * warpSize;
    if (registersPerBlock > registersPerBlockMax) return 0;
    return residentBlocksPerSm(threadsPerBlock, sharedBytesPerBlock, registersPerThread);
}

int GpuSpec::residentBlocksPerSm(int threadsPerBlock, std::int64_t sharedBytesPerBlock,
                                 int registersPerThread) const {
    const int warps = std::max(1, warpsPerBlock(threadsPerBlock));
    const std::int64_t registersPerBlock = std::int64_t(registersPerThread) * warps * warpSize;
    std::int64_t blocks = maxBlocksPerSm;
    blocks = std::min<std::int64_t>(blocks, maxWarpsPerSm / warps);
    blocks = std::min<std::int64_t>(blocks, maxThreadsPerSm / (std::int64_t(warps) * warpSize));
    if (sharedBytesPerBlock > 0)
        blocks = std::min(blocks, sharedMemoryPerSmBytes / sharedBytesPerBlock);
    if (registersPerBlock > 0)
        blocks = std::min<std::int64_t>(blocks, registersPerSm / registersPerBlock);
    return static_cast<int>(std::max<std::int64_t>(blocks, 0));
}

double GpuSpec::occupancy(int threadsPerBlock, std::int64_t sharedBytesPerBlock,
                          int registersPerThread) const {
    const int blocks = activeBlocksPerSm(threadsPerBlock, sharedBytesPerBlock, registersPerThread);
    return double(blocks) * warpsPerBlock(threadsPerBlock) / maxWarpsPerSm;
}

// ---- JSON -----------------------------------------------------------------------------------

GpuSpec GpuSpec::fromJson(const nlohmann::json &json, const std::string &source) {
    if (!json.is_object()) throw Error(source + ": expected a JSON object");
    for (const auto &item : json.items()) {
        const bool known = std::any_of(fields().begin(), fields().end(),
                                       [&](const Field &f) { return item.key() == f.key; });
        if (!known) {
            // As JSON writes it: a key with a newline or invalid UTF-8 still makes one line.
            const std::string key =
                nlohmann::json(item.key())
                    .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
            throw Error(source + ": unknown key " + key);
        }
    }
    GpuSpec spec;
    for (const Field &field : fields()) {
        const auto it = json.find(field.key);
        if (it == json.end()) {
            if (field.required) throw Error(source + ": missing key '" + field.key + "'");
            continue;
        }
        readField(field, *it, source, spec);
    }
    checkConsistency(spec, source);
    return spec;
}

nlohmann::json GpuSpec::toJson() const {
    nlohmann::json json = nlohmann::json::object();
    for (const Field &field : fields()) {
        std::visit([&](auto member) { json[field.key] = this->*member; }, field.member);
    }
    return json;
}

// ---- presets ------------------------------------------------------------------------------

std::vector<std::string> GpuSpec::presetNames() {
    return {std::begin(kPresetNames), std::end(kPresetNames)};
}

std::string GpuSpec::presetDirectory() {
    return findDataDirectory("gpus", "GPU presets").string();
}

GpuSpec GpuSpec::load(const std::string &nameOrFile) {
    const std::string lower = asciiLower(nameOrFile);
    for (const char *preset : kPresetNames) {
        if (lower == preset) {
            return loadFile((fs::path(presetDirectory()) / (lower + ".json")).string());
        }
    }
    std::error_code ec;
    if (!fs::is_regular_file(nameOrFile, ec)) {
        throw UsageError("unknown GPU '" + nameOrFile + "': not a preset (" + joinedPresetNames() +
                         ") nor a .json file");
    }
    return loadFile(nameOrFile);
}

GpuSpec GpuSpec::defaultSpec() {
    static const GpuSpec spec = load("v100");
    return spec;
}

// ---- dump ---------------------------------------------------------------------------------

void GpuSpec::dump(std::ostream &out) const {
    out << "GpuSpec\n";
    for (const Field &field : fields()) {
        std::visit([&](auto member) { out << "  " << field.key << ": " << this->*member << "\n"; },
                   field.member);
    }
    out << "  derived peak_gflops: " << peakGflops() << "\n";
    out << "  derived max_active_warps: " << maxActiveWarps() << "\n";
    out << "  derived max_active_threads: " << maxActiveThreads() << "\n";
    out << "  derived global_bytes_per_clock: " << globalBytesPerClock() << "\n";
    out << "  derived flops_per_byte: " << flopsPerByte() << "\n";
}

} // namespace beamscope
