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
