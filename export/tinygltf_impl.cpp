// The one translation unit that compiles tinygltf's implementation (JSON via nlohmann-json, images via stb from
// libstb-dev, whose implementation is linked from libstb).
#define TINYGLTF_IMPLEMENTATION
#define TINYGLTF_NO_EXTERNAL_IMAGE
#include <tiny_gltf.h>
