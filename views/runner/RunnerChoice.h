// RunnerChoice: the runner controls of the Benchmark and Tune docks — a "Measure on" box (this
// machine, or a Slurm cluster) and a "Slurm…" button opening the SlurmSettingsDialog — and the
// per-node jobs table (RunnerProgressModel) a dock shows while a run goes. Choosing Slurm with no
// usable settings opens the dialog; cancelling it goes back to local.
#pragma once

#include "views/runner/RunnerSettings.h"

#include <QWidget>

class QComboBox;
class QTableView;
class QToolButton;

namespace beamscope {

class RunnerProgressModel;

class RunnerChoice : public QWidget {
    Q_OBJECT
public:
    explicit RunnerChoice(QWidget *parent = nullptr);

    RunnerSettings settings() const { return m_settings; }
    void setSettings(const RunnerSettings &settings);
    QComboBox *kindBox() const { return m_kind; }
    QToolButton *slurmButton() const { return m_slurm; }

    /// A compact table of `model` (node, pending, running, done) for a dock.
    static QTableView *progressTable(RunnerProgressModel *model);

public Q_SLOTS:
    /// Opens the Slurm settings; returns whether they were accepted.
    bool editSlurmSettings();

Q_SIGNALS:
    void settingsChanged(const beamscope::RunnerSettings &settings);

private:
    void showSettings();

    RunnerSettings m_settings;
    QComboBox *m_kind;
    QToolButton *m_slurm;
};

} // namespace beamscope
