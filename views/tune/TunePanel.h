// TunePanel: the "Tune" dock — autotuning the loaded pipeline on the local device (Anderson et
// al. 2021, section 6): the device, the number of rounds and the batch measured per round,
// Start, Stop and Resume (the stopped run continues under the same run id, nothing measured
// twice), a progress bar naming the round and phase, the rounds table, the best-per-round and
// predicted-vs-measured charts, and a summary line. It only asks for runs and shows what it is
// given; the TuneCoordinator (app/gui) owns the TuneController.
#pragma once

#include "measure/DeviceDetect.h"
#include "tune/Tuner.h"
#include "views/common/MeasurePanel.h"
#include "views/runner/RunnerSettings.h"

#include <memory>

class QComboBox;
class QPushButton;
class QSpinBox;

namespace beamscope {

class TuneCharts;
class TuneRoundsModel;

/// What the user asked to tune.
struct TuneSettings {
    DevicePreference device = DevicePreference::Auto;
    int rounds = 5;
    int batch = 16;
    RunnerSettings runner; ///< this machine, or a Slurm cluster
};

/// The table, runner, hint and progress are MeasurePanel's (shared with the Benchmark dock).
class TunePanel : public MeasurePanel {
    Q_OBJECT
public:
    explicit TunePanel(QWidget *parent = nullptr);

    TuneSettings settings() const;
    void setSettings(const TuneSettings &settings);
    TuneRoundsModel *model() const { return m_model; }
    TuneCharts *charts() const { return m_charts; }
    QPushButton *startButton() const { return m_start; }
    QPushButton *stopButton() const { return m_stop; }
    QPushButton *resumeButton() const { return m_resume; }
    /// The summary under the results (empty before a report).
    QString summary() const;

public Q_SLOTS:
    /// Whether Resume may be pressed (a stopped run of the loaded pipeline to continue).
    void setResumable(bool resumable);
    /// A new run clears the rounds; a resumed one keeps them.
    void beginRun(bool resume);
    void setProgress(const beamscope::TuneProgress &progress);
    void addRound(const beamscope::TuneRound &round);
    /// A finished or stopped run: its summary (best, one-shot, baselines, model file).
    void showReport(std::shared_ptr<const beamscope::TuneReport> report);
    void showError(const QString &message);

Q_SIGNALS:
    void startRequested(const beamscope::TuneSettings &settings);
    void resumeRequested(const beamscope::TuneSettings &settings);
    void stopRequested();

protected:
    void updateEnabled() override;

private:
    QWidget *createControls();

    TuneRoundsModel *m_model;
    TuneCharts *m_charts;
    QSpinBox *m_rounds = nullptr;
    QSpinBox *m_batch = nullptr;
    QPushButton *m_start = nullptr;
    QPushButton *m_stop = nullptr;
    QPushButton *m_resume = nullptr;
    bool m_resumable = false;
};

/// The summary line of a tune report: best measured, against the one-shot choice and each
/// baseline, the model file written.
QString tuneSummary(const TuneReport &report);

} // namespace beamscope
