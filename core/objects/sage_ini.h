// SAGE INI (Generals, Zero Hour, BFME, BFME2, RotWK): the dialect's text layer and the Draw modules of objects.
//
// Text layer (EA's Generals source, Common/INI/INI.cpp; OpenSAGE, Data/Ini/IniParser.cs): one statement per line,
// `;` and `//` start comments, tokens are separated by whitespace and `=`, keys are case-insensitive, blocks end
// with `End`. `#include "FILE"` inserts FILE (relative to the including file; `\` or `/`), `#define NAME VALUE`
// defines a macro that later values use as a whole token. Which statements open a block depends on the field
// tables of the engine; here a fixed list of the block statements of objects and their modules stands for them
// (Object, ChildObject, ObjectReskin; Draw/Body/Behavior/ClientUpdate/ClientBehavior modules; the draw states;
// `Animation` inside animation states; WeaponSet, ArmorSet, LocomotorSet, ...). BeginScript ... EndScript keeps
// its lines as script text.
//
// Bad input is reported, never fatal: ParseError messages (file, line, column) collect in IniContext::errors and
// parsing goes on: an unclosed block is closed at the end of its file, a stray `End` is dropped, an `#include` that
// is missing, that leaves the mounted folders (`..\..\..\home\...`) or that includes itself again (a loop) is
// refused by name, a macro defined in terms of itself is left unexpanded and named. Work and memory are bounded by
// the budgets of common/text_budgets.h (file and line size, statements, inclusions, macro expansion), each refusal
// naming the file, line, column and budget; what was read before it is kept.
#pragma once

#include "common/bytes.h"
#include "common/warnings.h"
#include "objects/object_model.h"

#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace rs::vfs {
class MountTable;
}

namespace rs::objects {

struct IniNode {
    std::string key;                 // first token, as written
    std::vector<std::string> values; // further tokens (macros expanded; '=' dropped)
    bool equals = false;             // written as `key = ...`
    bool block = false;              // opened a block (children up to its End)
    std::vector<IniNode> children;
    std::string script; // BeginScript: the lines up to EndScript
    SourcePos pos;
};

struct IniContext {
    const vfs::MountTable* table = nullptr; // #include targets are read from it; null: includes are refused
    std::unordered_map<std::string, std::vector<std::string>> macros; // upper-case name -> value tokens
    std::vector<std::string> errors;                                  // one-line ParseError messages
    std::vector<std::string> included;                                // keys of files included (all files)
    std::unordered_set<std::string> includedSet;                      // the same, for lookups
    WarningLog warnings;
    size_t maxIncludeDepth = 16; // budget::kMaxIniIncludeDepth
    size_t maxErrors = 1000; // further errors are counted in warnings only
    void error(const ParseError& e);
};

// Parses `bytes`, the INI file at game path `key` (a normalizePath key: includes resolve against its folder).
// Top-level statements in order; `#define`s are added to ctx.macros as they are met.
std::vector<IniNode> parseIni(ByteSpan bytes, const std::string& key, IniContext& ctx);

// Reads only the `#define` lines of a file (e.g. DATA/INI/GAMEDATA.INI) into ctx.macros.
void readIniDefines(ByteSpan bytes, const std::string& key, IniContext& ctx);

// Case-insensitive key comparison.
bool keyIs(const IniNode& n, const char* key);

// Interprets a Draw module node (`Draw = TYPE TAG` ... End).
DrawModule readDrawModule(const IniNode& draw);

// Sub-object names a BeginScript text hides / shows: CurDrawableHideSubObject("X"),
// CurDrawableHideSubObjectPermanently("X"), CurDrawableShowSubObject("X"), CurDrawableShowSubObjectPermanently("X").
void scriptSubObjects(const std::string& script, std::vector<std::string>& hidden, std::vector<std::string>& shown);

} // namespace rs::objects
