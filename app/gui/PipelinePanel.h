// PipelinePanel: where the user picks what to search — a catalog app with a spin box per
// parameter (default and range from the catalog), or a generator from a generator library
// (.so) with key=value parameters and scalar input values — and loads it. Generator libraries are
// opened off the GUI thread (GeneratorLibraryLoader); the panel says "Loading…" meanwhile and shows
// a bad library's error in one line.
#pragma once

#include "pipeline/PipelineSource.h"

#include <QWidget>

#include <optional>
#include <vector>

class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace beamscope {

class GeneratorLibraryLoader;

class PipelinePanel : public QWidget {
    Q_OBJECT
public:
    explicit PipelinePanel(QWidget *parent = nullptr);

    /// The pipeline the widgets describe.
    PipelineSource source() const;
    /// Shows `source`; when its generator library is not open yet, once it is.
    void setSource(const PipelineSource &source);
    /// Starts opening a generator library; its generators are listed when it is open
    /// (generatorLibraryOpened) and `selectFirst` then selects the first of them.
    void openGeneratorLibrary(const QString &path, bool selectFirst = false);
    /// True while a generator library is being opened.
    bool isLoadingLibrary() const;
    /// The line under the picker: "Loading …", a library's error, or empty.
    QString libraryStatus() const;

Q_SIGNALS:
    void loadRequested(const beamscope::PipelineSource &source);
    /// A generator library was opened (for the recent-files list).
    void generatorLibraryOpened(const QString &path);
    /// A generator library could not be opened; `message` is one line.
    void generatorLibraryFailed(const QString &path, const QString &message);
    void message(const QString &text);

private:
    void showEntry(int index);
    void browseLibrary();
    void libraryLoaded(const QString &path, const QString &openedPath,
                       const QStringList &generators);
    void libraryFailed(const QString &path, const QString &message);
    /// Selects the entry of `source` and shows its parameters; false if it is not listed.
    bool showSource(const PipelineSource &source);
    void showLibraryStatus(const QString &text, bool error);

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
    QLineEdit *m_estimates;    ///< output estimate overrides, space-separated
    QLineEdit *m_scalarInputs; ///< generator scalar input values, NAME=VALUE space-separated
    QPushButton *m_load;
    QLabel *m_libraryStatus;
    GeneratorLibraryLoader *m_loader;
    std::optional<PipelineSource> m_pendingSource; ///< to show once its library is open
    bool m_selectFirstLoaded = false;
};

} // namespace beamscope
