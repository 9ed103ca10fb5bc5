// Data directories relative to the running executable.
#include "util/InstallLayout.h"

#include "util/Error.h"

#include <string>

namespace beamscope {

namespace fs = std::filesystem;

fs::path executablePath() {
    std::error_code ec;
    fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    return ec ? fs::path() : exe;
}

std::vector<fs::path> dataDirectoryCandidates() {
    const fs::path exe = executablePath();
    if (exe.empty()) return {};
    const fs::path dir = exe.parent_path();
    return {(dir / ".." / "share" / "beamscope").lexically_normal(),
            (dir / ".." / ".." / "share" / "beamscope").lexically_normal()};
}

fs::path findDataDirectory(const fs::path &relative, const std::string &what) {
    std::string looked;
    for (const fs::path &candidate : dataDirectoryCandidates()) {
        const fs::path dir = candidate / relative;
        std::error_code ec;
        if (fs::is_directory(dir, ec)) return dir;
        looked += (looked.empty() ? "'" : ", '") + dir.string() + "'";
    }
    if (looked.empty()) throw Error(what + " not found: cannot locate the running executable");
    throw Error(what + " not found: looked in " + looked);
}

} // namespace beamscope
