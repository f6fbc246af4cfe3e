// Empire at War / Forces of Corruption object XML (Data/XML/GameObjectFiles.xml and the files it lists, hardpoint
// files), read with Debian's pugixml.
//
// Tolerated as the engine's reader tolerates it (AlamoEngine-Tools/PetroglyphTools, PG.StarWarsGame.Engine: tags
// are matched by the CRC32 of their upper-cased name, object names likewise): tag and attribute names in any case,
// comments anywhere, stray text between elements, values padded with whitespace. Every child element of the root
// with a Name attribute is an object; its element name is its type (SpaceUnit, GroundVehicle, HardPoint, ...).
//
// Hostile input: no DTD is read and no entity is expanded (pugixml skips <!DOCTYPE ...> and leaves unknown
// &name; references as text), so neither billion-laughs nor external entities apply. A malformed file gives a
// ParseError with file, line and column; what was read before the fault is kept (the partial tree).
#pragma once

#include "common/bytes.h"
#include "common/text_budgets.h"
#include "objects/object_model.h"

#include <string>
#include <vector>

namespace rs::objects {

struct XmlField {
    std::string tag;   // as written
    std::string upper; // upper-case tag, for lookups
    std::string value; // text content, trimmed
    SourcePos pos;
};

struct XmlObject {
    std::string type; // element name as written
    std::string name; // Name attribute, trimmed
    SourcePos pos;
    std::vector<XmlField> fields; // child elements in file order (nested elements: their text only)
    std::vector<XmlField> nested; // elements inside the child elements (ability blocks, ...), in file order

    // Fields whose tag equals `upperTag` (upper case), in order.
    std::vector<const XmlField*> all(const std::string& upperTag) const;
    // The last field with that tag (later occurrences win, as the engine overwrites single values); null if none.
    const XmlField* last(const std::string& upperTag) const;
};

struct XmlFile {
    std::string key;
    std::string root; // root element name
    std::vector<XmlObject> objects;
    std::vector<std::string> fileEntries; // <File> values (index files such as GameObjectFiles.xml), trimmed
    bool failed = false;                  // malformed: `error` holds the message, objects hold what was read
    std::string error;                    // ParseError::what() of the fault
    // Budgets of common/text_budgets.h that the file passed (one-line ParseError messages naming the place and the
    // budget): markup past kMaxXmlElements / kMaxXmlAttributes (the file is read up to there: `failed` is set and
    // `error` says so), values cut at kMaxXmlValueBytes, text past kMaxXmlTextBytes, tags past kMaxXmlFieldsPerObject.
    std::vector<std::string> refused;
};

// Parses one XML file. Never throws for malformed XML (see XmlFile::failed); throws ParseError only when the
// file is larger than kMaxXmlBytes. Work and memory are bounded by the budgets of common/text_budgets.h (see
// XmlFile::refused): a few times the file's size at most.
XmlFile parseObjectXml(ByteSpan bytes, const std::string& key);
constexpr size_t kMaxXmlBytes = size_t(budget::kMaxXmlBytes);

// Splits a list value ("HP_A, HP_B\n HP_C") at commas and whitespace; empty items dropped. At most maxItems items;
// `cut` (when given) tells whether more were there.
std::vector<std::string> splitList(const std::string& value, size_t maxItems = budget::kMaxListItems,
                                   bool* cut = nullptr);

} // namespace rs::objects
