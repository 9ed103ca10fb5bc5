// Hash: the one stable 64-bit text hash (FNV-1a) behind Beamscope's persistent keys — DAG and
// schedule hashes in the measurement database, tune run ids, device lock names, the held-out
// split. Identical on every platform and run; never change it, or stored keys stop matching.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace beamscope {

/// The FNV-1a 64-bit hash of `text`.
std::uint64_t fnv1a64(std::string_view text);

/// 16 lowercase hex digits of fnv1a64(text).
std::string fnv1a64Hex(std::string_view text);

} // namespace beamscope
