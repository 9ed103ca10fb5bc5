// TunePanel: the "Tune" dock — autotuning the loaded pipeline on the local device (Anderson et
// al. 2021, section 6): the device, the number of rounds and the batch measured per round,
// Start, Stop and Resume (the stopped run continues under the same run id, nothing measured
// twice), a progress bar naming the round and phase, the rounds table, the best-per-round and
// predicted-vs-measured charts, and a summary line. It only asks for runs and shows what it is
// given; the TuneCoordinator (app/gui) owns the TuneController.
#pragma once

#include "measure/DeviceDetect.h"
#include "tune/Tuner.h"
#include "views/runner/RunnerSettings.h"

#include <QWidget>

#include <memory>

class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableView;

namespace beamscope {

class RunnerChoice;
class RunnerProgressModel;
class TuneCharts;
class TuneRoundsModel;

/// What the user asked to tune.
struct TuneSettings {
    DevicePreference device = DevicePreference::Auto;
    int rounds = 5;
    int batch = 16;
    RunnerSettings runner; ///< this machine, or a Slurm cluster
};

class TunePanel : public QWidget {
    Q_OBJECT
public:
    explicit TunePanel(QWidget *parent = nullptr);

    TuneSettings settings() const;
    void setSettings(const TuneSettings &settings);
    TuneRoundsModel *model() const { return m_model; }
    TuneCharts *charts() const { return m_charts; }
    QTableView *table() const { return m_table; }
    QPushButton *startButton() const { return m_start; }
    QPushButton *stopButton() const { return m_stop; }
    QPushButton *resumeButton() const { return m_resume; }
    RunnerChoice *runnerChoice() const { return m_runner; }
    /// Jobs per node of the batch being measured (or the last one).
    RunnerProgressModel *runnerProgress() const { return m_runnerModel; }
    QTableView *runnerTable() const { return m_runnerTable; }
    /// The line under the controls: what Start will do, or why it cannot.
    QString hint() const;
    /// The summary under the results (empty before a report).
    QString summary() const;

public Q_SLOTS:
    /// Whether Start may be pressed, with the hint saying what it does or why not.
    void setAvailable(bool available, const QString &hint);
    /// Whether Resume may be pressed (a stopped run of the loaded pipeline to continue).
    void setResumable(bool resumable);
    /// A run started (true) or ended (false): the buttons and settings follow.
    void setBusy(bool busy);
    /// A new run clears the rounds; a resumed one keeps them.
    void beginRun(bool resume);
    void setProgress(const beamscope::TuneProgress &progress);
    void addRound(const beamscope::TuneRound &round);
    /// The runner's jobs per node (pending/running/done) of the batch being measured.
    void setRunnerProgress(const beamscope::RunnerProgress &progress);
    /// A finished or stopped run: its summary (best, one-shot, baselines, model file).
    void showReport(std::shared_ptr<const beamscope::TuneReport> report);
    void showError(const QString &message);

Q_SIGNALS:
    void startRequested(const beamscope::TuneSettings &settings);
    void resumeRequested(const beamscope::TuneSettings &settings);
    void stopRequested();
    /// The user changed where runs measure (the coordinator keeps it across sessions).
    void runnerChanged(const beamscope::RunnerSettings &runner);

private:
    QWidget *createControls();
    void updateEnabled();

    TuneRoundsModel *m_model;
    TuneCharts *m_charts;
    QTableView *m_table;
    QComboBox *m_device = nullptr;
    QSpinBox *m_rounds = nullptr;
    QSpinBox *m_batch = nullptr;
    QPushButton *m_start = nullptr;
    QPushButton *m_stop = nullptr;
    QPushButton *m_resume = nullptr;
    QProgressBar *m_progress;
    RunnerChoice *m_runner = nullptr;
    RunnerProgressModel *m_runnerModel;
    QTableView *m_runnerTable;
    QLabel *m_hint;
    QLabel *m_summary;
    bool m_available = false;
    bool m_resumable = false;
    bool m_busy = false;
};

/// The summary line of a tune report: best measured, against the one-shot choice and each
/// baseline, the model file written.
QString tuneSummary(const TuneReport &report);

} // namespace beamscope
