#include "alamo/alamo_reader.h"

namespace rs::alamo {

Model readModel(ByteSpan, const std::string& file) { throw ParseError(file, {}, 0, "ALO reader not yet built"); }
Clip readClip(ByteSpan, const std::string& file) { throw ParseError(file, {}, 0, "ALA reader not yet built"); }

} // namespace rs::alamo
