// SAGE particle systems and effect lists from INI (no Qt): `ParticleSystem NAME` (Generals, Zero Hour, BFME:
// ParticleSystem.ini), `FXParticleSystem NAME` with its module blocks (BFME II / RotWK: FXParticleSystem.ini) and
// `FXList NAME` (FXList.ini), read over the INI text layer of sage_ini.h into the project's one particle system type
// (particles/particle_system.h: one emitter a system, its SlaveSystem a second emitter; ParticleEmitter::sage holds
// the template, simulated by particle_sim.h).
//
// Contract: bad input is reported, never fatal and never guessed. A value that does not parse (a number, a
// Coord3D `X:1 Y:2 Z:3`, a colour `R:255 G:0 B:0 FRAME`, a Yes/No, a name of the field's list) is refused with its
// file, line and column in `errors`, and the field keeps its default. A field the reader does not know is kept in
// the emitter's `unknown` (its line as written, offset = the line number) with the warning
// `emitter 0 "NAME": field KEY at FILE:L:C not understood`, as the Alamo particle reader keeps unknown mini-chunks;
// a known field or module that the simulation does not follow is named in the emitter's `notSimulated`.
// A system defined twice keeps the later definition (INI_LOAD_OVERWRITE), with a warning.
#pragma once

#include "objects/sage_ini.h"
#include "particles/particle_system.h"

#include <glm/vec3.hpp>

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace rs::objects {

// One nugget of an FXList (a ParticleSystem nugget names a system; the others are kept by kind only).
struct FxNugget {
    std::string kind;   // "ParticleSystem", "Sound", "ViewShake", ... as written
    std::string system; // ParticleSystem: Name
    glm::vec3 offset{0.0f};
    std::string createBone; // CreateBoneOverride ("" when none)
    bool attachToObject = false;
    SourcePos pos;
};

struct FxList {
    std::string name;
    std::vector<FxNugget> nuggets;
    SourcePos pos;
};

class SageFxLibrary {
  public:
    // Reads the definitions among `nodes` (top-level INI nodes of any file); other blocks are ignored.
    void read(const std::vector<IniNode>& nodes);
    // Parses `bytes` (the file at game path `key`) with the INI text layer and reads it; the INI layer's errors
    // join `errors`.
    void readFile(ByteSpan bytes, const std::string& key, const vfs::MountTable* table = nullptr);

    // The system (case-insensitive), its SlaveSystem attached as emitter 1; null when not defined. The result is
    // built once a name and shared.
    std::shared_ptr<const ParticleSystem> find(const std::string& name) const;
    const FxList* fxList(const std::string& name) const;
    std::vector<std::string> systemNames() const; // as written, in name order
    size_t systemCount() const { return templates_.size(); }
    size_t fxListCount() const { return lists_.size(); }

    std::vector<std::string> errors;   // "<file>: field line L, column C: <message>"
    std::vector<std::string> warnings; // redefinitions; per-system warnings are in each system

  private:
    std::map<std::string, ParticleSystem> templates_; // upper-case name -> one-emitter system as read
    std::map<std::string, FxList> lists_;
    mutable std::map<std::string, std::shared_ptr<const ParticleSystem>> built_;
};

// Every particle system and FXList definition of a mounted game: the files DATA/INI/*PARTICLE*.INI and
// DATA/INI/*FXLIST*.INI of `table` (ParticleSystem.ini, FXParticleSystem.ini, FXList.ini), in key order.
std::shared_ptr<const SageFxLibrary> loadSageFx(const vfs::MountTable& table);

} // namespace rs::objects
