// RunnerProgressModel: the jobs of a measuring run per node — one row per node (a device of this
// machine, "compile (here)" for the Slurm runner's local compile pass, a cluster node, "(queue)"
// for Slurm tasks not placed yet) with its pending, running and done jobs, and a last row with
// the totals. A run measures in several batches (a tune round, the baselines), each reported by
// the runner from zero: when a batch is over (nothing pending or running) its done jobs are kept
// and the next batch's counts add to them, so the table covers the whole run. Nodes with nothing
// to show are left out. Rows are updated in place while the nodes stay the same.
#pragma once

#include "measure/MeasurementRunner.h"

#include <QAbstractTableModel>

namespace beamscope {

class RunnerProgressModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Node, Pending, Running, Done, ColumnCount };

    explicit RunnerProgressModel(QObject *parent = nullptr);

    /// The runner's latest report of the current batch.
    void setProgress(const RunnerProgress &progress);
    /// Empties the model (a new run).
    void clear();
    /// What the rows show: earlier batches' done jobs plus the current batch, per node.
    const RunnerProgress &progress() const { return m_progress; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    void show(const RunnerProgress &shown);

    RunnerProgress m_finished; ///< done jobs of the batches that are over, per node
    RunnerProgress m_batch;    ///< the runner's latest report of the current batch
    RunnerProgress m_progress; ///< shown: m_finished plus m_batch, empty nodes left out
};

} // namespace beamscope
