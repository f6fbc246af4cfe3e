// Writing a file without ever leaving a damaged one: the bytes go to a temporary file in the destination's folder,
// are flushed to disk, read back and checked, and only then renamed over the destination (an atomic replace on
// one file system). A failure at any step removes the temporary file and leaves the destination as it was.
#pragma once

#include "common/bytes.h"

#include <functional>
#include <string>

namespace rs {

// Writes `bytes` to `path` as above. `check` receives the bytes read back from the temporary file and throws
// (any exception) when they are not acceptable; it may be empty. Throws ParseError naming `path` and the step that
// failed (create, write, flush, read back, check, rename) with the system's reason; rethrows check's ParseError
// unchanged.
void writeFileSafely(const std::string& path, ByteSpan bytes, const std::function<void(ByteSpan)>& check = {});

} // namespace rs
