// SourceIdentifiers: valid, unique identifiers for Funcs and loops in exported schedule source
// (C++ in ScheduleSource, Python in SchedulePythonSource), each language with its reserved words.
#pragma once

#include <set>
#include <string>

namespace beamscope {

/// True for a name of letters, digits and '_' that does not start with a digit.
bool isIdentifier(const std::string &s);

/// Hands out identifiers that are valid, not reserved and not taken in the scope.
class Identifiers {
public:
    Identifiers(const std::set<std::string> &reserved, std::set<std::string> taken = {})
        : m_reserved(&reserved), m_taken(std::move(taken)) {}
    /// `name` with every other character made '_', prefixed with "v" where it starts with a digit
    /// or is reserved for the implementation ("__x", "_X"), and '_' appended until it is free.
    std::string make(const std::string &name);
    const std::set<std::string> &taken() const { return m_taken; }

private:
    const std::set<std::string> *m_reserved;
    std::set<std::string> m_taken;
};

/// `s` in double quotes, '"' and '\' escaped (the same in C++ and Python).
std::string quoted(const std::string &s);

} // namespace beamscope
