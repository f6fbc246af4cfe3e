// Budgets of the readers of text a mod ships (EaW object XML, SAGE INI and .inc) and of what is built from it (the
// object database): the work and memory a definition file may cost, whatever it holds. docs/HARDENING.md lists them
// with the measurements that chose them. Every refusal names the file, line and column (or what was reached), the
// budget by its number, and what was kept; the rest of the file (where it makes sense) and of the mod is still read.
//
// Sizes met in real mods (corpus, 2026-11): the largest EaW XML file 579 KB (18,665 elements), the largest SAGE INI
// 465 KB (18,781 lines), inheritance chains under 10, hardpoint lists under 100 names, include depth 3.
#pragma once

#include <cstddef>
#include <cstdint>

namespace rs::budget {

// --- EaW XML (objects/eaw_xml.cpp), per file ------------------------------------------------------------------
constexpr uint64_t kMaxXmlBytes = uint64_t(64) << 20; // the file is refused whole above it
// Markup counted before the tree is built ('<' and attribute '=' signs): the file is read up to the element that
// passes the budget (the objects before it are kept).
constexpr size_t kMaxXmlElements = 500000;
constexpr size_t kMaxXmlAttributes = 500000;
// Text copied out of the tree: one value (an element's text with that of its nested elements) is cut here ...
constexpr size_t kMaxXmlValueBytes = size_t(1) << 20;
// ... and all values of a file together stop here (nested elements repeat their parents' text).
constexpr uint64_t kMaxXmlTextBytes = uint64_t(64) << 20;
constexpr size_t kMaxXmlFieldsPerObject = 65536; // tags of one object (nested ones included)

// --- SAGE INI and .inc (objects/sage_ini.cpp), per top-level file with everything it includes -----------------------
constexpr uint64_t kMaxIniFileBytes = uint64_t(16) << 20;  // one file (a top-level INI or an included .inc)
constexpr uint64_t kMaxIniParseBytes = uint64_t(64) << 20; // a file and all it includes, counted per inclusion
constexpr size_t kMaxIniLineBytes = size_t(64) << 10;      // a longer line is skipped
constexpr size_t kMaxIniStatements = 100000;               // statements kept; the rest of the parse is skipped
constexpr size_t kMaxIniIncludes = 256;                    // #include lines followed
constexpr size_t kMaxIniIncludeDepth = 16;                 // #include nesting
constexpr size_t kMaxMacroDepth = 8;                       // a #define naming another, nesting
constexpr size_t kMaxMacroTokens = 1024;                   // tokens one value expands to
constexpr uint64_t kMaxMacroBytes = uint64_t(1) << 20;     // bytes all expansions of a parse produce

// --- Object database (objects/object_db.cpp) -------------------------------------------------------------------
constexpr size_t kMaxListItems = 4096;      // names in one list value (<HardPoints>, <Death_Clone>, ...)
constexpr size_t kMaxInheritanceDepth = 64; // Variant_Of_Existing_Type / ChildObject / ObjectReskin parents

} // namespace rs::budget
