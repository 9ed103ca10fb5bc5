// ExportView: layout, regeneration on hub changes (deferred while hidden), Save (QSaveFile),
// Copy, and the highlighter's colour set following the palette.
#include "views/code/ExportView.h"

#include "codegen/SchedulePythonSource.h"
#include "codegen/ScheduleSource.h"
#include "views/code/CppHighlighter.h"
#include "views/code/ExportChoice.h"
#include "views/common/CaptionBox.h"
#include "views/common/SelectionHub.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSaveFile>
#include <QScrollBar>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QVBoxLayout>

#include <exception>

namespace beamscope {

namespace {

/// The C++ (or Python) of `choice`'s state, or a comment block with the reason when there is
/// none.
QString exportText(const ExportChoice &choice, bool python, bool *exportable) {
    *exportable = false;
    QString message = choice.message;
    if (choice.state) {
        try {
            const StateCost *cost = choice.cost ? &*choice.cost : nullptr;
            const std::string function =
                defaultScheduleFunctionName(choice.state->dag().pipelineName());
            const std::string source = python ? schedulePythonSource(*choice.state, cost, function)
                                              : scheduleSource(*choice.state, cost, function);
            *exportable = true;
            return QString::fromStdString(source);
        } catch (const std::exception &e) {
            message = QCoreApplication::translate("ExportView", "Cannot export this schedule: %1")
                          .arg(QString::fromStdString(e.what()));
        }
    }
    const QString comment = python ? QStringLiteral("#") : QStringLiteral("//");
    QString text;
    for (const QString &line : message.split(QLatin1Char('\n')))
        text += line.isEmpty() ? comment + QLatin1Char('\n')
                               : comment + QLatin1Char(' ') + line + QLatin1Char('\n');
    return text;
}

} // namespace

ExportView::ExportView(SelectionHub *hub, QWidget *parent)
    : QWidget(parent), m_hub(hub), m_caption(new QLabel(this)), m_editor(new QPlainTextEdit(this)),
      m_copy(new QPushButton(tr("Copy"), this)), m_save(new QPushButton(tr("Save…"), this)),
      m_status(new QLabel(this)), m_language(new QComboBox(this)) {
    m_language->addItem(tr("C++"));
    m_language->addItem(tr("Python"));
    m_language->setToolTip(tr("Export as Halide C++ (a header), or as Python for a generator "
                              "written with Halide's Python bindings"));
    m_caption->setWordWrap(true);
    m_caption->setTextFormat(Qt::RichText);
    m_editor->setReadOnly(true);
    m_editor->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_editor->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    mono.setStyleHint(QFont::Monospace);
    m_editor->setFont(mono);
    m_editor->setTabStopDistance(4 * QFontMetricsF(mono).horizontalAdvance(QLatin1Char(' ')));
    useHighlighterForPalette();
    m_copy->setToolTip(tr("Copy the exported schedule to the clipboard"));
    m_save->setToolTip(tr("Save the exported schedule (a C++ header or a Python module)"));
    // A long path or error must not widen the dock: the line is cut, the tooltip has it all.
    m_status->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->hide();

    auto *top = new QHBoxLayout;
    top->addWidget(new CaptionBox(m_caption, this), 1);
    top->addWidget(m_language);
    top->addWidget(m_copy);
    top->addWidget(m_save);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    layout->addWidget(m_editor, 1);
    layout->addWidget(m_status);

    connect(m_copy, &QPushButton::clicked, this, &ExportView::copyToClipboard);
    connect(m_save, &QPushButton::clicked, this, &ExportView::saveAs);
    connect(hub, &SelectionHub::stateChanged, this, &ExportView::followHub);
    connect(m_language, &QComboBox::currentIndexChanged, this, [this] {
        m_shownState = nullptr; // the same state, another language: regenerate
        m_textStale = true;
        if (isVisible()) updateText();
    });
    followHub();
}

QString ExportView::source() {
    updateText();
    return m_source;
}

bool ExportView::canExport() {
    updateText();
    return m_exportable;
}

QString ExportView::caption() const {
    return m_caption->text();
}

QString ExportView::statusText() const {
    return m_status->isHidden() ? QString() : m_status->text();
}

void ExportView::followHub() {
    m_choice = chooseExport(*m_hub);
    m_caption->setText(m_choice.caption);
    setExportable(m_choice.state != nullptr);
    m_textStale = true;
    if (isVisible()) updateText();
}

void ExportView::updateText() {
    if (!m_textStale) return;
    m_textStale = false;
    // During a search the inspected state changes every step while the exported one (the best
    // complete schedule) rarely does: regenerate only when it did.
    if (m_choice.state && m_choice.state == m_shownState &&
        m_choice.cost.has_value() == m_shownWithCost)
        return;
    bool exportable = false;
    const QString text = exportText(m_choice, isPython(), &exportable);
    m_shownState = exportable ? m_choice.state : nullptr;
    m_shownWithCost = m_choice.cost.has_value();
    m_source = exportable ? text : QString();
    // Code keeps its lines; a message wraps to the view's width.
    m_editor->setLineWrapMode(exportable ? QPlainTextEdit::NoWrap : QPlainTextEdit::WidgetWidth);
    m_editor->setPlainText(text);
    if (exportable) scrollToSchedule();
    setExportable(exportable);
}

void ExportView::scrollToSchedule() {
    // The lookup preamble is the same for every schedule: open where the schedule itself starts,
    // at the first "    // <Func>: <decision>" line.
    static const QRegularExpression firstFunc(QStringLiteral("^    (//|#) [^ ]+: "));
    const QTextCursor found = m_editor->document()->find(firstFunc);
    if (found.isNull()) return;
    m_editor->setTextCursor(QTextCursor(found.block()));
    // Unwrapped, a QPlainTextEdit scrolls by lines: the value is the top line's number.
    m_editor->verticalScrollBar()->setValue(found.blockNumber());
}

bool ExportView::isPython() const {
    return m_language->currentIndex() == 1;
}

void ExportView::setPython(bool python) {
    m_language->setCurrentIndex(python ? 1 : 0);
}

void ExportView::setExportable(bool exportable) {
    m_copy->setEnabled(exportable);
    m_save->setEnabled(exportable);
    if (exportable == m_exportable) return;
    m_exportable = exportable;
    Q_EMIT exportableChanged(exportable);
}

void ExportView::saveAs() {
    if (!canExport()) return;
    if (m_lastDirectory.isEmpty()) m_lastDirectory = QDir::homePath();
    const bool python = isPython();
    const QString name = QString::fromStdString(m_shownState->dag().pipelineName()) +
                         (python ? QStringLiteral("_schedule.py") : QStringLiteral("_schedule.h"));
    const QString path = QFileDialog::getSaveFileName(
        this, python ? tr("Export schedule as Python") : tr("Export schedule as Halide C++"),
        QDir(m_lastDirectory).filePath(name),
        python ? tr("Python (*.py);;All files (*)") : tr("C++ headers (*.h *.hpp);;All files (*)"));
    if (path.isEmpty()) return;
    m_lastDirectory = QFileInfo(path).absolutePath();
    saveTo(path);
}

bool ExportView::saveTo(const QString &path) {
    const QString text = source();
    if (text.isEmpty()) {
        showStatus(tr("Nothing to save: no complete schedule yet"), true);
        return false;
    }
    QSaveFile file(path);
    const QByteArray bytes = text.toUtf8();
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
        showStatus(
            tr("Cannot write %1: %2").arg(QDir::toNativeSeparators(path), file.errorString()),
            true);
        return false;
    }
    showStatus(tr("Saved %1").arg(QDir::toNativeSeparators(path)), false);
    return true;
}

void ExportView::copyToClipboard() {
    const QString text = source();
    if (text.isEmpty()) return;
    QApplication::clipboard()->setText(text);
    showStatus(tr("Copied %1 lines to the clipboard").arg(text.count(QLatin1Char('\n'))), false);
}

void ExportView::showStatus(const QString &text, bool error) {
    m_status->setText(text);
    m_status->setToolTip(text);
    m_status->setStyleSheet(error ? QStringLiteral("color: #b00020;") : QString());
    m_status->show();
}

void ExportView::showEvent(QShowEvent *event) {
    QWidget::showEvent(event);
    updateText();
}

void ExportView::changeEvent(QEvent *event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) useHighlighterForPalette();
}

void ExportView::useHighlighterForPalette() {
    const bool dark = m_editor->palette().color(QPalette::Base).lightness() < 128;
    if (m_highlighter && m_highlighter->isDark() == dark) return;
    delete m_highlighter;
    m_highlighter = new CppHighlighter(m_editor->document(), dark);
}

} // namespace beamscope
