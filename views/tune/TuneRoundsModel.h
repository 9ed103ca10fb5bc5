// TuneRoundsModel: the Tune dock's table — one row per finished tune round: the model that chose
// its batch, rows measured, failed and reused, the round's best and the best so far (median ms),
// the model's Kendall tau and pairwise accuracy on the round's fresh rows, and the time spent
// searching, measuring and training. A resumed run appends to the rounds already shown.
#pragma once

#include "tune/Tuner.h"

#include <QAbstractTableModel>

#include <vector>

namespace beamscope {

class TuneRoundsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        // What a round found first (round best, best so far, the model's τ), so that a narrow
        // dock shows them without scrolling; the counts and times after.
        RoundColumn,
        RoundBestColumn,
        BestColumn,
        TauColumn,
        ModelColumn,
        MeasuredColumn,
        FailedColumn,
        ReusedColumn,
        PairwiseColumn,
        TimeColumn,
        ColumnCount
    };

    explicit TuneRoundsModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    /// Appends a finished round (a round already shown, by number, is replaced).
    void addRound(const TuneRound &round);
    /// Shows exactly `rounds`.
    void setRounds(const std::vector<TuneRound> &rounds);
    void clear();
    const std::vector<TuneRound> &rounds() const { return m_rounds; }

private:
    std::vector<TuneRound> m_rounds;
};

} // namespace beamscope
