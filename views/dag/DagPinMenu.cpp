// DagPinMenu: builds the pin menu from the DAG (consumers, stages, outputs) and the hub's state.
#include "views/dag/DagPinMenu.h"

#include "views/common/PinEdits.h"
#include "views/common/SelectionHub.h"
#include "views/dag/TileSizeDialog.h"

#include <functional>
#include <set>

namespace beamscope {

namespace {

/// Direct consumers of `node`, in the order of its outgoing edges.
std::vector<int> consumersOf(const FunctionDAG &dag, int node) {
    std::vector<int> out;
    std::set<int> seen;
    for (int e : dag.node(node).outgoing) {
        const int c = dag.edge(e).consumer;
        if (seen.insert(c).second) out.push_back(c);
    }
    return out;
}

Pin locationPin(const std::string &func, ComputeKind kind, const std::string &host = {}) {
    Pin pin;
    pin.func = func;
    pin.location = kind;
    pin.host = host;
    return pin;
}

/// The submenu of consumers for a fusion level: the memory it puts the Func in comes first,
/// as the DAG's legend pairs them ("block (shared)", "thread (registers)").
QString levelTitle(ComputeKind kind) {
    return kind == ComputeKind::Block ? QObject::tr("Shared memory, at block level of")
                                      : QObject::tr("Registers, at thread level of");
}

/// What computing `n` at `host`'s `kind` level means, for the consumer's entry.
QString levelToolTip(const Node &n, ComputeKind kind, const std::string &host) {
    const QString func = QString::fromStdString(n.name), consumer = QString::fromStdString(host);
    const int updates = int(n.stages.size()) - 1;
    const QString theUpdates = updates == 1 ? QObject::tr("its update runs")
                                            : QObject::tr("its %1 updates run").arg(updates);
    if (kind == ComputeKind::Block) {
        const QString text =
            QObject::tr("%1 computed in each GPU block of %2, stored in shared memory, on the "
                        "block's threads")
                .arg(func, consumer);
        if (updates == 0) return text;
        // A histogram's update writes where the data says along its scattered dimensions.
        const QString owns = n.scatteredDims.empty()
                                 ? QObject::tr("each thread updating its own points")
                                 : QObject::tr("each thread adding into the bins its own "
                                               "points' data select");
        return text + QObject::tr("; %1 there too, on the same threads, %2").arg(theUpdates, owns);
    }
    const QString text =
        QObject::tr("%1 computed by each GPU thread of %2, in registers").arg(func, consumer);
    return updates == 0 ? text : text + QObject::tr("; %1 there too").arg(theUpdates);
}

/// Adds `kind`'s submenu of `n`'s consumers to `parent`; each entry is handed to `choose` with
/// its consumer's name.
QMenu *addLevelMenu(QMenu &parent, const FunctionDAG &dag, const Node &n, ComputeKind kind,
                    const std::function<void(QAction *, const std::string &)> &choose) {
    QMenu *level = parent.addMenu(levelTitle(kind));
    level->setToolTipsVisible(true);
    for (int c : consumersOf(dag, n.index)) {
        const std::string host = dag.node(c).name;
        QAction *entry = level->addAction(QString::fromStdString(host));
        entry->setToolTip(levelToolTip(n, kind, host));
        choose(entry, host);
    }
    return level;
}

QAction *findAction(const QMenu &menu, const QString &text) {
    for (QAction *a : menu.actions()) {
        if (a->text() == text) return a;
        if (a->menu()) {
            if (QAction *found = findAction(*a->menu(), text)) return found;
        }
    }
    return nullptr;
}

} // namespace

DagPinMenu::DagPinMenu(const SelectionHub &hub, int node, QWidget *parent)
    : m_hub(hub), m_node(node), m_menu(parent) {
    const FunctionDAG &dag = *hub.dag();
    const Node &n = dag.node(node);
    const std::string &name = n.name;
    const std::vector<Pin> &pins = hub.pins();
    const bool canMove = n.stages.size() == 1 && !n.isOutput; // else: always compute_root
    // A Func with updates that touch only their own point can also be computed at a consumer's
    // block level (shared memory) or thread level (registers) (ScheduleState::canFuse); one
    // whose updates scatter (a histogram) at the block level only.
    const bool canFuse = canMove || (!n.isOutput && n.pointwiseUpdates);
    const bool canBlock = canFuse || (!n.isOutput && !n.scatteredDims.empty());

    m_menu.addSection(QObject::tr("Pin %1").arg(QString::fromStdString(name)));
    m_choices[m_menu.addAction(QObject::tr("Compute at root"))] =
        withPin(pins, locationPin(name, ComputeKind::Root));
    QAction *inlineAction = m_menu.addAction(QObject::tr("Inline"));
    inlineAction->setEnabled(canMove);
    if (!canMove)
        inlineAction->setToolTip(n.isOutput ? QObject::tr("An output is computed at root")
                                            : QObject::tr("A Func with updates is never inlined"));
    m_choices[inlineAction] = withPin(pins, locationPin(name, ComputeKind::Inline));
    QMenu *block = nullptr, *thread = nullptr;
    for (ComputeKind kind : {ComputeKind::Block, ComputeKind::Thread}) {
        QMenu *level =
            addLevelMenu(m_menu, dag, n, kind, [&](QAction *entry, const std::string &host) {
                m_choices[entry] = withPin(pins, locationPin(name, kind, host));
            });
        (kind == ComputeKind::Block ? block : thread) = level;
    }
    block->setEnabled(canBlock && !block->isEmpty());
    thread->setEnabled(canFuse && !thread->isEmpty());
    m_tiles = m_menu.addAction(QObject::tr("Root with tile sizes…"));
    m_menu.addSeparator();

    std::optional<Pin> freeze;
    if (hub.state()) freeze = freezePinFromState(*hub.state(), node);
    QAction *freezeAction = m_menu.addAction(QObject::tr("Freeze at current decision"));
    freezeAction->setEnabled(freeze.has_value());
    if (freeze) {
        freezeAction->setToolTip(QString::fromStdString(pinDescription(*freeze)));
        m_choices[freezeAction] = withPin(pins, *freeze);
    }
    QAction *unpin = m_menu.addAction(QObject::tr("Unpin"));
    unpin->setEnabled(hub.pinFor(name) != nullptr);
    m_choices[unpin] = withoutPin(pins, name);

    // "Why not…?": the same decisions, asked about instead of pinned.
    m_menu.addSeparator();
    QMenu *why = m_menu.addMenu(QObject::tr("Why not…?"));
    m_why[why->addAction(QObject::tr("Compute at root"))] = locationPin(name, ComputeKind::Root);
    QAction *whyInline = why->addAction(QObject::tr("Inline"));
    whyInline->setEnabled(canMove);
    m_why[whyInline] = locationPin(name, ComputeKind::Inline);
    QMenu *whyBlock = nullptr, *whyThread = nullptr;
    for (ComputeKind kind : {ComputeKind::Block, ComputeKind::Thread}) {
        QMenu *level =
            addLevelMenu(*why, dag, n, kind, [&](QAction *entry, const std::string &host) {
                m_why[entry] = locationPin(name, kind, host);
            });
        (kind == ComputeKind::Block ? whyBlock : whyThread) = level;
    }
    whyBlock->setEnabled(canBlock && !whyBlock->isEmpty());
    whyThread->setEnabled(canFuse && !whyThread->isEmpty());
    m_whyTiles = why->addAction(QObject::tr("Root with tile sizes…"));
    // The search runs when asked: there must be a pipeline with a search to follow.
    why->setEnabled(hub.step() != nullptr);
    m_menu.setToolTipsVisible(true);
}

std::optional<Pin> DagPinMenu::whyFor(QAction *chosen) const {
    if (!chosen) return std::nullopt;
    if (auto it = m_why.find(chosen); it != m_why.end()) return it->second;
    if (chosen != m_whyTiles) return std::nullopt;
    const Node &n = m_hub.dag()->node(m_node);
    TileSizeDialog dialog(n, {}, {}, m_menu.parentWidget());
    dialog.setWindowTitle(QObject::tr("Why not these tile sizes?"));
    if (dialog.exec() != QDialog::Accepted) return std::nullopt;
    Pin pin = locationPin(n.name, ComputeKind::Root);
    pin.threads = dialog.threads();
    pin.serial = dialog.serial();
    return pin;
}

QAction *DagPinMenu::action(const QString &text) const {
    return findAction(m_menu, text);
}

std::optional<std::vector<Pin>> DagPinMenu::pinsFor(QAction *chosen) const {
    if (!chosen) return std::nullopt;
    if (auto it = m_choices.find(chosen); it != m_choices.end()) return it->second;
    if (chosen != m_tiles) return std::nullopt;
    const Node &n = m_hub.dag()->node(m_node);
    const Pin *current = m_hub.pinFor(n.name);
    TileSizeDialog dialog(n, current ? current->threads : std::vector<int64_t>{},
                          current ? current->serial : std::vector<int64_t>{},
                          m_menu.parentWidget());
    if (dialog.exec() != QDialog::Accepted) return std::nullopt;
    Pin pin = locationPin(n.name, ComputeKind::Root);
    pin.threads = dialog.threads();
    pin.serial = dialog.serial();
    return withPin(m_hub.pins(), pin);
}

std::optional<std::vector<Pin>> execPinMenu(const SelectionHub &hub, int node,
                                            const QPoint &globalPos, QWidget *parent) {
    DagPinMenu menu(hub, node, parent);
    return menu.pinsFor(menu.menu().exec(globalPos));
}

void execDagMenu(SelectionHub &hub, int node, const QPoint &globalPos, QWidget *parent) {
    DagPinMenu menu(hub, node, parent);
    QAction *chosen = menu.menu().exec(globalPos);
    if (auto decision = menu.whyFor(chosen)) {
        hub.requestWhy(*decision);
    } else if (auto pins = menu.pinsFor(chosen)) {
        hub.requestPins(*pins);
    }
}

} // namespace beamscope
