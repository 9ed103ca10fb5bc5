// isIdentifier, Identifiers::make, quoted.
#include "codegen/SourceIdentifiers.h"

#include <cctype>

namespace beamscope {

bool isIdentifier(const std::string &s) {
    if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
    for (char c : s) {
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
    }
    return true;
}

std::string Identifiers::make(const std::string &name) {
    std::string id;
    for (char c : name)
        id += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    // Leading digits and "__" or "_X" (reserved for the implementation) get a prefix.
    if (id.empty() || std::isdigit(static_cast<unsigned char>(id[0])) ||
        (id[0] == '_' && id.size() > 1 &&
         (id[1] == '_' || std::isupper(static_cast<unsigned char>(id[1]))))) {
        id = "v" + id;
    }
    while (m_reserved->count(id) || m_taken.count(id))
        id += "_";
    m_taken.insert(id);
    return id;
}

std::string quoted(const std::string &s) {
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out + "\"";
}

} // namespace beamscope
