// PipelinePanel: where the user picks what to search — a catalog app with a spin box per
// parameter (default and range from the catalog), or a generator from a generator library
// (.so) with key=value parameters — and loads it.
#pragma once

#include "pipeline/PipelineSource.h"

#include <QWidget>

#include <vector>

class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace beamscope {

class PipelinePanel : public QWidget {
    Q_OBJECT
public:
    explicit PipelinePanel(QWidget *parent = nullptr);

    /// The pipeline the widgets describe.
    PipelineSource source() const;
    /// Shows `source` (opening its generator library if needed).
    void setSource(const PipelineSource &source);
    /// Opens a generator library and lists its generators; returns false (and sets `*error`).
    bool openGeneratorLibrary(const QString &path, QString *error);

Q_SIGNALS:
    void loadRequested(const beamscope::PipelineSource &source);
    /// A generator library was opened (for the recent-files list).
    void generatorLibraryOpened(const QString &path);
    void message(const QString &text);

private:
    void showEntry(int index);
    void browseLibrary();

    struct Entry {
        std::string name;
        std::string library; ///< empty for catalog apps
    };
    std::vector<Entry> m_entries;
    QComboBox *m_app;
    QLabel *m_description;
    QFormLayout *m_params;
    std::vector<std::pair<std::string, QSpinBox *>> m_spins;
    QLineEdit *m_generatorParams;
    QPushButton *m_load;
};

} // namespace beamscope
