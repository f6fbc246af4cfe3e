// The project's MEG (versions 1-3) and BIG writers: `rigscope-cli pack DIR`, test fixtures, fake game installs,
// benchmarks. (An archive written back with entries replaced keeps its own layout: vfs/archive.h, repackArchive.)
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace rs::vfs {

struct WriteEntry {
    std::string name; // stored as given (MEG: UTF-8 converted to Latin-1 where possible)
    std::vector<uint8_t> data;
};

// Index of an archive whose entries have the given names and sizes, laid out in order after the index:
// `index` is the archive's first bytes, offsets[i] where entry i's data goes, total the archive size.
struct ArchiveLayout {
    std::vector<uint8_t> index;
    std::vector<uint64_t> offsets;
    uint64_t total = 0;
};
// version 1, 2 or 3 (unencrypted). Records sorted by name CRC, as the games expect.
ArchiveLayout layoutMeg(int version, const std::vector<std::string>& names, const std::vector<uint64_t>& sizes);
// magic "BIGF" or "BIG4".
ArchiveLayout layoutBig(const std::vector<std::string>& names, const std::vector<uint64_t>& sizes,
                        const char* magic = "BIGF");

// B&W2 .stuff: the entries' data in order from offset 0, then the directory (268 bytes an entry: the name in 256
// bytes NUL-padded, offset, size, `unknown`), then the directory's offset in the last 4 bytes. Names of 256 bytes
// or more are refused (std::invalid_argument).
std::vector<uint8_t> writeStuff(const std::vector<WriteEntry>& entries, uint32_t unknown = 0);
// Orders entries as the games' MEG tools store them: by the CRC-32 of the stored (Latin-1) name, ties by name.
// writeMeg then writes the name table, the records and the data all in that order.
void sortForMeg(std::vector<WriteEntry>& entries);
// Orders entries as EA's BIG tools store them: by name ignoring ASCII case, ties by the bytes.
void sortForBig(std::vector<WriteEntry>& entries);

std::vector<uint8_t> writeMeg(int version, const std::vector<WriteEntry>& entries);
std::vector<uint8_t> writeBig(const std::vector<WriteEntry>& entries, const char* magic = "BIGF");

} // namespace rs::vfs
