// Placeholder translation unit until the UI lands.
namespace rs::ui {
int placeholder() { return 0; }
}
