// TileSizeDialog: asks for a root Func's tile sizes per dimension — threads per block and serial
// iterations per thread — showing the threads per block they add up to.
#pragma once

#include "dag/FunctionDAG.h"

#include <QDialog>

#include <vector>

class QLabel;
class QSpinBox;

namespace beamscope {

class TileSizeDialog : public QDialog {
    Q_OBJECT
public:
    /// `threads`/`serial`: initial sizes per dimension (empty: 1s, and 32 on the first).
    TileSizeDialog(const Node &node, std::vector<int64_t> threads, std::vector<int64_t> serial,
                   QWidget *parent = nullptr);

    std::vector<int64_t> threads() const;
    std::vector<int64_t> serial() const;

private:
    void updateTotal();

    std::vector<QSpinBox *> m_threads, m_serial;
    QLabel *m_total;
};

} // namespace beamscope
