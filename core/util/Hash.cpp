// FNV-1a, 64 bits (offset basis 0xcbf29ce484222325, prime 0x100000001b3).
#include "util/Hash.h"

namespace beamscope {

std::uint64_t fnv1a64(std::string_view text) {
    std::uint64_t h = 0xcbf29ce484222325ULL;
    for (unsigned char c : text) {
        h ^= c;
        h *= 0x100000001b3ULL;
    }
    return h;
}

std::string fnv1a64Hex(std::string_view text) {
    std::uint64_t h = fnv1a64(text);
    static const char digits[] = "0123456789abcdef";
    std::string out(16, '0');
    for (int i = 15; i >= 0; --i, h >>= 4)
        out[size_t(i)] = digits[h & 0xf];
    return out;
}

} // namespace beamscope
