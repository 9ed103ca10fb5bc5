// Locating the loaded libHalide, its headers and its plugins.
#include "util/HalideInstall.h"
#include "util/Text.h"

#include "util/Error.h"

#include <Halide.h>

#include <dlfcn.h>
#include <link.h>

#include <cctype>

namespace beamscope {

namespace fs = std::filesystem;

namespace {
bool isHalideLibrary(const fs::path &file) {
    return file.filename().string().rfind("libHalide.so", 0) == 0;
}
} // namespace

fs::path loadedHalideLibrary() {
    Dl_info info{};
    const auto *symbol = reinterpret_cast<const void *>(&Halide::get_host_target);
    fs::path found;
    if (dladdr(symbol, &info) != 0 && info.dli_fname && isHalideLibrary(info.dli_fname)) {
        found = info.dli_fname;
    } else {
        dl_iterate_phdr(
            [](dl_phdr_info *object, size_t, void *data) {
                if (object->dlpi_name && isHalideLibrary(object->dlpi_name)) {
                    *static_cast<fs::path *>(data) = object->dlpi_name;
                    return 1;
                }
                return 0;
            },
            &found);
    }
    if (found.empty()) throw Error("cannot locate the loaded libHalide");
    std::error_code ec;
    fs::path canonical = fs::canonical(found, ec);
    if (ec) throw Error("cannot resolve the path of the loaded libHalide: " + ec.message());
    return canonical;
}

HalideInstall locateHalideInstall() {
    HalideInstall install;
    install.library = loadedHalideLibrary();
    install.libDir = install.library.parent_path();
    // The wheel's layout (lib64/ beside include/), then Beamscope's installed private copy
    // (lib/beamscope/include, cmake/Packaging.cmake).
    const fs::path candidates[] = {install.libDir.parent_path() / "include",
                                   install.libDir / "include"};
    for (const fs::path &dir : candidates) {
        std::error_code ec;
        if (fs::exists(dir / "Halide.h", ec)) {
            install.includeDir = fs::weakly_canonical(dir, ec);
            if (!ec) return install;
        }
    }
    throw Error("no Halide.h in " + candidates[0].string() + " or " + candidates[1].string() +
                " next to the loaded " + install.library.string());
}

fs::path autoschedulerPluginPath(const std::string &name) {
    const fs::path path =
        loadedHalideLibrary().parent_path() / ("libautoschedule_" + asciiLower(name) + ".so");
    if (!fs::exists(path)) throw Error("autoscheduler plugin not found: " + path.string());
    return path;
}

} // namespace beamscope
