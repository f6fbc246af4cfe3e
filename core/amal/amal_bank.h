// AMOS AMAL banks: recorded movements, AMAL programs and the environment string, read from
// .abk bank files and from the bank section of .AMOS sources. Big-endian throughout.
//
//   .abk           "AmBk" bank | "AmSp"/"AmIc" image bank | "AmBs" u16 n + n banks
//                  | a bare Amal payload (ripped without header: accepted with a warning)
//   .AMOS          "AMOS Basic V1.3 " (16) | u32 codeLen | code | "AmBs" u16 n | n banks
//   AmBk bank      0 "AmBk" | 4 u16 number | 6 u16 flags | 8 u32 length (bits 0-27, from +12)
//                  12 char[8] type ("Amal    ") | 20 payload (length - 8 bytes)
//   AmSp/AmIc      "AmSp" | u16 n | n x (u16 wWords, h, depth, hotX, hotY, wWords*2*h*depth bytes)
//                  | 32 u16 palette
//   Amal payload P:
//     P+0  u32 offset of the programs section from P (0 = no programs)
//     P+4  u16 N movements | N u16 record offsets (words from P+4, entry n at P+4+2n; 0 = empty)
//          | N u16 record lengths (bytes) | N char[8] names
//     record R: u16 speed (1/50 s per step) | u16 yOff | R+4: 0 | R+5 X steps .. 0
//               R+yOff: 0 | R+yOff+1 Y steps .. 0
//          step byte 0x01-0x7F: move by the 7-bit signed value (-64..63);
//          0x80|k: pause for k+1 steps (AmPlay: +W.s)
//     programs S: u16 count | count+1 u16 offsets (words from S+2; 0 = empty)
//          | u16 len + environment text | programs: u16 len + text ('~' separates lines)
#pragma once

#include "common/bytes.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace rs::amal {

struct Movement {
    int index = 0;               // 1-based, as PLay numbers movements
    std::string name;            // trailing spaces removed
    bool defined = false;        // false: empty slot (offset 0)
    uint16_t speed = 0;          // ticks (1/50 s) per step
    uint16_t storedLength = 0;   // from the length table
    std::vector<uint8_t> xSteps; // step bytes without the 0 terminators
    std::vector<uint8_t> ySteps;
    uint64_t offset = 0; // absolute file offset of the record
};

// Steps (time slots) a stream takes when played forwards: 1 per move byte, k+1 per pause 0x80|k.
int streamSteps(const std::vector<uint8_t>& steps);
// Sum of the move bytes of a stream (the displacement once it is fully played).
int streamSum(const std::vector<uint8_t>& steps);
// Signed value of a move byte (0x01-0x7F).
inline int stepValue(uint8_t b) { return (b & 0x40) ? int(b & 0x7F) - 128 : int(b & 0x7F); }

struct Program {
    int index = 0;       // 0-based, as `Amal n,#p` numbers programs
    std::string text;    // raw text, '~' separates lines
    uint64_t offset = 0; // absolute offset of the length word
};

struct Bank {
    int number = 0;
    uint16_t flags = 0;
    uint64_t offset = 0; // absolute offset of the "AmBk" header (or of the payload if headerless)
    uint64_t payloadOffset = 0;
    int movementSlots = 0;
    std::vector<Movement> movements; // one per slot, index 1..movementSlots
    int programSlots = 0;            // count+1 slots
    std::vector<Program> programs;   // one per slot, index 0..programSlots-1
    std::string environment;
    std::vector<std::string> warnings;

    const Movement* movement(int index) const; // null when out of range or empty
    const Program* program(int index) const;   // null when out of range
    int definedMovements() const;
    int nonEmptyPrograms() const;
};

struct OtherBank {
    std::string kind; // "AmBk", "AmSp", "AmIc"
    int number = 0;   // AmBk bank number; 1 for sprites, 2 for icons
    std::string type; // AmBk type name (trimmed), "Sprites", "Icons"
    uint64_t offset = 0;
    uint64_t length = 0; // bytes from the marker to the end of the bank
    int images = 0;      // AmSp/AmIc
};

// One image of a sprite (AmSp) or icon (AmIc) bank: `depth` bit-planes stored one after the other,
// each `height` rows of `widthWords` big-endian words, leftmost pixel in the top bit.
struct AmosImage {
    int widthWords = 0, height = 0, depth = 0;
    int hotX = 0, hotY = 0; // hot spot as stored
    std::vector<uint8_t> data;
    int width() const { return widthWords * 16; }
    // Colour index of pixel (x, y); 0 (transparent) outside the image.
    int colorAt(int x, int y) const;
};

struct ImageBank {
    bool icons = false;
    uint64_t offset = 0;
    std::vector<AmosImage> images;      // AMOS image n = images[n - 1]
    std::array<uint16_t, 32> palette{}; // Amiga $0RGB
};

struct BankFile {
    std::string path;
    std::string container; // "abk", "amos" (source), "banks" (AmBs), "raw" (headerless Amal payload)
    std::vector<Bank> amalBanks;
    std::vector<OtherBank> otherBanks;
    std::vector<ImageBank> imageBanks; // decoded AmSp/AmIc banks (also listed in otherBanks)
    std::vector<std::string> warnings;
};

// Reads every bank of an .abk / .AMOS file. Throws ParseError (file, section, offset) on malformed
// structure. A well-formed file without an Amal bank returns amalBanks empty.
BankFile readBankFile(ByteSpan bytes, const std::string& file);

// Parses one Amal payload (the bytes after the 20-byte AmBk header). payloadOffset is its absolute offset.
Bank readAmalPayload(ByteSpan payload, const std::string& file, uint64_t payloadOffset);

// True when the path ends in .abk (any case).
bool hasAbkExtension(const std::string& path);

// True when the bytes look like an AMOS bank file or source (magic only).
bool looksLikeAmosContainer(ByteSpan bytes);

// The first Amal bank; throws ParseError naming the file and the banks it does hold when there is none.
const Bank& requireAmalBank(const BankFile& f);

// One line describing the other banks ("Sprites bank 1 (5 images) at 0x0, ...").
std::string describeOtherBanks(const BankFile& f);

} // namespace rs::amal

#include "common/source_tree.h"

#include <memory>

namespace rs::amal {

// The source tree of an AMOS bank file or source (no chunks): each bank ("amal bank N" with its "header" and
// "program N" fields, "AmBk bank N", "sprite bank", "icon bank"), gaps as Raw. A file readBankFile refuses is one
// Raw node naming why. Never throws on bad input.
SourceTree sourceTree(std::shared_ptr<const std::vector<uint8_t>> bytes, const std::string& label);

} // namespace rs::amal
