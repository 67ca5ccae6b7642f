// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace RankScope {

/// Whose a frame is, best first: where reading a stack starts.
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

/// How every view reads a stack: in the order it was called, never reordered. Stack panes, tooltips and reports show
/// it innermost first as recorded, trees and the flame graph outermost first; "your code first" is where reading
/// starts (readingStart: the frame marked and scrolled to), with the frames of others around it dimmed and native runs
/// folded into one line each (foldedRuns), never moved. Recorded stacks stay as they are (JSON, "All frames").
namespace StackOrder {

/// A frame's kind by its file and whether it has a line (never Entry, which only markEntry gives).
FrameKind kindOf(std::string_view file, int64_t line);
/// A native frame no symbol file explained: no source ("??" or nothing) and no line. Its name is often another
/// function's (`__xmknodat` in an autograd thread), so views fold it into its neighbour rather than show it.
bool isUnsymbolised(std::string_view file, int64_t line);
/// The package a file of site-packages or dist-packages is in ("torchtitan"; "six" for six.py), else empty.
std::string_view packageOf(std::string_view file);
/// Marks the Package frames of a stack (innermost first) that are in the package its entry script is in, the one of
/// its outermost `<module>` frame, as Entry.
void markEntry(
    std::span<FrameKind> kinds, std::span<const std::string_view> files, std::span<const std::string_view> names);
/// Whether a frame of an installed package (Package or Entry) counts as the user's own code: its package is one of
/// `packages` (SiteTable::ownPackages: what `--my-code` counts as theirs).
bool countsAsOwn(FrameKind kind, std::string_view file, std::span<const std::string> packages);
/// Marks the frames of a stack that count as the user's own (countsAsOwn) Yours, as site keys mark them.
void markOwn(
    std::span<FrameKind> kinds, std::span<const std::string_view> files, std::span<const std::string> packages);
/// Whether views dim a frame of this kind: not the user's code nor the framework it runs as (Entry).
bool isOthers(FrameKind kind);
/// Where reading a stack (innermost first) starts: its innermost frame of the best kind it has (the user's, else the
/// entry script's package's, another package's, torch's); its first frame when it has only native frames; 0 when it
/// is empty.
size_t readingStart(std::span<const FrameKind> kinds);

/// A run of frames [first, first + count) of a stack, innermost first, that views fold into one line.
struct Run
{
    uint32_t first = 0;
    uint32_t count = 0;
    bool operator==(const Run&) const = default;
};
/// The runs a view folds, innermost first: each run of native frames (the allocator and dispatcher below the
/// innermost Python frame, CPython's C frames between Python frames) when the stack has a Python frame; in a stack of
/// native frames alone, each run of unsymbolised frames.
std::vector<Run> foldedRuns(std::span<const FrameKind> kinds, const std::vector<bool>& unsymbolised);

/// The frames a call tree walks through a stack, innermost first and in the order called: first the native run the
/// innermost Python frame called (`native` frames, which trees show under one folded node), then the Python frames.
/// Native frames between Python frames (the interpreter running them) and above the outermost one (the process's
/// start) are left out, and so are unsymbolised frames, each folded into its neighbour; a stack without Python frames
/// is its symbolised frames, none of them a native run.
struct TreePath
{
    std::vector<uint32_t> frames;
    size_t native = 0;
};
TreePath treePath(std::span<const FrameKind> kinds, const std::vector<bool>& unsymbolised);

/// The order site labels pick frames in (SiteTable::label), not a stack shown: the user's frames first, then the entry
/// script's package's, other installed packages', torch's, each kind innermost first; native frames last. With
/// `callerFirst`, each kind's frames outermost first instead.
std::vector<uint32_t> shown(std::span<const FrameKind> kinds, bool callerFirst = false);
/// How many frames of the labels' order lead the native run.
size_t pythonCount(std::span<const FrameKind> kinds);

} // namespace StackOrder
} // namespace RankScope
