// AtomicFile: the temporary file, its rename into place, and its removal after a failure.
#include "util/AtomicFile.h"

#include "util/Error.h"

#include <cstdio>
#include <filesystem>

namespace beamscope {

AtomicFile::AtomicFile(std::string path, std::string what, std::string temporarySuffix)
    : m_path(std::move(path)), m_what(std::move(what)), m_temporary(m_path + temporarySuffix),
      m_out(m_temporary, std::ios::binary | std::ios::trunc) {
    if (!m_out) throw Error(failure());
}

AtomicFile::~AtomicFile() {
    if (m_committed) return;
    m_out.close();
    std::remove(m_temporary.c_str());
}

std::string AtomicFile::failure() const {
    return "cannot write " + (m_what.empty() ? std::string() : m_what + " ") + "'" + m_path + "'";
}

void AtomicFile::commit() {
    m_out.flush();
    m_out.close();
    if (!m_out) {
        std::remove(m_temporary.c_str());
        throw Error(failure());
    }
    std::error_code ec;
    std::filesystem::rename(m_temporary, m_path, ec);
    if (ec) {
        std::remove(m_temporary.c_str());
        throw Error(failure() + ": " + ec.message());
    }
    m_committed = true;
}

} // namespace beamscope
