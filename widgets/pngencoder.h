// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>

class QImage;

namespace RankScope::PngEncoder {

/// A PNG of an opaque picture (8-bit RGB, any alpha dropped), its rows filtered and compressed in strips on every
/// core. An exported sheet is 3200 × 2000 pixels at scale 2, and libpng, through Qt, spends a whole core on it for
/// as long as the sheet took to draw, while the other cores wait. The bytes depend on the picture alone, never on
/// the number of cores: strips have a fixed height, and each is compressed with the rows before it as its
/// dictionary, so one zlib stream results, as libpng would write it.
QByteArray encode(const QImage& image);

} // namespace RankScope::PngEncoder
