// Defaulted special members with noexcept moves.
//
// With GLM_FORCE_CTOR_INIT the GLM types have user-provided copy constructors that are not noexcept, so a struct
// holding a glm member directly is not nothrow-move-constructible and std::vector deep-copies it when it grows.
// Declaring the moves noexcept (they do not throw: member moves of vectors/strings and copies of plain floats)
// makes vector growth move. Use inside the struct body; the struct stays an aggregate (C++17).
#pragma once

#define RS_NOEXCEPT_MOVABLE(T)                                                                                         \
    T() = default;                                                                                                     \
    T(const T&) = default;                                                                                             \
    T(T&&) noexcept = default;                                                                                         \
    T& operator=(const T&) = default;                                                                                  \
    T& operator=(T&&) noexcept = default;
