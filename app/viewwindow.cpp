// SPDX-License-Identifier: MIT
#include "viewwindow.h"

#include "imageexport.h"
#include "retranslator.h"

#include <QMenu>
#include <QMenuBar>
#include <QScreen>
#include <QStatusBar>

namespace RankScope {

ViewWindow::ViewWindow(QWidget* view, QWidget* parent)
    : QMainWindow(parent)
    , m_view(view)
{
    setAttribute(Qt::WA_DeleteOnClose);
    setCentralWidget(view);
    // Within the screen: on a 1280×720 one a taller window hid its status line (the gate's pass or fail).
    resize(QSize(1200, 800).boundedTo(screen()->availableGeometry().size()));
    m_file = menuBar()->addMenu(QString());
    // Made again in a new language, with the rest of the window.
    (new Retranslator(this))->add([this] { refreshFileActions(); });
}

void ViewWindow::setFileActions(std::function<void(QMenu*)> add)
{
    m_fileActions = std::move(add);
    refreshFileActions();
}

void ViewWindow::refreshFileActions()
{
    m_file->clear();
    m_file->setTitle(tr("&File"));
    ImageExport::addImageActions(m_file, m_view);
    if (m_fileActions) {
        m_file->addSeparator();
        m_fileActions(m_file);
    }
    m_file->addSeparator();
    m_file->addAction(tr("&Close"), QKeySequence::Close, this, &QWidget::close);
}

void ViewWindow::showStatus(const QString& message)
{
    statusBar()->showMessage(message);
}

} // namespace RankScope
