// The source tree of AMOS bank files (read, edit, write: docs/ARCHITECTURE.md).
#include "amal/amal_bank.h"

#include <algorithm>

namespace rs::amal {

SourceTree sourceTree(std::shared_ptr<const std::vector<uint8_t>> bytes, const std::string& label) {
    BankFile f;
    try {
        f = readBankFile(ByteSpan(*bytes), label);
    } catch (const ParseError& e) {
        SourceTree t = wholeFileTree(bytes, label, "unparsed file");
        if (!t.roots().empty()) t.roots().front().quirk = e.what();
        return t;
    }
    std::vector<FieldSpan> s;
    for (const Bank& b : f.amalBanks) {
        FieldSpan bank{"amal bank " + std::to_string(b.number), b.offset, b.offset, {}};
        if (b.payloadOffset > b.offset) bank.children.push_back({"header", b.offset, b.payloadOffset, {}});
        uint64_t end = b.payloadOffset;
        std::vector<FieldSpan> progs;
        for (const Program& p : b.programs)
            if (p.offset)
                progs.push_back({"program " + std::to_string(p.index), p.offset, p.offset + 2 + p.text.size(), {}});
        std::sort(progs.begin(), progs.end(), [](const FieldSpan& a, const FieldSpan& c) { return a.begin < c.begin; });
        for (FieldSpan& p : progs) {
            end = std::max(end, p.end);
            bank.children.push_back(std::move(p));
        }
        bank.end = end;
        s.push_back(std::move(bank));
    }
    for (const OtherBank& o : f.otherBanks)
        s.push_back({o.kind == "AmBk" ? "AmBk bank " + std::to_string(o.number) : o.kind + " bank",
                     o.offset,
                     o.offset + o.length,
                     {}});
    std::sort(s.begin(), s.end(), [](const FieldSpan& a, const FieldSpan& c) { return a.begin < c.begin; });
    SourceTree t(bytes, label);
    t.roots() = fieldNodes(s, 0, bytes->size());
    return t;
}

} // namespace rs::amal
