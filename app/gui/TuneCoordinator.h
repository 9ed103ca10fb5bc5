// TuneCoordinator: connects the Tune dock to a TuneController so that tuning works on what the
// user is looking at — the loaded pipeline, with the toolbar's search options, GPU model, cost
// model and pins — and records into the measurement database of DatabaseSetting (origin
// "gui-tune"). Start is available once a pipeline is loaded; Resume once a run of that pipeline
// was stopped (it continues the same run id, so nothing measured is measured again).
#pragma once

#include "controllers/TuneController.h"

#include <QObject>
#include <QString>

namespace beamscope {

class SearchController;
class SelectionHub;
class TunePanel;
struct TuneSettings;

class TuneCoordinator : public QObject {
    Q_OBJECT
public:
    TuneCoordinator(TunePanel *panel, SelectionHub *hub, SearchController *search,
                    QObject *parent = nullptr);

    TuneController *controller() const { return m_tune; }
    /// beamscope-worker to measure in ("" : next to the executable).
    void setWorkerPath(const QString &path) { m_workerPath = path; }
    /// Timed runs per schedule (default 5, as the CLI).
    void setRepeats(int repeats) { m_repeats = repeats; }

public Q_SLOTS:
    /// Starts a new run of the loaded pipeline with `settings`.
    void start(const beamscope::TuneSettings &settings);
    /// Continues the last stopped run up to `settings.rounds` rounds.
    void resume(const beamscope::TuneSettings &settings);

Q_SIGNALS:
    /// One line for the status bar.
    void message(const QString &text);
    /// A run wrote a learned model file (it can be picked as the search's cost model).
    void modelWritten(const QString &path);

private:
    void run(const TuneSettings &settings, bool resume);
    void updateAvailability();

    TunePanel *m_panel;
    SelectionHub *m_hub;
    SearchController *m_search;
    TuneController *m_tune;
    QString m_workerPath;
    int m_repeats = 5;
    std::string m_stoppedRunId;    ///< a stopped run Resume continues ("" : none)
    std::string m_stoppedPipeline; ///< the pipeline source it tuned (name + parameters)
    int m_stoppedRounds = 0;       ///< rounds it completed
};

} // namespace beamscope
