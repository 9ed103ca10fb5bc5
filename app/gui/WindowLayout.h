// WindowLayout: keeps the main window's geometry and dock arrangement across runs (QSettings),
// and puts the docks back as they came (View > Reset layout). A saved arrangement is restored
// only if it was saved with the same layout version and the same set of docks: a release that
// adds, removes or renames a dock starts from the default arrangement instead of a half-valid
// one. Persistence is switched on by the application, never by tests or --screenshot runs, so
// that neither reads nor writes the user's settings.
#pragma once

#include <QByteArray>
#include <QObject>
#include <QStringList>

#include <functional>

class QMainWindow;

namespace beamscope {

class WindowLayout : public QObject {
    Q_OBJECT
public:
    /// Bump when the default arrangement changes so that old saved ones should not be used.
    static constexpr int kVersion = 3;

    /// Remembers `window`'s arrangement now as the default (call once its docks exist);
    /// `defaultSizes` then sizes its docks for the window's current size.
    WindowLayout(QMainWindow *window, std::function<void()> defaultSizes);

    /// Restores the arrangement saved last (false when there is none that fits this window)
    /// and from now on saves it when the window closes.
    bool restoreAndKeep();
    /// Restores the saved geometry and dock arrangement; false when none fits this window.
    bool restore();
    /// Saves the geometry and dock arrangement.
    void save() const;
    /// Back to the default arrangement (the window's size is kept).
    void reset();
    /// True once restore() has put back a saved arrangement.
    bool wasRestored() const { return m_restored; }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    /// Object names of the window's docks, sorted: the dock set a saved state belongs to.
    QStringList dockNames() const;

    QMainWindow *m_window;
    QByteArray m_defaultState;
    std::function<void()> m_defaultSizes;
    bool m_saveOnClose = false;
    bool m_restored = false;
};

} // namespace beamscope
