// SPDX-License-Identifier: MIT
#pragma once

#include "snapshot.h"
#include "stackorder.h"

#include <deque>
#include <memory>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

namespace RankScope {

using SiteId = uint32_t;

/// How allocation stacks become site keys.
struct SiteOptions
{
    /// Keep only frames of the user's own code: not under site-packages, dist-packages, torch/ or the Python
    /// standard library, and not C++ frames. Where a rank has no frame of its own (its training code is an installed
    /// framework: torchtitan, Megatron, NeMo under site-packages), the framework's frames count as its own
    /// (ownPackages); a stack left with no frame keeps all of them rather than becoming "<no stack recorded>".
    bool myCodeOnly = false;
    /// Keep at most this many frames (innermost first); 0 keeps all.
    int depth = 0;
    /// With myCodeOnly: installed packages (top-level names, "torchtitan") whose frames count as the user's too;
    /// empty: the framework the files run, where they have no frame of the user's own.
    std::vector<std::string> myCodePackages;

    bool operator==(const SiteOptions&) const = default;
};

/// Where an allocation was made, as a key that is the same on every rank for the same code: the stack after the
/// official viewer's frame filter (and optionally the "my code" filter and a depth limit), compared by file, line
/// and function text, never by address. Files are compared where they sit in the code, not where a rank's copy of it
/// lives (another checkout, a container, another virtualenv, Windows next to Linux); addresses inside function names
/// are ignored. Labels keep the frames' real text. Stacks of every rank are mapped into one table, so sites are plain
/// ids.
class SiteTable
{
public:
    explicit SiteTable(SiteOptions options = {});
    // Frames point into m_strings, which a move keeps in place and a copy would not.
    SiteTable(const SiteTable&) = delete;
    SiteTable& operator=(const SiteTable&) = delete;
    SiteTable(SiteTable&&) noexcept;
    SiteTable& operator=(SiteTable&&) noexcept;
    ~SiteTable();

    /// The site of a stack of `snapshot`. Cached per (snapshot, stack): each distinct stack is filtered once.
    SiteId site(const Snapshot& snapshot, StackId stack);

    struct SiteFrame
    {
        const std::string* filename;
        const std::string* name;
        int64_t line;
        /// How the frame enters the site key: fileKey() and the name without addresses.
        const std::string* fileKey;
        const std::string* nameKey;
        FrameKind kind;
    };
    /// The kept frames of a site, innermost first as recorded. Site 0 is the empty stack.
    const std::vector<SiteFrame>& frames(SiteId site) const
    {
        return m_sites[site];
    }
    size_t size() const
    {
        return m_sites.size();
    }
    /// A hash of the site's kept frames, equal for equal frames in any table: views colour sites by it, so the same
    /// code gets the same colour on every rank and in every view.
    uint64_t fingerprint(SiteId site) const
    {
        return m_fingerprints[site];
    }
    /// The site's frames as positions into frames(site), in the order views show them (StackOrder::shown).
    std::vector<uint32_t> shown(SiteId site, bool callerFirst = false) const;
    /// How many of them lead the native run that views fold into one line (StackOrder::pythonCount).
    size_t pythonFrames(SiteId site) const;
    /// The frames a call tree walks through the site's stack (StackOrder::treePath of its frames' kinds).
    StackOrder::TreePath treePath(SiteId site) const;
    /// "file:line name ← file:line name": the one-line label every view and report uses for a site, over its first
    /// `count` frames of the best kind it has (the user's, else a package's, else torch's; a stack without Python
    /// frames by one frame, its autograd node or operator rather than the allocator), file names shortened to their
    /// last component. Never the same for two named sites (nameSites): where two would be, each adds the frames where
    /// their stacks part (" ← … ← file:line name" for a caller, " via file:line name" for a frame inside), and a file's
    /// path where its name alone is the same.
    std::string label(SiteId site, int count = 2) const;
    /// The label of a site without a stack (site 0).
    static constexpr std::string_view NoStackLabel = "<no stack recorded>";
    /// The sites whose labels are told apart (by SiteId; all of them until this is called): what a comparison speaks
    /// of. Another site's label is told apart from theirs alone.
    void nameSites(std::vector<bool> named);

    /// A stack's site as views show it: the fingerprint they colour by and, when asked for, its label.
    struct StackSite
    {
        uint64_t fingerprint = 0;
        std::string label;
    };
    /// The sites of `stacks` of one snapshot, in their order, keyed as a comparison with `options` keys them: what a
    /// view needs to colour and name allocations that are not among a comparison's findings.
    static std::vector<StackSite> sitesOf(
        const Snapshot& snapshot, std::span<const StackId> stacks, const SiteOptions& options, bool withLabels);

    /// The official viewer's frameFilter: true for frames it hides (unwinder, interpreter and dispatcher plumbing).
    static bool isViewerNoise(std::string_view name, std::string_view filename);
    /// True for frames outside the user's own code: C and C++ (CPython's own sources included), installed packages,
    /// the standard library, code torch.compile generated.
    static bool isLibraryFrame(std::string_view name, std::string_view filename, int64_t line);
    /// A C, C++, CUDA or assembly source file, by its extension.
    static bool isNativeSource(std::string_view filename);
    /// Code torch.compile generated (Inductor's cache of hashed file names).
    static bool isCompiledCode(std::string_view filename);

    /// The installed packages whose frames `--my-code` counts as a rank's own: `options.myCodePackages` when given;
    /// else, when no frame of `snapshot` is the user's own, the package its entry script is in (the one of its
    /// module-level frames: `python -m torchtitan.train`), else every installed package it runs but torch and its kin
    /// (StackOrder's Package frames); else none.
    static std::vector<std::string> ownPackages(const Snapshot& snapshot, const SiteOptions& options);
    /// ownPackages of a snapshot this table mapped stacks of (empty for one it did not): with the sites' frame kinds,
    /// the one notion of the user's own frame every output marks (StackText::stackFrames).
    const std::vector<std::string>& ownPackagesOf(const Snapshot& snapshot) const;
    /// The packages counted as the user's code for want of any frame of theirs (ownPackages without
    /// `myCodePackages`), over every rank mapped so far: what an answer says it counted.
    const std::vector<std::string>& frameworksCounted() const
    {
        return m_frameworks;
    }

    /// The directory a rank's own code lives in, as site keys see it: the common directory of its entry script's
    /// module-level frames (else of all its own files), normalised.
    static std::string codeRoot(const Snapshot& snapshot);
    /// How a frame's file enters a site key: installed packages and the standard library by their path inside the
    /// package or library folder, the user's code relative to where it meets `root`, Windows paths in lower case.
    static std::string fileKey(std::string_view file, std::string_view root);

private:
    const std::string* intern(std::string_view text);
    FrameKind kindOf(const std::string* file, int64_t line);
    std::vector<uint32_t> walk(SiteId site) const;
    /// Labels `candidates` (sites whose labels begin with the same frame) over `count` frames, each told apart from
    /// the others, into the cache (only `wanted`'s unless `all`); returns the label of `wanted`.
    std::string labelGroup(const std::vector<SiteId>& candidates, int count, SiteId wanted, bool all) const;
    bool named(SiteId site) const
    {
        return m_named.empty() || (site < m_named.size() && m_named[site]);
    }

    SiteOptions m_options;
    std::deque<std::string> m_strings;
    std::unordered_map<std::string_view, const std::string*> m_stringIndex;
    std::vector<std::vector<SiteFrame>> m_sites;
    std::vector<uint64_t> m_fingerprints;
    std::unordered_map<std::string, SiteId> m_siteIndex;
    /// Sites by the short text of the first frame their label shows: the only ones whose labels can meet.
    std::unordered_map<std::string, std::vector<SiteId>> m_byFirstFrame;
    /// Kinds by file (and whether the line is known), since thousands of frames share a few hundred files.
    std::unordered_map<const std::string*, std::pair<int8_t, int8_t>> m_kinds;
    /// Labels made so far (by count and site), for the table as it was: label() is called from any thread.
    std::vector<bool> m_named;
    struct LabelCache;
    std::unique_ptr<LabelCache> m_labels;
    /// What keeping a frame takes, worked out once per frame text and rank code layout (root and own packages): a
    /// snapshot's stacks share their frames, and every rank runs the same code. Filtering the same frames again, stack
    /// after stack and rank after rank, took a twentieth of a digest job's CPU time, all of it on the thread that
    /// joins the ranks.
    struct SeenFrame
    {
        bool noise = false; ///< isViewerNoise(): never kept
        bool library = false; ///< isLibraryFrame()
        bool counted = false; ///< a library frame `--my-code` counts as the user's own (ownPackages)
        SiteFrame frame {}; ///< its kind as kindOf() gives it, before `--my-code` makes a counted one Yours
        std::string keyPart; ///< what the frame adds to the site key
    };
    struct PerSnapshot
    {
        std::vector<SiteId> sites; ///< StackId → SiteId + 1 (0 = not yet computed)
        std::vector<const SeenFrame*> frames; ///< by FrameId, filled as stacks are filtered
        std::string root; ///< codeRoot()
        std::vector<std::string> ownPackages; ///< ownPackages()
        const std::string* layout = nullptr; ///< root and own packages, interned: ranks alike share their frames
    };
    struct SeenKey
    {
        const std::string* layout;
        const std::string* file;
        const std::string* name;
        int64_t line;
        bool operator==(const SeenKey&) const = default;
    };
    struct SeenKeyHash
    {
        size_t operator()(const SeenKey& k) const
        {
            return size_t((uint64_t(uintptr_t(k.layout)) * 0x9e3779b97f4a7c15ull)
                ^ (uint64_t(uintptr_t(k.file)) * 0xc2b2ae3d27d4eb4full)
                ^ (uint64_t(uintptr_t(k.name)) * 0xbf58476d1ce4e5b9ull) ^ uint64_t(k.line));
        }
    };
    /// The frame as filtered for `per`'s layout, worked out the first time it is asked for.
    const SeenFrame& filtered(const PerSnapshot& per, std::string_view file, int64_t line, std::string_view name);
    std::unordered_map<SeenKey, SeenFrame, SeenKeyHash> m_seen; ///< nodes stay put: PerSnapshot::frames points in
    std::vector<std::string> m_frameworks;
    std::unordered_map<const Snapshot*, PerSnapshot> m_perSnapshot;
};

} // namespace RankScope
