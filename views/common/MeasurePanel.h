// MeasurePanel: what the Benchmark and Tune docks share. A results table over its model, a chart
// beside it and the runner's jobs per node after them (that table only for a Slurm run), the
// runner choice (this machine or a cluster), a hint line saying what the run button does (hidden
// once rows are in; the progress bar's tooltip keeps it), a progress bar, and a result line under
// the rows. The run button is enabled while a run is available and none is going. BenchPanel and
// TunePanel add their own controls and lines; neither runs anything itself.
#pragma once

#include "measure/DeviceDetect.h"
#include "measure/MeasurementRunner.h"
#include "views/runner/RunnerSettings.h"

#include <QList>
#include <QString>
#include <QWidget>

#include <functional>

class QAbstractItemModel;
class QComboBox;
class QPushButton;
class QLabel;
class QProgressBar;
class QTableView;

namespace beamscope {

class RunnerChoice;
class RunnerProgressModel;

class MeasurePanel : public QWidget {
    Q_OBJECT
public:
    QTableView *table() const { return m_table; }
    RunnerChoice *runnerChoice() const { return m_runner; }
    /// Jobs per node of the run going (or the last one).
    RunnerProgressModel *runnerProgress() const { return m_runnerModel; }
    QTableView *runnerTable() const { return m_runnerTable; }
    /// The line under the controls: what the run button will do, or why it cannot.
    QString hint() const;

public Q_SLOTS:
    /// Whether a run may be started, and the hint saying what it will do or why not.
    void setAvailable(bool available, const QString &hint);
    /// A run started (true) or ended (false): the buttons and settings follow.
    void setBusy(bool busy);
    /// The runner's jobs per node (pending/running/done).
    void setRunnerProgress(const beamscope::RunnerProgress &progress);

Q_SIGNALS:
    /// The user changed where runs measure (the coordinator keeps it across sessions).
    void runnerChanged(const beamscope::RunnerSettings &runner);

protected:
    explicit MeasurePanel(QWidget *parent);

    /// Shows `model` in the results table (compact rows, whole rows selected, columns sized to
    /// their contents); the hint hides once the model has rows.
    void showRowsOf(QAbstractItemModel *model);
    /// The runner choice, made once: its changes are signalled (runnerChanged) and show the jobs
    /// table for Slurm only. The caller places it among its controls.
    RunnerChoice *createRunnerChoice();
    /// Lays the panel out: `controls`; the hint and the progress bar; the table, `chart` and the
    /// jobs table side by side (`stretch` factors, initial `sizes`); the result line; `below`.
    void arrange(QWidget *controls, QWidget *chart, const QList<int> &stretch,
                 const QList<int> &sizes, QWidget *below = nullptr);
    /// The device choice, made once: auto, OpenCL, CUDA and, with `compileOnly`, none. The
    /// caller places it among its controls.
    QComboBox *createDeviceChoice(bool compileOnly, const QString &toolTip);
    DevicePreference chosenDevice() const;
    void chooseDevice(DevicePreference device);
    /// `button` stops the run: it disables itself, the progress bar says `progressText`, then
    /// `stop` runs (it emits the panel's request).
    void makeStopButton(QPushButton *button, const QString &progressText,
                        std::function<void()> stop);
    /// The run failed: the progress bar says so, the result line says `line`.
    void showFailure(const QString &line);
    /// Enables the controls for m_available and m_busy.
    virtual void updateEnabled() = 0;

    QTableView *m_table;
    QProgressBar *m_progress;
    RunnerChoice *m_runner = nullptr;
    QComboBox *m_device = nullptr;
    RunnerProgressModel *m_runnerModel;
    QTableView *m_runnerTable;
    QLabel *m_hint;
    QLabel *m_resultLine; ///< the verdict (Benchmark) or the summary (Tune)
    bool m_available = false;
    bool m_busy = false;
};

} // namespace beamscope
