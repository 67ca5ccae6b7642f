// SPDX-License-Identifier: MIT
#pragma once

#include "diffsheet.h"

#include <QDialog>

class QComboBox;
class QLineEdit;
class QSpinBox;

namespace RankScope {

/// Asks where and how to export the comparison as a picture: file (PNG, SVG or PDF by its suffix), which view,
/// size and, for PNG, scale. Asks before replacing an existing file.
class ExportDialog : public QDialog
{
    Q_OBJECT
public:
    explicit ExportDialog(QWidget* parent = nullptr);

    QString path() const;
    void setPath(const QString& path);
    DiffSheet::View view() const;
    QSize imageSize() const;
    double scale() const;

    void accept() override;

private:
    QLineEdit* m_path;
    QComboBox* m_view;
    QSpinBox* m_width;
    QSpinBox* m_height;
    QComboBox* m_scale;
};

} // namespace RankScope
