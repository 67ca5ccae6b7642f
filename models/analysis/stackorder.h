// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace RankScope {

/// Whose a frame is, best first: the order every view shows a stack in.
enum class FrameKind : uint8_t
{
    /// The user's own code: what `--my-code` keeps (SiteTable::isLibraryFrame is false).
    Yours,
    /// The installed package the stack's entry script is in (torchtitan run as `python -m torchtitan.train`): the
    /// training code when it is a framework. Never from kindOf, only from markEntry.
    Entry,
    /// An installed package that is not torch, its kin or Python's own machinery: torchtitan, Megatron, NeMo,
    /// transformers, the user's own package installed into site-packages.
    Package,
    /// torch and its kin (torchvision, torchaudio, triton, functorch …), the standard library, what runs a script or
    /// a notebook (IPython, ipykernel, tornado, a debugger) and code torch.compile generated.
    Torch,
    /// C, C++, CUDA and assembly: CPython's own frames, the dispatcher, the allocator.
    Native,
};

/// The one order in which stack panes, tooltips, trees, the flame graph, site labels and reports show a stack: the
/// user's frames first, then the entry script's package's, other installed packages', torch's, each kind innermost
/// first; native frames last, folded into one line while any Python frame is shown. Recorded stacks stay as they are
/// (JSON, "All frames").
namespace StackOrder {

/// A frame's kind by its file and whether it has a line (never Entry, which only markEntry gives).
FrameKind kindOf(std::string_view file, int64_t line);
/// The package a file of site-packages or dist-packages is in ("torchtitan"; "six" for six.py), else empty.
std::string_view packageOf(std::string_view file);
/// Marks the Package frames of a stack (innermost first) that are in the package its entry script is in, the one of
/// its outermost `<module>` frame, as Entry.
void markEntry(
    std::span<FrameKind> kinds, std::span<const std::string_view> files, std::span<const std::string_view> names);
/// The frames of a stack of these kinds (innermost first, as recorded) as positions into it, in the order views show
/// them; with `callerFirst`, each kind's frames outermost first instead, as top-down trees walk them.
std::vector<uint32_t> shown(std::span<const FrameKind> kinds, bool callerFirst = false);
/// How many frames of the shown order lead the native run, which views fold into one line when this is not zero.
size_t pythonCount(std::span<const FrameKind> kinds);

} // namespace StackOrder
} // namespace RankScope
