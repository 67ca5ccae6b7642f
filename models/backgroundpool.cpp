// SPDX-License-Identifier: MIT
#include "backgroundpool.h"

#include <QThreadPool>

namespace RankScope {

QThreadPool* backgroundPool()
{
    static QThreadPool pool;
    return &pool;
}

} // namespace RankScope
