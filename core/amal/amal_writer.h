// Writer for synthetic AMOS banks and sources (test fixtures). Produces the layout of amal_bank.h
// the way the AMOS AMAL editor saves it: records and programs word-aligned, offsets in words.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace rs::amal {

struct MovementSpec {
    bool defined = true;
    std::string name; // up to 8 characters, padded with spaces
    uint16_t speed = 1;
    std::vector<uint8_t> x; // step bytes without terminators (no 0 bytes)
    std::vector<uint8_t> y;
};

struct BankSpec {
    int number = 4;
    std::vector<MovementSpec> movements; // slot n+1 = movements[n]
    bool withPrograms = true;
    std::vector<std::string> programs; // slot i = programs[i] ("" = empty slot); count = size - 1
    std::string environment;
};

// Step byte for a move of v pixels (-64..63, not 0).
uint8_t moveByte(int v);
// Step byte for a pause of n steps (1..128).
uint8_t pauseByte(int n);

std::vector<uint8_t> writeAmalPayload(const BankSpec& spec);
// "AmBk" header (number, flags 1, length, "Amal    ") + payload.
std::vector<uint8_t> writeAmalBank(const BankSpec& spec);
// A generic AmBk memory bank with the given type name and payload size (zero-filled).
std::vector<uint8_t> writeMemoryBank(int number, const std::string& type, size_t payloadBytes);
// "AmSp" (or "AmIc") image bank with `images` images of 1 word x h lines x 2 planes, and a palette
// (colour c = $111 * c). Image i (0-based): plane 0 bytes $5A+i, plane 1 bytes ~($5A+i).
std::vector<uint8_t> writeImageBank(int images, int height, bool icons = false);
// One image for writeImageBank: `depth` planes one after the other, each `height` rows of `widthWords`
// big-endian words (leftmost pixel in the top bit), as amal_bank.h reads them.
struct ImageSpec {
    int widthWords = 1, height = 1, depth = 1;
    int hotX = 0, hotY = 0;
    std::vector<uint8_t> planes; // depth * height * widthWords * 2 bytes
};
// An image whose every pixel has colour index `colour` (0..2^depth-1).
ImageSpec solidImage(int widthWords, int height, int depth, int colour);
// "AmSp" (or "AmIc") image bank with the given images and palette (Amiga $0RGB).
std::vector<uint8_t> writeImageBank(const std::vector<ImageSpec>& images, const std::array<uint16_t, 32>& palette,
                                    bool icons = false);
// An .AMOS source: "AMOS Basic V134 " header, `codeBytes` of placeholder code, "AmBs" and the banks.
std::vector<uint8_t> writeAmosSource(const std::vector<std::vector<uint8_t>>& banks, size_t codeBytes = 16);

} // namespace rs::amal
