// SPDX-License-Identifier: MIT
#include "excesstree.h"

#include <algorithm>

namespace RankScope {

namespace {

void finish(ExcessNode& node)
{
    std::sort(node.children.begin(), node.children.end(),
        [](const ExcessNode& a, const ExcessNode& b) { return a.inclusiveBytes > b.inclusiveBytes; });
    for (size_t i = 0; i < node.children.size(); ++i) {
        ExcessNode& child = node.children[i];
        child.row = int(i);
        child.parent = &node;
        finish(child);
    }
}

ExcessNode& childFor(ExcessNode& node, const SiteTable::SiteFrame& frame)
{
    for (ExcessNode& child : node.children) {
        if (child.line == frame.line && child.name == *frame.name && child.file == *frame.filename)
            return child;
    }
    ExcessNode& child = node.children.emplace_back();
    child.name = *frame.name;
    child.file = *frame.filename;
    child.line = frame.line;
    return child;
}

} // namespace

namespace {

// Adds `bytes` held at `site` along its frames.
void addSite(ExcessNode& root, const SiteTable& sites, SiteId site, int64_t bytes, ExcessTree::Direction direction)
{
    root.inclusiveBytes += bytes;
    ++root.sites;
    const std::vector<SiteTable::SiteFrame>& frames = sites.frames(site);
    if (frames.empty()) {
        root.selfBytes += bytes; // no stack recorded: held by the rank, from nowhere in particular
        return;
    }
    // Site frames are innermost first: top-down walks them from the end.
    ExcessNode* node = &root;
    for (size_t i = 0; i < frames.size(); ++i) {
        const SiteTable::SiteFrame& frame =
            direction == ExcessTree::TopDown ? frames[frames.size() - 1 - i] : frames[i];
        node = &childFor(*node, frame);
        node->inclusiveBytes += bytes;
        ++node->sites;
    }
    // The allocating frame is the last one top-down and the first one bottom-up.
    ExcessNode& allocating = direction == ExcessTree::TopDown ? *node : childFor(root, frames.front());
    allocating.selfBytes += bytes;
}

} // namespace

std::shared_ptr<const ExcessNode> ExcessTree::build(const Comparison& c, int rank, Direction direction, Scope scope)
{
    auto root = std::make_shared<ExcessNode>();
    if (scope == Everything) {
        const int index = c.rankIndex(rank);
        for (SiteId s = 0; index >= 0 && s < c.sites().size(); ++s) {
            if (const int64_t bytes = c.siteTotal(s, size_t(index)).first; bytes > 0)
                addSite(*root, c.sites(), s, bytes, direction);
        }
    } else {
        for (const Finding& f : c.findings()) {
            if (f.rank == rank)
                addSite(*root, c.sites(), f.site, f.excessBytes, direction);
        }
    }
    finish(*root);
    return root;
}

ExcessTree::Scope ExcessTree::defaultScope(const Comparison& c, int rank)
{
    return std::any_of(c.findings().begin(), c.findings().end(), [rank](const Finding& f) { return f.rank == rank; })
        ? Excess
        : Everything;
}

} // namespace RankScope
