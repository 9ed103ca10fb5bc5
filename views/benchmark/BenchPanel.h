// BenchPanel: the "Benchmark" dock — what to measure (device; the search's result, the best
// state of the beam on screen or the top k, optionally plus greedy samples; which Halide baselines
// to run beside), Run and Cancel, a progress bar naming the job in flight, then the results table
// and the predicted-vs-measured chart side by side, and a one-line verdict (the chosen schedule and
// its speedup over each baseline). It only asks for runs (runRequested) and shows what it is given;
// whoever owns the search and the BenchmarkController decides what a run measures.
#pragma once

#include "measure/DeviceDetect.h"
#include "measure/Measurement.h"
#include "views/common/MeasurePanel.h"
#include "views/runner/RunnerSettings.h"

#include <QString>
#include <QStringList>

#include <memory>

class QAction;
class QComboBox;
class QLabel;
class QPushButton;
class QSpinBox;
class QToolButton;

namespace beamscope {

struct BenchReport;
class BenchResultsModel;
class PredictedMeasuredChart;

/// Which schedules a run measures.
enum class BenchPick {
    Result,     ///< the search's result (what Export saves and the CLI's bench measures first)
    BestOfBeam, ///< the cheapest complete state of the beam on screen
    TopK,       ///< the result, then the beam's cheapest complete states: `count` in all
};

/// What the user asked the panel to measure.
struct BenchSettings {
    DevicePreference device = DevicePreference::Auto;
    BenchPick pick = BenchPick::Result; ///< TopK whenever count > 1
    int count = 1;                      ///< schedules in all, the result first (1: one schedule)
    int greedySamples = 0;              ///< greedy searches with dropout added to them
    QStringList baselines;              ///< "naive", "anderson2021", "li2018", "mullapudi2016"
    RunnerSettings runner;              ///< this machine, or a Slurm cluster
};

/// The table, runner, hint and progress are MeasurePanel's (shared with the Tune dock).
class BenchPanel : public MeasurePanel {
    Q_OBJECT
public:
    explicit BenchPanel(QWidget *parent = nullptr);

    BenchSettings settings() const;
    void setSettings(const BenchSettings &settings);
    BenchResultsModel *model() const { return m_model; }
    PredictedMeasuredChart *chart() const { return m_chart; }
    QPushButton *runButton() const { return m_run; }
    QPushButton *cancelButton() const { return m_cancel; }
    /// The verdict line under the results (empty before a report).
    QString verdictText() const;
    /// The note that this run's rows are not recorded ("" when they are).
    QString notRecordedText() const;

public Q_SLOTS:
    /// A new run: clears the rows, names the chart's prediction axis.
    void beginRun(const QString &predictedFor);
    void setProgress(int done, int total, const QString &label);
    void addMeasurement(const beamscope::Measurement &measurement, bool baseline);
    /// A finished (or cancelled) run, or one restored from a session: every row, the choice,
    /// the device, the verdict. nullptr clears the panel.
    void showReport(std::shared_ptr<const beamscope::BenchReport> report);
    /// The run failed to start or stopped on an error.
    void showError(const QString &message);
    /// The run's rows are not recorded in the measurement database (why, one line); the note
    /// stays until the next run.
    void showNotRecorded(const QString &message);

Q_SIGNALS:
    void runRequested(const beamscope::BenchSettings &settings);
    void cancelRequested();

protected:
    void updateEnabled() override;

private:
    QWidget *createControls();
    /// The baseline button names the chosen baselines.
    void updateBaselineButton();
    /// Hides the columns no row fills (registers and spills without a PTX report, a search
    /// time without a baseline, failures when none failed): a narrow dock keeps the others.
    void hideEmptyColumns();

    BenchResultsModel *m_model;
    PredictedMeasuredChart *m_chart;
    QComboBox *m_mode;
    QSpinBox *m_count;
    QSpinBox *m_greedy;
    std::vector<QAction *> m_baselines; ///< checkable, in m_baselineButton's menu
    QToolButton *m_baselineButton = nullptr;
    QPushButton *m_run;
    QPushButton *m_cancel;
    QLabel *m_notRecorded;
};

} // namespace beamscope
