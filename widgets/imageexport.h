// SPDX-License-Identifier: MIT
#pragma once

#include <QImage>
#include <QString>

class QMenu;
class QWidget;

namespace RankScope {

/// Renders widgets to files as they look on screen: PNG at a chosen scale (2× by default, for sharp text), SVG and
/// PDF as vectors (plots included, see ExportablePlot). Files are written by DataExport::write, atomically.
namespace ImageExport {

enum Format
{
    Png,
    Svg,
    Pdf,
    Unknown,
};
/// By the file name's suffix (case-insensitive).
Format formatOf(const QString& path);
/// The widget at its current size, `scale` image pixels per widget pixel.
QImage image(QWidget* widget, double scale = 2.0);
/// The file's bytes: PNG, SVG or PDF of the widget.
QByteArray encode(QWidget* widget, Format format, double scale = 2.0);
/// Writes the widget to `path` in the format its suffix names. Returns an empty string on success, otherwise a
/// message naming the file and what went wrong.
QString save(QWidget* widget, const QString& path, double scale = 2.0);

/// Adds "Copy Image" and "Export Image…" for `target` to a context menu: the shared way every view exports itself.
void addImageActions(QMenu* menu, QWidget* target);
/// Gives `source` a context menu with those two actions for `target` (often its parent view).
void addImageMenu(QWidget* source, QWidget* target);

} // namespace ImageExport
} // namespace RankScope
