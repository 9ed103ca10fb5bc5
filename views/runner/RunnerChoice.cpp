// RunnerChoice: the kind box, the settings button and dialog, and the progress table's look.
#include "views/runner/RunnerChoice.h"

#include "views/runner/RunnerProgressModel.h"
#include "views/runner/SlurmSettingsDialog.h"

#include <QComboBox>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSignalBlocker>
#include <QTableView>
#include <QToolButton>

#include <exception>

namespace beamscope {

RunnerChoice::RunnerChoice(QWidget *parent)
    : QWidget(parent), m_kind(new QComboBox), m_slurm(new QToolButton) {
    setObjectName(QStringLiteral("runnerChoice"));
    m_kind->setObjectName(QStringLiteral("runnerKind"));
    m_kind->addItem(tr("this machine"), int(RunnerKind::Local));
    m_kind->addItem(tr("Slurm cluster"), int(RunnerKind::Slurm));
    m_slurm->setObjectName(QStringLiteral("slurmSettings"));
    m_slurm->setText(tr("Slurm…"));
    m_slurm->setToolTip(tr("Shared directory, partition, account, GRES, time limit, … "
                           "(docs/cluster.md)"));
    auto *row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(new QLabel(tr("Measure on")));
    row->addWidget(m_kind);
    row->addWidget(m_slurm);
    connect(m_kind, &QComboBox::activated, this, [this] {
        const auto kind = RunnerKind(m_kind->currentData().toInt());
        if (kind == m_settings.kind) return;
        if (kind == RunnerKind::Slurm) {
            bool usable = true;
            try {
                RunnerSettings slurm = m_settings;
                slurm.kind = RunnerKind::Slurm;
                (void)slurm.slurm();
            } catch (const std::exception &) {
                usable = false;
            }
            if (!usable && !editSlurmSettings()) {
                showSettings(); // back to local
                return;
            }
        }
        m_settings.kind = kind;
        showSettings();
        Q_EMIT settingsChanged(m_settings);
    });
    connect(m_slurm, &QToolButton::clicked, this, [this] { editSlurmSettings(); });
    showSettings();
}

void RunnerChoice::setSettings(const RunnerSettings &settings) {
    m_settings = settings;
    showSettings();
}

bool RunnerChoice::editSlurmSettings() {
    SlurmSettingsDialog dialog(m_settings, this);
    if (dialog.exec() != QDialog::Accepted) return false;
    m_settings = dialog.settings(); // kind Slurm: the user just set it up
    showSettings();
    Q_EMIT settingsChanged(m_settings);
    return true;
}

void RunnerChoice::showSettings() {
    const QSignalBlocker block(m_kind);
    m_kind->setCurrentIndex(m_kind->findData(int(m_settings.kind)));
    const QString where = m_settings.describe();
    m_kind->setToolTip(where);
    m_slurm->setToolTip(where);
}

QTableView *RunnerChoice::progressTable(RunnerProgressModel *model) {
    auto *table = new QTableView;
    table->setObjectName(QStringLiteral("runnerProgress"));
    table->setModel(model);
    table->verticalHeader()->hide();
    table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 6);
    // Every column as wide as its contents, so that node names ("compile (here)", a cluster's
    // host names) are never elided; the table asks for room for a typical name.
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table->horizontalHeader()->setStretchLastSection(false);
    table->setSelectionMode(QAbstractItemView::NoSelection);
    table->setWordWrap(false);
    table->setToolTip(QObject::tr("Jobs of the run per node: pending, running, done"));
    // Room for a typical name by default (the splitter's share); narrower on a laptop screen,
    // where it scrolls sideways rather than setting the window's minimum width.
    table->setMinimumWidth(160);
    return table;
}

} // namespace beamscope
