// SPDX-License-Identifier: MIT
#include "jsonreader.h"

#include <nlohmann/json.hpp>

#include <istream>
#include <streambuf>

namespace RankScope {

namespace {

// Feeds the InputStream window to std::istream without copying; each refill reports progress.
class WindowBuffer : public std::streambuf
{
public:
    explicit WindowBuffer(InputStream& in)
        : m_in(in)
    {
        setWindow();
    }
    uint64_t offset() const
    {
        return m_in.offsetOf(reinterpret_cast<const uint8_t*>(gptr()));
    }

protected:
    int_type underflow() override
    {
        m_in.cur = m_in.end;
        m_in.reportProgress();
        if (!m_in.refill(1))
            return traits_type::eof();
        setWindow();
        return traits_type::to_int_type(*gptr());
    }

private:
    void setWindow()
    {
        auto* b = reinterpret_cast<char*>(const_cast<uint8_t*>(m_in.cur));
        setg(b, b, b + (m_in.end - m_in.cur));
    }
    InputStream& m_in;
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
