#include "corpus.h"

#include "scene/model.h"

#include <algorithm>
#include <cstdlib>

namespace rs::test {

std::string corpusDir() {
    const char* env = std::getenv("RIGSCOPE_CORPUS");
    std::string d = env && *env ? env : RIGSCOPE_CORPUS_DIR;
    std::error_code ec;
    return std::filesystem::is_directory(d, ec) ? d : std::string();
}

std::vector<std::string> corpusFiles(const std::string& sub, const std::vector<std::string>& exts) {
    std::vector<std::string> out;
    const std::string root = corpusDir();
    if (root.empty()) return out;
    std::error_code ec;
    for (std::filesystem::recursive_directory_iterator it(root + "/" + sub, ec), end; !ec && it != end;
         it.increment(ec)) {
        if (!it->is_regular_file(ec)) continue;
        const std::string ext = rs::toLower(it->path().extension().string());
        if (std::find(exts.begin(), exts.end(), ext) != exts.end()) out.push_back(it->path().string());
    }
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace rs::test
