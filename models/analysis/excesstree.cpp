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
        if (!child.native && child.line == frame.line && child.name == *frame.name && child.file == *frame.filename)
            return child;
    }
    ExcessNode& child = node.children.emplace_back();
    child.name = *frame.name;
    child.file = *frame.filename;
    child.line = frame.line;
    return child;
}

ExcessNode& nativeChild(ExcessNode& node)
{
    for (ExcessNode& child : node.children) {
        if (child.native)
            return child;
    }
    ExcessNode& child = node.children.emplace_back();
    child.native = true;
    return child;
}

// Adds `bytes` held at `site` along its frames, in the order every view shows a stack (StackOrder): the user's frames
// first, the native run folded under one node below the Python frames.
void addSite(ExcessNode& root, const SiteTable& sites, SiteId site, int64_t bytes, ExcessTree::Direction direction)
{
    root.inclusiveBytes += bytes;
    ++root.sites;
    const std::vector<SiteTable::SiteFrame>& frames = sites.frames(site);
    if (frames.empty()) {
        root.selfBytes += bytes; // no stack recorded: held by the rank, from nowhere in particular
        return;
    }
    const std::vector<uint32_t> order = sites.shown(site, direction == ExcessTree::TopDown);
    const size_t python = sites.pythonFrames(site);
    // Below the Python frames, the native ones the innermost Python frame called (the operator down to the
    // allocator), not the interpreter's frames between Python frames or the process's start.
    uint32_t innermostPython = UINT32_MAX;
    for (size_t i = 0; i < python; ++i)
        innermostPython = std::min(innermostPython, order[i]);
    ExcessNode* node = &root;
    ExcessNode* first = nullptr;
    bool folded = false;
    for (size_t i = 0; i < order.size(); ++i) {
        if (i >= python && python > 0 && order[i] > innermostPython)
            continue;
        if (i >= python && python > 0 && !folded) {
            folded = true;
            node = &nativeChild(*node);
            node->inclusiveBytes += bytes;
            ++node->sites;
        }
        node = &childFor(*node, frames[order[i]]);
        node->inclusiveBytes += bytes;
        ++node->sites;
        first = first ? first : node;
    }
    // Held at the path's end top-down, and at the first frame shown bottom-up.
    (direction == ExcessTree::TopDown ? node : first)->selfBytes += bytes;
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
