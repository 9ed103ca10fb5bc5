// WhyDialog: the answer laid out as a headline, a detail paragraph and a tree of figures.
#include "views/explain/WhyDialog.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <cmath>

namespace beamscope {

namespace {

QString number(double v) {
    return std::isnan(v) ? QStringLiteral("–") : QString::number(v, 'g', 5);
}

QString signedNumber(double v) {
    return (v > 0 ? QStringLiteral("+") : QString()) + QString::number(v, 'g', 4);
}

QString passName(int pass) {
    return pass == 0 ? QObject::tr("pre-pass") : QObject::tr("pass %1").arg(pass);
}

/// "%1 at step N" for a step index, counted from 1 as the Timeline counts its rows.
QString atStep(const QString &what, int step) {
    return step < 0 ? what : QObject::tr("%1 at step %2").arg(what).arg(step + 1);
}

} // namespace

QString whyVerdictTitle(WhyVerdict v) {
    switch (v) {
    case WhyVerdict::NotReached:
        return QObject::tr("Not reached");
    case WhyVerdict::Pruned:
        return QObject::tr("Pruned");
    case WhyVerdict::NotSampled:
        return QObject::tr("Not sampled");
    case WhyVerdict::Cut:
        return QObject::tr("Costed and beaten");
    case WhyVerdict::Chosen:
        return QObject::tr("Chosen");
    }
    return {};
}

WhyDialog::WhyDialog(QWidget *parent)
    : QDialog(parent), m_headline(new QLabel(this)), m_detail(new QLabel(this)),
      m_table(new QTreeWidget(this)) {
    setObjectName(QStringLiteral("whyDialog"));
    setWindowTitle(tr("Why not?"));
    QFont big = m_headline->font();
    big.setPointSizeF(big.pointSizeF() * 1.3);
    big.setBold(true);
    m_headline->setFont(big);
    m_headline->setWordWrap(true);
    m_detail->setWordWrap(true);
    m_detail->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_table->setColumnCount(2);
    m_table->setHeaderLabels({tr("What"), tr("Value")});
    m_table->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_headline);
    layout->addWidget(m_detail);
    layout->addWidget(m_table, 1);
    layout->addWidget(buttons);
    resize(620, 520);
}

const WhyAnswer *WhyDialog::prePassCosts(const WhyResult &result) {
    for (const WhyAnswer &p : result.passes) {
        if (p.pass == 0 && (!std::isnan(p.cost) || p.termsDelta)) return &p;
    }
    return nullptr;
}

QTreeWidgetItem *WhyDialog::addItem(QTreeWidgetItem *parent, const QString &what,
                                    const QString &value) {
    auto *i = parent ? new QTreeWidgetItem(parent) : new QTreeWidgetItem(m_table);
    i->setText(0, what);
    i->setText(1, value);
    return i;
}

void WhyDialog::addCosts(QTreeWidgetItem *parent, const WhyAnswer &a, const WhyResult &result) {
    // Predicted costs are in ms; the cost to beat is the beam's cut-off, or the pass's best
    // when the state lasted to the end of the pass.
    const auto ms = [](double v) { return number(v) + QStringLiteral(" ms"); };
    if (!std::isnan(a.cost)) addItem(parent, tr("Its cost"), ms(a.cost));
    if (!std::isnan(a.cutoff)) addItem(parent, tr("Cost to beat"), ms(a.cutoff));
    if (!parent) addItem(nullptr, tr("Best schedule's cost"), ms(result.bestCost));
    if (!a.termsDelta) return;
    QTreeWidgetItem *terms = addItem(
        parent, tr("Against '%1'").arg(QString::fromStdString(a.against)), ms(a.againstCost));
    for (size_t t = 0; t < result.termNames.size(); ++t)
        addItem(terms, QString::fromStdString(result.termNames[t]),
                signedNumber((*a.termsDelta)[t]));
    terms->setExpanded(true);
    if (!a.stagesDelta.empty()) {
        QTreeWidgetItem *stages = addItem(parent, tr("Per stage"), QString());
        for (const WhyStageDelta &d : a.stagesDelta)
            addItem(stages, QString::fromStdString(d.stage), signedNumber(d.total));
        stages->setExpanded(true);
    }
}

QString WhyDialog::headline() const {
    return m_headline->text();
}

void WhyDialog::showPending(const QString &func, const QString &decision) {
    m_result.reset();
    m_headline->setText(tr("Why not %1 %2?").arg(func, decision));
    m_detail->setText(tr("Following the search step by step…"));
    m_table->clear();
}

void WhyDialog::showError(const QString &message) {
    m_result.reset();
    m_detail->setText(message);
    m_table->clear();
}

void WhyDialog::showAnswer(const std::shared_ptr<const WhyResult> &result) {
    m_result = result;
    m_table->clear();
    if (!result) return;
    const WhyAnswer &a = result->answer;
    m_headline->setText(tr("%1 %2: %3 (%4)")
                            .arg(QString::fromStdString(result->func),
                                 QString::fromStdString(result->decision),
                                 atStep(whyVerdictTitle(a.verdict), a.step), passName(a.pass)));
    m_detail->setText(QString::fromStdString(a.detail));
    auto item = [this](QTreeWidgetItem *parent, const QString &what, const QString &value) {
        return addItem(parent, what, value);
    };
    // The answer's identifiers ("compute_location") in words.
    item(nullptr, tr("Phase"),
         QString::fromStdString(a.phase).replace(QLatin1Char('_'), QLatin1Char(' ')));
    if (!a.label.empty()) item(nullptr, tr("Candidate"), QString::fromStdString(a.label));
    if (!a.reason.empty())
        item(nullptr, tr("Prune reason"),
             QString::fromStdString(a.reason).replace(QLatin1Char('_'), QLatin1Char(' ')));
    addCosts(nullptr, a, *result);
    // A Func frozen by the pre-pass is never reached later: its fate, and the costs behind it,
    // are the pre-pass's (what the decision would have cost against what was kept).
    const WhyAnswer *settled =
        a.verdict == WhyVerdict::NotReached ? prePassCosts(*result) : nullptr;
    if (settled && settled != &a) {
        QTreeWidgetItem *pre =
            item(nullptr, tr("In the pre-pass"),
                 atStep(whyVerdictTitle(settled->verdict).toLower(), settled->step));
        pre->setToolTip(1, QString::fromStdString(settled->detail));
        addCosts(pre, *settled, *result);
        pre->setExpanded(true);
    }
    if (a.bucketHash) {
        QTreeWidgetItem *bucket =
            item(nullptr, tr("Bucket"),
                 tr("%1 members, children of beam #%2").arg(a.bucketSize).arg(a.bucketParent + 1));
        for (const WhyCandidate &c : a.representatives)
            item(bucket, QString::fromStdString(c.label),
                 number(c.cost) + (c.inBeam ? tr(" (in the beam)") : QString()));
        bucket->setExpanded(true);
    }
    QTreeWidgetItem *passes = item(nullptr, tr("Every pass"), QString());
    for (const WhyAnswer &p : result->passes) {
        QTreeWidgetItem *i =
            item(passes, passName(p.pass), atStep(whyVerdictTitle(p.verdict).toLower(), p.step));
        i->setToolTip(1, QString::fromStdString(p.detail));
    }
    passes->setExpanded(true);
}

} // namespace beamscope
