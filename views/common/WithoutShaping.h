// The views that repaint on every search step draw Latin text: names, numbers, "ms", a few
// symbols. HarfBuzz shaping (ligatures, contextual forms) was a quarter of the GUI thread's time
// during a search (docs/performance.md, "GUI latency") and changes nothing for that text;
// PreferNoShaping keeps kerning and still shapes any script that needs it.
#pragma once

#include <QFont>

namespace beamscope {

inline QFont withoutShaping(QFont font) {
    font.setStyleStrategy(QFont::StyleStrategy(font.styleStrategy() | QFont::PreferNoShaping));
    return font;
}

} // namespace beamscope
