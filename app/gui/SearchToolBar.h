// SearchToolBar: the search controls — step, step pass, run, pause, reset — and the options of
// the next search: beam size, passes, seed, GPU preset, and the sampling, freezing and
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
    /// Enables the actions that make sense: stepping when idle and loaded, pause when busy.
    void setState(bool loaded, bool busy, bool finished);

    QAction *stepAction() const { return m_step; }
    QAction *passAction() const { return m_pass; }
    QAction *runAction() const { return m_run; }
    QAction *pauseAction() const { return m_pause; }
    QAction *resetAction() const { return m_reset; }

Q_SIGNALS:
    void optionsEdited();

private:
    QAction *m_step, *m_pass, *m_run, *m_pause, *m_reset;
    QSpinBox *m_beam, *m_passes, *m_seed;
    QComboBox *m_gpu;
    QCheckBox *m_sampling, *m_freezing, *m_memo;
    bool m_updating = false;
};

} // namespace beamscope
