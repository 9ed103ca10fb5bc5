// TimelineModel: one row per step of the search's history — step number, the Func decided, the
// pass with the phase, the best cost in the beam after it and the candidates enumerated, in compact
// numbers so the list reads at the dock's default width (290 px) without scrolling; the row's
// tooltip has the exact figures, the costed (sampled) and the pruned counts. Rows are appended as
// steps arrive (one insert each, no reset); the step on screen is emphasized.
#pragma once

#include "search/SearchStep.h"

#include <QAbstractTableModel>

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

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    std::vector<TimelineEntry> m_entries;
    int m_shown = -1;
};

} // namespace beamscope
