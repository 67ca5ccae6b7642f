// SPDX-License-Identifier: MIT
#include "dataexport.h"

#include <QCoreApplication>
#include <QSaveFile>

namespace RankScope {

QString DataExport::write(const QString& path, const QByteArray& bytes)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return QCoreApplication::translate("DataExport", "%1: cannot be written: %2").arg(path, file.errorString());
    if (file.write(bytes) != bytes.size()) {
        const QString error = file.errorString();
        file.cancelWriting();
        return QCoreApplication::translate("DataExport", "%1: writing failed (is the disk full?): %2").arg(path, error);
    }
    if (!file.commit())
        return QCoreApplication::translate("DataExport", "%1: writing failed (is the disk full?): %2")
            .arg(path, file.errorString());
    return {};
}

} // namespace RankScope
