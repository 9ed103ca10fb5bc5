// DagPinMenu: the context menu of a Func in the DAG view — pin its compute location (root,
// inline, a consumer's block level in shared memory or thread level in registers, each
// consumer's entry saying in its tooltip what that computes where), pin root tile sizes (a
// dialog), freeze it at the inspected state's decision, or unpin it — and the pin list each
// choice asks for. Its "Why not…?" submenu offers the same decisions and asks the search what
// happened to the one chosen.
#pragma once

#include "search/Pins.h"

#include <QMenu>
#include <QPoint>

#include <map>
#include <optional>
#include <vector>

namespace beamscope {

class SelectionHub;

class DagPinMenu {
public:
    /// Builds the menu for Func `node` from the hub's DAG, inspected state and pins.
    DagPinMenu(const SelectionHub &hub, int node, QWidget *parent);

    QMenu &menu() { return m_menu; }
    /// The action that asks for `text` (first match, submenus included), or nullptr.
    QAction *action(const QString &text) const;
    /// The pin list `chosen` asks for; nullopt if it asks for none (or the dialog was cancelled).
    std::optional<std::vector<Pin>> pinsFor(QAction *chosen) const;
    /// The decision a "Why not…?" choice describes (a pin's fields); nullopt for other choices.
    std::optional<Pin> whyFor(QAction *chosen) const;

private:
    const SelectionHub &m_hub;
    int m_node;
    QMenu m_menu;
    QAction *m_tiles = nullptr;
    std::map<QAction *, std::vector<Pin>> m_choices; ///< every choice but the tile dialog
    QAction *m_whyTiles = nullptr;
    std::map<QAction *, Pin> m_why; ///< "Why not…?" choices but the tile dialog
};

/// Shows the menu for Func `node` at `globalPos`; the new pin list, or nullopt if cancelled.
std::optional<std::vector<Pin>> execPinMenu(const SelectionHub &hub, int node,
                                            const QPoint &globalPos, QWidget *parent);
/// Shows the menu and hands the choice to `hub`: requestPins() for a pin, requestWhy() for a
/// "Why not…?" decision.
void execDagMenu(SelectionHub &hub, int node, const QPoint &globalPos, QWidget *parent);

} // namespace beamscope
