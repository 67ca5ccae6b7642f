// SPDX-License-Identifier: MIT
#include "stackorder.h"

#include "sitetable.h"

#include <algorithm>
#include <array>

namespace RankScope {

namespace {

// Installed packages that are torch, its kin or what runs the user's script rather than part of the training code:
// after them, a framework's own frames (torchtitan, Megatron, NeMo) are the closest to the user's.
constexpr std::array<std::string_view, 21> kinPackages = { "torch", "functorch", "torchgen", "triton", "torchvision",
    "torchaudio", "torchtext", "torchdata", "torchao", "IPython", "ipykernel", "ipykernel_launcher", "tornado",
    "traitlets", "jupyter_client", "jupyter_core", "zmq", "debugpy", "pydevd", "_pydevd_bundle", "_pydev_bundle" };

} // namespace

std::string_view StackOrder::packageOf(std::string_view file)
{
    for (std::string_view marker : { "site-packages", "dist-packages" }) {
        const size_t at = file.rfind(marker);
        if (at == std::string_view::npos || at + marker.size() >= file.size())
            continue;
        std::string_view rest = file.substr(at + marker.size() + 1);
        rest = rest.substr(0, rest.find_first_of("/\\"));
        return rest.ends_with(".py") ? rest.substr(0, rest.size() - 3) : rest;
    }
    return {};
}

void StackOrder::markEntry(
    std::span<FrameKind> kinds, std::span<const std::string_view> files, std::span<const std::string_view> names)
{
    std::string_view entry;
    for (size_t i = kinds.size(); i-- > 0;) {
        if (names[i] == "<module>" && (kinds[i] == FrameKind::Yours || kinds[i] == FrameKind::Package)) {
            if (kinds[i] == FrameKind::Package)
                entry = packageOf(files[i]);
            break;
        }
    }
    if (entry.empty())
        return;
    for (size_t i = 0; i < kinds.size(); ++i) {
        if (kinds[i] == FrameKind::Package && packageOf(files[i]) == entry)
            kinds[i] = FrameKind::Entry;
    }
}

FrameKind StackOrder::kindOf(std::string_view file, int64_t line)
{
    if (!SiteTable::isLibraryFrame({}, file, line))
        return FrameKind::Yours;
    // Python frames carry a path or a pseudo-file ("<frozen runpy>") and a line; C and C++ frames a bare file name or
    // none and line 0, or with debug info a C source with its line.
    const bool python = line > 0 && (file.find_first_of("/\\") != std::string_view::npos || file.starts_with('<'))
        && !SiteTable::isNativeSource(file);
    if (!python)
        return FrameKind::Native;
    const std::string_view package = packageOf(file);
    return package.empty() || std::find(kinPackages.begin(), kinPackages.end(), package) != kinPackages.end()
        ? FrameKind::Torch
        : FrameKind::Package;
}

bool StackOrder::isUnsymbolised(std::string_view file, int64_t line)
{
    return line == 0 && (file.empty() || file == "??");
}

bool StackOrder::countsAsOwn(FrameKind kind, std::string_view file, std::span<const std::string> packages)
{
    if (kind != FrameKind::Package && kind != FrameKind::Entry)
        return false;
    const std::string_view package = packageOf(file);
    return !package.empty() && std::find(packages.begin(), packages.end(), package) != packages.end();
}

void StackOrder::markOwn(
    std::span<FrameKind> kinds, std::span<const std::string_view> files, std::span<const std::string> packages)
{
    for (size_t i = 0; i < kinds.size() && i < files.size(); ++i) {
        if (countsAsOwn(kinds[i], files[i], packages))
            kinds[i] = FrameKind::Yours;
    }
}

bool StackOrder::isOthers(FrameKind kind)
{
    return kind != FrameKind::Yours && kind != FrameKind::Entry;
}

size_t StackOrder::readingStart(std::span<const FrameKind> kinds)
{
    for (FrameKind kind : { FrameKind::Yours, FrameKind::Entry, FrameKind::Package, FrameKind::Torch }) {
        if (const auto it = std::find(kinds.begin(), kinds.end(), kind); it != kinds.end())
            return size_t(it - kinds.begin());
    }
    return 0;
}

std::vector<StackOrder::Run> StackOrder::foldedRuns(
    std::span<const FrameKind> kinds, const std::vector<bool>& unsymbolised)
{
    const bool python = pythonCount(kinds) > 0;
    std::vector<Run> runs;
    for (uint32_t i = 0; i < kinds.size(); ++i) {
        const bool folds = python ? kinds[i] == FrameKind::Native : (i < unsymbolised.size() && unsymbolised[i]);
        if (!folds)
            continue;
        if (!runs.empty() && runs.back().first + runs.back().count == i)
            ++runs.back().count;
        else
            runs.push_back({ i, 1 });
    }
    return runs;
}

StackOrder::TreePath StackOrder::treePath(std::span<const FrameKind> kinds, const std::vector<bool>& unsymbolised)
{
    const auto symbolised = [&](uint32_t i) { return i >= unsymbolised.size() || !unsymbolised[i]; };
    TreePath path;
    const auto python = std::find_if(kinds.begin(), kinds.end(), [](FrameKind k) { return k != FrameKind::Native; });
    if (python == kinds.end()) {
        for (uint32_t i = 0; i < kinds.size(); ++i) {
            if (symbolised(i))
                path.frames.push_back(i);
        }
        // Nothing symbolised: the frames as they are, rather than a site with no place in the tree.
        if (path.frames.empty()) {
            for (uint32_t i = 0; i < kinds.size(); ++i)
                path.frames.push_back(i);
        }
        return path;
    }
    const auto innermost = uint32_t(python - kinds.begin());
    for (uint32_t i = 0; i < innermost; ++i) {
        if (symbolised(i))
            path.frames.push_back(i);
    }
    path.native = path.frames.size();
    for (uint32_t i = innermost; i < kinds.size(); ++i) {
        if (kinds[i] != FrameKind::Native)
            path.frames.push_back(i);
    }
    return path;
}

std::vector<uint32_t> StackOrder::shown(std::span<const FrameKind> kinds, bool callerFirst)
{
    std::vector<uint32_t> order(kinds.size());
    size_t next = 0;
    for (FrameKind kind :
        { FrameKind::Yours, FrameKind::Entry, FrameKind::Package, FrameKind::Torch, FrameKind::Native }) {
        const size_t first = next;
        for (uint32_t i = 0; i < kinds.size(); ++i) {
            if (kinds[i] == kind)
                order[next++] = i;
        }
        if (callerFirst)
            std::reverse(order.begin() + ptrdiff_t(first), order.begin() + ptrdiff_t(next));
    }
    return order;
}

size_t StackOrder::pythonCount(std::span<const FrameKind> kinds)
{
    return size_t(std::count_if(kinds.begin(), kinds.end(), [](FrameKind k) { return k != FrameKind::Native; }));
}

} // namespace RankScope
