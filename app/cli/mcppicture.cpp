// SPDX-License-Identifier: MIT
#include "dataexport.h"
#include "imageexport.h"
#include "mcpserver.h"
#include "ranklistmodel.h"
#include "writing.h"

#include <QFileInfo>

namespace RankScope::Cli {

namespace McpPicture {

using Json = McpServer::Json;

// export_picture: the comparison drawn as `rankscope export` draws it, returned as a PNG; written to a file only
// when asked, by the export's rules (the suffix gives the format, an existing file is kept without force).
McpServer::Result picture(McpServer& server, const Json& args)
{
    McpServer::OpenJob& open = server.job(args);
    const ComparisonPtr comparison = server.comparison(open);
    Picture p;
    const std::string view = args.value("view", Json()).is_string() ? args["view"].get<std::string>() : "";
    if (!view.empty()) {
        const auto parsed = DiffSheet::parseView(QString::fromStdString(view));
        if (!parsed)
            throw ToolError("view needs diff, timelines, blockmaps, overview or flame");
        p.view = *parsed;
    }
    if (args.contains("ranks") && !args["ranks"].is_null()) {
        const Json& ranks = args["ranks"];
        if (!ranks.is_array() || ranks.empty() || ranks.size() > 2 || !ranks[0].is_number_integer()
            || (ranks.size() == 2 && (!ranks[1].is_number_integer() || ranks[0] == ranks[1])))
            throw ToolError("ranks needs one or two different rank numbers, such as [0, 3]");
        p.rankA = ranks[0].get<int>();
        p.rankB = ranks.size() == 2 ? ranks[1].get<int>() : -1;
    }
    auto integer = [&](const char* name, int fallback, int least, int most) {
        if (!args.contains(name) || args[name].is_null())
            return fallback;
        if (!args[name].is_number_integer() || args[name].get<int64_t>() < least || args[name].get<int64_t>() > most)
            throw ToolError(std::string(name) + " needs a whole number from " + std::to_string(least) + " to "
                + std::to_string(most));
        return args[name].get<int>();
    };
    p.finding = integer("finding", 0, 1, 1 << 30) - 1;
    p.size = QSize(integer("width", 1600, 200, 10000), integer("height", 1000, 150, 10000));
    p.scale = integer("scale", 1, 1, 4);
    RankListModel ranks;
    std::string error;
    const std::unique_ptr<DiffSheet> sheet = drawSheet(open.job, comparison, p, ranks, error);
    if (!sheet)
        throw ToolError(QString::fromStdString(error).replace(QLatin1String("--"), QString()).toStdString());
    McpServer::Result r;
    r.png = ImageExport::encode(sheet.get(), ImageExport::Png, p.scale);
    std::string written;
    if (const std::string out = args.value("out", Json()).is_string() ? args["out"].get<std::string>() : "";
        !out.empty()) {
        const QString path = QString::fromStdString(out);
        const ImageExport::Format format = ImageExport::formatOf(path);
        if (format == ImageExport::Unknown)
            throw ToolError("out: " + out + ": use a .png, .svg or .pdf file name");
        if (QFileInfo::exists(path) && !args.value("force", false))
            throw ToolError("out: " + out + " exists; give force to replace it");
        if (const QString failed = DataExport::write(
                path, format == ImageExport::Png ? r.png : ImageExport::encode(sheet.get(), format, p.scale));
            !failed.isEmpty())
            throw ToolError(failed.toStdString());
        written = out;
    }
    // The sheet may grow past the page asked for to fit what it shows: the figures are the picture's own (IHDR).
    auto bigEndian = [&](int at) {
        return int(uint32_t(uint8_t(r.png[at])) << 24 | uint32_t(uint8_t(r.png[at + 1])) << 16
            | uint32_t(uint8_t(r.png[at + 2])) << 8 | uint32_t(uint8_t(r.png[at + 3])));
    };
    if (r.png.size() < 24)
        throw ToolError("drawing the picture failed");
    const int width = bigEndian(16), height = bigEndian(20);
    r.structured = { { "view", view.empty() ? "diff" : view }, { "width", width }, { "height", height },
        { "png_bytes", r.png.size() } };
    if (!written.empty())
        r.structured["out"] = written;
    r.text = "The " + r.structured["view"].get<std::string>() + " picture, " + std::to_string(width) + "x"
        + std::to_string(height) + " PNG" + (written.empty() ? "" : ", written to " + written) + ".";
    return r;
}

int run(CommandLine& cl)
{
    return runMcpServer(cl, [](McpServer& server) {
        McpServer::Tool tool { "export_picture", "Draw the comparison",
            "Draws the job's last diff as RankScope's window shows it (view: diff, timelines, blockmaps, overview or "
            "flame; ranks A and B; a finding lit) and returns it as a PNG image; writes it to `out` only when given "
            "(.png, .svg or .pdf; an existing file only with force).",
            { { "type", "object" },
                { "properties",
                    { { "job", { { "type", "string" }, { "description", "The job id open_job returned." } } },
                        { "view",
                            { { "type", "string" },
                                { "description",
                                    "diff (default), timelines, blockmaps, "
                                    "overview or flame." } } },
                        { "ranks",
                            { { "type", "array" }, { "items", { { "type", "integer" } } },
                                { "description",
                                    "Ranks A and B (default: the verdict's and the closest to the "
                                    "baseline)." } } },
                        { "finding",
                            { { "type", "integer" },
                                { "description",
                                    "The finding to light, 1 the largest; its rank is drawn as A unless ranks says "
                                    "otherwise (default: rank A's largest)." } } },
                        { "width", { { "type", "integer" }, { "description", "Page width in pixels (1600)." } } },
                        { "height", { { "type", "integer" }, { "description", "Page height in pixels (1000)." } } },
                        { "scale", { { "type", "integer" }, { "description", "Image pixels per page pixel (1)." } } },
                        { "out", { { "type", "string" }, { "description", "Also write the picture to this file." } } },
                        { "force", { { "type", "boolean" }, { "description", "Replace `out` if it exists." } } } } },
                { "required", { "job" } } },
            { { "type", "object" },
                { "properties",
                    { { "view", { { "type", "string" } } }, { "width", { { "type", "integer" } } },
                        { "height", { { "type", "integer" } } }, { "png_bytes", { { "type", "integer" } } } } },
                { "required", { "view", "width", "height", "png_bytes" } } },
            [&server](const Json& args) { return picture(server, args); } };
        tool.readOnly = false; // it writes the picture where `out` is given
        server.addTool(std::move(tool));
    });
}

} // namespace McpPicture

const Command mcpDrawingCommand { "mcp", "", "a Model Context Protocol server on stdio, for coding agents",
    "A Model Context Protocol server over stdio (JSON-RPC 2.0, one message a line): an agent opens a job's rank\n"
    "files (open_job) and asks for the verdict (diff), the findings and their stacks, what fills a GPU (top) and\n"
    "the peaks without each site (what_if), snapshot figures (info), step reports (steps), the job gated against\n"
    "a baseline (gate) and the comparison drawn as a PNG (export_picture). Register it with an agent client as\n"
    "the command `rankscope mcp`. Logs go to stderr; files are only read, and written only where export_picture\n"
    "is given an output.",
    true, nullptr, McpPicture::run };

} // namespace RankScope::Cli
