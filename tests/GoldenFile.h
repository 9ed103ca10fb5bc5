// GoldenFile: compares a printer's text with a file in tests/golden/ and shows a line diff on a
// mismatch (after KDAB/hotspot's model tests). Plain C++, so GoogleTest and QtTest tests can both
// use it. To regenerate the files deliberately, after a change that is meant
// to alter a printer: tests/golden/update.sh BUILD_DIR (it runs the golden tests with
// BEAMSCOPE_UPDATE_GOLDEN=1, which writes each file instead of comparing), then read the
// `git diff` of tests/golden/ before committing it.
#pragma once

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace beamscope::golden {

inline std::vector<std::string> splitLines(const std::string &text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        lines.push_back(line);
    return lines;
}

/// A line diff of `want` against `got` by longest common subsequence: "-N: line" for a golden
/// line missing from the output, "+N: line" for an output line not in the golden file (N: line
/// number in its own file), at most `maxLines` lines of it.
inline std::string lineDiff(const std::vector<std::string> &want,
                            const std::vector<std::string> &got, size_t maxLines = 60) {
    const size_t n = want.size(), m = got.size();
    std::vector<std::vector<unsigned>> common(n + 1, std::vector<unsigned>(m + 1, 0));
    for (size_t i = n; i-- > 0;)
        for (size_t j = m; j-- > 0;)
            common[i][j] = want[i] == got[j] ? common[i + 1][j + 1] + 1
                                             : std::max(common[i + 1][j], common[i][j + 1]);
    std::ostringstream out;
    size_t shown = 0, i = 0, j = 0;
    auto say = [&](char sign, size_t line, const std::string &text) {
        if (shown++ < maxLines) out << sign << line + 1 << ": " << text << "\n";
    };
    while (i < n || j < m) {
        if (i < n && j < m && want[i] == got[j]) {
            ++i, ++j;
        } else if (i < n && (j == m || common[i + 1][j] >= common[i][j + 1])) {
            say('-', i, want[i]);
            ++i;
        } else {
            say('+', j, got[j]);
            ++j;
        }
    }
    if (shown > maxLines) out << "... and " << shown - maxLines << " more differing lines\n";
    return out.str();
}

/// True when the golden files are to be written rather than compared (BEAMSCOPE_UPDATE_GOLDEN=1).
inline bool updating() {
    const char *value = std::getenv("BEAMSCOPE_UPDATE_GOLDEN");
    return value && std::string(value) == "1";
}

/// Compares `actual` with the golden file `name` in `dir`: nullopt when they are equal (or the
/// file was just written, when updating()), else a message naming the file with the line diff.
inline std::optional<std::string> mismatch(const std::string &dir, const std::string &name,
                                           const std::string &actual) {
    const std::string path = dir + "/" + name;
    if (updating()) {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out << actual;
        if (!out.flush()) return "cannot write golden file " + path;
        return std::nullopt;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return "no golden file " + path +
               " (write it with tests/golden/update.sh BUILD_DIR and review it)";
    std::ostringstream want;
    want << in.rdbuf();
    if (want.str() == actual) return std::nullopt;
    std::string diff = lineDiff(splitLines(want.str()), splitLines(actual));
    if (diff.empty()) diff = "(the lines are equal: they differ in the final newline)\n";
    return "output differs from golden file " + path + " (- golden, + output):\n" + diff +
           "If the change is meant: tests/golden/update.sh BUILD_DIR, then review git diff.";
}

} // namespace beamscope::golden
