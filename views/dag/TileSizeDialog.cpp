// TileSizeDialog: a grid of spin boxes, one row per Func dimension.
#include "views/dag/TileSizeDialog.h"

#include <QDialogButtonBox>
#include <QGridLayout>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>

namespace beamscope {

TileSizeDialog::TileSizeDialog(const Node &node, std::vector<int64_t> threads,
                               std::vector<int64_t> serial, QWidget *parent)
    : QDialog(parent), m_total(new QLabel(this)) {
    setWindowTitle(tr("Tile sizes of %1").arg(QString::fromStdString(node.name)));
    const size_t dims = size_t(node.dimensions);
    if (threads.size() != dims) {
        threads.assign(dims, 1);
        if (dims > 0) threads[0] = 32;
    }
    if (serial.size() != dims) serial.assign(dims, 1);

    auto *grid = new QGridLayout;
    grid->addWidget(new QLabel(tr("<b>Dimension</b>")), 0, 0);
    grid->addWidget(new QLabel(tr("<b>Threads</b>")), 0, 1);
    grid->addWidget(new QLabel(tr("<b>Serial</b>")), 0, 2);
    for (size_t d = 0; d < dims; ++d) {
        const QString extent =
            d < node.region.size() ? QString::number(node.region[d].extent()) : QStringLiteral("?");
        const QString arg =
            d < node.args.size() ? QString::fromStdString(node.args[d]) : QString::number(d);
        grid->addWidget(new QLabel(tr("%1 (extent %2)").arg(arg, extent)), int(d) + 1, 0);
        auto *t = new QSpinBox;
        t->setRange(1, 1024);
        t->setValue(int(threads[d]));
        auto *s = new QSpinBox;
        s->setRange(1, 64);
        s->setValue(int(serial[d]));
        connect(t, &QSpinBox::valueChanged, this, &TileSizeDialog::updateTotal);
        grid->addWidget(t, int(d) + 1, 1);
        grid->addWidget(s, int(d) + 1, 2);
        m_threads.push_back(t);
        m_serial.push_back(s);
    }
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(grid);
    layout->addWidget(m_total);
    layout->addWidget(buttons);
    updateTotal();
}

std::vector<int64_t> TileSizeDialog::threads() const {
    std::vector<int64_t> out;
    for (const QSpinBox *b : m_threads)
        out.push_back(b->value());
    return out;
}

std::vector<int64_t> TileSizeDialog::serial() const {
    std::vector<int64_t> out;
    for (const QSpinBox *b : m_serial)
        out.push_back(b->value());
    return out;
}

void TileSizeDialog::updateTotal() {
    int64_t total = 1;
    for (const QSpinBox *b : m_threads)
        total *= b->value();
    m_total->setText(tr("%1 threads per block").arg(total));
}

} // namespace beamscope
