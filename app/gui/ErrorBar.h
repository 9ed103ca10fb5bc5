// ErrorBar: a red line above the DAG that keeps the last error (a session that cannot be read,
// a refused pin, a measurement database that cannot be opened) until the user dismisses it or a
// newer one replaces it — the status bar's messages time out or are replaced when a run ends.
#pragma once

#include <QFrame>

class QLabel;
class QToolButton;

namespace beamscope {

class ErrorBar : public QFrame {
    Q_OBJECT
public:
    explicit ErrorBar(QWidget *parent = nullptr);

    /// Shows `message` (one line; the whole text wraps) until dismissed.
    void showMessage(const QString &message);
    /// The message on screen ("" when hidden).
    QString message() const;

public Q_SLOTS:
    void dismiss();

private:
    QLabel *m_label;
    QToolButton *m_close;
};

} // namespace beamscope
