// libFuzzer target: EaW/FoC object XML (core/objects/eaw_xml) and the object database over it: the input is an
// object file listed by GameObjectFiles.xml and a hardpoint file, in an in-memory archive; every object is assembled
// (no model loading). Malformed XML is reported, never thrown, so any exception here is a finding.
#include "objects/eaw_xml.h"
#include "objects/object_db.h"
#include "vfs/archive_writer.h"
#include "vfs/mount.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const rs::ByteSpan in(data, size);
    const rs::objects::XmlFile x = rs::objects::parseObjectXml(in, "DATA/XML/FUZZ.XML");
    if (x.failed && x.error.empty()) std::abort();
    const std::vector<uint8_t> bytes(data, data + size);
    const std::string index = "<F><File>Fuzz.xml</File></F>";
    const std::string hp = "<F><File>Fuzz.xml</File></F>";
    rs::vfs::MountTable t;
    t.add(rs::vfs::openArchiveCopy(
              rs::ByteSpan(rs::vfs::writeMeg(
                  1, {{"DATA\\XML\\GAMEOBJECTFILES.XML", std::vector<uint8_t>(index.begin(), index.end())},
                      {"DATA\\XML\\HARDPOINTDATAFILES.XML", std::vector<uint8_t>(hp.begin(), hp.end())},
                      {"DATA\\XML\\FUZZ.XML", bytes}})),
              "fuzz.meg"),
          "archive");
    const auto db = rs::objects::ObjectDb::load(t);
    for (const auto& o : db->objects()) {
        try {
            db->assemble(o.name, rs::objects::ModelProbe());
        } catch (const rs::ParseError&) { // inheritance cycles are refused by name
        }
    }
    return 0;
}
