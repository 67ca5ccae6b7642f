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
        if (!child.native && !child.noStack && child.line == frame.line && child.name == *frame.name
            && child.file == *frame.filename)
            return child;
    }
    ExcessNode& child = node.children.emplace_back();
    child.name = *frame.name;
    child.file = *frame.filename;
    child.line = frame.line;
    child.kind = frame.kind;
    return child;
}

ExcessNode& markedChild(ExcessNode& node, bool ExcessNode::*mark)
{
    for (ExcessNode& child : node.children) {
        if (child.*mark)
            return child;
    }
    ExcessNode& child = node.children.emplace_back();
    child.*mark = true;
    return child;
}

void add(ExcessNode& node, int64_t bytes)
{
    node.inclusiveBytes += bytes;
    ++node.sites;
}

// Adds `bytes` held at `site` along its frames in the order they were called (StackOrder::treePath).
void addSite(ExcessNode& root, const SiteTable& sites, SiteId site, int64_t bytes, ExcessTree::Direction direction)
{
    add(root, bytes);
    const std::vector<SiteTable::SiteFrame>& frames = sites.frames(site);
    if (frames.empty()) {
        ExcessNode& none = markedChild(root, &ExcessNode::noStack);
        add(none, bytes);
        none.selfBytes += bytes;
        return;
    }
    const StackOrder::TreePath path = sites.treePath(site);
    ExcessNode* node = &root;
    const auto step = [&](uint32_t frame) {
        node = &childFor(*node, frames[frame]);
        add(*node, bytes);
    };
    if (direction == ExcessTree::TopDown) {
        for (size_t i = path.frames.size(); i-- > path.native;)
            step(path.frames[i]);
        if (path.native > 0) {
            node = &markedChild(*node, &ExcessNode::native);
            add(*node, bytes);
            for (size_t i = path.native; i-- > 0;)
                step(path.frames[i]);
        }
        node->selfBytes += bytes; // held where the path ends: the allocator, or the innermost frame kept
        return;
    }
    ExcessNode* first = nullptr;
    for (size_t i = path.native; i < path.frames.size(); ++i) {
        step(path.frames[i]);
        first = first ? first : node;
    }
    (first ? first : &root)->selfBytes += bytes;
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
