// SPDX-License-Identifier: MIT
#pragma once

#include "gate.h"

#include <QByteArray>

#include <string>

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
} // namespace GateReport

} // namespace RankScope
