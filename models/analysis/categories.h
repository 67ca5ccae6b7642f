// SPDX-License-Identifier: MIT
#pragma once

#include "devicehistory.h"

#include <QString>

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace RankScope {

/// What an allocation is for. The order is the order of every table and chart.
enum class Category : uint8_t
{
    Parameter,
    Gradient,
    OptimizerState,
    Activation,
    Temporary,
    Other,
};
constexpr int CategoryCount = 6;
/// Bytes per category, indexed by Category.
using CategoryBytes = std::array<int64_t, CategoryCount>;

/// One category per allocation of a DeviceHistory, shared between a comparison and the views that colour by it.
using CategoriesPtr = std::shared_ptr<const std::vector<Category>>;

/// "parameter", "gradient", "optimizer_state", "activation", "temporary", "other": the names of JSON, rules files
/// and digests.
const char* categoryName(Category category);
/// A name of categoryName(), or one of PyTorch's memory profiler (PARAMETER, OPTIMIZER_STATE, INPUT …), any case.
std::optional<Category> categoryFromName(std::string_view name);
/// Parameters, gradients and optimizer state: what a model-parallel split divides between ranks.
inline bool isModelState(Category c)
{
    return c == Category::Parameter || c == Category::Gradient || c == Category::OptimizerState;
}
/// The model state among some bytes by category: parameters, gradients and optimizer state together.
inline int64_t modelStateBytes(const CategoryBytes& bytes)
{
    return bytes[size_t(Category::Parameter)] + bytes[size_t(Category::Gradient)]
        + bytes[size_t(Category::OptimizerState)];
}

/// Patterns a user adds to the built-in rules (`--categories FILE`): one rule a line, `<category> <pattern>`, where
/// the pattern is matched as text against each frame's `filename:function` (backslashes read as slashes); `#` starts
/// a comment. The first rule matching any frame of a stack decides, before every built-in rule.
struct CategoryRules
{
    struct Rule
    {
        Category category = Category::Other;
        std::string pattern;
    };
    std::vector<Rule> rules;

    /// Throws std::runtime_error naming the line that is wrong.
    static CategoryRules parse(std::string_view text, const std::string& fileName);
    /// Reads and parses a file; throws std::runtime_error naming the file and what is wrong.
    static CategoryRules read(const QString& path);
};

/// Gives every allocation of one device's history a category, from its stack (and the file's own categories, where a
/// profile or a digest carries them) and its lifetime, as the README's "Categories" section lays out: the trace is
/// read as runs of forward, backward, optimizer and other allocations; what outlives its run is state (activation,
/// gradient, optimizer state), what does not is temporary.
class Categories
{
public:
    /// One category per allocation of `history`, in its order.
    static std::vector<Category> classify(const DeviceHistory& history, const CategoryRules& rules = {});
    /// Whether a stack computes a loss or the logits it is taken of: a frame whose function names a loss, a
    /// (log-)softmax cross-entropy or logits, or whose file is a loss module (torchtitan's components/loss.py).
    static bool isLoss(const Snapshot& snapshot, StackId stack);
};

} // namespace RankScope
