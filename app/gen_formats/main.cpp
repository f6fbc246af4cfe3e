// Build-time generator of the desktop-integration files that list formats, from the format registry
// (core/formats/formats.h), so that they cannot disagree with what the programs open:
//   gen_formats mime OUT.xml                  shared-mime-info package
//   gen_formats template IN OUT               IN with @MIME_TYPES@ (every type) and @THUMBNAIL_MIME_TYPES@ replaced
#include "formats/formats.h"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

static std::string replaceAll(std::string s, const std::string& from, const std::string& to) {
    for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
        s.replace(at, from.size(), to);
    return s;
}

static int write(const std::string& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary);
    out << text;
    if (!out) {
        std::fprintf(stderr, "gen_formats: cannot write %s\n", path.c_str());
        return 1;
    }
    return 0;
}

int main(int argc, char** argv) {
    const std::string mode = argc > 1 ? argv[1] : "";
    if (mode == "mime" && argc == 3) return write(argv[2], rs::mimeInfoXml());
    if (mode == "template" && argc == 4) {
        std::ifstream in(argv[2], std::ios::binary);
        std::stringstream ss;
        ss << in.rdbuf();
        if (!in) {
            std::fprintf(stderr, "gen_formats: cannot read %s\n", argv[2]);
            return 1;
        }
        std::string t = replaceAll(ss.str(), "@MIME_TYPES@", rs::desktopMimeTypes());
        t = replaceAll(t, "@THUMBNAIL_MIME_TYPES@", rs::thumbnailerMimeTypes());
        return write(argv[3], t);
    }
    std::fprintf(stderr, "usage: gen_formats mime OUT.xml | gen_formats template IN OUT\n");
    return 2;
}
