// BenchPanel: controls, progress, table + chart, and the verdict (core BenchVerdict's line).
#include "views/benchmark/BenchPanel.h"

#include "bench/BenchRun.h"
#include "bench/BenchVerdict.h"
#include "measure/Baselines.h"
#include "views/benchmark/BenchResultsModel.h"
#include "views/benchmark/PredictedMeasuredChart.h"
#include "views/common/FlowLayout.h"
#include "views/runner/RunnerChoice.h"
#include "views/runner/RunnerProgressModel.h"

#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTableView>
#include <QToolButton>

#include <cmath>

namespace beamscope {

namespace {

/// What each baseline is, for its menu entry's tooltip.
QString baselineTooltip(Baseline baseline) {
    switch (baseline) {
    case Baseline::Naive:
        return QObject::tr("Every Func at root, 16x16 GPU tiles");
    case Baseline::Anderson2021:
        return QObject::tr("Halide's GPU autoscheduler (Anderson et al. 2021) with the same GPU "
                           "parameters, in Halide's default configuration (sampling and "
                           "freezing off: minutes on large pipelines)");
    case Baseline::Anderson2021Paper:
        return QObject::tr("Halide's Anderson2021 with the paper's hierarchical sampling and "
                           "freezing on, as Beamscope's own search runs by default");
    case Baseline::Li2018:
        return QObject::tr("Halide's Li2018 autoscheduler (gradient autoscheduler)");
    case Baseline::Mullapudi2016:
        return QObject::tr("Halide's Mullapudi2016 autoscheduler in its experimental GPU mode");
    }
    return {};
}

/// "OpenCL CPU", "CUDA NVIDIA H100", "no device".
QString shortDeviceName(const DeviceInfo &device) {
    switch (device.kind) {
    case DeviceKind::OpenCL:
        return QStringLiteral("OpenCL %1").arg(QString::fromStdString(device.openclType));
    case DeviceKind::Cuda:
        return QStringLiteral("CUDA %1").arg(QString::fromStdString(device.name));
    case DeviceKind::None:
        break;
    }
    return QObject::tr("no device");
}

} // namespace

BenchPanel::BenchPanel(QWidget *parent)
    : MeasurePanel(parent), m_model(new BenchResultsModel(this)),
      m_chart(new PredictedMeasuredChart(m_model)), m_notRecorded(new QLabel) {
    setObjectName(QStringLiteral("benchPanel"));
    showRowsOf(m_model);
    m_table->setObjectName(QStringLiteral("benchTable"));
    m_table->setAlternatingRowColors(false);
    m_table->horizontalHeader()->setSectionResizeMode(BenchResultsModel::FailureColumn,
                                                      QHeaderView::Stretch);
    connect(m_model, &QAbstractItemModel::modelReset, this, &BenchPanel::hideEmptyColumns);
    connect(m_model, &QAbstractItemModel::rowsInserted, this, &BenchPanel::hideEmptyColumns);
    connect(m_model, &QAbstractItemModel::dataChanged, this, &BenchPanel::hideEmptyColumns);
    hideEmptyColumns();
    m_hint->setObjectName(QStringLiteral("benchHint"));
    m_notRecorded->setObjectName(QStringLiteral("benchNotRecorded"));
    m_notRecorded->setWordWrap(true);
    m_notRecorded->setStyleSheet(QStringLiteral("color: #b03000;"));
    m_notRecorded->hide();
    // The table's columns first, the chart beside, the jobs per node last.
    arrange(createControls(), m_chart, {3, 2, 1}, {560, 400, 300}, m_notRecorded);
    setAvailable(false, tr("Load a pipeline and run the search: benchmarks measure complete "
                           "schedules from the beam."));
}

void BenchPanel::hideEmptyColumns() {
    for (int column :
         {int(BenchResultsModel::RegistersColumn), int(BenchResultsModel::SpillsColumn),
          int(BenchResultsModel::SearchColumn), int(BenchResultsModel::FailureColumn)}) {
        bool filled = false;
        for (int row = 0; row < m_model->rowCount() && !filled; ++row)
            filled = !m_model->index(row, column).data().toString().isEmpty();
        m_table->setColumnHidden(column, !filled);
    }
}

QWidget *BenchPanel::createControls() {
    auto *controls = new QWidget;
    // Wraps onto a second line when the dock is narrow (a laptop screen).
    auto *row = new FlowLayout(controls, 10);
    row->setContentsMargins(0, 0, 0, 0);
    createDeviceChoice(true, tr("Where candidates run: auto picks CUDA, else OpenCL, else "
                                "compiles only (registers and spills, no times)"));
    m_mode = new QComboBox;
    // In BenchPick's order: the search's result first, as Export saves it and the CLI's
    // bench measures it.
    m_mode->addItem(tr("the search's result"));
    m_mode->addItem(tr("best of the beam"));
    m_mode->addItem(tr("top k (result first)"));
    m_mode->setObjectName(QStringLiteral("benchMeasure"));
    m_mode->setToolTip(tr("Which complete schedules to measure: the search's result (★ in the "
                          "Beam dock; what Export saves), the cheapest state of the beam on "
                          "screen, or the result and the beam's cheapest states, k in all"));
    m_count = new QSpinBox;
    m_count->setRange(2, 64);
    m_count->setValue(5);
    m_count->setPrefix(tr("k = "));
    m_greedy = new QSpinBox;
    m_greedy->setRange(0, 32);
    m_greedy->setSuffix(tr(" greedy"));
    m_greedy->setToolTip(tr("Also measure this many greedy samples (beam 1, random dropout) "
                            "searched with the same options and pins"));
    m_run = new QPushButton(tr("Run benchmark"));
    m_run->setObjectName(QStringLiteral("benchRun"));
    m_cancel = new QPushButton(tr("Cancel"));
    m_cancel->setObjectName(QStringLiteral("benchCancel"));

    row->addWidget(controlGroup({new QLabel(tr("Device")), m_device}));
    row->addWidget(controlGroup({new QLabel(tr("Measure")), m_mode, m_count, m_greedy}));
    // The baselines in a menu: one compact button keeps the controls on one row beside the
    // beam when the panel is tabbed with the candidates.
    m_baselineButton = new QToolButton;
    m_baselineButton->setPopupMode(QToolButton::InstantPopup);
    m_baselineButton->setToolButtonStyle(Qt::ToolButtonTextOnly);
    auto *menu = new QMenu(m_baselineButton);
    for (Baseline baseline : allBaselines()) {
        QAction *action = menu->addAction(QString::fromLatin1(baselineName(baseline)));
        action->setCheckable(true);
        action->setChecked(baseline == Baseline::Naive);
        action->setToolTip(baselineTooltip(baseline));
        connect(action, &QAction::toggled, this, &BenchPanel::updateBaselineButton);
        m_baselines.push_back(action);
    }
    m_baselineButton->setMenu(menu);
    row->addWidget(m_baselineButton);
    updateBaselineButton();
    menu->setToolTipsVisible(true);
    row->addWidget(createRunnerChoice());
    row->addWidget(controlGroup({m_run, m_cancel}));

    connect(m_mode, &QComboBox::currentIndexChanged, this, &BenchPanel::updateEnabled);
    connect(m_run, &QPushButton::clicked, this, [this] { Q_EMIT runRequested(settings()); });
    makeStopButton(m_cancel, tr("cancelling…"), [this] { Q_EMIT cancelRequested(); });
    return controls;
}

BenchSettings BenchPanel::settings() const {
    BenchSettings s;
    s.device = chosenDevice();
    s.pick = BenchPick(m_mode->currentIndex());
    s.count = s.pick == BenchPick::TopK ? m_count->value() : 1;
    s.greedySamples = m_greedy->value();
    for (QAction *action : m_baselines) {
        if (action->isChecked()) s.baselines << action->text();
    }
    s.runner = m_runner->settings();
    return s;
}

void BenchPanel::setSettings(const BenchSettings &s) {
    chooseDevice(s.device);
    m_mode->setCurrentIndex(int(s.count > 1 ? BenchPick::TopK : s.pick));
    if (s.count > 1) m_count->setValue(s.count);
    m_greedy->setValue(s.greedySamples);
    for (QAction *action : m_baselines)
        action->setChecked(s.baselines.contains(action->text()));
    m_runner->setSettings(s.runner);
}

QString BenchPanel::verdictText() const {
    return m_resultLine->text();
}

QString BenchPanel::notRecordedText() const {
    return m_notRecorded->text();
}

void BenchPanel::showNotRecorded(const QString &message) {
    m_notRecorded->setText(message);
    m_notRecorded->show();
}

void BenchPanel::updateBaselineButton() {
    QStringList chosen;
    for (QAction *action : m_baselines) {
        if (action->isChecked()) chosen << action->text();
    }
    m_baselineButton->setText(
        tr("Baselines: %1 ▾")
            .arg(chosen.isEmpty() ? tr("none") : chosen.join(QStringLiteral(", "))));
}

void BenchPanel::updateEnabled() {
    m_run->setEnabled(m_available && !m_busy);
    m_cancel->setEnabled(m_busy);
    for (QWidget *w : std::initializer_list<QWidget *>{m_device, m_mode, m_greedy})
        w->setEnabled(!m_busy);
    m_count->setEnabled(!m_busy && BenchPick(m_mode->currentIndex()) == BenchPick::TopK);
    m_baselineButton->setEnabled(!m_busy);
    m_runner->setEnabled(!m_busy);
}

void BenchPanel::beginRun(const QString &predictedFor) {
    m_notRecorded->clear();
    m_notRecorded->hide();
    m_model->clear();
    m_runnerModel->clear();
    m_chart->setContext(predictedFor, QString());
    m_resultLine->clear();
    m_progress->setRange(0, 0); // busy until the first progress report
    m_progress->setFormat(tr("starting…"));
}

void BenchPanel::setProgress(int done, int total, const QString &label) {
    m_progress->setRange(0, std::max(1, total));
    m_progress->setValue(done);
    m_progress->setFormat(total > 0 ? tr("%1 — %2 of %3").arg(label).arg(done).arg(total) : label);
}

void BenchPanel::addMeasurement(const Measurement &measurement, bool baseline) {
    m_model->addMeasurement(measurement, baseline);
}

void BenchPanel::showReport(std::shared_ptr<const BenchReport> report) {
    if (!report) {
        m_model->clear();
        m_resultLine->clear();
        m_progress->setRange(0, 1);
        m_progress->setValue(0);
        m_progress->setFormat(tr("idle"));
        return;
    }
    m_model->setResults(report->candidates, report->baselines, report->chosen);
    m_chart->setContext(QString::fromStdString(report->gpu.name), shortDeviceName(report->device));
    m_resultLine->setText(QString::fromStdString(benchVerdict(*report).text()));
    const int rows = int(report->candidates.size() + report->baselines.size());
    m_progress->setRange(0, std::max(1, rows));
    m_progress->setValue(rows);
    const QString rowCount = rows == 1 ? tr("1 row") : tr("%1 rows").arg(rows);
    m_progress->setFormat(
        report->cancelled
            ? tr("cancelled after %1").arg(rowCount)
            : tr("done: %1 in %2 s").arg(rowCount).arg(report->benchMs / 1000, 0, 'f', 1));
}

void BenchPanel::showError(const QString &message) {
    showFailure(tr("Benchmark failed: %1").arg(message));
}

} // namespace beamscope
