// ExportView: the schedule being inspected as Halide C++ (ScheduleSource) or, chosen in a combo
// box, as Python (SchedulePythonSource) in a read-only,
// highlighted code view, with a line saying which state it shows, and Save… / Copy. It follows
// the SelectionHub; an incomplete state shows the best complete schedule found so far, or a
// message (ExportChoice). The text is regenerated only while the view is visible and only when
// the exported state changed, on the GUI thread: generating, highlighting and showing the 89 Funcs
// of local_laplacian (700 lines) takes about 11 ms in a Debug build (tests/views/ExportViewTest),
// well within the 50 ms the event loop may be blocked, so no worker thread is needed.
#pragma once

#include "views/code/ExportChoice.h"

#include <QString>
#include <QWidget>

class QComboBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace beamscope {

class CppHighlighter;
class SelectionHub;

class ExportView : public QWidget {
    Q_OBJECT
public:
    explicit ExportView(SelectionHub *hub, QWidget *parent = nullptr);

    /// Whether the export is Python (else C++, the default).
    bool isPython() const;
    /// Chooses Python or C++ (as the combo box does).
    void setPython(bool python);
    /// The exported C++ or Python (as shown, saved and copied); empty when nothing can be exported.
    QString source();
    /// True when a complete schedule is shown.
    bool canExport();
    /// The one line above the code saying what it shows (rich text).
    QString caption() const;
    /// The last outcome of Save or Copy ("Saved …", "Cannot write …"), one line.
    QString statusText() const;
    QPlainTextEdit *editor() const { return m_editor; }
    CppHighlighter *highlighter() const { return m_highlighter; }

public Q_SLOTS:
    /// Asks for a file name and saves there.
    void saveAs();
    /// Writes the source to `path` atomically (QSaveFile); false (and a status line) on error.
    bool saveTo(const QString &path);
    /// Puts the source on the clipboard.
    void copyToClipboard();

Q_SIGNALS:
    /// Whether a complete schedule is shown changed.
    void exportableChanged(bool exportable);

protected:
    void showEvent(QShowEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    /// Follows the hub: what to show (cheap, always) and the text (only while visible).
    void followHub();
    /// Brings the text up to date with the choice if it is stale.
    void updateText();
    void setExportable(bool exportable);
    /// Scrolls past the Func-lookup preamble to the first Func's schedule.
    void scrollToSchedule();
    void showStatus(const QString &text, bool error);
    void useHighlighterForPalette();

    SelectionHub *m_hub;
    QLabel *m_caption;
    QPlainTextEdit *m_editor;
    CppHighlighter *m_highlighter = nullptr;
    QPushButton *m_copy;
    QPushButton *m_save;
    QLabel *m_status;
    QComboBox *m_language; ///< C++ or Python
    ExportChoice m_choice;
    bool m_textStale = true;
    bool m_exportable = false;
    StatePtr m_shownState;        ///< the state whose source is on screen (null: a message is)
    bool m_shownWithCost = false; ///< whether its comments give cost shares
    QString m_source;
    QString m_lastDirectory;
};

} // namespace beamscope
