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

void finish()
{
    for (QThreadPool* pool : { jobPool(), partPool(), QThreadPool::globalInstance() })
        pool->waitForDone();
}

QList<qsizetype> indices(qsizetype count)
{
    QList<qsizetype> all;
    all.reserve(count);
    for (qsizetype i = 0; i < count; ++i)
        all.append(i);
    return all;
}

} // namespace RankScope::Parallel
