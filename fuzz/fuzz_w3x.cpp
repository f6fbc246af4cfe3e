// libFuzzer target: SAGE W3X (XML art) through the format registry's reader (readDocument) with a .w3x name; every
// Include and declaration lookup answers with the input itself, so that the merge of looked-up files is fuzzed too.
#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    auto self = std::make_shared<const std::vector<uint8_t>>(data, data + size);
    rs::ReadContext context;
    context.label = "fuzz.w3x";
    context.w3x.include = [self](const std::string&, const std::string&) {
        return std::optional<rs::w3x::Source>({"inc.w3x", self});
    };
    context.w3x.declaration = [self](const std::string&, const std::string&) {
        return std::optional<rs::w3x::Source>({"decl.w3x", self});
    };
    return rs::fuzz::run([&] { rs::fuzz::exerciseDocument(rs::readDocument(rs::ByteSpan(data, size), context)); });
}
