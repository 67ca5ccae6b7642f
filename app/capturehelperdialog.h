// SPDX-License-Identifier: MIT
#pragma once

#include <QDialog>

namespace RankScope {

/// Help → Capture Helper: how to use rankscope_capture.py (carried inside the binary), and a button that saves it.
class CaptureHelperDialog : public QDialog
{
    Q_OBJECT
public:
    explicit CaptureHelperDialog(QWidget* parent = nullptr);

signals:
    /// The helper was saved at `path`.
    void saved(const QString& path);

private:
    void save();
};

} // namespace RankScope
