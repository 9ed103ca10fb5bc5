// AtomicFile: a file written whole or not at all. The text goes to a temporary file beside the
// target, renamed onto it by commit(); a reader never sees half a file, and a failed or
// abandoned write leaves the old file as it was (the temporary is removed).
#pragma once

#include <fstream>
#include <ostream>
#include <string>

namespace beamscope {

class AtomicFile {
public:
    /// Opens `path` + `temporarySuffix` for writing. `what` names the file in errors ("cost
    /// model file": "cannot write cost model file 'PATH'"; empty: "cannot write 'PATH'").
    /// Throws Error when the temporary cannot be opened.
    explicit AtomicFile(std::string path, std::string what = {},
                        std::string temporarySuffix = ".tmp");
    /// Removes the temporary file unless commit() succeeded.
    ~AtomicFile();
    AtomicFile(const AtomicFile &) = delete;
    AtomicFile &operator=(const AtomicFile &) = delete;

    /// Where the file's text goes.
    std::ostream &stream() { return m_out; }
    /// Flushes, closes and renames the file into place; throws Error when anything failed.
    void commit();

private:
    std::string failure() const;

    std::string m_path, m_what, m_temporary;
    std::ofstream m_out;
    bool m_committed = false;
};

} // namespace beamscope
