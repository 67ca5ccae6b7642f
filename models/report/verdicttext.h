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
    /// `withMargin`: with how close an out-of-memory came (margin()), which a view may show on a line of its own.
    static QString explanation(const Verdict& verdict, Language language, bool withMargin = true);
    /// A finding's kind: its JSON name in English ("only_on_rank"), a phrase otherwise ("only on this rank").
    static QString findingKind(Finding::Kind kind, Language language);
    /// A category in words (its JSON name in English).
    static QString category(Category category, Language language);
    /// A site's label (SiteTable::label): a stack that was not recorded said in `language`, any other as it is.
    static QString siteLabel(std::string_view label, Language language);
    /// Where the ranks were compared, for headers: "aligned moments (rank 3's peak)", "… (rank 3's OOM)", the point
    /// where each rank is at its own: as --at names it in English ("peak", "event:5588"), in words in a translation.
    /// `replicaGroups`: a layout split the ranks into several groups.
    static QString moment(const Verdict& verdict, bool replicaGroups, Language language);
    /// What to change in the training script; empty for a balanced job.
    static QString remedy(const Verdict& verdict, Language language);

    /// One remedy of an over-capacity verdict, with its figures.
    static QString remedyStep(const Verdict& verdict, const Verdict::Remedy& remedy, Language language);

    /// How close an out-of-memory came: "It was 166 MiB from fitting: …" with what was needed, offered, short and
    /// stranded in the reserve; empty without an OOM.
    static QString margin(const Verdict::Margin& margin, Language language);
    /// Why a rule did not decide, in one line with its figures ("fragmentation: 807 MiB free in the reserve, less
    /// than the 3.91 GiB request"); what it found where it applied but a rule above it decided.
    static QString consideration(const Verdict::Consideration& c, Language language);
    /// The same without the rule's name: the JSON's `why_not`.
    static QString whyNot(const Verdict::Consideration& c, Language language);
    /// The nearest runners-up, at most `count` ("Considered: …"): rules that applied but came later in the order,
    /// then those that came closest to applying; empty when none concerns the job.
    static QString considered(const Verdict& verdict, Language language, int count = 2);
    /// How sure the verdict is and why: "high: the excess is 25.3 times the threshold".
    static QString confidence(const Verdict& verdict, Language language);
    /// The confidence alone: "high", "medium" or "low".
    static QString confidenceLevel(const Verdict& verdict, Language language);
    /// A rule's kind in words (its JSON name in English).
    static QString kind(Verdict::Kind kind, Language language);

private:
    static QString remedyWords(const Verdict& verdict, const Verdict::Remedy& remedy, Language language);
    static QString explain(const Verdict& verdict, Language language);
    static QString explainGroup(const Verdict& verdict, Language language);
};

} // namespace RankScope
