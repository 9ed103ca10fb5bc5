// TimelineModel: one row per step of the search's history — step number, the Func decided, the
// pass with the phase, the best cost in the beam after it and the candidates enumerated, in compact
// numbers so the list reads at the dock's default width (290 px) without scrolling; the row's
// tooltip has the exact figures, the costed (sampled) and the pruned counts. Rows are appended as
// steps arrive (one insert each, no reset); the step on screen is emphasized. The step whose pass
// end gave the search's result (the complete state the status bar, Loop nest and Export show,
// which need not be the beam's best of any later step) is marked ★ on a tinted row.
#pragma once

#include "search/SearchStep.h"

#include <QAbstractTableModel>

#include <limits>
#include <vector>

namespace beamscope {

/// What the timeline shows of one step (taken from the history's record).
struct TimelineEntry {
    int index = 0;
    int pass = 0;
    std::string func;
    Phase phase = Phase::ComputeLocation;
    int candidates = 0;
    int sampled = 0;
    int pruned = 0;
    double bestCost = 0;
    /// The search's result so far after the step (SearchStep::best); NaN before a pass ends.
    double resultCost = std::numeric_limits<double>::quiet_NaN();
    bool passFinished = false;
};

/// A count in at most four characters ("950", "1.2k", "21k", "3.4M").
QString compactCount(int64_t n);
/// A cost in milliseconds with three significant digits (two below 0.1) and no unit ("0.056",
/// "0.412", "12.4", "124").
QString compactMs(double milliseconds);

class TimelineModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        StepColumn,
        FuncColumn,
        PassColumn, ///< the pass and the phase ("1 loc", "2 tile", "pre loc")
        BestColumn,
        CandidatesColumn,
        ColumnCount
    };

    explicit TimelineModel(QObject *parent = nullptr);

    /// Appends the next step (its index must be entryCount()).
    void append(const TimelineEntry &entry);
    /// Appends the next steps in one insertion (those out of order are left out).
    void append(const std::vector<TimelineEntry> &entries);
    /// Forgets every step.
    void clear();
    int entryCount() const { return int(m_entries.size()); }
    const TimelineEntry &entry(int k) const { return m_entries[size_t(k)]; }
    /// Emphasizes step `k` (-1: none).
    void setShown(int k);
    int shown() const { return m_shown; }
    /// The step that found the newest step's result (the first with its cost), -1 before a pass
    /// has ended.
    int resultStep() const { return m_resultStep; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    /// Moves the ★ to the step that found `entries`' newest result, if it changed.
    void updateResultStep();

    std::vector<TimelineEntry> m_entries;
    int m_shown = -1;
    int m_resultStep = -1;
};

} // namespace beamscope
