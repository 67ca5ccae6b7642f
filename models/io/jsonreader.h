// SPDX-License-Identifier: MIT
#pragma once

#include "inputstream.h"
#include "snapshotbuilder.h"

namespace RankScope {

/// Reads snapshots saved as JSON (the official viewer accepts them) with nlohmann_json's SAX parser, so no document
/// tree of a large file is ever held; values go straight into a SnapshotBuilder.
class JsonReader
{
public:
    JsonReader(InputStream& in, SnapshotBuilder& builder);
    /// Throws ReadError (with the byte offset) or ReadCancelled.
    void run();

private:
    InputStream& m_in;
    SnapshotBuilder& m_builder;
};

} // namespace RankScope
