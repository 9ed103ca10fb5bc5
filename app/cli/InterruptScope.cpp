// InterruptScope: the signal handlers that turn Ctrl-C into a cancel (see the header).
#include "InterruptScope.h"

#include <csignal>

namespace beamscope::cli {

namespace {

CancelToken g_interrupted{false};

extern "C" void onInterrupt(int) {
    g_interrupted.store(true);
}

} // namespace

InterruptScope::InterruptScope() {
    g_interrupted.store(false);
    m_previousInt = std::signal(SIGINT, onInterrupt);
    m_previousTerm = std::signal(SIGTERM, onInterrupt);
}

InterruptScope::~InterruptScope() {
    std::signal(SIGINT, m_previousInt);
    std::signal(SIGTERM, m_previousTerm);
}

const CancelToken *InterruptScope::token() const {
    return &g_interrupted;
}

} // namespace beamscope::cli
