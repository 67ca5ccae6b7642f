// SPDX-License-Identifier: MIT
#include "sitetable.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <tuple>

namespace RankScope {

namespace {

// FNV-1a: stable across runs and platforms, unlike std::hash, so colours stay put between sessions.
uint64_t fnv1a(std::string_view text)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (unsigned char c : text)
        h = (h ^ c) * 0x100000001b3ull;
    return h;
}

constexpr std::array<std::string_view, 8> noiseNames = { "unwind::unwind", "CapturedTraceback::gather",
    "gather_with_cpp", "_start", "__libc_start_main", "PyEval_", "PyObject_", "PyFunction_" };
constexpr std::array<std::string_view, 10> noiseFiles = { "core/boxing", "/Register", "/Redispatch", "pythonrun.c",
    "Modules/main.c", "Objects/call.c", "Objects/methodobject.c", "pycore_ceval.h", "ceval.c", "cpython/abstract.h" };
constexpr std::array<std::string_view, 8> libraryPaths = { "site-packages", "dist-packages", "/torch/", "\\torch\\",
    "/lib/python", "\\lib\\", "\\Lib\\", "<frozen" };

bool containsAny(std::string_view text, const auto& needles)
{
    for (std::string_view n : needles) {
        if (text.find(n) != std::string_view::npos)
            return true;
    }
    return false;
}

std::string_view baseName(std::string_view path)
{
    const size_t slash = path.find_last_of("/\\");
    return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

// A C++ function as a label names it: its qualified name, with "<…>" for template arguments and without its
// parameters ("at::native::empty_like", not "at::native::empty_like(at::Tensor const&, std::optional<…>, …)", which
// ran past every column). Left whole where it does not parse as one (an operator<, unbalanced brackets).
std::string shortCppName(std::string_view name)
{
    if (name.find('(') == std::string_view::npos && name.find('<') == std::string_view::npos)
        return std::string(name);
    if (name.find("operator<") != std::string_view::npos || name.find("operator>") != std::string_view::npos
        || name.find("operator-") != std::string_view::npos)
        return std::string(name);
    std::string out;
    int angles = 0;
    for (size_t i = 0; i < name.size(); ++i) {
        const char c = name[i];
        if (c == '<') {
            if (angles++ == 0)
                out += "<\xe2\x80\xa6>"; // <…>
            continue;
        }
        if (c == '>') {
            if (--angles < 0)
                return std::string(name);
            continue;
        }
        if (angles > 0)
            continue;
        if (c == '(') {
            // "operator()" and "(anonymous namespace)" are part of the name; any other bracket opens the parameters.
            if (std::string_view(out).ends_with("operator") && name.substr(i).starts_with("()")) {
                out += "()";
                ++i;
                continue;
            }
            if (name.substr(i).starts_with("(anonymous namespace)")) {
                out += "(anonymous namespace)";
                i += std::string_view("(anonymous namespace)").size() - 1;
                continue;
            }
            return out;
        }
        out += c;
    }
    return angles == 0 ? out : std::string(name);
}

// A frame as labels show it: "model.py:39 forward", or with the path its site key knows it by
// ("vendored/cs336_basics/model.py:39 forward") where the file's name alone does not tell two sites apart; a C++
// function by its short name, or whole where the short name alone does not tell two apart.
std::string frameLabel(const SiteTable::SiteFrame& f, bool withPath)
{
    std::string name = f.kind == FrameKind::Native && !withPath ? shortCppName(*f.name) : *f.name;
    std::string_view file = withPath ? std::string_view(*f.fileKey) : baseName(*f.filename);
    for (std::string_view prefix : { "code:", "package:", "stdlib:" }) {
        if (withPath && file.starts_with(prefix))
            file.remove_prefix(prefix.size());
    }
    // A native frame without a source file is its function alone, not "??:0 at::empty_like(…)".
    if (f.line == 0 && (file.empty() || file == "??"))
        return name;
    std::string text = std::string(file) + ":" + std::to_string(f.line) + " " + name;
    // A hashed Inductor file name says nothing about which model code it was compiled from.
    if (SiteTable::isCompiledCode(*f.filename))
        text += " (compiled code)";
    return text;
}

// A path as the key compares it: '/' separators, and Windows paths (a drive letter or a backslash) in lower case,
// since Windows keeps whatever case was typed on the command line ("D:\" on one rank, "d:\" on another).
std::string normalisedPath(std::string_view path)
{
    const bool windows = path.find('\\') != std::string_view::npos
        || (path.size() > 1 && path[1] == ':' && std::isalpha(static_cast<unsigned char>(path[0])));
    std::string p(path);
    if (windows) {
        for (char& c : p)
            c = c == '\\' ? '/' : char(std::tolower(static_cast<unsigned char>(c)));
    }
    return p;
}

std::string_view directoryOf(std::string_view path)
{
    const size_t slash = path.rfind('/');
    return slash == std::string_view::npos ? std::string_view() : path.substr(0, slash + 1);
}

// The longest common directory of two directories (each ending in '/').
std::string_view commonDirectory(std::string_view a, std::string_view b)
{
    size_t n = 0;
    while (n < a.size() && n < b.size() && a[n] == b[n])
        ++n;
    return directoryOf(a.substr(0, n));
}

// An address inside a name ("<built-in method matmul of type object at 0x7f3a…>") differs in every process.
std::string withoutAddresses(std::string_view name)
{
    std::string out;
    size_t i = 0;
    while (i < name.size()) {
        const size_t at = name.find("0x", i);
        if (at == std::string_view::npos) {
            out.append(name.substr(i));
            break;
        }
        size_t end = at + 2;
        while (end < name.size() && std::isxdigit(static_cast<unsigned char>(name[end])))
            ++end;
        out.append(name.substr(i, at - i));
        out.append(end - at > 6 ? "0x?" : name.substr(at, end - at)); // short hex numbers are part of the name
        i = end;
    }
    return out;
}

// The frames of a Python traceback ("  File \"x.py\", line 54, in forward\n    code\n"), innermost first, as
// (file, line, function).
std::vector<std::tuple<std::string_view, int64_t, std::string_view>> tracebackFrames(std::string_view text)
{
    std::vector<std::tuple<std::string_view, int64_t, std::string_view>> frames;
    size_t at = 0;
    while ((at = text.find("File \"", at)) != std::string_view::npos) {
        const size_t fileStart = at + 6;
        const size_t fileEnd = text.find("\", line ", fileStart);
        const size_t lineEnd = fileEnd == std::string_view::npos ? fileEnd : text.find(", in ", fileEnd + 8);
        const size_t nameEnd = lineEnd == std::string_view::npos ? lineEnd : text.find_first_of("\r\n", lineEnd + 5);
        if (lineEnd == std::string_view::npos)
            break;
        int64_t line = 0;
        for (char c : text.substr(fileEnd + 8, lineEnd - fileEnd - 8))
            line = std::isdigit(static_cast<unsigned char>(c)) ? line * 10 + (c - '0') : line;
        frames.emplace_back(text.substr(fileStart, fileEnd - fileStart), line,
            text.substr(
                lineEnd + 5, nameEnd == std::string_view::npos ? std::string_view::npos : nameEnd - lineEnd - 5));
        at = lineEnd;
    }
    std::reverse(frames.begin(), frames.end());
    return frames;
}

} // namespace

struct SiteTable::LabelCache
{
    std::mutex mutex;
    size_t sites = 0; ///< the table's size the labels were made for
    std::unordered_map<uint64_t, std::string> labels;
};

SiteTable::SiteTable(SiteOptions options)
    : m_options(std::move(options))
    , m_labels(std::make_unique<LabelCache>())
{
    m_sites.emplace_back(); // site 0: no frames
    m_siteIndex.emplace(std::string(), 0);
    m_fingerprints.push_back(fnv1a({}));
}

SiteTable::SiteTable(SiteTable&&) noexcept = default;
SiteTable& SiteTable::operator=(SiteTable&&) noexcept = default;
SiteTable::~SiteTable() = default;

bool SiteTable::isViewerNoise(std::string_view name, std::string_view filename)
{
    // Plain substring tests, exactly as the viewer does (so '_start' also hides a user's train_start).
    return containsAny(name, noiseNames) || containsAny(filename, noiseFiles);
}

bool SiteTable::isLibraryFrame(std::string_view name, std::string_view filename, int64_t line)
{
    (void)name;
    // C++ frames carry a bare file name (or none) and line 0; Python frames an absolute path. With
    // stacks="all" on an interpreter built with debug info, CPython's own C frames carry a path and a line too
    // (Modules/_functoolsmodule.c:259): C and C++ sources are never the user's Python.
    const bool python =
        line > 0 && filename.find_first_of("/\\") != std::string_view::npos && !isNativeSource(filename);
    return !python || containsAny(filename, libraryPaths) || isCompiledCode(filename);
}

bool SiteTable::isNativeSource(std::string_view filename)
{
    const size_t dot = filename.rfind('.');
    if (dot == std::string_view::npos)
        return false;
    const std::string_view ext = filename.substr(dot + 1);
    // Assembly too: glibc's clone3.S carries a path and a line like a Python frame.
    return ext == "c" || ext == "h" || ext == "cc" || ext == "cpp" || ext == "cxx" || ext == "hpp" || ext == "cu"
        || ext == "cuh" || ext == "S" || ext == "s" || ext == "asm";
}

bool SiteTable::isCompiledCode(std::string_view filename)
{
    // torch.compile's generated wrappers and kernels: hashed file names under the Inductor cache.
    return filename.find("torchinductor") != std::string_view::npos;
}

const std::string* SiteTable::intern(std::string_view text)
{
    if (auto it = m_stringIndex.find(text); it != m_stringIndex.end())
        return it->second;
    const std::string* stored = &m_strings.emplace_back(text);
    m_stringIndex.emplace(std::string_view(*stored), stored);
    return stored;
}

std::string SiteTable::codeRoot(const Snapshot& snapshot)
{
    // Module-level frames of the user's own files are the entry script (and packages that allocate on import): their
    // common directory is where this rank's copy of the code lives. Without any, all the user's files decide.
    std::optional<std::string> modules;
    std::optional<std::string> files;
    for (size_t id = 0; id < snapshot.frames.size(); ++id) {
        const Frame& f = snapshot.frames.frame(FrameId(id));
        const std::string_view name = snapshot.strings.view(f.name);
        const std::string_view file = snapshot.strings.view(f.filename);
        if (isLibraryFrame(name, file, f.line))
            continue;
        const std::string dir(directoryOf(normalisedPath(file)));
        std::optional<std::string>& root = name == "<module>" ? modules : files;
        root = root ? std::string(commonDirectory(*root, dir)) : dir;
    }
    return modules.value_or(files.value_or(std::string()));
}

std::string SiteTable::fileKey(std::string_view file, std::string_view root)
{
    std::string path = normalisedPath(file);
    // Installed packages and the standard library: whatever the virtualenv or interpreter prefix of the rank.
    for (std::string_view marker : { "/site-packages/", "/dist-packages/" }) {
        if (const size_t at = path.rfind(marker); at != std::string::npos)
            return "package:" + path.substr(at + marker.size());
    }
    if (const size_t at = path.rfind("/lib/python"); at != std::string::npos) {
        if (const size_t slash = path.find('/', at + 11); slash != std::string::npos)
            return "stdlib:" + path.substr(slash + 1);
    }
    // The user's code: relative to where the rank's entry script and this file meet, so that the same tree checked
    // out elsewhere gives the same key, while a/train.py and b/train.py of one tree stay apart.
    if (path.empty() || path[0] == '<' || root.empty())
        return path;
    const std::string_view common = commonDirectory(root, directoryOf(path));
    return common.size() > 1 ? "code:" + path.substr(common.size()) : path;
}

std::vector<std::string> SiteTable::ownPackages(const Snapshot& snapshot, const SiteOptions& options)
{
    if (!options.myCodeOnly)
        return {};
    if (!options.myCodePackages.empty())
        return options.myCodePackages;
    std::set<std::string> entry;
    std::set<std::string> installed;
    for (size_t id = 0; id < snapshot.frames.size(); ++id) {
        const Frame& f = snapshot.frames.frame(FrameId(id));
        const std::string_view file = snapshot.strings.view(f.filename);
        const FrameKind kind = StackOrder::kindOf(file, f.line);
        if (kind == FrameKind::Yours)
            return {};
        if (kind != FrameKind::Package)
            continue;
        const std::string package(StackOrder::packageOf(file));
        installed.insert(package);
        if (snapshot.strings.view(f.name) == "<module>")
            entry.insert(package);
    }
    const std::set<std::string>& own = entry.empty() ? installed : entry;
    return { own.begin(), own.end() };
}

const std::vector<std::string>& SiteTable::ownPackagesOf(const Snapshot& snapshot) const
{
    static const std::vector<std::string> none;
    const auto it = m_perSnapshot.find(&snapshot);
    return it == m_perSnapshot.end() ? none : it->second.ownPackages;
}

const SiteTable::SeenFrame& SiteTable::filtered(
    const PerSnapshot& per, std::string_view file, int64_t line, std::string_view name)
{
    const std::string* filename = intern(file);
    const auto [it, isNew] = m_seen.try_emplace(SeenKey { per.layout, filename, intern(name), line });
    SeenFrame& seen = it->second;
    if (!isNew)
        return seen;
    seen.noise = isViewerNoise(name, file);
    if (seen.noise)
        return seen;
    seen.library = isLibraryFrame(name, file, line);
    seen.counted = seen.library && StackOrder::countsAsOwn(StackOrder::kindOf(file, line), file, per.ownPackages);
    seen.frame = SiteFrame { filename, it->first.name, line, intern(fileKey(file, per.root)),
        intern(withoutAddresses(name)), kindOf(filename, line) };
    // The key spells the frames out, so equal code on different ranks meets in one site, wherever each rank's copy of
    // it lives.
    seen.keyPart.assign(*seen.frame.fileKey)
        .append(1, '\0')
        .append(std::to_string(line))
        .append(1, '\0')
        .append(*seen.frame.nameKey)
        .append(1, '\n');
    return seen;
}

SiteId SiteTable::site(const Snapshot& snapshot, StackId stack)
{
    auto [known, isNew] = m_perSnapshot.try_emplace(&snapshot);
    PerSnapshot& per = known->second;
    if (isNew) {
        per.root = codeRoot(snapshot);
        per.ownPackages = ownPackages(snapshot, m_options);
        std::string layout = per.root;
        for (const std::string& package : per.ownPackages)
            layout.append(1, '\0').append(package);
        per.layout = intern(layout);
        if (m_options.myCodePackages.empty()) {
            for (const std::string& package : per.ownPackages) {
                if (std::find(m_frameworks.begin(), m_frameworks.end(), package) == m_frameworks.end())
                    m_frameworks.push_back(package);
            }
            std::sort(m_frameworks.begin(), m_frameworks.end());
        }
    }
    std::vector<SiteId>& cache = per.sites;
    if (cache.size() < snapshot.stacks.size())
        cache.resize(snapshot.stacks.size(), 0);
    if (cache[stack] != 0)
        return cache[stack] - 1;

    std::vector<SiteFrame> kept;
    std::string key;
    // With --my-code, the frames of the user's own code and of the packages counted as theirs (ownPackages) are kept;
    // a stack with none of them keeps every frame (mine false), so its memory never goes to the empty site.
    bool mine = m_options.myCodeOnly;
    const auto keep = [&](const SeenFrame& seen) {
        if (seen.noise || (mine && seen.library && !seen.counted))
            return true;
        SiteFrame& f = kept.emplace_back(seen.frame);
        if (mine && seen.counted)
            f.kind = FrameKind::Yours;
        key.append(seen.keyPart);
        return m_options.depth <= 0 || int(kept.size()) < m_options.depth;
    };
    if (per.frames.size() < snapshot.frames.size())
        per.frames.resize(snapshot.frames.size(), nullptr);
    const auto keepFrames = [&] {
        bool more = true;
        for (FrameId id : snapshot.stacks.frames(stack)) {
            const Frame& f = snapshot.frames.frame(id);
            if (f.original != EmptyString) {
                // Compiled code with the model source it came from: that source is the site, not a hashed file name
                // that differs with every cache folder.
                for (const auto& [file, line, name] : tracebackFrames(snapshot.strings.view(f.original))) {
                    if (!(more = keep(filtered(per, file, line, name))))
                        break;
                }
            } else {
                const SeenFrame*& frame = per.frames[id];
                if (!frame)
                    frame = &filtered(per, snapshot.strings.view(f.filename), f.line, snapshot.strings.view(f.name));
                more = keep(*frame);
            }
            if (!more)
                break;
        }
    };
    keepFrames();
    if (mine && kept.empty() && !snapshot.stacks.frames(stack).empty()) {
        mine = false;
        key.clear();
        keepFrames();
    }
    auto [it, inserted] = m_siteIndex.try_emplace(std::move(key), SiteId(m_sites.size()));
    if (inserted) {
        std::vector<FrameKind> kinds;
        std::vector<std::string_view> files;
        std::vector<std::string_view> names;
        for (const SiteFrame& f : kept) {
            kinds.push_back(f.kind);
            files.push_back(*f.filename);
            names.push_back(*f.name);
        }
        StackOrder::markEntry(kinds, files, names);
        for (size_t i = 0; i < kept.size(); ++i)
            kept[i].kind = kinds[i];
        m_sites.push_back(std::move(kept));
        m_fingerprints.push_back(fnv1a(it->first));
        if (const std::vector<uint32_t> order = walk(it->second); !order.empty())
            m_byFirstFrame[frameLabel(m_sites.back()[order.front()], false)].push_back(it->second);
    }
    cache[stack] = it->second + 1;
    return it->second;
}

std::vector<uint32_t> SiteTable::shown(SiteId site, bool callerFirst) const
{
    std::vector<FrameKind> kinds;
    for (const SiteFrame& f : m_sites[site])
        kinds.push_back(f.kind);
    return StackOrder::shown(kinds, callerFirst);
}

StackOrder::TreePath SiteTable::treePath(SiteId site) const
{
    std::vector<FrameKind> kinds;
    std::vector<bool> unsymbolised;
    for (const SiteFrame& f : m_sites[site]) {
        kinds.push_back(f.kind);
        unsymbolised.push_back(StackOrder::isUnsymbolised(*f.filename, f.line));
    }
    return StackOrder::treePath(kinds, unsymbolised);
}

size_t SiteTable::pythonFrames(SiteId site) const
{
    return size_t(std::count_if(
        m_sites[site].begin(), m_sites[site].end(), [](const SiteFrame& f) { return f.kind != FrameKind::Native; }));
}

FrameKind SiteTable::kindOf(const std::string* file, int64_t line)
{
    // A frame's kind depends on its file and on whether it has a line, nothing else.
    std::pair<int8_t, int8_t>& known = m_kinds.try_emplace(file, int8_t(-1), int8_t(-1)).first->second;
    int8_t& kind = line > 0 ? known.first : known.second;
    if (kind < 0)
        kind = int8_t(StackOrder::kindOf(*file, line));
    return FrameKind(kind);
}

std::vector<uint32_t> SiteTable::walk(SiteId site) const
{
    // The frames in the order a label takes them: as shown, and a stack without Python frames (autograd's backward
    // thread) from its autograd node or else its operator, since every stack begins with the same allocator frames.
    const std::vector<SiteFrame>& frames = m_sites[site];
    std::vector<uint32_t> order = shown(site);
    if (const size_t python = pythonFrames(site); python > 0) {
        // Native frames from the innermost Python frame down: where two stacks at the same Python line part, the
        // operator each called tells them apart before the allocator's frames do.
        const uint32_t innermost = *std::min_element(order.begin(), order.begin() + ptrdiff_t(python));
        const auto called = std::stable_partition(
            order.begin() + ptrdiff_t(python), order.end(), [innermost](uint32_t i) { return i < innermost; });
        std::reverse(order.begin() + ptrdiff_t(python), called);
        return order;
    }
    if (order.empty())
        return order;
    const auto naming = [&](std::string_view part) {
        return std::find_if(
            order.begin(), order.end(), [&](uint32_t i) { return frames[i].name->find(part) != std::string::npos; });
    };
    auto start = naming("torch::autograd::generated::");
    if (start == order.end())
        start = naming("::_ops::");
    if (start != order.end())
        std::rotate(order.begin(), start, order.end());
    return order;
}

std::string SiteTable::labelGroup(const std::vector<SiteId>& candidates, int count, SiteId wanted, bool all) const
{
    struct Member
    {
        SiteId site = 0;
        std::vector<uint32_t> walk;
        size_t shortFrames = 0; ///< the frames every label shows
        std::string base;
        std::vector<size_t> parts; ///< walk positions where its stack parts from others of the same base
        std::vector<size_t> withPath; ///< of those, where only the file's path tells it apart
    };
    std::vector<Member> members;
    members.reserve(candidates.size());
    for (SiteId s : candidates) {
        Member& m = members.emplace_back();
        m.site = s;
        m.walk = walk(s);
        const std::vector<SiteFrame>& frames = m_sites[s];
        // A stack without Python frames by its naming frame alone: C++ names run long.
        const FrameKind best = frames[m.walk.front()].kind;
        const size_t most = best == FrameKind::Native ? 1 : size_t(count);
        while (m.shortFrames < m.walk.size() && m.shortFrames < most && frames[m.walk[m.shortFrames]].kind == best) {
            m.base += (m.shortFrames > 0 ? " \xe2\x86\x90 " : "") + frameLabel(frames[m.walk[m.shortFrames]], false);
            ++m.shortFrames;
        }
    }
    // Sites whose labels would meet are told apart where their stacks part: a trie over their frames in walk order,
    // frames compared as the site key compares them.
    using FrameKey = std::tuple<const std::string*, int64_t, const std::string*>;
    const auto frameAt = [this](const Member* m, size_t i) {
        if (i >= m->walk.size())
            return FrameKey(nullptr, -1, nullptr);
        const SiteFrame& f = m_sites[m->site][m->walk[i]];
        return FrameKey(f.fileKey, f.line, f.nameKey);
    };
    std::vector<std::pair<std::vector<Member*>, size_t>> work;
    {
        std::map<std::string_view, std::vector<Member*>> byBase;
        for (Member& m : members)
            byBase[m.base].push_back(&m);
        for (auto& [base, same] : byBase) {
            if (same.size() > 1)
                work.emplace_back(std::move(same), 0);
        }
    }
    while (!work.empty()) {
        auto [same, i] = std::move(work.back());
        work.pop_back();
        size_t longest = 0;
        for (const Member* m : same)
            longest = std::max(longest, m->walk.size());
        for (; i < longest; ++i) {
            std::map<FrameKey, std::vector<Member*>> parted;
            for (Member* m : same)
                parted[frameAt(m, i)].push_back(m);
            if (parted.size() == 1)
                continue;
            std::map<std::string, int> shortTexts;
            for (const auto& [frame, group] : parted) {
                if (std::get<0>(frame))
                    ++shortTexts[frameLabel(m_sites[group.front()->site][group.front()->walk[i]], false)];
            }
            for (auto& [frame, group] : parted) {
                if (!std::get<0>(frame))
                    continue; // its stack ends here: the others' longer labels tell them apart
                const bool path =
                    shortTexts[frameLabel(m_sites[group.front()->site][group.front()->walk[i]], false)] > 1;
                for (Member* m : group) {
                    m->parts.push_back(i);
                    if (path)
                        m->withPath.push_back(i);
                }
                if (group.size() > 1)
                    work.emplace_back(std::move(group), i + 1);
            }
            break;
        }
    }
    std::string result;
    std::lock_guard lock(m_labels->mutex);
    for (const Member& m : members) {
        const std::vector<SiteFrame>& frames = m_sites[m.site];
        const auto text = [&](size_t i) {
            return frameLabel(
                frames[m.walk[i]], std::find(m.withPath.begin(), m.withPath.end(), i) != m.withPath.end());
        };
        std::string label;
        for (size_t i = 0; i < m.shortFrames; ++i)
            label += (i > 0 ? " \xe2\x86\x90 " : "") + text(i);
        std::vector<size_t> inside; // frames the shown ones called, outermost first
        size_t previous = m.shortFrames - 1;
        for (size_t p : m.parts) {
            if (p < m.shortFrames)
                continue;
            if (m.walk[p] < m.walk.front()) {
                inside.push_back(p);
                continue;
            }
            const bool next = p == previous + 1 && frames[m.walk[p]].kind == frames[m.walk[previous]].kind;
            label += (next ? " \xe2\x86\x90 " : " \xe2\x86\x90 \xe2\x80\xa6 \xe2\x86\x90 ") + text(p); // ← or ← … ←
            previous = p;
        }
        std::sort(inside.begin(), inside.end(), [&](size_t a, size_t b) { return m.walk[a] > m.walk[b]; });
        for (size_t p : inside)
            label += " via " + text(p);
        if (m.site == wanted)
            result = label;
        if (all || m.site == wanted)
            m_labels->labels[(uint64_t(uint32_t(count)) << 32) | m.site] = std::move(label);
    }
    return result;
}

std::string SiteTable::label(SiteId site, int count) const
{
    if (m_sites[site].empty())
        return std::string(NoStackLabel);
    count = std::max(count, 1);
    {
        std::lock_guard lock(m_labels->mutex);
        // A label depends on the other sites of the table: those made for fewer sites may have met since.
        if (m_labels->sites != m_sites.size()) {
            m_labels->labels.clear();
            m_labels->sites = m_sites.size();
        }
        if (auto it = m_labels->labels.find((uint64_t(uint32_t(count)) << 32) | site); it != m_labels->labels.end())
            return it->second;
    }
    const std::vector<uint32_t> order = walk(site);
    const std::vector<SiteId>& beginning = m_byFirstFrame.at(frameLabel(m_sites[site][order.front()], false));
    if (m_named.empty())
        return labelGroup(beginning, count, site, true);
    std::vector<SiteId> candidates;
    for (SiteId s : beginning) {
        if (s == site || named(s))
            candidates.push_back(s);
    }
    return labelGroup(candidates, count, site, named(site));
}

void SiteTable::nameSites(std::vector<bool> named)
{
    m_named = std::move(named);
    std::lock_guard lock(m_labels->mutex);
    m_labels->labels.clear();
}

std::vector<SiteTable::StackSite> SiteTable::sitesOf(
    const Snapshot& snapshot, std::span<const StackId> stacks, const SiteOptions& options, bool withLabels)
{
    SiteTable sites(options);
    std::vector<StackSite> out;
    out.reserve(stacks.size());
    for (StackId stack : stacks) {
        const SiteId site = sites.site(snapshot, stack);
        out.push_back({ sites.fingerprint(site), withLabels ? sites.label(site) : std::string() });
    }
    return out;
}

} // namespace RankScope
