#include "up_axis.h"

namespace rs {

UpAxis upAxisOf(std::string_view format) { return format == "bwm" || format == "al" ? UpAxis::Y : UpAxis::Z; }

} // namespace rs
