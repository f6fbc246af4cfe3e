// The render layer's names for core's material policy (core/formats/material_policy.h), which export shares.
#pragma once

#include "formats/material_policy.h"

namespace rs::render {

using Family = rs::MaterialFamily;
using MaterialStyle = rs::MaterialPolicy;

} // namespace rs::render
