// SPDX-License-Identifier: MIT
#pragma once

#include "gate.h"

#include <QByteArray>

#include <string>
#include <utility>
#include <vector>

namespace RankScope {

/// `rankscope gate`'s answers, English and the same on every machine: the text (one screen: pass or fail, which
/// ranks, how much, where, when in the step; alike ranks on one line), JSON for scripts, JUnit XML for CI's test
/// results (a test case per rank and GPU and one for the job; a failure names what grew, where, with the figures)
/// and a Markdown summary for a pull request or a CI job's summary.
namespace GateReport {
std::string text(const GateResult& result);
std::string json(const GateResult& result);
QByteArray junit(const GateResult& result);
std::string markdown(const GateResult& result);
/// What one rank's failure says, the same in the text, JUnit and Markdown: "+1.5 GiB (6.2% of its peak) at 38%
/// of the step, beyond 480 MiB allowed".
std::string rankFigures(const GateResult& result, const GateResult::Rank& rank);

/// Alike ranks said once, as every answer and the window group them: ranks (and, where they are named, GPUs) whose
/// pass or fail, peaks, largest growth and moment read the same, in the order their first rank comes.
struct RankGroup
{
    std::vector<int> ranks;
    const GateResult::Rank* first = nullptr; ///< in the result: the group's figures
};
std::vector<RankGroup> rankGroups(const GateResult& result);
/// How many ranks the new job has (a rank driving several GPUs counted once).
size_t rankCount(const GateResult& result);
/// Whether answers must name GPUs: some rank drives several, or ranks differ in theirs.
bool namesDevices(const GateResult& result);
/// The new job's ranks with no rank of their own in a smaller baseline, weighed against rank R modulo its count.
std::vector<int> moduloRanks(const GateResult& result);
/// The ranks the gate could not weigh (GateResult::ungated), by rank.
std::vector<int> ungatedRanks(const GateResult& result);
/// GPUs weighed against a baseline GPU of another number (paired by their place among the rank's GPUs), as
/// (this job's, the baseline's), each pair once, in order.
std::vector<std::pair<int, int>> devicePairs(const GateResult& result);
} // namespace GateReport

} // namespace RankScope
