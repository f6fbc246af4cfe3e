// rigscope-cli sub-commands. Each format contributes its `info` writer in its own file.
#pragma once

#include "io/loader.h"
#include "json.h"

#include <string>
#include <vector>

namespace rs::cli {

// Usage errors: exit status 2.
struct UsageError {
    std::string message;
};

// info writers: fill `j` (one JSON object) or `text` (readable summary). Throw ParseError on bad input.
void infoAlamo(const Document& doc, Json& j);
void infoW3d(const Document& doc, Json& j);
void infoAlamoText(const Document& doc, std::string& text);
// A material parameter as JSON: number, [x,y,z(,w)] or the texture name.
void writeParamValue(Json& j, const MaterialParam& p);

void infoGenericText(const Document& doc, std::string& text);
// Black & White 2 (.bwm, .al): re-reads doc.path for the raw file structure (info_bw2.cpp).
void infoBwm(const Document& doc, Json& j);
void infoAl(const Document& doc, Json& j);

// Dispatch for formats whose info is not a plain Document (e.g. AMAL banks). Returns false when
// the format is not one of them.
// rigscope-cli amal --json FILE (--movement N | --program N) [--ticks T]
int cmdAmal(const std::vector<std::string>& args);

// rigscope-cli export ... (cli_export.cpp)
int cmdExport(const std::vector<std::string>& args);

// `info` of a .dds/.tga texture (info_texture.cpp): false when the file is not one.
bool infoTexture(ByteSpan bytes, const std::string& path, bool json, std::string& out);

bool infoSpecial(const std::string& format, const std::string& path, bool json, std::string& out);

} // namespace rs::cli
