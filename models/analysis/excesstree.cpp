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

std::shared_ptr<const ExcessNode> ExcessTree::build(const Comparison& c, int rank, Direction direction)
{
    auto root = std::make_shared<ExcessNode>();
    for (const Finding& f : c.findings()) {
        if (f.rank != rank)
            continue;
        root->inclusiveBytes += f.excessBytes;
        ++root->sites;
        const std::vector<SiteTable::SiteFrame>& frames = c.sites().frames(f.site);
        if (frames.empty()) {
            root->selfBytes += f.excessBytes; // no stack recorded: held by the rank, from nowhere in particular
            continue;
        }
        // Site frames are innermost first: top-down walks them from the end.
        ExcessNode* node = root.get();
        for (size_t i = 0; i < frames.size(); ++i) {
            const SiteTable::SiteFrame& frame = direction == TopDown ? frames[frames.size() - 1 - i] : frames[i];
            node = &childFor(*node, frame);
            node->inclusiveBytes += f.excessBytes;
            ++node->sites;
        }
        // The allocating frame is the last one top-down and the first one bottom-up.
        ExcessNode& allocating = direction == TopDown ? *node : childFor(*root, frames.front());
        allocating.selfBytes += f.excessBytes;
    }
    finish(*root);
    return root;
}

} // namespace RankScope
