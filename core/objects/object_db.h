// The object database of a mounted game or mod (no Qt): every object definition, indexed by name, and an object
// assembled on demand into the models it shows, where they attach, its states and animations, and every reference
// that did not resolve.
//
// Empire at War / Forces of Corruption: DATA/XML/GAMEOBJECTFILES.XML and the files it lists, DATA/XML/
// HARDPOINTDATAFILES.XML and its files, each found through the mount table (mod over game, like MegaFiles.xml).
// `Variant_Of_Existing_Type` inherits the parent's tags; a tag the variant writes replaces all of the parent's
// occurrences of it (ModVerify's GameObjectTypeGameManager resolves variants the same way, in up to 10 passes).
// SAGE: every DATA/INI/OBJECT/**.INI (the macros of DATA/INI/GAMEDATA.INI first); `ChildObject NAME PARENT` and
// `ObjectReskin NAME PARENT` start from the parent's modules, a module with the parent's tag replaces it.
//
// A mod folder mounted alone is valid: objects whose parents, hardpoints or models live in the base game are listed
// with what is missing. Malformed files are listed in errors() with file, line and column; the rest loads. An
// object that inherits from itself (directly or through others) is refused by name.
#pragma once

#include "common/warnings.h"
#include "objects/model_probe.h"
#include "objects/object_model.h"

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace rs::vfs {
class MountTable;
}

namespace rs::objects {

struct ObjectSummary {
    std::string name;   // as written
    std::string type;   // SpaceUnit, GroundVehicle, ... / Object, ChildObject, ObjectReskin
    std::string parent; // Variant_Of_Existing_Type / ChildObject parent, "" when none
    std::string side;   // <Affiliation> (EaW, as written) / `Side = X` (SAGE); "" when the definition names none
    SourcePos pos;
};

class ObjectDb {
  public:
    enum class Family { None, Alamo, Sage };

    // Indexes every object definition of the table (EaW/FoC when DATA/XML/GAMEOBJECTFILES.XML is present, else SAGE
    // when DATA/INI/ holds files). Never throws for bad definition files (see errors()).
    static std::shared_ptr<const ObjectDb> load(const vfs::MountTable& table);

    Family family() const { return family_; }
    const std::vector<ObjectSummary>& objects() const { return objects_; }
    const ObjectSummary* find(const std::string& name) const; // case-insensitive
    // Malformed files and refused references (include loops, inheritance cycles): one-line ParseError messages.
    const std::vector<std::string>& errors() const { return errors_; }
    const WarningLog& warnings() const { return warnings_; }
    const std::vector<std::string>& filesRead() const { return filesRead_; }
    // Files an index lists that no mounted folder holds ("DATA/XML/X.XML"), as keys.
    const std::vector<std::string>& filesMissing() const { return filesMissing_; }
    uint64_t bytesRead() const { return bytesRead_; }

    // The object with its parts; models are looked up through the table and examined with `probe` (bones,
    // sub-objects, clips). Throws ParseError when no object has that name or it inherits from itself.
    AssembledObject assemble(const std::string& name, const ModelProbe& probe) const;

    ~ObjectDb();
    struct Impl;

  private:
    ObjectDb();
    const vfs::MountTable* table_ = nullptr;
    Family family_ = Family::None;
    std::vector<ObjectSummary> objects_;
    std::unordered_map<std::string, size_t> byName_; // upper-case name -> objects_ index
    std::vector<std::string> errors_, filesRead_, filesMissing_;
    WarningLog warnings_;
    uint64_t bytesRead_ = 0;
    std::unique_ptr<Impl> impl_;
};

// Game path of a model name as the game looks it up: Alamo "X.ALO" (".ALO" added when there is no extension) in
// DATA/ART/MODELS/; W3D "X" as ART/W3D/<first two letters>/X.W3D, ART/W3D/X.W3D, else any key ending in
// /W3D/<xx>/X.W3D (a mod's working tree keeps art under another top folder). "" when the table has none.
std::string findModelKey(const vfs::MountTable& table, const std::string& name, bool alamo);

} // namespace rs::objects
