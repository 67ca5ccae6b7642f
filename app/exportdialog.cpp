// SPDX-License-Identifier: MIT
#include "exportdialog.h"

#include "imageexport.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSpinBox>

namespace RankScope {

namespace {

// Rows holding a layout get no buddy from QFormLayout, so their mnemonic would show as a literal "&".
QLabel* buddyLabel(const QString& text, QWidget* buddy)
{
    auto* label = new QLabel(text);
    label->setBuddy(buddy);
    return label;
}

} // namespace

ExportDialog::ExportDialog(QWidget* parent)
    : QDialog(parent)
    , m_path(new QLineEdit(this))
    , m_view(new QComboBox(this))
    , m_width(new QSpinBox(this))
    , m_height(new QSpinBox(this))
    , m_scale(new QComboBox(this))
{
    setWindowTitle(tr("Export Diff Screenshot"));
    auto* form = new QFormLayout(this);

    auto* fileRow = new QHBoxLayout;
    m_path->setPlaceholderText(tr("rankscope-diff.png"));
    m_path->setAccessibleName(tr("File"));
    m_path->setToolTip(tr("The suffix chooses the format: .png, .svg or .pdf"));
    auto* browse = new QPushButton(tr("Browse…"), this);
    connect(browse, &QPushButton::clicked, this, [this] {
        // This dialog asks about replacing files itself, once the user presses Export.
        const QString path = QFileDialog::getSaveFileName(this, tr("Export Diff Screenshot"), m_path->text(),
            tr("PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)"), nullptr,
            QFileDialog::DontConfirmOverwrite);
        if (!path.isEmpty())
            m_path->setText(path);
    });
    fileRow->addWidget(m_path, 1);
    fileRow->addWidget(browse);
    form->addRow(buddyLabel(tr("&File:"), m_path), fileRow);

    m_view->addItem(tr("Diff: timelines, block maps, findings and stack"), int(DiffSheet::Diff));
    m_view->addItem(tr("Timelines of A and B"), int(DiffSheet::Timelines));
    m_view->addItem(tr("Block maps of A and B"), int(DiffSheet::BlockMaps));
    m_view->addItem(tr("Overview of every rank"), int(DiffSheet::Overview));
    m_view->setAccessibleName(tr("View"));
    form->addRow(tr("&View:"), m_view);

    auto* sizeRow = new QHBoxLayout;
    for (QSpinBox* box : { m_width, m_height }) {
        box->setRange(200, 10000);
        box->setSuffix(tr(" px"));
        sizeRow->addWidget(box);
    }
    m_width->setValue(1600);
    m_height->setValue(1000);
    m_width->setAccessibleName(tr("Width"));
    m_height->setAccessibleName(tr("Height"));
    form->addRow(buddyLabel(tr("&Size:"), m_width), sizeRow);

    m_scale->addItem(tr("1× (as on screen)"), 1.0);
    m_scale->addItem(tr("2× (sharp text, default)"), 2.0);
    m_scale->addItem(tr("3×"), 3.0);
    m_scale->setCurrentIndex(1);
    m_scale->setToolTip(tr("Pixels per point in a PNG; SVG and PDF are vectors and need none"));
    m_scale->setAccessibleName(tr("Scale"));
    form->addRow(tr("S&cale:"), m_scale);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    buttons->addButton(tr("&Export"), QDialogButtonBox::AcceptRole);
    connect(buttons, &QDialogButtonBox::accepted, this, &ExportDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &ExportDialog::reject);
    form->addRow(buttons);
}

QString ExportDialog::path() const
{
    return m_path->text().trimmed();
}

void ExportDialog::setPath(const QString& path)
{
    m_path->setText(path);
}

DiffSheet::View ExportDialog::view() const
{
    return DiffSheet::View(m_view->currentData().toInt());
}

QSize ExportDialog::imageSize() const
{
    return { m_width->value(), m_height->value() };
}

double ExportDialog::scale() const
{
    return m_scale->currentData().toDouble();
}

void ExportDialog::accept()
{
    if (ImageExport::formatOf(path()) == ImageExport::Unknown) {
        QMessageBox::warning(this, windowTitle(), tr("Name the file .png, .svg or .pdf."));
        return;
    }
    if (QFileInfo::exists(path())
        && QMessageBox::question(this, windowTitle(), tr("%1 exists. Replace it?").arg(path())) != QMessageBox::Yes)
        return;
    QDialog::accept();
}

} // namespace RankScope
