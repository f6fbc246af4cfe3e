// Placeholder translation unit until the render layer lands.
namespace rs::render {
int placeholder() { return 0; }
}
