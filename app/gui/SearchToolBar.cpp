// SearchToolBar: actions, option widgets and their signals.
#include "SearchToolBar.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QSpinBox>
#include <QStyle>

#include <utility>

namespace beamscope {

namespace {
QSpinBox *spinBox(int min, int max, const QString &tip) {
    auto *box = new QSpinBox;
    box->setRange(min, max);
    box->setKeyboardTracking(false);
    box->setToolTip(tip);
    return box;
}
} // namespace

SearchToolBar::SearchToolBar(QWidget *parent) : QToolBar(tr("Search"), parent) {
    setObjectName(QStringLiteral("searchToolBar"));
    setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    setIconSize(QSize(18, 18));
    QStyle *s = style();
    m_step = addAction(s->standardIcon(QStyle::SP_MediaSkipForward), tr("Step"));
    m_step->setShortcut(Qt::Key_F10);
    m_step->setToolTip(tr("One decision for the whole beam (F10)"));
    m_pass = addAction(s->standardIcon(QStyle::SP_MediaSeekForward), tr("Step pass"));
    m_pass->setShortcut(Qt::Key_F11);
    m_pass->setToolTip(tr("Decide every Func of the current pass (F11)"));
    m_run = addAction(s->standardIcon(QStyle::SP_MediaPlay), tr("Run"));
    m_run->setShortcut(Qt::Key_F5);
    m_run->setToolTip(tr("Run the search to the end (F5)"));
    m_pause = addAction(s->standardIcon(QStyle::SP_MediaPause), tr("Pause"));
    m_pause->setShortcut(Qt::Key_F6);
    m_pause->setToolTip(tr("Stop after the current step (F6)"));
    m_reset = addAction(s->standardIcon(QStyle::SP_BrowserReload), tr("Reset"));
    m_reset->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    m_reset->setToolTip(tr("Start the search again with the same seed (Ctrl+R)"));
    addSeparator();

    m_beam = spinBox(1, 4096, tr("Beam size (1: greedy)"));
    m_passes = spinBox(1, 16,
                       tr("Passes; with freezing the root/inline pre-pass is the "
                          "first (5: the pre-pass and 4 more); the structural hash gets "
                          "deeper with each"));
    m_seed = spinBox(0, std::numeric_limits<int>::max(), tr("Seed of the sampling PRNG"));
    m_gpu = new QComboBox;
    m_gpu->setObjectName(QStringLiteral("gpuBox"));
    m_gpu->setToolTip(tr("GPU the search and cost model target"));
    for (const std::string &name : GpuSpec::presetNames())
        m_gpu->addItem(QString::fromStdString(name));
    m_costModel = new QComboBox;
    m_costModel->setObjectName(QStringLiteral("costModelBox"));
    m_costModel->setToolTip(tr("Cost model of the search: the analytic model of Anderson et al. "
                               "(App. B), PolyMage-GPU's 7-term scorer, the pretrained model "
                               "shipped for NVIDIA GPUs (trained on H100 measurements), or a "
                               "learned model file (beamscope-cli train, or the Tune dock)"));
    m_costModel->addItem(tr("analytic"), QStringLiteral("analytic"));
    m_costModel->addItem(tr("polymage"), QStringLiteral("polymage"));
    m_costModel->addItem(tr("pretrained"), QStringLiteral("pretrained"));
    m_costModel->addItem(tr("Load model file…"), QString());
    m_sampling = new QCheckBox(tr("Sampling"));
    m_sampling->setToolTip(
        tr("Hierarchical sampling: cost only log2(B) representatives per hash bucket"));
    m_freezing = new QCheckBox(tr("Freezing"));
    m_memo = new QCheckBox(tr("Memo"));
    m_memo->setToolTip(tr("Memoize featurization per kernel"));
    auto addLabeled = [this](const QString &label, QWidget *w) {
        auto *l = new QLabel(label);
        l->setContentsMargins(8, 0, 3, 0);
        addWidget(l);
        addWidget(w);
    };
    addLabeled(tr("Beam"), m_beam);
    addLabeled(tr("Passes"), m_passes);
    addLabeled(tr("Seed"), m_seed);
    addLabeled(tr("GPU"), m_gpu);
    addLabeled(tr("Model"), m_costModel);
    addSeparator();
    addWidget(m_sampling);
    addWidget(m_freezing);
    addWidget(m_memo);

    auto edited = [this] {
        if (!m_updating) Q_EMIT optionsEdited();
    };
    for (QSpinBox *box : {m_beam, m_passes, m_seed})
        connect(box, &QSpinBox::valueChanged, this, edited);
    connect(m_gpu, &QComboBox::currentIndexChanged, this, [this, edited] {
        if (!m_updating) Q_EMIT gpuChosen(m_gpu->currentText());
        edited();
    });
    connect(m_costModel, &QComboBox::currentIndexChanged, this, [this, edited](int index) {
        if (m_updating) return;
        if (m_costModel->itemData(index).toString().isEmpty()) {
            loadModelFile();
            return;
        }
        m_lastCostModel = index;
        edited();
    });
    for (QCheckBox *box : {m_sampling, m_freezing, m_memo})
        connect(box, &QCheckBox::toggled, this, edited);
    setOptions(SearchOptions{}, QStringLiteral("v100"));
}

SearchOptions SearchToolBar::options(const SearchOptions &base) const {
    SearchOptions o = base;
    o.beamSize = m_beam->value();
    o.passes = m_passes->value();
    o.seed = uint64_t(m_seed->value());
    o.sampling = m_sampling->isChecked();
    o.freezing = m_freezing->isChecked();
    o.memoization = m_memo->isChecked();
    o.gpu = GpuSpec::load(gpuName().toStdString());
    o.costModel = costModel().toStdString();
    return o;
}

QString SearchToolBar::costModel() const {
    return m_costModel->itemData(m_lastCostModel).toString();
}

void SearchToolBar::setCostModel(const QString &spec) {
    const bool wasUpdating = std::exchange(m_updating, true);
    int index = m_costModel->findData(spec.isEmpty() ? QStringLiteral("analytic") : spec);
    if (index < 0) { // a model file: listed by its name, before "Load model file…"
        index = m_costModel->count() - 1;
        m_costModel->insertItem(index, QFileInfo(spec).fileName(), spec);
        m_costModel->setItemData(index, spec, Qt::ToolTipRole);
    }
    m_costModel->setCurrentIndex(index);
    m_lastCostModel = index;
    m_updating = wasUpdating;
}

void SearchToolBar::addCostModelFile(const QString &path) {
    if (m_costModel->findData(path) >= 0) return;
    const bool wasUpdating = std::exchange(m_updating, true);
    const int index = m_costModel->count() - 1; // before "Load model file…"
    m_costModel->insertItem(index, QFileInfo(path).fileName(), path);
    m_costModel->setItemData(index, path, Qt::ToolTipRole);
    if (m_lastCostModel >= index) ++m_lastCostModel;
    m_updating = wasUpdating;
}

void SearchToolBar::loadModelFile() {
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Load a learned cost model"), QString(),
                                     tr("Beamscope models (*.model *.json);;All files (*)"));
    if (path.isEmpty()) {
        setCostModel(m_costModel->itemData(m_lastCostModel).toString()); // back to what it was
        return;
    }
    setCostModel(path);
    if (!m_updating) Q_EMIT optionsEdited();
}

QString SearchToolBar::gpuName() const {
    return m_gpu->currentText();
}

void SearchToolBar::setOptions(const SearchOptions &options, const QString &gpuName) {
    m_updating = true;
    m_beam->setValue(options.beamSize);
    m_passes->setValue(options.passes);
    m_seed->setValue(
        int(std::min<uint64_t>(options.seed, uint64_t(std::numeric_limits<int>::max()))));
    m_sampling->setChecked(options.sampling);
    m_freezing->setChecked(options.freezing);
    m_freezing->setToolTip(
        options.freezeMinFuncs > 2
            ? tr("Root/inline pre-pass, then freeze the cheapest stages, on pipelines of at "
                 "least %1 Funcs (beamscope-cli --freeze-min-funcs)")
                  .arg(options.freezeMinFuncs)
            : tr("Root/inline pre-pass, then freeze the cheapest stages, on every pipeline"));
    m_memo->setChecked(options.memoization);
    setCostModel(QString::fromStdString(options.costModel));
    if (!gpuName.isEmpty()) {
        if (m_gpu->findText(gpuName) < 0) m_gpu->addItem(gpuName);
        m_gpu->setCurrentText(gpuName);
    }
    m_updating = false;
}

void SearchToolBar::setState(bool loaded, bool busy, bool finished) {
    const bool canStep = loaded && !busy && !finished;
    m_step->setEnabled(canStep);
    m_pass->setEnabled(canStep);
    m_run->setEnabled(canStep);
    m_pause->setEnabled(busy);
    m_reset->setEnabled(loaded);
}

} // namespace beamscope
