// PipelinePanel: catalog combo, parameter form, generator libraries.
#include "PipelinePanel.h"

#include "pipeline/AppCatalog.h"
#include "pipeline/GeneratorLibrary.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace beamscope {

PipelinePanel::PipelinePanel(QWidget *parent)
    : QWidget(parent), m_app(new QComboBox(this)), m_description(new QLabel(this)),
      m_params(new QFormLayout), m_generatorParams(new QLineEdit(this)),
      m_load(new QPushButton(tr("Load"), this)) {
    for (const AppDefinition &app : appCatalog()) {
        m_entries.push_back({app.name, {}});
        m_app->addItem(QString::fromStdString(app.name));
    }
    m_description->setWordWrap(true);
    m_description->setStyleSheet(QStringLiteral("color: #555;"));
    m_generatorParams->setPlaceholderText(tr("key=value key=value"));
    m_generatorParams->setToolTip(tr("Generator parameters, separated by spaces"));
    m_load->setDefault(true);
    m_load->setToolTip(tr("Build the pipeline, analyze it and start a fresh search"));
    auto *browse = new QPushButton(tr("Open generator library…"), this);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(new QLabel(tr("<b>Pipeline</b>"), this));
    layout->addWidget(m_app);
    layout->addWidget(m_description);
    layout->addLayout(m_params);
    layout->addWidget(m_generatorParams);
    layout->addWidget(m_load);
    layout->addSpacing(8);
    layout->addWidget(browse);
    layout->addStretch(1);

    connect(m_app, &QComboBox::currentIndexChanged, this, &PipelinePanel::showEntry);
    connect(m_load, &QPushButton::clicked, this, [this] { Q_EMIT loadRequested(source()); });
    connect(browse, &QPushButton::clicked, this, &PipelinePanel::browseLibrary);
    showEntry(0);
}

void PipelinePanel::showEntry(int index) {
    while (m_params->rowCount() > 0)
        m_params->removeRow(0);
    m_spins.clear();
    if (index < 0 || index >= int(m_entries.size())) return;
    const Entry &entry = m_entries[size_t(index)];
    m_generatorParams->setVisible(!entry.library.empty());
    if (!entry.library.empty()) {
        m_description->setText(
            tr("Generator from %1")
                .arg(QFileInfo(QString::fromStdString(entry.library)).fileName()));
        return;
    }
    const AppDefinition *app = findApp(entry.name);
    m_description->setText(QString::fromStdString(app->description));
    for (const AppParameter &p : app->parameters) {
        auto *spin = new QSpinBox(this);
        spin->setRange(int(std::max<int64_t>(p.minValue, std::numeric_limits<int>::min())),
                       int(std::min<int64_t>(p.maxValue, std::numeric_limits<int>::max())));
        spin->setValue(int(p.defaultValue));
        spin->setToolTip(QString::fromStdString(p.description));
        m_params->addRow(QString::fromStdString(p.name), spin);
        m_spins.push_back({p.name, spin});
    }
}

PipelineSource PipelinePanel::source() const {
    PipelineSource s;
    const int index = m_app->currentIndex();
    if (index < 0) return s;
    const Entry &entry = m_entries[size_t(index)];
    s.name = entry.name;
    s.generatorLibrary = entry.library;
    if (entry.library.empty()) {
        const AppDefinition *app = findApp(entry.name);
        for (const auto &[name, spin] : m_spins) {
            for (const AppParameter &p : app->parameters) {
                if (p.name == name && spin->value() != p.defaultValue) {
                    s.params.push_back(name + "=" + std::to_string(spin->value()));
                }
            }
        }
    } else {
        for (const QString &kv :
             m_generatorParams->text().split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
            s.params.push_back(kv.toStdString());
        }
    }
    return s;
}

void PipelinePanel::setSource(const PipelineSource &source) {
    if (!source.generatorLibrary.empty()) {
        QString error;
        openGeneratorLibrary(QString::fromStdString(source.generatorLibrary), &error);
    }
    for (size_t i = 0; i < m_entries.size(); ++i) {
        if (m_entries[i].name == source.name && m_entries[i].library == source.generatorLibrary) {
            m_app->setCurrentIndex(int(i));
            break;
        }
    }
    if (!source.generatorLibrary.empty()) {
        QStringList params;
        for (const std::string &p : source.params)
            params << QString::fromStdString(p);
        m_generatorParams->setText(params.join(QLatin1Char(' ')));
        return;
    }
    for (const std::string &assignment : source.params) {
        const auto eq = assignment.find('=');
        if (eq == std::string::npos) continue;
        for (auto &[name, spin] : m_spins) {
            if (name == assignment.substr(0, eq))
                spin->setValue(QString::fromStdString(assignment.substr(eq + 1)).toInt());
        }
    }
}

bool PipelinePanel::openGeneratorLibrary(const QString &path, QString *error) {
    try {
        // dlopen of a small library and a registry read: quick enough for the GUI thread.
        const GeneratorLibrary library = GeneratorLibrary::open(path.toStdString());
        for (const std::string &name : library.generators()) {
            bool known = false;
            for (const Entry &e : m_entries)
                known |= e.name == name && e.library == library.path();
            if (known) continue;
            m_entries.push_back({name, library.path()});
            m_app->addItem(QStringLiteral("%1 (%2)").arg(QString::fromStdString(name),
                                                         QFileInfo(path).fileName()));
        }
        Q_EMIT generatorLibraryOpened(path);
        return true;
    } catch (const std::exception &e) {
        if (error) *error = QString::fromStdString(e.what());
        return false;
    }
}

void PipelinePanel::browseLibrary() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open generator library"), QString(),
                                                      tr("Shared libraries (*.so);;All files (*)"));
    if (path.isEmpty()) return;
    QString error;
    if (openGeneratorLibrary(path, &error)) {
        m_app->setCurrentIndex(m_app->count() - 1);
        Q_EMIT message(tr("Opened %1").arg(path));
    } else {
        Q_EMIT message(error);
    }
}

} // namespace beamscope
