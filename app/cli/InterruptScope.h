// Ctrl-C and SIGTERM for commands that run workers: while an InterruptScope lives, the signals
// set a cancel token instead of killing the CLI, so the runner kills its workers (they run in
// process groups of their own, which the terminal's Ctrl-C does not reach) and the command
// returns what finished. Without it an interrupted `bench` left its workers running. The
// handlers are installed even where a script's `cmd &` made SIGINT ignored, so `kill -INT`
// stops a background run too; the previous handlers come back when the scope ends.
#pragma once

#include "search/SearchEngine.h"

namespace beamscope::cli {

class InterruptScope {
public:
    InterruptScope();
    ~InterruptScope();
    InterruptScope(const InterruptScope &) = delete;
    InterruptScope &operator=(const InterruptScope &) = delete;

    /// Set by SIGINT or SIGTERM once this scope began.
    const CancelToken *token() const;

private:
    using Handler = void (*)(int);
    Handler m_previousInt, m_previousTerm;
};

} // namespace beamscope::cli
