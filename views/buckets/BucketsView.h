// BucketsView: what the current step did with its candidates — the buckets and their members
// (sortable), and below them the pruned candidates by reason. Selecting a candidate inspects
// its state (loop nest, DAG colours) in the other views.
#pragma once

#include <QWidget>

class QLabel;
class QTreeView;

namespace beamscope {

class BucketModel;
class PrunedModel;
class SelectionHub;

class BucketsView : public QWidget {
    Q_OBJECT
public:
    explicit BucketsView(SelectionHub *hub, QWidget *parent = nullptr);

    BucketModel *bucketModel() const { return m_buckets; }
    PrunedModel *prunedModel() const { return m_pruned; }

private:
    void showStep();
    void inspectCandidate(const QModelIndex &index);
    void inspectPruned(const QModelIndex &index);

    SelectionHub *m_hub;
    BucketModel *m_buckets;
    PrunedModel *m_pruned;
    QLabel *m_caption;
    QTreeView *m_bucketTree;
    QTreeView *m_prunedTree;
};

} // namespace beamscope
