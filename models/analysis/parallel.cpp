// SPDX-License-Identifier: MIT
#include "parallel.h"

#include <QThreadPool>

namespace RankScope::Parallel {

QThreadPool* jobPool()
{
    static QThreadPool pool;
    return &pool;
}

QThreadPool* partPool()
{
    static QThreadPool pool;
    return &pool;
}

} // namespace RankScope::Parallel
