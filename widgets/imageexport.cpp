// SPDX-License-Identifier: MIT
#include "imageexport.h"

#include "bigallocator.h"
#include "dataexport.h"
#include "exportableplot.h"
#include "pngencoder.h"

#include <QApplication>
#include <QBuffer>
#include <QClipboard>
#include <QCoreApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontInfo>
#include <QMenu>
#include <QMessageBox>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QRegularExpression>
#include <QSvgGenerator>
#include <QWidget>

#include <memory>

namespace RankScope::ImageExport {

namespace {

// While alive, every plot inside the widget paints vectors instead of its screen pixmap.
class VectorPlots
{
public:
    explicit VectorPlots(QWidget* widget)
        : m_plots(widget->findChildren<ExportablePlot*>())
    {
        if (auto* self = qobject_cast<ExportablePlot*>(widget))
            m_plots.append(self);
        for (ExportablePlot* plot : m_plots)
            plot->setVectorPainting(true);
    }
    ~VectorPlots()
    {
        for (ExportablePlot* plot : m_plots)
            plot->setVectorPainting(false);
    }
    VectorPlots(const VectorPlots&) = delete;
    VectorPlots& operator=(const VectorPlots&) = delete;

private:
    QList<ExportablePlot*> m_plots;
};

void renderInto(QWidget* widget, QPainter& painter)
{
    const VectorPlots vectors(widget);
    widget->render(&painter, QPoint(), QRegion(), QWidget::DrawWindowBackground | QWidget::DrawChildren);
}

} // namespace

Format formatOf(const QString& path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("png"))
        return Png;
    if (suffix == QLatin1String("svg"))
        return Svg;
    if (suffix == QLatin1String("pdf"))
        return Pdf;
    return Unknown;
}

QImage image(QWidget* widget, double scale)
{
    const QSize size = widget->size() * scale;
    if (size.isEmpty())
        return {};
    // In big pages (BigBlocks): a sheet's picture at scale 2 is 25 MB of fresh memory, and where every fresh 4 KiB
    // page costs the kernel's zeroing and a trip through the hypervisor, filling it took 80-90 ms, twice as long as
    // drawing the sheet into it; 2 ms in big pages.
    struct Block
    {
        void* data;
        size_t bytes;
    };
    const qsizetype bytesPerLine = qsizetype(size.width()) * 4;
    const size_t bytes = size_t(bytesPerLine) * size_t(size.height());
    auto block = std::make_unique<Block>(Block { BigBlocks::allocate(bytes), bytes });
    auto* pixels = static_cast<uchar*>(block->data);
    // Opaque (filled below): a PNG without an alpha channel is a quarter fewer bytes to compress. The block is the
    // image's from here: freed with its last copy.
    QImage image(
        pixels, size.width(), size.height(), bytesPerLine, QImage::Format_RGB32,
        [](void* info) {
            auto* b = static_cast<Block*>(info);
            BigBlocks::deallocate(b->data, b->bytes);
            delete b;
        },
        block.release());
    image.setDevicePixelRatio(scale);
    image.fill(widget->palette().color(QPalette::Window));
    QPainter painter(&image);
    painter.setRenderHint(QPainter::TextAntialiasing);
    renderInto(widget, painter);
    return image;
}

namespace {

// QSvgGenerator names fonts by the family asked for, often Qt's alias "Sans Serif", which browsers do not know: they
// fall back to a serif face with gaps between the glyphs. Each family becomes the face that was really used, common
// sans faces after it, and the generic family last.
QByteArray withFontFallbacks(const QByteArray& svg)
{
    static const QRegularExpression family(QStringLiteral("font-family=\"([^\"]*)\""));
    QString text = QString::fromUtf8(svg);
    QString out;
    qsizetype from = 0;
    for (QRegularExpressionMatchIterator it = family.globalMatch(text); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        const QFontInfo used { QFont(m.captured(1)) };
        QStringList families { used.family() };
        // fontconfig does not always call a monospaced face fixed-pitch (Noto Sans Mono): its name tells too.
        const bool mono = used.fixedPitch() || used.family().contains(QLatin1String("Mono"), Qt::CaseInsensitive)
            || used.family().contains(QLatin1String("Courier"), Qt::CaseInsensitive);
        const QStringList fallbacks = mono ? QStringList { QStringLiteral("DejaVu Sans Mono"),
            QStringLiteral("Noto Sans Mono"), QStringLiteral("Liberation Mono"), QStringLiteral("Consolas") }
                                           : QStringList { QStringLiteral("DejaVu Sans"), QStringLiteral("Noto Sans"),
                                                 QStringLiteral("Liberation Sans"), QStringLiteral("Arial") };
        for (const QString& f : fallbacks) {
            if (!families.contains(f))
                families.append(f);
        }
        out += QStringView(text).mid(from, m.capturedStart() - from);
        out += QStringLiteral("font-family=\"'") + families.join(QStringLiteral("', '")) + QStringLiteral("', ")
            + (mono ? QStringLiteral("monospace") : QStringLiteral("sans-serif")) + QLatin1Char('"');
        from = m.capturedEnd();
    }
    out += QStringView(text).mid(from);
    return out.toUtf8();
}

} // namespace

QByteArray encode(QWidget* widget, Format format, double scale)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    switch (format) {
    case Png:
        bytes = PngEncoder::encode(image(widget, scale));
        break;
    case Svg: {
        QSvgGenerator svg;
        svg.setOutputDevice(&buffer);
        svg.setSize(widget->size());
        svg.setViewBox(QRect(QPoint(), widget->size()));
        svg.setTitle(widget->windowTitle().isEmpty() ? QStringLiteral("RankScope") : widget->windowTitle());
        {
            QPainter painter(&svg);
            renderInto(widget, painter);
        }
        buffer.close();
        bytes = withFontFallbacks(bytes);
        break;
    }
    case Pdf: {
        // One page the size of the widget, at 96 dpi, so one widget pixel is 0.75 pt.
        QPdfWriter pdf(&buffer);
        pdf.setCreator(QStringLiteral("RankScope"));
        pdf.setResolution(96);
        pdf.setPageSize(QPageSize(QSizeF(widget->size()) * 0.75, QPageSize::Point));
        pdf.setPageMargins(QMarginsF());
        QPainter painter(&pdf);
        renderInto(widget, painter);
        break;
    }
    case Unknown:
        break;
    }
    return bytes;
}

QString save(QWidget* widget, const QString& path, double scale)
{
    const Format format = formatOf(path);
    if (format == Unknown)
        return QCoreApplication::translate("ImageExport", "%1: unknown image format; use .png, .svg or .pdf").arg(path);
    return DataExport::write(path, encode(widget, format, scale));
}

void addImageActions(QMenu* menu, QWidget* target)
{
    menu->addAction(QCoreApplication::translate("ImageExport", "Copy Image"), target,
        [target] { QApplication::clipboard()->setImage(image(target, 2.0)); });
    menu->addAction(QCoreApplication::translate("ImageExport", "Export Image…"), target, [target] {
        // The dialog asks before replacing a file.
        const QString path = QFileDialog::getSaveFileName(target,
            QCoreApplication::translate("ImageExport", "Export Image"), QString(),
            QCoreApplication::translate("ImageExport", "PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)"));
        if (path.isEmpty())
            return;
        if (const QString error = save(target, path, 2.0); !error.isEmpty())
            QMessageBox::warning(target, QCoreApplication::translate("ImageExport", "Export Image"), error);
    });
}

void addImageMenu(QWidget* source, QWidget* target)
{
    source->setContextMenuPolicy(Qt::CustomContextMenu);
    QObject::connect(source, &QWidget::customContextMenuRequested, target, [source, target](const QPoint& pos) {
        QMenu menu(target);
        addImageActions(&menu, target);
        menu.exec(source->mapToGlobal(pos));
    });
}

} // namespace RankScope::ImageExport
