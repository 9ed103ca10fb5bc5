// MeasurePanel: the table, runner, hint, progress and result line the measuring docks share.
#include "views/common/MeasurePanel.h"

#include "views/runner/RunnerChoice.h"
#include "views/runner/RunnerProgressModel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace beamscope {

MeasurePanel::MeasurePanel(QWidget *parent)
    : QWidget(parent), m_table(new QTableView), m_progress(new QProgressBar),
      m_runnerModel(new RunnerProgressModel(this)),
      m_runnerTable(RunnerChoice::progressTable(m_runnerModel)), m_hint(new QLabel),
      m_resultLine(new QLabel) {
    m_hint->setWordWrap(true);
    m_resultLine->setWordWrap(true);
    m_resultLine->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_progress->setTextVisible(true);
    m_progress->setMinimumWidth(160);
    m_progress->setFormat(tr("idle"));
    m_progress->setValue(0);
}

void MeasurePanel::showRowsOf(QAbstractItemModel *model) {
    m_table->setModel(model);
    m_table->verticalHeader()->hide();
    // Compact rows, as in the other tables: a run's rows should fit unscrolled.
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setWordWrap(false);
    // Once rows are in, the hint's lines go to the rows (a laptop's bottom dock is short); the
    // progress bar's tooltip keeps the hint.
    const auto showHint = [this, model] { m_hint->setVisible(model->rowCount() == 0); };
    connect(model, &QAbstractItemModel::modelReset, this, showHint);
    connect(model, &QAbstractItemModel::rowsInserted, this, showHint);
}

RunnerChoice *MeasurePanel::createRunnerChoice() {
    m_runner = new RunnerChoice;
    connect(m_runner, &RunnerChoice::settingsChanged, this, &MeasurePanel::runnerChanged);
    // The jobs per node matter on a cluster; on this machine the progress bar says it all,
    // and the table's width goes to the results.
    const auto showJobs = [this](const RunnerSettings &runner) {
        m_runnerTable->setVisible(runner.kind == RunnerKind::Slurm);
    };
    connect(m_runner, &RunnerChoice::settingsChanged, this, showJobs);
    showJobs(m_runner->settings());
    return m_runner;
}

QComboBox *MeasurePanel::createDeviceChoice(bool compileOnly, const QString &toolTip) {
    m_device = new QComboBox;
    m_device->addItem(tr("auto"), int(DevicePreference::Auto));
    m_device->addItem(tr("OpenCL"), int(DevicePreference::OpenCL));
    m_device->addItem(tr("CUDA"), int(DevicePreference::Cuda));
    if (compileOnly) m_device->addItem(tr("none (compile only)"), int(DevicePreference::None));
    m_device->setToolTip(toolTip);
    return m_device;
}

DevicePreference MeasurePanel::chosenDevice() const {
    return DevicePreference(m_device->currentData().toInt());
}

void MeasurePanel::chooseDevice(DevicePreference device) {
    m_device->setCurrentIndex(std::max(0, m_device->findData(int(device))));
}

void MeasurePanel::makeStopButton(QPushButton *button, const QString &progressText,
                                  std::function<void()> stop) {
    connect(button, &QPushButton::clicked, this, [this, button, progressText, stop] {
        button->setEnabled(false);
        m_progress->setFormat(progressText);
        stop();
    });
}

void MeasurePanel::arrange(QWidget *controls, QWidget *chart, const QList<int> &stretch,
                           const QList<int> &sizes, QWidget *below) {
    auto *split = new QSplitter(Qt::Horizontal);
    split->addWidget(m_table);
    split->addWidget(chart);
    split->addWidget(m_runnerTable);
    for (int i = 0; i < stretch.size(); ++i)
        split->setStretchFactor(i, stretch[i]);
    split->setSizes(sizes);
    split->setChildrenCollapsible(false);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(4);
    layout->addWidget(controls);
    auto *status = new QHBoxLayout;
    status->addWidget(m_hint, 1);
    status->addWidget(m_progress);
    layout->addLayout(status);
    layout->addWidget(split, 1);
    layout->addWidget(m_resultLine);
    if (below) layout->addWidget(below);
}

QString MeasurePanel::hint() const {
    return m_hint->text();
}

void MeasurePanel::setAvailable(bool available, const QString &hint) {
    m_available = available;
    m_hint->setText(hint);
    m_progress->setToolTip(hint);
    updateEnabled();
}

void MeasurePanel::setBusy(bool busy) {
    m_busy = busy;
    updateEnabled();
}

void MeasurePanel::setRunnerProgress(const RunnerProgress &progress) {
    m_runnerModel->setProgress(progress);
}

void MeasurePanel::showFailure(const QString &line) {
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_progress->setFormat(tr("failed"));
    m_resultLine->setText(line);
}

} // namespace beamscope
