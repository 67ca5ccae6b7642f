// SPDX-License-Identifier: MIT
// The limit of one thread on a pickle: a walk over its opcodes that only steps over each argument (memo references
// in runs, as frame lists hold them, take a loop of their own, as in the reader) and writes one 8-byte item per
// opcode into a ring, as a thread handing decoded items to another would. No values, no memo, no builder: what any
// split of one file's parse has to pay before its second part can be numbered (protocol 4 counts the memo's entries
// only by walking from the start), and what a pipeline's first stage would cost. The file is mapped and read once
// before the walk is timed. Prints figures; asserts nothing.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

struct Walked
{
    double seconds = 0;
    uint64_t opcodes = 0;
    uint64_t memoized = 0;
    bool complete = false;
};

template <typename T> T readLE(const uint8_t* p)
{
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

Walked walk(const uint8_t* data, size_t size)
{
    std::vector<uint64_t> ring(size_t(1) << 17);
    const size_t mask = ring.size() - 1;
    size_t written = 0;
    const auto emit = [&](uint64_t item) { ring[written++ & mask] = item; };
    Walked out;
    const auto start = std::chrono::steady_clock::now();
    const uint8_t* p = data;
    const uint8_t* const end = data + size;
    // Stops 16 bytes early rather than checking each argument against the end: the walk is a measurement of
    // well-formed files, and its last opcodes do not change the time.
    const uint8_t* const last = size > 16 ? end - 16 : data;
    while (p < last) {
        const uint8_t op = *p++;
        ++out.opcodes;
        switch (op) {
        case '(': // MARK, then a run of memo references (a frame list's frames)
            while (p < last) {
                if (*p == 'h') {
                    emit(uint64_t(p[1]) << 8 | 'h');
                    p += 2;
                } else if (*p == 'j') {
                    emit(uint64_t(readLE<uint32_t>(p + 1)) << 8 | 'j');
                    p += 5;
                } else {
                    break;
                }
                ++out.opcodes;
            }
            emit(op);
            break;
        case 0x94: // MEMOIZE
            ++out.memoized;
            emit(op);
            break;
        case 'h': // BINGET, BINPUT, BININT1
        case 'q':
        case 'K':
            emit(uint64_t(p[0]) << 8 | op);
            p += 1;
            break;
        case 0x80: // PROTO
            p += 1;
            break;
        case 'M': // BININT2
            emit(uint64_t(readLE<uint16_t>(p)) << 8 | op);
            p += 2;
            break;
        case 'J': // BININT, LONG_BINGET, LONG_BINPUT
        case 'j':
        case 'r':
            emit(uint64_t(readLE<uint32_t>(p)) << 8 | op);
            p += 4;
            break;
        case 'G': // BINFLOAT, FRAME
        case 0x95:
            emit(op);
            p += 8;
            break;
        case 0x8a: // LONG1, SHORT_BINSTRING, SHORT_BINUNICODE, SHORT_BINBYTES: a 1-byte length
        case 'U':
        case 0x8c:
        case 'C':
            emit(uint64_t(p - data) << 8 | op);
            p += 1 + size_t(p[0]);
            break;
        case 'X': // BINUNICODE, BINSTRING, BINBYTES, LONG4: a 4-byte length
        case 'T':
        case 'B':
        case 0x8b:
            emit(uint64_t(p - data) << 8 | op);
            p += 4 + size_t(readLE<uint32_t>(p));
            break;
        case 0x8d: // BINUNICODE8, BINBYTES8, BYTEARRAY8: an 8-byte length
        case 0x8e:
        case 0x96:
            emit(uint64_t(p - data) << 8 | op);
            p += 8 + size_t(std::min<uint64_t>(readLE<uint64_t>(p), size));
            break;
        case '.': // STOP
            out.complete = true;
            p = end;
            break;
        default: // opcodes without an argument; protocol 0's text opcodes are not walked
            emit(op);
            break;
        }
    }
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    uint64_t mix = 0;
    for (uint64_t item : ring)
        mix ^= item;
    if (mix == 1) // keeps the ring's writes
        std::fputc(' ', stderr);
    return out;
}

} // namespace

int main(int argc, char** argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: bench_walk PICKLE [RUNS]\n");
        return 2;
    }
    const int fd = open(argv[1], O_RDONLY);
    struct stat st = {};
    if (fd < 0 || fstat(fd, &st) != 0 || st.st_size <= 0) {
        std::fprintf(stderr, "%s: cannot read the file\n", argv[1]);
        return 1;
    }
    const size_t size = size_t(st.st_size);
    void* mapped = mmap(nullptr, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
    if (mapped == MAP_FAILED) {
        std::fprintf(stderr, "%s: cannot map the file\n", argv[1]);
        return 1;
    }
    const auto* data = static_cast<const uint8_t*>(mapped);
    const int runs = argc > 2 ? std::max(1, std::atoi(argv[2])) : 3;
    std::vector<double> times;
    Walked walked;
    for (int i = 0; i < runs; ++i) {
        walked = walk(data, size);
        times.push_back(walked.seconds);
    }
    std::sort(times.begin(), times.end());
    const double median = times[times.size() / 2];
    std::printf("opcode walk                   %.3f s (median of %d)\n", median, runs);
    std::printf("opcodes                       %llu (%.2f ns each)%s\n",
        static_cast<unsigned long long>(walked.opcodes), median * 1e9 / double(std::max<uint64_t>(walked.opcodes, 1)),
        walked.complete ? "" : " (no STOP reached)");
    std::printf("MEMOIZE opcodes               %llu\n", static_cast<unsigned long long>(walked.memoized));
    munmap(mapped, size);
    close(fd);
    return 0;
}
