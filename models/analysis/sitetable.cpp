// SPDX-License-Identifier: MIT
#include "sitetable.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <optional>
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

SiteTable::SiteTable(SiteOptions options)
    : m_options(options)
{
    m_sites.emplace_back(); // site 0: no frames
    m_siteIndex.emplace(std::string(), 0);
    m_fingerprints.push_back(fnv1a({}));
}

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
    return ext == "c" || ext == "h" || ext == "cc" || ext == "cpp" || ext == "cxx" || ext == "hpp" || ext == "cu"
        || ext == "cuh";
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

SiteId SiteTable::site(const Snapshot& snapshot, StackId stack)
{
    auto [known, isNew] = m_perSnapshot.try_emplace(&snapshot);
    PerSnapshot& per = known->second;
    if (isNew)
        per.root = codeRoot(snapshot);
    std::vector<SiteId>& cache = per.sites;
    if (cache.size() < snapshot.stacks.size())
        cache.resize(snapshot.stacks.size(), 0);
    if (cache[stack] != 0)
        return cache[stack] - 1;

    std::vector<SiteFrame> kept;
    std::string key;
    const auto keep = [&](std::string_view file, int64_t line, std::string_view name) {
        if (isViewerNoise(name, file) || (m_options.myCodeOnly && isLibraryFrame(name, file, line)))
            return true;
        kept.push_back({ intern(file), intern(name), line });
        // The key spells the frames out, so equal code on different ranks meets in one site, wherever each rank's
        // copy of it lives.
        key.append(fileKey(file, per.root))
            .append(1, '\0')
            .append(std::to_string(line))
            .append(1, '\0')
            .append(withoutAddresses(name))
            .append(1, '\n');
        return m_options.depth <= 0 || int(kept.size()) < m_options.depth;
    };
    bool more = true;
    for (FrameId id : snapshot.stacks.frames(stack)) {
        const Frame& f = snapshot.frames.frame(id);
        if (f.original != EmptyString) {
            // Compiled code with the model source it came from: that source is the site, not a hashed file name
            // that differs with every cache folder.
            for (const auto& [file, line, name] : tracebackFrames(snapshot.strings.view(f.original))) {
                if (!(more = keep(file, line, name)))
                    break;
            }
        } else {
            more = keep(snapshot.strings.view(f.filename), f.line, snapshot.strings.view(f.name));
        }
        if (!more)
            break;
    }
    auto [it, inserted] = m_siteIndex.try_emplace(std::move(key), SiteId(m_sites.size()));
    if (inserted) {
        m_sites.push_back(std::move(kept));
        m_fingerprints.push_back(fnv1a(it->first));
    }
    cache[stack] = it->second + 1;
    return it->second;
}

std::string SiteTable::label(SiteId site, int count) const
{
    const std::vector<SiteFrame>& frames = m_sites[site];
    if (frames.empty())
        return "<no stack recorded>";
    // Name the site by the user's own frames when it has any: "gather.py:88 gather_predictions" says more than
    // the torch function that did the allocating.
    std::vector<const SiteFrame*> shown;
    for (const SiteFrame& f : frames) {
        if (!isLibraryFrame(*f.name, *f.filename, f.line))
            shown.push_back(&f);
    }
    if (shown.empty()) {
        for (const SiteFrame& f : frames)
            shown.push_back(&f);
    }
    std::string text;
    for (int i = 0; i < count && size_t(i) < shown.size(); ++i) {
        if (i > 0)
            text += " \xe2\x86\x90 "; // ←
        const SiteFrame& f = *shown[size_t(i)];
        text += std::string(baseName(*f.filename)) + ":" + std::to_string(f.line) + " " + *f.name;
        // A hashed Inductor file name says nothing about which model code it was compiled from.
        if (isCompiledCode(*f.filename))
            text += " (compiled code)";
    }
    return text;
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
