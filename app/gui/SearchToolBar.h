// SearchToolBar: the search controls — step, step pass, run, pause, reset — and the options of
// the next search: beam size, passes, seed, GPU preset, cost model (analytic, polymage or a
// learned model file loaded with "Load model file…"), and the sampling, freezing and
// memoization switches. Changing an option asks for a fresh search with the new options.
#pragma once

#include "search/SearchEngine.h"

#include <QToolBar>

class QAction;
class QCheckBox;
class QComboBox;
class QSpinBox;

namespace beamscope {

class SearchToolBar : public QToolBar {
    Q_OBJECT
public:
    explicit SearchToolBar(QWidget *parent = nullptr);

    /// The options the widgets show (pins are not part of the toolbar: kept from `base`).
    SearchOptions options(const SearchOptions &base) const;
    /// The selected GPU preset name.
    QString gpuName() const;
    /// Shows `options` (and the GPU preset or file `gpuName`) without emitting optionsEdited().
    void setOptions(const SearchOptions &options, const QString &gpuName);
    /// The cost model the next search uses: "analytic", "polymage" or a model file's path.
    QString costModel() const;
    /// Selects `spec` (a model file is added to the list when new) without emitting
    /// optionsEdited().
    void setCostModel(const QString &spec);
    /// Lists the model file `path` in the cost-model box (not selected) if it is not there yet.
    void addCostModelFile(const QString &path);
    /// Enables the actions that make sense: stepping when idle and loaded, pause when busy.
    void setState(bool loaded, bool busy, bool finished);

    QAction *stepAction() const { return m_step; }
    QAction *passAction() const { return m_pass; }
    QAction *runAction() const { return m_run; }
    QAction *pauseAction() const { return m_pause; }
    QAction *resetAction() const { return m_reset; }

Q_SIGNALS:
    void optionsEdited();
    /// The user picked `name` in the GPU box (not emitted by setOptions()).
    void gpuChosen(const QString &name);

private:
    /// "Load model file…" was picked: ask for the file, then select it (or go back).
    void loadModelFile();
    QAction *m_step, *m_pass, *m_run, *m_pause, *m_reset;
    QSpinBox *m_beam, *m_passes, *m_seed;
    QComboBox *m_gpu;
    QComboBox *m_costModel;
    int m_lastCostModel = 0; ///< the entry to go back to when "Load model file…" is cancelled
    QCheckBox *m_sampling, *m_freezing, *m_memo;
    bool m_updating = false;
};

} // namespace beamscope
