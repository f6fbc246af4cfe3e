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
add_compile_options(-fexceptions)
add_link_options(-fexceptions)

# export/ (glTF download): tinygltf, nlohmann-json and stb (libtinygltf-dev, nlohmann-json3-dev, libstb-dev), each
# header folder linked alone; stb's implementation is compiled from its headers (web/src/stb_impl.cpp) instead of
# Debian's libstb.
file(MAKE_DIRECTORY "${RIGSCOPE_WEB_INCLUDE}/tinygltf" "${RIGSCOPE_WEB_INCLUDE}/json")
file(CREATE_LINK /usr/include/tiny_gltf.h "${RIGSCOPE_WEB_INCLUDE}/tinygltf/tiny_gltf.h" SYMBOLIC)
file(CREATE_LINK /usr/include/nlohmann "${RIGSCOPE_WEB_INCLUDE}/json/nlohmann" SYMBOLIC)
file(CREATE_LINK /usr/include/stb "${RIGSCOPE_WEB_INCLUDE}/stb" SYMBOLIC)
