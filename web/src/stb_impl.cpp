// stb's image reader and writer for the WebAssembly build of export/ (the native build links Debian's libstb).
#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image.h>
#include <stb_image_write.h>
