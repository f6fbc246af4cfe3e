// libFuzzer target: SAGE INI (core/objects/sage_ini) and the object database over it: the input is an object INI
// (which may #include itself or fuzz.inc, also the input) in an in-memory archive; every object is assembled (no
// model loading) and each draw module's state is picked for a few flag sets. Bad INI is reported, never thrown.
#include "objects/object_db.h"
#include "objects/sage_ini.h"
#include "vfs/archive_writer.h"
#include "vfs/mount.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::vector<uint8_t> bytes(data, data + size);
    rs::vfs::MountTable t;
    t.add(rs::vfs::openArchiveCopy(rs::ByteSpan(rs::vfs::writeBig({{"data\\ini\\object\\fuzz.ini", bytes},
                                                                   {"data\\ini\\object\\fuzz.inc", bytes}})),
                                   "fuzz.big"),
          "archive");
    const auto db = rs::objects::ObjectDb::load(t);
    for (const auto& o : db->objects()) {
        try {
            const rs::objects::AssembledObject a = db->assemble(o.name, rs::objects::ModelProbe());
            for (const rs::objects::DrawModule& d : a.draws)
                for (const auto& flags : std::vector<std::vector<std::string>>{{}, {"DAMAGED"}, {"SNOW", "NIGHT"}}) {
                    const int m = rs::objects::selectState(d, flags);
                    const int s = rs::objects::selectState(d, flags, true);
                    if (m >= int(d.states.size()) || s >= int(d.states.size())) __builtin_trap();
                }
        } catch (const rs::ParseError&) { // inheritance cycles are refused by name
        }
    }
    return 0;
}
