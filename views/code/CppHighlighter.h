// CppHighlighter: colours exported Halide C++ so that a schedule reads at a glance — C++
// keywords, types (C++, std and Halide's Func/Var/RVar...), Halide scheduling calls (split,
// compute_at, gpu_threads, ...), numbers and Halide enum values, strings, comments (the one-line
// decision per Func) and preprocessor lines. A small lexer, not regular expressions, so that a
// "//" inside a string or a keyword inside a comment is never coloured wrongly.
#pragma once

#include <QSyntaxHighlighter>
#include <QTextCharFormat>

#include <array>

namespace beamscope {

class CppHighlighter : public QSyntaxHighlighter {
    Q_OBJECT
public:
    /// What a piece of text is, each with its own format.
    enum class Role { Keyword, Type, HalideCall, Constant, String, Comment, Preprocessor, Count };

    /// Highlights `document`; `darkBackground` picks colours that read on a dark palette.
    explicit CppHighlighter(QTextDocument *document, bool darkBackground = false);

    /// True if it uses the colours for a dark background.
    bool isDark() const { return m_dark; }
    /// The format text of `role` gets.
    const QTextCharFormat &formatOf(Role role) const { return m_formats[size_t(role)]; }

protected:
    void highlightBlock(const QString &text) override;

private:
    /// Colours one identifier at [start, end) of `text`.
    void highlightWord(const QString &text, int start, int end);

    bool m_dark;
    std::array<QTextCharFormat, size_t(Role::Count)> m_formats;
};

} // namespace beamscope
