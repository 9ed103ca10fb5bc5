// WhyDialog: shows a "why not?" answer — the verdict in words, the step and pass that settled
// it, the detail sentence, the cost against the beam's cut-off, the difference per cost term and
// per stage against the state that survived, the bucket's representatives when it was not
// sampled, and its fate in every pass. A Func frozen by the pre-pass gets the pre-pass's costs.
// While the search is being followed it says so.
#pragma once

#include "search/WhyNot.h"

#include <QDialog>

#include <memory>

class QLabel;
class QTreeWidget;
class QTreeWidgetItem;

namespace beamscope {

class WhyDialog : public QDialog {
    Q_OBJECT
public:
    explicit WhyDialog(QWidget *parent = nullptr);

    /// "Following the search…" for `func` `decision` until the answer comes.
    void showPending(const QString &func, const QString &decision);
    void showAnswer(const std::shared_ptr<const WhyResult> &result);
    void showError(const QString &message);
    /// The answer on screen (nullptr while pending or after an error).
    const std::shared_ptr<const WhyResult> &answer() const { return m_result; }
    /// The headline text (for tests).
    QString headline() const;

    /// The pre-pass's answer when it carries costs (a decision it cut, whose Func it froze),
    /// else null.
    static const WhyAnswer *prePassCosts(const WhyResult &result);

private:
    QTreeWidgetItem *addItem(QTreeWidgetItem *parent, const QString &what, const QString &value);
    /// Its cost, the cost to beat and the difference per term and stage against what was kept;
    /// the best schedule's cost too at the top level.
    void addCosts(QTreeWidgetItem *parent, const WhyAnswer &a, const WhyResult &result);

    std::shared_ptr<const WhyResult> m_result;
    QLabel *m_headline;
    QLabel *m_detail;
    QTreeWidget *m_table;
};

/// The verdict as a sentence head: "Not reached", "Pruned", "Not sampled", "Cut from the beam",
/// "Chosen".
QString whyVerdictTitle(WhyVerdict v);

} // namespace beamscope
