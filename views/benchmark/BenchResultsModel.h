// BenchResultsModel: the rows of a benchmark — our candidates (from the beam, greedy samples)
// first, then Halide's baselines set apart below them — with what a Halide user compares:
// predicted and measured time, registers and spills from ptxas, whether the output matched the
// reference, how long a baseline's autoscheduler searched, and why a row failed. Rows arrive one
// by one while a benchmark runs; a finished report marks the chosen candidate.
#pragma once

#include "measure/Measurement.h"

#include <QAbstractTableModel>

#include <vector>

namespace beamscope {

class BenchResultsModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        ScheduleColumn,
        KindColumn,
        PredictedColumn,
        MeasuredColumn,
        RegistersColumn,
        SpillsColumn,
        CorrectColumn,
        SearchColumn,
        FailureColumn,
        ColumnCount
    };
    /// Qt::UserRole on any cell: the number behind it (NaN when unknown), for charts and tests.
    static constexpr int ValueRole = Qt::UserRole;

    explicit BenchResultsModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    /// Appends a finished row: a candidate after the other candidates, a baseline at the end.
    void addMeasurement(const Measurement &measurement, bool baseline);
    /// Replaces every row by `candidates` and `baselines`; `chosen` indexes candidates (-1: none).
    void setResults(const std::vector<Measurement> &candidates,
                    const std::vector<Measurement> &baselines, int chosen);
    /// Marks candidate `index` (-1: none) as the one the benchmark chose.
    void setChosen(int index);
    void clear();

    /// Rows of candidates (they come first) and of baselines (after them).
    int candidateCount() const { return m_candidates; }
    int baselineCount() const { return int(m_rows.size()) - m_candidates; }
    const Measurement &measurement(int row) const { return m_rows[size_t(row)]; }
    bool isBaseline(int row) const { return row >= m_candidates; }
    /// The chosen candidate's row, -1 when none.
    int chosenRow() const { return m_chosen; }

private:
    QVariant display(const Measurement &m, int row, int column) const;
    QVariant toolTip(const Measurement &m, int column) const;
    QVariant value(const Measurement &m, int column) const;

    std::vector<Measurement> m_rows; ///< candidates, then baselines
    int m_candidates = 0;
    int m_chosen = -1;
};

/// A baseline's name without the "baseline:" prefix of its label.
QString baselineDisplayName(const Measurement &baseline);

} // namespace beamscope
