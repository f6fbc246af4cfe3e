// The W3X reader's entry points in builds without pugixml (RIGSCOPE_WEB: Debian ships no WebAssembly build of
// it). A W3X file is still recognised (w3x_sniff.cpp) and refused with a ParseError naming the file and why, so
// that the format registry, the resolver and the page say what happened instead of guessing.
#include "common/error.h"
#include "w3x/w3x_reader.h"

namespace rs::w3x {

namespace {
[[noreturn]] void refuse(const std::string& label) {
    throw ParseError(label, {}, 0,
                     "SAGE W3X (XML) is not read by this build: it was made without the XML parser "
                     "(pugixml); open the file in the desktop viewer");
}
} // namespace

File readFile(ByteSpan, const std::string& label) { refuse(label); }

Document loadSet(ByteSpan, const std::string& label, const Lookup&) { refuse(label); }

// Nothing is declared as far as this build can tell (lookups then find no W3X companion).
DeclarationScan scanDeclarations(ByteSpan) { return {}; }

} // namespace rs::w3x
