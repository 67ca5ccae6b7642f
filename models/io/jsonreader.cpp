// SPDX-License-Identifier: MIT
#include "jsonreader.h"

#include "hexdigits.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstring>
#include <istream>
#include <optional>
#include <streambuf>
#include <vector>

namespace RankScope {

namespace {

// Feeds the InputStream window to std::istream, without copying unless a string holds a lone UTF-16 surrogate
// escape. Python's json.dump writes one for a file name that is not valid UTF-8 (os.fsdecode's surrogateescape);
// JSON parsers refuse it, CPython reads it, so it becomes U+FFFD here (the escape has the same length, so byte offsets
// in messages stay true). Each refill reports progress.
class WindowBuffer : public std::streambuf
{
public:
    explicit WindowBuffer(InputStream& in)
        : m_in(in)
    {
        expose();
    }
    uint64_t offset() const
    {
        return m_in.offsetOf(m_from) + uint64_t(gptr() - eback());
    }

protected:
    int_type underflow() override
    {
        m_in.cur = m_shown;
        m_in.reportProgress();
        // One byte more than is held back, so the window moves on; at the end, whatever is held back is shown.
        m_atEnd = !m_in.refill(size_t(m_in.end - m_in.cur) + 1);
        expose();
        if (gptr() == egptr())
            return traits_type::eof();
        return traits_type::to_int_type(*gptr());
    }

private:
    // An escape is at most 12 bytes (a surrogate pair); until the end, that many are held back so none is cut.
    static constexpr ptrdiff_t lookahead = 11;

    static std::optional<uint32_t> hex4(const uint8_t* p)
    {
        return hexDigits(std::string_view(reinterpret_cast<const char*>(p), 4));
    }

    // A mapped file's window is the whole file: it is shown a chunk at a time, so that progress is reported (and its
    // pages given back) and a cancel is heard as when the file is read in chunks.
    static constexpr ptrdiff_t mostShown = ptrdiff_t(1) << 20;

    void expose()
    {
        m_from = m_in.cur;
        const uint8_t* end = m_in.end - m_from > mostShown ? m_from + mostShown : m_in.end;
        const bool atEnd = m_atEnd && end == m_in.end;
        const uint8_t* to = atEnd || end - m_from <= lookahead ? (atEnd ? end : m_from) : end - lookahead;
        std::vector<ptrdiff_t> lone; // offsets of the hex digits of lone surrogate escapes
        for (const uint8_t* p = m_from; p < to; ++p) {
            if (!m_escape) {
                m_escape = *p == '\\';
                continue;
            }
            m_escape = false;
            if (*p != 'u' || end - p < 5)
                continue;
            const std::optional<uint32_t> v = hex4(p + 1);
            if (!v)
                continue;
            const uint8_t* next = p + 5;
            if (*v >= 0xd800 && *v <= 0xdbff && end - next >= 6 && next[0] == '\\' && next[1] == 'u') {
                if (const auto low = hex4(next + 2); low && *low >= 0xdc00 && *low <= 0xdfff) {
                    p = next + 5; // a whole pair: nothing to change
                    to = std::max(to, p + 1);
                    continue;
                }
            }
            if (*v >= 0xd800 && *v <= 0xdfff)
                lone.push_back(p + 1 - m_from);
            p += 4;
            to = std::max(to, p + 1);
        }
        m_shown = to;
        auto* raw = reinterpret_cast<char*>(const_cast<uint8_t*>(m_from));
        if (lone.empty()) {
            setg(raw, raw, raw + (to - m_from));
            return;
        }
        m_copy.assign(raw, raw + (to - m_from));
        for (ptrdiff_t at : lone)
            std::memcpy(m_copy.data() + at, "fffd", 4);
        setg(m_copy.data(), m_copy.data(), m_copy.data() + m_copy.size());
    }

    InputStream& m_in;
    const uint8_t* m_from = nullptr; ///< where the shown bytes start in the input window
    const uint8_t* m_shown = nullptr; ///< the first byte not shown yet
    bool m_escape = false; ///< the last byte shown was a backslash that starts an escape
    bool m_atEnd = false;
    std::vector<char> m_copy;
};

class Handler : public nlohmann::json_sax<nlohmann::json>
{
public:
    explicit Handler(SnapshotBuilder& builder)
        : m_builder(builder)
    { }

    bool null() override
    {
        return add(BuilderValue {});
    }
    bool boolean(bool v) override
    {
        BuilderValue b = BuilderValue::integer(v);
        b.kind = BuilderValue::Bool;
        return add(b);
    }
    bool number_integer(number_integer_t v) override
    {
        return add(BuilderValue::integer(v));
    }
    bool number_unsigned(number_unsigned_t v) override
    {
        return add(BuilderValue::integer(int64_t(v))); // addresses above 2^63 keep their bit pattern
    }
    bool number_float(number_float_t v, const string_t&) override
    {
        BuilderValue f;
        f.kind = BuilderValue::Float;
        f.f = v;
        return add(f);
    }
    bool string(string_t& v) override
    {
        return add(m_builder.string(v));
    }
    bool binary(binary_t&) override
    {
        BuilderValue b;
        b.kind = BuilderValue::Bytes;
        return add(b);
    }
    bool start_object(std::size_t) override
    {
        return open(true);
    }
    bool key(string_t& k) override
    {
        m_open.back().key = m_builder.string(k);
        return true;
    }
    bool end_object() override
    {
        return close();
    }
    bool start_array(std::size_t) override
    {
        return open(false);
    }
    bool end_array() override
    {
        return close();
    }
    bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& ex) override
    {
        throw ReadError(std::string("invalid JSON: ") + ex.what() + " at byte " + std::to_string(position));
    }

private:
    struct Open
    {
        BuilderValue container;
        BuilderValue key;
    };

    bool open(bool isDict)
    {
        if (m_open.size() > 256)
            throw ReadError("JSON nested too deeply for a memory snapshot");
        const BuilderValue* parent = m_open.empty() ? nullptr : &m_open.back().container;
        const BuilderValue* key = m_open.empty() || !parent->isContainer() || parent->kind != BuilderValue::Dict
            ? nullptr
            : &m_open.back().key;
        m_open.push_back({ m_builder.newContainer(isDict, parent, key), {} });
        return true;
    }
    bool close()
    {
        const BuilderValue done = m_open.back().container;
        m_open.pop_back();
        if (m_open.empty()) {
            m_builder.setRoot(done);
            return true;
        }
        return add(done);
    }
    bool add(const BuilderValue& v)
    {
        if (m_open.empty()) {
            m_builder.setRoot(v); // a scalar document: setRoot explains why it is not a snapshot
            return true;
        }
        const Open& parent = m_open.back();
        if (parent.container.kind == BuilderValue::Dict)
            m_builder.setItem(parent.container, parent.key, v);
        else
            m_builder.append(parent.container, v);
        return true;
    }

    SnapshotBuilder& m_builder;
    std::vector<Open> m_open;
};

} // namespace

JsonReader::JsonReader(InputStream& in, SnapshotBuilder& builder)
    : m_in(in)
    , m_builder(builder)
{ }

void JsonReader::run()
{
    WindowBuffer buffer(m_in);
    std::istream stream(&buffer);
    Handler handler(m_builder);
    try {
        nlohmann::json::sax_parse(stream, &handler);
    } catch (const SchemaError& e) {
        throw ReadError(std::string(e.what()) + " near byte " + std::to_string(buffer.offset()));
    }
}

} // namespace RankScope
