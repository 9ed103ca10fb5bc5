// PipelinePanel: catalog combo, parameter form, generator libraries opened in the background.
#include "PipelinePanel.h"

#include "GeneratorLibraryLoader.h"

#include "pipeline/AppCatalog.h"
#include "pipeline/random/RandomPipeline.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <utility>

namespace beamscope {

namespace {

/// The form of the entry `name`: a catalog app, or the random pipelines' (seed, stages, size).
const AppDefinition *definitionOf(const std::string &name) {
    static const AppDefinition random = randomPipelineDefinition();
    return name == random.name ? &random : findApp(name);
}

} // namespace

PipelinePanel::PipelinePanel(QWidget *parent)
    : QWidget(parent), m_app(new QComboBox(this)), m_description(new QLabel(this)),
      m_params(new QFormLayout), m_generatorParams(new QLineEdit(this)),
      m_estimates(new QLineEdit(this)), m_scalarInputs(new QLineEdit(this)),
      m_load(new QPushButton(tr("Load"), this)), m_libraryStatus(new QLabel(this)),
      m_loader(new GeneratorLibraryLoader(this)) {
    for (const AppDefinition &app : appCatalog()) {
        m_entries.push_back({app.name, {}});
        m_app->addItem(QString::fromStdString(app.name));
    }
    // Random pipelines (random:SEED[:STAGES]) after the catalog, with their own form.
    m_entries.push_back({definitionOf("random")->name, {}});
    m_app->addItem(QString::fromStdString(definitionOf("random")->name));
    m_description->setWordWrap(true);
    m_description->setStyleSheet(QStringLiteral("color: #555;"));
    m_generatorParams->setPlaceholderText(tr("key=value key=value"));
    m_generatorParams->setToolTip(tr("Generator parameters, separated by spaces"));
    m_estimates->setPlaceholderText(tr("output estimates: the pipeline's"));
    m_estimates->setToolTip(
        tr("Override output estimates (the sizes the search schedules for), separated by spaces: "
           "NAME=MIN:EXTENT,MIN:EXTENT… e.g. output=0:1920,0:1080. Blank: the pipeline's own."));
    m_scalarInputs->setPlaceholderText(tr("scalar inputs: the generator's"));
    m_scalarInputs->setToolTip(
        tr("Values of the generator's scalar inputs (Input<float>, Input<int>, …), separated by "
           "spaces: NAME=VALUE e.g. amount=0.5 passes=3. An input not given takes its estimate, "
           "else the generator's default."));
    m_load->setDefault(true);
    m_load->setToolTip(tr("Build the pipeline, analyze it and start a fresh search"));
    auto *browse = new QPushButton(tr("Open generator library…"), this);
    // Wrapped at the dock's width however long the error: the dock keeps its width and the
    // whole message shows (it used to be one line cut at the dock's edge).
    m_libraryStatus->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_libraryStatus->setWordWrap(true);
    m_libraryStatus->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_libraryStatus->hide();

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(new QLabel(tr("<b>Pipeline</b>"), this));
    layout->addWidget(m_app);
    layout->addWidget(m_description);
    layout->addLayout(m_params);
    layout->addWidget(m_generatorParams);
    layout->addWidget(m_estimates);
    layout->addWidget(m_scalarInputs);
    layout->addWidget(m_load);
    layout->addSpacing(8);
    layout->addWidget(browse);
    layout->addWidget(m_libraryStatus);
    layout->addStretch(1);

    connect(m_app, &QComboBox::currentIndexChanged, this, &PipelinePanel::showEntry);
    connect(m_load, &QPushButton::clicked, this, [this] { Q_EMIT loadRequested(source()); });
    connect(browse, &QPushButton::clicked, this, &PipelinePanel::browseLibrary);
    connect(m_loader, &GeneratorLibraryLoader::loaded, this, &PipelinePanel::libraryLoaded);
    connect(m_loader, &GeneratorLibraryLoader::failed, this, &PipelinePanel::libraryFailed);
    showEntry(0);
}

void PipelinePanel::showEntry(int index) {
    while (m_params->rowCount() > 0)
        m_params->removeRow(0);
    m_spins.clear();
    if (index < 0 || index >= int(m_entries.size())) return;
    const Entry &entry = m_entries[size_t(index)];
    m_generatorParams->setVisible(!entry.library.empty());
    m_scalarInputs->setVisible(!entry.library.empty());
    if (!entry.library.empty()) {
        const QString file = QFileInfo(QString::fromStdString(entry.library)).fileName();
        m_description->setText(
            file.endsWith(QStringLiteral(".py"))       ? tr("Python generator from %1").arg(file)
            : file.endsWith(QStringLiteral(".hlpipe")) ? tr("Serialized pipeline %1").arg(file)
                                                       : tr("Generator from %1").arg(file));
        return;
    }
    const AppDefinition *app = definitionOf(entry.name);
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
    setUserFile(s, entry.library);
    for (const QString &e : m_estimates->text().split(QLatin1Char(' '), Qt::SkipEmptyParts))
        s.estimates.push_back(e.toStdString());
    if (entry.library.empty() && entry.name == "random") {
        AppParams form;
        for (const auto &[name, spin] : m_spins)
            form[name] = spin->value();
        s.name = randomSpecOfForm(form, s.params);
    } else if (entry.library.empty()) {
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
        for (const QString &kv : m_scalarInputs->text().split(QLatin1Char(' '), Qt::SkipEmptyParts))
            s.inputs.push_back(kv.toStdString());
    }
    return s;
}

namespace {

/// True if `a` and `b` name the same library file (or are both empty: the catalog).
bool sameLibrary(const std::string &a, const std::string &b) {
    if (a == b) return true;
    if (a.empty() || b.empty()) return false;
    const QString ca = QFileInfo(QString::fromStdString(a)).canonicalFilePath();
    return !ca.isEmpty() && ca == QFileInfo(QString::fromStdString(b)).canonicalFilePath();
}

} // namespace

void PipelinePanel::setSource(const PipelineSource &source) {
    m_pendingSource.reset();
    if (showSource(source) || userFile(source).empty()) return;
    m_pendingSource = source;
    openGeneratorLibrary(QString::fromStdString(userFile(source)));
}

bool PipelinePanel::showSource(const PipelineSource &source) {
    const bool random = userFile(source).empty() && isRandomSpec(source.name);
    int found = -1;
    for (size_t i = 0; i < m_entries.size() && found < 0; ++i) {
        if (m_entries[i].name == (random ? std::string("random") : source.name) &&
            sameLibrary(m_entries[i].library, userFile(source)))
            found = int(i);
    }
    if (found < 0) return false;
    m_app->setCurrentIndex(found);
    QStringList estimates;
    for (const std::string &e : source.estimates)
        estimates << QString::fromStdString(e);
    m_estimates->setText(estimates.join(QLatin1Char(' ')));
    if (!userFile(source).empty()) {
        QStringList params;
        for (const std::string &p : source.params)
            params << QString::fromStdString(p);
        m_generatorParams->setText(params.join(QLatin1Char(' ')));
        QStringList inputs;
        for (const std::string &i : source.inputs)
            inputs << QString::fromStdString(i);
        m_scalarInputs->setText(inputs.join(QLatin1Char(' ')));
        return true;
    }
    std::vector<std::string> assignments = source.params;
    if (random) { // the spec's seed and stages go to their spin boxes (a malformed one: zeros)
        RandomSpec spec;
        try {
            spec = parseRandomSpec(source.name);
        } catch (const std::exception &) {
        }
        assignments.push_back("seed=" + std::to_string(spec.seed));
        assignments.push_back("stages=" + std::to_string(spec.stages));
        if (source.params.empty()) assignments.push_back("size=0");
    }
    for (const std::string &assignment : assignments) {
        const auto eq = assignment.find('=');
        if (eq == std::string::npos) continue;
        for (auto &[name, spin] : m_spins) {
            if (name == assignment.substr(0, eq))
                spin->setValue(QString::fromStdString(assignment.substr(eq + 1)).toInt());
        }
    }
    return true;
}

void PipelinePanel::openGeneratorLibrary(const QString &path, bool selectFirst) {
    m_selectFirstLoaded = selectFirst;
    showLibraryStatus(tr("Loading %1…").arg(QFileInfo(path).fileName()), false);
    m_loader->load(path);
}

bool PipelinePanel::isLoadingLibrary() const {
    return m_loader->isLoading();
}

QString PipelinePanel::libraryStatus() const {
    return m_libraryStatus->isHidden() ? QString() : m_libraryStatus->text();
}

void PipelinePanel::libraryLoaded(const QString &path, const QString &openedPath,
                                  const QStringList &generators) {
    showLibraryStatus(QString(), false);
    const std::string library = openedPath.toStdString();
    int first = -1;
    for (const QString &name : generators) {
        int index = -1;
        for (size_t i = 0; i < m_entries.size(); ++i) {
            if (m_entries[i].name == name.toStdString() && m_entries[i].library == library)
                index = int(i);
        }
        if (index < 0) {
            index = int(m_entries.size());
            m_entries.push_back({name.toStdString(), library});
            m_app->addItem(QStringLiteral("%1 (%2)").arg(name, QFileInfo(path).fileName()));
        }
        if (first < 0) first = index;
    }
    if (m_pendingSource && sameLibrary(userFile(*m_pendingSource), library)) {
        showSource(*std::exchange(m_pendingSource, std::nullopt));
    } else if (std::exchange(m_selectFirstLoaded, false) && first >= 0) {
        m_app->setCurrentIndex(first);
    }
    Q_EMIT generatorLibraryOpened(path);
    Q_EMIT message(generators.size() == 1
                       ? tr("Opened %1: 1 generator").arg(path)
                       : tr("Opened %1: %2 generators").arg(path).arg(generators.size()));
}

void PipelinePanel::libraryFailed(const QString &path, const QString &error) {
    m_pendingSource.reset();
    m_selectFirstLoaded = false;
    showLibraryStatus(error, true); // GeneratorLibrary's messages name the library
    Q_EMIT generatorLibraryFailed(path, error);
    Q_EMIT message(error);
}

void PipelinePanel::showLibraryStatus(const QString &text, bool error) {
    m_libraryStatus->setText(text);
    m_libraryStatus->setToolTip(text);
    m_libraryStatus->setStyleSheet(error ? QStringLiteral("color: #b00020;")
                                         : QStringLiteral("color: #555;"));
    m_libraryStatus->setVisible(!text.isEmpty());
}

void PipelinePanel::browseLibrary() {
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open generator library"), QString(),
        tr("Shared libraries (*.so);;Python generators (*.py);;Halide pipelines (*.hlpipe);;All "
           "files (*)"));
    if (!path.isEmpty()) openGeneratorLibrary(path, true);
}

} // namespace beamscope
