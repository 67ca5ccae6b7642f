// SPDX-License-Identifier: MIT
#include "categories.h"

#include <QFile>

#include <algorithm>
#include <cctype>
#include <stdexcept>
#include <unordered_map>
#include <vector>

namespace RankScope {

namespace {

// Which part of a training step a stack was in, from its frames alone.
enum class Phase : uint8_t
{
    Forward,
    Backward,
    Optimizer,
    ParameterInit,
    Other,
    // No frames: the autograd engine runs backward on threads of its own, where PyTorch records no Python frames.
    NoFrames,
};

std::string lower(std::string_view s)
{
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return out;
}

bool contains(std::string_view text, std::string_view part)
{
    return text.find(part) != std::string_view::npos;
}

class Classifier
{
public:
    Classifier(const DeviceHistory& h, const CategoryRules& rules)
        : m_s(h.snapshot())
        , m_rules(rules)
        , m_cache(m_s.stacks.size())
        , m_frames(m_s.frames.size())
    { }

    // A category the stack decides on its own (a user rule), else nullopt and the stack's phase.
    std::pair<std::optional<Category>, Phase> ofStack(StackId stack)
    {
        std::optional<std::pair<std::optional<Category>, Phase>>& decided = m_cache[stack];
        if (!decided)
            decided = compute(stack);
        return *decided;
    }

    // What the file itself says the entry's allocation is, when it says (a profile, a digest).
    std::optional<Category> ofEntry(const TraceEntry& e)
    {
        const StringId id = m_s.context(e).category;
        if (id == EmptyString)
            return std::nullopt;
        // A digest names a category on every entry, with a handful of names: each read once, not per allocation.
        const auto [it, isNew] = m_named.try_emplace(id);
        if (isNew)
            it->second = categoryFromName(m_s.strings.view(id));
        return it->second;
    }

private:
    // What one frame tells: the first user rule its text matches, and which phases of a step it belongs to.
    struct FrameClass
    {
        static constexpr uint32_t NoRule = 0xffffffffu;
        uint32_t rule = NoRule;
        bool known = false;
        bool optimizer = false;
        bool backward = false;
        bool init = false;
        bool forward = false;
    };

    // A stack's rule is the first rule any of its frames matches, and its phases those of any frame: so each frame
    // is read once, not once per stack it is in (the stacks of a job share most of their frames).
    const FrameClass& ofFrame(FrameId id)
    {
        FrameClass& c = m_frames[id];
        if (c.known)
            return c;
        c.known = true;
        const Frame& f = m_s.frames.frame(id);
        const std::string_view name = m_s.strings.view(f.name);
        std::string text = std::string(m_s.strings.view(f.filename)) + ":" + std::string(name);
        std::replace(text.begin(), text.end(), '\\', '/');
        for (size_t k = 0; k < m_rules.rules.size(); ++k) {
            if (contains(text, m_rules.rules[k].pattern)) {
                c.rule = uint32_t(k);
                break;
            }
        }
        // The file part of "filename:function", in lower case (Windows paths keep the case typed).
        const std::string file = lower(std::string_view(text).substr(0, text.size() - name.size() - 1));
        // PyTorch's optimizers (and their distributed wrappers), apex's and DeepSpeed's fused ones.
        c.optimizer = contains(file, "torch/optim/") || contains(file, "torch/distributed/optim/")
            || contains(file, "apex/optimizers/") || contains(file, "deepspeed/ops/adam/")
            || contains(file, "deepspeed/ops/lamb/");
        c.backward = (name == "backward" && (contains(file, "torch/_tensor.py") || contains(file, "torch/autograd/")))
            || name == "_engine_run_backward" || name == "run_backward" || contains(name, "autograd::Engine")
            || contains(name, "autograd::engine");
        c.init = (contains(file, "torch/nn/modules/module.py")
                     && (name == "_apply" || name == "to" || name == "cuda" || name == "to_empty"
                         || name == "load_state_dict" || name == "_load_from_state_dict"))
            || contains(file, "torch/nn/parameter.py") || contains(file, "torch/nn/init.py")
            || name == "reset_parameters" || (name == "__init__" && contains(file, "torch/nn/modules/"));
        c.forward =
            name == "forward" || name == "_call_impl" || name == "_wrapped_call_impl" || f.original != EmptyString;
        return c;
    }

    std::pair<std::optional<Category>, Phase> compute(StackId stack)
    {
        const std::span<const FrameId> frames = m_s.stacks.frames(stack);
        if (frames.empty())
            return { std::nullopt, Phase::NoFrames };
        uint32_t rule = FrameClass::NoRule;
        bool optimizer = false, backward = false, init = false, forward = false;
        for (FrameId id : frames) {
            const FrameClass& c = ofFrame(id);
            rule = std::min(rule, c.rule);
            optimizer = optimizer || c.optimizer;
            backward = backward || c.backward;
            init = init || c.init;
            forward = forward || c.forward;
        }
        if (rule != FrameClass::NoRule)
            return { m_rules.rules[rule].category, Phase::Other };
        // Recomputation under activation checkpointing runs forward code inside backward: backward wins, and an
        // optimizer stepping from a backward hook is still the optimizer.
        const Phase phase = optimizer ? Phase::Optimizer
            : backward                ? Phase::Backward
            : init                    ? Phase::ParameterInit
            : forward                 ? Phase::Forward
                                      : Phase::Other;
        return { std::nullopt, phase };
    }

    const Snapshot& m_s;
    const CategoryRules& m_rules;
    // By StackId: every allocation asks for its stack, millions of them in a large rank, and a hash map's lookup took
    // a sixth of the classification's time.
    std::vector<std::optional<std::pair<std::optional<Category>, Phase>>> m_cache;
    std::vector<FrameClass> m_frames; // by FrameId
    std::unordered_map<StringId, std::optional<Category>> m_named;
};

} // namespace

const char* categoryName(Category category)
{
    switch (category) {
    case Category::Parameter:
        return "parameter";
    case Category::Gradient:
        return "gradient";
    case Category::OptimizerState:
        return "optimizer_state";
    case Category::Activation:
        return "activation";
    case Category::Temporary:
        return "temporary";
    case Category::Other:
        break;
    }
    return "other";
}

std::optional<Category> categoryFromName(std::string_view name)
{
    const std::string n = lower(name);
    for (int c = 0; c < CategoryCount; ++c) {
        if (n == categoryName(Category(c)))
            return Category(c);
    }
    // PyTorch's memory profiler: the batch is an input, autograd's own bookkeeping is short-lived.
    if (n == "input")
        return Category::Other;
    if (n == "autograd_detail")
        return Category::Temporary;
    return std::nullopt;
}

CategoryRules CategoryRules::parse(std::string_view text, const std::string& fileName)
{
    CategoryRules out;
    int lineNumber = 0;
    while (!text.empty()) {
        const size_t end = text.find('\n');
        std::string_view line = text.substr(0, end);
        text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
        ++lineNumber;
        if (const size_t hash = line.find('#'); hash != std::string_view::npos)
            line = line.substr(0, hash);
        auto isSpace = [](char c) { return c == ' ' || c == '\t' || c == '\r'; };
        while (!line.empty() && isSpace(line.front()))
            line.remove_prefix(1);
        while (!line.empty() && isSpace(line.back()))
            line.remove_suffix(1);
        if (line.empty())
            continue;
        const size_t gap = std::find_if(line.begin(), line.end(), isSpace) - line.begin();
        const std::string_view name = line.substr(0, gap);
        std::string_view pattern = gap < line.size() ? line.substr(gap) : std::string_view();
        while (!pattern.empty() && isSpace(pattern.front()))
            pattern.remove_prefix(1);
        const std::string where = fileName + ":" + std::to_string(lineNumber) + ": ";
        const std::optional<Category> category = categoryFromName(name);
        if (!category || lower(name) != categoryName(*category)) {
            throw std::runtime_error(where + "'" + std::string(name)
                + "' is not a category (parameter, gradient, optimizer_state, activation, temporary, other)");
        }
        if (pattern.empty())
            throw std::runtime_error(where + "the rule has no pattern after '" + std::string(name) + "'");
        std::string p(pattern);
        std::replace(p.begin(), p.end(), '\\', '/');
        out.rules.push_back({ *category, std::move(p) });
    }
    return out;
}

CategoryRules CategoryRules::read(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        throw std::runtime_error(path.toStdString() + ": cannot be read: " + file.errorString().toStdString());
    if (file.size() > (1 << 20))
        throw std::runtime_error(path.toStdString() + ": is not a rules file (larger than 1 MiB)");
    const QByteArray bytes = file.readAll();
    return parse(std::string_view(bytes.constData(), size_t(bytes.size())), path.toStdString());
}

std::vector<Category> Categories::classify(const DeviceHistory& h, const CategoryRules& rules)
{
    const std::span<const Allocation> allocations = h.allocations();
    const TraceView events = h.events();
    std::vector<Category> out(allocations.size(), Category::Other);
    Classifier classifier(h, rules);

    // Where the file records frames at all, an allocation without any comes from the autograd engine's threads.
    size_t framed = 0, traced = 0;
    for (const Allocation& a : allocations) {
        if (a.allocEvent == Allocation::NoEvent)
            continue;
        ++traced;
        framed += a.stack != EmptyStack;
    }
    const bool framesRecorded = traced > 0 && framed * 10 >= traced;

    std::vector<Phase> phase(allocations.size(), Phase::Other);
    std::vector<uint8_t> decided(allocations.size(), 0);
    for (size_t i = 0; i < allocations.size(); ++i) {
        const Allocation& a = allocations[i];
        const auto [rule, p] = classifier.ofStack(a.stack);
        std::optional<Category> given = rule;
        if (!given && a.allocEvent != Allocation::NoEvent)
            given = classifier.ofEntry(events[a.allocEvent]);
        if (given) {
            out[i] = *given;
            decided[i] = 1;
            continue;
        }
        phase[i] = p;
        if (p == Phase::NoFrames) {
            // Held from before recording began and never freed: the model's state, loaded before the trace.
            if (a.allocEvent == Allocation::NoEvent)
                phase[i] = a.freeEvent == Allocation::NoEvent && !events.empty() ? Phase::ParameterInit : Phase::Other;
            else
                phase[i] = framesRecorded ? Phase::Backward : Phase::Other;
        }
    }

    // Runs of allocations in one phase of the step; each allocation's run ends at the next allocation of another
    // phase. Work outside the step (a hook's buffer, the loss, metrics) does not end a run: it interleaves. One walk
    // back through the allocations finds each run's end and classifies: the traced ones are in the order of their
    // alloc events (those from before the trace last), so what comes after an allocation has been seen by then.
    const EventIndex end = EventIndex(events.size());
    const auto aliveAfter = [](const Allocation& a, EventIndex e) {
        return a.freeEvent == Allocation::NoEvent || EventIndex(a.freeEvent) > e;
    };
    size_t next = allocations.size(); // the next allocation of the step in the trace, in alloc order
    EventIndex nextRunEnd = end;
    std::optional<EventIndex> nextBackward; // the first backward allocation's alloc event after this one's
    for (size_t i = allocations.size(); i-- > 0;) {
        const Allocation& a = allocations[i];
        const bool traced = a.allocEvent != Allocation::NoEvent;
        const bool inStep = traced && phase[i] != Phase::Other && phase[i] != Phase::NoFrames;
        EventIndex runEnd = end;
        if (inStep) {
            if (next < allocations.size())
                runEnd = phase[i] == phase[next] ? nextRunEnd : EventIndex(allocations[next].allocEvent);
            next = i;
            nextRunEnd = runEnd;
        }
        if (!decided[i]) {
            // Outliving its run: a run that lasts to the end of the trace keeps what is still held there.
            const bool outlives = !traced || runEnd == end ? a.freeEvent == Allocation::NoEvent : aliveAfter(a, runEnd);
            switch (phase[i]) {
            case Phase::ParameterInit:
                out[i] = Category::Parameter;
                break;
            case Phase::Optimizer:
                out[i] = outlives ? Category::OptimizerState : Category::Temporary;
                break;
            case Phase::Backward:
                out[i] = outlives ? Category::Gradient : Category::Temporary;
                break;
            case Phase::Forward: {
                // Saved for backward: still held when the next backward begins.
                const bool saved = traced && nextBackward ? aliveAfter(a, *nextBackward) : outlives;
                out[i] = saved ? Category::Activation : Category::Temporary;
                break;
            }
            case Phase::Other:
            case Phase::NoFrames:
                // Outside the training step (evaluation, metrics, checkpoints, the batch): whatever its lifetime.
                out[i] = Category::Other;
                break;
            }
        }
        if (inStep && phase[i] == Phase::Backward)
            nextBackward = EventIndex(a.allocEvent);
    }
    return out;
}

bool Categories::isLoss(const Snapshot& s, StackId stack)
{
    for (FrameId id : s.stacks.frames(stack)) {
        const Frame& f = s.frames.frame(id);
        const std::string name = lower(s.strings.view(f.name));
        std::string file = lower(s.strings.view(f.filename));
        std::replace(file.begin(), file.end(), '\\', '/');
        const std::string_view base = std::string_view(file).substr(file.rfind('/') + 1);
        if (contains(name, "loss") || contains(name, "cross_entropy") || contains(name, "log_softmax")
            || contains(name, "logits") || contains(base, "loss"))
            return true;
    }
    return false;
}

} // namespace RankScope
