// SPDX-License-Identifier: MIT
#pragma once

#include <QCoreApplication>
#include <QString>

#include "comparison.h"

namespace RankScope {

/// The verdict in words, written from its figures. The window asks for the user's language whenever it shows a
/// verdict, so switching language re-words it; the CLI, JSON and reports always get English, whatever the
/// translator installed, so scripts and bug reports read the same everywhere.
class VerdictText
{
    Q_DECLARE_TR_FUNCTIONS(RankScope::VerdictText)
public:
    enum Language
    {
        English, ///< for the CLI and JSON: finding kinds by their JSON names, so scripts can match them
        Plain, ///< English words throughout, for reports people read
        Translated, ///< through the installed translators
    };
    /// One line: kind and rank ("Burden imbalance on rank 0: it does work the others do not").
    static QString title(const Verdict& verdict, Language language);
    /// How much more the outlier holds than its baseline, where, and its top sites.
    static QString explanation(const Verdict& verdict, Language language);
    /// A finding's kind: its JSON name in English ("only_on_rank"), a phrase otherwise ("only on this rank").
    static QString findingKind(Finding::Kind kind, Language language);
    /// A category in words (its JSON name in English).
    static QString category(Category category, Language language);
    /// Where the ranks were compared, for headers: "aligned moments (rank 3's peak)", "… (rank 3's OOM)", the point
    /// where each rank is at its own: as --at names it in English ("peak", "event:5588"), in words in a translation.
    /// `replicaGroups`: a layout split the ranks into several groups.
    static QString moment(const Verdict& verdict, bool replicaGroups, Language language);
    /// What to change in the training script; empty for a balanced job.
    static QString remedy(const Verdict& verdict, Language language);

    /// One remedy of an over-capacity verdict, with its figures.
    static QString remedyStep(const Verdict& verdict, const Verdict::Remedy& remedy, Language language);

private:
    static QString explain(const Verdict& verdict, Language language);
    static QString explainGroup(const Verdict& verdict, Language language);
};

} // namespace RankScope
