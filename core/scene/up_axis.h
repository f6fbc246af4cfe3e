// The model-space axis that points up in a format's files: the one place the view and the exporter ask.
#pragma once

#include <string_view>

namespace rs {

enum class UpAxis { Z, Y };

// Black & White 2 ("bwm", "al"): +Y up. Every other format id of detectFormat (Alamo, W3D, ...): +Z up.
UpAxis upAxisOf(std::string_view format);

} // namespace rs
