// SAGE INI references the objects pass does not follow (Generals, Zero Hour, BFME): command sets naming command
// buttons, objects naming command sets and mapped images (SelectPortrait, ButtonImage), command buttons naming
// objects and mapped images, mapped images naming texture files. Part of check::checkMount's object pass (no Qt).
#pragma once

#include "check/check.h"

#include <string>
#include <vector>

namespace rs::vfs {
class MountTable;
}

namespace rs::check {

// Reads every DATA/INI/**.INI of the mount once (commandset.ini, commandbutton.ini, mappedimages/*.ini, object/*.ini
// and any other file holding those blocks) and adds an ini.* finding for each name that no block defines. Texture
// files of mapped images that resolve are added to `referenced` (they are not unreferenced). A kind of definition
// the mount holds none of (a mod without the base game's CommandButton.ini) is not judged.
void checkSageCommands(const vfs::MountTable& table, std::vector<Finding>& out, std::vector<std::string>& referenced);

// The catalogue rows of the ini.* ids (check.cpp appends them to catalog()).
const std::vector<CheckInfo>& sageCommandChecks();

} // namespace rs::check
