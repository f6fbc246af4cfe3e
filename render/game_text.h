// Names stored in the games' files (CP-1252 bytes, core/common/cp1252.h) as Qt display text. Only for showing
// a name: a name that finds a file or a texture stays the file's bytes.
#pragma once

#include "common/cp1252.h"

#include <QString>

#include <string>

namespace rs {

inline QString gameText(const std::string& name) { return QString::fromStdString(cp1252ToUtf8(name)); }

} // namespace rs
