// SelectionHub: the one object every view listens to — the loaded DAG, the current search step,
// the schedule state being inspected (the beam's cheapest entry, or the search's result once it
// finishes, unless the user picked another), the selected Func and the user's pins. Selecting a
// Func in any view selects it in all of them.
// Lives on the GUI thread; holds immutable snapshots only.
#pragma once

#include "cost/CostModel.h"
#include "search/Pins.h"
#include "search/SearchStep.h"

#include <QMetaType>
#include <QObject>
#include <QString>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

Q_DECLARE_METATYPE(std::vector<beamscope::Pin>)

namespace beamscope {

class SelectionHub : public QObject {
    Q_OBJECT
public:
    explicit SelectionHub(QObject *parent = nullptr);

    const std::shared_ptr<const FunctionDAG> &dag() const { return m_dag; }
    const SearchStepPtr &step() const { return m_step; }
    /// The state being inspected (nullptr before the first step).
    const StatePtr &state() const { return m_state; }
    /// Its cost by stage and term, when known (beam entries; candidates have a total only).
    const std::optional<StateCost> &stateCost() const { return m_stateCost; }
    /// What the state is ("best of the beam", "beam #3", "candidate 12").
    const QString &stateLabel() const { return m_stateLabel; }
    /// Selected Func (node index), -1 for none.
    int selectedFunc() const { return m_func; }
    const std::vector<Pin> &pins() const { return m_pins; }
    /// The pin on Func `name`, if any.
    const Pin *pinFor(const std::string &name) const;
    /// True if the current step froze `node`.
    bool isFrozen(int node) const;
    /// Where replaced steps go once every view has let go of them (by default they are simply
    /// dropped): lets their owner free big snapshots off the GUI thread.
    void setSnapshotReleaser(std::function<void(SearchStepPtr)> releaser) {
        m_releaser = std::move(releaser);
    }

public Q_SLOTS:
    /// A new pipeline: clears the step, state and Func selection.
    void setDag(std::shared_ptr<const beamscope::FunctionDAG> dag);
    /// A new step (nullptr after a reset); inspects its beam's cheapest entry (the search's
    /// result when the step finishes the search).
    void setStep(beamscope::SearchStepPtr step);
    /// Inspects another state (a beam entry or a candidate).
    void selectState(beamscope::StatePtr state, std::optional<beamscope::StateCost> cost,
                     const QString &label);
    /// Selects a Func everywhere (-1 clears).
    void selectFunc(int node);
    /// The pins now in force (after the search accepted them).
    void setPins(const std::vector<beamscope::Pin> &pins);
    /// A view asks for these pins; whoever owns the search checks them and calls setPins().
    void requestPins(const std::vector<beamscope::Pin> &pins);
    /// A view asks "why not this decision?" (a pin's fields); whoever owns the search answers.
    void requestWhy(const beamscope::Pin &decision);

Q_SIGNALS:
    void dagChanged();
    void stepChanged();
    void stateChanged();
    void funcSelected(int node);
    void pinsChanged();
    void pinsRequested(const std::vector<beamscope::Pin> &pins);
    void whyRequested(const beamscope::Pin &decision);

private:
    std::shared_ptr<const FunctionDAG> m_dag;
    SearchStepPtr m_step;
    StatePtr m_state;
    std::optional<StateCost> m_stateCost;
    QString m_stateLabel;
    int m_func = -1;
    std::vector<Pin> m_pins;
    std::function<void(SearchStepPtr)> m_releaser;
};

} // namespace beamscope
