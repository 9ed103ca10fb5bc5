// util/AtomicFile: a committed file appears whole; an abandoned one leaves the old file as it was
// and no temporary beside it; a file that cannot be written is one Error naming it.
#include "util/AtomicFile.h"
#include "util/Error.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

using namespace beamscope;
namespace fs = std::filesystem;

namespace {

std::string readText(const fs::path &path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

fs::path scratchDir(const std::string &name) {
    const fs::path dir =
        fs::temp_directory_path() / ("beamscope-atomic-" + name + "-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

} // namespace

TEST(AtomicFile, CommitPutsTheWholeTextInPlace) {
    const fs::path dir = scratchDir("commit");
    const fs::path path = dir / "out.csv";
    {
        AtomicFile file(path.string());
        file.stream() << "a,b\n1,2\n";
        EXPECT_FALSE(fs::exists(path)); // nothing at the target before commit()
        file.commit();
    }
    EXPECT_EQ(readText(path), "a,b\n1,2\n");
    EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);
    fs::remove_all(dir);
}

TEST(AtomicFile, AnAbandonedWriteLeavesTheOldFile) {
    const fs::path dir = scratchDir("abandon");
    const fs::path path = dir / "model.json";
    std::ofstream(path) << "old\n";
    {
        AtomicFile file(path.string(), "cost model file", ".tmp.1");
        file.stream() << "new, half written";
    } // no commit(): an exception went by, say
    EXPECT_EQ(readText(path), "old\n");
    EXPECT_FALSE(fs::exists(dir / "model.json.tmp.1"));
    fs::remove_all(dir);
}

TEST(AtomicFile, AnUnwritablePlaceIsOneErrorNamingTheFile) {
    try {
        AtomicFile file("/nonexistent-dir/out.csv", "cost model file");
        FAIL() << "opened a file in a missing directory";
    } catch (const Error &e) {
        EXPECT_STREQ(e.what(), "cannot write cost model file '/nonexistent-dir/out.csv'");
    }
}
