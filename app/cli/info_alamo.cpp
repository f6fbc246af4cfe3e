#include "commands.h"

namespace rs::cli {

void infoAlamo(const Document& doc, Json& j) { throw ParseError(doc.path, {}, 0, "alamo info not yet built"); }

} // namespace rs::cli
