# Header-only libraries of the host (Debian's libglm-dev) for the WebAssembly build. Each gets an include folder of
# its own holding only a link to its headers: adding /usr/include itself would bring the host's libc headers in front
# of Emscripten's.
set(RIGSCOPE_WEB_INCLUDE "${CMAKE_BINARY_DIR}/host-include")
find_path(RIGSCOPE_HOST_GLM glm/glm.hpp PATHS /usr/include /usr/local/include NO_CMAKE_FIND_ROOT_PATH NO_DEFAULT_PATH)
if(NOT RIGSCOPE_HOST_GLM)
  message(FATAL_ERROR "GLM's headers not found (Debian: libglm-dev)")
endif()
file(MAKE_DIRECTORY "${RIGSCOPE_WEB_INCLUDE}/glm")
file(CREATE_LINK "${RIGSCOPE_HOST_GLM}/glm" "${RIGSCOPE_WEB_INCLUDE}/glm/glm" SYMBOLIC)
add_library(glm::glm INTERFACE IMPORTED)
target_include_directories(glm::glm SYSTEM INTERFACE "${RIGSCOPE_WEB_INCLUDE}/glm")
# C++ exceptions as WebAssembly exception handling (-fwasm-exceptions): a try block costs nothing until something
# throws. Emscripten's default JavaScript-based handling (-fexceptions) routes every call that may unwind through a
# JavaScript invoke_* trampoline, which made the readers 4-7x slower than native (docs/PERFORMANCE.md). Needs a
# browser with WebAssembly exception handling (Chrome/Edge 95, Firefox 100, Safari 15.2) and Node 17+.
add_compile_options(-fwasm-exceptions)
add_link_options(-fwasm-exceptions)

# export/ (glTF download): tinygltf, nlohmann-json and stb (libtinygltf-dev, nlohmann-json3-dev, libstb-dev), each
# header folder linked alone; stb's implementation is compiled from its headers (web/src/stb_impl.cpp) instead of
# Debian's libstb.
file(MAKE_DIRECTORY "${RIGSCOPE_WEB_INCLUDE}/tinygltf" "${RIGSCOPE_WEB_INCLUDE}/json")
file(CREATE_LINK /usr/include/tiny_gltf.h "${RIGSCOPE_WEB_INCLUDE}/tinygltf/tiny_gltf.h" SYMBOLIC)
file(CREATE_LINK /usr/include/nlohmann "${RIGSCOPE_WEB_INCLUDE}/json/nlohmann" SYMBOLIC)
file(CREATE_LINK /usr/include/stb "${RIGSCOPE_WEB_INCLUDE}/stb" SYMBOLIC)

# pugixml (W3X art, the object databases, the mod check): Debian's libpugixml-dev has headers and a host library
# only, so the same release is compiled here from Debian's source package (tools/pugixml-source.sh: apt-get source
# into build-web/deps/, the system's apt configuration untouched). Without it (no network at the first configure)
# W3X files are refused with a message and the page has no Objects list or check.
set(RIGSCOPE_WEB_DEPS "${CMAKE_BINARY_DIR}/deps")
if(NOT EXISTS "${RIGSCOPE_WEB_DEPS}/pugixml/src/pugixml.cpp")
  execute_process(COMMAND "${CMAKE_SOURCE_DIR}/tools/pugixml-source.sh" "${RIGSCOPE_WEB_DEPS}" RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(WARNING "pugixml's Debian source package could not be fetched (tools/pugixml-source.sh): the web build "
                    "has no W3X reader, Objects list or mod check")
  endif()
endif()
if(EXISTS "${RIGSCOPE_WEB_DEPS}/pugixml/src/pugixml.cpp")
  add_library(rigscope_web_pugixml STATIC "${RIGSCOPE_WEB_DEPS}/pugixml/src/pugixml.cpp")
  target_include_directories(rigscope_web_pugixml SYSTEM PUBLIC "${RIGSCOPE_WEB_DEPS}/pugixml/src")
  add_library(pugixml::pugixml ALIAS rigscope_web_pugixml)
  add_library(nlohmann_json::nlohmann_json INTERFACE IMPORTED)
  target_include_directories(nlohmann_json::nlohmann_json SYSTEM INTERFACE "${RIGSCOPE_WEB_INCLUDE}/json")
  set(RIGSCOPE_WEB_XML ON)
else()
  set(RIGSCOPE_WEB_XML OFF)
endif()
