// Shared by fuzz_meg / fuzz_big: open the input as an archive, hold every entry to the reader's contract
// (extent inside the input, lookup by its own name finds an entry with the same key) and read it.
#pragma once

#include "fuzz_common.h"
#include "vfs/archive.h"
#include "vfs/mount.h"

namespace rs::fuzz {

inline void exerciseArchive(const uint8_t* data, size_t size, const char* label) {
    auto a = vfs::openArchive(nullptr, ByteSpan(data, size), label);
    vfs::MountTable t;
    t.add(a, "archive");
    for (const vfs::Entry& e : a->entries()) {
        if (e.offset > size || e.size > size - e.offset) violated("entry extent", e.name);
        const vfs::Entry* f = a->find(e.name);
        if (!f || f->key != e.key) violated("lookup", e.name);
        if (!t.find(e.name)) violated("mount lookup", e.name);
        try {
            a->read(e);
        } catch (const ParseError&) {
        }
    }
    t.list("");
}

} // namespace rs::fuzz
