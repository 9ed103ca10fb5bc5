// SlurmSettingsDialog: edits the Slurm settings of a dock's runner — config file, shared job
// directory, partition, account, GRES, time limit, where candidates compile, the worker as the
// nodes see it, array throttle, poll interval and extra sbatch options (one a line). OK checks
// them as a run would (the config file is read) and says what is wrong in the dialog instead of
// closing.
#pragma once

#include "views/runner/RunnerSettings.h"

#include <QDialog>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QSpinBox;

namespace beamscope {

class SlurmSettingsDialog : public QDialog {
    Q_OBJECT
public:
    explicit SlurmSettingsDialog(const RunnerSettings &settings, QWidget *parent = nullptr);

    /// The settings as edited (kind Slurm).
    RunnerSettings settings() const;
    /// The line saying why OK was refused ("" while none).
    QString problem() const;

public Q_SLOTS:
    void accept() override;

private:
    QLineEdit *m_config;
    QLineEdit *m_dir;
    QLineEdit *m_partition;
    QLineEdit *m_account;
    QLineEdit *m_gres;
    QLineEdit *m_time;
    QComboBox *m_compile;
    QLineEdit *m_worker;
    QSpinBox *m_maxParallel;
    QDoubleSpinBox *m_poll;
    QPlainTextEdit *m_options;
    QLabel *m_problem;
};

} // namespace beamscope
