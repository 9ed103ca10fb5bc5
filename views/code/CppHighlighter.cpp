// CppHighlighter: the word lists, the two colour sets and the per-line lexer (strings, comments
// that may span lines, numbers, identifiers, preprocessor directives).
#include "views/code/CppHighlighter.h"

#include <QSet>
#include <QStringList>

#include <algorithm>

namespace beamscope {

namespace {

// The word lists read best filled, not in clang-format's aligned columns.
// clang-format off

/// Block states: whether a line ends inside a /* comment.
enum BlockState { Normal = 0, InBlockComment = 1 };

QSet<QString> wordSet(const QStringList &words) {
    return QSet<QString>(words.begin(), words.end());
}

const QSet<QString> &keywords() {
    static const QSet<QString> words = wordSet(
        {"alignas", "alignof", "asm", "auto", "bool", "break", "case", "catch", "char", "class",
         "const", "consteval", "constexpr", "const_cast", "continue", "decltype", "default",
         "delete", "do", "double", "dynamic_cast", "else", "enum", "explicit", "export", "extern",
         "float", "for", "friend", "goto", "if", "inline", "int", "long", "mutable", "namespace",
         "new", "noexcept", "operator", "private", "protected", "public", "register",
         "reinterpret_cast", "return", "short", "signed", "sizeof", "static", "static_assert",
         "static_cast", "struct", "switch", "template", "this", "throw", "try", "typedef",
         "typename", "union", "unsigned", "using", "virtual", "void", "volatile", "while"});
    return words;
}

/// Halide's and the standard library's types (and the namespaces that qualify them).
const QSet<QString> &types() {
    static const QSet<QString> words = wordSet(
        {"Halide", "Internal", "Func", "Var", "RVar", "RDom", "Expr", "Pipeline", "Buffer",
         "ImageParam", "Param", "Target", "LoopLevel", "MemoryType", "TailStrategy", "Function",
         "Stage", "Generator", "GeneratorContext", "Type", "std", "string", "vector", "map",
         "pair", "runtime_error", "size_t", "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t",
         "uint16_t", "uint32_t", "uint64_t"});
    return words;
}

/// Halide API functions, coloured where they are called: scheduling directives first.
const QSet<QString> &halideCalls() {
    static const QSet<QString> words = wordSet(
        {"compute_at", "compute_root", "compute_inline", "compute_with", "store_at", "store_root",
         "store_in", "hoist_storage", "split", "fuse", "reorder", "tile", "gpu_tile", "gpu_blocks",
         "gpu_threads", "gpu_lanes", "gpu_single_thread", "gpu", "unroll", "vectorize",
         "parallel", "serial", "bound", "bound_extent", "align_bounds", "set_estimate",
         "set_estimates", "reorder_storage", "fold_storage", "update", "rename", "specialize",
         "atomic", "memoize", "async", "prefetch", "outermost", "inlined", "root", "in",
         "clone_in", "function", "outputs", "build_environment", "realization_order",
         "apply_autoscheduler", "compile_jit", "realize", "compile_to_static_library"});
    return words;
}

/// Named constants: Halide's enum values and C++'s literals.
const QSet<QString> &constants() {
    static const QSet<QString> words = wordSet(
        {"true", "false", "nullptr", "GPUShared", "GPUTexture", "Register", "Heap", "Stack",
         "Auto", "LockedCache", "VTCM", "AMXTile", "ShiftInwards", "GuardWithIf", "RoundUp",
         "PredicateLoads", "PredicateStores", "ShiftInwardsAndBlend", "RoundUpAndBlend"});
    return words;
}

// clang-format on

QTextCharFormat makeFormat(const QColor &colour, bool bold = false, bool italic = false) {
    QTextCharFormat format;
    format.setForeground(colour);
    if (bold) format.setFontWeight(QFont::Bold);
    format.setFontItalic(italic);
    return format;
}

bool isWordStart(QChar c) {
    return c.isLetter() || c == QLatin1Char('_');
}
bool isWordChar(QChar c) {
    return c.isLetterOrNumber() || c == QLatin1Char('_');
}

} // namespace

CppHighlighter::CppHighlighter(QTextDocument *document, bool darkBackground)
    : QSyntaxHighlighter(document), m_dark(darkBackground) {
    using R = Role;
    auto set = [this](R role, QTextCharFormat format) { m_formats[size_t(role)] = format; };
    // Both sets keep every colour at a contrast of at least 4.5:1 against their background.
    if (darkBackground) {
        set(R::Keyword, makeFormat(QColor(0x56, 0x9c, 0xd6), true));
        set(R::Type, makeFormat(QColor(0x4e, 0xc9, 0xb0)));
        set(R::HalideCall, makeFormat(QColor(0xdc, 0xa5, 0xf0)));
        set(R::Constant, makeFormat(QColor(0xe5, 0xb5, 0x7a)));
        set(R::String, makeFormat(QColor(0xce, 0x91, 0x78)));
        set(R::Comment, makeFormat(QColor(0x8f, 0xb5, 0x7e), false, true));
        set(R::Preprocessor, makeFormat(QColor(0xd7, 0xba, 0x7d)));
    } else {
        set(R::Keyword, makeFormat(QColor(0x00, 0x33, 0xb3), true));
        set(R::Type, makeFormat(QColor(0x00, 0x6b, 0x75)));
        set(R::HalideCall, makeFormat(QColor(0x87, 0x10, 0x94)));
        set(R::Constant, makeFormat(QColor(0xa3, 0x4a, 0x00)));
        set(R::String, makeFormat(QColor(0x06, 0x7d, 0x17)));
        set(R::Comment, makeFormat(QColor(0x5f, 0x68, 0x75), false, true));
        set(R::Preprocessor, makeFormat(QColor(0x80, 0x5c, 0x00)));
    }
}

void CppHighlighter::highlightBlock(const QString &text) {
    const int n = int(text.size());
    const QTextCharFormat &comment = formatOf(Role::Comment);
    setCurrentBlockState(Normal);
    int i = 0;
    if (previousBlockState() == InBlockComment) {
        const int close = int(text.indexOf(QLatin1String("*/")));
        if (close < 0) {
            setFormat(0, n, comment);
            setCurrentBlockState(InBlockComment);
            return;
        }
        i = close + 2;
        setFormat(0, i, comment);
    }

    // A directive: "#include" then a header name; "#ifndef GUARD" etc. in one colour.
    int first = i;
    while (first < n && text[first].isSpace())
        ++first;
    if (first < n && text[first] == QLatin1Char('#')) {
        int wordEnd = first + 1;
        while (wordEnd < n && text[wordEnd].isSpace())
            ++wordEnd;
        while (wordEnd < n && isWordChar(text[wordEnd]))
            ++wordEnd;
        const bool include = text.mid(first, wordEnd - first).endsWith(QLatin1String("include"));
        int end = int(text.indexOf(QLatin1String("//"), wordEnd));
        if (end < 0) end = n;
        setFormat(first, (include ? wordEnd : end) - first, formatOf(Role::Preprocessor));
        if (include) setFormat(wordEnd, end - wordEnd, formatOf(Role::String));
        i = end;
    }

    while (i < n) {
        const QChar c = text[i];
        const QChar next = i + 1 < n ? text[i + 1] : QChar();
        if (c == QLatin1Char('/') && next == QLatin1Char('/')) {
            setFormat(i, n - i, comment);
            return;
        }
        if (c == QLatin1Char('/') && next == QLatin1Char('*')) {
            const int close = int(text.indexOf(QLatin1String("*/"), i + 2));
            if (close < 0) {
                setFormat(i, n - i, comment);
                setCurrentBlockState(InBlockComment);
                return;
            }
            setFormat(i, close + 2 - i, comment);
            i = close + 2;
            continue;
        }
        if (c == QLatin1Char('"') || c == QLatin1Char('\'')) {
            int j = i + 1;
            while (j < n && text[j] != c)
                j += text[j] == QLatin1Char('\\') ? 2 : 1;
            j = std::min(j + 1, n);
            setFormat(i, j - i, formatOf(Role::String));
            i = j;
            continue;
        }
        if (c.isDigit()) { // 32, 0x1f, 1.5f, 1'000
            int j = i + 1;
            while (j < n && (isWordChar(text[j]) || text[j] == QLatin1Char('.') ||
                             text[j] == QLatin1Char('\'')))
                ++j;
            setFormat(i, j - i, formatOf(Role::Constant));
            i = j;
            continue;
        }
        if (isWordStart(c)) {
            int j = i + 1;
            while (j < n && isWordChar(text[j]))
                ++j;
            highlightWord(text, i, j);
            i = j;
            continue;
        }
        ++i;
    }
}

void CppHighlighter::highlightWord(const QString &text, int start, int end) {
    const QString word = text.mid(start, end - start);
    if (keywords().contains(word)) {
        setFormat(start, end - start, formatOf(Role::Keyword));
    } else if (types().contains(word)) {
        setFormat(start, end - start, formatOf(Role::Type));
    } else if (constants().contains(word)) {
        setFormat(start, end - start, formatOf(Role::Constant));
    } else if (halideCalls().contains(word)) {
        // Only where called: a loop variable may well be named "split" or "root".
        int after = end;
        while (after < text.size() && text[after].isSpace())
            ++after;
        if (after < text.size() && text[after] == QLatin1Char('('))
            setFormat(start, end - start, formatOf(Role::HalideCall));
    }
}

} // namespace beamscope
