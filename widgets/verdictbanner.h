// SPDX-License-Identifier: MIT
#pragma once

#include "comparison.h"

#include <QFrame>

#include <optional>

class QLabel;

namespace RankScope {

/// The answer on first paint: the verdict's kind and rank in bold on a coloured bar, then its explanation and the
/// usual remedy, in the current language (re-worded when it changes). Hidden until a comparison exists.
class VerdictBanner : public QFrame
{
    Q_OBJECT
public:
    explicit VerdictBanner(QWidget* parent = nullptr);
    void setVerdict(const Verdict& verdict);
    /// Shown while the comparison runs, so a stale verdict never stays up.
    void setPending(const QString& message);
    QString text() const;

protected:
    void changeEvent(QEvent* event) override;

private:
    void showVerdict();

    std::optional<Verdict> m_verdict;
    QWidget* m_strip = nullptr;
    QLabel* m_title = nullptr;
    QLabel* m_body = nullptr;
};

} // namespace RankScope
