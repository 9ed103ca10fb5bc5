// SlurmSettingsDialog: the form, file/folder pickers, and the check on OK.
#include "views/runner/SlurmSettingsDialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <exception>

namespace beamscope {

namespace {

/// `edit` with a "…" button that fills it from a file (or folder) dialog.
QWidget *withPicker(QLineEdit *edit, bool folder, const QString &title) {
    auto *box = new QWidget;
    auto *row = new QHBoxLayout(box);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(edit, 1);
    auto *pick = new QToolButton;
    pick->setText(QStringLiteral("…"));
    QObject::connect(pick, &QToolButton::clicked, edit, [edit, folder, title] {
        const QString chosen = folder ? QFileDialog::getExistingDirectory(edit, title, edit->text())
                                      : QFileDialog::getOpenFileName(edit, title, edit->text());
        if (!chosen.isEmpty()) edit->setText(chosen);
    });
    row->addWidget(pick);
    return box;
}

} // namespace

SlurmSettingsDialog::SlurmSettingsDialog(const RunnerSettings &s, QWidget *parent)
    : QDialog(parent), m_config(new QLineEdit(s.config)), m_dir(new QLineEdit(s.dir)),
      m_partition(new QLineEdit(s.partition)), m_account(new QLineEdit(s.account)),
      m_gres(new QLineEdit(s.gres)), m_time(new QLineEdit(s.time)), m_compile(new QComboBox),
      m_worker(new QLineEdit(s.worker)), m_maxParallel(new QSpinBox), m_poll(new QDoubleSpinBox),
      m_options(new QPlainTextEdit(s.options.join(QLatin1Char('\n')))), m_problem(new QLabel) {
    setWindowTitle(tr("Slurm settings"));
    setObjectName(QStringLiteral("slurmSettingsDialog"));
    m_config->setPlaceholderText(tr("optional: key = value file (docs/cluster.md)"));
    m_dir->setPlaceholderText(tr("a directory the cluster's nodes see (required)"));
    m_partition->setPlaceholderText(tr("the cluster's default"));
    m_account->setPlaceholderText(tr("your default account"));
    m_gres->setPlaceholderText(tr("gpu:1 (none: no GRES)"));
    m_time->setPlaceholderText(tr("twice the worker's time limit"));
    m_worker->setPlaceholderText(tr("this machine's beamscope-worker"));
    m_compile->addItem(tr("default (here)"), QString());
    m_compile->addItem(tr("here, and ship the compiled artifact"), QStringLiteral("local"));
    m_compile->addItem(tr("in the job"), QStringLiteral("job"));
    m_compile->setCurrentIndex(std::max(0, m_compile->findData(s.compile)));
    m_maxParallel->setRange(0, 100000);
    m_maxParallel->setSpecialValueText(tr("no limit"));
    m_maxParallel->setValue(s.maxParallel);
    m_poll->setRange(0, 600);
    m_poll->setDecimals(2);
    m_poll->setSingleStep(0.5);
    m_poll->setSuffix(tr(" s"));
    m_poll->setSpecialValueText(tr("default (2 s)"));
    m_poll->setValue(s.pollS);
    m_options->setPlaceholderText(tr("one sbatch option a line, e.g. --qos=short"));
    m_options->setMaximumHeight(m_options->fontMetrics().height() * 4 + 12);
    m_problem->setWordWrap(true);
    m_problem->setStyleSheet(QStringLiteral("color: #b00020"));
    m_problem->hide();

    auto *form = new QFormLayout;
    form->addRow(tr("Config file"), withPicker(m_config, false, tr("Slurm config file")));
    form->addRow(tr("Shared directory"), withPicker(m_dir, true, tr("Shared job directory")));
    form->addRow(tr("Partition"), m_partition);
    form->addRow(tr("Account"), m_account);
    form->addRow(tr("GRES"), m_gres);
    form->addRow(tr("Time limit"), m_time);
    form->addRow(tr("Compile"), m_compile);
    form->addRow(tr("Worker on the nodes"), m_worker);
    form->addRow(tr("Tasks at once"), m_maxParallel);
    form->addRow(tr("Poll every"), m_poll);
    form->addRow(tr("sbatch options"), m_options);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    connect(buttons, &QDialogButtonBox::accepted, this, &SlurmSettingsDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &SlurmSettingsDialog::reject);
    auto *layout = new QVBoxLayout(this);
    auto *intro = new QLabel(tr("Fields left empty come from the config file, else Slurm's "
                                "defaults. The nodes need their GPU driver and "
                                "beamscope-aot-runner (compiled here) or beamscope-worker with "
                                "its libHalide (compiled in the job)."));
    intro->setWordWrap(true);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addWidget(m_problem);
    layout->addWidget(buttons);
    setMinimumWidth(520);
}

RunnerSettings SlurmSettingsDialog::settings() const {
    RunnerSettings s;
    s.kind = RunnerKind::Slurm;
    s.config = m_config->text().trimmed();
    s.dir = m_dir->text().trimmed();
    s.partition = m_partition->text().trimmed();
    s.account = m_account->text().trimmed();
    s.gres = m_gres->text().trimmed();
    s.time = m_time->text().trimmed();
    s.compile = m_compile->currentData().toString();
    s.worker = m_worker->text().trimmed();
    s.maxParallel = m_maxParallel->value();
    s.pollS = m_poll->value() > 0 ? std::max(0.05, m_poll->value()) : 0;
    for (const QString &line : m_options->toPlainText().split(QLatin1Char('\n')))
        if (!line.trimmed().isEmpty()) s.options << line.trimmed();
    return s;
}

QString SlurmSettingsDialog::problem() const {
    return m_problem->isHidden() ? QString() : m_problem->text();
}

void SlurmSettingsDialog::accept() {
    try {
        (void)settings().slurm();
    } catch (const std::exception &e) {
        m_problem->setText(QString::fromStdString(e.what()));
        m_problem->show();
        return;
    }
    m_problem->hide();
    QDialog::accept();
}

} // namespace beamscope
