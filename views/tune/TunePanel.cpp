// TunePanel: controls, progress, rounds table + charts, summary.
#include "views/tune/TunePanel.h"

#include "bench/CandidateLabel.h"

#include "views/common/FlowLayout.h"
#include "views/runner/RunnerChoice.h"
#include "views/runner/RunnerProgressModel.h"
#include "views/tune/TuneCharts.h"
#include "views/tune/TuneRoundsModel.h"

#include <QComboBox>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTableView>

#include <cmath>

namespace beamscope {

namespace {

/// "2.10× faster than naive" / "1.20× slower than li2018" (theirs / ours).
QString against(double ours, const Measurement &theirs, const QString &name) {
    if (!theirs.measuredMs || !theirs.correct.value_or(false) || ours <= 0) return {};
    const double r = theirs.measuredMs->median / ours;
    return (r >= 1 ? QObject::tr("%1× faster than %2") : QObject::tr("%1× slower than %2"))
        .arg(r >= 1 ? r : 1 / r, 0, 'f', 2)
        .arg(name);
}

QString rounds(int n) {
    return n == 1 ? QObject::tr("1 round") : QObject::tr("%1 rounds").arg(n);
}

} // namespace

QString tuneSummary(const TuneReport &report) {
    QString text;
    if (report.cancelled) {
        text += QObject::tr("Stopped after %1; Resume continues run %2. ")
                    .arg(rounds(int(report.rounds.size())), QString::fromStdString(report.runId));
    }
    if (!report.best || !report.best->measuredMs)
        return text + QObject::tr("No correct schedule measured yet.");
    const double best = report.best->measuredMs->median;
    QStringList parts;
    parts << QObject::tr("Best %1 ms (%2)")
                 .arg(best, 0, 'g', 4)
                 .arg(QString::fromStdString(candidateLabelInWords(report.best->label)));
    if (report.oneShot) {
        const QString s =
            against(best, *report.oneShot, QObject::tr("the analytic one-shot choice"));
        if (!s.isEmpty()) parts << s;
    }
    for (const Measurement &b : report.baselines) {
        const QString label = QString::fromStdString(b.label);
        const QString s =
            against(best, b, label.startsWith(QStringLiteral("baseline:")) ? label.mid(9) : label);
        if (!s.isEmpty()) parts << s;
    }
    text += parts.join(QStringLiteral(", ")) + QStringLiteral(".");
    if (!report.modelPath.empty())
        text += QObject::tr(" Learned model: %1").arg(QString::fromStdString(report.modelPath));
    return text;
}

TunePanel::TunePanel(QWidget *parent)
    : MeasurePanel(parent), m_model(new TuneRoundsModel(this)), m_charts(new TuneCharts(m_model)) {
    setObjectName(QStringLiteral("tunePanel"));
    showRowsOf(m_model);
    m_table->setObjectName(QStringLiteral("tuneTable"));
    m_table->setMinimumWidth(180);
    // The table's first columns (round, round best, best, τ) and the charts' legends whole on a
    // laptop's 1280 px: the charts take most of the width, the table scrolls to its later
    // columns.
    arrange(createControls(), m_charts, {1, 3, 1}, {280, 720, 300});
    setAvailable(false, tr("Load a pipeline: tuning searches it, measures a batch of schedules "
                           "per round (on this machine or a Slurm cluster) and retrains "
                           "the cost model."));
}

QWidget *TunePanel::createControls() {
    auto *controls = new QWidget;
    // Wraps onto a second line when the dock is narrow (a laptop screen).
    auto *row = new FlowLayout(controls, 10);
    row->setContentsMargins(0, 0, 0, 0);
    createDeviceChoice(false, tr("Where schedules are measured: auto picks CUDA, else OpenCL"));
    m_rounds = new QSpinBox;
    m_rounds->setRange(1, 100);
    m_rounds->setValue(5);
    m_rounds->setSuffix(tr(" rounds"));
    m_rounds->setToolTip(tr("Rounds of search, measure, retrain (the paper: 20)"));
    m_batch = new QSpinBox;
    m_batch->setRange(1, 256);
    m_batch->setValue(16);
    m_batch->setPrefix(tr("batch "));
    m_batch->setToolTip(tr("Schedules measured per round: the top of a beam search plus greedy "
                           "samples with dropout (the paper: 80)"));
    m_start = new QPushButton(tr("Start"));
    m_start->setObjectName(QStringLiteral("tuneStart"));
    m_stop = new QPushButton(tr("Stop"));
    m_stop->setObjectName(QStringLiteral("tuneStop"));
    m_stop->setToolTip(tr("Stop after the schedule being measured; nothing measured is lost"));
    m_resume = new QPushButton(tr("Resume"));
    m_resume->setObjectName(QStringLiteral("tuneResume"));
    m_resume->setToolTip(tr("Continue the stopped run (same run id) up to the rounds asked for"));
    row->addWidget(controlGroup({new QLabel(tr("Device")), m_device}));
    row->addWidget(controlGroup({m_rounds, m_batch}));
    row->addWidget(createRunnerChoice());
    row->addWidget(controlGroup({m_start, m_stop, m_resume}));
    connect(m_start, &QPushButton::clicked, this, [this] { Q_EMIT startRequested(settings()); });
    connect(m_resume, &QPushButton::clicked, this, [this] { Q_EMIT resumeRequested(settings()); });
    makeStopButton(m_stop, tr("stopping after the row in flight…"),
                   [this] { Q_EMIT stopRequested(); });
    return controls;
}

TuneSettings TunePanel::settings() const {
    TuneSettings s;
    s.device = chosenDevice();
    s.rounds = m_rounds->value();
    s.batch = m_batch->value();
    s.runner = m_runner->settings();
    return s;
}

void TunePanel::setSettings(const TuneSettings &s) {
    chooseDevice(s.device);
    m_rounds->setValue(s.rounds);
    m_batch->setValue(s.batch);
    m_runner->setSettings(s.runner);
}

QString TunePanel::summary() const {
    return m_resultLine->text();
}

void TunePanel::setResumable(bool resumable) {
    m_resumable = resumable;
    updateEnabled();
}

void TunePanel::updateEnabled() {
    m_start->setEnabled(m_available && !m_busy);
    m_resume->setEnabled(m_available && m_resumable && !m_busy);
    m_stop->setEnabled(m_busy);
    m_device->setEnabled(!m_busy);
    m_batch->setEnabled(!m_busy);
    m_rounds->setEnabled(!m_busy);
    m_runner->setEnabled(!m_busy);
}

void TunePanel::beginRun(bool resume) {
    if (!resume) m_model->clear();
    m_runnerModel->clear();
    m_resultLine->clear();
    m_progress->setRange(0, 0);
    m_progress->setFormat(resume ? tr("resuming…") : tr("starting…"));
}

void TunePanel::setProgress(const TuneProgress &p) {
    const QString round = tr("round %1 of %2").arg(p.round + 1).arg(p.rounds);
    if (p.phase == "measuring" && p.total > 0) {
        m_progress->setRange(0, p.total);
        m_progress->setValue(p.done);
        m_progress->setFormat(tr("%1: measuring %2 of %3").arg(round).arg(p.done).arg(p.total));
    } else if (p.phase == "done" || p.phase == "cancelled") {
        m_progress->setRange(0, 1);
        m_progress->setValue(1);
        m_progress->setFormat(p.phase == "done" ? tr("done") : tr("stopped"));
    } else {
        m_progress->setRange(0, 0); // searching, training, baselines: no count to show
        m_progress->setFormat(tr("%1: %2").arg(round, QString::fromStdString(p.phase)));
    }
}

void TunePanel::addRound(const TuneRound &round) {
    m_model->addRound(round);
}

void TunePanel::showReport(std::shared_ptr<const TuneReport> report) {
    if (!report) {
        m_model->clear();
        m_resultLine->clear();
        return;
    }
    // A resumed run reports only its own rounds: the model keeps the earlier ones.
    for (const TuneRound &r : report->rounds)
        m_model->addRound(r);
    m_progress->setRange(0, 1);
    m_progress->setValue(1);
    m_progress->setFormat(report->cancelled
                              ? tr("stopped after %1").arg(rounds(m_model->rowCount()))
                              : tr("done: %1").arg(rounds(m_model->rowCount())));
    m_resultLine->setText(tuneSummary(*report));
}

void TunePanel::showError(const QString &message) {
    showFailure(tr("Tuning failed: %1").arg(message));
}

} // namespace beamscope
