// SelectionHub: shared selection state of the views.
#include "views/common/SelectionHub.h"

#include <algorithm>
#include <utility>

namespace beamscope {

SelectionHub::SelectionHub(QObject *parent) : QObject(parent) {
    qRegisterMetaType<std::vector<Pin>>();
}

const Pin *SelectionHub::pinFor(const std::string &name) const {
    for (const Pin &p : m_pins) {
        if (p.func == name) return &p;
    }
    return nullptr;
}

bool SelectionHub::isFrozen(int node) const {
    return m_step && std::binary_search(m_step->frozen.begin(), m_step->frozen.end(), node);
}

void SelectionHub::setDag(std::shared_ptr<const FunctionDAG> dag) {
    SearchStepPtr previous = std::exchange(m_step, nullptr);
    m_dag = std::move(dag);
    m_state.reset();
    m_stateCost.reset();
    m_stateLabel.clear();
    m_func = -1;
    Q_EMIT dagChanged();
    Q_EMIT stepChanged();
    Q_EMIT stateChanged();
    Q_EMIT funcSelected(-1);
    if (m_releaser && previous) m_releaser(std::move(previous));
}

void SelectionHub::setStep(SearchStepPtr step) {
    SearchStepPtr previous = std::exchange(m_step, std::move(step));
    Q_EMIT stepChanged();
    if (m_step && m_step->finished && m_step->best) {
        selectState(m_step->best->state, m_step->best->cost, tr("the search's result"));
    } else if (const BeamEntry *best = m_step ? cheapestEntry(m_step->beam) : nullptr) {
        selectState(best->state, best->cost, tr("best of the beam"));
    } else {
        selectState(nullptr, std::nullopt, QString());
    }
    if (m_releaser && previous) m_releaser(std::move(previous));
}

void SelectionHub::selectState(StatePtr state, std::optional<StateCost> cost,
                               const QString &label) {
    m_state = std::move(state);
    m_stateCost = std::move(cost);
    m_stateLabel = label;
    Q_EMIT stateChanged();
}

void SelectionHub::selectFunc(int node) {
    if (node == m_func) return;
    m_func = node;
    Q_EMIT funcSelected(node);
}

void SelectionHub::setPins(const std::vector<Pin> &pins) {
    m_pins = pins;
    Q_EMIT pinsChanged();
}

void SelectionHub::requestPins(const std::vector<Pin> &pins) {
    Q_EMIT pinsRequested(pins);
}

void SelectionHub::requestWhy(const Pin &decision) {
    Q_EMIT whyRequested(decision);
}

} // namespace beamscope
