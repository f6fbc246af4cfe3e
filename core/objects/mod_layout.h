// Where the object definitions and the art of a mod are when its folder is laid out as sources rather than as the
// game reads it (a modder's working tree: INIs under mod/big/data/ini, art under mod/asis/art, each folder packed
// into its own .big by the build): the folders a few levels below the mounted ones that, mounted together as mods,
// make the game's layout. No Qt.
#pragma once

#include <string>
#include <vector>

namespace rs::vfs {
class MountTable;
}

namespace rs::objects {

struct ModLayout {
    // Folders on disk below a mounted folder (not the mounted folder itself) holding DATA/XML/GAMEOBJECTFILES.XML
    // (EaW/FoC) or DATA/INI/ files (SAGE), nearest first, then by name.
    std::vector<std::string> definitionFolders;
    // Folders on disk below a mounted folder holding ART/W3D/, ART/TEXTURES/, ART/COMPILEDTEXTURES/ (SAGE) or
    // DATA/ART/ (EaW/FoC) that are not already among definitionFolders, in the same order.
    std::vector<std::string> artFolders;
    bool empty() const { return definitionFolders.empty() && artFolders.empty(); }
};

// Looks at most `maxDepth` folder levels below each mounted folder (loose files only: an archive is what the game
// reads as it is).
ModLayout findModLayout(const vfs::MountTable& table, int maxDepth = 4);

// The one-line reason a mount has no object database, naming the folders to mount when findModLayout finds some:
//   "no object database (neither Data/XML/GameObjectFiles.xml nor data/ini/object/ at the top of the mounted
//    folders); the definitions are in A (data/ini) and the art in B: mount them together with --mod A --mod B"
std::string noObjectDatabaseMessage(const ModLayout& layout);

} // namespace rs::objects
