// SPDX-License-Identifier: MIT
#include "viewwindow.h"

#include "imageexport.h"
#include "retranslator.h"

#include <QMenu>
#include <QMenuBar>
#include <QStatusBar>

namespace RankScope {

ViewWindow::ViewWindow(QWidget* view, QWidget* parent)
    : QMainWindow(parent)
    , m_view(view)
{
    setAttribute(Qt::WA_DeleteOnClose);
    setCentralWidget(view);
    resize(1200, 800);
    QMenu* file = menuBar()->addMenu(QString());
    // Made again in a new language, with the rest of the window.
    (new Retranslator(this))->add([this, file, view] {
        file->clear();
        file->setTitle(tr("&File"));
        ImageExport::addImageActions(file, view);
        file->addSeparator();
        file->addAction(tr("&Close"), QKeySequence::Close, this, &QWidget::close);
    });
}

void ViewWindow::showStatus(const QString& message)
{
    statusBar()->showMessage(message);
}

} // namespace RankScope
